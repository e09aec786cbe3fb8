//! The simulator's side of Tmix connections' endpoints (`traffic/tmix/` drives the connections):
//! a connection's two TCP half-connections get their sender, sink and delay line when the
//! connection starts, and give them back once it is closed and quiet.
//!
//! Seed 003's background replays 150 000 connections each way; built up front, their
//! endpoints took 1.4 GB and seconds before the first event, though a few hundred connections
//! are open at any time. A closed connection's endpoints are freed only when nothing can reach
//! them again: both FINs delivered, no packet of either half in the network or a delay line,
//! and no pending retransmission, delayed-ACK or pacing deadline. Such an endpoint would never
//! act again, so freeing it changes no result (the stale timer events it may leave behind
//! find no endpoint and do nothing, as they did nothing before).
//!
//! Half-connections have `Role::TmixHalf`: their kind ([`TmixHalf`]'s `Kind`) counts their
//! packets in the network (`tmix_in_flight`) as they are sent, received and dropped, and
//! sends them through the connection's delay line if it has one. This file is a child module
//! of `sim`.
//!
//! Their flow entries (with counters, flow monitors and timers) are slots ([`Slots`]): a
//! connection takes a pair of its application's when it starts, and the pair goes back to
//! the application's free list once the connection is freed as above. What the freed halves
//! counted is then added to their application's totals, which is all the results report of
//! them (the connections table's row of each connection is kept in its `TmixConn`). Seed
//! 003's study runs replay 6.5 million connections, a few thousand of them open at a time; a
//! flow entry per half-connection for the whole run was some 1.4 kB a connection.
//!
//! A slot's timer events carry its generation, which a reuse advances: a stale event of the
//! old connection then does nothing to the new one, as it did nothing to the idle entry
//! before. (For such an event to act, the 16-bit generation would have to come round to its
//! value, 65 536 reuses of one slot before the event fires, and the new connection's own
//! timer be due at that picosecond.)
//!
//! Slots are reused only where nothing but the engine's own tables reads a half-connection's
//! flow id: not under packet traces (which number each half-connection's ports), ECMP (which
//! hashes flow ids to pick paths), a discipline that hashes flow ids to buckets (FQ-CoDel,
//! FQ-PIE) or one written in Python, or a congestion control written in Python. There every
//! connection keeps a pair of its own from the build, as before.

use super::flow::TmixHalf;
use super::*;
use crate::ids::NodeId;
use crate::rng::RandomStream;
use crate::scenario::{TcpConfig, TmixVectors};
use crate::tcp::cc::AnyCc;
use crate::tcp::sender::Recovery;
use crate::tcp::{TcpParams, TcpSender, TcpSink};
use crate::time::SimDuration;
use crate::traffic::tmix::{DelayLine, Vector};

/// The flow id of a connection's halves before it takes its slots.
pub(super) const NO_SLOT: FlowId = FlowId(u32::MAX);

/// Tmix half-connections' flow slots when they are reused (see the top of this file).
#[derive(Debug, Default)]
pub(super) struct Slots {
    /// Whether slots are reused; false: each connection has its own pair from the build.
    pub reuse: bool,
    /// Per Tmix application, the first flow index of each free pair.
    free: Vec<Vec<u32>>,
    /// Per flow (empty unless `reuse`), its slot's generation: how many connections had it
    /// before (wrapping), which its timer events carry.
    generation: Vec<u16>,
    /// Per scenario flow, what the freed halves of its connections counted: their counters
    /// (without delivered bytes, which the application counts itself), their flow monitors
    /// (data, ACKs), and the RTOs they still hold (see [`Linger`]).
    closed: Vec<FlowCounters>,
    closed_monitor: Vec<[FlowMonitor; 2]>,
    linger: Vec<Linger>,
}

