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
//!
//! The FIFO service is here; the dequeue-time one (and a device queue below it) is in
//! `link/held.rs`, the ns-2 clock a FIFO link keeps under `run.ties = "ns2"` in
//! `link/ns2_clock.rs`.

use super::device::DeviceQueue;
use super::quick_start::QsUtil;
use super::ring::Ring;
use crate::ids::{FlowId, NodeId};
use crate::loss::AnyLoss;
use crate::monitor::{FlowQueueCounters, Histogram, QueueCounters};
use crate::packet::{ecn, Packet};
use crate::packet_pool::{PacketPool, PacketRef};
use crate::queue::{AnyQueue, AqmState, Arrival, Backlog, Verdict};
use crate::time::{Rate, SimDuration, SimTime};

mod held;
mod ns2_clock;
mod ns2_held;
mod quick_start_load;
#[cfg(test)]
mod tests;

pub use held::HeldOutcome;
use ns2_clock::Ns2Clock;
pub use ns2_clock::{Ns2Integral, Ns2Integrals, Ns2Outcome};

// The fields are laid out by hand, in the order a packet-hop touches them (checked by
// `layout_tests`): with 50 or 100 flows a hop's link has left the first-level cache since its
// last packet, and Rust's own order spread what one hop reads over eight of the struct's nine
// cache lines. Here a packet that does not wait touches the first four (the service byte and
// whether flows are monitored are in the first), and its delivery the first alone.
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
    /// What a packet entering the link meets beyond a plain FIFO, as bits: [`HOLDS`]
    /// (`queue.holds()`), [`PERIODIC`] (`queue.periodic()`), [`NS2`] (the link keeps ns-2's
    /// clock), [`LOSS_AT_ENTRY`] (a loss model at its entry). Kept here so that a hop tests
    /// one byte rather than decoding the discipline's variant and the loss model: 0 on a
    /// plain FIFO link without a loss model at its entry.
    service: u8,
    /// `flow_monitor` is kept: tested here, so that a hop of an unmonitored link does not
    /// read the line that holds it.
    monitored: bool,
    pub to: NodeId,
    /// Not on a hop's path: here, in what line 0 has left (the deliveries are no longer
    /// counted, `Link::delivered`), so that `waiting` starts line 1.
    pub from: NodeId,
    // Line 1: the FIFO backlog.
    /// Accepted packets not yet started: (transmission start, size, flow).
    waiting: Ring<(SimTime, u32, u32)>,
    waiting_bytes: u64,
    counted_until: SimTime,
    zero_sojourns: u64,
    /// Packets `ns2_set_params` took off the ring that have not reached `to` yet (see
    /// [`Link::delivered`]). Not on a hop's path: here, as `from` was.
    lingering: u64,
    // Line 2: admission.
    /// The discipline; one that holds the waiting packets (`AnyQueue::holds`) leaves
    /// `waiting` empty.
    queue: AnyQueue,
    pub rate: Rate,
    loss: Option<Box<AnyLoss>>,
    /// The loss model takes packets as they enter the link, before the queue (ns-2
    /// `lossmodel`), not as they leave it.
    loss_at_entry: bool,
    /// The loss model marks CE instead of dropping (`set_loss_marks_ecn`), and it has just
    /// marked a packet (`take_loss_mark`).
    loss_marks_ecn: bool,
    loss_marked: bool,
    // Line 3: what a hop reads only when the link has it, or when the packet waits.
    /// Per-flow queue monitor (ns-2 `makeflowmon Fid`), indexed by flow; `monitored` says
    /// whether it is there.
    pub flow_monitor: Option<Vec<FlowQueueCounters>>,
    /// Queueing delays of departed packets that waited (see `sojourn_histogram`); those that
    /// did not wait are `zero_sojourns`.
    sojourn: Histogram,
    // Lines 4 to 6, the hop's counters first (see `QueueCounters`).
    /// Counters and time integrals of the waiting backlog, up to `counted_until`, but the
    /// departures and deliveries, which no hop counts: [`Link::counters`] derives them.
    counters: QueueCounters,
    /// Dequeue-time disciplines: a transmission-done event is in the queue.
    tx_event_pending: bool,
    /// Dequeue-time disciplines on a traced link: transmissions started by the last call.
    started: Option<Vec<(SimTime, Packet)>>,
    /// A device queue below a dequeue-time discipline (the traffic-control layer,
    /// `net::device`): its packets wait in `waiting` and `in_flight` as a FIFO link's do.
    device: Option<Box<DeviceQueue>>,
    /// ns-2's clock (`Link::keep_ns2_clock`, under `run.ties = "ns2"`); the [`NS2`] bit of
    /// `service` is set with it, so that a hop of another link tests no further flag.
    ns2: Option<Box<Ns2Clock>>,
    // Last, as nothing on a hop's path reads them: a loss model at the link's entry that
    // delays what it takes instead of dropping it (ns-2.35's `ErrorModel::recv` with
    // `delay_pkt_`), by `loss_delay`; it has just taken a packet to delay
    // (`take_loss_delay`); the next packet offered is one it delayed, which goes past it
    // (`resume_loss_at`: ns-2 schedules the packet to the model's target, not to the model).
    // Further models at the entry, met in order after `loss` (`add_loss_behind`).
    loss_delay: SimDuration,
    /// The stage that has just taken a packet to delay it, plus one: where the packet resumes.
    loss_delayed: Option<u8>,
    /// The stage the next packet offered starts at (0: `loss`, k: `loss_behind[k - 1]`).
    loss_resume: u8,
    loss_behind: Vec<LossStage>,
    /// The utilisation of the link's queue for its node's Quick-Start agent
    /// (`net/quick_start.rs`); the [`QUICK_START`] bit of `service` is set with it. A request
    /// entering the link goes to the simulator first ([`Enqueued::QuickStart`]), then comes
    /// back with `qs_passed` set.
    qs: Option<Box<QsUtil>>,
    qs_passed: bool,
}

