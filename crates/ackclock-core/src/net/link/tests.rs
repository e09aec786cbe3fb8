//! Unit tests of `net::link`: the FIFO service, the ns-2 clock, a device queue, and the
//! layout a hop relies on.

use super::*;
use crate::net::device::DeviceParams;
use crate::queue::DropTail;

fn pkt(size: u32) -> Packet {
    Packet::test_udp(0, 0, size)
}

fn link(limit: u64) -> Link {
    let q = AnyQueue::DropTail(DropTail::with_limits(Some(limit), None, false));
    Link::new(
        NodeId(0),
        NodeId(1),
        Rate::from_bps_f64(8e6).unwrap(),
        SimDuration(5_000),
        q,
    )
}

/// The loss model at the link's entry is one bit of the service byte, whichever of
/// `set_loss` and `set_loss_at_entry` comes first: it takes the packets it drops before the
/// queue (also on a link that keeps ns-2's clock), and a model after the link does not.
#[test]
fn a_loss_model_at_the_entry_takes_packets_before_the_queue() {
    use crate::loss::{AnyLoss, Periodic};
    let now = SimTime(1_000);
    for (order, ns2) in [(0, false), (1, false), (0, true)] {
        let mut l = link(10);
        if order == 0 {
            l.set_loss_at_entry(true);
            l.set_loss(AnyLoss::Periodic(Periodic::new(2, 0, 1)));
        } else {
            l.set_loss(AnyLoss::Periodic(Periodic::new(2, 0, 1)));
            l.set_loss_at_entry(true);
        }
        if ns2 {
            l.keep_ns2_clock(8e6);
            assert!(l.has_ns2_clock());
        }
        let mut pool = PacketPool::default();
        let c = Carried::put(&mut pool, pkt(1000));
        assert_eq!(l.enqueue(now, c, &mut pool), Enqueued::Lost);
        let c = Carried::put(&mut pool, pkt(1000));
        let want = if ns2 {
            Enqueued::Held
        } else {
            Enqueued::ScheduleHead(SimTime(1_000 + 1_000_000_000 + 5_000))
        };
        assert_eq!(l.enqueue(now, c, &mut pool), want);
        assert_eq!(l.counters.arrived_packets, u64::from(!ns2));
    }
    let mut l = link(10);
    l.set_loss(AnyLoss::Periodic(Periodic::new(1, 0, 1)));
    let mut pool = PacketPool::default();
    let c = Carried::put(&mut pool, pkt(1000));
    assert!(matches!(
        l.enqueue(SimTime(0), c, &mut pool),
        Enqueued::ScheduleHead(_)
    ));
    assert!(l.loses_on_arrival(pool.get_mut(c.r)));
}

/// ns-2.35's `ErrorModel::recv` with `markecn_`: a packet the model takes is marked CE (ECT or
/// not) and goes on, at the entry and after the link alike; it is not counted lost.
#[test]
fn a_marking_loss_model_marks_ce_and_lets_the_packet_pass() {
    use crate::loss::{AnyLoss, Periodic};
    use crate::packet::ecn;
    for at_entry in [true, false] {
        let mut l = link(10);
        l.set_loss(AnyLoss::Periodic(Periodic::new(2, 0, 1)));
        l.set_loss_at_entry(at_entry);
        l.set_loss_marks_ecn(true);
        let mut pool = PacketPool::default();
        let c = Carried::put(&mut pool, pkt(1000));
        assert!(matches!(
            l.enqueue(SimTime(0), c, &mut pool),
            Enqueued::ScheduleHead(_)
        ));
        if !at_entry {
            assert!(!l.loses_on_arrival(pool.get_mut(c.r)));
        }
        assert_eq!(pool.get(c.r).ecn & ecn::CE, ecn::CE, "at entry {at_entry}");
        let d = Carried::put(&mut pool, pkt(1000));
        l.enqueue(SimTime(0), d, &mut pool);
        if !at_entry {
            assert!(!l.loses_on_arrival(pool.get_mut(d.r)));
        }
        assert_eq!(
            pool.get(d.r).ecn & ecn::CE,
            0,
            "the model's second packet passes as is"
        );
        assert_eq!(l.counters.lost_packets, 0);
    }
}

