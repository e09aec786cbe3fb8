//! Two-way TCP connections (`tcp/full.rs`) in whole runs: a client and a server two hops
//! apart, exact byte counts both ways, recovery under loss, piggy-backing, determinism.

use ackclock_core::fixtures::ns2_tcp;
use ackclock_core::results::Results;
use ackclock_core::scenario::{
    AppConfig, ConnectionConfig, Distribution, FlowConfig, FlowKind, LinkConfig, LossConfig,
    QueueConfig, RunConfig, Scenario, TcpConfig,
};
use ackclock_core::Simulator;

const MS: u64 = 1_000_000_000;
const S: u64 = 1_000_000_000_000;

struct Setup {
    sizes: [Option<u64>; 2],
    exchange: &'static str,
    /// Bernoulli loss on the bottleneck, both ways.
    loss: f64,
    tcp: TcpConfig,
    two_way: bool,
}

fn setup(sizes: [Option<u64>; 2], exchange: &'static str) -> Setup {
    let mut tcp = ns2_tcp();
    tcp.syn = true;
    tcp.window = 64;
    Setup {
        sizes,
        exchange,
        loss: 0.0,
        tcp,
        two_way: true,
    }
}

fn scenario(s: &Setup) -> Scenario {
    let q = QueueConfig {
        limit_packets: Some(50),
        ..Default::default()
    };
    let link = |from, to, rate_bps, ms, p: f64| LinkConfig {
        from,
        to,
        rate_bps,
        delay_ps: ms * MS,
        queue: q.clone(),
        loss: (p > 0.0).then_some(LossConfig::Bernoulli { p }),
        monitor_flows: false,
        loss_at_entry: false,
        loss_behind: Vec::new(),
        tx_time_ns: false,
    };
    let flow = |name: &str, from, to, size, connection| FlowConfig {
        tcp_table: None,
        ns2_boot_time_ps: None,
        tfrc: None,
        rap: None,
        name: name.into(),
        kind: FlowKind::Tcp,
        from,
        to,
        tcp: Some(s.tcp.clone()),
        header_size: 0,
        fid: None,
        priority: 0,
        ports: None,
        trace: vec![],
        app: AppConfig::Ftp {
            start: Distribution::Constant(0),
            stop_ps: None,
            size_bytes: size,
        },
        connection,
    };
    let conn = |peer, initiator| {
        s.two_way.then(|| ConnectionConfig {
            peer,
            initiator,
            exchange: s.exchange.parse().unwrap(),
        })
    };
    Scenario {
        tcp_tables: Vec::new(),
        name: "full".into(),
        profile: "ns2".into(),
        run: RunConfig {
            duration_ps: 60 * S,
            warmup_ps: 0,
            seed: 7,
            sample_interval_ps: None,
            check: true,
            max_events: None,
            max_packets: None,
            routing: Default::default(),
            ties: Default::default(),
        },
        nodes: vec!["client".into(), "r".into(), "server".into()],
        links: vec![
            link(0, 1, 100e6, 1, 0.0),
            link(1, 0, 100e6, 1, 0.0),
            link(1, 2, 10e6, 20, s.loss),
            link(2, 1, 10e6, 20, s.loss),
        ],
        flows: vec![
            flow("web", 0, 2, s.sizes[0], conn(1, true)),
            flow("web.reply", 2, 0, s.sizes[1], conn(0, false)),
        ],
        traces: vec![],
        quick_start: None,
    }
}

fn run(s: &Setup) -> Results {
    let mut sim = Simulator::new(scenario(s)).expect("valid scenario");
    sim.run();
    if let Some(r) = sim.stop_reason() {
        panic!("stopped: {r}");
    }
    sim.results().expect("results")
}

fn u64s(t: &ackclock_core::results::Table, name: &str) -> Vec<u64> {
    t.u64_column(name).expect(name).to_vec()
}

fn f64s(t: &ackclock_core::results::Table, name: &str) -> Vec<f64> {
    t.f64_column(name).expect(name).to_vec()
}

fn strs(t: &ackclock_core::results::Table, name: &str) -> Vec<String> {
    let c = t.column(name).expect(name);
    (0..c.len())
        .map(|r| c.str_at(r).expect(name).to_string())
        .collect()
}