/// The retransmission timeouts that freed half-connections held when they were freed: a
/// flow's RTO integral (`FlowCounters::rto_area`, `rto_time_ps`) runs to the end of the run,
/// each half-connection's at its last value, so their sums go on: at a flush at `t`, each
/// adds `(t - since) x value`. Kept as sums over the halves (values, values x since, count,
/// since), in wrapping arithmetic as the flows' sums are added.
#[derive(Clone, Copy, Debug, Default)]
struct Linger {
    values: u128,
    weighted: u128,
    count: u128,
    since: u128,
}

impl Slots {
    /// Slots for `apps` Tmix applications among `scenario_flows` flows; `reuse`: see the top
    /// of this file.
    pub fn new(reuse: bool, apps: usize, scenario_flows: usize, flows: usize) -> Slots {
        // Nothing to reuse without a Tmix application: no tables (a 10 000-flow dumbbell's
        // were 4.7 MB of its peak).
        let reuse = reuse && apps > 0;
        Slots {
            reuse,
            free: vec![Vec::new(); if reuse { apps } else { 0 }],
            generation: if reuse { vec![0; flows] } else { Vec::new() },
            closed: vec![FlowCounters::default(); if reuse { scenario_flows } else { 0 }],
            closed_monitor: vec![
                [FlowMonitor::default(); 2];
                if reuse { scenario_flows } else { 0 }
            ],
            linger: vec![Linger::default(); if reuse { scenario_flows } else { 0 }],
        }
    }

    /// Whether a run may reuse slots: nothing but the engine's own tables reads a
    /// half-connection's flow id (see the top of this file).
    pub fn reuse_allowed(scenario: &Scenario, links: &[LinkConfig]) -> bool {
        use crate::queue::QueueKind;
        scenario.traces.is_empty()
            && scenario.run.routing != crate::scenario::Routing::Ecmp
            && links.iter().all(|l| {
                !matches!(
                    l.queue.kind(),
                    None | Some(QueueKind::FqCoDel) | Some(QueueKind::FqPie)
                )
            })
            && !scenario.flows.iter().any(|f| {
                f.tcp
                    .as_ref()
                    .is_some_and(|t| matches!(t.cc, crate::tcp::cc::CcConfig::External(_)))
            })
    }

    /// The generation a timer event of flow `f` carries.
    #[inline(always)]
    pub fn generation(&self, f: FlowId) -> u16 {
        self.generation.get(f.idx()).copied().unwrap_or(0)
    }

    /// Whether a timer event of flow `f` carrying generation `g` is its own: not one of an
    /// earlier connection in the same slot.
    #[inline(always)]
    pub fn current(&self, f: FlowId, g: u16) -> bool {
        self.generation.get(f.idx()).is_none_or(|&now| now == g)
    }

    /// A flow's freed Tmix halves' counters to add to scenario flow `i`'s, if any.
    pub fn closed(&self, i: usize) -> Option<&FlowCounters> {
        self.closed.get(i)
    }

    /// Its freed Tmix halves' flow monitors (data, ACKs), if any.
    pub fn closed_monitor(&self, i: usize) -> Option<&[FlowMonitor; 2]> {
        self.closed_monitor.get(i)
    }
}

/// A Tmix half-connection's flow entry without endpoints (`Agent::Idle`).
pub(super) fn idle_half(conn: u32, side: u8) -> Flow {
    Flow {
        agent: Agent::Idle,
        start: SimTime(u64::MAX),
        rto_event: LazyTimer::default(),
        delack_event: LazyTimer::default(),
        pace_event: LazyTimer::default(),
        trace: TraceMask::from_names(&[]).expect("empty"),
        traced: [f64::NAN; 10],
        rto_held: None,
        role: Role::TmixHalf(conn, side),
        delay: None,
        writer: None,
    }
}

/// Adds a half-connection's counters to its application's, but for the delivered bytes
/// (the application counts the ADU bytes delivered itself; the halves' sinks do not).
pub(super) fn add_half(to: &mut FlowCounters, half: &FlowCounters) {
    let delivered = to.bytes_delivered;
    *to = *to + *half;
    to.bytes_delivered = delivered;
}

