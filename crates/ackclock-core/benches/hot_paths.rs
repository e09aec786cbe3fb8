//! Criterion benchmarks of the engine's hot paths, each alone, per element (packet, lookup or
//! segment): a link's enqueue and delivery, the route lookup, a loss model's decision, and a
//! TCP sender and sink exchanging segments and ACKs with no network between them.
//!
//! `cargo bench -p ackclock-core --bench hot_paths`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use ackclock_core::fixtures::ns2_tcp;
use ackclock_core::ids::{FlowId, NodeId};
use ackclock_core::loss::{AnyLoss, Bernoulli};
use ackclock_core::monitor::FlowCounters;
use ackclock_core::net::{Carried, Enqueued, Link, Routes};
use ackclock_core::packet::{Packet, PacketKind, SackBlocks};
use ackclock_core::packet_pool::PacketPool;
use ackclock_core::queue::{AnyQueue, DropTail};
use ackclock_core::rng::RandomStream;
use ackclock_core::tcp::{TcpSender, TcpSink};
use ackclock_core::time::{Rate, SimDuration, SimTime};

const BATCH: u64 = 1000;

fn data_packet(dst: u32) -> Packet {
    Packet {
        id: 0,
        flow: FlowId(0),
        kind: PacketKind::TcpData,
        flags: 0,
        src: NodeId(0),
        dst: NodeId(dst),
        size: 1500,
        seq: 0,
        ack: 0,
        sent_at: SimTime::ZERO,
        retransmit: false,
        ts_echo: SimTime::ZERO,
        sack: SackBlocks::NONE,
        nth: 1,
        rwnd: 0,
        ecn: 0,
    }
}

fn link(rate_bps: f64, delay_s: f64, limit: u64) -> Link {
    Link::new(
        NodeId(0),
        NodeId(1),
        Rate::from_bps_f64(rate_bps).expect("positive rate"),
        SimDuration::from_secs_f64(delay_s),
        AnyQueue::DropTail(DropTail::with_limits(Some(limit), None, false)),
    )
}

/// A 1 Gb/s, 10 ms link holding a standing queue of 900 packets, fed at its line rate: each
/// element is one delivery and one enqueue of a packet already in the packet pool, the link
/// operations of every packet-hop, with rings as large as scenario 2's bottleneck.
fn link_hop(c: &mut Criterion) {
    let mut g = c.benchmark_group("link");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("enqueue_and_deliver_1Gbps_10ms", |b| {
        let mut l = link(1e9, 0.010, 1000);
        let mut pool = PacketPool::default();
        let gap = SimDuration(12_000_000); // 1500 B at 1 Gb/s
        let mut now = SimTime::ZERO;
        for _ in 0..900 {
            let c = Carried::put(&mut pool, data_packet(1));
            assert_ne!(l.enqueue(now, c, &mut pool), Enqueued::Dropped);
        }
        b.iter(|| {
            for _ in 0..BATCH {
                let (c, _) = l.deliver_head();
                let accepted = l.enqueue(now, std::hint::black_box(c), &mut pool);
                debug_assert_ne!(accepted, Enqueued::Dropped);
                now += gap;
            }
        });
    });
    g.finish();
}

/// Next-hop lookups on a dumbbell of 100 sources and 100 sinks, destinations in a fixed
/// pseudo-random order.
fn route_lookup(c: &mut Criterion) {
    let hosts = 100u32;
    // Nodes: 0 and 1 the routers, then the sources, then the sinks.
    let n = 2 + 2 * hosts as usize;
    let mut links = Vec::new();
    let mut duplex = |a: u32, b: u32| {
        for (x, y) in [(a, b), (b, a)] {
            let mut l = link(1e9, 0.001, 100);
            l.from = NodeId(x);
            l.to = NodeId(y);
            links.push(l);
        }
    };
    duplex(0, 1);
    for i in 0..hosts {
        duplex(2 + i, 0);
        duplex(2 + hosts + i, 1);
    }
    let dests: Vec<NodeId> = (2..n as u32).map(NodeId).collect();
    let routes = Routes::build(n, &links, &dests, false).expect("routing tables");
    let mut rng = RandomStream::named(3, "bench");
    let queries: Vec<(NodeId, NodeId)> = (0..BATCH)
        .map(|_| {
            let at = NodeId(rng.uniform_u64(0, n as u64 - 1) as u32);
            let dst = dests[rng.uniform_u64(0, dests.len() as u64 - 1) as usize];
            (at, dst)
        })
        .collect();
    let mut g = c.benchmark_group("routing");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("next_hop_dumbbell_202_nodes", |b| {
        b.iter(|| {
            for &(at, dst) in &queries {
                std::hint::black_box(routes.next_hop(at, dst, FlowId(0)));
            }
        });
    });
    g.finish();
}

