//! The invariant checker: accounting and sanity rules every run must obey.
//!
//! A simulator's users cannot see inside it, so a silent accounting bug becomes a wrong
//! result. The checker re-derives what the counters claim from the packets actually in the
//! network and reports the first rule broken, with the simulated time and the component:
//!
//! - **Time**: events are handled in non-decreasing time order.
//! - **Link conservation** (per link direction): arrived = delivered across the link +
//!   dropped + waiting + on the line (transmitting or propagating), in packets and in bytes,
//!   where the deliveries are the checker's own count of the packets that reached the link's
//!   far end (`Simulator::arrive_checked`), not the link's: a link counts only its arrivals
//!   and drops, and derives its departures and deliveries from them (`Link::departed`), so
//!   its own numbers would make the rule an identity; the deliveries the link derives agree
//!   with that count; lost to the loss model <= delivered across the link.
//! - **Queue limit**: the waiting backlog never exceeds the discipline's limit (packets,
//!   or bytes for a byte-limited DropTail; RED measuring its queue in bytes is exempt
//!   from the packet limit).
//! - **Flow conservation** (per flow, data packets): sent = received + dropped + in the
//!   network (on links, in queues and in Tmix delay lines); and for ACKs: dropped + in
//!   the network <= sent.
//! - **TCP sequence space**: snd_una <= snd_nxt <= snd_max; the receiver's rcv_nxt <=
//!   snd_max and snd_una <= rcv_nxt (nothing is acknowledged that was not received); no
//!   ACK in the network acknowledges beyond snd_max and no data packet in the network lies
//!   at or beyond snd_max; on a two-way connection, no ACK carried by a data segment
//!   acknowledges beyond the reverse direction's snd_max.
//! - **Monotone counters**: every cumulative flow and queue counter, the event count and
//!   the delivered-packet count never decrease between checks.
//!
//! The checker is always on in debug builds (so `cargo test` runs every scenario under it)
//! and on in release builds when the scenario sets `run.check`. Time order is checked on
//! every event; the full check runs at the end of the run and every few thousand events
//! during it (the interval grows with the size of the network, so the check costs a bounded
//! fraction of the run). A violation stops the run: [`crate::Simulator::stop_reason`]
//! then describes it.
//!
//! This file is a child module of `sim`, so it reads the simulator's private state without
//! widening its interface.

use std::fmt;

use super::{Agent, Simulator};
use crate::monitor::{FlowCounters, QueueCounters};
use crate::packet::{tcp_flags, Packet, PacketKind};
use crate::time::SimTime;

/// Why a run stopped before its duration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The invariant checker found a broken rule: an engine bug.
    Invariant(Violation),
    /// A resource guard stopped the run: the scenario key that sets the limit, and what
    /// happened.
    Limit { key: &'static str, message: String },
    /// A congestion control written in Python failed (its code raised, or a hook left a
    /// window that is not one): the flow's name, when, and what happened.
    External {
        flow: String,
        at: SimTime,
        message: String,
    },
    /// A queue discipline written in Python failed (its code raised, or it returned a
    /// verdict that is not one): the link's name, when, and what happened.
    ExternalQueue {
        link: String,
        at: SimTime,
        message: String,
    },
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Invariant(v) => v.fmt(f),
            StopReason::Limit { key, message } => write!(f, "{key}: {message}"),
            StopReason::External { flow, at, message } => {
                write!(f, "flow {flow} at t={:.6} s: {message}", at.as_secs_f64())
            }
            StopReason::ExternalQueue { link, at, message } => {
                write!(f, "link {link} at t={:.6} s: {message}", at.as_secs_f64())
            }
        }
    }
}

/// Resource guards that stop a run cleanly instead of letting it run for ever or exhaust
/// memory: `run.max_events` (default: none) and `run.max_packets`, the packets held in the
/// network at once (waiting, on the wire, propagating, in delay lines), checked every
/// `MEM_CHECK_INTERVAL` events, or 16 per link direction on a large network.
#[derive(Clone, Copy, Debug)]
pub struct Guards {
    pub max_events: u64,
    pub max_packets: u64,
    next_mem_check: u64,
}

