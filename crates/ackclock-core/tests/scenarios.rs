//! Scenario tests: known outcomes of small networks, conservation, determinism.

use ackclock_core::fixtures::{dumbbell, ns2_tcp};
use ackclock_core::results::Results;
use ackclock_core::scenario::{
    AppConfig, Distribution, FlowConfig, FlowKind, LinkConfig, QueueConfig, RunConfig, Scenario,
};
use ackclock_core::Simulator;

const MS: u64 = 1_000_000_000;
const S: u64 = 1_000_000_000_000;

fn run(sc: Scenario) -> Results {
    let mut sim = Simulator::new(sc).expect("valid scenario");
    sim.run();
    sim.results().expect("finished")
}

/// The reference case: one Reno flow, 1000 B segments, window 1000, 100 Mb/s 1 ms
/// access links, 10 Mb/s 50 ms bottleneck with a 125-packet DropTail buffer, 100 s.
fn single_reno(sample: bool) -> Scenario {
    let mut tcp = ns2_tcp();
    tcp.window = 1000;
    let mut sc = dumbbell(1, 100e6, 1, 10e6, 50, 125, tcp, 100);
    if sample {
        sc.run.sample_interval_ps = Some(10 * MS);
    }
    sc
}

#[test]
fn single_reno_fills_the_bottleneck() {
    let r = run(single_reno(false));
    let tput = r.flows.f64_column("throughput_mbps").unwrap()[0];
    assert!(tput >= 9.0, "throughput {tput} Mb/s");
    assert!(
        tput <= 10.0,
        "throughput {tput} Mb/s exceeds the 10 Mb/s bottleneck"
    );
    let fr = r.flows.u64_column("fast_retransmits").unwrap()[0];
    assert!(fr >= 3, "expected repeated fast retransmits, got {fr}");
}

#[test]
fn reno_cwnd_is_a_saw_tooth_halving_at_each_fast_retransmit() {
    let r = run(single_reno(true));
    let cwnd = r.timeseries.f64_column("cwnd").unwrap();
    let ssthresh = r.timeseries.f64_column("ssthresh").unwrap();
    // Find the drops: cwnd falling by more than a third between two 10 ms samples.
    let mut halvings = 0;
    let mut drops = 0;
    for i in 1..cwnd.len() {
        if cwnd[i] < cwnd[i - 1] * 0.67 {
            drops += 1;
            if drops == 1 || cwnd[i] < ssthresh[i] {
                // The slow-start overshoot (cwnd grows a lot within one sample) and
                // timeouts (cwnd back to 1) are not fast-recovery halvings.
                continue;
            }
            halvings += 1;
            // After a fast retransmit cwnd = ssthresh = half the window before the loss,
            // floored; in congestion avoidance it grows well under a segment per sample.
            let before = cwnd[i - 1];
            assert!(
                cwnd[i] - ssthresh[i] < 1.0,
                "cwnd {} sits at ssthresh {} after the halving",
                cwnd[i],
                ssthresh[i]
            );
            assert!(
                ssthresh[i] <= (before / 2.0).ceil(),
                "ssthresh {} after cwnd {before}",
                ssthresh[i]
            );
            assert!(
                ssthresh[i] >= (before / 2.0).floor() - 1.0,
                "ssthresh {} after cwnd {before}",
                ssthresh[i]
            );
        }
    }
    let fr = r.flows.u64_column("fast_retransmits").unwrap()[0];
    assert!(halvings >= 3, "only {halvings} halvings");
    assert!(halvings as u64 <= fr);
    // Between halvings the window grows: most steps are non-decreasing.
    let ups = cwnd.windows(2).filter(|w| w[1] >= w[0]).count();
    assert!(ups as f64 > 0.95 * (cwnd.len() - 1) as f64);
}

