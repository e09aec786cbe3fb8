//! The simulator: owns every component in `Vec`s, takes events in (time, sequence) order
//! from the event queue and dispatches them with a `match`.
//!
//! Work per packet-hop is one event: a link keeps its accepted packets in a FIFO and only
//! its head is scheduled. TCP retransmission timers are lazy: the sender stores a deadline,
//! the simulator keeps at most one pending event per timer that is not later than the
//! deadline, and a firing that finds the deadline moved on re-arms or is ignored.

use crate::ids::{FlowId, LinkId, NodeId};
use crate::loss::{AnyLoss, Bernoulli, DropList, GilbertElliott, Periodic};
use crate::monitor::{FlowCounters, FlowMonitor, FlowQueueCounters, Histogram, QueueCounters};
use crate::net::link::Ns2Integrals;
use crate::net::source_routes::TABLE;
use crate::net::{Carried, Enqueued, HopLink, Link, Links, Routes, SourceRoutes};
use crate::packet::{Packet, PacketKind};
use crate::packet_pool::{PacketPool, PacketRef, PoolOut};
use crate::queue::{AnyQueue, QueueSetup};
use crate::results::{Results, Summary, Table};
use crate::rng::RandomStream;
use crate::scenario::{
    AppConfig, Discipline, FlowKind, LinkConfig, LossConfig, Scenario, TraceFormat,
};
use crate::sched::{EventQueue, Source};
use crate::tcp::sink::SinkKind;
use crate::tcp::{TcpSender, TcpSink};
use crate::time::{Rate, SimDuration, SimTime, PS_PER_S};
use crate::trace::packets::{FlowLabel, FrameInfo, PacketTraces, TraceEvent, TraceSpec};
use crate::trace::sampler::{FlowSample, Sampler};
use crate::trace::tracer::{TraceMask, Tracer};
use crate::traffic::tmix::{Action as TmixAction, TmixConn};
use crate::traffic::{Cbr, Generator, OnOff, Poisson, StreamWriter, TraceReplay, UdpSource};

// The loop is this file; `flow.rs` holds what a flow is; each other child extends `Simulator`
// with one concern and reads its state.
mod apps;
mod build;
mod detours;
mod flow;
mod flow_table;
mod held;
mod host;
mod host_datagrams;
mod invariants;
mod ns2_clock;
mod ns2_front;
mod one_way;
#[cfg(test)]
mod paths_tests;
mod rap;
mod report;
mod reset;
mod tfrc;
mod tmix;
mod two_way;
use flow::{
    flush_rto, integrate_rto, tick_agent, traceable_values, Agent, Flow, Kind, LazyTimer, OneWay,
    Role,
};
use flow_table::{FlowIdx, FlowVec};
pub use host_datagrams::HostArrival;
pub use invariants::{StopReason, Violation};
use tmix::TmixApp;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// The head packet of a link reaches the link's far node.
    LinkHead(HopLink),
    /// A link with a dequeue-time discipline finishes a transmission with packets waiting.
    TxDone(LinkId),
    /// A TCP retransmission timer may have expired. The timer events carry the flow's
    /// generation (0 but for reused Tmix slots, `sim/tmix.rs`).
    Rto(FlowId, u16),
    /// A delayed-ACK timer may have expired.
    DelAck(FlowId, u16),
    /// Pacing may let a TCP sender's next segment go.
    Pace(FlowId, u16),
    AppStart(FlowId),
    /// A UDP source sends its next datagram.
    UdpTick(FlowId),
    /// A Tmix connection starts.
    TmixStart(u32),
    /// A side of a Tmix connection writes its next ADU.
    TmixWake(u32, u8),
    /// A Tmix delay line releases its due packets.
    Release(FlowId),
    AppStop(FlowId),
    Sample,
    /// Start of the measurement window: snapshot the counters.
    Warmup,
    /// A TFRC flow's timer ([`crate::tfrc::TfrcTimer`] as u8) may have expired.
    Tfrc(FlowId, u8),
    /// A RAP flow's timer ([`crate::rap::RapTimer`] as u8) may have expired.
    Rap(FlowId, u8),
    /// ns-2's `Queue::resume` on a link with ns-2's clock while packets wait (the ns2
    /// profile: `net::link::ns2_clock`).
    Resume(LinkId),
    /// A loss model at a link's entry lets the oldest packet it delayed go on to the next
    /// model there, or into the link's queue (`Simulator::loss_delayed`): the stage it
    /// resumes at ([`crate::net::Link::resume_loss_at`]).
    LossDelayed(LinkId, u8),
    /// A packet that was on a link's line when its delay was shortened reaches the far node
    /// (`Simulator::ns2_lingering`).
    Linger(LinkId),
}

