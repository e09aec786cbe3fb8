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

use super::flow::TmixHalf;
use super::*;
use crate::ids::NodeId;
use crate::rng::RandomStream;
use crate::scenario::TcpConfig;
use crate::tcp::cc::AnyCc;
use crate::tcp::sender::Recovery;
use crate::tcp::{TcpParams, TcpSender, TcpSink};
use crate::time::SimDuration;
use crate::traffic::tmix::DelayLine;

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
        })
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
    /// Builds connection `c`'s two endpoints (and delay lines), as it starts.
    pub(super) fn open_tmix_endpoints(&mut self, c: u32) {
        let conn = &self.tmix[c as usize];
        let app = &self.tmix_apps[self.tmix_app_of[conn.parent.idx()] as usize];
        let j = c - app.first;
        for side in 0..2 {
            let id = conn.halves[side];
            let (a, b) = app.ends(side);
            let cc = app.cc.clone();
            // The vector's window for this side, in whole segments as ns-2.35's
            // `ConnVector::set_init_win` divides it (at least one: a window of none would
            // never send, where ns-2's FullTcp would hang).
            let sized;
            let params = match conn.cfg.window[side] {
                0 => &app.params[side],
                w => {
                    let mut p = app.params[side].clone();
                    p.window = (w / p.packet_size.max(1)).max(1);
                    sized = p;
                    &sized
                }
            };
            let sender = Box::new(TcpSender::new(id, a, b, params, app.recovery, cc));
            let mut sink = Box::new(TcpSink::new(id, b, a, params));
            sink.set_transfer(0); // the connection counts ADU bytes itself
            let extra = conn.cfg.rtt_ps.saturating_sub(app.path_rtt.0) / 2;
            let loss = conn.cfg.loss;
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
        if conn.finished_at.is_none() {
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
    }

    #[inline(never)]
    pub(super) fn on_tmix_start(&mut self, c: u32) {
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
    pub(super) fn on_tmix_wake(&mut self, c: u32, side: u8) {
        let mut acts = std::mem::take(&mut self.tmix_acts);
        self.tmix[c as usize].wake(self.now, side as usize, &mut acts);
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
        conn.received(self.now, side, rcv_nxt, &mut acts);
        let gained = conn.delivered[side] - before;
        self.counters[conn.parent.idx()].bytes_delivered += gained;
        self.tmix_act(c, acts);
    }
}
