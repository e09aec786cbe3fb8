//! Criterion benchmarks of the event loop: the event queue under a steady "hold" load, and
//! a short whole simulation (reported per packet-hop).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

use ackclock_core::fixtures::{dumbbell, ns2_tcp};
use ackclock_core::rng::RandomStream;
use ackclock_core::sched::EventQueue;
use ackclock_core::time::SimTime;
use ackclock_core::Simulator;

/// The classic hold model: a queue of `n` pending events; pop the earliest, push one a
/// random time later. Its cost per operation is what the scheduler adds to every event.
fn hold(c: &mut Criterion) {
    let mut g = c.benchmark_group("event_queue_hold");
    for n in [64usize, 1024, 16384] {
        g.throughput(Throughput::Elements(1000));
        g.bench_function(format!("pending_{n}"), |b| {
            let mut rng = RandomStream::named(1, "bench");
            let mut q: EventQueue<u32> = EventQueue::new();
            for i in 0..n {
                q.push(SimTime(rng.uniform_u64(0, 1_000_000)), i as u32);
            }
            b.iter(|| {
                for _ in 0..1000 {
                    let (t, e) = q.pop().unwrap();
                    q.push(SimTime(t.0 + rng.uniform_u64(1, 1_000_000)), e);
                }
            });
        });
    }
    g.finish();
}

/// A link delivering its head and scheduling its next packet a transmission time later
/// (here 1/1000 of the spread of the pending events, so the new event stays near the top):
/// a pop and a push against `peek_due` and `replace_packet_top`, which sifts once.
fn link_head(c: &mut Criterion) {
    use ackclock_core::sched::Source;
    let mut g = c.benchmark_group("event_queue_link_head");
    for n in [16usize, 64, 1024] {
        g.throughput(Throughput::Elements(1000));
        let fill = |q: &mut EventQueue<u32>, rng: &mut RandomStream| {
            for i in 0..n {
                q.push(SimTime(rng.uniform_u64(1, 1_000_000)), i as u32);
            }
        };
        g.bench_function(format!("pop_push/pending_{n}"), |b| {
            let mut rng = RandomStream::named(2, "bench");
            let mut q: EventQueue<u32> = EventQueue::new();
            fill(&mut q, &mut rng);
            b.iter(|| {
                for _ in 0..1000 {
                    let (t, e) = q.pop().unwrap();
                    q.push(SimTime(t.0 + rng.uniform_u64(1, 1000)), e);
                }
            });
        });
        g.bench_function(format!("peek_replace/pending_{n}"), |b| {
            let mut rng = RandomStream::named(2, "bench");
            let mut q: EventQueue<u32> = EventQueue::new();
            fill(&mut q, &mut rng);
            b.iter(|| {
                for _ in 0..1000 {
                    let (t, e, src) = q.peek_due(SimTime::MAX).unwrap();
                    debug_assert_eq!(src, Source::Packets);
                    q.replace_packet_top(t, SimTime(t.0 + rng.uniform_u64(1, 1000)), e);
                }
            });
        });
    }
    g.finish();
}

fn whole_run(c: &mut Criterion) {
    let mut tcp = ns2_tcp();
    tcp.window = 1000;
    let sc = dumbbell(4, 1e9, 1, 100e6, 10, 200, tcp, 2);
    let hops = {
        let mut s = Simulator::new(sc.clone()).unwrap();
        s.run();
        s.packet_hops()
    };
    let mut g = c.benchmark_group("simulation");
    g.throughput(Throughput::Elements(hops));
    g.sample_size(20);
    g.bench_function("dumbbell_4_reno_100Mbps_2s", |b| {
        b.iter_batched(
            || Simulator::new(sc.clone()).unwrap(),
            |mut s| {
                s.run();
                s.packet_hops()
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, hold, link_head, whole_run);
criterion_main!(benches);