// The timer events' generations fit beside the flow id: an event stays 8 bytes.
const _: () = assert!(std::mem::size_of::<Event>() == 8);

pub struct Simulator {
    scenario: Scenario,
    now: SimTime,
    duration: SimTime,
    events: u64,
    queue: EventQueue<Event>,
    links: Links,
    link_names: Vec<String>,
    routes: Routes,
    /// The scenario flows' paths on `routes`, which their packets follow without asking
    /// `routes` at each node (`net/source_routes.rs`); kept in step with `routes` by
    /// [`Simulator::routes_changed`].
    paths: SourceRoutes,
    /// The per-flow tables (`sim/flow_table.rs`): set once at build, grown together.
    flows: FlowVec<Flow>,
    counters: FlowVec<FlowCounters>,
    warm_flows: Vec<FlowCounters>,
    warm_queues: Vec<QueueCounters>,
    /// Per-flow queue counters of monitored links at the start of the measurement window.
    warm_flow_queues: Vec<Option<Vec<FlowQueueCounters>>>,
    warm_sojourn: Vec<Histogram>,
    packets_delivered: u64,
    next_packet_id: u64,
    /// A two-way connection's packets before they enter the pool (`tcp/full.rs` takes back
    /// the pure ACKs an arrival makes redundant).
    scratch: Vec<Packet>,
    /// Handles of the packets an agent has just written into the pool (`PoolOut`).
    sent_refs: Vec<PacketRef>,
    /// The packets on links (waiting, on the wire or propagating); links hold handles.
    pool: PacketPool,
    held_drops: Vec<Packet>,
    sampler: Option<Sampler>,
    sample_interval: SimDuration,
    tracer: Tracer,
    /// Congestion-control state (CUBIC's W_max, BBR's model...) at each sample time.
    cc_state: Tracer,
    finished: bool,
    /// The scenario's own flows come first; Tmix half-connections follow.
    scenario_flows: usize,
    tmix: Vec<TmixConn>,
    tmix_acts: Vec<TmixAction>,
    /// For each Tmix connection, the next one of its application to start, with the time and
    /// the reserved sequence number of that start (see `on_app_start`).
    tmix_next_start: Vec<Option<(SimTime, u64, u32)>>,
    /// For each scenario flow, the wire bytes its Tmix half-connections' sinks received (a
    /// running sum, so that a sample does not walk every connection).
    tmix_received_bytes: Vec<u64>,
    /// Packets held in Tmix delay lines now (for the memory guard).
    delay_held: u64,
    /// Per flow, packets of a Tmix half-connection in the network or a delay line.
    tmix_in_flight: Vec<u32>,
    /// The Tmix applications, and each scenario flow's index among them (u32::MAX: none).
    tmix_apps: Vec<TmixApp>,
    tmix_app_of: Vec<u32>,
    /// Tmix half-connections' flow slots, reused when connections close (`sim/tmix.rs`).
    tmix_slots: tmix::Slots,
    /// Two-way TCP connections (`sim/two_way.rs`).
    full: Vec<crate::tcp::full::FullConn>,
    /// Packet traces being written; `tracing` mirrors `traces.is_some()` for the hot path.
    traces: Option<Box<PacketTraces>>,
    tracing: bool,
    /// `tracing || ttl_on`, kept by [`Simulator::set_checked_arrivals`]: an arrival tests this
    /// one byte before it takes the path out of line (`arrive_checked`).
    checked_arrivals: bool,
    /// Under dynamic routing (`ns2_front.rs`, ns-2's `TTLChecker`): each pooled packet's hops
    /// left, by pool slot, and whether they are counted.
    hops_left: Vec<u8>,
    ttl_on: bool,
    trace_error: Option<String>,
    /// Per flow, data (even index) and ACK (odd) directions, like ns-3's FlowMonitor.
    monitor: FlowVec<FlowMonitor>,
    /// Invariant checks and resource guards (`invariants.rs`): the event count at which
    /// `watch` runs next, the checker (debug builds and `run.check`), and why the run
    /// stopped early, if it did.
    watch_at: u64,
    guards: invariants::Guards,
    checker: Option<Box<invariants::Checker>>,
    stop: Option<StopReason>,
    /// Some flow runs a congestion control written outside the engine (`tcp::cc::external`):
    /// `watch` then runs before every event, to stop the run at that algorithm's failure.
    external: bool,
    /// `run.ties = "ns2"`: same-time events in ns-2.35's order (`sim/ns2_clock.rs`), and the
    /// scheduling orders given to what the front end's scripts start.
    ns2_clock: bool,
    ns2_script_uid: u64,
    /// ns-2's default random-number generator, once the front end hands it over
    /// (`host.rs`, `crate::rng::ns2`).
    ns2_rng: Option<crate::rng::ns2::Ns2Default>,
    /// No RAP agent has taken an RTT sample yet: ns-2.35's `RapAgent::UpdateTimeValues`
    /// keeps this in a function-level `static`, shared by every agent of the run.
    rap_first_sample: bool,
    /// Under the ns2 profile, each flow's retransmission and delayed-ACK timers as ns-2
    /// last set them (`sim/ns2_clock.rs`, `Simulator::ns2_sync_timers`); empty otherwise.
    ns2_timers: Vec<ns2_clock::Ns2Timers>,
    /// The one-way TCP flows reset during the run, the times of their ends' last resets
    /// (`sim/reset.rs`); empty while none is.
    incarnations: Vec<reset::Incarnation>,
    /// The ns-2 front end's loss monitors, and each flow's (`ns2_front::NO_MONITOR`: none;
    /// empty while there are none).
    loss_monitors: Vec<ns2_front::LossMonitor>,
    loss_monitor_of: Vec<u32>,
    /// Per link (empty until a loss model delays a packet) and per loss model at its entry
    /// (by the stage its packets resume at, minus one), the packets that model delays, oldest
    /// first: one model, one delay, so they leave in the order they came (ns-2.35
    /// `ErrorModel::recv`, `delay_pkt_`).
    loss_delayed: Vec<Vec<std::collections::VecDeque<Packet>>>,
    /// Per link (empty until `$ns delay` shortens a link's delay during the run), the packets
    /// that were on its line then, each with its arrival time, ns-2 time and scheduling
    /// order (`sim/ns2_front.rs`, [`crate::net::Link::ns2_set_params`]).
    ns2_lingering: Vec<Vec<(SimTime, f64, u64, Carried)>>,
    /// The Quick-Start routers (`scenario.quick_start`, `net/quick_start.rs`); None: none.
    quick_start: Option<Box<QuickStartNet>>,
    /// Arrivals of host flows' datagrams the host has not taken yet (`sim/host_datagrams.rs`):
    /// while there are some, the run stops.
    host_arrivals: Vec<host_datagrams::HostArrival>,
}