/// Bernoulli loss, per packet (seed 002's p = 0.0001 on its bottleneck).
fn loss_decision(c: &mut Criterion) {
    let mut g = c.benchmark_group("loss");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("bernoulli_per_packet", |b| {
        let mut m = AnyLoss::Bernoulli(Bernoulli::new(1e-4, RandomStream::named(5, "loss")));
        let pkt = data_packet(1);
        b.iter(|| {
            for _ in 0..BATCH {
                std::hint::black_box(m.drops(&pkt));
            }
        });
    });
    g.finish();
}

/// A sender and its sink in a closed loop with no network and no loss: every data segment
/// goes to the sink, every ACK back to the sender, 10 us apart. Per element: one segment
/// through `TcpSink::on_data` and its ACK through `TcpSender::on_ack`, in steady state at
/// the window limit.
fn tcp_endpoints(c: &mut Criterion) {
    let mut g = c.benchmark_group("tcp");
    g.throughput(Throughput::Elements(BATCH));
    for (name, cc, variant, sink) in [
        ("newreno_ack_every", "reno", "newreno", "ack-every"),
        ("newreno_delack", "reno", "newreno", "delack"),
        ("cubic_sack", "cubic", "sack", "sack"),
    ] {
        g.bench_function(format!("segment_and_ack_{name}"), |b| {
            let mut cfg = ns2_tcp();
            cfg.cc = cc.parse().expect("a registered congestion control");
            cfg.variant = variant.parse().unwrap();
            cfg.sink = sink.parse().unwrap();
            cfg.window = 64;
            let recovery = cfg.variant;
            let mut sender = TcpSender::new(
                FlowId(0),
                NodeId(0),
                NodeId(1),
                &cfg.params(),
                recovery,
                cfg.congestion_control().expect("known cc"),
            );
            let mut sink = TcpSink::new(FlowId(0), NodeId(1), NodeId(0), &cfg.params());
            let mut counters = FlowCounters::default();
            let mut now = SimTime::ZERO;
            let step = SimDuration(10_000_000);
            let mut wire: std::collections::VecDeque<Packet> = Default::default();
            let mut out = Vec::with_capacity(64);
            sender.start(now, &mut out, &mut counters);
            wire.extend(out.drain(..));
            b.iter(|| {
                let mut segments = 0;
                while segments < BATCH {
                    now += step;
                    let Some(p) = wire.pop_front() else {
                        // Only a delayed ACK is pending: let its timer fire.
                        if let Some(t) = sink.deadline() {
                            now = now.max(t);
                            sink.on_timer(now, &mut out, &mut counters);
                        }
                        wire.extend(out.drain(..));
                        assert!(!wire.is_empty(), "the loop stalled");
                        continue;
                    };
                    match p.kind {
                        PacketKind::TcpData => {
                            segments += 1;
                            sink.on_data(now, &p, &mut out, &mut counters);
                            wire.extend(out.drain(..));
                        }
                        _ => {
                            sender.on_ack(now, &p, &mut out, &mut counters);
                            wire.extend(out.drain(..));
                        }
                    }
                }
            });
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    link_hop,
    route_lookup,
    loss_decision,
    tcp_endpoints
);
criterion_main!(benches);