/// A loss model at a link's entry behind the first (ns-2.35 tcl/lib/ns-link.tcl: each
/// `$link errormodule` goes to the link's head, `Link::add-to-head`, so the one placed last
/// is met first and hands what it lets pass, or delays, to the one placed before it).
#[derive(Clone, Debug)]
struct LossStage {
    model: AnyLoss,
    marks_ecn: bool,
    delay: SimDuration,
}

/// What one loss model does with a packet it is offered.
enum StageVerdict {
    Pass,
    Drop,
    Delay,
}

/// ns-2.35's `ErrorModel::recv`: a packet `corrupt` takes is marked CE with `markecn_` and goes
/// on, is scheduled to the model's target `delay_` later with `delay_pkt_`, else dropped.
#[inline]
fn stage_verdict(
    model: &mut AnyLoss,
    marks_ecn: bool,
    delay: SimDuration,
    pkt: &mut Packet,
    marked: &mut bool,
) -> StageVerdict {
    if !model.drops(pkt) {
        return StageVerdict::Pass;
    }
    if delay > SimDuration::ZERO {
        return StageVerdict::Delay;
    }
    if marks_ecn {
        pkt.ecn |= crate::packet::ecn::CE;
        *marked = true;
        return StageVerdict::Pass;
    }
    StageVerdict::Drop
}

/// What a link and the routers need of a packet it carries, kept beside its handle so that
/// a hop never reads the packet itself: in a deep queue the packet was written a whole queue
/// earlier and has left the first-level cache, while the ring of these 24-byte entries is
/// read and written in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    pub r: PacketRef,
    /// How the packet is routed at the link's far node: its place on its flow's path
    /// (`net/source_routes.rs`), or `TABLE` with its destination's node id.
    pub route: u32,
    pub flow: FlowId,
    pub size: u32,
}

