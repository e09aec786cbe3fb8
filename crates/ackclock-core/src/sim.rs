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
use crate::net::{Carried, Enqueued, Link, Routes};
use crate::packet::{Packet, PacketKind};
use crate::packet_pool::{Outgoing, PacketPool, PacketRef, PoolOut};
use crate::packet_trace::{FlowLabel, FrameInfo, PacketTraces, TraceEvent, TraceSpec};
use crate::queue::codel::CoDelParams;
use crate::queue::fq_codel::FqCoDelParams;
use crate::queue::pie::PieParams;
use crate::queue::red::RedParams;
use crate::queue::{AnyQueue, CoDel, DropTail, FqCoDel, HeldQueue, Pie, Red};
use crate::results::{Results, Summary, Table};
use crate::rng::RandomStream;
use crate::sampler::{FlowSample, Sampler};
use crate::scenario::{AppConfig, FlowKind, LinkConfig, LossConfig, Scenario};
use crate::sched::{EventQueue, Source};
use crate::tcp::sender::Recovery;
use crate::tcp::{TcpSender, TcpSink};
use crate::time::{Rate, SimDuration, SimTime, PS_PER_S};
use crate::tmix::{Action as TmixAction, DelayLine, TmixConn};
use crate::tracer::{TraceMask, Tracer};
use crate::traffic::{
    null_sink_receive, Cbr, Generator, OnOff, Poisson, StreamWriter, TraceReplay, UdpSource,
};

// Invariant checks and resource guards live in their own file but read this module's private
// state, so they are a child module.
#[path = "invariants.rs"]
mod invariants;
pub use invariants::{StopReason, Violation};
// Two-way TCP connections (`tcp/full.rs`) in the simulator, likewise a child module.
#[path = "full_tcp.rs"]
mod full_tcp;
#[path = "tmix_agents.rs"]
mod tmix_agents;
use tmix_agents::TmixApp;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// The head packet of a link reaches the link's far node.
    LinkHead(LinkId),
    /// A link with a dequeue-time discipline finishes a transmission with packets waiting.
    TxDone(LinkId),
    /// A TCP retransmission timer may have expired.
    Rto(FlowId),
    /// A delayed-ACK timer may have expired.
    DelAck(FlowId),
    /// Pacing may let a TCP sender's next segment go.
    Pace(FlowId),
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
}

#[derive(Debug)]
enum Agent {
    Tcp {
        sender: Box<TcpSender>,
        sink: Box<TcpSink>,
    },
    /// Boxed so that the enum, and the line of `Flow` it opens, stays small.
    Udp { source: Box<UdpSource> },
    /// A Tmix application: its connections run on internal half-connection flows.
    Tmix,
    /// A Tmix half-connection without endpoints: before its connection starts, and after it
    /// has closed (`tmix_agents.rs`).
    Idle,
}

// Laid out by hand, the fields every packet of the flow reads in the first cache line and its
// timers in the second (checked by `flow_layout_tests`): with many flows a flow has left the
// first-level cache between two of its packets, and Rust's own order spread them over four.
#[derive(Debug)]
#[repr(C, align(64))]
struct Flow {
    agent: Agent,
    /// Pending events of the sender's RTO timer and the sink's delayed-ACK timer.
    rto_event: LazyTimer,
    /// A Tmix half-connection: its connection and the side whose data it carries.
    tmix: Option<(u32, u8)>,
    /// A direction of a two-way connection: the connection and the side whose data it
    /// carries (`full_tcp.rs`).
    full: Option<(u32, u8)>,
    delack_event: LazyTimer,
    pace_event: LazyTimer,
    /// Variables traced on every change (their last recorded values are `traced`).
    trace: TraceMask,
    /// The RTO in force since `rto_since` (None before the flow's first event), for its
    /// time average.
    rto_held: Option<(SimTime, u64)>,
    start: SimTime,
    /// Tmix_DelayBox in front of the network (Tmix half-connections only).
    delay: Option<Box<DelayLine>>,
    /// A paced application writing into this TCP flow (CBR, on-off or Poisson over TCP).
    writer: Option<Box<StreamWriter>>,
    traced: [f64; 8],
}

/// The pending event behind a deadline-based timer. At most one tracked event exists; a
/// deadline that moves later costs nothing (the event re-arms when it fires), one that moves
/// earlier pushes a new event and leaves the old one to fire as stale.
#[derive(Clone, Copy, Debug, Default)]
struct LazyTimer {
    event_at: Option<SimTime>,
}

impl LazyTimer {
    /// Whether an event must be pushed at `deadline`; records it if so.
    #[inline]
    fn needs_event(&mut self, deadline: Option<SimTime>) -> Option<SimTime> {
        let d = deadline?;
        if self.event_at.is_none_or(|t| d < t) {
            self.event_at = Some(d);
            return Some(d);
        }
        None
    }

    /// An event fired at `now`: whether it is the tracked one (then it is consumed).
    #[inline]
    fn fired(&mut self, now: SimTime) -> bool {
        if self.event_at == Some(now) {
            self.event_at = None;
            true
        } else {
            false
        }
    }
}

pub struct Simulator {
    scenario: Scenario,
    now: SimTime,
    duration: SimTime,
    events: u64,
    queue: EventQueue<Event>,
    links: Vec<Link>,
    link_names: Vec<String>,
    routes: Routes,
    flows: Vec<Flow>,
    counters: Vec<FlowCounters>,
    warm_flows: Vec<FlowCounters>,
    warm_queues: Vec<QueueCounters>,
    /// Per-flow queue counters of monitored links at the start of the measurement window.
    warm_flow_queues: Vec<Option<Vec<FlowQueueCounters>>>,
    warm_sojourn: Vec<Histogram>,
    packets_delivered: u64,
    next_packet_id: u64,
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
    /// Two-way TCP connections (`full_tcp.rs`).
    full: Vec<crate::tcp::full::FullConn>,
    /// Packet traces being written; `tracing` mirrors `traces.is_some()` for the hot path.
    traces: Option<Box<PacketTraces>>,
    tracing: bool,
    trace_error: Option<String>,
    /// Per flow, data (even index) and ACK (odd) directions, like ns-3's FlowMonitor.
    monitor: Vec<FlowMonitor>,
    /// Invariant checks and resource guards (`invariants.rs`): the event count at which
    /// `watch` runs next, the checker (debug builds and `run.check`), and why the run
    /// stopped early, if it did.
    watch_at: u64,
    guards: invariants::Guards,
    checker: Option<Box<invariants::Checker>>,
    stop: Option<StopReason>,
}

