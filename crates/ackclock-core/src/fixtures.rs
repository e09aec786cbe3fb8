//! Ready-made scenarios for tests, benchmarks and examples, built in Rust without a front end.
//! Compiled for the crate's own tests and with the `fixtures` feature only: not part of the
//! library.

use crate::scenario::{
    AppConfig, Distribution, FlowConfig, FlowKind, LinkConfig, QueueConfig, RunConfig, Scenario,
    TcpConfig,
};

use crate::tcp::cc::hystart::HyStartRule;
use crate::tcp::rtt::RtoRule;
use crate::tcp::sender::Recovery;
use crate::tcp::sink::SinkKind;
use crate::tcp::WindowUnit;

const MS: u64 = 1_000_000_000;
const S: u64 = 1_000_000_000_000;

/// ns-2.35's `Agent/TCP` defaults with Reno and an ack-every-packet sink.
pub fn ns2_tcp() -> TcpConfig {
    TcpConfig {
        variant: Recovery::Reno,
        cc: "reno".parse().expect("a registered congestion control"),
        sink: SinkKind::AckEvery,
        packet_size: 1000,
        header_size: 40,
        ack_size: 40,
        window: 20,
        window_init: 2,
        initial_ssthresh: None,
        dupack_threshold: 3,
        dupack_cwnd_fraction: 0,
        min_rto_ps: 200 * MS,
        max_rto_ps: 60 * S,
        initial_rto_ps: 3 * S,
        timer_granularity_ps: 10 * MS,
        segs_per_ack: 2,
        ack_delay_ps: 100 * MS,
        limited_transmit: true,
        syn: false,
        delay_growth: true,
        max_burst: 0,
        max_ssthresh: 0,
        delayed_ack: false,
        timestamps: false,
        ts_echo_rfc7323: true,
        window_unit: WindowUnit::Packets,
        ecn: false,
        rcv_buffer_bytes: None,
        snd_buffer_bytes: None,
        app_read_rate_bps: None,
        pacing: false,
        psh: false,
        hystart: HyStartRule::Off,
        rto_rule: RtoRule::Rfc6298,
        prr: false,
        rfc6675_recovery: false,
        rack: false,
        cwnd_validation: false,
        delack_syn: false,
        delack_repeat: true,
        delack_gap_fill: false,
        delack_dup_at_once: false,
        bug_fix: true,
        ns2_full_tcp: false,
        bare_first_segment: false,
        precision_reduce: true,
        partial_deflation: true,
        slow_but_steady: false,
        exit_recovery_fix: false,
        recovery_exit_growth: true,
        careful_after_fast_retransmit: true,
        ssthresh_flight: false,
        less_careful: false,
        bugfix_ack: false,
        bugfix_ts: false,
        dupacks_always_inflate: false,
        no_fast_retransmit: false,
        old_ack_sends: true,
        send_overhead_ps: 0,
        quick_start: 0,
        quick_start_rtt_ps: 50_000_000_000,
        quick_start_thresh: 4,
        quick_start_recovery: true,
        window_init_by_size: false,
        ns2_first_loss: crate::tcp::sender::FirstLoss::Off,
        ns2_ecn: crate::tcp::sender::Ns2Ecn::Off,
        rtx_timer_before_sample: false,
        sack_exit_clears_recover: true,
        idle_rtx_timer: false,
        idle_timeout_keeps_window: false,
        ns2_qoption: Default::default(),
        ns2_rbp: Default::default(),
        ns2_rbp_scale: 0.75,
        ns2_frto: Default::default(),
        sack_partial_ack: false,
        ts_reset_rto: false,
        syn_max_sends: 0,
        control_increase: false,
        max_cwnd: 0,
        ns2_first_decrease: false,
        rfc793_fast_retransmit: false,
        rfc793_slow_start: false,
        rfc793_jacobson_rto: false,
        rfc793_karn: true,
        rfc793_backoff: true,
        ns2_rtt_timer: false,
        ns2_boot_time_ps: 0,
        ns2_srtt_bits: 3,
        ns2_rttvar_bits: 2,
        ns2_rttvar_exp: 2,
        quick_acks: 0,
        sack_block_bytes: 8,
        syn_option_bytes: 0,
        handshake_ack: false,
        adaptive_ack_delay: false,
        integer_cwnd: false,
        sack_compression: false,
        ns3_newreno_growth: false,
        growth_per_ack: false,
        ns3_cc_defaults: false,
        ns3_cwnd_limited: false,
        ns3_srtt_samples: false,
        ns3_ts_ms: false,
        ns3_rate_sample: false,
    }
}