#[test]
fn finite_transfers_deliver_exactly_their_bytes_then_close() {
    for exchange in ["request-response", "concurrent"] {
        for sizes in [[1, 1], [1000, 0], [1_234_567, 54_321], [300, 2_000_000]] {
            let r = run(&setup([Some(sizes[0]), Some(sizes[1])], exchange));
            assert_eq!(
                u64s(&r.flows, "bytes_delivered"),
                sizes,
                "{exchange} {sizes:?}"
            );
            let c = &r.connections;
            assert_eq!(strs(c, "state_initiator").len(), 1);
            let finish = f64s(c, "finish_s")[0];
            assert!(
                finish.is_finite(),
                "{exchange} {sizes:?}: the connection did not close"
            );
            let states = [
                strs(c, "state_initiator")[0].clone(),
                strs(c, "state_acceptor")[0].clone(),
            ];
            assert!(
                states.iter().all(|s| s == "CLOSED" || s == "TIME-WAIT"),
                "{states:?}"
            );
            // SYN + data segments + FIN each way, nothing else when nothing is lost.
            let segs = |b: u64| 2 + b.div_ceil(1000);
            assert_eq!(
                u64s(&r.flows, "packets_sent"),
                [segs(sizes[0]), segs(sizes[1])],
                "{exchange} {sizes:?}"
            );
            // Set-up takes one round trip (42 ms of propagation plus serialisation).
            let setup = f64s(c, "setup_s")[0];
            assert!((0.042..0.045).contains(&setup), "{setup}");
            let completion = f64s(&r.flows, "completion_s");
            assert!(completion
                .iter()
                .zip(sizes)
                .all(|(t, b)| b == 0 || t.is_finite()));
        }
    }
}

#[test]
fn request_response_replies_after_the_request() {
    let r = run(&setup([Some(5000), Some(20_000)], "request-response"));
    let start = f64s(&r.flows, "start_s");
    let done = f64s(&r.flows, "completion_s");
    // The server starts on the SYN, half a round trip after the client.
    assert!((start[1] - start[0] - 0.021).abs() < 0.001, "{start:?}");
    assert!(done[1] > done[0]);
}

#[test]
fn endless_transfers_both_ways_keep_going() {
    let r = run(&setup([None, None], "concurrent"));
    let goodput = f64s(&r.flows, "goodput_mbps");
    assert!(goodput.iter().all(|g| *g > 4.0), "{goodput:?}");
    assert!(f64s(&r.connections, "finish_s")[0].is_nan());
}

#[test]
fn data_both_ways_under_loss_completes_with_each_recovery_variant() {
    for variant in ["reno", "newreno", "sack"] {
        for sink in ["ack-every", "delack"] {
            let mut s = setup([Some(2_000_000), Some(1_500_000)], "concurrent");
            s.loss = 0.01;
            s.tcp.variant = variant.parse().unwrap();
            s.tcp.sink = if variant == "sack" { "sack" } else { sink }
                .parse()
                .unwrap();
            s.tcp.delayed_ack = sink == "delack";
            let r = run(&s);
            assert_eq!(
                u64s(&r.flows, "bytes_delivered"),
                [2_000_000, 1_500_000],
                "{variant} {sink}"
            );
            assert!(
                f64s(&r.connections, "finish_s")[0].is_finite(),
                "{variant} {sink}"
            );
            let fr = u64s(&r.flows, "fast_retransmits");
            assert!(fr.iter().all(|&n| n > 0), "{variant} {sink}: {fr:?}");
        }
    }
}

#[test]
fn piggybacking_sends_fewer_pure_acks_than_two_one_way_flows() {
    // With delayed ACKs (with immediate ones the pure ACK for a segment has always left
    // before data can carry it, in ackclock as in BSD and Linux).
    let sizes = [Some(1_000_000), Some(1_000_000)];
    let mut two_way = setup(sizes, "concurrent");
    two_way.tcp.sink = "delack".parse().unwrap();
    let mut one_way = setup(sizes, "concurrent");
    one_way.tcp.sink = "delack".parse().unwrap();
    one_way.two_way = false;
    let (two_way, one_way) = (run(&two_way), run(&one_way));
    let pure = |r: &Results| u64s(&r.flows, "acks_sent").iter().sum::<u64>();
    assert_eq!(u64s(&one_way.flows, "bytes_delivered"), [1_000_000; 2]);
    assert_eq!(u64s(&two_way.flows, "bytes_delivered"), [1_000_000; 2]);
    let (a, b) = (pure(&two_way), pure(&one_way));
    eprintln!("pure ACKs: two-way {a}, one-way {b}");
    assert!(
        (a as f64) < 0.8 * b as f64,
        "two-way {a} pure ACKs, one-way {b}"
    );
}

