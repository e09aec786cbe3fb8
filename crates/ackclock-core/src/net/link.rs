//! A simplex link direction: a queue in front of a serialiser and a propagation delay.
//!
//! ns-2 semantics: a packet occupies the line for its transmission time (size / rate) and
//! reaches the far node when its last bit does, one propagation delay after it finished
//! transmitting.
//!
//! With an enqueue-time discipline (`AnyQueue::holds` false) the link is FIFO and work-conserving,
//! so a packet's transmission start is known when it is accepted: `start = max(arrival,
//! previous finish)`. Packets waiting, on the wire and propagating all sit in one in-flight
//! ring in arrival order (as handles into the simulator's packet pool, with the few header
//! fields a hop needs); only its head has an event in the global queue. The waiting
//! backlog is the accepted packets whose start lies in the future, kept in a second small
//! ring, so no dequeue event is ever needed.
//!
//! A dequeue-time discipline (CoDel, FQ-CoDel) holds the waiting packets itself and is asked
//! for the next one whenever the line frees up; the link then needs a transmission-done
//! event, and only while packets wait.

use super::device::{DeviceParams, DeviceQueue};
use super::ring::Ring;
use crate::ids::{FlowId, NodeId};
use crate::loss::AnyLoss;
use crate::monitor::{FlowQueueCounters, Histogram, QueueCounters};
use crate::packet::{ecn, Packet};
use crate::packet_pool::{PacketPool, PacketRef};
use crate::queue::{AnyQueue, AqmState, Arrival, Backlog, Verdict};
use crate::time::{Rate, SimDuration, SimTime};

// The fields are laid out by hand, in the order a packet-hop touches them (checked by
// `layout_tests`): with 50 or 100 flows a hop's link has left the first-level cache since its
// last packet, and Rust's own order spread what one hop reads over eight of the struct's nine
// cache lines. Here a packet that does not wait touches the first five, and its delivery three.
#[derive(Debug)]
#[repr(C, align(64))]
pub struct Link {
    // Line 0: delivery, and the timing of an accepted packet.
    /// Every accepted packet not yet delivered, with its arrival time at `to`; the packets
    /// themselves stay in the simulator's [`PacketPool`].
    in_flight: Ring<(SimTime, Carried)>,
    /// When the line finishes serialising the last accepted packet.
    busy_until: SimTime,
    pub delay: SimDuration,
    pub from: NodeId,
    pub to: NodeId,
    // Line 1: the FIFO backlog.
    /// Accepted packets not yet started: (transmission start, size, flow).
    waiting: Ring<(SimTime, u32, u32)>,
    waiting_bytes: u64,
    counted_until: SimTime,
    zero_sojourns: u64,
    // Line 2: admission.
    /// The discipline; one that holds the waiting packets (`AnyQueue::holds`) leaves
    /// `waiting` empty.
    queue: AnyQueue,
    pub rate: Rate,
    loss: Option<Box<AnyLoss>>,
    /// The loss model takes packets as they enter the link, before the queue (ns-2
    /// `lossmodel`), not as they leave it.
    loss_at_entry: bool,
    // Line 3: what is checked for on every hop but rarely there.
    /// `queue.holds()` and `queue.periodic()`, kept here so that a hop tests a flag rather
    /// than decoding the discipline's variant.
    holds: bool,
    periodic: bool,
    /// Per-flow queue monitor (ns-2 `makeflowmon Fid`), indexed by flow.
    pub flow_monitor: Option<Vec<FlowQueueCounters>>,
    /// Queueing delays of departed packets that waited (see `sojourn_histogram`); those that
    /// did not wait are `zero_sojourns`.
    sojourn: Histogram,
    /// Dequeue-time disciplines: the head event to schedule (fills the line).
    schedule_head: Option<SimTime>,
    // Lines 4 to 6, the hop's counters first (see `QueueCounters`).
    /// Counters and time integrals of the waiting backlog, up to `counted_until`.
    pub counters: QueueCounters,
    /// Dequeue-time disciplines: packets dropped by the last call, for the simulator to
    /// count per flow; events it must schedule.
    dropped: Vec<Packet>,
    tx_event_pending: bool,
    schedule_tx_done: Option<SimTime>,
    /// Dequeue-time disciplines on a traced link: transmissions started by the last call.
    started: Option<Vec<(SimTime, Packet)>>,
    /// A device queue below a dequeue-time discipline (the traffic-control layer,
    /// `net::device`): its packets wait in `waiting` and `in_flight` as a FIFO link's do.
    device: Option<Box<DeviceQueue>>,
    /// The ns2 profile's clock (`Link::keep_ns2_clock`); `periodic` is set with it, so that a
    /// hop of another profile tests no further flag.
    ns2: Option<Box<Ns2Clock>>,
}