impl Simulator {
    /// Builds a run from a resolved scenario; errors name the offending key.
    pub fn new(scenario: Scenario) -> Result<Simulator, String> {
        scenario.validate()?;
        let node = |i: u32| NodeId(i);
        let mut links = Vec::with_capacity(scenario.links.len());
        let mut link_names = Vec::with_capacity(scenario.links.len());
        for l in &scenario.links {
            let name = format!(
                "{}->{}",
                scenario.nodes[l.from as usize], scenario.nodes[l.to as usize]
            );
            let link = build_link(l, &name, scenario.run.seed);
            links.push(link);
            link_names.push(name);
        }
        let mut dests = Vec::new();
        for f in &scenario.flows {
            dests.push(node(f.to));
            if f.kind == FlowKind::Tcp {
                dests.push(node(f.from));
            }
        }
        let routes = Routes::build(scenario.nodes.len(), &links, &dests)?;
        let seed = scenario.run.seed;
        let mut flows = Vec::with_capacity(scenario.flows.len());
        for (i, f) in scenario.flows.iter().enumerate() {
            let id = FlowId(i as u32);
            let (src, dst) = (node(f.from), node(f.to));
            let unreachable = |a: NodeId, b: NodeId| {
                format!(
                    "flow[{i}] ({}): no route from {} to {}",
                    f.name,
                    scenario.nodes[a.idx()],
                    scenario.nodes[b.idx()]
                )
            };
            if routes.next_hop(src, dst).is_none() {
                return Err(unreachable(src, dst));
            }
            let mut writer = None;
            let agent = match (&f.app, &f.tcp) {
                (AppConfig::Ftp { size_bytes, .. }, Some(t)) => {
                    if routes.next_hop(dst, src).is_none() {
                        return Err(unreachable(dst, src));
                    }
                    let cc = t
                        .congestion_control()
                        .map_err(|e| format!("flow[{i}].{e}"))?;
                    let recovery = Recovery::by_name(&t.variant)
                        .ok_or_else(|| format!("flow[{i}].variant: unsupported {:?}", t.variant))?;
                    let mut sender = Box::new(TcpSender::new(id, src, dst, t, recovery, cc));
                    let mut sink = Box::new(TcpSink::new(id, dst, src, t));
                    if let Some(size) = size_bytes {
                        sender.set_transfer(*size);
                        sink.set_transfer(*size);
                    }
                    Agent::Tcp { sender, sink }
                }
                (app, None) if f.kind == FlowKind::Udp => {
                    let Some(generator) = generator_for(app) else {
                        return Err(format!("flow[{i}]: app and flow kind do not match"));
                    };
                    let rng = RandomStream::named(seed, &format!("flow.{}.app", f.name));
                    Agent::Udp {
                        source: Box::new(UdpSource::new(
                            id,
                            src,
                            dst,
                            f.header_size,
                            generator,
                            rng,
                        )),
                    }
                }
                (AppConfig::Tmix { .. }, Some(_)) => Agent::Tmix,
                (app, Some(t)) => {
                    // A paced application writing into a TCP connection.
                    if routes.next_hop(dst, src).is_none() {
                        return Err(unreachable(dst, src));
                    }
                    let Some(generator) = generator_for(app) else {
                        return Err(format!("flow[{i}]: app and flow kind do not match"));
                    };
                    let cc = t
                        .congestion_control()
                        .map_err(|e| format!("flow[{i}].{e}"))?;
                    let recovery = Recovery::by_name(&t.variant)
                        .ok_or_else(|| format!("flow[{i}].variant: unsupported {:?}", t.variant))?;
                    let sender = Box::new(TcpSender::new(id, src, dst, t, recovery, cc));
                    let sink = Box::new(TcpSink::new(id, dst, src, t));
                    let rng = RandomStream::named(seed, &format!("flow.{}.app", f.name));
                    writer = Some(Box::new(StreamWriter::new(generator, rng)));
                    Agent::Tcp { sender, sink }
                }
                _ => return Err(format!("flow[{i}]: app and flow kind do not match")),
            };
            let mut rng = RandomStream::named(seed, &format!("flow.{}.start", f.name));
            let start = f.app.start().sample(&mut rng);
            flows.push(Flow {
                agent,
                start: SimTime(start),
                rto_event: LazyTimer::default(),
                delack_event: LazyTimer::default(),
                pace_event: LazyTimer::default(),
                trace: TraceMask::from_names(&f.trace).expect("validated"),
                traced: [f64::NAN; 8],
                rto_held: None,
                tmix: None,
                delay: None,
                writer,
                full: None,
            });
        }
        let scenario_flows = flows.len();
        let full = full_tcp::build(&scenario, &mut flows)?;
        let mut tmix = Vec::new();
        let mut tmix_apps = Vec::new();
        let mut tmix_app_of = vec![u32::MAX; scenario_flows];
        for (i, f) in scenario.flows.iter().enumerate() {
            let (AppConfig::Tmix { connections, .. }, Some(t)) = (&f.app, &f.tcp) else {
                continue;
            };
            let (src, dst) = (node(f.from), node(f.to));
            if routes.next_hop(dst, src).is_none() {
                return Err(format!("flow[{i}] ({}): no route back", f.name));
            }
            let path_rtt = SimDuration(
                routes.path_delay(src, dst, &links).0 + routes.path_delay(dst, src, &links).0,
            );
            tmix_app_of[i] = tmix_apps.len() as u32;
            tmix_apps.push(TmixApp::new(
                i,
                &f.name,
                (src, dst),
                t,
                path_rtt,
                tmix.len() as u32,
            )?);
            for conn in connections {
                let c = tmix.len() as u32;
                let mut halves = [FlowId(0); 2];
                for (side, half) in halves.iter_mut().enumerate() {
                    *half = FlowId(flows.len() as u32);
                    // The endpoints are built when the connection starts (`tmix_agents.rs`).
                    flows.push(Flow {
                        agent: Agent::Idle,
                        start: SimTime(u64::MAX),
                        rto_event: LazyTimer::default(),
                        delack_event: LazyTimer::default(),
                        pace_event: LazyTimer::default(),
                        trace: TraceMask::from_names(&[]).expect("empty"),
                        traced: [f64::NAN; 8],
                        rto_held: None,
                        tmix: Some((c, side as u8)),
                        delay: None,
                        writer: None,
                        full: None,
                    });
                }
                tmix.push(TmixConn::new(FlowId(i as u32), halves, conn.clone()));
            }
        }

        let duration = SimTime(scenario.run.duration_ps);
        let mut queue = EventQueue::new();
        queue.push_timer(SimTime(scenario.run.warmup_ps), Event::Warmup);
        let mut sampler = None;
        let mut sample_interval = SimDuration::ZERO;
        if let Some(iv) = scenario.run.sample_interval_ps {
            let samples = (scenario.run.duration_ps / iv + 1) as usize;
            sampler = Some(Sampler::new(
                iv as f64 / PS_PER_S as f64,
                samples,
                scenario_flows, // Tmix half-connections are not sampled
                links.len(),
            ));
            sample_interval = SimDuration(iv);
            queue.push_timer(SimTime::ZERO, Event::Sample);
        }
        for (i, (f, cfg)) in flows[..scenario_flows]
            .iter()
            .zip(&scenario.flows)
            .enumerate()
        {
            let id = FlowId(i as u32);
            if f.start <= duration {
                queue.push_timer(f.start, Event::AppStart(id));
            }
            if let Some(stop) = cfg.app.stop_ps() {
                if SimTime(stop) <= duration {
                    queue.push_timer(SimTime(stop), Event::AppStop(id));
                }
            }
        }
        let nf = flows.len();
        let nl = links.len();
        let traces = open_traces(&scenario, &flows, &tmix, &mut links)?;
        for (link, cfg) in links.iter_mut().zip(&scenario.links) {
            if cfg.monitor_flows {
                link.monitor_flows(nf);
            }
        }
        let (guards, checker) = invariants::setup(&scenario.run);
        Ok(Simulator {
            scenario,
            now: SimTime::ZERO,
            duration,
            events: 0,
            queue,
            links,
            link_names,
            routes,
            flows,
            counters: vec![FlowCounters::default(); nf],
            warm_flows: vec![FlowCounters::default(); nf],
            warm_queues: vec![QueueCounters::default(); nl],
            warm_flow_queues: vec![None; nl],
            warm_sojourn: vec![Histogram::default(); nl],
            packets_delivered: 0,
            next_packet_id: 0,
            scratch: Vec::with_capacity(64),
            sent_refs: Vec::with_capacity(64),
            pool: PacketPool::default(),
            held_drops: Vec::new(),
            sampler,
            sample_interval,
            tracer: Tracer::default(),
            cc_state: Tracer::default(),
            finished: false,
            scenario_flows,
            tmix_next_start: vec![None; tmix.len()],
            tmix_received_bytes: vec![0; scenario_flows],
            tmix_in_flight: vec![0; nf],
            tmix_apps,
            tmix_app_of,
            delay_held: 0,
            tmix,
            tmix_acts: Vec::new(),
            full,
            tracing: traces.is_some(),
            traces,
            trace_error: None,
            monitor: vec![FlowMonitor::default(); 2 * nf],
            watch_at: 0,
            guards,
            checker,
            stop: None,
        })
    }