/// Two models at the entry (ns-2.35 ns-link.tcl: a second `$link errormodule` goes ahead of
/// the first): the first met drops or delays, the one behind numbers only what reaches it, and
/// a packet the first delayed resumes at the one behind (`ErrorModel::recv` schedules it to
/// its target), then goes to the queue past the last.
#[test]
fn loss_models_in_a_chain_each_count_what_reaches_them() {
    use crate::ids::FlowId;
    use crate::loss::{AnyLoss, DropList, Periodic};
    let mut l = link(10);
    l.set_loss_at_entry(true);
    // First: delays its 2nd packet by 7 ps. Behind it: drops the 2nd packet it sees.
    l.set_loss(AnyLoss::Periodic(Periodic::new(100, 1, 1)));
    l.set_loss_delay(SimDuration(7));
    l.add_loss_behind(
        AnyLoss::DropList(DropList::counting(FlowId(0), vec![2], false)),
        false,
        SimDuration::ZERO,
    );
    let mut pool = PacketPool::default();
    let offer = |l: &mut Link, pool: &mut PacketPool| {
        let c = Carried::put(pool, pkt(1000));
        let out = l.enqueue(SimTime(0), c, pool);
        pool.take(c.r);
        out
    };
    // 1st: passes both (the one behind has seen 1).
    assert!(!matches!(offer(&mut l, &mut pool), Enqueued::Lost));
    // 2nd: the first model takes it to delay it; it resumes at stage 1.
    assert_eq!(offer(&mut l, &mut pool), Enqueued::Lost);
    assert_eq!(l.take_loss_delay(), Some((1, SimDuration(7))));
    // 3rd: the first passes it, the one behind sees its 2nd packet and drops it.
    assert_eq!(offer(&mut l, &mut pool), Enqueued::Lost);
    assert_eq!(l.take_loss_delay(), None);
    assert_eq!(l.counters.lost_packets, 1);
    // The delayed packet comes back past the first model, the one behind's 3rd: it passes.
    l.resume_loss_at(1);
    assert!(!matches!(offer(&mut l, &mut pool), Enqueued::Lost));
    assert!(!l.passes_loss());
    // A packet resuming past the last model goes straight to the queue.
    l.resume_loss_at(2);
    assert!(!matches!(offer(&mut l, &mut pool), Enqueued::Lost));
    assert_eq!(l.counters.arrived_packets, 3);
}

/// ns-2's times of a packet: arrival at `start + (txt + delay)`, resume at `start + txt`,
/// `txt = 8 * size / bandwidth_` (`LinkDelay::recv`); a waiting packet starts at the
/// resume, which assigns its scheduling order.
#[test]
fn the_ns2_clock_sums_doubles_as_ns2_does() {
    let mut l = link(10);
    l.keep_ns2_clock(8e6);
    let mut pool = PacketPool::default();
    let now2 = 0.1f64; // an arrival at 0.1 s
    pool.ns2_now = (now2, 5);
    let now = SimTime(100_000_000_000);
    let outcome = |started, head, resume| Ns2Outcome {
        started,
        head,
        resume,
    };
    // The first starts at once (seq 10 for its arrival, 11 for its resume) and heads the
    // ring; the second waits behind it, its resume the first's.
    let c = Carried::put(&mut pool, pkt(1000));
    assert_eq!(l.enqueue(now, c, &mut pool), Enqueued::Held);
    assert_eq!(
        l.enqueue_ns2(now, c.r, &mut pool),
        Some(outcome(true, true, false))
    );
    l.ns2_started(10);
    let c = Carried::put(&mut pool, pkt(1000));
    assert_eq!(l.enqueue(now, c, &mut pool), Enqueued::Held);
    assert_eq!(
        l.enqueue_ns2(now, c.r, &mut pool),
        Some(outcome(false, false, true))
    );
    let txt = 8.0 * 1000.0 / 8e6;
    let delay = 5_000.0 / 1e12;
    let (t, t2, seq) = l.ns2_head(|| unreachable!()).unwrap();
    assert_eq!(
        (t, t2, seq),
        (SimTime(101_000_005_000), now2 + (txt + delay), 10)
    );
    let (t, t2, seq) = l.ns2_resume();
    assert_eq!((t, t2, seq), (SimTime(101_000_000_000), now2 + txt, 11));
    assert_eq!(l.on_ns2_resume(t, &pool), outcome(true, false, false));
    l.ns2_started(12);
    let (c, key) = l.deliver_head_ns2();
    assert_eq!(pool.get(c.r).size, 1000);
    assert_eq!(key, (now2 + (txt + delay), 10));
    let (_, t2, seq) = l.ns2_head(|| unreachable!()).unwrap();
    assert_eq!((t2, seq), ((now2 + txt) + (txt + delay), 12));
}