/// A FIFO link's ns-2 clock (the ns2 profile): each accepted packet's ns-2 times, computed
/// with ns-2.35's own arithmetic, and the link's `Queue::resume` events.
///
/// ns-2's `LinkDelay::recv` schedules a packet's arrival at the far node at `now + (txt +
/// delay_)`, with `txt = 8 * size / bandwidth_`, and the queue's resume at `now + txt`, in
/// that order (two uids), at the instant its transmission starts: the packet's own arrival at
/// the link when the line was free, else the resume that ended the previous transmission
/// (`Queue::resume` dequeues the next packet; with none waiting the line goes idle,
/// `blocked_ = 0`). Those doubles differ from the exact times by the rounding of each sum,
/// which decides the order of events ackclock's exact clock sees as simultaneous; the
/// scheduler orders such ties by them, then by ns-2's scheduling order (`sched::ns2_key`).
/// A resume becomes an event here only while packets wait (it starts the next one).
#[derive(Debug)]
struct Ns2Clock {
    /// ns-2's `bandwidth_` (bit/s) and `delay_` (s).
    bw: f64,
    delay: f64,
    /// Beside `in_flight`: each packet's arrival time at the far node in ns-2's double, and
    /// its ns-2 scheduling order (the sequence number reserved at its transmission start;
    /// `UNSTARTED` while it waits).
    keys: Ring<(f64, u64)>,
    /// When the last accepted packet's transmission ends, in ns-2's double.
    busy: f64,
    /// The resume that ends the current transmission: its ns-2 time and scheduling order
    /// (before the first transmission: before everything).
    resume: (f64, u64),
    /// The resume is an event in the queue (packets wait).
    resume_pending: bool,
    /// Scheduling orders are due for the packet that started last (the simulator reserves
    /// them: `take_ns2_outcome`).
    started: bool,
    /// The ring was empty when the last packet was accepted: its arrival is the next head
    /// event.
    schedule_head: bool,
    /// A resume event to schedule (the first packet has just started to wait).
    schedule_resume: bool,
}

/// A packet waiting for the line (its scheduling order is reserved when it starts).
const UNSTARTED: u64 = u64::MAX;

/// Whether the event of ns-2 time and scheduling order `a` runs before `b` (of the same
/// exact time).
#[inline]
fn ns2_before(a: (f64, u64), b: (f64, u64)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// What a link and the routers need of a packet it carries, kept beside its handle so that
/// a hop never reads the packet itself: in a deep queue the packet was written a whole queue
/// earlier and has left the first-level cache, while the ring of these 24-byte entries is
/// read and written in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    pub r: PacketRef,
    pub dst: NodeId,
    pub flow: FlowId,
    pub size: u32,
}

impl Carried {
    /// Stores `pkt` in `pool`.
    #[inline]
    pub fn put(pool: &mut PacketPool, pkt: Packet) -> Carried {
        Carried {
            r: pool.put(pkt),
            dst: pkt.dst,
            flow: pkt.flow,
            size: pkt.size,
        }
    }
}

/// A link direction's state as the invariant checker reads it (at the last `advance`).
#[derive(Clone, Copy, Debug)]
pub struct LinkAccount {
    /// Packets waiting for the line.
    pub backlog: Backlog,
    /// Packets that have started transmission but not reached the far end.
    pub on_line: u64,
}

/// What happened to a packet offered to a link.
#[derive(Debug, PartialEq, Eq)]
pub enum Enqueued {
    /// Accepted; the link was empty, so its head event must be scheduled at this time.
    ScheduleHead(SimTime),
    /// Accepted behind other packets; the head event already exists.
    Queued,
    Dropped,
    /// Taken by the loss model at the link's entry, before the queue saw it (ns-2
    /// `lossmodel`); it stays in the pool for the caller to count and free.
    Lost,
    /// Handed to a dequeue-time discipline: the caller collects drops and events with
    /// [`Link::take_held_outcome`].
    Held,
}

/// What a dequeue-time discipline's link needs from the simulator after a call.
#[derive(Debug, Default)]
pub struct HeldOutcome {
    pub head: Option<SimTime>,
    pub tx_done: Option<SimTime>,
}

impl Link {
    /// Where its discipline's traced variables go, if it has any (`queue::VarTrace`).
    pub fn var_trace(&mut self) -> Option<&mut Option<Box<crate::queue::VarTrace>>> {
        self.queue.var_trace()
    }

    /// Where its discipline's random decisions draw from, if it makes any (`queue::random`).
    pub fn random(&mut self) -> Option<&mut crate::rng::Uniform> {
        self.queue.random()
    }

    pub fn new(from: NodeId, to: NodeId, rate: Rate, delay: SimDuration, queue: AnyQueue) -> Link {
        Link {
            from,
            to,
            rate,
            delay,
            holds: queue.holds(),
            periodic: queue.periodic(),
            queue,
            loss: None,
            loss_at_entry: false,
            busy_until: SimTime::ZERO,
            // One slot at first (rings grow by doubling, then keep their size): most links of
            // a large topology never hold more than a few packets, and 400 000 link
            // directions with eight slots each held 120 MB.
            waiting: Ring::with_capacity(1),
            waiting_bytes: 0,
            in_flight: Ring::with_capacity(1),
            counters: QueueCounters::default(),
            counted_until: SimTime::ZERO,
            sojourn: Histogram::default(),
            zero_sojourns: 0,
            dropped: Vec::new(),
            tx_event_pending: false,
            schedule_head: None,
            schedule_tx_done: None,
            started: None,
            flow_monitor: None,
            device: None,
            ns2: None,
        }
    }