impl Carried {
    /// The pool's packet `r`, as a link carries it.
    #[inline]
    pub fn of(pool: &PacketPool, r: PacketRef) -> Carried {
        let p = pool.get(r);
        Carried {
            r,
            route: super::source_routes::TABLE | p.dst.0,
            flow: p.flow,
            size: p.size,
        }
    }

    /// Stores `pkt` in `pool`.
    #[inline]
    pub fn put(pool: &mut PacketPool, pkt: Packet) -> Carried {
        Carried {
            r: pool.put(pkt),
            route: super::source_routes::TABLE | pkt.dst.0,
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
    /// Packets that have started transmission but not reached the far end, and their bytes.
    pub on_line: u64,
    pub on_line_bytes: u64,
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
    /// Not taken: the link's service is not the FIFO one. The packet, still in the pool,
    /// goes to [`Link::enqueue_held`] (a dequeue-time discipline) or, on a link that keeps
    /// ns-2's clock, to [`Link::enqueue_ns2`]; each returns what the caller must do. (As
    /// payloads of this enum those outcomes cost the FIFO hop 12 instructions:
    /// benchmarks/instructions.py.)
    Held,
    /// Not taken yet: a Quick-Start request enters a link whose node has a Quick-Start agent
    /// ([`Link::keep_quick_start`]). The simulator lets the agent see it, then offers it
    /// again ([`Link::pass_quick_start`]).
    QuickStart,
}

/// [`Link::service`] bits: the discipline holds its packets (a dequeue-time discipline,
/// `link/held.rs`).
const HOLDS: u8 = 1;
/// The discipline has periodic work (`AnyQueue::periodic`: updates of its own state on a timer).
const PERIODIC: u8 = 2;
/// The link keeps ns-2's clock (`link/ns2_clock.rs`; only a FIFO link without periodic work).
const NS2: u8 = 4;
/// The link has a loss model and it is at its entry (`loss_at_entry`), before the queue: kept
/// by [`Link::set_loss`] and [`Link::set_loss_at_entry`].
const LOSS_AT_ENTRY: u8 = 8;
/// The link is down (ns-2's `rtmodel`, `link/ns2_clock.rs`): what reaches it is dropped before
/// its queue, untraced. While it is down its loss model's entry bit is off, so that the
/// packet goes straight to [`Enqueued::Held`] and the simulator's out-of-line path.
const DOWN: u8 = 16;
/// The link's node has a Quick-Start agent: requests stop at the simulator before entering,
/// and the link keeps its queue's utilisation (`net/quick_start.rs`).
const QUICK_START: u8 = 32;
/// The link has a loss model after it (not at its entry): a packet's delivery takes the
/// simulator's out-of-line path. A bit here, so that a delivery reads the link's first line
/// only, not the line holding `loss` (kept by [`Link::set_loss`] and
/// [`Link::set_loss_at_entry`]).
const LOSS_AFTER: u8 = 64;

impl Link {
    /// The [`Link::service`] bits of a link with discipline `queue`.
    fn service_of(queue: &AnyQueue) -> u8 {
        (if queue.holds() { HOLDS } else { 0 }) | (if queue.periodic() { PERIODIC } else { 0 })
    }

    /// Whether the discipline holds its packets (the dequeue-time service).
    #[inline(always)]
    pub fn holds(&self) -> bool {
        self.service & HOLDS != 0
    }
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
            service: Link::service_of(&queue),
            monitored: false,
            queue,
            loss: None,
            loss_at_entry: false,
            loss_marks_ecn: false,
            loss_marked: false,
            loss_delay: SimDuration::ZERO,
            loss_delayed: None,
            loss_resume: 0,
            loss_behind: Vec::new(),
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
            lingering: 0,
            tx_event_pending: false,
            started: None,
            flow_monitor: None,
            device: None,
            ns2: None,
            qs: None,
            qs_passed: false,
        }
    }