/// `$ns bandwidth` / `$ns delay` during the run (`Link::ns2_set_params`): the packet on the
/// line keeps its times; the waiting ones start one after the other from the current
/// transmission's end, at the new rate and with the new delay (`LinkDelay::recv` reads
/// both at each start). A shorter delay takes the packets on the line off the ring, each to
/// arrive by an event of its own, and the ring's new head needs one.
#[test]
fn a_change_of_rate_and_delay_reaches_the_waiting_packets_only() {
    let mut l = link(10);
    l.keep_ns2_clock(8e6);
    let mut pool = PacketPool::default();
    pool.ns2_now = (0.0, 1);
    let now = SimTime(0);
    for seq in [10, 12] {
        let c = Carried::put(&mut pool, pkt(1000));
        assert_eq!(l.enqueue(now, c, &mut pool), Enqueued::Held);
        let out = l.enqueue_ns2(now, c.r, &mut pool).unwrap();
        if out.started {
            l.ns2_started(seq);
        }
    }
    let txt = 8.0 * 1000.0 / 8e6; // 1 ms at 8 Mb/s
    let mut lingering = Vec::new();
    // Longer delay, half the rate: nothing leaves the ring.
    let head = l.ns2_set_params(
        Rate::from_bps_f64(4e6).unwrap(),
        4e6,
        SimDuration(100_000_000_000),
        &mut lingering,
    );
    assert!(!head && lingering.is_empty());
    let (t, t2, seq) = l.ns2_head(|| unreachable!()).unwrap();
    assert_eq!((t, t2, seq), (SimTime(1_000_005_000), txt + 5e-9, 10));
    let (t, t2, _) = l.ns2_resume();
    assert_eq!((t, t2), (SimTime(1_000_000_000), txt));
    assert_eq!(
        l.in_flight.get_mut(1).0,
        crate::sched::ns2_ps(txt + (0.002 + 0.1))
    );
    assert_eq!(l.busy_until, crate::sched::ns2_ps(txt + 0.002));
    // Shorter delay: the packet on the line lingers, the waiting one heads the ring.
    let head = l.ns2_set_params(
        Rate::from_bps_f64(4e6).unwrap(),
        4e6,
        SimDuration(1_000_000),
        &mut lingering,
    );
    assert!(head);
    assert_eq!(lingering.len(), 1);
    assert_eq!(lingering[0].1, txt + 5e-9);
    assert_eq!(lingering[0].2, 10);
    assert_eq!(l.in_flight(), 1);
    let (_, t2, _) = l.ns2_head(|| 20).unwrap();
    assert_eq!(t2, txt + (0.002 + 1e-6));
}