/// Default `run.max_packets`: about 1-2 GB of packet state.
pub const DEFAULT_MAX_PACKETS: u64 = 10_000_000;
/// Events between two counts of the packets held in the network, at the least. One event
/// adds few packets, so the guard overshoots its limit by little.
const MEM_CHECK_INTERVAL: u64 = 1 << 16;
/// Events between two counts per link direction: a count reads every direction's ring and
/// queue, two cache lines each, so on a large network (40 002 directions at 10 000 flows)
/// counting every 65 536 events cost 1.3 of the 8.3 first-level cache misses per hop
/// (cachegrind, docs/performance.md); at 16 events per direction the walk stays under one
/// line read per 8 events, and a network below 4 096 directions is counted as before.
const MEM_CHECK_EVENTS_PER_LINK: u64 = 16;

/// The guards and (in debug builds or with `run.check`) the checker for a run.
pub(super) fn setup(run: &crate::scenario::RunConfig) -> (Guards, Option<Box<Checker>>) {
    let guards = Guards {
        max_events: run.max_events.unwrap_or(u64::MAX),
        max_packets: run.max_packets.unwrap_or(DEFAULT_MAX_PACKETS),
        next_mem_check: MEM_CHECK_INTERVAL,
    };
    let checker = (cfg!(debug_assertions) || run.check).then(|| Box::new(Checker::new()));
    (guards, checker)
}

/// The first broken rule: when, where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub at: SimTime,
    /// `link r1->r2`, `flow tcp1`, `scheduler`, `simulator`.
    pub component: String,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invariant violated at t={:.9} s in {}: {}",
            self.at.as_secs_f64(),
            self.component,
            self.message
        )
    }
}

/// The checker's memory between checks.
#[derive(Debug, Default)]
pub struct Checker {
    prev_flows: Vec<FlowCounters>,
    prev_queues: Vec<QueueCounters>,
    prev_events: u64,
    prev_delivered: u64,
    /// Events until the next full check, and the interval between full checks.
    countdown: u64,
    interval: u64,
    /// Per link: packets and bytes that reached its far end, counted here as they do
    /// (`Simulator::arrive_checked`, which a checked run takes for every arrival).
    delivered: Vec<(u64, u64)>,
    /// Per flow: data packets and ACKs in the network (scratch space).
    data_in_net: Vec<u64>,
    acks_in_net: Vec<u64>,
    /// Full checks done (for tests).
    pub checks: u64,
}

/// Events between two full checks, at least; more for large networks.
const MIN_INTERVAL: u64 = 4096;

impl Checker {
    pub fn new() -> Checker {
        Checker {
            countdown: MIN_INTERVAL,
            interval: MIN_INTERVAL,
            ..Checker::default()
        }
    }

    /// A packet of `size` bytes has crossed link `l` and reached its far end.
    #[inline]
    pub(super) fn count_delivery(&mut self, l: usize, size: u32) {
        if l >= self.delivered.len() {
            self.delivered.resize(l + 1, (0, 0));
        }
        let d = &mut self.delivered[l];
        d.0 += 1;
        d.1 += size as u64;
    }

    /// Flow `f`'s counters start again from zero (a Tmix half-connection's slot, its
    /// connection's counts added to its application's: `sim/tmix.rs`).
    pub(super) fn forget_flow(&mut self, f: usize) {
        if let Some(prev) = self.prev_flows.get_mut(f) {
            *prev = FlowCounters::default();
        }
    }
}

/// Compares two counter snapshots field by field; the first that went down, if any.
macro_rules! first_decrease {
    ($prev:expr, $now:expr, $($field:ident),+ $(,)?) => {{
        let (p, n) = ($prev, $now);
        let mut found: Option<String> = None;
        $(
            if found.is_none() && n.$field < p.$field {
                found = Some(format!(
                    "counter {} went down from {} to {}",
                    stringify!($field), p.$field, n.$field
                ));
            }
        )+
        found
    }};
}

