//! Small random-but-valid networks for the invariant and property tests.

#![allow(dead_code)]

use ackclock_core::fixtures::ns2_tcp;
use ackclock_core::scenario::{
    AppConfig, CoDelConfig, Distribution, FlowConfig, FlowKind, LinkConfig, LossConfig, PieConfig,
    QueueConfig, QueueDocument, QueueKind, RedConfig, RunConfig, Scenario,
};
use ackclock_core::tcp::sender::Recovery;
use ackclock_core::tcp::sink::SinkKind;

pub const MS: u64 = 1_000_000_000;
pub const S: u64 = 1_000_000_000_000;

/// A queue discipline by number: 0 DropTail, 1 DropTail (ns-2 accounting), 2 DropTail in
/// bytes, 3 RED, 4 CoDel, 5 FQ-CoDel, 6 PIE, 7 ARED, 8 NLRED, 9 CoBALT, 10 FQ-PIE, 11 TBF,
/// 12 pfifo_fast, 13 prio, 14 SFQ, 15 DRR, 16 FQ-CoDel above a 5-packet device queue with BQL,
/// 17 TBF above a 1-packet device queue, 18 RED above a 1-packet device queue (ns-3's loop).
pub const QUEUE_KINDS: u8 = 19;

pub fn queue(kind: u8, limit: u64) -> QueueConfig {
    let mut q = QueueDocument {
        kind: QueueKind::DropTail,
        limit_packets: Some(limit),
        limit_bytes: None,
        ns2: false,
        ecn: false,
        red: None,
        codel: None,
        pie: None,
        params: Default::default(),
        device: None,
        custom: None,
        classes: Vec::new(),
        diffserv: None,
    };
    match kind % QUEUE_KINDS {
        0 => {}
        1 => q.ns2 = true,
        2 => {
            q.limit_packets = None;
            q.limit_bytes = Some(limit * 1040);
        }
        3 => {
            q.kind = QueueKind::Red;
            q.red = Some(RedConfig {
                min_thresh: 0.0,
                max_thresh: 0.0,
                q_weight: 0.002,
                max_p: 0.1,
                gentle: true,
                wait: true,
                bytes: false,
                queue_in_bytes: false,
                mean_pktsize: 1000,
                target_delay_ps: 5 * MS,
                use_mark_p: false,
                mark_p: 0.1,
            });
        }
        4 | 5 => {
            q.kind = if kind % QUEUE_KINDS == 4 {
                QueueKind::CoDel
            } else {
                QueueKind::FqCoDel
            };
            q.codel = Some(CoDelConfig {
                target_ps: 5 * MS,
                interval_ps: 100 * MS,
                mtu: 1500,
                flows: 16,
                quantum: 1514,
                ce_threshold_ps: None,
            });
        }
        7..=15 => {
            let name = [
                "ared",
                "nlred",
                "cobalt",
                "fq_pie",
                "tbf",
                "pfifo_fast",
                "prio",
                "sfq",
                "drr",
            ][(kind % QUEUE_KINDS - 7) as usize];
            q.kind = QueueKind::by_name(name).unwrap();
            if name == "tbf" {
                q.params.insert("token_rate".into(), 2e6);
                q.params.insert("burst".into(), 5000.0);
            }
        }
        16 => {
            q.kind = QueueKind::FqCoDel;
            q.device = Some(ackclock_core::scenario::DeviceConfig {
                limit_packets: 5,
                bql: true,
                bql_hold_time_ps: None,
                ns3_run: false,
            });
        }
        17 => {
            q.kind = QueueKind::by_name("tbf").unwrap();
            q.params.insert("token_rate".into(), 2e6);
            q.params.insert("burst".into(), 5000.0);
            q.device = Some(ackclock_core::scenario::DeviceConfig {
                limit_packets: 1,
                bql: false,
                bql_hold_time_ps: None,
                ns3_run: false,
            });
        }
        18 => {
            q.kind = QueueKind::Red;
            q.params.insert("min_thresh".into(), 3.0);
            q.params.insert("max_thresh".into(), 6.0);
            q.params.insert("q_weight".into(), 0.02);
            q.device = Some(ackclock_core::scenario::DeviceConfig {
                limit_packets: 1,
                bql: false,
                bql_hold_time_ps: None,
                ns3_run: true,
            });
        }
        _ => {
            q.kind = QueueKind::Pie;
            q.pie = Some(PieConfig {
                target_ps: 15 * MS,
                t_update_ps: 15 * MS,
                alpha: 0.125,
                beta: 1.25,
                max_burst_ps: 150 * MS,
                mean_pktsize: 1000,
                mark_ecn_threshold: 0.1,
            });
        }
    }
    QueueConfig::try_from(q).unwrap()
}

/// What varies between generated networks.
#[derive(Clone, Debug)]
pub struct Net {
    /// Dumbbell (true: senders s{i} -> r1 -> r2 -> d{i}) or a line of `hops` routers.
    pub dumbbell: bool,
    pub hops: usize,
    pub bottleneck_bps: f64,
    pub delay_ms: u64,
    pub buffer: u64,
    pub queue_kind: u8,
    pub loss: f64,
    /// Per flow: (TCP variant index, cc index) for TCP, or None for a CBR flow of
    /// `cbr_fraction` of the bottleneck.
    pub flows: Vec<Option<(u8, u8)>>,
    pub cbr_fraction: f64,
    pub seed: u64,
    pub duration_ms: u64,
}

