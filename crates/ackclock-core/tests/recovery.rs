//! The classic one-window drop experiments of Fall & Floyd, "Simulation-based comparisons of
//! Tahoe, Reno, and SACK TCP" (CCR 1996): one flow over S -(8 Mb/s, 0.1 ms)- R -(0.8 Mb/s,
//! 100 ms)- K, window 20, 1000 B segments, and 1 to 4 packets of one window dropped on
//! purpose. Outcomes are asserted from the counters and the cwnd series.

use ackclock_core::fixtures::ns2_tcp;
use ackclock_core::results::Results;
use ackclock_core::scenario::{
    AppConfig, Distribution, FlowConfig, FlowKind, LinkConfig, LossConfig, QueueConfig, RunConfig,
    Scenario,
};
use ackclock_core::tcp::sender::Recovery;
use ackclock_core::tcp::sink::SinkKind;
use ackclock_core::Simulator;

const MS: u64 = 1_000_000_000;
const S: u64 = 1_000_000_000_000;

fn fall_floyd(variant: &str, drops: &[u64], min_rto_ms: u64) -> Results {
    let q = QueueConfig {
        limit_packets: Some(100),
        limit_bytes: None,
        ns2: true,
        ..Default::default()
    };
    let link = |from, to, rate_bps, ms, loss| LinkConfig {
        from,
        to,
        rate_bps,
        delay_ps: ms,
        queue: q.clone(),
        loss,
        monitor_flows: false,
        loss_at_entry: false,
        loss_behind: Vec::new(),
        tx_time_ns: false,
    };
    let loss = Some(LossConfig::DropList {
        flow: 0,
        packets: drops.to_vec(),
        mark_ecn: false,
        delay_ps: 0,
        acks: false,
        connection: false,
        counted: false,
    });
    let mut tcp = ns2_tcp();
    tcp.variant = serde_json::from_value(serde_json::Value::from(variant)).expect("a variant");
    if tcp.variant == Recovery::Sack {
        tcp.sink = SinkKind::Sack;
    }
    tcp.window = 20;
    tcp.min_rto_ps = min_rto_ms * MS;
    let sc = Scenario {
        tcp_tables: Vec::new(),
        name: format!("fall-floyd-{variant}-{}", drops.len()),
        profile: "ns2".into(),
        run: RunConfig {
            duration_ps: 10 * S,
            warmup_ps: 0,
            seed: 1,
            sample_interval_ps: Some(10 * MS),
            check: false,
            max_events: None,
            max_packets: None,
            routing: Default::default(),
            ties: Default::default(),
        },
        nodes: vec!["s".into(), "r".into(), "k".into()],
        links: vec![
            link(0, 1, 8e6, MS / 10, None),
            link(1, 0, 8e6, MS / 10, None),
            link(1, 2, 0.8e6, 100 * MS, loss),
            link(2, 1, 0.8e6, 100 * MS, None),
        ],
        flows: vec![FlowConfig {
            tcp_table: None,
            ns2_boot_time_ps: None,
            tfrc: None,
            rap: None,
            connection: None,
            name: "tcp".into(),
            kind: FlowKind::Tcp,
            from: 0,
            to: 2,
            tcp: Some(tcp),
            header_size: 0,
            fid: None,
            priority: 0,
            ports: None,
            trace: vec![],
            app: AppConfig::Ftp {
                start: Distribution::Constant(0),
                stop_ps: None,
                size_bytes: None,
            },
        }],
        traces: Vec::new(),
        quick_start: None,
    };
    let mut sim = Simulator::new(sc).unwrap();
    sim.run();
    sim.results().unwrap()
}

/// Transmissions 100, 102, 104, 106 fall in one window, sent when cwnd has long passed the
/// receiver window of 20 (so ssthresh after the loss is 10).
fn drops(n: usize) -> Vec<u64> {
    (0..n as u64).map(|i| 100 + 2 * i).collect()
}

fn counter(r: &Results, name: &str) -> u64 {
    r.flows.u64_column(name).unwrap()[0]
}

