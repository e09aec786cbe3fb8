//! A FIFO link's second clock under `run.ties = "ns2"` (the ns-2 front end): the ns-2 times
//! and scheduling orders of its packets' arrivals and of its queue's resume events, so that
//! the scheduler orders simultaneous events as ns-2.35 does (`sim/ns2_clock.rs`).

use super::super::ring::Ring;
use super::{Carried, Link};
use crate::packet::{ecn, Packet};
use crate::packet_pool::{PacketPool, PacketRef};
use crate::time::{Rate, SimDuration, SimTime};

/// A FIFO link's ns-2 clock (the ns2 profile): each accepted packet's ns-2 times, computed
/// with ns-2.35's own arithmetic, and the link's `Queue::resume` events.
///
/// ns-2's `LinkDelay::recv` schedules a packet's arrival at the far node at `now + (txt +
/// delay_)`, with `txt = 8 * size / bandwidth_`, and the queue's resume at `now + txt`, in
/// that order (two uids), at the instant its transmission starts: the packet's own arrival at
/// the link when the line was free, else the resume that ended the previous transmission
/// (`Queue::resume` dequeues the next packet; with none waiting the line goes idle,
/// `blocked_ = 0`). Those doubles drift from the exact times (each sum rounds), so the link's
/// times are the doubles' own, to the picosecond (`sched::ns2_ps`), and the scheduler orders
/// events of one picosecond by the doubles, then by ns-2's scheduling order
/// (`sched::ns2_key`): ns-2's order of events throughout.
/// A resume becomes an event here only while packets wait (it starts the next one).
#[derive(Debug)]
pub(super) struct Ns2Clock {
    /// ns-2's `bandwidth_` (bit/s) and `delay_` (s).
    pub(super) bw: f64,
    pub(super) delay: f64,
    /// Beside `in_flight`: each packet's arrival time at the far node in ns-2's double, and
    /// its ns-2 scheduling order (the sequence number reserved at its transmission start;
    /// `UNSTARTED` while it waits).
    pub(super) keys: Ring<(f64, u64)>,
    /// When the last accepted packet's transmission ends, in ns-2's double.
    pub(super) busy: f64,
    /// The resume that ends the current transmission: its ns-2 time and scheduling order
    /// (before the first transmission: before everything).
    pub(super) resume: (f64, u64),
    /// The resume is an event in the queue (packets wait).
    pub(super) resume_pending: bool,
    /// A `Delayer` holds the line ([`Link::ns2_block`]): the waiting packets stand at
    /// [`BLOCKED_UNTIL`].
    blocked: bool,
    /// Departures carrying CE on an ECN-capable packet: ns-2.35's `QueueMonitor::out`
    /// counts them in `pmarks_`, wherever the mark was made.
    ce_departed: u64,
    /// A queue monitor's integrals of the waiting bytes and packets, once the front end asks
    /// for them ([`Link::keep_ns2_integrals`]).
    integrals: Option<Ns2Integrals>,
    /// Packets dropped after they had started on the line ([`Link::ns2_set_down`]), and their
    /// bytes: each is counted as dropped, and had departed (see [`Link::departed`]).
    pub(super) line_dropped: (u64, u64),
}

/// ns-2.35's `Integrator` of a queue monitor's `size_` (bytes) and `pkts_`: `newPoint(x, y)`
/// adds `(x - lastx_) * lasty_` to `sum_` at each arrival, departure and drop the monitor sees
/// (`QueueMonitor::in`, `out`, `drop`), at ns-2's double time. The sum rounds at each of
/// those points, so it is kept the same way rather than derived from the exact area.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ns2Integral {
    pub sum: f64,
    pub lastx: f64,
    pub lasty: f64,
}

impl Ns2Integral {
    /// ns-2's `Integrator::newPoint`.
    #[inline]
    fn new_point(&mut self, x: f64, y: f64) {
        self.sum += (x - self.lastx) * self.lasty;
        self.lastx = x;
        self.lasty = y;
    }
}