/// Each scenario flow's source and destination, by flow index (the ends of its paths).
fn flow_ends(scenario: &Scenario) -> Vec<(NodeId, NodeId)> {
    scenario
        .flows
        .iter()
        .map(|f| (NodeId(f.from), NodeId(f.to)))
        .collect()
}

/// The nodes' Quick-Start agents, by node index (None: the node forwards requests untouched).
pub(crate) struct QuickStartNet {
    rates: crate::net::quick_start::RateFunction,
    routers: Vec<Option<crate::net::quick_start::QsRouter>>,
}

impl Simulator {
    pub fn now(&self) -> SimTime {
        self.now
    }

    pub fn duration(&self) -> SimTime {
        self.duration
    }

    pub fn events(&self) -> u64 {
        self.events
    }

    /// Packets that have crossed a link so far (data and ACKs).
    pub fn packet_hops(&self) -> u64 {
        self.links.iter().map(|l| l.delivered()).sum()
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Runs every event up to and including `until` (capped at the run's duration).
    pub fn run_until(&mut self, until: SimTime) {
        if self.stop.is_some() {
            return;
        }
        let until = until.min(self.duration);
        if self.ns2_clock {
            self.run_until_ns2(until, f64::INFINITY);
            return;
        }
        loop {
            if self.events >= self.watch_at {
                if self.host_pause() {
                    return; // the host takes a datagram's arrival first
                }
                if let Some(t) = self.queue.peek_time().filter(|&t| t <= until) {
                    if !self.watch(t) {
                        return; // stopped: see `stop_reason`
                    }
                }
            }
            let Some((t, ev, src)) = self.queue.peek_due(until) else {
                break;
            };
            self.now = t;
            self.events += 1;
            if let Event::LinkHead(l) = ev {
                // Left in the queue: the link may put its next head event in its place.
                self.on_link_head(l, src);
            } else {
                self.queue.remove(src);
                self.dispatch(ev);
            }
        }
        if until > self.now {
            self.now = until;
        }
        if self.now >= self.duration && !self.finished {
            self.finish();
        }
    }

    /// After the routing table changed: every packet on a link, and every packet sent from now
    /// on, is routed by the new table at each node, as if there were no paths; with
    /// `static_table`, the flows' paths are walked again on it for the packets sent from now
    /// on (a dynamic table changes route by route, so its packets keep asking it).
    fn routes_changed(&mut self, static_table: bool) {
        let pool = &self.pool;
        let by_table = |c: &mut Carried| {
            if c.route & TABLE == 0 {
                c.route = TABLE | pool.get(c.r).dst.0;
            }
        };
        for link in &mut self.links {
            link.each_carried(by_table);
        }
        for lingering in &mut self.ns2_lingering {
            lingering.iter_mut().for_each(|e| by_table(&mut e.3));
        }
        self.paths = if static_table {
            SourceRoutes::build(&self.routes, &self.links, &flow_ends(&self.scenario))
        } else {
            SourceRoutes::default()
        };
    }

    /// Brings `checked_arrivals` up to date after `tracing` or `ttl_on` changed.
    fn set_checked_arrivals(&mut self) {
        self.checked_arrivals = self.tracing || self.ttl_on || self.checker.is_some();
    }

    /// Runs to the end.
    pub fn run(&mut self) {
        self.run_until(self.duration);
    }

    #[inline(always)]
    fn dispatch(&mut self, ev: Event) {
        match ev {
            Event::LinkHead(_) => unreachable!("handled by run_until"),
            Event::TxDone(l) => self.on_tx_done(l),
            Event::Rto(f, g) => {
                if self.tmix_slots.current(f, g) {
                    self.on_rto_event(f);
                }
            }
            Event::DelAck(f, g) => {
                if self.tmix_slots.current(f, g) {
                    self.on_delack_event(f);
                }
            }
            Event::Pace(f, g) => {
                if self.tmix_slots.current(f, g) {
                    self.on_pace_event(f);
                }
            }
            Event::AppStart(f) => self.on_app_start(f),
            Event::UdpTick(f) => self.on_udp_tick(f),
            Event::TmixStart(c) => self.on_tmix_start(c),
            Event::TmixWake(c, side) => self.on_tmix_wake(c, side),
            Event::Release(f) => self.on_release(f),
            Event::AppStop(f) => self.on_app_stop(f),
            Event::Sample => self.on_sample(),
            Event::Warmup => self.on_warmup(),
            Event::Resume(l) => self.on_ns2_resume(l),
            Event::LossDelayed(l, stage) => self.on_loss_delayed(l, stage),
            Event::Linger(l) => self.on_ns2_linger(l),
            Event::Tfrc(f, k) => self.on_tfrc(f, tfrc::Action::Timer(k)),
            Event::Rap(f, k) => self.on_rap(f, rap::Action::Timer(k)),
        }
    }

    /// A link's head packet reaches the far end. Its event is still in the queue, at `src`
    /// (see `run_until`): the link's next head event takes its place, or it is removed.
    /// Inlined into `run_until`, where most events are this one (the compiler stopped
    /// inlining it when the links' enqueue grew by a rarely taken arm, and a packet-hop took
    /// 20 more instructions: benchmarks/instructions.py); as `receive`, it has a second
    /// caller under `run.ties = "ns2"`, which must not change how that loop compiles.
    #[inline(always)]
    fn on_link_head(&mut self, l: HopLink, src: Source) {
        let link = self.links.at(l);
        let (at, loses_after) = (link.to, link.loses_after());
        let (c, next) = link.deliver_head();
        match next {
            Some(t) if src == Source::Packets && t > self.now => {
                self.queue
                    .replace_packet_top(self.now, t, Event::LinkHead(l));
            }
            Some(t) => {
                self.queue.remove(src);
                self.queue.push(t, Event::LinkHead(l));
            }
            None => self.queue.remove(src),
        }
        self.arrive(l.id(), at, c, loses_after);
    }

    /// The packet `c` has crossed link `l` and reaches node `at`; `loses_after`: the link's
    /// [`Link::loses_after`], read by the caller while it held the link (so that the hop
    /// does not index the links again).
    #[inline(always)]
    fn arrive(&mut self, l: LinkId, at: NodeId, c: Carried, loses_after: bool) {
        // A traced run, a link with a loss model after it, hops counted (dynamic routing) or
        // the invariant checker's count of deliveries take the path out of line.
        debug_assert_eq!(
            self.checked_arrivals,
            self.tracing || self.ttl_on || self.checker.is_some()
        );
        if self.checked_arrivals || loses_after {
            self.arrive_checked(l, at, c);
        } else {
            self.pass_on::<true>(at, c);
        }
    }

    /// The packet `c` is at node `at`, the far end of a link: it reaches its destination, or
    /// goes on, on the next link of its path or where the table sends it. `UNTRACED`: the
    /// caller has seen that the run is not traced (`arrive`'s plain path), so the packet
    /// enters its next link without testing it again.
    #[inline(always)]
    fn pass_on<const UNTRACED: bool>(&mut self, at: NodeId, mut c: Carried) {
        let next = if c.route & TABLE == 0 {
            c.route += 1;
            self.paths.link(c.route)
        } else {
            let dst = NodeId(c.route & !TABLE);
            if at == dst {
                None
            } else {
                let Some(l) = self.links.hop(self.routes.forward(at, dst, c.flow)) else {
                    self.no_route(c);
                    return;
                };
                Some(l)
            }
        };
        match next {
            Some(l) if UNTRACED => self.enqueue_on(l, c),
            Some(l) => self.enter_link(l, c),
            None => {
                let pkt = self.pool.take(c.r);
                self.receive(pkt);
            }
        }
    }

    /// [`Simulator::arrive`] on a traced run, a link with a loss model after it, a run whose
    /// hops are counted or a checked one (the checker counts the delivery): the model may
    /// take the packet (`d`, or `lost` in ns-2's trace) or mark it.
    #[inline(never)]
    fn arrive_checked(&mut self, l: LinkId, at: NodeId, c: Carried) {
        if let Some(checker) = self.checker.as_deref_mut() {
            checker.count_delivery(l.idx(), c.size);
        }
        if self.ttl_on && self.ttl_expired(l, c) {
            return;
        }
        let link = &mut self.links[l.idx()];
        let lost = link.loses_after() && link.loses_on_arrival(self.pool.get_mut(c.r));
        if self.tracing {
            let pkt = *self.pool.get(c.r);
            let ev = if lost {
                TraceEvent::Lost
            } else {
                TraceEvent::Receive
            };
            self.trace(l, ev, &pkt);
        }
        if lost {
            self.links[l.idx()].ns2_lost(self.pool.ns2_now.0);
            let pkt = self.pool.take(c.r);
            self.count_drop(&pkt);
        } else {
            self.pass_on::<false>(at, c);
        }
    }

    /// Sends `pkt` out of node `at` toward its destination.
    #[inline(always)]
    fn forward(&mut self, at: NodeId, pkt: Packet) {
        let c = Carried::put(&mut self.pool, pkt);
        self.forward_carried(at, c);
    }

    /// Sends the pool's packet `c` out of node `at`, its source, toward its destination: on
    /// the first link of its path, or where the table sends it.
    #[inline(always)]
    fn forward_carried(&mut self, at: NodeId, c: Carried) {
        // A path's first entry is a link (a path has at least one hop).
        let l = if c.route & TABLE == 0 {
            self.paths.link(c.route)
        } else {
            self.links
                .hop(self.routes.forward(at, NodeId(c.route & !TABLE), c.flow))
        };
        match l {
            Some(l) => self.enter_link(l, c),
            None => self.no_route(c),
        }
    }

    /// The pool's packet `c` enters link `l`.
    #[inline(always)]
    fn enter_link(&mut self, l: HopLink, c: Carried) {
        if self.tracing {
            self.forward_traced(l.id(), c);
            return;
        }
        self.enqueue_on(l, c);
    }

    /// [`Simulator::enter_link`] on a run that is not traced.
    #[inline(always)]
    fn enqueue_on(&mut self, l: HopLink, c: Carried) {
        debug_assert!(!self.tracing);
        match self.links.at(l).enqueue(self.now, c, &mut self.pool) {
            Enqueued::ScheduleHead(t) => self.queue.push(t, Event::LinkHead(l)),
            Enqueued::Queued => {}
            Enqueued::Dropped => {
                let pkt = self.pool.take(c.r);
                self.count_drop(&pkt);
            }
            Enqueued::Lost => self.lost_at_entry(l.id(), c),
            Enqueued::Held => self.enqueue_held(l.id(), c.r),
            Enqueued::QuickStart => self.quick_start_hop(l.id(), c),
        }
    }

    /// The current time on ns-2's double clock: the running event's under the ns2 profile
    /// (`sim/ns2_clock.rs`), else the exact time's double.
    #[inline]
    fn now2(&self) -> f64 {
        if self.ns2_clock {
            self.pool.ns2_now.0
        } else {
            crate::sched::ns2_seconds(self.now)
        }
    }

    /// A packet dropped or lost in the network: counted, then its flow's kind is told.
    fn count_drop(&mut self, pkt: &Packet) {
        self.monitor[monitor_index(pkt)].lost += 1;
        let c = &mut self.counters[pkt.flow.idx()];
        match pkt.kind {
            PacketKind::TcpAck => c.acks_dropped += 1,
            PacketKind::TcpData | PacketKind::Udp => c.packets_dropped += 1,
        }
        let role = self.flows[pkt.flow.idx()].role;
        role.dropped(self, pkt);
    }

    /// Sends the packets an agent wrote into the pool (handles in `sent`, in order), each as
    /// its flow's kind sends it ([`Kind::send`]). Every agent's packets leave through here.
    fn send_pooled(&mut self, mut sent: Vec<PacketRef>) {
        for k in 0..sent.len() {
            let r = sent[k];
            let f = self.flows.idx(self.pool.get(r).flow);
            match self.flows.at(f).role {
                Role::Own => OneWay.send_at(self, r, f),
                role => role.send(self, r, &sent[k + 1..]),
            }
        }
        sent.clear();
        self.sent_refs = sent;
    }

    /// The pool's packet `r` enters the network: numbered and counted in the flow monitor.
    /// Returns the node it leaves from and its handle on links.
    #[inline(always)]
    fn enter(&mut self, r: PacketRef) -> (NodeId, Carried) {
        let f = self.flows.idx(self.pool.get(r).flow);
        self.enter_at(r, f)
    }

    /// [`Simulator::enter`] of a packet of flow `f`.
    #[inline(always)]
    fn enter_at(&mut self, r: PacketRef, f: FlowIdx) -> (NodeId, Carried) {
        let p = self.pool.get_mut(r);
        p.id = self.next_packet_id;
        self.next_packet_id += 1;
        let c = Carried {
            r,
            route: self.paths.start(p.flow, p.src, p.dst),
            flow: p.flow,
            size: p.size,
        };
        self.monitor
            .dir(f, p.kind == PacketKind::TcpAck)
            .sent(self.now, p.size);
        let src = p.src;
        if self.ttl_on {
            self.ttl_start(r);
        }
        (src, c)
    }

    /// A packet reaches its destination: counted in the flow monitor, then handed to its
    /// flow's kind ([`Kind::receive`]).
    #[inline(always)]
    fn receive(&mut self, pkt: Packet) {
        let f = self.flows.idx(pkt.flow);
        self.monitor
            .dir(f, pkt.kind == PacketKind::TcpAck)
            .received(self.now, pkt.sent_at, pkt.size);
        match self.flows.at(f).role {
            Role::Own => self.deliver_at(&pkt, f),
            role => role.receive(self, &pkt),
        }
    }

    /// Makes sure a pending event exists no later than each of the flow's TCP deadlines, and
    /// traces the variables that changed. Called after every event a TCP flow handles.
    #[inline]
    fn sync_timers(&mut self, f: FlowId) {
        let f = self.flows.idx(f);
        self.sync_timers_at(f);
    }

    /// [`Simulator::sync_timers`] of flow `f`.
    #[inline]
    fn sync_timers_at(&mut self, fi: FlowIdx) {
        let f = fi.id();
        let flow = self.flows.at(fi);
        if !flow.trace.is_empty() {
            if let Agent::Tcp { sender, .. } = &mut flow.agent {
                let name = f.idx() as u32;
                let t = self.now.as_secs_f64();
                if let Some(step) = sender.take_cwnd_step() {
                    if sender.is_ns2_vegas() {
                        // Marks the cwnd change that follows as the step: where ns-2.35's
                        // VegasTcpAgent makes it among the instant's changes differs from
                        // where its final value is made (the ns-2 front end orders them).
                        self.tracer.push(t, name, "cwnd_step", step);
                    }
                    let mut then = traceable_values(sender);
                    then[0] = step * sender.window_scale();
                    self.tracer
                        .record(t, name, flow.trace, &mut flow.traced, then);
                }
                let now = traceable_values(sender);
                self.tracer
                    .record(t, name, flow.trace, &mut flow.traced, now);
            }
        }
        let Agent::Tcp { sender, sink } = &flow.agent else {
            return;
        };
        // Before backoff: T_0 of PFTK (the model applies the backoff itself), ns-2's t_rtxcur_.
        let rto = sender.rtt.base_rto().0;
        integrate_rto(&mut flow.rto_held, self.now, rto, self.counters.at(fi));
        if self.ns2_clock {
            self.ns2_sync_timers(f);
            return;
        }
        if let Some(t) = flow.rto_event.needs_event(sender.rto_deadline()) {
            self.queue
                .push_timer(t, Event::Rto(f, self.tmix_slots.generation(f)));
        }
        if let Some(t) = flow.delack_event.needs_event(sink.deadline()) {
            self.queue
                .push_timer(t, Event::DelAck(f, self.tmix_slots.generation(f)));
        }
        if let Some(t) = flow.pace_event.needs_event(sender.pace_deadline()) {
            self.queue
                .push(t, Event::Pace(f, self.tmix_slots.generation(f)));
        }
    }

    #[inline(never)]
    fn on_pace_event(&mut self, f: FlowId) {
        let now = self.now;
        let flow = &mut self.flows[f.idx()];
        if !flow.pace_event.fired(now) {
            return;
        }
        let Agent::Tcp { sender, .. } = &mut flow.agent else {
            return;
        };
        let mut sent = std::mem::take(&mut self.sent_refs);
        let mut out = PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        };
        sender.on_pace(now, &mut out, &mut self.counters[f.idx()]);
        self.send_pooled(sent);
        self.sync_timers(f);
    }

    fn on_rto_event(&mut self, f: FlowId) {
        let now = self.now;
        let flow = &mut self.flows[f.idx()];
        if !flow.rto_event.fired(now) {
            return; // superseded by an earlier event for the same timer
        }
        let Agent::Tcp { sender, .. } = &mut flow.agent else {
            return;
        };
        if sender.rto_deadline().is_some_and(|d| d <= now) {
            let mut sent = std::mem::take(&mut self.sent_refs);
            let mut out = PoolOut {
                pool: &mut self.pool,
                sent: &mut sent,
            };
            sender.on_timeout(now, &mut out, &mut self.counters[f.idx()]);
            self.agent_events(f);
            self.send_pooled(sent);
        }
        self.sync_timers(f);
    }

    fn on_delack_event(&mut self, f: FlowId) {
        let now = self.now;
        let flow = &mut self.flows[f.idx()];
        if !flow.delack_event.fired(now) {
            return;
        }
        let Agent::Tcp { sink, .. } = &mut flow.agent else {
            return;
        };
        if sink.deadline().is_some_and(|d| d <= now) {
            let mut sent = std::mem::take(&mut self.sent_refs);
            let mut out = PoolOut {
                pool: &mut self.pool,
                sent: &mut sent,
            };
            sink.on_timer(now, &mut out, &mut self.counters[f.idx()]);
            self.send_pooled(sent);
        }
        self.sync_timers(f);
    }

    fn advance_links(&mut self) {
        let now = self.now;
        for l in &mut self.links {
            l.advance(now);
        }
    }

    /// Brings every TCP flow's RTO integral up to now.
    fn integrate_rtos(&mut self) {
        for (flow, c) in self.flows.iter_mut().zip(&mut self.counters) {
            flush_rto(&mut flow.rto_held, self.now, c);
        }
        self.flush_tmix_lingering_rtos();
    }

    fn finish(&mut self) {
        self.advance_links();
        for l in &mut self.links {
            if let Some(m) = l.flow_monitor.as_mut() {
                m.iter_mut().for_each(|f| f.integrate(self.duration.0));
            }
        }
        self.integrate_rtos();
        if let Some(mut t) = self.traces.take() {
            self.trace_error = t.finish(self.duration).err();
            self.tracing = false;
            self.set_checked_arrivals();
        }
        self.finished = true;
        if self.checker.is_some() {
            self.check_now();
        }
    }

    /// Brings ns-2 traces on disk up to the current time (see `PacketTraces::flush`).
    pub fn flush_traces(&mut self) -> Result<(), String> {
        match self.traces.as_mut() {
            Some(t) => t.flush(self.now),
            None => Ok(()),
        }
    }

    /// A packet trace that could not be written completely (the run itself is complete).
    pub fn trace_error(&self) -> Option<&str> {
        self.trace_error.as_deref()
    }
}

/// The flow-monitor slot of a packet: its flow's data or ACK direction.
#[inline(always)]
fn monitor_index(p: &Packet) -> usize {
    2 * p.flow.idx() + usize::from(p.kind == PacketKind::TcpAck)
}