/// The smallest cwnd once slow start has first passed the receiver window.
fn min_cwnd_after_loss(r: &Results) -> f64 {
    let cwnd = r.timeseries.f64_column("cwnd").unwrap();
    let first = cwnd
        .iter()
        .position(|c| *c >= 20.0)
        .expect("cwnd reaches the window");
    cwnd[first..].iter().copied().fold(f64::INFINITY, f64::min)
}

#[test]
fn tahoe_slow_starts_from_one_segment_after_any_loss() {
    for n in 1..=4 {
        let r = fall_floyd("tahoe", &drops(n), 1000);
        assert_eq!(counter(&r, "packets_dropped"), n as u64);
        assert!(counter(&r, "fast_retransmits") >= 1, "{n} drops");
        assert_eq!(min_cwnd_after_loss(&r), 1.0, "{n} drops");
        assert_eq!(counter(&r, "bytes_delivered") % 1000, 0);
    }
}

#[test]
fn reno_halves_on_one_drop_without_timeout() {
    let r = fall_floyd("reno", &drops(1), 1000);
    assert_eq!(counter(&r, "fast_retransmits"), 1);
    assert_eq!(counter(&r, "timeouts"), 0);
    assert_eq!(counter(&r, "packets_retransmitted"), 1);
    // ssthresh = window / 2 = 10; cwnd never falls below it.
    assert_eq!(min_cwnd_after_loss(&r), 10.0);
}

#[test]
fn reno_waits_for_a_timeout_with_two_or_more_drops() {
    for n in 2..=4 {
        let r = fall_floyd("reno", &drops(n), 1000);
        assert_eq!(counter(&r, "fast_retransmits"), 1, "{n} drops");
        assert_eq!(counter(&r, "timeouts"), 1, "{n} drops");
        assert_eq!(min_cwnd_after_loss(&r), 1.0, "{n} drops");
    }
}

#[test]
fn newreno_recovers_every_drop_without_timeout() {
    for n in 1..=4 {
        let r = fall_floyd("newreno", &drops(n), 1000);
        assert_eq!(counter(&r, "fast_retransmits"), 1, "{n} drops");
        assert_eq!(counter(&r, "timeouts"), 0, "{n} drops");
        assert_eq!(counter(&r, "packets_retransmitted"), n as u64, "{n} drops");
        assert_eq!(min_cwnd_after_loss(&r), 10.0, "{n} drops");
    }
}

#[test]
fn impatient_newreno_times_out_on_three_drops_with_a_200ms_floor() {
    // RFC 6582 4.1: the timer restarts only on the first partial ACK, so recovering one hole
    // per round trip outlasts an RTO near its 0.2 s floor (ns-2's minrto_).
    let r = fall_floyd("newreno", &drops(3), 200);
    assert_eq!(counter(&r, "timeouts"), 1);
    let one = fall_floyd("newreno", &drops(1), 200);
    assert_eq!(counter(&one, "timeouts"), 0);
}

#[test]
fn sack_recovers_every_drop_in_about_one_round_trip() {
    let newreno4 = fall_floyd("newreno", &drops(4), 1000);
    let one = fall_floyd("sack", &drops(1), 1000);
    for n in 1..=4 {
        let r = fall_floyd("sack", &drops(n), 1000);
        assert_eq!(counter(&r, "fast_retransmits"), 1, "{n} drops");
        assert_eq!(counter(&r, "timeouts"), 0, "{n} drops");
        assert_eq!(counter(&r, "packets_retransmitted"), n as u64, "{n} drops");
        assert_eq!(min_cwnd_after_loss(&r), 10.0, "{n} drops");
        // All holes are resent within the first recovery round trip, so the run loses
        // next to nothing against a single drop (NewReno needs one round trip per hole).
        let sent = counter(&r, "packets_sent");
        assert!(
            sent + 3 >= counter(&one, "packets_sent"),
            "{n} drops: {sent}"
        );
        if n == 4 {
            assert!(sent > counter(&newreno4, "packets_sent") + 20);
        }
    }
}