/// A DropTail `limit_` lowered during the run leaves the waiting packets; `shrink-queue`
/// drops those beyond it from the tail, and the line's end moves back to the last one kept.
#[test]
fn shrinking_a_queue_drops_from_the_tail() {
    let mut l = link(10);
    l.keep_ns2_clock(8e6);
    let mut pool = PacketPool::default();
    pool.ns2_now = (0.0, 1);
    for (k, size) in [1000u32, 500, 600, 700].into_iter().enumerate() {
        let c = Carried::put(&mut pool, pkt(size));
        assert_eq!(l.enqueue(SimTime(0), c, &mut pool), Enqueued::Held);
        let out = l.enqueue_ns2(SimTime(0), c.r, &mut pool).unwrap();
        if out.started {
            l.ns2_started(10 + 2 * k as u64);
        }
    }
    assert!(l.ns2_set_queue_limit(1));
    assert_eq!(l.backlog().packets, 3);
    let mut dropped = Vec::new();
    assert!(l.ns2_shrink_queue(SimTime(0), &mut pool, &mut dropped));
    let sizes: Vec<u32> = dropped.iter().map(|p| p.size).collect();
    assert_eq!(sizes, vec![700, 600]);
    assert_eq!(l.backlog().packets, 1);
    assert_eq!(l.in_flight(), 2);
    assert_eq!(l.counters.dropped_packets, 2);
    let end2 = 8.0 * 1000.0 / 8e6 + 8.0 * 500.0 / 8e6;
    assert_eq!(l.busy_until, crate::sched::ns2_ps(end2));
}

/// A Delayer's `block`: the packet on the line finishes, the waiting ones stay, and so do
/// those arriving meanwhile; the pending resume finds no packet of its own. `unblock` on a
/// free line starts the first at once (the ring's head then needs its event), the next one
/// when it ends.
#[test]
fn a_blocked_line_sends_nothing_until_unblocked() {
    let mut l = link(10);
    l.keep_ns2_clock(8e6);
    let mut pool = PacketPool::default();
    pool.ns2_now = (0.0, 1);
    let offer = |l: &mut Link, pool: &mut PacketPool, now: SimTime| {
        let c = Carried::put(pool, pkt(1000));
        assert_eq!(l.enqueue(now, c, pool), Enqueued::Held);
        l.enqueue_ns2(now, c.r, pool).unwrap()
    };
    assert!(offer(&mut l, &mut pool, SimTime(0)).started);
    l.ns2_started(10);
    assert!(offer(&mut l, &mut pool, SimTime(0)).resume);
    l.ns2_block();
    let ms = SimTime(1_000_000_000);
    pool.ns2_now = (0.0005, 20);
    let out = offer(&mut l, &mut pool, SimTime(ms.0 / 2));
    assert!(!out.started && !out.resume); // the pending resume stands for it
    assert!(l.ns2_resume_finds_nothing(ms));
    let (c, _) = l.deliver_head_ns2();
    assert_eq!(pool.get(c.r).size, 1000);
    assert_eq!(l.backlog().packets, 2);
    let two_ms = SimTime(2 * ms.0);
    let out = l.ns2_unblock(two_ms, 0.002, &pool).unwrap();
    assert_eq!(
        out,
        Ns2Outcome {
            started: true,
            head: true,
            resume: true,
        }
    );
    l.ns2_started(30);
    let txt = 8.0 * 1000.0 / 8e6;
    let (t, t2, seq) = l.ns2_head(|| unreachable!()).unwrap();
    assert_eq!((t2, seq), (0.002 + (txt + 5e-9), 30));
    assert_eq!(t, crate::sched::ns2_ps(0.002 + (txt + 5e-9)));
    let (t, t2, _) = l.ns2_resume();
    assert_eq!((t, t2), (crate::sched::ns2_ps(0.002 + txt), 0.002 + txt));
    assert_eq!(l.backlog().packets, 1);
    // Unblocking a line that is not blocked does nothing.
    assert_eq!(l.ns2_unblock(two_ms, 0.002, &pool), None);
}