#[test]
fn queues_conserve_packets_and_flows_deliver_at_most_what_they_send() {
    let mut tcp = ns2_tcp();
    tcp.window = 100;
    let mut sc = dumbbell(4, 100e6, 1, 10e6, 20, 50, tcp, 30);
    sc.run.warmup_ps = 5 * S;
    let r = run(sc);
    let q = &r.queues;
    let arrived = q.u64_column("arrived_packets").unwrap();
    let departed = q.u64_column("departed_packets").unwrap();
    let dropped = q.u64_column("dropped_packets").unwrap();
    for i in 0..arrived.len() {
        // What waits at the window's edges is at most the buffer (50 packets).
        let diff = arrived[i] as i64 - (departed[i] + dropped[i]) as i64;
        assert!(
            diff.abs() <= 50,
            "link {i}: {} != {} + {}",
            arrived[i],
            departed[i],
            dropped[i]
        );
    }
    assert!(
        dropped.iter().sum::<u64>() > 0,
        "the bottleneck should drop"
    );
    let sent = r.flows.u64_column("packets_sent").unwrap();
    let delivered = r.flows.u64_column("packets_delivered").unwrap();
    for i in 0..sent.len() {
        // Packets in flight at the warm-up edge may arrive inside the window.
        assert!(
            delivered[i] <= sent[i] + 200,
            "flow {i}: {} > {}",
            delivered[i],
            sent[i]
        );
    }
}

#[test]
fn whole_run_packet_conservation_is_exact() {
    let sc = dumbbell(3, 100e6, 1, 10e6, 20, 30, ns2_tcp(), 20);
    let mut sim = Simulator::new(sc).unwrap();
    sim.run();
    let in_flight: usize = sim.link_in_flight().iter().sum();
    let r = sim.results().unwrap();
    let f = &r.flows;
    let sent: u64 = f.u64_column("packets_sent").unwrap().iter().sum();
    let received: u64 = f.u64_column("packets_delivered").unwrap().iter().sum();
    let dropped: u64 = f.u64_column("packets_dropped").unwrap().iter().sum();
    let acks: u64 = f.u64_column("acks_sent").unwrap().iter().sum();
    let acks_dropped: u64 = f.u64_column("acks_dropped").unwrap().iter().sum();
    let rtts: u64 = f.u64_column("rtt_samples").unwrap().iter().sum();
    assert!(rtts > 0);
    // Every data packet sent is received, dropped or still in the network; so is every ACK
    // (the ones received are not counted separately, so check the sum).
    assert!(sent + acks >= received + dropped + acks_dropped);
    assert!(sent + acks - (received + dropped + acks_dropped) <= in_flight as u64 + acks);
    let q = &r.queues;
    let arrived: u64 = q.u64_column("arrived_packets").unwrap().iter().sum();
    let departed: u64 = q.u64_column("departed_packets").unwrap().iter().sum();
    let qdropped: u64 = q.u64_column("dropped_packets").unwrap().iter().sum();
    assert!(arrived >= departed + qdropped);
    assert_eq!(qdropped, dropped + acks_dropped);
}

#[test]
fn same_seed_same_results_bit_for_bit() {
    let mut sc = single_reno(true);
    sc.flows[0].app = AppConfig::Ftp {
        start: Distribution::Uniform([0, S]),
        stop_ps: Some(80 * S),
        size_bytes: None,
    };
    sc.run.duration_ps = 20 * S;
    let a = run(sc.clone());
    let b = run(sc.clone());
    assert_eq!(a.flows.to_csv(), b.flows.to_csv());
    assert_eq!(a.timeseries.to_csv(), b.timeseries.to_csv());
    assert_eq!(a.queue_timeseries.to_csv(), b.queue_timeseries.to_csv());
    sc.run.seed = 2;
    let c = run(sc);
    assert_ne!(
        a.flows.f64_column("start_s").unwrap()[0],
        c.flows.f64_column("start_s").unwrap()[0]
    );
}