impl Simulator {
    /// Whether some flow runs a congestion control written outside the engine.
    pub fn has_external(&self) -> bool {
        self.external
    }

    /// Why the run stopped before its duration, if it did (then `results` is None).
    pub fn stop_reason(&self) -> Option<&StopReason> {
        self.stop.as_ref()
    }

    pub(super) fn stop_with(&mut self, reason: StopReason) {
        if self.stop.is_none() {
            self.stop = Some(reason);
        }
    }

    /// Runs before the next event (at `t`) when the event count reaches `watch_at`: the
    /// resource guards and, when on, the checker. False when the run must stop.
    pub(super) fn watch(&mut self, t: SimTime) -> bool {
        let g = self.guards;
        if self.events >= g.max_events {
            let message = format!(
                "the run reached its limit of {} events at t={:.6} s (of {:.6} s) and was \
                 stopped; raise run.max_events or shorten run.duration",
                g.max_events,
                self.now.as_secs_f64(),
                self.duration.as_secs_f64()
            );
            self.stop_with(StopReason::Limit {
                key: "run.max_events",
                message,
            });
            return false;
        }
        if self.events >= g.next_mem_check {
            let interval =
                MEM_CHECK_INTERVAL.max(MEM_CHECK_EVENTS_PER_LINK * self.links.len() as u64);
            self.guards.next_mem_check = self.events + interval;
            // The delay lines' packets are counted as they come and go: summing them here
            // walked every flow, 600 000 in a large Tmix replay, at every check.
            let held: u64 =
                self.links.iter().map(|l| l.in_flight() as u64).sum::<u64>() + self.delay_held;
            if held > g.max_packets {
                let (i, most) = self
                    .links
                    .iter()
                    .map(|l| l.in_flight())
                    .enumerate()
                    .max_by_key(|&(_, n)| n)
                    .unwrap_or((0, 0));
                let name = self.link_names.get(i).map_or("?", |s| s.as_str());
                let message = format!(
                    "{held} packets are held in the network at t={:.6} s, more than the limit \
                     of {} (link {name} holds {most}); a queue without a limit fed faster \
                     than its link sends? Give that link a queue limit, or raise \
                     run.max_packets",
                    self.now.as_secs_f64(),
                    g.max_packets
                );
                self.stop_with(StopReason::Limit {
                    key: "run.max_packets",
                    message,
                });
                return false;
            }
        }
        if self.checker.is_some() && !self.check_step(t) {
            return false;
        }
        if self.external {
            if let Some((flow, message)) = crate::tcp::cc::external::take_failure() {
                let flow = self
                    .scenario
                    .flows
                    .get(flow as usize)
                    .map_or_else(|| format!("#{flow}"), |c| c.name.clone());
                self.stop_with(StopReason::External {
                    flow,
                    at: self.now,
                    message,
                });
                return false;
            }
            if let Some((link, message)) = crate::queue::external::take_failure() {
                let link = self
                    .link_names
                    .get(link as usize)
                    .map_or_else(|| format!("#{link}"), |n| n.clone());
                self.stop_with(StopReason::ExternalQueue {
                    link,
                    at: self.now,
                    message,
                });
                return false;
            }
        }
        self.watch_at = if self.checker.is_some() || self.external {
            0 // every event: time order
        } else {
            self.guards.max_events.min(self.guards.next_mem_check)
        };
        true
    }

    /// Whether the invariant checker runs for this simulator.
    pub fn checking(&self) -> bool {
        self.checker.is_some()
    }

    /// Full checks done so far (0 when the checker is off).
    pub fn invariant_checks(&self) -> u64 {
        self.checker.as_ref().map_or(0, |c| c.checks)
    }