/// A packet reaching the line at the exact instant it frees up waits only if ns-2's
/// resume comes after the arrival: by ns-2 time, then by scheduling order.
#[test]
fn a_tie_with_the_resume_goes_by_ns2s_order() {
    for (arrival2, arrival_seq, waits) in [
        (f64::from_bits(0.001f64.to_bits() - 1), 99, true), // an ulp before the resume
        (0.001, 99, false),                                 // same double, scheduled later
        (0.001, 3, true),                                   // same double, scheduled first
        (f64::from_bits(0.001f64.to_bits() + 1), 3, false), // an ulp after
    ] {
        let mut l = link(10);
        l.keep_ns2_clock(8e6);
        let mut pool = PacketPool::default();
        pool.ns2_now = (0.0, 1);
        let c = Carried::put(&mut pool, pkt(1000));
        let _ = l.enqueue_ns2(SimTime(0), c.r, &mut pool);
        l.ns2_started(4); // its resume: seq 5 at 0.001 s
        pool.ns2_now = (arrival2, arrival_seq);
        let c = Carried::put(&mut pool, pkt(1000));
        let Some(Ns2Outcome {
            started, resume, ..
        }) = l.enqueue_ns2(SimTime(1_000_000_000), c.r, &mut pool)
        else {
            panic!("the packet was dropped");
        };
        assert_eq!(
            (started, resume),
            (!waits, waits),
            "{arrival2} {arrival_seq}"
        );
        assert_eq!(l.backlog().packets, waits as u64);
    }
}

#[test]
fn arrival_is_transmission_plus_propagation() {
    let mut l = link(10);
    let mut pool = PacketPool::default();
    // 1000 B at 8 Mb/s = 1 ms = 1e9 ps.
    let first = Carried::put(&mut pool, pkt(1000));
    assert_eq!(
        l.enqueue(SimTime(0), first, &mut pool),
        Enqueued::ScheduleHead(SimTime(1_000_005_000))
    );
    let second = Carried::put(&mut pool, pkt(1000));
    assert_eq!(l.enqueue(SimTime(0), second, &mut pool), Enqueued::Queued);
    // Both departed by 1 ms, neither delivered (derived from the arrivals, drops and rings).
    l.advance(SimTime(1_000_000_000));
    let c = l.counters();
    assert_eq!((c.departed_packets, c.departed_bytes), (2, 2000));
    assert_eq!((c.delivered_packets, l.delivered()), (0, 0));
    let (head, next) = l.deliver_head();
    assert_eq!(head, first);
    assert_eq!(next, Some(SimTime(2_000_005_000)));
    assert_eq!(l.in_flight(), 1);
    assert_eq!(l.counters().delivered_packets, 1);
}

#[test]
fn backlog_drains_at_line_rate_and_integrates() {
    let mut l = link(2);
    let mut pool = PacketPool::default();
    for _ in 0..4 {
        let c = Carried::put(&mut pool, pkt(1000));
        l.enqueue(SimTime(0), c, &mut pool);
    }
    // One on the wire, two waiting, one dropped.
    assert_eq!(l.counters.dropped_packets, 1);
    assert_eq!(l.backlog().packets, 2);
    l.advance(SimTime(1_000_000_000));
    assert_eq!(l.backlog().packets, 1);
    l.advance(SimTime(3_000_000_000));
    assert_eq!(l.backlog().packets, 0);
    let c = l.counters();
    assert_eq!((c.arrived_packets, c.arrived_bytes), (4, 4000));
    assert_eq!((c.departed_packets, c.departed_bytes), (3, 3000));
    assert_eq!((c.dropped_packets, c.dropped_bytes), (1, 1000));
    assert_eq!(c.delivered_packets, 0);
    // Two packets waited 1 ms and 2 ms: 3 packet-ms.
    assert_eq!(c.area_packets, 3_000_000_000);
}