/// What building a Tmix application's endpoints needs, kept from the scenario.
#[derive(Debug)]
pub(super) struct TmixApp {
    /// The application's flow name (it names the delay lines' random streams).
    pub name: String,
    pub initiator: NodeId,
    pub acceptor: NodeId,
    /// The flow's TCP parameters for each half (the initiator's opens with the SYN), its
    /// loss recovery, and its congestion control as built for the application: each
    /// endpoint starts from a copy.
    pub params: [TcpParams; 2],
    pub recovery: Recovery,
    pub cc: AnyCc,
    pub path_rtt: SimDuration,
    /// Index of the application's first connection in `Simulator::tmix`.
    pub first: u32,
    /// Its connection vectors (moved out of the scenario by the build): connection `c`'s is
    /// `c - first`.
    pub vectors: TmixVectors,
    /// Connections close as ns-2.35's Tmix closes them, this long after the last write
    /// (`AppConfig::Tmix::fin_wait_ps`, `traffic/tmix/`); None: at the last delivery.
    pub fin_wait: Option<SimDuration>,
}

impl TmixApp {
    /// Checks once what building each endpoint would otherwise report at a connection's start.
    pub fn new(
        i: usize,
        name: &str,
        nodes: (NodeId, NodeId),
        t: &TcpConfig,
        path_rtt: SimDuration,
        first: u32,
        fin_wait: Option<SimDuration>,
    ) -> Result<TmixApp, String> {
        let half = |side: usize| {
            let mut cfg = t.clone();
            cfg.syn = t.syn && side == 0;
            // Tmix runs on ns-2's FullTcp, whose output() has no bare segment 0.
            cfg.bare_first_segment = false;
            cfg
        };
        // The halves differ in nothing congestion control reads.
        let cc = t
            .congestion_control()
            .map_err(|e| format!("flow[{i}].{e}"))?;
        Ok(TmixApp {
            name: name.to_string(),
            initiator: nodes.0,
            acceptor: nodes.1,
            params: [half(0).params(), half(1).params()],
            recovery: t.variant,
            cc,
            path_rtt,
            first,
            vectors: TmixVectors::default(),
            fin_wait,
        })
    }

    /// Connection `c`'s vector (`c` one of this application's).
    pub fn vector(&self, c: u32) -> Vector<'_> {
        Vector::of(&self.vectors, (c - self.first) as usize)
    }

    /// The ends of half `side`: the node its data leaves from, and the one it goes to.
    pub fn ends(&self, side: usize) -> (NodeId, NodeId) {
        if side == 0 {
            (self.initiator, self.acceptor)
        } else {
            (self.acceptor, self.initiator)
        }
    }
}

impl Kind for TmixHalf {
    /// Counted in the network from now on; through the connection's delay line if it has one.
    #[inline(never)]
    fn send(self, sim: &mut Simulator, r: PacketRef, _later: &[PacketRef]) {
        let (src, c) = sim.enter(r);
        let f = c.flow.idx();
        sim.tmix_in_flight[f] += 1;
        if sim.flows[f].delay.is_some() {
            let p = sim.pool.take(r);
            sim.delay_packet(p);
        } else {
            sim.forward_carried(src, c);
        }
    }

    /// The half's TCP agent takes it as a one-way flow's would; then the connection's
    /// bookkeeping.
    #[inline(never)]
    fn receive(self, sim: &mut Simulator, pkt: &Packet) {
        sim.deliver(pkt);
        sim.tmix_receive(pkt, pkt.flow.idx(), self.conn, self.side);
    }

    /// Out of the network: the connection's endpoints may be freed.
    #[inline(never)]
    fn dropped(self, sim: &mut Simulator, pkt: &Packet) {
        sim.tmix_in_flight[pkt.flow.idx()] -= 1;
        sim.close_tmix_endpoints_if_quiet(self.conn);
    }