#[test]
fn runs_are_deterministic() {
    let mut s = setup([Some(3_000_000), Some(700_000)], "concurrent");
    s.loss = 0.02;
    s.tcp.variant = "sack".parse().unwrap();
    s.tcp.sink = "sack".parse().unwrap();
    let r = run(&s);
    // SACK recovery records completion too (the last byte may be acknowledged in recovery).
    assert!(f64s(&r.flows, "completion_s").iter().all(|t| t.is_finite()));
    let csv = |r: Results| [r.flows.to_csv(), r.queues.to_csv(), r.connections.to_csv()];
    assert_eq!(csv(r), csv(run(&s)));
}

#[test]
fn a_lost_syn_ack_is_answered_again() {
    // Drop the acceptor's first transmission (its SYN-ACK) on the way back.
    let s = setup([Some(10_000), Some(10_000)], "request-response");
    let mut sc = scenario(&s);
    sc.links[3].loss = Some(LossConfig::DropList {
        flow: 1,
        packets: vec![1],
        mark_ecn: false,
        delay_ps: 0,
        acks: false,
        connection: false,
        counted: false,
    });
    let mut sim = Simulator::new(sc).unwrap();
    sim.run();
    let r = sim.results().unwrap();
    assert_eq!(u64s(&r.flows, "bytes_delivered"), [10_000, 10_000]);
    // The client's SYN timed out once (initial RTO 3 s) and the SYN-ACK came again.
    let setup = f64s(&r.connections, "setup_s")[0];
    assert!((3.04..3.05).contains(&setup), "{setup}");
    assert_eq!(u64s(&r.flows, "timeouts")[0], 1);
}

#[test]
fn handshake_and_fins_show_in_ns2_and_pcap_traces() {
    let dir = std::env::temp_dir().join(format!("ackclock-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut sc = scenario(&setup([Some(2500), Some(1200)], "request-response"));
    let (tr, pcap) = (dir.join("out.tr"), dir.join("client.pcap"));
    let trace = |format: &str, path: &std::path::Path, links: Vec<u32>, nodes: Vec<u32>| {
        ackclock_core::scenario::TraceConfig {
            format: if format == "ns2" {
                ackclock_core::scenario::TraceFormat::Ns2
            } else {
                ackclock_core::scenario::TraceFormat::Pcap
            },
            path: path.to_string_lossy().into_owned(),
            links,
            nodes,
            events: vec!["-".into()],
            lost_untraced: vec![],
            ahead_of_loss: vec![],
            tcp_header: format == "ns2",
        }
    };
    sc.traces = vec![
        trace("ns2", &tr, vec![0, 1], vec![]),
        trace("pcap", &pcap, vec![], vec![0]),
    ];
    sc.traces[1].events.clear();
    let mut sim = Simulator::new(sc).unwrap();
    sim.run();
    assert!(sim.trace_error().is_none());
    let text = std::fs::read_to_string(&tr).unwrap();
    // (type, seq, ackno, flags) of each segment leaving the client or the router toward it.
    let rows: Vec<(String, String, String, String)> = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[4].into(), f[10].into(), f[12].into(), f[13].into())
        })
        .collect();
    let row = |t: &str, s: &str, a: &str, f: &str| (t.into(), s.into(), a.into(), f.into());
    // As ns-2.35's FullTcpAgent::foutput writes them: the SYN's ackno is rcv_nxt_ (-1
    // before the peer's SYN), PUSH (0x08) on a dataless SYN and on each segment reaching
    // the last byte given to send (the last data segment, the FIN, and every pure ACK once
    // all is sent).
    assert_eq!(rows[0], row("tcp", "0", "-1", "0xa"), "SYN");
    assert_eq!(rows[1], row("tcp", "0", "1", "0x1a"), "SYN-ACK");
    assert_eq!(rows[2], row("ack", "1", "1", "0x10"), "the handshake's ACK");
    assert_eq!(rows[3], row("tcp", "1", "1", "0x10"), "the request");
    // Byte numbers: 2500 request bytes, 1200 reply bytes, each FIN one more.
    assert!(
        rows.contains(&row("tcp", "1201", "2501", "0x19")),
        "the server's FIN"
    );
    assert!(
        rows.contains(&row("tcp", "2501", "1202", "0x19")),
        "the client's FIN"
    );
    assert_eq!(rows.last().unwrap(), &row("ack", "1202", "2502", "0x18"));
    assert!(std::fs::metadata(&pcap).unwrap().len() > 24);
    std::fs::remove_dir_all(&dir).ok();
}