/// `settle` integrates each change at its own instant and stops at the last one;
/// `counters_at` extends a copy to the reading's instant (ns-2's Integrator does not).
#[test]
fn settling_stops_the_integrals_at_the_last_change() {
    let mut l = link(4);
    let mut pool = PacketPool::default();
    for _ in 0..3 {
        let c = Carried::put(&mut pool, pkt(1000));
        l.enqueue(SimTime(0), c, &mut pool);
    }
    // Two wait; the first starts at 1 ms, the second at 2 ms.
    l.settle(SimTime(1_500_000_000));
    assert_eq!(l.counted_until(), SimTime(1_000_000_000));
    assert_eq!(l.counters.area_packets, 2_000_000_000);
    let read = l.counters_at(SimTime(1_500_000_000));
    assert_eq!(read.area_packets, 2_500_000_000);
    assert_eq!(l.counted_until(), SimTime(1_000_000_000));
    l.advance(SimTime(3_000_000_000));
    assert_eq!(l.counters.area_packets, 3_000_000_000);
}

/// An 8 Mb/s, 5 us link whose discipline `kind` (100 packets, with `params`) holds its
/// packets above a device queue of `device_limit` packets.
fn device_link(kind: &str, params: &[(&str, f64)], device_limit: u64, ns3_run: bool) -> Link {
    use crate::queue::{QdiscConfig, QueueKind, QueueSetup};
    use crate::rng::RandomStream;
    let setup = QueueSetup {
        limit_packets: Some(100),
        limit_bytes: None,
        ns2: false,
        ecn: false,
        rate_bps: 8e6,
        delay: SimDuration(5_000),
        rng: RandomStream::named(1, "test"),
        flow_priority: vec![].into(),
        flow_fid: vec![].into(),
        cbq: None,
        diffserv: None,
        device: false,
    };
    let given = params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let q = QdiscConfig::parse(QueueKind::by_name(kind).unwrap(), &given)
        .unwrap()
        .build(&setup);
    let mut l = Link::new(
        NodeId(0),
        NodeId(1),
        Rate::from_bps_f64(8e6).unwrap(),
        SimDuration(5_000),
        q,
    );
    l.set_device(DeviceParams {
        limit_packets: device_limit,
        bql: None,
        ns3_run,
    });
    l
}

/// Below a holding discipline, a device-queue packet leaves the backlog when its
/// transmission starts, even when the link has no event then: the next arrival counts
/// the time since with the packet gone (Little's law: area = sum of the waits).
#[test]
fn device_queue_packets_leave_the_backlog_at_their_start() {
    let mut l = device_link("codel", &[], 100, false);
    let mut pool = PacketPool::default();
    let mut drops = Vec::new();
    // Two 1 ms packets at 0: the second waits 1 ms in the device queue. The first starts at
    // once and heads the ring; nothing waits in the discipline, so no transmission-done
    // event is needed.
    let c = Carried::put(&mut pool, pkt(1000));
    assert_eq!(l.enqueue(SimTime(0), c, &mut pool), Enqueued::Held);
    let out = l.enqueue_held(SimTime(0), c.r, &mut pool, &mut drops);
    assert_eq!(
        out,
        HeldOutcome {
            head: Some(SimTime(1_000_005_000)),
            tx_done: None
        }
    );
    let c = Carried::put(&mut pool, pkt(1000));
    let out = l.enqueue_held(SimTime(0), c.r, &mut pool, &mut drops);
    assert_eq!(out, HeldOutcome::default());
    assert_eq!(l.backlog().packets, 1);
    // The next arrival, 10 ms later, finds the device queue empty since 1 ms.
    let c = Carried::put(&mut pool, pkt(1000));
    let _ = l.enqueue_held(SimTime(10_000_000_000), c.r, &mut pool, &mut drops);
    assert!(drops.is_empty());
    assert_eq!(l.counters.area_packets, 1_000_000_000);
    assert_eq!(l.counters().departed_packets, 3);
}