/// The bytes' and the packets' integrals of one link.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ns2Integrals {
    pub bytes: Ns2Integral,
    pub packets: Ns2Integral,
}

/// What the simulator must do after a packet entered a link that keeps ns-2's clock
/// ([`Link::enqueue_ns2`]) or its resume ran ([`Link::on_ns2_resume`]): reserve the
/// scheduling orders of the packet that `started` (then call [`Link::ns2_started`] before
/// scheduling), and schedule the link's `head` and `resume` events.
#[must_use]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ns2Outcome {
    pub started: bool,
    pub head: bool,
    pub resume: bool,
}

/// A packet waiting for the line (its scheduling order is reserved when it starts).
pub(super) const UNSTARTED: u64 = u64::MAX;

/// Where a blocked link's waiting packets stand, in ns-2 seconds ([`Link::ns2_block`]):
/// past the end of any run (the ns-2 front end's horizon is 1.8e7 s) and within the
/// engine's clock (2^64 ps, 1.8446e7 s), so that the events made for them never come and
/// the packets arriving meanwhile wait behind them on the hop's own path, with no test.
const BLOCKED_UNTIL: f64 = 1.84e7;

/// Whether the event of ns-2 time and scheduling order `a` runs before `b` (of the same
/// exact time).
#[inline]
pub(super) fn ns2_before(a: (f64, u64), b: (f64, u64)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

impl Link {
    /// Keeps ns-2's clock beside the exact one (the ns2 profile, [`Ns2Clock`]), with
    /// `bandwidth_bps` as ns-2 holds it (`LinkConfig::rate_bps`). A FIFO link keeps it
    /// (`ns2_clock.rs`), and a dequeue-time one (`ns2_held.rs`) but for the cases below: those
    /// order their events as before. A periodic
    /// discipline's updates ([`Link::advance_periodic_ns2`]) then run before each change of
    /// the backlog.
    pub fn keep_ns2_clock(&mut self, bandwidth_bps: f64) {
        // A device queue below the discipline is ns-3's, a discipline written in Python
        // answers through Python, and a dequeue-time discipline's periodic updates have no
        // ns-2 times: none of them keeps ns-2's clock.
        let python = matches!(self.queue, crate::queue::AnyQueue::External(_));
        if self.device.is_some()
            || (self.holds() && (python || self.service & super::PERIODIC != 0))
        {
            return;
        }
        self.service |= super::NS2;
        self.ns2 = Some(Box::new(Ns2Clock {
            bw: bandwidth_bps,
            delay: crate::sched::ns2_seconds(SimTime(self.delay.0)),
            keys: Ring::with_capacity(8),
            busy: 0.0,
            resume: (-1.0, 0),
            resume_pending: false,
            blocked: false,
            ce_departed: 0,
            integrals: None,
            line_dropped: (0, 0),
        }));
    }

    /// Starts keeping a queue monitor's integrals in ns-2's doubles (`Integrator`'s
    /// constructor: all zero); false if the link keeps no ns-2 clock.
    pub fn keep_ns2_integrals(&mut self) -> bool {
        match self.ns2.as_mut() {
            Some(ns2) => {
                ns2.integrals.get_or_insert_with(Ns2Integrals::default);
                true
            }
            None => false,
        }
    }

    /// The queue monitor's integrals, if kept.
    pub fn ns2_integrals(&self) -> Option<Ns2Integrals> {
        self.ns2.as_ref()?.integrals
    }

    /// When the last accepted packet's transmission ends (or ended), in ns-2's double: the
    /// time of the resume that finds the queue empty at the end of a busy period
    /// (`Queue::resume` calls `deque()` then too); None without ns-2's clock.
    pub fn ns2_busy(&self) -> Option<f64> {
        Some(self.ns2.as_ref()?.busy)
    }

    /// Sets the queue monitor's integrals (a script's `reset` or `set sum_`); false if they
    /// are not kept.
    pub fn set_ns2_integrals(&mut self, integrals: Ns2Integrals) -> bool {
        match self.ns2.as_mut().and_then(|n| n.integrals.as_mut()) {
            Some(i) => {
                *i = integrals;
                true
            }
            None => false,
        }
    }

    /// A point of the queue monitor's integrals at ns-2 time `x`, with the monitor's count
    /// now: arrivals less departures and drops, the loss model's drops included (they go to
    /// the link's drop target, which the monitor counts: below zero under a loss model after
    /// the link, as in ns-2).
    #[inline]
    pub(super) fn ns2_point(&mut self, x: f64) {
        if self.ns2.as_ref().is_none_or(|n| n.integrals.is_none()) {
            return;
        }
        let count = |arrived: u64, departed: u64, dropped: u64, lost: u64| {
            arrived as f64 - departed as f64 - dropped as f64 - lost as f64
        };
        let (departed_packets, departed_bytes) = self.departed();
        let c = &self.counters;
        let bytes = count(
            c.arrived_bytes,
            departed_bytes,
            c.dropped_bytes,
            c.lost_bytes,
        );
        let packets = count(
            c.arrived_packets,
            departed_packets,
            c.dropped_packets,
            c.lost_packets,
        );
        let Some(i) = self.ns2.as_mut().and_then(|n| n.integrals.as_mut()) else {
            return;
        };
        i.bytes.new_point(x, bytes);
        i.packets.new_point(x, packets);
    }

    /// The loss model after the link took the packet that has just crossed it, at ns-2 time
    /// `x`: a point of the queue monitor's integrals (its drop).
    pub fn ns2_lost(&mut self, x: f64) {
        self.ns2_point(x);
    }

    /// Stops keeping ns-2's clock (before the run: another link cannot keep it).
    pub fn drop_ns2_clock(&mut self) {
        if self.ns2.take().is_some() {
            self.service &= !super::NS2;
        }
    }

    /// Whether the link keeps ns-2's clock.
    #[inline(always)]
    pub fn has_ns2_clock(&self) -> bool {
        self.ns2.is_some()
    }

    /// Departures so far that carried CE on an ECN-capable packet (ns-2's `pmarks_`), if
    /// the link keeps ns-2's clock.
    pub fn ns2_ce_departures(&self) -> Option<u64> {
        Some(self.ns2.as_ref()?.ce_departed)
    }

    /// ns-2.35's `QueueMonitor::out` (queue-monitor.cc) counts a departing packet in
    /// `pmarks_` when it carries both CE and ECT: here for the link and the packet's flow;
    /// and in `qs_pkts_` and `qs_bytes_` one sent at a Quick-Start rate (`hdr_flags::qs_`),
    /// here for the flow.
    #[inline]
    pub(super) fn count_ce_departure(&mut self, p: &Packet, flow: usize) {
        if p.ecn & ecn::QS_WINDOW != 0 {
            if let Some(m) = self.flow_monitor.as_mut() {
                m[flow].departed_qs_packets += 1;
                m[flow].departed_qs_bytes += p.size as u64;
            }
        }
        if p.ecn & (ecn::CE | ecn::ECT) != ecn::CE | ecn::ECT {
            return;
        }
        if let Some(ns2) = self.ns2.as_mut() {
            ns2.ce_departed += 1;
        }
        if let Some(m) = self.flow_monitor.as_mut() {
            m[flow].departed_ce_packets += 1;
        }
    }

    /// [`Link::enqueue`] on a link with ns-2's clock: the arrival and the resume that ends the
    /// current transmission are ordered as ns-2 orders them (by exact time, then by their
    /// ns-2 times and scheduling orders; the arrival's are `pool.ns2_now`), so a packet that
    /// reaches the line at the instant it frees up waits only if ns-2's resume comes after
    /// it. Called with the pool's packet `r` after [`Link::enqueue`] answered
    /// [`Enqueued::Held`]; returns what the simulator must do, or None if the packet was
    /// dropped (it stays in the pool for the caller to count and free).
    pub fn enqueue_ns2(
        &mut self,
        now: SimTime,
        r: PacketRef,
        pool: &mut PacketPool,
    ) -> Option<Ns2Outcome> {
        let c = Carried::of(pool, r);
        let (now2, uid) = pool.ns2_now;
        self.advance_periodic_ns2(now);
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let line_free = self.busy_until < now
            || (self.busy_until == now && ns2_before(ns2.resume, (now2, uid)));
        self.integrate_to(now);
        if !self.admit(now, c, pool) {
            self.ns2_point(now2); // QueueMonitor::in, then drop
            return None;
        }
        let (size, flow) = (c.size, c.flow);
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let waits = !line_free;
        // ns-2's `LinkDelay::txtime`: 8 * size / bandwidth_, in that order.
        let txt = 8.0 * size as f64 / ns2.bw;
        let (start, start2) = if waits {
            (self.busy_until, ns2.busy)
        } else {
            (now, now2)
        };
        if !waits {
            if let Some(u) = self.qs.as_deref_mut() {
                // Queue::recv on an idle line (the busy period before ended at ns2.busy).
                u.on_start(now2, ns2.busy);
            }
        }
        ns2.busy = start2 + txt;
        let arrival2 = start2 + (txt + ns2.delay);
        // The engine's clock follows ns-2's doubles to the picosecond (`sched::ns2_ps`): its
        // sums drift from the exact times by far more than a rounding error.
        self.busy_until = crate::sched::ns2_ps(ns2.busy);
        let arrival = crate::sched::ns2_ps(arrival2);
        if let Some(m) = self.flow_monitor.as_mut() {
            let f = &mut m[flow.idx()];
            f.arrive(now.0, size, waits);
            if !waits {
                f.depart(now.0, size, false);
            }
        }
        ns2.keys.push_back((arrival2, UNSTARTED));
        let mut resume = false;
        if waits {
            if !ns2.resume_pending {
                ns2.resume_pending = true;
                resume = true;
            }
            self.record_sojourn(start.0 - now.0);
            self.waiting.push_back((start, size, flow.0));
            self.waiting_bytes += size as u64;
            let q = self.waiting.len() as u64;
            if q > self.counters.max_queue_packets {
                self.counters.max_queue_packets = q;
            }
        } else {
            ns2.resume = (ns2.busy, UNSTARTED);
            // Queue::recv: enque, then deque at once on a free line (REM's curq_ traces both).
            self.queue.departed(now, self.backlog_fifo());
            self.zero_sojourns += 1;
            self.count_ce_departure(pool.get(c.r), flow.idx());
            if let Some(v) = self.started.as_mut() {
                v.push((now, *pool.get(c.r)));
            }
        }
        self.in_flight.push_back((arrival, c));
        self.ns2_point(now2); // QueueMonitor::in (and out, when the line was free)
        Some(Ns2Outcome {
            started: !waits,
            head: self.in_flight.len() == 1,
            resume,
        })
    }

    /// A periodic discipline's updates due by `now` (`AnyQueue::periodic`; PI's
    /// `PICalcTimer::expire`), each with the backlog waiting at its instant: called before
    /// each change of the backlog (an arrival, a resume, the link going down), so the backlog
    /// now is the one every update since the last change saw. An update due at the very
    /// instant of a change runs before it.
    #[inline]
    fn advance_periodic_ns2(&mut self, now: SimTime) {
        if self.service & super::PERIODIC == 0 {
            return;
        }
        let waiting = self.backlog_fifo();
        while self.queue.update_due() <= now {
            self.queue.update(waiting);
        }
    }

    /// The sequence number the simulator reserved for the packet that started last (its
    /// arrival at the far node; the next, `seq + 1`, is the resume that ends it), as ns-2's
    /// `LinkDelay::recv` schedules them.
    pub fn ns2_started(&mut self, seq: u64) {
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let started = self.in_flight.len() - self.waiting.len() - 1;
        ns2.keys.get_mut(started).1 = seq;
        ns2.resume.1 = seq + 1;
    }

    /// The head event's time, ns-2 time and sequence number (one is reserved by `reserve` if
    /// the head has not started: only on a link without propagation delay).
    pub fn ns2_head(&mut self, reserve: impl FnOnce() -> u64) -> Option<(SimTime, f64, u64)> {
        let &(t, _) = self.in_flight.front()?;
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let k = ns2.keys.get_mut(0);
        if k.1 == UNSTARTED {
            k.1 = reserve();
        }
        Some((t, k.0, k.1))
    }

    /// The pending resume event's time, ns-2 time and sequence number.
    pub fn ns2_resume(&self) -> (SimTime, f64, u64) {
        let ns2 = self.ns2.as_ref().expect("an ns-2 clock");
        let start = if self.holds() {
            self.busy_until // the discipline's packets have no times until they start
        } else {
            self.waiting
                .front()
                .expect("a resume with packets waiting")
                .0
        };
        (start, ns2.resume.0, ns2.resume.1)
    }

    /// ns-2's `Queue::resume` at `now` (an event only while packets wait): the next waiting
    /// packet starts. Returns what the simulator must do.
    pub fn on_ns2_resume(&mut self, now: SimTime, pool: &PacketPool) -> Ns2Outcome {
        self.advance_periodic_ns2(now);
        self.integrate_to(now);
        let (start, size, flow) = self
            .waiting
            .pop_front()
            .expect("a resume with packets waiting");
        debug_assert_eq!(start, now);
        self.waiting_bytes -= size as u64;
        if let Some(m) = self.flow_monitor.as_mut() {
            m[flow as usize].depart(start.0, size, true);
        }
        let waiting = self.backlog_fifo();
        self.queue.departed(now, waiting);
        let started = self.in_flight.len() - self.waiting.len() - 1;
        let x = self.ns2.as_ref().expect("an ns-2 clock").resume.0;
        self.ns2_point(x); // QueueMonitor::out
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let txt = 8.0 * size as f64 / ns2.bw;
        ns2.resume = (ns2.resume.0 + txt, UNSTARTED);
        ns2.resume_pending = !self.waiting.is_empty();
        let resume = ns2.resume_pending;
        let &(_, c) = self.in_flight.get(started);
        self.count_ce_departure(pool.get(c.r), flow as usize);
        if let Some(v) = self.started.as_mut() {
            v.push((now, *pool.get(c.r)));
        }
        Ns2Outcome {
            started: true,
            head: false,
            resume,
        }
    }

    /// [`Link::deliver_head`] on a link with ns-2's clock, with the delivered packet's ns-2
    /// time and sequence number (those of the event now running).
    #[inline]
    pub fn deliver_head_ns2(&mut self) -> (Carried, (f64, u64)) {
        let (c, _) = self.deliver_head();
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let k = ns2.keys.pop_front().expect("a key per packet");
        (c, k)
    }

    /// Whether the link is down ([`Link::ns2_set_down`]).
    #[inline(always)]
    pub fn is_down(&self) -> bool {
        self.service & super::DOWN != 0
    }

    /// ns-2.35's `Link instproc down` on a link `rtmodel` made dynamic (tcl/lib/ns-link.tcl,
    /// link/dynalink.cc, link/delay.cc): from now on what reaches the link is dropped at its
    /// head (`DynamicLink::recv`, whose drop target is untraced), and `all-connectors reset`
    /// drops the packets it holds: first the queue's (`Queue::reset`, in queue order), then
    /// those on the line (`LinkDelay::reset`, its in-transit queue, in order), each appended
    /// to `dropped`. ns-2 cancels the events of the packets on the line but not the queue's
    /// pending resume: the line stays busy until the current transmission would have ended,
    /// and the resume then finds the queue empty ([`Link::ns2_resume_finds_nothing`]). Here the link's
    /// head event stays in the event queue and finds its packet gone
    /// ([`Link::ns2_stale_head`]). Only a link that keeps ns-2's clock can go down.
    pub fn ns2_set_down(&mut self, now: SimTime, pool: &mut PacketPool, dropped: &mut Vec<Packet>) {
        debug_assert!(self.has_ns2_clock());
        self.advance_periodic_ns2(now);
        self.integrate_to(now);
        let started = self.in_flight.len() - self.waiting.len();
        let mut on_line = Vec::with_capacity(started);
        for k in 0..self.in_flight.len() {
            let (_, c) = self.in_flight.pop_front().expect("counted");
            let pkt = pool.take(c.r);
            if k < started {
                on_line.push(pkt);
            } else {
                let (_, size, flow) = self.waiting.pop_front().expect("a waiting packet");
                self.waiting_bytes -= size as u64;
                if let Some(m) = self.flow_monitor.as_mut() {
                    m[flow as usize].drop(now.0, size, true);
                }
                dropped.push(pkt);
            }
        }
        for pkt in &on_line {
            if let Some(m) = self.flow_monitor.as_mut() {
                m[pkt.flow.idx()].drop(now.0, pkt.size, false);
            }
        }
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        ns2.line_dropped.0 += on_line.len() as u64;
        ns2.line_dropped.1 += on_line.iter().map(|p| p.size as u64).sum::<u64>();
        dropped.extend(on_line);
        if self.holds() {
            // `all-connectors reset` resets the queue first: its packets come before the
            // line's in ns-2's order.
            let mut queued = Vec::new();
            self.ns2_drain_held(now, &mut queued);
            queued.append(dropped);
            *dropped = queued;
        }
        for pkt in dropped.iter() {
            self.counters.dropped_packets += 1;
            self.counters.dropped_bytes += pkt.size as u64;
        }
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        while ns2.keys.pop_front().is_some() {}
        self.service = (self.service & !super::LOSS_AT_ENTRY) | super::DOWN;
    }

    /// Whether the link's resume event finds no packet waiting: the link went down while
    /// packets waited ([`Link::ns2_set_down`]); as ns-2's `Queue::resume` on an empty queue,
    /// the line goes idle.
    pub fn ns2_resume_finds_nothing(&mut self, now: SimTime) -> bool {
        if self.holds() {
            return false; // the discipline answers (or frees the line: `on_ns2_resume_held`)
        }
        match self.waiting.front() {
            // Not this resume's packet: a Delayer blocks the line ([`Link::ns2_block`]), or
            // the line was unblocked and another event stands for the same resume.
            Some(&(start, _, _)) => start != now,
            None => {
                let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
                ns2.resume_pending = false;
                true
            }
        }
    }

    /// ns-2.35's `Link instproc up`: the link takes packets again.
    pub fn ns2_set_up(&mut self) {
        self.service &= !super::DOWN;
        self.set_loss_at_entry(self.loss_at_entry);
    }

    /// ns-2.35's `$ns bandwidth` and `$ns delay` during the run (tcl/lib/ns-lib.tcl: both set
    /// the link's `DelayLink` variable at once, `bandwidth_` in bit/s as `bw`, `delay_` here
    /// `delay` exact and in ns-2's double). `LinkDelay::recv` (link/delay.cc) reads both when a
    /// packet's transmission starts (`txtime`, then `schedule(target_, p, txt + delay_)` and
    /// the queue's resume at `txt`): the packets on the line keep their times, and those
    /// waiting take the new values as each starts, one after the other from the end of the
    /// current transmission; their times are computed again here, as `enqueue_ns2` computed
    /// them. A shorter delay lets a packet that starts later arrive before those already on
    /// the line (ns-2 reorders them): those leave the in-order ring for `lingering` (arrival
    /// time, ns-2 time, scheduling order, packet), each to be delivered by an event of its own
    /// ([`Link::ns2_linger_delivered`]). Returns whether the ring's new head needs its
    /// event (packets on the line went to `lingering`, packets wait).
    pub fn ns2_set_params(
        &mut self,
        rate: Rate,
        bw: f64,
        delay: SimDuration,
        lingering: &mut Vec<(SimTime, f64, u64, Carried)>,
    ) -> bool {
        let delay2 = crate::sched::ns2_seconds(SimTime(delay.0));
        let started = self.in_flight.len() - self.waiting.len();
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let mut moved = false;
        if delay2 < ns2.delay && started > 0 {
            for _ in 0..started {
                let (at, c) = self.in_flight.pop_front().expect("counted");
                let (t2, seq) = ns2.keys.pop_front().expect("a key per packet");
                lingering.push((at, t2, seq, c));
            }
            self.lingering += started as u64;
            moved = true;
        }
        ns2.bw = bw;
        ns2.delay = delay2;
        self.rate = rate;
        self.delay = delay;
        if !self.waiting.is_empty() && !ns2.blocked {
            // The first waiting packet starts when the current transmission ends (the pending
            // resume), each next one when the one before it ends.
            let start2 = ns2.resume.0;
            self.ns2_chain_waiting(start2);
        }
        moved && !self.in_flight.is_empty()
    }

    /// The waiting packets' times again, the first starting at ns-2 time `start2` and each
    /// next one when the one before it ends (the sums `enqueue_ns2` makes); the line's end
    /// after the last.
    fn ns2_chain_waiting(&mut self, mut start2: f64) {
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let first = self.in_flight.len() - self.waiting.len();
        for k in 0..self.waiting.len() {
            let w = self.waiting.get_mut(k);
            let txt = 8.0 * w.1 as f64 / ns2.bw;
            w.0 = crate::sched::ns2_ps(start2);
            let arrival2 = start2 + (txt + ns2.delay);
            ns2.keys.get_mut(first + k).0 = arrival2;
            self.in_flight.get_mut(first + k).0 = crate::sched::ns2_ps(arrival2);
            start2 += txt;
        }
        ns2.busy = start2;
        self.busy_until = crate::sched::ns2_ps(start2);
    }

    /// ns-2.35's `Delayer` `block` (queue/delayer.cc; `insert-delayer`, tcl/lib/ns-queue.tcl,
    /// puts it between the link's queue and its line): `try_send` sends nothing while
    /// `spike_free` is 0, so the packet on the line finishes and the next ones wait, the
    /// Delayer holding one of them and the queue the rest. Here the waiting packets stand at
    /// [`BLOCKED_UNTIL`] (and those arriving meanwhile behind them): the pending resume then
    /// finds no packet of its own ([`Link::ns2_resume_finds_nothing`]). The Delayer's own
    /// slot (one packet more than the queue's `limit_` waits) is the front end's to add.
    pub fn ns2_block(&mut self) {
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        if ns2.blocked {
            return;
        }
        ns2.blocked = true;
        self.ns2_chain_waiting(BLOCKED_UNTIL);
    }

    /// `Delayer` `unblock` at `now` (ns-2 time `now2`): `try_send` sends the packet it holds
    /// at once if the line is free, else when the line's transmission ends (`TargetHandler`,
    /// the resume), and each next one as before. Returns what the simulator must do: as
    /// after a resume if a packet started now (with `head` if nothing was on the line), or a
    /// resume event to schedule for the transmission that ends the wait; None if nothing
    /// waits or the line was not blocked.
    pub fn ns2_unblock(
        &mut self,
        now: SimTime,
        now2: f64,
        pool: &PacketPool,
    ) -> Option<Ns2Outcome> {
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        if !ns2.blocked {
            return None;
        }
        ns2.blocked = false;
        let end2 = ns2.resume.0;
        if self.waiting.is_empty() {
            ns2.busy = end2;
            self.busy_until = crate::sched::ns2_ps(end2);
            return None;
        }
        if end2 > now2 {
            // The line is busy: the resume at its end starts the first (ns-2's pending
            // `TargetHandler`; the event the simulator adds for it duplicates it, and the
            // later of the two finds no packet of its own).
            self.ns2_chain_waiting(end2);
            let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
            ns2.resume_pending = true;
            return Some(Ns2Outcome {
                started: false,
                head: false,
                resume: true,
            });
        }
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        ns2.resume.0 = now2;
        self.ns2_chain_waiting(now2);
        self.waiting.get_mut(0).0 = now; // the resume that runs now
        let nothing_on_line = self.in_flight.len() == self.waiting.len();
        let mut out = self.on_ns2_resume(now, pool);
        out.head = nothing_on_line;
        Some(out)
    }

    /// Sets a DropTail queue's `limit_` (packets) during the run (ns-2.35 `$ns queue-limit`,
    /// `$queue set limit_`): `DropTail::enque` compares each arrival with it from now on; the
    /// packets already waiting stay, however many (test-suite-links.tcl change_queue).
    /// False if the discipline is not DropTail.
    pub fn ns2_set_queue_limit(&mut self, limit: u64) -> bool {
        match &mut self.queue {
            crate::queue::AnyQueue::DropTail(q) => {
                q.set_limit_packets(limit);
                true
            }
            _ => false,
        }
    }

    /// ns-2.35's `DropTail::shrink_queue` (`$queue shrink-queue`, drop_front_ false): while
    /// more packets wait than `limit_`, the last one is dropped (`q_->tail()`, then
    /// `drop`), each appended to `dropped`. The line's end moves back to the last packet
    /// kept (its times are unchanged: each waiting packet's start is the sum of those
    /// before it). False if the discipline is not DropTail.
    pub fn ns2_shrink_queue(
        &mut self,
        now: SimTime,
        pool: &mut PacketPool,
        dropped: &mut Vec<Packet>,
    ) -> bool {
        let limit = match &self.queue {
            crate::queue::AnyQueue::DropTail(q) => q.limit_packets(),
            _ => return false,
        };
        let Some(limit) = limit else {
            return true;
        };
        if self.waiting.len() as u64 <= limit {
            return true;
        }
        self.integrate_to(now);
        while self.waiting.len() as u64 > limit {
            let (_, size, flow) = self.waiting.pop_back().expect("a waiting packet");
            let (_, c) = self.in_flight.pop_back().expect("a packet per waiting one");
            self.waiting_bytes -= size as u64;
            self.counters.dropped_packets += 1;
            self.counters.dropped_bytes += size as u64;
            if let Some(m) = self.flow_monitor.as_mut() {
                m[flow as usize].drop(now.0, size, true);
            }
            let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
            ns2.keys.pop_back();
            dropped.push(pool.take(c.r));
        }
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let mut end2 = ns2.resume.0;
        for k in 0..self.waiting.len() {
            end2 += 8.0 * self.waiting.get(k).1 as f64 / ns2.bw;
        }
        ns2.busy = end2;
        self.busy_until = crate::sched::ns2_ps(end2);
        true
    }

    /// A packet [`Link::ns2_set_params`] took off the ring has reached the far node.
    pub fn ns2_linger_delivered(&mut self) {
        self.lingering -= 1;
    }

    /// Whether a head event at `now` on this link is one a [`Link::ns2_set_down`] left
    /// behind: its packet is gone (the link is empty, or its head arrives at another time).
    #[inline]
    pub fn ns2_stale_head(&self, now: SimTime) -> bool {
        self.in_flight.front().is_none_or(|&(t, _)| t != now)
    }
}