#[test]
fn cbr_gets_its_rate_and_ftp_stops() {
    let nodes = vec!["a".to_string(), "b".to_string()];
    let q = QueueConfig {
        limit_packets: Some(100),
        limit_bytes: None,
        ns2: true,
        ..Default::default()
    };
    let links = vec![
        LinkConfig {
            from: 0,
            to: 1,
            rate_bps: 10e6,
            delay_ps: 10 * MS,
            queue: q.clone(),
            loss: None,
            monitor_flows: false,
            loss_at_entry: false,
            loss_behind: Vec::new(),
            tx_time_ns: false,
        },
        LinkConfig {
            from: 1,
            to: 0,
            rate_bps: 10e6,
            delay_ps: 10 * MS,
            queue: q,
            loss: None,
            monitor_flows: false,
            loss_at_entry: false,
            loss_behind: Vec::new(),
            tx_time_ns: false,
        },
    ];
    let flows = vec![
        FlowConfig {
            tcp_table: None,
            ns2_boot_time_ps: None,
            tfrc: None,
            rap: None,
            connection: None,
            name: "cbr".into(),
            kind: FlowKind::Udp,
            from: 0,
            to: 1,
            tcp: None,
            header_size: 0,
            fid: None,
            priority: 0,
            ports: None,
            trace: vec![],
            // 1000 B every 2 ms = 4 Mb/s.
            app: AppConfig::Cbr {
                start: Distribution::Constant(0),
                stop_ps: None,
                interval_ps: 2 * MS,
                packet_size: 1000,
                random: false,
                after_connect: false,
                restart_every_ps: None,
            },
        },
        FlowConfig {
            tcp_table: None,
            ns2_boot_time_ps: None,
            tfrc: None,
            rap: None,
            connection: None,
            name: "tcp".into(),
            kind: FlowKind::Tcp,
            from: 0,
            to: 1,
            tcp: Some(ns2_tcp()),
            header_size: 0,
            fid: None,
            priority: 0,
            ports: None,
            trace: vec![],
            app: AppConfig::Ftp {
                start: Distribution::Constant(S),
                stop_ps: Some(5 * S),
                size_bytes: None,
            },
        },
    ];
    let sc = Scenario {
        tcp_tables: Vec::new(),
        name: "cbr".into(),
        profile: "ns2".into(),
        run: RunConfig {
            duration_ps: 10 * S,
            warmup_ps: 0,
            seed: 1,
            sample_interval_ps: None,
            check: false,
            max_events: None,
            max_packets: None,
            routing: Default::default(),
            ties: Default::default(),
        },
        nodes,
        links,
        flows,
        traces: Vec::new(),
        quick_start: None,
    };
    let r = run(sc);
    let t = r.flows.f64_column("throughput_mbps").unwrap();
    assert!((t[0] - 4.0).abs() < 0.01, "cbr {}", t[0]);
    let sent = r.flows.u64_column("packets_sent").unwrap();
    // One datagram every 2 ms over [0 s, 10 s], both ends included.
    assert_eq!(sent[0], 5001);
    // The TCP flow ran for 4 of the 10 s: well under the 6 Mb/s left over.
    assert!(t[1] > 0.5 && t[1] < 6.0 * 0.45, "tcp {}", t[1]);
}

#[test]
fn bad_scenarios_are_rejected_with_a_path() {
    let mut sc = single_reno(false);
    sc.links[0].rate_bps = -1.0;
    let e = Simulator::new(sc).err().unwrap();
    assert!(e.contains("link[0].rate"), "{e}");
    let mut sc = single_reno(false);
    sc.flows[0].to = 99;
    assert!(Simulator::new(sc).err().unwrap().contains("flow[0]"));
    let mut sc = single_reno(false);
    sc.links.truncate(2); // only the bottleneck: no route from the sender
    assert!(Simulator::new(sc).err().unwrap().contains("no route"));
    assert!(Simulator::from_json("{\"name\": 1}").is_err());
}