    /// Keeps ns-2's clock beside the exact one (the ns2 profile, [`Ns2Clock`]), with
    /// `bandwidth_bps` as ns-2 holds it (`LinkConfig::rate_bps`). Only a FIFO link without a
    /// periodic discipline or a device queue keeps it: the others order their events as
    /// before.
    pub fn keep_ns2_clock(&mut self, bandwidth_bps: f64) {
        if self.holds || self.periodic || self.device.is_some() {
            return;
        }
        self.periodic = true;
        self.ns2 = Some(Box::new(Ns2Clock {
            bw: bandwidth_bps,
            delay: crate::sched::ns2_seconds(SimTime(self.delay.0)),
            keys: Ring::with_capacity(8),
            busy: 0.0,
            resume: (-1.0, 0),
            resume_pending: false,
            started: false,
            schedule_head: false,
            schedule_resume: false,
        }));
    }

    /// Stops keeping ns-2's clock (before the run: another link cannot keep it).
    pub fn drop_ns2_clock(&mut self) {
        if self.ns2.take().is_some() {
            self.periodic = self.queue.periodic();
        }
    }

    /// Whether the link keeps ns-2's clock.
    #[inline(always)]
    pub fn has_ns2_clock(&self) -> bool {
        self.ns2.is_some()
    }

    /// Keeps per-flow queue counters for `flows` flows.
    pub fn monitor_flows(&mut self, flows: usize) {
        self.flow_monitor = Some(vec![FlowQueueCounters::default(); flows]);
    }

    /// Keeps the transmission starts of a dequeue-time discipline for a packet trace.
    pub fn log_starts(&mut self, on: bool) {
        self.started = on.then(Vec::new);
    }

    /// The starts logged since the last call (empty unless logging); hand the vector back
    /// with [`Link::return_started`] to reuse its memory.
    pub fn take_started(&mut self) -> Vec<(SimTime, Packet)> {
        self.started
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    pub fn return_started(&mut self, mut v: Vec<(SimTime, Packet)>) {
        v.clear();
        if let Some(s) = self.started.as_mut() {
            if s.is_empty() {
                *s = v;
            }
        }
    }

    /// The packet a FIFO link accepted last, with its transmission start.
    pub fn last_accepted<'a>(&self, pool: &'a PacketPool) -> Option<(SimTime, &'a Packet)> {
        let &(_, c) = self.in_flight.back()?;
        Some((
            SimTime(self.busy_until.0 - self.rate.tx_time(c.size).0),
            pool.get(c.r),
        ))
    }

    /// Puts a device queue below the link's dequeue-time discipline (the traffic-control
    /// layer: `net::device`).
    pub fn set_device(&mut self, p: DeviceParams) {
        self.device = Some(Box::new(DeviceQueue::new(p)));
    }

    /// The device queue's byte queue limit, if the link has one with BQL.
    pub fn bql_limit(&self) -> Option<u32> {
        self.device.as_ref().and_then(|d| d.bql_limit())
    }

    /// Packets waiting for the line at the last `advance`: in the discipline, and in the
    /// device queue below it if any.
    pub fn backlog(&self) -> Backlog {
        if self.holds {
            self.held_backlog()
        } else {
            self.backlog_fifo()
        }
    }

    #[inline]
    fn held_backlog(&self) -> Backlog {
        let b = self.queue.backlog();
        if self.device.is_none() {
            return b;
        }
        Backlog {
            packets: b.packets + self.waiting.len() as u64,
            bytes: b.bytes + self.waiting_bytes,
        }
    }

    /// The most packets and bytes the discipline lets wait, the device queue's included (for
    /// the invariant checker).
    pub fn limits(&self) -> (Option<u64>, Option<u64>) {
        let (p, b) = self.queue.limits();
        match &self.device {
            None => (p, b),
            Some(d) => (p.map(|p| p + d.limit_packets()), None),
        }
    }

    #[inline(always)]
    fn backlog_fifo(&self) -> Backlog {
        Backlog {
            packets: self.waiting.len() as u64,
            bytes: self.waiting_bytes,
        }
    }

    /// Queueing delays of departed packets, those that did not wait included.
    pub fn sojourn_histogram(&self) -> Histogram {
        let mut h = self.sojourn.clone();
        h.record_n(0, self.zero_sojourns);
        h
    }

    /// The discipline's state, for the queue time series.
    pub fn aqm_state(&self) -> AqmState {
        self.queue.state()
    }

    /// The discipline, if it is written outside the engine (for its declared state).
    pub fn external(&self) -> Option<&crate::queue::external::External> {
        match &self.queue {
            AnyQueue::External(q) => Some(q),
            _ => None,
        }
    }

    /// Brings the backlog and its time integrals up to `now`: packets whose transmission has
    /// started by then leave the queue (a departure, as ns-2's queue monitor counts it).
    #[inline(always)]
    pub fn advance(&mut self, now: SimTime) {
        if !self.holds {
            if self.periodic {
                if self.ns2.is_some() {
                    // Resume events start the waiting packets.
                    self.integrate_to(now);
                    return;
                }
                self.advance_periodic(now);
            }
            self.pop_started(now);
        } else if self.device.is_some() {
            self.pop_device(now);
        }
        self.integrate_to(now);
    }

    /// A periodic discipline's updates up to `now` (`AnyQueue::periodic`), each seeing the backlog of its
    /// own instant.
    #[inline(never)]
    fn advance_periodic(&mut self, now: SimTime) {
        loop {
            let due = self.queue.update_due();
            if due > now {
                break;
            }
            self.pop_started(due);
            let waiting = self.backlog_fifo();
            self.queue.update(waiting);
        }
    }