/// `ns3_run` (ns-3.44's `QueueDisc::Transmit` ends the run when the disc is empty): an
/// FqCoDel flow whose queue the run emptied stays listed, so its next packet is not a new
/// flow's. Flow A's 1000-byte packets (1 ms each) go through a 2-packet device queue: at
/// 0.5 ms A3 leaves A's queue empty and stops the device. Without `ns3_run` A's queue was
/// found empty and retired before (the run asked the empty disc again), so A3 made A new
/// again with a fresh quantum, and A4 (0.6 ms) goes ahead of B1 (0.7 ms), both new; with it
/// A is old with its deficit spent and B1, a new flow, goes first when the device wakes
/// at 1 ms.
#[test]
fn an_ns3_run_ends_when_the_disc_is_empty() {
    for ns3_run in [false, true] {
        let given = [("ns3_model", 1.0), ("quantum", 1500.0)];
        let mut l = device_link("fq_codel", &given, 2, ns3_run);
        l.log_starts(true);
        let mut pool = PacketPool::default();
        let mut drops = Vec::new();
        let ms = |tenths: u64| SimTime(tenths * 100_000_000);
        let mut tx_done = None;
        for (id, flow, at) in [(1, 0, 0), (2, 0, 0), (3, 0, 5), (4, 0, 6), (5, 1, 7)] {
            let c = Carried::put(&mut pool, Packet::test_udp(id, flow, 1000));
            assert_eq!(l.enqueue(ms(at), c, &mut pool), Enqueued::Held);
            let out = l.enqueue_held(ms(at), c.r, &mut pool, &mut drops);
            tx_done = out.tx_done.or(tx_done);
        }
        assert_eq!(tx_done, Some(ms(10)), "the device takes A2 at 1 ms");
        let _ = l.on_tx_done(ms(10), &mut pool, &mut drops);
        assert!(drops.is_empty());
        let order: Vec<u64> = l.take_started().iter().map(|(_, p)| p.id).collect();
        let expected = if ns3_run { [1, 2, 3, 5] } else { [1, 2, 3, 4] };
        assert_eq!(order, expected, "ns3_run {ns3_run}");
    }
}

mod layout_tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    fn line(offset: usize) -> usize {
        offset / 64
    }

    /// What every hop reads sits in the lines the comment on [`Link`] promises.
    #[test]
    fn a_hop_touches_the_first_lines() {
        assert_eq!(align_of::<Link>(), 64);
        for (name, at) in [
            ("in_flight", offset_of!(Link, in_flight)),
            ("busy_until", offset_of!(Link, busy_until)),
            ("delay", offset_of!(Link, delay)),
            ("service", offset_of!(Link, service)),
            ("monitored", offset_of!(Link, monitored)),
            ("to", offset_of!(Link, to)),
            ("from", offset_of!(Link, from)),
        ] {
            assert_eq!(line(at), 0, "{name} at {at}");
        }
        for (name, at) in [
            ("waiting", offset_of!(Link, waiting)),
            ("waiting_bytes", offset_of!(Link, waiting_bytes)),
            ("counted_until", offset_of!(Link, counted_until)),
            ("zero_sojourns", offset_of!(Link, zero_sojourns)),
            ("lingering", offset_of!(Link, lingering)),
        ] {
            assert_eq!(line(at), 1, "{name} at {at}");
        }
        for (name, at) in [
            ("queue", offset_of!(Link, queue)),
            ("rate", offset_of!(Link, rate) + size_of::<Rate>() - 1),
            ("loss", offset_of!(Link, loss)),
        ] {
            assert_eq!(line(at), 2, "{name} at {at}");
        }
        assert_eq!(line(offset_of!(Link, flow_monitor)), 3);
        let c = offset_of!(Link, counters);
        for (name, at) in [
            (
                "arrived_packets",
                offset_of!(QueueCounters, arrived_packets),
            ),
            ("departed_bytes", offset_of!(QueueCounters, departed_bytes)),
            (
                "max_queue_packets",
                offset_of!(QueueCounters, max_queue_packets),
            ),
        ] {
            assert_eq!(line(c + at), 4, "counters.{name} at {}", c + at);
        }
    }
}