#[test]
#[ignore]
fn dump_single_reno() {
    let r = run(single_reno(true));
    let t = r.timeseries.f64_column("time_s").unwrap();
    let cwnd = r.timeseries.f64_column("cwnd").unwrap();
    let ss = r.timeseries.f64_column("ssthresh").unwrap();
    let rto = r.timeseries.f64_column("rto_s").unwrap();
    for i in (0..t.len()).step_by(5) {
        eprintln!("{:.2} {:.1} {} {:.3}", t[i], cwnd[i], ss[i], rto[i]);
    }
    eprintln!("{}", r.flows.to_csv());
    eprintln!("{}", r.queues.to_csv());
}

#[test]
fn syn_costs_one_round_trip_and_carries_no_payload() {
    let mut tcp = ns2_tcp();
    tcp.syn = true;
    let mut sc = dumbbell(1, 100e6, 1, 10e6, 20, 1000, tcp, 2);
    sc.run.sample_interval_ps = Some(5 * MS);
    let r = run(sc);
    let cwnd = r.timeseries.f64_column("cwnd").unwrap();
    let t = r.timeseries.f64_column("time_s").unwrap();
    // One segment (the SYN) for the first round trip of about 45 ms, then window_init = 2.
    assert_eq!(cwnd[0], 1.0);
    let first_growth = t[cwnd.iter().position(|c| *c > 1.0).unwrap()];
    assert!(
        (0.04..0.06).contains(&first_growth),
        "cwnd left 1 at {first_growth}"
    );
    assert_eq!(cwnd[cwnd.iter().position(|c| *c > 1.0).unwrap()], 2.0);
    let received = r.flows.u64_column("packets_delivered").unwrap()[0];
    let delivered = r.flows.u64_column("bytes_delivered").unwrap()[0];
    assert_eq!(r.flows.u64_column("packets_dropped").unwrap()[0], 0);
    assert_eq!(delivered, (received - 1) * 1000);
}

#[test]
fn traced_cwnd_changes_on_every_ack_and_drops_once_per_loss_event() {
    let mut sc = single_reno(false);
    sc.flows[0].trace = vec!["cwnd".into(), "ssthresh".into()];
    let r = run(sc);
    let t = &r.tcp_trace;
    let variable = t.column("variable").unwrap();
    let var: Vec<&str> = (0..variable.len())
        .map(|r| variable.str_at(r).unwrap())
        .collect();
    let value = t.f64_column("value").unwrap();
    let time = t.f64_column("time_s").unwrap();
    let cwnd: Vec<f64> = var
        .iter()
        .zip(value.iter())
        .filter(|(v, _)| **v == "cwnd")
        .map(|(_, x)| *x)
        .collect();
    assert!(time.windows(2).all(|w| w[0] <= w[1]), "rows in time order");
    assert!(
        cwnd.windows(2).all(|w| w[0] != w[1]),
        "a row only when the value changes"
    );
    // Every new ACK opens cwnd, so there is about one row per ACK.
    let acks = r.flows.u64_column("acks_sent").unwrap()[0];
    assert!(
        cwnd.len() as f64 > 0.9 * acks as f64,
        "{} rows for {acks} ACKs",
        cwnd.len()
    );
    let drops = cwnd.windows(2).filter(|w| w[1] < w[0]).count() as u64;
    let f = &r.flows;
    let losses =
        f.u64_column("fast_retransmits").unwrap()[0] + f.u64_column("timeouts").unwrap()[0];
    assert_eq!(drops, losses);
    assert!(var.contains(&"ssthresh"));
}