    #[inline(always)]
    fn pop_started(&mut self, now: SimTime) {
        self.pop_started_until(now, true);
    }

    /// Moves the packets whose transmission started by `now` out of the backlog; with
    /// `inclusive` false, one starting exactly at `now` stays.
    #[inline(always)]
    fn pop_started_until(&mut self, now: SimTime, inclusive: bool) {
        while let Some(&(start, size, flow)) = self.waiting.front() {
            if start > now || (!inclusive && start == now) {
                break;
            }
            self.integrate_to(start);
            self.waiting.pop_front();
            self.waiting_bytes -= size as u64;
            self.counters.departed_packets += 1;
            self.counters.departed_bytes += size as u64;
            if let Some(m) = self.flow_monitor.as_mut() {
                m[flow as usize].depart(start.0, size, true);
            }
        }
    }

    #[inline]
    fn integrate_to(&mut self, t: SimTime) {
        if t > self.counted_until {
            let dt = (t.0 - self.counted_until.0) as u128;
            let b = if self.holds {
                self.held_backlog()
            } else {
                self.backlog_fifo()
            };
            // Most links are empty most of the time: skip the wide arithmetic then.
            if b.packets != 0 {
                self.counters.area_packets += dt * b.packets as u128;
                self.counters.area_bytes += dt * b.bytes as u128;
            }
            self.counted_until = t;
        }
    }

    #[inline]
    fn record_sojourn(&mut self, wait: u64) {
        self.sojourn.record(wait);
        self.counters.sojourn_sum_ps += wait as u128;
        if wait > self.counters.max_sojourn_ps {
            self.counters.max_sojourn_ps = wait;
        }
    }

    /// Offers the packet `c` (stored in `pool`) to the link at `now`; a dropped packet stays
    /// in the pool for the caller to count and free. A packet whose transmission starts at this very
    /// instant still counts as waiting: ns-2 handles an arrival before a departure scheduled
    /// for the same time whenever the arrival was scheduled first, which is the usual case
    /// (it was scheduled a propagation delay earlier), so the arrival finds the queue full
    /// and is the one dropped.
    #[inline(always)]
    pub fn enqueue(&mut self, now: SimTime, c: Carried, pool: &mut PacketPool) -> Enqueued {
        if self.loses_at_entry(pool.get(c.r)) {
            return Enqueued::Lost;
        }
        let holds = self.holds;
        if !holds {
            if self.periodic {
                if self.ns2.is_some() {
                    return self.enqueue_ns2(now, c, pool);
                }
                self.advance_periodic(now);
            }
            self.pop_started_until(now, false);
        } else if self.device.is_some() {
            // Packets the device started sending while the link had no event leave its queue
            // at their start, before the time since is integrated.
            self.pop_device(now);
        }
        self.integrate_to(now);
        if holds {
            self.count_arrival(c.size);
            let pkt = pool.take(c.r);
            self.enqueue_held(now, pkt, pool);
            return Enqueued::Held;
        }
        if !self.admit(now, c, pool) {
            return Enqueued::Dropped;
        }
        let (size, flow) = (c.size, c.flow);
        let start = now.max(self.busy_until);
        // The line frees up at this very instant: as with a packet already waiting (see
        // above), ns-2 runs the arrival before the link's resume event (`Queue::resume`,
        // scheduled one transmission time ago; the arrival was scheduled a propagation delay
        // ago), so the packet waits in the queue until the instant's arrivals are done and
        // counts against the limit for those that follow it. (Not at time 0, before any
        // transmission, nor on a line of unbounded rate, which is never busy.)
        let waits = start > now
            || (self.busy_until == now && now > SimTime::ZERO && self.rate.bps() != u64::MAX);
        self.busy_until = start + self.rate.tx_time(size);
        let arrival = self.busy_until + self.delay;
        if let Some(m) = self.flow_monitor.as_mut() {
            let f = &mut m[flow.idx()];
            f.arrive(now.0, size, waits);
            if !waits {
                f.depart(now.0, size, false);
            }
        }
        if waits {
            self.record_sojourn(start.0 - now.0);
            self.waiting.push_back((start, size, flow.0));
            self.waiting_bytes += size as u64;
            let q = self.waiting.len() as u64;
            if q > self.counters.max_queue_packets {
                self.counters.max_queue_packets = q;
            }
        } else {
            // No wait: counted apart, so the common case skips the histogram's arithmetic.
            self.zero_sojourns += 1;
            self.counters.departed_packets += 1;
            self.counters.departed_bytes += size as u64;
        }
        self.in_flight.push_back((arrival, c));
        if self.in_flight.len() == 1 {
            Enqueued::ScheduleHead(arrival)
        } else {
            Enqueued::Queued
        }
    }

    /// Counts a packet offered to the discipline.
    #[inline(always)]
    fn count_arrival(&mut self, size: u32) {
        self.counters.arrived_packets += 1;
        self.counters.arrived_bytes += size as u64;
    }