    pub fn from_json(text: &str) -> Result<Simulator, String> {
        Simulator::new(Scenario::from_json(text)?)
    }

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
        self.links
            .iter()
            .map(|l| l.counters.delivered_packets)
            .sum()
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
        loop {
            if self.events >= self.watch_at {
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

    /// Runs to the end.
    pub fn run(&mut self) {
        self.run_until(self.duration);
    }

    #[inline(always)]
    fn dispatch(&mut self, ev: Event) {
        match ev {
            Event::LinkHead(_) => unreachable!("handled by run_until"),
            Event::TxDone(l) => {
                self.links[l.idx()].on_tx_done(self.now, &mut self.pool);
                self.collect_held(l);
            }
            Event::Rto(f) => self.on_rto_event(f),
            Event::DelAck(f) => self.on_delack_event(f),
            Event::Pace(f) => self.on_pace_event(f),
            Event::AppStart(f) => self.on_app_start(f),
            Event::UdpTick(f) => self.on_udp_tick(f),
            Event::TmixStart(c) => self.on_tmix_start(c),
            Event::TmixWake(c, side) => self.on_tmix_wake(c, side),
            Event::Release(f) => self.on_release(f),
            Event::AppStop(f) => self.on_app_stop(f),
            Event::Sample => self.on_sample(),
            Event::Warmup => self.on_warmup(),
        }
    }

    /// A link's head packet reaches the far end. Its event is still in the queue, at `src`
    /// (see `run_until`): the link's next head event takes its place, or it is removed.
    fn on_link_head(&mut self, l: LinkId, src: Source) {
        let link = &mut self.links[l.idx()];
        let at = link.to;
        let (c, next) = link.deliver_head();
        match next {
            Some(t) if src == Source::Packets && t > self.now => {
                self.queue.replace_packet_top(t, Event::LinkHead(l));
            }
            Some(t) => {
                self.queue.remove(src);
                self.queue.push(t, Event::LinkHead(l));
            }
            None => self.queue.remove(src),
        }
        if self.links[l.idx()].loses(self.pool.get(c.r)) {
            let pkt = self.pool.take(c.r);
            self.count_drop(&pkt);
            if self.tracing {
                self.trace(l, TraceEvent::Lost, &pkt);
            }
            return;
        }
        if self.tracing {
            let pkt = *self.pool.get(c.r);
            self.trace(l, TraceEvent::Receive, &pkt);
        }
        if at == c.dst {
            let pkt = self.pool.take(c.r);
            self.receive(pkt);
        } else {
            self.forward_carried(at, c);
        }
    }

    /// Sends `pkt` out of node `at` toward its destination.
    #[inline(always)]
    fn forward(&mut self, at: NodeId, pkt: Packet) {
        let c = Carried::put(&mut self.pool, pkt);
        self.forward_carried(at, c);
    }

    /// Sends the pool's packet `c` out of node `at` toward its destination.
    #[inline(always)]
    fn forward_carried(&mut self, at: NodeId, c: Carried) {
        let Some(l) = self.routes.next_hop(at, c.dst) else {
            // Routes were checked for every flow at build time.
            unreachable!("no route for a flow's packet");
        };
        if self.tracing {
            let pkt = *self.pool.get(c.r);
            self.trace(l, TraceEvent::Enqueue, &pkt);
        }
        match self.links[l.idx()].enqueue(self.now, c, &mut self.pool) {
            Enqueued::ScheduleHead(t) => {
                self.queue.push(t, Event::LinkHead(l));
                if self.tracing {
                    self.trace_start(l);
                }
            }
            Enqueued::Queued => {
                if self.tracing {
                    self.trace_start(l);
                }
            }
            Enqueued::Dropped => {
                let pkt = self.pool.take(c.r);
                self.count_drop(&pkt);
                if self.tracing {
                    self.trace(l, TraceEvent::Drop, &pkt);
                }
            }
            Enqueued::Held => self.collect_held(l),
        }
    }

    #[inline(never)]
    fn trace(&mut self, l: LinkId, ev: TraceEvent, pkt: &Packet) {
        if let Some(t) = self.traces.as_mut() {
            t.record(self.now, l.idx(), ev, pkt);
        }
    }

    /// Traces the transmission start of the packet a FIFO link just accepted.
    #[inline(never)]
    fn trace_start(&mut self, l: LinkId) {
        if let (Some(t), Some((at, pkt))) = (
            self.traces.as_mut(),
            self.links[l.idx()].last_accepted(&self.pool),
        ) {
            t.dequeue(self.now, at, l.idx(), pkt);
        }
    }

    /// Counts the drops of a dequeue-time discipline and schedules the events it needs.
    fn collect_held(&mut self, l: LinkId) {
        let mut dropped = std::mem::take(&mut self.held_drops);
        let out = self.links[l.idx()].take_held_outcome(&mut dropped);
        for p in dropped.drain(..) {
            self.count_drop(&p);
            if self.tracing {
                self.trace(l, TraceEvent::Drop, &p);
            }
        }
        self.held_drops = dropped;
        if self.tracing {
            let started = self.links[l.idx()].take_started();
            if let Some(t) = self.traces.as_mut() {
                for (at, p) in &started {
                    t.dequeue(self.now, *at, l.idx(), p);
                }
            }
            self.links[l.idx()].return_started(started);
        }
        if let Some(t) = out.head {
            self.queue.push(t, Event::LinkHead(l));
        }
        if let Some(t) = out.tx_done {
            self.queue.push(t, Event::TxDone(l));
        }
    }

    fn count_drop(&mut self, pkt: &Packet) {
        self.monitor[monitor_index(pkt)].lost += 1;
        let c = &mut self.counters[pkt.flow.idx()];
        match pkt.kind {
            PacketKind::TcpAck => c.acks_dropped += 1,
            PacketKind::TcpData | PacketKind::Udp => c.packets_dropped += 1,
        }
        if let Some((conn, _)) = self.flows[pkt.flow.idx()].tmix {
            self.tmix_in_flight[pkt.flow.idx()] -= 1;
            self.close_tmix_endpoints_if_quiet(conn);
        }
    }

    /// Hands the packets an agent just emitted to the network.
    fn send_scratch(&mut self, mut out: Vec<Packet>) {
        if !self.full.is_empty() {
            self.full_stamp(&mut out);
        }
        let mut sent = std::mem::take(&mut self.sent_refs);
        sent.extend(out.drain(..).map(|p| self.pool.put(p)));
        self.scratch = out;
        self.send_pooled(sent);
    }

    /// Sends the packets an agent wrote into the pool (handles in `sent`, in order): numbers
    /// them, counts them in the flow monitor and hands them to the network (or a Tmix delay
    /// line).
    fn send_pooled(&mut self, mut sent: Vec<PacketRef>) {
        for &r in &sent {
            let p = self.pool.get_mut(r);
            p.id = self.next_packet_id;
            self.next_packet_id += 1;
            let (flow, src, size) = (p.flow, p.src, p.size);
            let c = Carried {
                r,
                dst: p.dst,
                flow,
                size,
            };
            self.monitor[monitor_index(p)].sent(self.now, size);
            // Only Tmix half-connections have delay lines, and their packets are counted.
            if self.flows[flow.idx()].tmix.is_some() {
                self.tmix_in_flight[flow.idx()] += 1;
                if self.flows[flow.idx()].delay.is_some() {
                    let p = self.pool.take(r);
                    self.delay_packet(p);
                    continue;
                }
            }
            self.forward_carried(src, c);
        }
        sent.clear();
        self.sent_refs = sent;
    }

    #[inline(never)]
    fn on_tmix_start(&mut self, c: u32) {
        if let Some((at, seq, next)) = self.tmix_next_start[c as usize].take() {
            self.queue
                .push_timer_reserved(at, seq, Event::TmixStart(next));
        }
        self.open_tmix_endpoints(c);
        let mut acts = std::mem::take(&mut self.tmix_acts);
        self.tmix[c as usize].start(self.now, &mut acts);
        self.tmix_act(c, acts);
    }

    #[inline(never)]
    fn on_tmix_wake(&mut self, c: u32, side: u8) {
        let mut acts = std::mem::take(&mut self.tmix_acts);
        self.tmix[c as usize].wake(self.now, side as usize, &mut acts);
        self.tmix_act(c, acts);
    }

    /// Puts a Tmix connection's packet into its delay line.
    #[inline(never)]
    fn delay_packet(&mut self, p: Packet) {
        let d = self.flows[p.flow.idx()].delay.as_mut().expect("checked");
        match d.push(self.now, p) {
            Ok(Some(t)) => {
                self.delay_held += 1;
                self.queue.push_timer(t, Event::Release(p.flow));
            }
            Ok(None) => self.delay_held += 1,
            Err(lost) => self.count_drop(&lost),
        }
    }

    /// A Tmix delay line's head packet is due.
    #[inline(never)]
    fn on_release(&mut self, f: FlowId) {
        let mut out = std::mem::take(&mut self.held_drops);
        let next = self.flows[f.idx()]
            .delay
            .as_mut()
            .expect("release event of a delay line")
            .release(self.now, &mut out);
        self.delay_held -= out.len() as u64;
        for p in out.drain(..) {
            self.forward(p.src, p);
        }
        self.held_drops = out;
        if let Some(t) = next {
            self.queue.push_timer(t, Event::Release(f));
        }
    }

    /// Carries out what a Tmix connection asked for.
    fn tmix_act(&mut self, c: u32, mut acts: Vec<TmixAction>) {
        let now = self.now;
        for act in acts.drain(..) {
            match act {
                TmixAction::Wake { side, at } => {
                    self.queue.push_timer(at, Event::TmixWake(c, side as u8));
                }
                TmixAction::Write { side, bytes, tag } => {
                    let half = self.tmix[c as usize].halves[side];
                    let mut out = std::mem::take(&mut self.scratch);
                    let Agent::Tcp { sender, .. } = &mut self.flows[half.idx()].agent else {
                        unreachable!("a Tmix half-connection is TCP");
                    };
                    let end = sender.push_adu(bytes);
                    sender.resume(now, &mut out, &mut self.counters[half.idx()]);
                    self.tmix[c as usize].wrote(side, end, tag);
                    self.send_scratch(out);
                    self.sync_timers(half);
                }
            }
        }
        self.tmix_acts = acts;
    }

    fn receive(&mut self, pkt: Packet) {
        let f = pkt.flow.idx();
        self.monitor[monitor_index(&pkt)].received(self.now, pkt.sent_at, pkt.size);
        if self.flows[f].full.is_some() {
            self.full_receive(pkt);
            return;
        }
        let mut sent = std::mem::take(&mut self.sent_refs);
        let mut out = PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        };
        let c = &mut self.counters[f];
        match (&mut self.flows[f].agent, pkt.kind) {
            (Agent::Tcp { sink, .. }, PacketKind::TcpData) => {
                self.packets_delivered += 1;
                sink.on_data(self.now, &pkt, &mut out, c);
            }
            (Agent::Tcp { sender, .. }, PacketKind::TcpAck) => {
                sender.on_ack(self.now, &pkt, &mut out, c);
            }
            (Agent::Udp { source }, PacketKind::Udp) => {
                self.packets_delivered += 1;
                null_sink_receive(&pkt, source.header(), c);
            }
            _ => unreachable!("packet kind does not match its flow"),
        }
        self.send_pooled(sent);
        if pkt.kind != PacketKind::Udp {
            self.sync_timers(pkt.flow);
        }
        if let Some((c, side)) = self.flows[f].tmix {
            self.tmix_in_flight[f] -= 1;
            if pkt.kind == PacketKind::TcpData {
                let parent = self.tmix[c as usize].parent.idx();
                self.tmix_received_bytes[parent] += pkt.size as u64;
                self.tmix_received(c, side as usize, f);
            }
            self.close_tmix_endpoints_if_quiet(c);
        }
    }

    #[inline(never)]
    fn tmix_received(&mut self, c: u32, side: usize, f: usize) {
        let Agent::Tcp { sink, .. } = &self.flows[f].agent else {
            return;
        };
        let rcv_nxt = sink.rcv_nxt;
        let mut acts = std::mem::take(&mut self.tmix_acts);
        let conn = &mut self.tmix[c as usize];
        let before = conn.delivered[side];
        conn.received(self.now, side, rcv_nxt, &mut acts);
        let gained = conn.delivered[side] - before;
        self.counters[conn.parent.idx()].bytes_delivered += gained;
        self.tmix_act(c, acts);
    }

    /// Makes sure a pending event exists no later than each of the flow's TCP deadlines, and
    /// traces the variables that changed. Called after every event a TCP flow handles.
    #[inline]
    fn sync_timers(&mut self, f: FlowId) {
        let flow = &mut self.flows[f.idx()];
        let Agent::Tcp { sender, sink } = &flow.agent else {
            return;
        };
        if !flow.trace.is_empty() {
            let k = sender.window_scale();
            let now = [
                sender.w.cwnd * k,
                sender.w.ssthresh * k,
                SimDuration(sender.rtt.last_sample).as_secs_f64(),
                SimDuration(sender.rtt.srtt).as_secs_f64(),
                SimDuration(sender.rtt.rttvar).as_secs_f64(),
                sender.rtt.rto().as_secs_f64(),
                sender.rtt.backoff as f64,
                (sender.w.cwnd + sender.dupwnd).min(sender.w.rwnd) * k,
            ];
            let name = &self.scenario.flows[f.idx()].name;
            let t = self.now.as_secs_f64();
            self.tracer
                .record(t, name, flow.trace, &mut flow.traced, now);
        }
        // Before backoff: T_0 of PFTK (the model applies the backoff itself), ns-2's t_rtxcur_.
        let rto = sender.rtt.base_rto().0;
        integrate_rto(
            &mut flow.rto_held,
            self.now,
            rto,
            &mut self.counters[f.idx()],
        );
        if let Some(t) = flow.rto_event.needs_event(sender.rto_deadline()) {
            self.queue.push_timer(t, Event::Rto(f));
        }
        if let Some(t) = flow.delack_event.needs_event(sink.deadline()) {
            self.queue.push_timer(t, Event::DelAck(f));
        }
        if let Some(t) = flow.pace_event.needs_event(sender.pace_deadline()) {
            self.queue.push(t, Event::Pace(f));
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
        let mut out = std::mem::take(&mut self.scratch);
        sender.on_pace(now, &mut out, &mut self.counters[f.idx()]);
        self.send_scratch(out);
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
            let mut out = std::mem::take(&mut self.scratch);
            sender.on_timeout(now, &mut out, &mut self.counters[f.idx()]);
            self.send_scratch(out);
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
            let mut out = std::mem::take(&mut self.scratch);
            sink.on_timer(now, &mut out, &mut self.counters[f.idx()]);
            self.send_scratch(out);
        }
        self.sync_timers(f);
    }

    fn on_app_start(&mut self, f: FlowId) {
        if self.flows[f.idx()].full.is_some() {
            self.full_app_start(f);
            return;
        }
        let now = self.now;
        let mut out = std::mem::take(&mut self.scratch);
        let c = &mut self.counters[f.idx()];
        let mut next_tick = None;
        let flow = &mut self.flows[f.idx()];
        match &mut flow.agent {
            Agent::Tcp { .. } if flow.writer.is_some() => {
                let w = flow.writer.as_ref().expect("checked");
                next_tick = Some(w.first_tick(now));
            }
            Agent::Tcp { sender, .. } => sender.start(now, &mut out, c),
            // Only Tmix half-connections are idle, and they have no application of their own.
            Agent::Idle => {}
            Agent::Tmix => {
                let stop = self.scenario.flows[f.idx()]
                    .app
                    .stop_ps()
                    .map_or(self.duration, SimTime)
                    .min(self.duration);
                // Only the earliest start is in the event queue at a time, each start
                // scheduling the next: a replay of 100k connections otherwise held them all
                // in the timer heap, which every timer of every connection then went through.
                // The sequence numbers are those the starts would have had if all were
                // scheduled now, in connection order, so ties still break the same way.
                let mut starts: Vec<(SimTime, u64, u32)> = Vec::new();
                for (i, conn) in self.tmix.iter().enumerate() {
                    let at = SimTime(now.0.saturating_add(conn.cfg.start_ps));
                    if conn.parent == f && at < stop {
                        starts.push((at, starts.len() as u64, i as u32));
                    }
                }
                let base = self.queue.reserve(starts.len() as u64);
                starts.sort_unstable_by_key(|&(at, k, _)| (at, k));
                for w in starts.windows(2) {
                    let (at, k, c) = w[1];
                    self.tmix_next_start[w[0].2 as usize] = Some((at, base + k, c));
                }
                if let Some(&(at, k, c)) = starts.first() {
                    self.queue
                        .push_timer_reserved(at, base + k, Event::TmixStart(c));
                }
            }
            Agent::Udp { source } => {
                let first = source.first_tick(now);
                next_tick = if first > now {
                    Some(first)
                } else {
                    source.tick(now, &mut out, c)
                };
            }
        }
        self.send_scratch(out);
        self.sync_timers(f);
        if let Some(t) = next_tick {
            self.queue.push(t, Event::UdpTick(f));
        }
    }

    fn on_udp_tick(&mut self, f: FlowId) {
        let now = self.now;
        let c = &mut self.counters[f.idx()];
        let flow = &mut self.flows[f.idx()];
        let next = if flow.full.is_none() {
            let mut sent = std::mem::take(&mut self.sent_refs);
            let mut out = PoolOut {
                pool: &mut self.pool,
                sent: &mut sent,
            };
            let next = tick_agent(flow, now, &mut out, c);
            self.send_pooled(sent);
            next
        } else {
            let mut out = std::mem::take(&mut self.scratch);
            let next = tick_agent(flow, now, &mut out, c);
            self.send_scratch(out);
            next
        };
        if self.flows[f.idx()].writer.is_some() {
            self.sync_timers(f);
        }
        if let Some(t) = next {
            self.queue.push(t, Event::UdpTick(f));
        }
    }

    fn on_app_stop(&mut self, f: FlowId) {
        if self.flows[f.idx()].full.is_some() {
            self.full_app_stop(f);
            return;
        }
        let flow = &mut self.flows[f.idx()];
        match &mut flow.agent {
            // A paced writer stops writing; what it wrote is still delivered.
            Agent::Tcp { .. } if flow.writer.is_some() => {
                flow.writer.as_mut().expect("checked").stop();
            }
            Agent::Tcp { sender, .. } => sender.stop(),
            Agent::Udp { source } => source.stop(),
            // Connections after the stop were never scheduled; running ones finish.
            Agent::Tmix | Agent::Idle => {}
        }
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
    }

    fn on_warmup(&mut self) {
        self.advance_links();
        self.integrate_rtos();
        self.warm_flows.copy_from_slice(&self.counters);
        for (i, l) in self.links.iter_mut().enumerate() {
            l.reset_max_queue();
            self.warm_queues[i] = l.counters;
            self.warm_sojourn[i] = l.sojourn_histogram();
            if let Some(m) = l.flow_monitor.as_mut() {
                m.iter_mut().for_each(|f| f.integrate(self.now.0));
                self.warm_flow_queues[i] = Some(m.clone());
            }
        }
    }

    fn on_sample(&mut self) {
        self.advance_links();
        let t = self.now.as_secs_f64();
        let Some(s) = self.sampler.as_mut() else {
            return;
        };
        for (i, (flow, cfg)) in self.flows.iter().zip(&self.scenario.flows).enumerate() {
            let c = &self.counters[i];
            let sample = match &flow.agent {
                Agent::Tcp { sender, .. } => FlowSample {
                    cwnd: sender.w.cwnd * sender.window_scale(),
                    ssthresh: sender.w.ssthresh * sender.window_scale(),
                    srtt_s: SimDuration(sender.rtt.srtt).as_secs_f64(),
                    rttvar_s: SimDuration(sender.rtt.rttvar).as_secs_f64(),
                    rto_s: sender.rtt.rto().as_secs_f64(),
                    backoff: sender.rtt.backoff as f64,
                    delivered_bytes: c.bytes_delivered,
                    received_bytes: c.bytes_received,
                    rtt_s: SimDuration(sender.rtt.last_sample).as_secs_f64(),
                    window: (sender.w.cwnd + sender.dupwnd).min(sender.w.rwnd)
                        * sender.window_scale(),
                },
                Agent::Udp { .. } | Agent::Tmix | Agent::Idle => FlowSample {
                    cwnd: f64::NAN,
                    ssthresh: f64::NAN,
                    srtt_s: f64::NAN,
                    rttvar_s: f64::NAN,
                    rto_s: f64::NAN,
                    backoff: f64::NAN,
                    delivered_bytes: c.bytes_delivered,
                    // A Tmix flow's wire bytes are its half-connections'.
                    received_bytes: c.bytes_received + self.tmix_received_bytes[i],
                    rtt_s: f64::NAN,
                    window: f64::NAN,
                },
            };
            s.flow(t, i, &cfg.name, sample);
            if let Agent::Tcp { sender, .. } = &flow.agent {
                for (name, value) in sender.cc().state() {
                    if !name.is_empty() {
                        self.cc_state.push(t, &cfg.name, name, value);
                    }
                }
            }
        }
        for (l, name) in self.links.iter().zip(&self.link_names) {
            let b = l.backlog();
            s.queue(t, name, b.packets, b.bytes, l.aqm_state());
        }
        let next = self.now + self.sample_interval;
        if next <= self.duration {
            self.queue.push_timer(next, Event::Sample);
        }
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

    /// The run's result tables; `None` until the run has reached its duration, and for a
    /// run that stopped early (see `stop_reason`).
    pub fn results(&self) -> Option<Results> {
        if !self.finished || self.stop.is_some() {
            return None;
        }
        let sc = &self.scenario;
        let window_s = (sc.run.duration_ps - sc.run.warmup_ps) as f64 / PS_PER_S as f64;
        let mbps = |bytes: u64| bytes as f64 * 8.0 / window_s / 1e6;

        let mut flows = Table::default();
        let mut cols: Vec<FlowCounters> = Vec::with_capacity(self.flows.len());
        for (c, w) in self.counters.iter().zip(&self.warm_flows) {
            cols.push(*c - *w);
        }
        // A Tmix flow reports the sum of its half-connections (it counts delivered ADU bytes
        // itself: the halves' sinks do not).
        for conn in &self.tmix {
            for h in conn.halves {
                let half = cols[h.idx()];
                let p = &mut cols[conn.parent.idx()];
                let delivered = p.bytes_delivered;
                *p = *p + half;
                p.bytes_delivered = delivered;
            }
        }
        cols.truncate(self.scenario_flows);
        let get = |f: fn(&FlowCounters) -> u64| cols.iter().map(f).collect::<Vec<u64>>();
        let tcp_str = |f: fn(&crate::scenario::TcpConfig) -> &String| {
            sc.flows
                .iter()
                .map(|x| x.tcp.as_ref().map_or(String::new(), |t| f(t).clone()))
                .collect()
        };
        flows
            .str("flow", sc.flows.iter().map(|f| f.name.clone()).collect())
            .str(
                "kind",
                sc.flows
                    .iter()
                    .map(|f| match f.kind {
                        FlowKind::Tcp => "tcp".to_string(),
                        FlowKind::Udp => "udp".to_string(),
                    })
                    .collect(),
            )
            .str("variant", tcp_str(|t| &t.variant))
            .str("cc", tcp_str(|t| &t.cc))
            .str(
                "from",
                sc.flows
                    .iter()
                    .map(|f| sc.nodes[f.from as usize].clone())
                    .collect(),
            )
            .str(
                "to",
                sc.flows
                    .iter()
                    .map(|f| sc.nodes[f.to as usize].clone())
                    .collect(),
            )
            .f64(
                "start_s",
                self.flows[..self.scenario_flows]
                    .iter()
                    // A connection's acceptor that never saw a SYN never started.
                    .map(|f| match f.start {
                        SimTime(u64::MAX) => f64::NAN,
                        t => t.as_secs_f64(),
                    })
                    .collect(),
            )
            .u64("packets_sent", get(|c| c.packets_sent))
            .u64("bytes_sent", get(|c| c.bytes_sent))
            .u64("packets_retransmitted", get(|c| c.packets_retransmitted))
            .u64("packets_dropped", get(|c| c.packets_dropped))
            .u64("packets_delivered", get(|c| c.packets_received))
            .u64("bytes_delivered", get(|c| c.bytes_delivered))
            .f64(
                "throughput_mbps",
                cols.iter().map(|c| mbps(c.bytes_received)).collect(),
            )
            .f64(
                "goodput_mbps",
                cols.iter().map(|c| mbps(c.bytes_delivered)).collect(),
            )
            .f64(
                "loss_rate",
                cols.iter()
                    .map(|c| {
                        if c.packets_sent == 0 {
                            0.0
                        } else {
                            c.packets_dropped as f64 / c.packets_sent as f64
                        }
                    })
                    .collect(),
            )
            .f64(
                "mean_rtt_s",
                cols.iter()
                    .map(|c| {
                        if c.rtt_samples == 0 {
                            f64::NAN
                        } else {
                            c.rtt_sum_ps as f64 / c.rtt_samples as f64 / PS_PER_S as f64
                        }
                    })
                    .collect(),
            )
            .u64("timeouts", get(|c| c.timeouts))
            .u64("fast_retransmits", get(|c| c.fast_retransmits))
            .u64("acks_sent", get(|c| c.acks_sent))
            .u64("acks_dropped", get(|c| c.acks_dropped))
            .u64("rtt_samples", get(|c| c.rtt_samples))
            .u64("ecn_reductions", get(|c| c.ecn_reductions))
            .f64(
                "mean_rto_s",
                cols.iter()
                    .map(|c| {
                        if c.rto_time_ps == 0 {
                            f64::NAN
                        } else {
                            c.rto_area as f64 / c.rto_time_ps as f64 / PS_PER_S as f64
                        }
                    })
                    .collect(),
            )
            .f64(
                "completion_s",
                self.flows[..self.scenario_flows]
                    .iter()
                    .map(|f| match &f.agent {
                        Agent::Tcp { sender, .. } => {
                            sender.completed_at.map_or(f64::NAN, |t| t.as_secs_f64())
                        }
                        Agent::Udp { .. } | Agent::Tmix | Agent::Idle => f64::NAN,
                    })
                    .collect(),
            );

        let mut queues = Table::default();
        let qs: Vec<QueueCounters> = self
            .links
            .iter()
            .zip(&self.warm_queues)
            .map(|(l, w)| l.counters - *w)
            .collect();
        let window_ps = (sc.run.duration_ps - sc.run.warmup_ps) as f64;
        let hists: Vec<Histogram> = self
            .links
            .iter()
            .zip(&self.warm_sojourn)
            .map(|(l, w)| l.sojourn_histogram().since(w))
            .collect();
        let sojourn_quantiles = |q: f64| -> Vec<f64> {
            hists
                .iter()
                .map(|h| h.quantile(q).map_or(f64::NAN, |v| v / PS_PER_S as f64))
                .collect()
        };
        let qget = |f: fn(&QueueCounters) -> u64| qs.iter().map(f).collect::<Vec<u64>>();
        queues
            .str("link", self.link_names.clone())
            .u64("arrived_packets", qget(|q| q.arrived_packets))
            .u64("arrived_bytes", qget(|q| q.arrived_bytes))
            .u64("departed_packets", qget(|q| q.departed_packets))
            .u64("departed_bytes", qget(|q| q.departed_bytes))
            .u64("dropped_packets", qget(|q| q.dropped_packets))
            .u64("dropped_bytes", qget(|q| q.dropped_bytes))
            .f64(
                "mean_queue_packets",
                qs.iter()
                    .map(|q| q.area_packets as f64 / window_ps)
                    .collect(),
            )
            .f64(
                "mean_queue_bytes",
                qs.iter().map(|q| q.area_bytes as f64 / window_ps).collect(),
            )
            .u64("max_queue_packets", qget(|q| q.max_queue_packets))
            .f64(
                "utilization",
                qs.iter()
                    .zip(&self.links)
                    .map(|(q, l)| q.departed_bytes as f64 * 8.0 / (l.rate.bps() as f64 * window_s))
                    .collect(),
            )
            .u64("lost_packets", qget(|q| q.lost_packets))
            .u64("lost_bytes", qget(|q| q.lost_bytes))
            .u64("marked_packets", qget(|q| q.marked_packets))
            .f64(
                "mean_sojourn_s",
                qs.iter()
                    .map(|q| {
                        if q.departed_packets == 0 {
                            f64::NAN
                        } else {
                            q.sojourn_sum_ps as f64 / q.departed_packets as f64 / PS_PER_S as f64
                        }
                    })
                    .collect(),
            )
            .f64("p50_sojourn_s", sojourn_quantiles(0.5))
            .f64("p95_sojourn_s", sojourn_quantiles(0.95))
            .f64(
                "max_sojourn_s",
                qs.iter()
                    .map(|q| q.max_sojourn_ps as f64 / PS_PER_S as f64)
                    .collect(),
            );

        let (timeseries, queue_timeseries) = self
            .sampler
            .as_ref()
            .map_or_else(|| Sampler::default().tables(), Sampler::tables);

        Some(Results {
            summary: Summary {
                name: sc.name.clone(),
                profile: sc.profile.clone(),
                seed: sc.run.seed,
                duration_s: sc.run.duration_ps as f64 / PS_PER_S as f64,
                warmup_s: sc.run.warmup_ps as f64 / PS_PER_S as f64,
                events: self.events,
                packet_hops: self.packet_hops(),
                packets_delivered: self.packets_delivered,
                version: crate::VERSION.to_string(),
            },
            flows,
            queues,
            timeseries,
            queue_timeseries,
            tcp_trace: self.tracer.table(),
            connections: self.connections_table(),
            flows_detail: self.flow_monitor_table(),
            queue_flows: self.queue_flows_table(),
            cc_state: self.cc_state.table(),
        })
    }

    /// Per-flow queue monitors over the measurement window: a row per monitored link
    /// direction and flow that offered it packets (a Tmix application sums its connections).
    fn queue_flows_table(&self) -> Table {
        let sc = &self.scenario;
        let window = (sc.run.duration_ps - sc.run.warmup_ps) as f64;
        let owner = |i: usize| match self.flows[i].tmix {
            Some((c, _)) => self.tmix[c as usize].parent.idx(),
            None => i,
        };
        let mut rows: Vec<(String, String, FlowQueueCounters)> = Vec::new();
        for (l, link) in self.links.iter().enumerate() {
            let Some(m) = &link.flow_monitor else {
                continue;
            };
            let warm = self.warm_flow_queues[l].as_ref();
            let mut per_flow = vec![FlowQueueCounters::default(); sc.flows.len()];
            for (i, c) in m.iter().enumerate() {
                let d = match warm {
                    Some(w) => c.since(&w[i]),
                    None => *c,
                };
                let o = &mut per_flow[owner(i)];
                o.arrived_packets += d.arrived_packets;
                o.arrived_bytes += d.arrived_bytes;
                o.departed_packets += d.departed_packets;
                o.departed_bytes += d.departed_bytes;
                o.dropped_packets += d.dropped_packets;
                o.dropped_bytes += d.dropped_bytes;
                o.lost_packets += d.lost_packets;
                o.lost_bytes += d.lost_bytes;
                o.area_packets += d.area_packets;
                o.area_bytes += d.area_bytes;
            }
            for (i, c) in per_flow.into_iter().enumerate() {
                if c.arrived_packets > 0 {
                    rows.push((self.link_names[l].clone(), sc.flows[i].name.clone(), c));
                }
            }
        }
        let u = |g: fn(&FlowQueueCounters) -> u64| rows.iter().map(|r| g(&r.2)).collect();
        let mut t = Table::default();
        t.str("link", rows.iter().map(|r| r.0.clone()).collect())
            .str("flow", rows.iter().map(|r| r.1.clone()).collect())
            .u64("arrived_packets", u(|c| c.arrived_packets))
            .u64("arrived_bytes", u(|c| c.arrived_bytes))
            .u64("departed_packets", u(|c| c.departed_packets))
            .u64("departed_bytes", u(|c| c.departed_bytes))
            .u64("dropped_packets", u(|c| c.dropped_packets))
            .u64("dropped_bytes", u(|c| c.dropped_bytes))
            .u64("lost_packets", u(|c| c.lost_packets))
            .u64("lost_bytes", u(|c| c.lost_bytes))
            .f64(
                "mean_queue_packets",
                rows.iter()
                    .map(|r| r.2.area_packets as f64 / window)
                    .collect(),
            )
            .f64(
                "mean_queue_bytes",
                rows.iter()
                    .map(|r| r.2.area_bytes as f64 / window)
                    .collect(),
            );
        t
    }

    /// FlowMonitor-style rows: each flow's data direction, and its ACK direction for TCP;
    /// a Tmix application sums its connections.
    fn flow_monitor_table(&self) -> Table {
        let sc = &self.scenario;
        let mut merged: Vec<[FlowMonitor; 2]> = (0..sc.flows.len())
            .map(|i| [self.monitor[2 * i], self.monitor[2 * i + 1]])
            .collect();
        for (i, flow) in self.flows.iter().enumerate().skip(sc.flows.len()) {
            if let Some((c, _)) = flow.tmix {
                let p = self.tmix[c as usize].parent.idx();
                for (d, m) in merged[p].iter_mut().enumerate() {
                    m.merge(&self.monitor[2 * i + d]);
                }
            }
        }
        let s = |ps: u64| ps as f64 / PS_PER_S as f64;
        let s128 = |ps: u128| ps as f64 / PS_PER_S as f64;
        let mut rows: Vec<(String, &str, FlowMonitor)> = Vec::new();
        for (i, f) in sc.flows.iter().enumerate() {
            rows.push((f.name.clone(), "data", merged[i][0]));
            if f.kind == FlowKind::Tcp {
                rows.push((f.name.clone(), "ack", merged[i][1]));
            }
        }
        let col_u = |g: fn(&FlowMonitor) -> u64| rows.iter().map(|r| g(&r.2)).collect::<Vec<_>>();
        let col_f =
            |g: &dyn Fn(&FlowMonitor) -> f64| rows.iter().map(|r| g(&r.2)).collect::<Vec<_>>();
        let mean = |sum: u128, n: u64| {
            if n == 0 {
                f64::NAN
            } else {
                s128(sum) / n as f64
            }
        };
        let mut t = Table::default();
        t.str("flow", rows.iter().map(|r| r.0.clone()).collect())
            .str("direction", rows.iter().map(|r| r.1.to_string()).collect())
            .u64("tx_packets", col_u(|m| m.tx_packets))
            .u64("tx_bytes", col_u(|m| m.tx_bytes))
            .u64("rx_packets", col_u(|m| m.rx_packets))
            .u64("rx_bytes", col_u(|m| m.rx_bytes))
            .u64("lost_packets", col_u(|m| m.lost))
            .f64("delay_sum_s", col_f(&|m| s128(m.delay_sum_ps)))
            .f64(
                "mean_delay_s",
                col_f(&|m| mean(m.delay_sum_ps, m.rx_packets)),
            )
            .f64(
                "max_delay_s",
                col_f(&|m| {
                    if m.rx_packets == 0 {
                        f64::NAN
                    } else {
                        s(m.delay_max_ps)
                    }
                }),
            )
            .f64("jitter_sum_s", col_f(&|m| s128(m.jitter_sum_ps)))
            .f64(
                "mean_jitter_s",
                col_f(&|m| mean(m.jitter_sum_ps, m.rx_packets.saturating_sub(1))),
            )
            .f64("first_tx_s", col_f(&|m| m.first_tx().map_or(f64::NAN, s)))
            .f64(
                "last_tx_s",
                col_f(&|m| m.first_tx().map_or(f64::NAN, |_| s(m.last_tx))),
            )
            .f64("first_rx_s", col_f(&|m| m.first_rx().map_or(f64::NAN, s)))
            .f64(
                "last_rx_s",
                col_f(&|m| m.first_rx().map_or(f64::NAN, |_| s(m.last_rx))),
            );
        t
    }

    /// One row per Tmix connection.
    fn connections_table(&self) -> Table {
        let secs = |t: Option<SimTime>| t.map_or(f64::NAN, |t| t.as_secs_f64());
        let mut index = vec![0u64; self.scenario_flows];
        let mut numbers = Vec::with_capacity(self.tmix.len());
        for c in &self.tmix {
            numbers.push(index[c.parent.idx()]);
            index[c.parent.idx()] += 1;
        }
        let col = |f: &dyn Fn(&TmixConn) -> f64| self.tmix.iter().map(f).collect::<Vec<f64>>();
        let ucol = |f: &dyn Fn(&TmixConn) -> u64| self.tmix.iter().map(f).collect::<Vec<u64>>();
        let mut t = Table::default();
        t.str(
            "flow",
            self.tmix
                .iter()
                .map(|c| self.scenario.flows[c.parent.idx()].name.clone())
                .collect(),
        )
        .u64("connection", numbers)
        .str(
            "kind",
            self.tmix
                .iter()
                .map(|c| if c.cfg.concurrent { "conc" } else { "seq" }.to_string())
                .collect(),
        )
        .f64("start_s", col(&|c| secs(c.started_at)))
        .f64("finish_s", col(&|c| secs(c.finished_at)))
        .f64(
            "duration_s",
            col(&|c| match (c.started_at, c.finished_at) {
                (Some(a), Some(b)) => (b.0 - a.0) as f64 / PS_PER_S as f64,
                _ => f64::NAN,
            }),
        )
        .f64("min_rtt_s", col(&|c| c.cfg.rtt_ps as f64 / PS_PER_S as f64))
        .u64("adus", ucol(&|c| c.cfg.adus.len() as u64))
        .u64("adus_delivered", ucol(&|c| c.adus_delivered as u64))
        .u64("bytes_initiator", ucol(&|c| c.total_bytes()[0]))
        .u64("bytes_acceptor", ucol(&|c| c.total_bytes()[1]))
        .u64("delivered_initiator", ucol(&|c| c.delivered[0]))
        .u64("delivered_acceptor", ucol(&|c| c.delivered[1]));
        self.full_connection_rows(&mut t);
        t
    }

    // Host control: the ns-2 front end starts and stops applications from `$ns at` scripts
    // and reads counters and TCP variables between `run_until` calls.

    /// Starts (`start = true`) or stops flow `f`'s application at `at`, which must not be
    /// earlier than now.
    pub fn schedule_app(&mut self, f: usize, at: SimTime, start: bool) -> Result<(), String> {
        if f >= self.flows.len() {
            return Err(format!("no flow {f}"));
        }
        if at < self.now {
            return Err(format!("time {} ps is in the past", at.0));
        }
        let id = FlowId(f as u32);
        if start {
            self.flows[f].start = at;
            self.queue.push_timer(at, Event::AppStart(id));
        } else {
            self.queue.push_timer(at, Event::AppStop(id));
        }
        Ok(())
    }

    /// Flow `f`'s counters since the start of the run.
    pub fn flow_counters(&self, f: usize) -> Option<FlowCounters> {
        let mut c = self.counters.get(f).copied()?;
        let mut held = self.flows[f].rto_held;
        flush_rto(&mut held, self.now, &mut c);
        Some(c)
    }

    /// Flow `f`'s TCP variables now, in [`crate::tracer::TRACEABLE`] order; `None` for UDP.
    pub fn tcp_vars(&self, f: usize) -> Option<[f64; 8]> {
        let Agent::Tcp { sender, .. } = &self.flows.get(f)?.agent else {
            return None;
        };
        let k = sender.window_scale();
        Some([
            sender.w.cwnd * k,
            sender.w.ssthresh * k,
            SimDuration(sender.rtt.last_sample).as_secs_f64(),
            SimDuration(sender.rtt.srtt).as_secs_f64(),
            SimDuration(sender.rtt.rttvar).as_secs_f64(),
            sender.rtt.rto().as_secs_f64(),
            sender.rtt.backoff as f64,
            (sender.w.cwnd + sender.dupwnd).min(sender.w.rwnd) * k,
        ])
    }

    /// Link direction `l`'s queue counters since the start of the run, brought up to now.
    pub fn queue_counters(&mut self, l: usize) -> Option<QueueCounters> {
        let now = self.now;
        let link = self.links.get_mut(l)?;
        link.advance(now);
        Some(link.counters)
    }

    /// Link direction `l`'s per-flow queue counters since the start of the run, brought up
    /// to now, indexed by engine flow (`None`: the link keeps none).
    pub fn queue_flow_counters(&mut self, l: usize) -> Option<Vec<FlowQueueCounters>> {
        let now = self.now;
        let link = self.links.get_mut(l)?;
        link.advance(now);
        let m = link.flow_monitor.as_mut()?;
        for c in m.iter_mut() {
            c.integrate(now.0);
        }
        Some(m.clone())
    }

    /// Whether flow `f`'s data (`Some(true)`) or its ACKs and replies (`Some(false)`) cross
    /// link direction `l` on their route.
    pub fn flow_crosses(&self, f: usize, l: usize) -> Option<bool> {
        let flow = self.scenario.flows.get(f)?;
        let on_path = |from: u32, to: u32| {
            let (mut at, mut hops) = (from, 0);
            while at != to && hops <= self.links.len() {
                let Some(next) = self.routes.next_hop(NodeId(at), NodeId(to)) else {
                    return false;
                };
                if next.idx() == l {
                    return true;
                }
                at = self.scenario.links[next.idx()].to;
                hops += 1;
            }
            false
        };
        if on_path(flow.from, flow.to) {
            Some(true)
        } else if on_path(flow.to, flow.from) {
            Some(false)
        } else {
            None
        }
    }

    /// The traced-variable rows recorded since the last call (they leave `results()`).
    pub fn take_tcp_trace(&mut self) -> Table {
        self.tracer.take()
    }

    /// Per-link packets in the network right now (waiting, on the wire or propagating).
    pub fn link_in_flight(&self) -> Vec<usize> {
        self.links.iter().map(|l| l.in_flight()).collect()
    }
}

/// A link direction with its discipline and loss model, each drawing from its own stream.
fn build_link(l: &LinkConfig, name: &str, seed: u64) -> Link {
    let rate = Rate::from_bps_f64(l.rate_bps).expect("validated");
    let delay = SimDuration(l.delay_ps);
    let q = &l.queue;
    let stream = |what: &str| RandomStream::named(seed, &format!("link.{name}.{what}"));
    let limit = q.limit_packets.unwrap_or(u64::MAX);
    let enqueue_time = match q.kind.as_str() {
        "red" => {
            let r = q.red.expect("validated");
            AnyQueue::Red(Box::new(Red::new(
                RedParams {
                    limit_packets: limit,
                    min_thresh: r.min_thresh,
                    max_thresh: r.max_thresh,
                    q_weight: r.q_weight,
                    max_p: r.max_p,
                    gentle: r.gentle,
                    wait: r.wait,
                    bytes: r.bytes,
                    queue_in_bytes: r.queue_in_bytes,
                    mean_pktsize: r.mean_pktsize,
                    target_delay_s: SimDuration(r.target_delay_ps).as_secs_f64(),
                    ecn: q.ecn,
                    use_mark_p: r.use_mark_p,
                    mark_p: r.mark_p,
                },
                l.rate_bps,
                delay.as_secs_f64(),
                stream("queue"),
            )))
        }
        "pie" => {
            let x = q.pie.expect("validated");
            AnyQueue::Pie(Box::new(Pie::new(
                PieParams {
                    limit_packets: limit,
                    target: SimDuration(x.target_ps),
                    t_update: SimDuration(x.t_update_ps),
                    alpha: x.alpha,
                    beta: x.beta,
                    max_burst: SimDuration(x.max_burst_ps),
                    mean_pktsize: x.mean_pktsize,
                    ecn: q.ecn,
                    mark_ecn_threshold: x.mark_ecn_threshold,
                },
                l.rate_bps,
                stream("queue"),
            )))
        }
        _ => AnyQueue::DropTail(DropTail {
            limit_packets: q.limit_packets,
            limit_bytes: q.limit_bytes,
            ns2: q.ns2,
        }),
    };
    let mut link = Link::new(NodeId(l.from), NodeId(l.to), rate, delay, enqueue_time);
    if q.kind == "codel" || q.kind == "fq_codel" {
        let c = q.codel.expect("validated");
        let params = CoDelParams {
            limit_packets: limit,
            target: SimDuration(c.target_ps),
            interval: SimDuration(c.interval_ps),
            mtu: c.mtu,
            ecn: q.ecn,
        };
        link.set_held(if q.kind == "codel" {
            HeldQueue::CoDel(Box::new(CoDel::new(params)))
        } else {
            let perturbation = stream("queue").next_u64();
            HeldQueue::FqCoDel(Box::new(FqCoDel::new(
                FqCoDelParams {
                    codel: params,
                    flows: c.flows,
                    quantum: c.quantum,
                },
                perturbation,
            )))
        });
    }
    match &l.loss {
        Some(LossConfig::Bernoulli { p }) => {
            link.set_loss(AnyLoss::Bernoulli(Bernoulli::new(*p, stream("loss"))));
        }
        Some(LossConfig::ByteBernoulli { p }) => {
            link.set_loss(AnyLoss::Bernoulli(Bernoulli::per_byte(*p, stream("loss"))));
        }
        Some(LossConfig::GilbertElliott {
            p_good_bad,
            p_bad_good,
            loss_good,
            loss_bad,
        }) => {
            link.set_loss(AnyLoss::GilbertElliott(GilbertElliott::new(
                *p_good_bad,
                *p_bad_good,
                *loss_good,
                *loss_bad,
                stream("loss"),
            )));
        }
        Some(LossConfig::Periodic {
            period,
            offset,
            burst,
        }) => {
            link.set_loss(AnyLoss::Periodic(Periodic::new(*period, *offset, *burst)));
        }
        Some(LossConfig::DropList { flow, packets }) => {
            link.set_loss(AnyLoss::DropList(DropList::new(
                FlowId(*flow),
                packets.clone(),
            )));
        }
        None => {}
    }
    link
}

/// Adds the RTO held since the last call to the flow's integral and holds `rto` from `now`.
#[inline]
fn integrate_rto(held: &mut Option<(SimTime, u64)>, now: SimTime, rto: u64, c: &mut FlowCounters) {
    match *held {
        // Unchanged: the running segment goes on and is added when it ends (a flush or the
        // next change), which gives the same integer sums with less work per event.
        Some((_, value)) if value == rto => {}
        _ => {
            flush_rto(held, now, c);
            *held = Some((now, rto));
        }
    }
}

/// Adds the running RTO segment up to `now` to the counters and starts a new one there.
fn flush_rto(held: &mut Option<(SimTime, u64)>, now: SimTime, c: &mut FlowCounters) {
    if let Some((since, value)) = held {
        let dt = now.0 - since.0;
        c.rto_area += dt as u128 * *value as u128;
        c.rto_time_ps += dt;
        *since = now;
    }
}

/// A UDP source's tick, or a paced application's write into its TCP flow; the next tick.
#[inline(always)]
fn tick_agent(
    flow: &mut Flow,
    now: SimTime,
    out: &mut impl Outgoing,
    c: &mut FlowCounters,
) -> Option<SimTime> {
    match (&mut flow.agent, flow.writer.as_mut()) {
        (Agent::Udp { source }, _) => source.tick(now, out, c),
        (Agent::Tcp { sender, .. }, Some(w)) => {
            let (bytes, next) = w.next(now);
            if bytes > 0 {
                sender.write(now, bytes as u64, out, c);
            }
            next
        }
        _ => None,
    }
}

/// The flow-monitor slot of a packet: its flow's data or ACK direction.
#[inline(always)]
fn monitor_index(p: &Packet) -> usize {
    2 * p.flow.idx() + usize::from(p.kind == PacketKind::TcpAck)
}

/// Opens the scenario's packet traces, labelling every flow's packets as ns-2 would.
fn open_traces(
    sc: &Scenario,
    flows: &[Flow],
    tmix: &[TmixConn],
    links: &mut [Link],
) -> Result<Option<Box<PacketTraces>>, String> {
    if sc.traces.is_empty() {
        return Ok(None);
    }
    // ns-2 numbers agents per node in the order they are attached: the ports a flow gives
    // (the ns-2 front end knows the script's order), else a flow's sender, then its
    // receiver, flow after flow.
    let mut next_port = vec![0u32; sc.nodes.len()];
    let mut port = |n: u32| {
        let p = next_port[n as usize];
        next_port[n as usize] += 1;
        p
    };
    let mut labels = Vec::with_capacity(flows.len());
    let mut frames = Vec::with_capacity(flows.len());
    let frame_info =
        |tcp: Option<&crate::scenario::TcpConfig>, syn: bool, header: u32, sp: u32, dp: u32| {
            let pcap_port = |p: u32| (1024 + p % 64000) as u16;
            match tcp {
                Some(t) => {
                    let window = t
                        .rcv_buffer_bytes
                        .unwrap_or(t.window as u64 * t.packet_size as u64);
                    FrameInfo {
                        tcp: true,
                        sport: pcap_port(sp),
                        dport: pcap_port(dp),
                        mss: t.packet_size,
                        header: t.header_size,
                        syn,
                        timestamps: t.timestamps,
                        sack: t.sink == "sack",
                        window_segments: t.window,
                        wscale: FrameInfo::scale_for(window),
                        full: None,
                    }
                }
                None => FrameInfo {
                    tcp: false,
                    sport: pcap_port(sp),
                    dport: pcap_port(dp),
                    mss: 0,
                    header,
                    syn: false,
                    timestamps: false,
                    sack: false,
                    window_segments: 0,
                    wscale: 0,
                    full: None,
                },
            }
        };
    // A two-way connection's flows share one pair of agents (ports), the acceptor's flow
    // with them swapped.
    let mut ports = vec![None; sc.flows.len()];
    for (i, f) in sc.flows.iter().enumerate() {
        if ports[i].is_none() {
            let (sp, dp) = match f.ports {
                Some([sp, dp]) => (sp, dp),
                None => (port(f.from), port(f.to)),
            };
            ports[i] = Some((sp, dp));
            if let Some(c) = &f.connection {
                ports[c.peer as usize] = Some((dp, sp));
            }
        }
    }
    for (i, f) in sc.flows.iter().enumerate() {
        let (sp, dp) = ports[i].expect("assigned");
        let data_type = match f.kind {
            FlowKind::Tcp => "tcp",
            FlowKind::Udp => crate::packet_trace::udp_type(&f.app),
        };
        let full = full_tcp::trace_seq(sc, i);
        labels.push(FlowLabel {
            fid: f.fid.unwrap_or(i as u32),
            sport: sp,
            dport: dp,
            data_type,
            header: f.tcp.as_ref().map_or(f.header_size, |t| t.header_size),
            full,
        });
        let syn = f.tcp.as_ref().is_some_and(|t| t.syn);
        let mut frame = frame_info(f.tcp.as_ref(), syn, f.header_size, sp, dp);
        frame.full = full;
        frames.push(frame);
    }
    // Tmix half-connections: ports of their own, their application's flow id.
    for flow in &flows[sc.flows.len()..] {
        let (conn, side) = flow.tmix.expect("a Tmix half-connection");
        let owner = tmix[conn as usize].parent.idx();
        let of = &sc.flows[owner];
        let (a, b) = if side == 0 {
            (of.from, of.to)
        } else {
            (of.to, of.from)
        };
        let (sp, dp) = (port(a), port(b));
        labels.push(FlowLabel {
            fid: of.fid.unwrap_or(owner as u32),
            sport: sp,
            dport: dp,
            data_type: "tcp",
            header: of.tcp.as_ref().map_or(0, |t| t.header_size),
            full: None,
        });
        let syn = side == 0 && of.tcp.as_ref().is_some_and(|t| t.syn);
        frames.push(frame_info(of.tcp.as_ref(), syn, of.header_size, sp, dp));
    }
    let ends: Vec<(u32, u32)> = links.iter().map(|l| (l.from.0, l.to.0)).collect();
    let mut specs = Vec::with_capacity(sc.traces.len());
    for t in &sc.traces {
        let pcap = t.format == "pcap";
        let mut taps = Vec::new();
        let mut all = TraceEvent::Enqueue.bit()
            | TraceEvent::Dequeue.bit()
            | TraceEvent::Receive.bit()
            | TraceEvent::Drop.bit()
            | TraceEvent::Lost.bit();
        if !t.events.is_empty() {
            all = 0;
            for e in &t.events {
                all |= TraceEvent::named(e)
                    .ok_or_else(|| format!("trace event {e:?}: expected +, -, r, d or lost"))?
                    .bit();
            }
        }
        // pcap on a link: a frame as it starts its transmission.
        let on_link = if pcap { TraceEvent::Dequeue.bit() } else { all };
        if t.links.is_empty() && t.nodes.is_empty() {
            taps.extend((0..links.len()).map(|l| (l, on_link)));
        }
        taps.extend(t.links.iter().map(|&l| (l as usize, on_link)));
        for tap in taps.iter_mut() {
            if t.lost_untraced.contains(&(tap.0 as u32)) {
                tap.1 &= !TraceEvent::Lost.bit();
            }
        }
        for &n in &t.nodes {
            for (l, &(from, to)) in ends.iter().enumerate() {
                // At a node: what leaves it (transmission start) and what reaches it.
                let mut ev = 0;
                if from == n {
                    ev |= TraceEvent::Dequeue.bit();
                }
                if to == n {
                    ev |= TraceEvent::Receive.bit();
                }
                if ev != 0 {
                    taps.push((l, ev));
                }
            }
        }
        specs.push(TraceSpec {
            pcap,
            tcp_header: t.tcp_header,
            path: t.path.clone().into(),
            taps,
        });
    }
    let traces = PacketTraces::open(&specs, ends, labels, frames)?;
    for (l, link) in links.iter_mut().enumerate() {
        if traces.watches(l) {
            link.log_starts(true);
        }
    }
    Ok(Some(Box::new(traces)))
}

/// The packet generator of a UDP-style application; None for FTP and Tmix.
fn generator_for(app: &AppConfig) -> Option<Generator> {
    Some(match app {
        AppConfig::Cbr {
            interval_ps,
            packet_size,
            random,
            ..
        } => Generator::Cbr(Cbr {
            interval_ps: *interval_ps,
            payload: *packet_size,
            random: *random,
        }),
        AppConfig::Onoff {
            interval_ps,
            packet_size,
            on,
            off,
            ..
        } => Generator::OnOff(OnOff::new(
            *interval_ps,
            *packet_size,
            on.clone(),
            off.clone(),
        )),
        AppConfig::Poisson {
            mean_interval_ps,
            packet_size,
            ..
        } => Generator::Poisson(Poisson {
            mean_interval_ps: *mean_interval_ps,
            payload: *packet_size,
        }),
        AppConfig::Trace { records, .. } => Generator::Trace(TraceReplay::new(records.clone())),
        AppConfig::Ftp { .. } | AppConfig::Tmix { .. } => return None,
    })
}

#[cfg(test)]
mod flow_layout_tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    /// What every packet of a flow reads shares the first cache line, its timers the second.
    #[test]
    fn a_packet_reads_the_first_line() {
        assert_eq!(align_of::<Flow>(), 64);
        let end = |at: usize, size: usize| at + size;
        for (name, end) in [
            ("agent", end(offset_of!(Flow, agent), size_of::<Agent>())),
            (
                "rto_event",
                end(offset_of!(Flow, rto_event), size_of::<LazyTimer>()),
            ),
            (
                "tmix",
                end(offset_of!(Flow, tmix), size_of::<Option<(u32, u8)>>()),
            ),
            (
                "full",
                end(offset_of!(Flow, full), size_of::<Option<(u32, u8)>>()),
            ),
        ] {
            assert!(end <= 64, "{name} ends at {end}");
        }
        for (name, end) in [
            (
                "delack_event",
                end(offset_of!(Flow, delack_event), size_of::<LazyTimer>()),
            ),
            (
                "trace",
                end(offset_of!(Flow, trace), size_of::<TraceMask>()),
            ),
            (
                "rto_held",
                end(
                    offset_of!(Flow, rto_held),
                    size_of::<Option<(SimTime, u64)>>(),
                ),
            ),
        ] {
            assert!(end <= 128, "{name} ends at {end}");
        }
    }
}