    /// A half-connection has no application of its own: its connection writes into it
    /// (`tmix_act`), started by its Tmix application's flow.
    fn start(self, _sim: &mut Simulator, _f: FlowId) {}

    fn stop(self, _sim: &mut Simulator, _f: FlowId) {}
}

impl Simulator {
    /// Gives connection `c` (of Tmix application `app`) a free pair of its application's
    /// slots, or two new ones: idle flow entries, their counters and monitors at zero.
    fn take_tmix_slots(&mut self, c: u32, app: usize) -> [FlowId; 2] {
        let h = match self.tmix_slots.free[app].pop() {
            Some(h) => {
                for side in 0..2u8 {
                    let f = h as usize + side as usize;
                    self.flows[f] = idle_half(c, side);
                    if let Some(t) = self.ns2_timers.get_mut(f) {
                        *t = ns2_clock::Ns2Timers::default();
                    }
                    let g = &mut self.tmix_slots.generation[f];
                    *g = g.wrapping_add(1);
                }
                h
            }
            None => {
                let h = self.flows.len() as u32;
                for side in 0..2u8 {
                    flow_table::push_flow(
                        &mut self.flows,
                        &mut self.counters,
                        &mut self.monitor,
                        idle_half(c, side),
                    );
                    self.tmix_in_flight.push(0);
                    self.tmix_slots.generation.push(0);
                    if self.ns2_clock {
                        self.ns2_timers.push(ns2_clock::Ns2Timers::default());
                    }
                }
                let n = self.flows.len();
                for l in &mut self.links {
                    if let Some(m) = l.flow_monitor.as_mut() {
                        m.resize(n, FlowQueueCounters::default());
                    }
                }
                h
            }
        };
        [FlowId(h), FlowId(h + 1)]
    }

    /// Connection `c`'s endpoints were freed: what its halves counted goes to its
    /// application's totals, and the slots to its free list.
    fn release_tmix_slots(&mut self, c: u32, halves: [FlowId; 2]) {
        let parent = self.tmix[c as usize].parent.idx();
        let now = self.now;
        for h in halves {
            let f = h.idx();
            let counters = &mut self.counters[f];
            let held = &mut self.flows[f].rto_held;
            flush_rto(held, now, counters);
            if let Some((since, value)) = held.take() {
                let l = &mut self.tmix_slots.linger[parent];
                l.values = l.values.wrapping_add(value as u128);
                l.weighted = l
                    .weighted
                    .wrapping_add((since.0 as u128).wrapping_mul(value as u128));
                l.count += 1;
                l.since = l.since.wrapping_add(since.0 as u128);
            }
            add_half(&mut self.tmix_slots.closed[parent], counters);
            *counters = FlowCounters::default();
            for d in 0..2 {
                let m = std::mem::take(&mut self.monitor[2 * f + d]);
                self.tmix_slots.closed_monitor[parent][d].merge(&m);
            }
            if let Some(checker) = self.checker.as_mut() {
                checker.forget_flow(f);
            }
        }
        let app = self.tmix_app_of[parent] as usize;
        self.tmix_slots.free[app].push(halves[0].0);
    }

    /// The freed half-connections' RTOs, added up to now (with every flow's, at the warm-up
    /// and the end: `integrate_rtos`).
    pub(super) fn flush_tmix_lingering_rtos(&mut self) {
        let t = self.now.0 as u128;
        let slots = &mut self.tmix_slots;
        for (l, closed) in slots.linger.iter_mut().zip(&mut slots.closed) {
            if l.count == 0 {
                continue;
            }
            let area = t.wrapping_mul(l.values).wrapping_sub(l.weighted);
            let time = t.wrapping_mul(l.count).wrapping_sub(l.since);
            closed.rto_area = closed.rto_area.wrapping_add(area);
            closed.rto_time_ps = closed.rto_time_ps.wrapping_add(time as u64);
            l.weighted = t.wrapping_mul(l.values);
            l.since = t.wrapping_mul(l.count);
        }
    }