    /// Counts the arrival of `c` at a FIFO link and asks the discipline for its verdict
    /// (marking the packet if told to): whether it is admitted. A dropped packet is counted
    /// here and stays in the pool for the caller. Shared by [`Link::enqueue`] and its ns-2
    /// clock twin, so both decide and count alike.
    #[inline(always)]
    fn admit(&mut self, now: SimTime, c: Carried, pool: &mut PacketPool) -> bool {
        let (size, flow) = (c.size, c.flow);
        self.count_arrival(size);
        let backlog = self.backlog_fifo();
        let verdict = match &mut self.queue {
            // The common case needs only the backlog, so it skips building an `Arrival` (and
            // reading the packet for its ECN bits).
            AnyQueue::DropTail(q) => {
                if q.fits(backlog, size) {
                    Verdict::Admit
                } else {
                    Verdict::Drop
                }
            }
            other => other.admit(&Arrival {
                now,
                backlog,
                size,
                pkt: pool.get(c.r),
                idle_since: (self.busy_until <= now).then_some(self.busy_until),
                busy_until: self.busy_until,
                idle_ns2: match &self.ns2 {
                    Some(n) if self.busy_until <= now => Some(pool.ns2_now.0 - n.busy),
                    _ => None,
                },
            }),
        };
        match verdict {
            Verdict::Admit => true,
            Verdict::Mark => {
                pool.get_mut(c.r).ecn |= ecn::CE;
                self.counters.marked_packets += 1;
                true
            }
            Verdict::Drop => {
                // A deliberate accounting bug, compiled only for the invariant checker's own
                // test (`--features inject-accounting-bug`): from its third drop on, a link
                // stops counting drops.
                #[cfg(feature = "inject-accounting-bug")]
                if self.counters.dropped_packets == 2 {
                    return false;
                }
                self.counters.dropped_packets += 1;
                self.counters.dropped_bytes += size as u64;
                if let Some(m) = self.flow_monitor.as_mut() {
                    let f = &mut m[flow.idx()];
                    f.arrive(now.0, size, false);
                    f.drop(now.0, size, false);
                }
                false
            }
        }
    }