const VARIANTS: [Recovery; 4] = [
    Recovery::Tahoe,
    Recovery::Reno,
    Recovery::NewReno,
    Recovery::Sack,
];
const CCS: [&str; 5] = ["reno", "cubic", "highspeed", "scalable", "westwood"];

pub fn build(net: &Net) -> Scenario {
    let mut nodes: Vec<String> = Vec::new();
    let mut links = Vec::new();
    let mut duplex = |a: u32, b: u32, bps: f64, ms: u64, q: QueueConfig, loss: f64| {
        let lossy = (loss > 0.0).then_some(LossConfig::Bernoulli { p: loss });
        links.push(LinkConfig {
            from: a,
            to: b,
            rate_bps: bps,
            delay_ps: ms * MS,
            queue: q.clone(),
            loss: lossy,
            monitor_flows: false,
            loss_at_entry: false,
            loss_behind: Vec::new(),
            tx_time_ns: false,
        });
        links.push(LinkConfig {
            from: b,
            to: a,
            rate_bps: bps,
            delay_ps: ms * MS,
            queue: q,
            loss: None,
            monitor_flows: false,
            loss_at_entry: false,
            loss_behind: Vec::new(),
            tx_time_ns: false,
        });
    };
    let n = net.flows.len().max(1);
    let fast = net.bottleneck_bps * 10.0;
    let big = queue(0, 1000);
    let bq = queue(net.queue_kind, net.buffer.max(1));
    let mut ends = Vec::new();
    if net.dumbbell {
        nodes.extend(["r1".to_string(), "r2".to_string()]);
        duplex(0, 1, net.bottleneck_bps, net.delay_ms, bq, net.loss);
        for i in 0..n {
            let s = nodes.len() as u32;
            nodes.push(format!("s{i}"));
            nodes.push(format!("d{i}"));
            duplex(s, 0, fast, 1, big.clone(), 0.0);
            duplex(1, s + 1, fast, 1, big.clone(), 0.0);
            ends.push((s, s + 1));
        }
    } else {
        let hops = net.hops.clamp(1, 4);
        for i in 0..=hops {
            nodes.push(format!("n{i}"));
        }
        for i in 0..hops as u32 {
            // The middle hop is the bottleneck.
            let mid = i as usize == hops / 2;
            let (bps, q, loss) = if mid {
                (net.bottleneck_bps, bq.clone(), net.loss)
            } else {
                (fast, big.clone(), 0.0)
            };
            duplex(i, i + 1, bps, net.delay_ms, q, loss);
        }
        for _ in 0..n {
            ends.push((0, hops as u32));
        }
    }
    let flows = net
        .flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (from, to) = ends[i];
            let start = Distribution::Constant(i as u64 * 7 * MS);
            match f {
                Some((v, c)) => {
                    let mut tcp = ns2_tcp();
                    tcp.variant = VARIANTS[*v as usize % VARIANTS.len()];
                    tcp.cc = CCS[*c as usize % CCS.len()].parse().unwrap();
                    tcp.sink = if tcp.variant == Recovery::Sack {
                        SinkKind::Sack
                    } else {
                        SinkKind::AckEvery
                    };
                    tcp.window = 64;
                    FlowConfig {
                        tcp_table: None,
                        ns2_boot_time_ps: None,
                        tfrc: None,
                        rap: None,
                        connection: None,
                        name: format!("tcp{i}"),
                        kind: FlowKind::Tcp,
                        from,
                        to,
                        tcp: Some(tcp),
                        header_size: 0,
                        fid: None,
                        priority: 0,
                        ports: None,
                        trace: vec![],
                        app: AppConfig::Ftp {
                            start,
                            stop_ps: None,
                            size_bytes: None,
                        },
                    }
                }
                None => {
                    let payload = 500u32;
                    let bps = (net.bottleneck_bps * net.cbr_fraction).max(1e3);
                    FlowConfig {
                        tcp_table: None,
                        ns2_boot_time_ps: None,
                        tfrc: None,
                        rap: None,
                        connection: None,
                        name: format!("cbr{i}"),
                        kind: FlowKind::Udp,
                        from,
                        to,
                        tcp: None,
                        header_size: 28,
                        fid: None,
                        priority: 0,
                        ports: None,
                        trace: vec![],
                        app: AppConfig::Cbr {
                            start,
                            stop_ps: None,
                            interval_ps: (payload as f64 * 8.0 / bps * S as f64) as u64,
                            packet_size: payload,
                            random: true,
                            after_connect: false,
                            restart_every_ps: None,
                        },
                    }
                }
            }
        })
        .collect();
    Scenario {
        tcp_tables: Vec::new(),
        name: "generated".into(),
        profile: "ns2".into(),
        run: RunConfig {
            duration_ps: net.duration_ms * MS,
            warmup_ps: 0,
            seed: net.seed,
            sample_interval_ps: None,
            check: true,
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

/// A small congested dumbbell: two TCP flows and a CBR flow over a 10 Mb/s bottleneck with a
/// 10-packet buffer and 1% random loss.
pub fn congested(queue_kind: u8) -> Scenario {
    build(&Net {
        dumbbell: true,
        hops: 1,
        bottleneck_bps: 10e6,
        delay_ms: 10,
        buffer: 10,
        queue_kind,
        loss: 0.01,
        flows: vec![Some((1, 0)), Some((3, 1)), None],
        cbr_fraction: 0.5,
        seed: 7,
        duration_ms: 5_000,
    })
}