    /// The flow entries the run holds: the scenario's flows, two-way connections' and Tmix
    /// half-connections' slots (two per connection unless they are reused: see above).
    pub fn flow_entries(&self) -> usize {
        self.flows.len()
    }

    /// Builds connection `c`'s two endpoints (and delay lines), as it starts.
    pub(super) fn open_tmix_endpoints(&mut self, c: u32) {
        if self.tmix_slots.reuse {
            let app = self.tmix_app_of[self.tmix[c as usize].parent.idx()] as usize;
            let halves = self.take_tmix_slots(c, app);
            self.tmix[c as usize].halves = halves;
        }
        let conn = &self.tmix[c as usize];
        let app = &self.tmix_apps[self.tmix_app_of[conn.parent.idx()] as usize];
        let j = c - app.first;
        let v = &app.vectors;
        let (window, rtt_ps, loss) = (
            v.window(j as usize),
            v.rtt_ps(j as usize),
            v.loss(j as usize),
        );
        for side in 0..2 {
            let id = conn.halves[side];
            let (a, b) = app.ends(side);
            let cc = app.cc.clone();
            // The vector's window for this side, in whole segments as ns-2.35's
            // `ConnVector::set_init_win` divides it (at least one: a window of none would
            // never send, where ns-2's FullTcp would hang).
            // Under ns-2.35's Tmix (a FIN wait), a CONC acceptor with data opens actively too:
            // both sides' SYNs cross (`traffic/tmix/`, `TmixApp::start`).
            let opens = side == 1
                && app.fin_wait.is_some()
                && app.params[0].syn
                && v.concurrent(j as usize)
                && v.adus(j as usize).side.contains(&1);
            let sized;
            let params = match (window[side], opens) {
                (0, false) => &app.params[side],
                (w, _) => {
                    let mut p = app.params[side].clone();
                    if w > 0 {
                        p.window = (w / p.packet_size.max(1)).max(1);
                    }
                    p.syn |= opens;
                    sized = p;
                    &sized
                }
            };
            let sender = Box::new(TcpSender::new(id, a, b, params, app.recovery, cc));
            let mut sink = Box::new(TcpSink::new(id, b, a, params));
            sink.set_transfer(0); // the connection counts ADU bytes itself
            let extra = rtt_ps.saturating_sub(app.path_rtt.0) / 2;
            let delay = (extra > 0 || loss.iter().any(|&x| x > 0.0)).then(|| {
                let stream = format!("flow.{}.tmix.{j}.{side}", app.name);
                Box::new(DelayLine::new(
                    SimDuration(extra),
                    [loss[side], loss[1 - side]],
                    RandomStream::named(self.scenario.run.seed, &stream),
                ))
            });
            let flow: &mut Flow = &mut self.flows[id.idx()];
            flow.agent = Agent::Tcp { sender, sink };
            flow.delay = delay;
        }
    }

    /// Frees connection `c`'s endpoints if it is closed and nothing can reach them again.
    pub(super) fn close_tmix_endpoints_if_quiet(&mut self, c: u32) {
        let conn = &self.tmix[c as usize];
        if conn.finished_at().is_none() {
            return;
        }
        let halves = conn.halves;
        for h in halves {
            if self.tmix_in_flight[h.idx()] != 0 {
                return;
            }
            let Agent::Tcp { sender, sink } = &self.flows[h.idx()].agent else {
                return;
            };
            if sender.rto_deadline().is_some()
                || sender.pace_deadline().is_some()
                || sink.deadline().is_some()
            {
                return;
            }
        }
        for h in halves {
            let flow = &mut self.flows[h.idx()];
            flow.agent = Agent::Idle;
            flow.delay = None;
        }
        if self.tmix_slots.reuse {
            self.release_tmix_slots(c, halves);
        }
    }