/// A dumbbell: `n` senders s{i} and receivers d{i} on access links of `access_bps` and
/// `access_delay_ms`, joined by a bottleneck r1->r2 of `bottleneck_bps`, `bottleneck_delay_ms`
/// and a DropTail buffer of `buffer` packets (plain accounting), one Reno FTP flow per pair
/// starting at `i * stagger_ms`.
#[allow(clippy::too_many_arguments)]
pub fn dumbbell(
    n: usize,
    access_bps: f64,
    access_delay_ms: u64,
    bottleneck_bps: f64,
    bottleneck_delay_ms: u64,
    buffer: u64,
    tcp: TcpConfig,
    duration_s: u64,
) -> Scenario {
    let mut nodes = vec!["r1".to_string(), "r2".to_string()];
    for i in 0..n {
        nodes.push(format!("s{i}"));
        nodes.push(format!("d{i}"));
    }
    let q = |limit: u64| QueueConfig {
        limit_packets: Some(limit),
        ..QueueConfig::default()
    };
    let duplex = |a: u32, b: u32, bps: f64, ms: u64, limit: u64| {
        [
            LinkConfig {
                from: a,
                to: b,
                rate_bps: bps,
                delay_ps: ms * MS,
                queue: q(limit),
                loss: None,
                monitor_flows: false,
                loss_at_entry: false,
                loss_behind: Vec::new(),
                tx_time_ns: false,
            },
            LinkConfig {
                from: b,
                to: a,
                rate_bps: bps,
                delay_ps: ms * MS,
                queue: q(limit),
                loss: None,
                monitor_flows: false,
                loss_at_entry: false,
                loss_behind: Vec::new(),
                tx_time_ns: false,
            },
        ]
    };
    let mut links = Vec::new();
    links.extend(duplex(0, 1, bottleneck_bps, bottleneck_delay_ms, buffer));
    for i in 0..n as u32 {
        links.extend(duplex(
            2 + 2 * i,
            0,
            access_bps,
            access_delay_ms,
            buffer.max(1000),
        ));
        links.extend(duplex(
            1,
            3 + 2 * i,
            access_bps,
            access_delay_ms,
            buffer.max(1000),
        ));
    }
    let flows = (0..n as u32)
        .map(|i| FlowConfig {
            tcp_table: None,
            ns2_boot_time_ps: None,
            tfrc: None,
            rap: None,
            connection: None,
            name: format!("tcp{i}"),
            kind: FlowKind::Tcp,
            from: 2 + 2 * i,
            to: 3 + 2 * i,
            tcp: Some(tcp.clone()),
            header_size: 0,
            fid: None,
            priority: 0,
            ports: None,
            trace: vec![],
            app: AppConfig::Ftp {
                start: Distribution::Constant(i as u64 * 10 * MS),
                stop_ps: None,
                size_bytes: None,
            },
        })
        .collect();
    Scenario {
        tcp_tables: Vec::new(),
        name: format!("dumbbell-{n}"),
        profile: "ns2".into(),
        run: RunConfig {
            duration_ps: duration_s * S,
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
    }
}

/// A bare link `from` -> `to` at `bps`, 1 ps of delay, a 10-packet DropTail queue: what the
/// routing tests need of a link (its ends), without a scenario.
pub fn bare_link(from: u32, to: u32, bps: f64) -> crate::net::Link {
    use crate::ids::NodeId;
    use crate::queue::{AnyQueue, DropTail};
    use crate::time::{Rate, SimDuration};
    crate::net::Link::new(
        NodeId(from),
        NodeId(to),
        Rate::from_bps_f64(bps).expect("rate"),
        SimDuration(1),
        AnyQueue::DropTail(DropTail::with_limits(Some(10), None, false)),
    )
}