/// Every counter reaches the result tables: the counters are declared once
/// (`monitor::counters!`), the tables name their columns themselves, so each count is either
/// a column of its own name or listed here with the columns derived from it. A counter added
/// without a place in the tables fails here.
#[test]
fn every_counter_reaches_a_result_table() {
    use ackclock_core::monitor::{FlowCounters, QueueCounters};
    let mut tcp = ns2_tcp();
    tcp.window = 20;
    let r = run(dumbbell(1, 100e6, 1, 10e6, 10, 20, tcp, 1));
    let flow_derived: &[(&str, &[&str])] = &[
        ("packets_received", &["packets_delivered"]),
        ("bytes_received", &["throughput_mbps"]),
        ("bytes_delivered", &["goodput_mbps"]),
        ("packets_dropped", &["loss_rate"]),
        ("rtt_sum_ps", &["mean_rtt_s"]),
        ("rto_area", &["mean_rto_s"]),
        ("rto_time_ps", &["mean_rto_s"]),
    ];
    // `delivered_packets` is summed into summary.json's `packet_hops` instead.
    let queue_derived: &[(&str, &[&str])] = &[
        ("delivered_packets", &[]),
        ("area_packets", &["mean_queue_packets"]),
        ("area_bytes", &["mean_queue_bytes"]),
        ("sojourn_sum_ps", &["mean_sojourn_s"]),
        ("max_sojourn_ps", &["max_sojourn_s"]),
    ];
    for (table, names, derived) in [
        (&r.flows, FlowCounters::NAMES, flow_derived),
        (&r.queues, QueueCounters::NAMES, queue_derived),
    ] {
        for name in names {
            let from = derived.iter().find(|(n, _)| n == name);
            assert!(
                table.column(name).is_some() || from.is_some(),
                "counter {name} is in no result table"
            );
            for col in from.map_or(&[][..], |(_, cols)| cols) {
                assert!(table.column(col).is_some(), "{name}: no column {col}");
            }
        }
        for (n, _) in derived {
            assert!(names.contains(n), "{n} is not a counter");
        }
    }
    assert!(r.summary.packet_hops > 0);
}

/// Under ns-2's order of simultaneous events (`run.ties = "ns2"`), a bottleneck whose
/// discipline holds its packets keeps ns-2's clock (net/link/ns2_held.rs): the packet it
/// chooses gets its times when it starts, and TBF, which may hold packets it cannot send yet,
/// is asked again at its wake-up. Each carries what it carries in the default order, to a
/// rounding of ns-2's doubles: the same share of the line, TBF its token rate.
#[test]
fn dequeue_time_disciplines_run_on_ns2s_clock() {
    use ackclock_core::queue::QueueKind;
    use ackclock_core::scenario::Ties;
    use std::collections::BTreeMap;
    let cases: [(QueueKind, &[(&str, f64)]); 4] = [
        (QueueKind::Sfq, &[]),
        (QueueKind::Drr, &[]),
        (QueueKind::CoDel, &[]),
        (QueueKind::Tbf, &[("token_rate", 4e6), ("burst", 20_000.0)]),
    ];
    for (kind, params) in cases {
        let goodput = |ties: Ties| {
            let mut sc = dumbbell(3, 100e6, 1, 10e6, 20, 50, ns2_tcp(), 20);
            let params: BTreeMap<String, f64> =
                params.iter().map(|&(k, v)| (k.to_string(), v)).collect();
            let mut q = QueueConfig::with(kind, &params).expect("a valid discipline");
            q.limit_packets = Some(50);
            sc.links[0].queue = q;
            sc.run.ties = ties;
            let r = run(sc);
            let g = r.flows.f64_column("throughput_mbps").unwrap();
            g.iter().sum::<f64>()
        };
        let (ns2, ins) = (goodput(Ties::Ns2), goodput(Ties::Insertion));
        let line = if kind == QueueKind::Tbf { 4.0 } else { 10.0 };
        assert!(
            ns2 > 0.85 * line && ns2 <= line * 1.01,
            "{kind:?}: {ns2} Mb/s under ns-2's clock"
        );
        assert!(
            (ns2 - ins).abs() < 0.03 * line,
            "{kind:?}: {ns2} against {ins} Mb/s"
        );
    }
}