    #[inline(never)]
    pub(super) fn on_tmix_start(&mut self, c: u32) {
        if let Some((at, seq, next)) = self.tmix_next_start[c as usize].take() {
            self.queue
                .push_timer_reserved(at, seq, Event::TmixStart(next));
        }
        self.open_tmix_endpoints(c);
        let mut acts = std::mem::take(&mut self.tmix_acts);
        let conn = &mut self.tmix[c as usize];
        let app = &self.tmix_apps[self.tmix_app_of[conn.parent.idx()] as usize];
        // A SEQ vector's trailing `t` is its own closing wait where the application closes as
        // ns-2.35's Tmix (`Tmix::read_one_cvec`: in place of `fin_time_`).
        let own = app.vectors.fin_wait_ps((c - app.first) as usize);
        let fin_wait = app.fin_wait.map(|w| own.map_or(w, SimDuration));
        conn.start(self.now, app.vector(c), fin_wait, &mut acts);
        self.tmix_act(c, acts);
    }

    #[inline(never)]
    pub(super) fn on_tmix_wake(&mut self, c: u32, side: u8) {
        let mut acts = std::mem::take(&mut self.tmix_acts);
        let conn = &mut self.tmix[c as usize];
        let app = &self.tmix_apps[self.tmix_app_of[conn.parent.idx()] as usize];
        conn.wake(self.now, side as usize, app.vector(c), &mut acts);
        self.tmix_act(c, acts);
    }

    /// Puts a Tmix connection's packet into its delay line.
    #[inline(never)]
    pub(super) fn delay_packet(&mut self, p: Packet) {
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
    pub(super) fn on_release(&mut self, f: FlowId) {
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
    pub(super) fn tmix_act(&mut self, c: u32, mut acts: Vec<TmixAction>) {
        let now = self.now;
        for act in acts.drain(..) {
            match act {
                TmixAction::Wake { side, at } => {
                    self.queue.push_timer(at, Event::TmixWake(c, side as u8));
                }
                TmixAction::Write { side, bytes, tag } => {
                    let half = self.tmix[c as usize].halves[side];
                    let mut sent = std::mem::take(&mut self.sent_refs);
                    let mut out = PoolOut {
                        pool: &mut self.pool,
                        sent: &mut sent,
                    };
                    let Agent::Tcp { sender, .. } = &mut self.flows[half.idx()].agent else {
                        unreachable!("a Tmix half-connection is TCP");
                    };
                    let end = sender.push_adu(bytes);
                    sender.resume(now, &mut out, &mut self.counters[half.idx()]);
                    self.tmix[c as usize].wrote(side, end, tag);
                    self.send_pooled(sent);
                    self.sync_timers(half);
                }
            }
        }
        self.tmix_acts = acts;
    }

    /// A packet of half-connection `f` (connection `c`, side `side`) has reached its agent:
    /// it has left the network, and the data it delivered may let the connection move on.
    fn tmix_receive(&mut self, pkt: &Packet, f: usize, c: u32, side: u8) {
        self.tmix_in_flight[f] -= 1;
        if pkt.kind == PacketKind::TcpData {
            let parent = self.tmix[c as usize].parent.idx();
            self.tmix_received_bytes[parent] += pkt.size as u64;
            self.tmix_received(c, side as usize, f);
        }
        self.close_tmix_endpoints_if_quiet(c);
    }

    #[inline(never)]
    pub(super) fn tmix_received(&mut self, c: u32, side: usize, f: usize) {
        let Agent::Tcp { sink, .. } = &self.flows[f].agent else {
            return;
        };
        let rcv_nxt = sink.rcv_nxt;
        let mut acts = std::mem::take(&mut self.tmix_acts);
        let conn = &mut self.tmix[c as usize];
        let before = conn.delivered[side];
        let app = &self.tmix_apps[self.tmix_app_of[conn.parent.idx()] as usize];
        conn.received(self.now, side, rcv_nxt, app.vector(c), &mut acts);
        let gained = conn.delivered[side] - before;
        self.counters[conn.parent.idx()].bytes_delivered += gained;
        self.tmix_act(c, acts);
    }
}