    /// [`Link::enqueue`] on a link with ns-2's clock: the arrival and the resume that ends the
    /// current transmission are ordered as ns-2 orders them (by exact time, then by their
    /// ns-2 times and scheduling orders; the arrival's are `pool.ns2_now`), so a packet that
    /// reaches the line at the instant it frees up waits only if ns-2's resume comes after
    /// it. The outcome is the simulator's to collect ([`Link::take_ns2_outcome`]).
    #[inline(never)]
    fn enqueue_ns2(&mut self, now: SimTime, c: Carried, pool: &mut PacketPool) -> Enqueued {
        let (now2, uid) = pool.ns2_now;
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let line_free = self.busy_until < now
            || (self.busy_until == now && ns2_before(ns2.resume, (now2, uid)));
        self.integrate_to(now);
        if !self.admit(now, c, pool) {
            return Enqueued::Dropped;
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
        self.busy_until = start + self.rate.tx_time(size);
        ns2.busy = start2 + txt;
        let arrival = self.busy_until + self.delay;
        let arrival2 = start2 + (txt + ns2.delay);
        if let Some(m) = self.flow_monitor.as_mut() {
            let f = &mut m[flow.idx()];
            f.arrive(now.0, size, waits);
            if !waits {
                f.depart(now.0, size, false);
            }
        }
        ns2.keys.push_back((arrival2, UNSTARTED));
        if waits {
            if !ns2.resume_pending {
                ns2.resume_pending = true;
                ns2.schedule_resume = true;
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
            ns2.started = true;
            self.zero_sojourns += 1;
            self.counters.departed_packets += 1;
            self.counters.departed_bytes += size as u64;
            if let Some(v) = self.started.as_mut() {
                v.push((now, *pool.get(c.r)));
            }
        }
        self.in_flight.push_back((arrival, c));
        let first = self.in_flight.len() == 1;
        self.ns2.as_mut().expect("an ns-2 clock").schedule_head = first;
        Enqueued::Held
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

    /// What the simulator must do after an enqueue or a resume on a link with ns-2's clock:
    /// reserve sequence numbers (then call [`Link::ns2_started`] before scheduling), and
    /// schedule the head and resume events.
    pub fn take_ns2_outcome(&mut self) -> (bool, bool, bool) {
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let o = (ns2.started, ns2.schedule_head, ns2.schedule_resume);
        ns2.started = false;
        ns2.schedule_head = false;
        ns2.schedule_resume = false;
        o
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
        let &(start, _, _) = self.waiting.front().expect("a resume with packets waiting");
        (start, ns2.resume.0, ns2.resume.1)
    }

    /// ns-2's `Queue::resume` at `now` (an event only while packets wait): the next waiting
    /// packet starts. The simulator then collects [`Link::take_ns2_outcome`].
    pub fn on_ns2_resume(&mut self, now: SimTime, pool: &PacketPool) {
        self.integrate_to(now);
        let (start, size, flow) = self
            .waiting
            .pop_front()
            .expect("a resume with packets waiting");
        debug_assert_eq!(start, now);
        self.waiting_bytes -= size as u64;
        self.counters.departed_packets += 1;
        self.counters.departed_bytes += size as u64;
        if let Some(m) = self.flow_monitor.as_mut() {
            m[flow as usize].depart(start.0, size, true);
        }
        let started = self.in_flight.len() - self.waiting.len() - 1;
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        let txt = 8.0 * size as f64 / ns2.bw;
        ns2.resume = (ns2.resume.0 + txt, UNSTARTED);
        ns2.started = true;
        ns2.resume_pending = !self.waiting.is_empty();
        ns2.schedule_resume = ns2.resume_pending;
        if let Some(v) = self.started.as_mut() {
            let &(_, c) = self.in_flight.get(started);
            v.push((now, *pool.get(c.r)));
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

    fn enqueue_held(&mut self, now: SimTime, pkt: Packet, pool: &mut PacketPool) {
        let before = self.dropped.len();
        if let Some(m) = self.flow_monitor.as_mut() {
            m[pkt.flow.idx()].arrive(now.0, pkt.size, true);
        }
        self.queue.enqueue(now, pkt, &mut self.dropped);
        self.count_held_drops(before, now);
        let q = self.backlog().packets;
        if q > self.counters.max_queue_packets {
            self.counters.max_queue_packets = q;
        }
        if self.device.is_some() {
            self.fill_device(now, pool);
            return;
        }
        if !self.tx_event_pending {
            if self.busy_until <= now {
                self.start_next(now, pool);
            } else {
                self.tx_event_pending = true;
                self.schedule_tx_done = Some(self.busy_until);
            }
        }
    }

    fn count_held_drops(&mut self, from: usize, now: SimTime) {
        for p in &self.dropped[from..] {
            self.counters.dropped_packets += 1;
            self.counters.dropped_bytes += p.size as u64;
            if let Some(m) = self.flow_monitor.as_mut() {
                m[p.flow.idx()].drop(now.0, p.size, true);
            }
        }
    }

    /// The line is free at `now`: asks the dequeue-time discipline for the next packet.
    fn start_next(&mut self, now: SimTime, pool: &mut PacketPool) {
        let held = &mut self.queue;
        let marks = held.marks();
        let before = self.dropped.len();
        let next = held.dequeue(now, &mut self.dropped);
        let marked = held.marks() - marks;
        let more = held.backlog().packets > 0;
        self.count_held_drops(before, now);
        self.counters.marked_packets += marked;
        let Some((at, pkt)) = next else {
            // A shaper holding its packets until it has the tokens: ask again then.
            if more {
                if let Some(t) = self.queue.wake_at() {
                    self.tx_event_pending = true;
                    self.schedule_tx_done = Some(t);
                }
            }
            return;
        };
        self.record_sojourn(now.0 - at.0);
        if let Some(m) = self.flow_monitor.as_mut() {
            m[pkt.flow.idx()].depart(now.0, pkt.size, true);
        }
        self.counters.departed_packets += 1;
        self.counters.departed_bytes += pkt.size as u64;
        self.busy_until = now + self.rate.tx_time(pkt.size);
        let arrival = self.busy_until + self.delay;
        if let Some(v) = self.started.as_mut() {
            v.push((now, pkt));
        }
        self.in_flight.push_back((arrival, Carried::put(pool, pkt)));
        if self.in_flight.len() == 1 {
            self.schedule_head = Some(arrival);
        }
        if more {
            self.tx_event_pending = true;
            self.schedule_tx_done = Some(self.busy_until);
        }
    }

    /// The transmission-done event of a dequeue-time discipline's link.
    pub fn on_tx_done(&mut self, now: SimTime, pool: &mut PacketPool) {
        self.tx_event_pending = false;
        if self.device.is_some() {
            self.fill_device(now, pool);
            return;
        }
        self.integrate_to(now);
        self.start_next(now, pool);
    }

    /// The device queue takes the packets that started transmission by `now` (a departure
    /// from the link's backlog), each counted as completed by BQL at its start.
    fn pop_device(&mut self, now: SimTime) {
        while let Some(&(start, size, flow)) = self.waiting.front() {
            if start > now {
                break;
            }
            self.integrate_to(start);
            self.waiting.pop_front();
            self.waiting_bytes -= size as u64;
            self.counters.departed_packets += 1;
            self.counters.departed_bytes += size as u64;
            if let Some(m) = self.flow_monitor.as_mut() {
                m[flow as usize].depart(start.0, size, true);
            }
            self.device
                .as_mut()
                .expect("a device queue")
                .taken(size, start);
        }
    }

    /// The traffic-control layer's transmit loop (ns-3's `QueueDisc::Run`): while the device
    /// queue is not stopped, the discipline hands it its next packet, which leaves at line
    /// rate behind those already there. Then the link needs an event when the device next
    /// takes a packet (and may wake), or when a shaper will have tokens.
    fn fill_device(&mut self, now: SimTime, pool: &mut PacketPool) {
        loop {
            self.pop_device(now);
            self.integrate_to(now);
            if !self.device.as_ref().expect("a device queue").open() {
                break;
            }
            let marks = self.queue.marks();
            let before = self.dropped.len();
            let next = self.queue.dequeue(now, &mut self.dropped);
            self.counters.marked_packets += self.queue.marks() - marks;
            self.count_held_drops(before, now);
            let Some((at, pkt)) = next else {
                break;
            };
            let start = now.max(self.busy_until);
            self.record_sojourn(start.0 - at.0);
            self.busy_until = start + self.rate.tx_time(pkt.size);
            let arrival = self.busy_until + self.delay;
            // Traced when it leaves the discipline (in time order), not at its start.
            if let Some(v) = self.started.as_mut() {
                v.push((now, pkt));
            }
            self.waiting.push_back((start, pkt.size, pkt.flow.0));
            self.waiting_bytes += pkt.size as u64;
            self.device
                .as_mut()
                .expect("a device queue")
                .queued(pkt.size);
            self.in_flight.push_back((arrival, Carried::put(pool, pkt)));
            if self.in_flight.len() == 1 {
                self.schedule_head = Some(arrival);
            }
        }
        let q = self.held_backlog().packets;
        if q > self.counters.max_queue_packets {
            self.counters.max_queue_packets = q;
        }
        if self.tx_event_pending || self.queue.backlog().packets == 0 {
            return;
        }
        let next_start = self.waiting.front().map(|&(t, _, _)| t);
        let wake = if self.device.as_ref().expect("a device queue").open() {
            self.queue.wake_at()
        } else {
            next_start
        };
        if let Some(t) = wake {
            self.tx_event_pending = true;
            self.schedule_tx_done = Some(t);
        }
    }

    /// Drops and events left by the last call on a dequeue-time discipline's link; the
    /// dropped packets are appended to `dropped`.
    pub fn take_held_outcome(&mut self, dropped: &mut Vec<Packet>) -> HeldOutcome {
        dropped.append(&mut self.dropped);
        HeldOutcome {
            head: self.schedule_head.take(),
            tx_done: self.schedule_tx_done.take(),
        }
    }

    /// Removes the head packet, which arrives at `to` now, and returns it with the arrival
    /// time of the next packet, if any, for which the caller schedules the next head event.
    #[inline(always)]
    pub fn deliver_head(&mut self) -> (Carried, Option<SimTime>) {
        let (_, pkt) = self
            .in_flight
            .pop_front()
            .expect("a head event without a packet");
        self.counters.delivered_packets += 1;
        let next = self.in_flight.front().map(|&(t, _)| t);
        (pkt, next)
    }

    pub fn set_loss(&mut self, loss: AnyLoss) {
        self.loss = Some(Box::new(loss));
    }

    /// Puts the loss model at the link's entry (see `LinkConfig::loss_at_entry`).
    pub fn set_loss_at_entry(&mut self, at_entry: bool) {
        self.loss_at_entry = at_entry;
    }

    /// Whether the loss model at the link's entry takes the packet offered to it (asked by
    /// `enqueue`). Most links have no loss model: the hop then tests one pointer, and the
    /// model's call stays out of line.
    #[inline(always)]
    fn loses_at_entry(&mut self, pkt: &Packet) -> bool {
        self.loss.is_some() && self.loss_at_entry && self.loses(pkt)
    }

    /// Whether the loss model after the link takes the packet that has just crossed it.
    #[inline(always)]
    pub fn loses_on_arrival(&mut self, pkt: &Packet) -> bool {
        self.loss.is_some() && !self.loss_at_entry && self.loses(pkt)
    }

    /// Whether the loss model takes the packet (out of line: asked only where a link has
    /// one).
    #[inline(never)]
    fn loses(&mut self, pkt: &Packet) -> bool {
        let Some(m) = self.loss.as_mut() else {
            return false;
        };
        let lost = m.drops(pkt);
        if lost {
            self.counters.lost_packets += 1;
            self.counters.lost_bytes += pkt.size as u64;
            if let Some(fm) = self.flow_monitor.as_mut() {
                fm[pkt.flow.idx()].lose(pkt.size);
            }
        }
        lost
    }

    /// Packets accepted but not yet delivered (waiting, on the wire or propagating).
    pub fn in_flight(&self) -> usize {
        self.in_flight.len() + self.queue.backlog().packets as usize
    }

    /// Packets in the ring, that is in the simulator's packet pool on this link's behalf.
    pub fn ring_len(&self) -> usize {
        self.in_flight.len()
    }

    /// The waiting backlog and the packets on the line (for the invariant checker).
    pub fn account(&self) -> LinkAccount {
        let backlog = self.backlog();
        let on_line = if self.holds {
            // The ring holds the device queue's packets too.
            self.in_flight.len() as u64 - self.device.as_ref().map_or(0, |d| d.len())
        } else {
            // The FIFO ring holds the waiting packets too.
            (self.in_flight.len() as u64).saturating_sub(backlog.packets)
        };
        LinkAccount { backlog, on_line }
    }

    /// Calls `f` on every packet the link holds: waiting, on the wire or propagating.
    pub fn for_each_packet(&self, pool: &PacketPool, f: &mut dyn FnMut(&Packet)) {
        self.queue.for_each_packet(f);
        self.in_flight.iter().for_each(|&(_, c)| f(pool.get(c.r)));
    }

    /// Restarts the running maxima (at the start of the measurement window).
    pub fn reset_max_queue(&mut self) {
        self.counters.max_queue_packets = self.backlog().packets;
        self.counters.max_sojourn_ps = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::DropTail;

    fn pkt(size: u32) -> Packet {
        Packet::test_udp(0, 0, size)
    }

    fn link(limit: u64) -> Link {
        let q = AnyQueue::DropTail(DropTail {
            limit_packets: Some(limit),
            limit_bytes: None,
            ns2: false,
        });
        Link::new(
            NodeId(0),
            NodeId(1),
            Rate::from_bps_f64(8e6).unwrap(),
            SimDuration(5_000),
            q,
        )
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
        for _ in 0..2 {
            let c = Carried::put(&mut pool, pkt(1000));
            assert_eq!(l.enqueue(now, c, &mut pool), Enqueued::Held);
        }
        // The first started at once (seq 10 for its arrival, 11 for its resume), the second
        // waits behind it; its resume is the first's.
        assert_eq!(l.take_ns2_outcome(), (true, false, true));
        l.ns2_started(10);
        let txt = 8.0 * 1000.0 / 8e6;
        let delay = 5_000.0 / 1e12;
        let (t, t2, seq) = l.ns2_head(|| unreachable!()).unwrap();
        assert_eq!(
            (t, t2, seq),
            (SimTime(101_000_005_000), now2 + (txt + delay), 10)
        );
        let (t, t2, seq) = l.ns2_resume();
        assert_eq!((t, t2, seq), (SimTime(101_000_000_000), now2 + txt, 11));
        l.on_ns2_resume(t, &pool);
        assert_eq!(l.take_ns2_outcome(), (true, false, false));
        l.ns2_started(12);
        let (c, key) = l.deliver_head_ns2();
        assert_eq!(pool.get(c.r).size, 1000);
        assert_eq!(key, (now2 + (txt + delay), 10));
        let (_, t2, seq) = l.ns2_head(|| unreachable!()).unwrap();
        assert_eq!((t2, seq), ((now2 + txt) + (txt + delay), 12));
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
            l.enqueue(SimTime(0), c, &mut pool);
            l.take_ns2_outcome();
            l.ns2_started(4); // its resume: seq 5 at 0.001 s
            pool.ns2_now = (arrival2, arrival_seq);
            let c = Carried::put(&mut pool, pkt(1000));
            l.enqueue(SimTime(1_000_000_000), c, &mut pool);
            let (started, _, resume) = l.take_ns2_outcome();
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
        let (head, next) = l.deliver_head();
        assert_eq!(head, first);
        assert_eq!(next, Some(SimTime(2_000_005_000)));
        assert_eq!(l.in_flight(), 1);
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
        let c = l.counters;
        assert_eq!(c.arrived_packets, c.departed_packets + c.dropped_packets);
        // Two packets waited 1 ms and 2 ms: 3 packet-ms.
        assert_eq!(c.area_packets, 3_000_000_000);
    }

    /// Below a holding discipline, a device-queue packet leaves the backlog when its
    /// transmission starts, even when the link has no event then: the next arrival counts
    /// the time since with the packet gone (Little's law: area = sum of the waits).
    #[test]
    fn device_queue_packets_leave_the_backlog_at_their_start() {
        use crate::params::Params;
        use crate::queue::{QueueKind, QueueSetup};
        use crate::rng::RandomStream;
        let kind = QueueKind::by_name("codel").unwrap();
        let setup = QueueSetup {
            limit_packets: Some(100),
            limit_bytes: None,
            ns2: false,
            ecn: false,
            rate_bps: 8e6,
            delay: SimDuration(5_000),
            rng: RandomStream::named(1, "test"),
            flow_priority: vec![].into(),
        };
        let q = AnyQueue::new(kind, &Params::defaults(kind.info()), &setup);
        let mut l = Link::new(
            NodeId(0),
            NodeId(1),
            Rate::from_bps_f64(8e6).unwrap(),
            SimDuration(5_000),
            q,
        );
        l.set_device(DeviceParams {
            limit_packets: 100,
            bql: None,
        });
        let mut pool = PacketPool::default();
        // Two 1 ms packets at 0: the second waits 1 ms in the device queue.
        for _ in 0..2 {
            let c = Carried::put(&mut pool, pkt(1000));
            l.enqueue(SimTime(0), c, &mut pool);
        }
        assert_eq!(l.backlog().packets, 1);
        // The next arrival, 10 ms later, finds the device queue empty since 1 ms.
        let c = Carried::put(&mut pool, pkt(1000));
        l.enqueue(SimTime(10_000_000_000), c, &mut pool);
        assert_eq!(l.counters.area_packets, 1_000_000_000);
        assert_eq!(l.counters.departed_packets, 3);
    }
}

#[cfg(test)]
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
            ("to", offset_of!(Link, to)),
        ] {
            assert_eq!(line(at), 0, "{name} at {at}");
        }
        for (name, at) in [
            ("waiting", offset_of!(Link, waiting)),
            ("waiting_bytes", offset_of!(Link, waiting_bytes)),
            ("counted_until", offset_of!(Link, counted_until)),
            ("zero_sojourns", offset_of!(Link, zero_sojourns)),
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
        for (name, at) in [
            ("holds", offset_of!(Link, holds)),
            ("periodic", offset_of!(Link, periodic)),
            ("flow_monitor", offset_of!(Link, flow_monitor)),
        ] {
            assert_eq!(line(at), 3, "{name} at {at}");
        }
        let c = offset_of!(Link, counters);
        for (name, at) in [
            (
                "arrived_packets",
                offset_of!(QueueCounters, arrived_packets),
            ),
            ("departed_bytes", offset_of!(QueueCounters, departed_bytes)),
            (
                "delivered_packets",
                offset_of!(QueueCounters, delivered_packets),
            ),
            (
                "max_queue_packets",
                offset_of!(QueueCounters, max_queue_packets),
            ),
        ] {
            assert_eq!(line(c + at), 4, "counters.{name} at {}", c + at);
        }
    }
}