    /// Called before the event at `t` is handled, when the checker is on. Returns false
    /// (and records the violation) when a rule is broken: the run must stop.
    pub(super) fn check_step(&mut self, t: SimTime) -> bool {
        if t < self.now {
            let v = Violation {
                at: self.now,
                component: "scheduler".into(),
                message: format!(
                    "time went backwards: the next event is at {} ps, before now ({} ps)",
                    t.0, self.now.0
                ),
            };
            self.stop_with(StopReason::Invariant(v));
            return false;
        }
        let c = self.checker.as_mut().expect("checker on");
        c.countdown -= 1;
        if c.countdown > 0 {
            return true;
        }
        self.check_now()
    }

    /// Runs every check now; false (with the violation recorded) when one fails.
    pub(super) fn check_now(&mut self) -> bool {
        match self.check_all() {
            Ok(()) => true,
            Err(v) => {
                self.stop_with(StopReason::Invariant(v));
                false
            }
        }
    }

    fn check_all(&mut self) -> Result<(), Violation> {
        let Some(mut c) = self.checker.take() else {
            return Ok(());
        };
        let result = self.check_with(&mut c);
        // The interval grows with the work one check does, so checks cost a bounded
        // fraction of the run.
        let work = (self.links.len() + self.flows.len()) as u64
            + self.links.iter().map(|l| l.in_flight() as u64).sum::<u64>();
        c.interval = MIN_INTERVAL.max(4 * work);
        c.countdown = c.interval;
        c.checks += 1;
        self.checker = Some(c);
        result
    }