    /// Keeps per-flow queue counters for `flows` flows.
    pub fn monitor_flows(&mut self, flows: usize) {
        self.flow_monitor = Some(vec![FlowQueueCounters::default(); flows]);
        self.monitored = true;
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

    /// Packets waiting for the line at the last `advance`: in the discipline, and in the
    /// device queue below it if any.
    /// The link's CBQ, if its discipline is one (`$class newallot` during the run).
    pub fn cbq_mut(&mut self) -> Option<&mut crate::queue::Cbq> {
        match &mut self.queue {
            AnyQueue::Cbq(q) => Some(q),
            _ => None,
        }
    }

    /// The link's DiffServ queue, if its discipline is one (its statistics and averages
    /// during the run).
    pub fn dsred(&self) -> Option<&crate::queue::DsRed> {
        match &self.queue {
            AnyQueue::DsRed(q) => Some(q),
            _ => None,
        }
    }

    pub fn backlog(&self) -> Backlog {
        if self.holds() {
            self.held_backlog()
        } else {
            self.backlog_fifo()
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
        self.settle(now);
        self.integrate_to(now);
    }

    /// The changes of the backlog up to `now` (packets that started on the line, a periodic
    /// discipline's updates), each integrated at its own instant; the integrals then reach
    /// the last change, not `now` (see [`Link::counters_at`]).
    pub fn settle(&mut self, now: SimTime) {
        if self.holds() {
            if self.device.is_some() {
                self.pop_device(now);
            }
            return;
        }
        if self.service & NS2 != 0 {
            return; // resume events start the waiting packets
        }
        if self.service & PERIODIC != 0 {
            self.advance_periodic(now);
        }
        self.pop_started(now);
    }

    /// The counters with the backlog's integrals brought up to `t`, leaving the link's own
    /// at its last change (`counted_until`): what an ns-2 Integrator read between two
    /// changes holds (`Integrator::newPoint` adds only at a change).
    pub fn counters_at(&self, t: SimTime) -> QueueCounters {
        let mut c = self.counters();
        if t > self.counted_until {
            let dt = (t.0 - self.counted_until.0) as u128;
            let b = self.backlog();
            c.area_packets += dt * b.packets as u128;
            c.area_bytes += dt * b.bytes as u128;
        }
        c
    }

    /// The counters and time integrals of the waiting backlog, up to [`Link::counted_until`].
    #[inline]
    pub fn counters(&self) -> QueueCounters {
        let (departed_packets, departed_bytes) = self.departed();
        QueueCounters {
            departed_packets,
            departed_bytes,
            delivered_packets: self.delivered(),
            ..self.counters
        }
    }

    /// Packets and bytes that have left the backlog for the line: not counted as they go (a
    /// hop counts only its arrival), but derived when read. Every packet counted arriving has
    /// been dropped, waits, or has departed, and one dropped from the line had departed first:
    /// departed = arrived - dropped + dropped from the line - waiting. (The invariant checker
    /// tests the accounting against deliveries it counts itself, `sim/invariants.rs`.)
    #[inline]
    fn departed(&self) -> (u64, u64) {
        let c = &self.counters;
        let b = self.backlog();
        // Only a link with ns-2's clock goes down (`ns2_set_down`).
        let line = self.ns2.as_deref().map_or((0, 0), |n| n.line_dropped);
        // Wrapping: a broken count must reach the checker as a wrong number, not a panic.
        let net = |arrived: u64, dropped: u64, line: u64, waiting: u64| {
            arrived
                .wrapping_sub(dropped)
                .wrapping_add(line)
                .wrapping_sub(waiting)
        };
        (
            net(c.arrived_packets, c.dropped_packets, line.0, b.packets),
            net(c.arrived_bytes, c.dropped_bytes, line.1, b.bytes),
        )
    }

    /// Packets delivered at the far end so far: not counted at each delivery, but derived
    /// when read (see [`Link::departed`]): those that departed and were neither dropped from
    /// the line nor are still on it, or lingering ([`Link::ns2_set_params`]).
    #[inline]
    pub fn delivered(&self) -> u64 {
        let line = self.ns2.as_deref().map_or(0, |n| n.line_dropped.0);
        self.departed()
            .0
            .wrapping_sub(line)
            .wrapping_sub(self.on_line())
            .wrapping_sub(self.lingering)
    }

    /// The instant the backlog's integrals have reached: its last change after
    /// [`Link::settle`].
    pub fn counted_until(&self) -> SimTime {
        self.counted_until
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
            self.integrate_fifo_to(start);
            self.waiting.pop_front();
            self.waiting_bytes -= size as u64;
            if let Some(m) = self.flow_monitor.as_mut() {
                m[flow as usize].depart(start.0, size, true);
            }
        }
    }

    /// Brings the backlog's time integrals up to `t`, with the backlog of the link's service.
    #[inline]
    fn integrate_to(&mut self, t: SimTime) {
        self.integrate_by(t, |l| {
            if l.holds() {
                l.held_backlog()
            } else {
                l.backlog_fifo()
            }
        });
    }

    /// [`Link::integrate_to`] where the service is known to be the FIFO one: no test of the
    /// service on the hop's path.
    #[inline]
    fn integrate_fifo_to(&mut self, t: SimTime) {
        self.integrate_by(t, Link::backlog_fifo);
    }

    #[inline(always)]
    fn integrate_by(&mut self, t: SimTime, backlog: impl Fn(&Link) -> Backlog) {
        if t > self.counted_until {
            let dt = (t.0 - self.counted_until.0) as u128;
            let b = backlog(self);
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
        // One test on a plain FIFO link without a loss model at its entry.
        if self.service != 0 {
            if self.service & QUICK_START != 0 {
                if !self.qs_passed && pool.get(c.r).ecn & ecn::QS != 0 {
                    return Enqueued::QuickStart;
                }
                if self.ns2.is_none() {
                    self.qs_note_arrival(now);
                }
            }
            if self.service & LOSS_AT_ENTRY != 0 && self.loses(pool.get_mut(c.r)) {
                if self.loss_delayed.is_none() {
                    self.ns2_point(pool.ns2_now.0); // a queue monitor's drop
                }
                return Enqueued::Lost;
            }
            if self.service & (HOLDS | NS2 | DOWN) != 0 {
                // The discipline holds its packets, the link keeps ns-2's clock or is down.
                return Enqueued::Held;
            }
            if self.service & PERIODIC != 0 {
                self.advance_periodic(now);
            }
        }
        self.pop_started_until(now, false);
        self.integrate_fifo_to(now);
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
        if self.monitored {
            if let Some(m) = self.flow_monitor.as_mut() {
                let f = &mut m[flow.idx()];
                f.arrive(now.0, size, waits);
                if !waits {
                    f.depart(now.0, size, false);
                }
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
            // (Its departure is not counted: `Link::departed`.)
            self.zero_sojourns += 1;
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
                let qs = self.flow_monitor.is_some() && pool.get(c.r).ecn & ecn::QS_WINDOW != 0;
                self.count_refused(now, flow, size, false, qs);
                false
            }
            Verdict::EarlyDrop => {
                let qs = self.flow_monitor.is_some() && pool.get(c.r).ecn & ecn::QS_WINDOW != 0;
                self.count_refused(now, flow, size, true, qs);
                false
            }
        }
    }

    /// Counts a packet of `flow` the discipline refused at `now`; `early`: an early drop
    /// sent to its own target, which a flow monitor counts apart too (ns-2's
    /// `EDQueueMonitor::edrop`: a drop, and an early one); `qs`: a packet sent at a
    /// Quick-Start rate (`QueueMonitor::drop`'s `qs_drops_`).
    #[inline]
    fn count_refused(&mut self, now: SimTime, flow: FlowId, size: u32, early: bool, qs: bool) {
        self.counters.dropped_packets += 1;
        self.counters.dropped_bytes += size as u64;
        if let Some(m) = self.flow_monitor.as_mut() {
            let f = &mut m[flow.idx()];
            f.arrive(now.0, size, false);
            f.drop(now.0, size, false);
            if qs {
                f.dropped_qs_packets += 1;
            }
            if early {
                f.early_dropped_packets += 1;
                f.early_dropped_bytes += size as u64;
            }
        }
    }

    /// Calls `f` on every packet the link carries (waiting, on the line or propagating), in
    /// order (the simulator's `routes_changed`).
    pub fn each_carried(&mut self, mut f: impl FnMut(&mut Carried)) {
        for k in 0..self.in_flight.len() {
            f(&mut self.in_flight.get_mut(k).1);
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
        let next = self.in_flight.front().map(|&(t, _)| t);
        (pkt, next)
    }

    /// The loss model marks the packets it takes Congestion Experienced and lets them pass
    /// (`LossConfig::DropList`'s `mark_ecn`; ns-2.35's `ErrorModel::recv` with `markecn_`).
    pub fn set_loss_marks_ecn(&mut self, marks: bool) {
        self.loss_marks_ecn = marks;
    }

    /// Whether the loss model marked the packet last offered (cleared by asking): a trace
    /// shows the mark from the link's entry on, as ns-2's module sits before its `+` trace.
    pub fn take_loss_mark(&mut self) -> bool {
        std::mem::take(&mut self.loss_marked)
    }

    /// The loss model delays the packets it takes by `delay` instead of dropping them (zero:
    /// it drops them): `LossConfig::DropList`'s `delay_ps`.
    pub fn set_loss_delay(&mut self, delay: SimDuration) {
        self.loss_delay = delay;
    }

    /// After [`Enqueued::Lost`]: if a model took the packet to delay it, the stage it resumes
    /// at (for [`Link::resume_loss_at`]) and how long it is to be delayed before it is offered
    /// again; cleared by asking.
    pub fn take_loss_delay(&mut self) -> Option<(u8, SimDuration)> {
        let stage = self.loss_delayed.take()?;
        let delay = match stage {
            1 => self.loss_delay,
            k => self.loss_behind[k as usize - 2].delay,
        };
        Some((stage, delay))
    }

    /// Whether a loss model has just taken a packet to delay it (see `take_loss_delay`).
    pub fn took_to_delay(&self) -> bool {
        self.loss_delayed.is_some()
    }

    /// The next packet offered starts at loss model `stage` (0 the first) at the entry: it is
    /// one the model before it delayed, which ns-2 schedules to that model's target
    /// (`ErrorModel::recv`); past the last, it goes straight to the queue.
    pub fn resume_loss_at(&mut self, stage: u8) {
        self.loss_resume = stage;
    }

    /// Whether the next packet offered skips the first loss model ([`Link::resume_loss_at`]).
    pub fn passes_loss(&self) -> bool {
        self.loss_resume != 0
    }

    /// After offering a packet a model delayed: a link that is down did not ask its models,
    /// and the next packet must start at the first.
    pub fn end_pass(&mut self) {
        self.loss_resume = 0;
    }

    /// Another loss model at the link's entry, met after those already there (see
    /// [`LossStage`]); the first is [`Link::set_loss`]'s.
    pub fn add_loss_behind(&mut self, model: AnyLoss, marks_ecn: bool, delay: SimDuration) {
        self.loss_behind.push(LossStage {
            model,
            marks_ecn,
            delay,
        });
    }

    pub fn set_loss(&mut self, loss: AnyLoss) {
        self.loss = Some(Box::new(loss));
        self.set_loss_at_entry(self.loss_at_entry);
    }

    /// Where its loss model's random decisions draw from, if it has a random one.
    pub fn loss_random(&mut self) -> Option<&mut crate::rng::Uniform> {
        self.loss.as_mut().and_then(|m| m.random())
    }

    /// Puts the loss model at the link's entry (see `LinkConfig::loss_at_entry`).
    pub fn set_loss_at_entry(&mut self, at_entry: bool) {
        self.loss_at_entry = at_entry;
        self.service &= !(LOSS_AT_ENTRY | LOSS_AFTER);
        if at_entry && self.loss.is_some() && self.service & DOWN == 0 {
            self.service |= LOSS_AT_ENTRY;
        }
        if !at_entry && self.loss.is_some() {
            self.service |= LOSS_AFTER;
        }
    }

    /// Whether the link has a loss model at its entry, in service (a packet trace may sit
    /// ahead of it, [`crate::trace::packets::TraceEvent::EnqueueAhead`]).
    #[inline(always)]
    pub fn loses_at_entry(&self) -> bool {
        self.service & LOSS_AT_ENTRY != 0
    }

    /// Whether the link has a loss model after it (ns-2's `link-lossmodel`, at its entry,
    /// does not count).
    #[inline(always)]
    pub fn loses_after(&self) -> bool {
        debug_assert_eq!(
            self.service & LOSS_AFTER != 0,
            self.loss.is_some() && !self.loss_at_entry
        );
        self.service & LOSS_AFTER != 0
    }

    /// Whether the loss model after the link takes the packet that has just crossed it.
    #[inline(always)]
    pub fn loses_on_arrival(&mut self, pkt: &mut Packet) -> bool {
        self.loss.is_some() && !self.loss_at_entry && self.loses(pkt)
    }

    /// Whether the loss model takes the packet (out of line: asked only where a link has
    /// one).
    #[inline(never)]
    fn loses(&mut self, pkt: &mut Packet) -> bool {
        let from = std::mem::take(&mut self.loss_resume) as usize;
        let Some(m) = self.loss.as_mut() else {
            return false;
        };
        // The models in the order a packet meets them, from where it resumes.
        for k in from..=self.loss_behind.len() {
            let verdict = if k == 0 {
                stage_verdict(
                    m,
                    self.loss_marks_ecn,
                    self.loss_delay,
                    pkt,
                    &mut self.loss_marked,
                )
            } else {
                let s = &mut self.loss_behind[k - 1];
                stage_verdict(
                    &mut s.model,
                    s.marks_ecn,
                    s.delay,
                    pkt,
                    &mut self.loss_marked,
                )
            };
            match verdict {
                StageVerdict::Pass => {}
                StageVerdict::Delay => {
                    // Neither lost nor marked: it comes back later, to the next model.
                    self.loss_delayed = Some(k as u8 + 1);
                    return true;
                }
                StageVerdict::Drop => {
                    self.counters.lost_packets += 1;
                    self.counters.lost_bytes += pkt.size as u64;
                    if let Some(fm) = self.flow_monitor.as_mut() {
                        fm[pkt.flow.idx()].lose(pkt.size);
                    }
                    return true;
                }
            }
        }
        false
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
        // The ring holds the waiting packets (a FIFO link's, a device queue's) too.
        let ring_bytes: u64 = self.in_flight.iter().map(|&(_, c)| c.size as u64).sum();
        LinkAccount {
            backlog,
            on_line: self.on_line(),
            on_line_bytes: ring_bytes - self.waiting_bytes,
        }
    }

    /// Packets that have started transmission but not reached the far end.
    #[inline]
    fn on_line(&self) -> u64 {
        if self.holds() {
            // The ring holds the device queue's packets too.
            self.in_flight.len() as u64 - self.device.as_ref().map_or(0, |d| d.len())
        } else {
            // The FIFO ring holds the waiting packets too.
            (self.in_flight.len() as u64).saturating_sub(self.waiting.len() as u64)
        }
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