    fn check_with(&mut self, c: &mut Checker) -> Result<(), Violation> {
        let now = self.now;
        let fail = |component: String, message: String| Violation {
            at: now,
            component,
            message,
        };

        // Simulator-wide counters.
        if self.events < c.prev_events || self.packets_delivered < c.prev_delivered {
            return Err(fail(
                "simulator".into(),
                format!(
                    "events ({} after {}) or packets delivered ({} after {}) went down",
                    self.events, c.prev_events, self.packets_delivered, c.prev_delivered
                ),
            ));
        }
        c.prev_events = self.events;
        c.prev_delivered = self.packets_delivered;

        // Links: conservation, limits, monotone counters.
        self.advance_links();
        c.prev_queues
            .resize(self.links.len(), QueueCounters::default());
        for (i, link) in self.links.iter().enumerate() {
            let who = || format!("link {}", self.link_names[i]);
            let q = &link.counters();
            let a = link.account();
            // The checker's own count of the link's deliveries, and the packets a shortened
            // delay took off its line that have not arrived yet (`ns2_front.rs`).
            let (delivered, delivered_bytes) = c.delivered.get(i).copied().unwrap_or((0, 0));
            let lingering = self.ns2_lingering.get(i).map_or(&[][..], |v| &v[..]);
            let lingering_bytes: u64 = lingering.iter().map(|e| e.3.size as u64).sum();
            let lingering = lingering.len() as u64;
            let (p_out, b_out) = (
                delivered + q.dropped_packets + a.backlog.packets + a.on_line + lingering,
                delivered_bytes
                    + q.dropped_bytes
                    + a.backlog.bytes
                    + a.on_line_bytes
                    + lingering_bytes,
            );
            if q.arrived_packets != p_out {
                return Err(fail(
                    who(),
                    format!(
                        "packet conservation: arrived {} != delivered across the link {} \
                         (counted by the checker) + dropped {} + waiting {} + on the line {} \
                         + lingering {lingering}",
                        q.arrived_packets,
                        delivered,
                        q.dropped_packets,
                        a.backlog.packets,
                        a.on_line
                    ),
                ));
            }
            if q.arrived_bytes != b_out {
                return Err(fail(
                    who(),
                    format!(
                        "byte conservation: arrived {} != delivered across the link \
                         {delivered_bytes} (counted by the checker) + dropped {} + waiting {} \
                         + on the line {} + lingering {lingering_bytes}",
                        q.arrived_bytes, q.dropped_bytes, a.backlog.bytes, a.on_line_bytes
                    ),
                ));
            }
            if q.delivered_packets != delivered {
                return Err(fail(
                    who(),
                    format!(
                        "deliveries: the link derives {}, the checker counted {delivered}",
                        q.delivered_packets
                    ),
                ));
            }
            if q.lost_packets > delivered {
                return Err(fail(
                    who(),
                    format!(
                        "lost {} > delivered across the link {delivered}",
                        q.lost_packets
                    ),
                ));
            }
            let (limit_packets, limit_bytes) = link.limits();
            if let Some(limit) = limit_packets {
                if a.backlog.packets > limit {
                    return Err(fail(
                        who(),
                        format!(
                            "queue limit: {} packets waiting, limit {limit}",
                            a.backlog.packets
                        ),
                    ));
                }
            }
            if let Some(limit) = limit_bytes {
                if a.backlog.bytes > limit {
                    return Err(fail(
                        who(),
                        format!(
                            "queue limit: {} bytes waiting, limit {limit}",
                            a.backlog.bytes
                        ),
                    ));
                }
            }
            if let Some(m) = first_decrease!(
                &c.prev_queues[i],
                q,
                arrived_packets,
                arrived_bytes,
                departed_packets,
                departed_bytes,
                dropped_packets,
                dropped_bytes,
                area_packets,
                area_bytes,
                lost_packets,
                lost_bytes,
                delivered_packets,
                marked_packets,
                sojourn_sum_ps,
            ) {
                return Err(fail(who(), m));
            }
            c.prev_queues[i] = *q;
        }

        // The packet pool holds exactly the packets the links' rings refer to: a packet
        // delivered or dropped without being freed (or freed twice) shows here.
        let in_rings: usize = self.links.iter().map(|l| l.ring_len()).sum();
        if self.pool.len() != in_rings {
            return Err(fail(
                "simulator".into(),
                format!(
                    "packet pool holds {} packets, the links' rings {in_rings}",
                    self.pool.len()
                ),
            ));
        }

        let delayed: u64 = self
            .flows
            .iter()
            .filter_map(|f| f.delay.as_ref())
            .map(|d| d.held_packets() as u64)
            .sum();
        if delayed != self.delay_held {
            return Err(fail(
                "simulator".into(),
                format!(
                    "the Tmix delay lines hold {delayed} packets, counted {}",
                    self.delay_held
                ),
            ));
        }

        // Packets in the network, per flow; sequence sanity of each packet.
        let n = self.flows.len();
        c.data_in_net.clear();
        c.data_in_net.resize(n, 0);
        c.acks_in_net.clear();
        c.acks_in_net.resize(n, 0);
        let mut bad: Option<(usize, String)> = None;
        {
            let flows = &self.flows;
            let sim = &*self;
            let mut visit = |p: &Packet| {
                let f = p.flow.idx();
                match p.kind {
                    PacketKind::TcpAck => c.acks_in_net[f] += 1,
                    PacketKind::TcpData | PacketKind::Udp => c.data_in_net[f] += 1,
                }
                if bad.is_some() {
                    return;
                }
                if let Some(Agent::Tcp { sender, .. }) = flows.get(f).map(|x| &x.agent) {
                    match p.kind {
                        PacketKind::TcpAck if p.ack > sender.maxseq => {
                            bad = Some((
                                f,
                                format!(
                                    "an ACK in the network acknowledges segment {} but only \
                                     {} were ever sent",
                                    p.ack, sender.maxseq
                                ),
                            ));
                        }
                        PacketKind::TcpData if p.seq >= sender.maxseq => {
                            bad = Some((
                                f,
                                format!(
                                    "segment {} is in the network but snd_max is {}",
                                    p.seq, sender.maxseq
                                ),
                            ));
                        }
                        _ => {}
                    }
                }
                if p.kind == PacketKind::TcpData && p.flags & tcp_flags::ACK != 0 {
                    let max = sim.full_reverse_maxseq(f).unwrap_or(u64::MAX);
                    if p.ack > max && bad.is_none() {
                        bad = Some((
                            f,
                            format!(
                                "a data segment acknowledges segment {} of the reverse \
                                 direction but only {max} were ever sent",
                                p.ack
                            ),
                        ));
                    }
                }
            };
            for link in &self.links {
                link.for_each_packet(&self.pool, &mut visit);
            }
            for flow in &self.flows {
                if let Some(d) = &flow.delay {
                    d.for_each_packet(&mut visit);
                }
            }
        }
        // A Tmix connection's endpoints are freed when its count reaches 0, so the count
        // must be exact (`sim/tmix.rs`).
        for (f, flow) in self.flows.iter().enumerate() {
            let held = c.data_in_net[f] + c.acks_in_net[f];
            if flow.tmix().is_some() && held != self.tmix_in_flight[f] as u64 {
                return Err(fail(
                    format!("Tmix half-connection flow {f}"),
                    format!(
                        "{held} packets in the network and delay lines, counted {}",
                        self.tmix_in_flight[f]
                    ),
                ));
            }
        }
        let flow_name = |f: usize| -> String {
            match self.scenario.flows.get(f) {
                Some(cfg) => format!("flow {}", cfg.name),
                None => {
                    let (conn, side) = self.flows[f].tmix().unwrap_or((0, 0));
                    let parent = self.tmix.get(conn as usize).map_or(0, |t| t.parent.idx());
                    let name = self.scenario.flows.get(parent).map_or("?", |x| &x.name);
                    format!("flow {name} (Tmix connection {conn}, side {side})")
                }
            }
        };
        if let Some((f, m)) = bad {
            return Err(fail(flow_name(f), m));
        }

        // Flows: conservation, sequence space, monotone counters.
        c.prev_flows.resize(n, FlowCounters::default());
        for f in 0..n {
            let k = &self.counters[f];
            let in_net = c.data_in_net[f];
            if k.packets_sent != k.packets_received + k.packets_dropped + in_net {
                return Err(fail(
                    flow_name(f),
                    format!(
                        "packet conservation: sent {} != received {} + dropped {} + in the \
                         network {in_net}",
                        k.packets_sent, k.packets_received, k.packets_dropped
                    ),
                ));
            }
            if k.acks_dropped + c.acks_in_net[f] > k.acks_sent {
                return Err(fail(
                    flow_name(f),
                    format!(
                        "ACK conservation: dropped {} + in the network {} > sent {}",
                        k.acks_dropped, c.acks_in_net[f], k.acks_sent
                    ),
                ));
            }
            if let Agent::Tcp { sender, sink } = &self.flows[f].agent {
                let (una, nxt, max) = (sender.una, sender.nxt, sender.maxseq);
                if !(una <= nxt && nxt <= max) {
                    return Err(fail(
                        flow_name(f),
                        format!("sequence space: snd_una {una}, snd_nxt {nxt}, snd_max {max}"),
                    ));
                }
                if sink.rcv_nxt > max || una > sink.rcv_nxt {
                    return Err(fail(
                        flow_name(f),
                        format!(
                            "sequence space: rcv_nxt {} outside [snd_una {una}, snd_max {max}]",
                            sink.rcv_nxt
                        ),
                    ));
                }
            }
            if let Some(m) = first_decrease!(
                &c.prev_flows[f],
                k,
                packets_sent,
                bytes_sent,
                packets_retransmitted,
                packets_dropped,
                packets_received,
                bytes_received,
                bytes_delivered,
                acks_sent,
                acks_dropped,
                timeouts,
                fast_retransmits,
                rtt_samples,
                rtt_sum_ps,
                ecn_reductions,
                rto_area,
                rto_time_ps,
            ) {
                return Err(fail(flow_name(f), m));
            }
            c.prev_flows[f] = *k;
        }
        Ok(())
    }
}
