//! One-way flows: the agent (TCP sender and sink, UDP source and null sink, TFRC, a Tmix
//! application) is the whole story. Their packets enter the network as they are and reach
//! their agent as they are; the one-way agents' code is written (and inlined) once, in
//! [`Simulator::deliver`], which a Tmix half-connection uses too. This file is a child module
//! of `sim`.

use super::flow::{Kind, OneWay, Role};
use super::{tfrc, Agent, FlowIdx, Simulator};
use crate::ids::FlowId;
use crate::packet::{tcp_flags, Packet, PacketKind};
use crate::packet_pool::{PacketRef, PoolOut};
use crate::traffic::null_sink_receive;

impl OneWay {
    /// [`Kind::send`] of a packet of flow `f`.
    #[inline(always)]
    pub(super) fn send_at(self, sim: &mut Simulator, r: PacketRef, f: FlowIdx) {
        let (src, c) = sim.enter_at(r, f);
        sim.forward_carried(src, c);
    }
}

impl Kind for OneWay {
    #[inline(always)]
    fn send(self, sim: &mut Simulator, r: PacketRef, _later: &[PacketRef]) {
        let f = sim.flows.idx(sim.pool.get(r).flow);
        self.send_at(sim, r, f);
    }

    #[inline(always)]
    fn receive(self, sim: &mut Simulator, pkt: &Packet) {
        sim.deliver(pkt);
    }

    #[inline(always)]
    fn dropped(self, _sim: &mut Simulator, _pkt: &Packet) {}

    fn start(self, sim: &mut Simulator, f: FlowId) {
        sim.one_way_start(f);
    }

    fn stop(self, sim: &mut Simulator, f: FlowId) {
        sim.one_way_stop(f);
    }
}

/// A one-way flow with an endpoint detached from its node during the run (ns-2's `$ns
/// detach-agent`, Node instproc detach in tcl/lib/ns-node.tcl): the endpoint's port and its
/// target become the null agent, so what it sends goes nowhere and what reaches it is dropped
/// there, untraced, while the endpoint itself (its timers, its application) runs on. The
/// other endpoint and the packets already in the network are untouched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Detached {
    /// [`Detached::SENDER`] and/or [`Detached::RECEIVER`].
    pub(super) ends: u8,
}

impl Detached {
    pub(super) const SENDER: u8 = 1;
    pub(super) const RECEIVER: u8 = 2;

    /// The endpoint that sends packets of `kind`: the sender its data, the receiver its ACKs.
    fn from_end(kind: PacketKind) -> u8 {
        match kind {
            PacketKind::TcpAck => Detached::RECEIVER,
            PacketKind::TcpData | PacketKind::Udp => Detached::SENDER,
        }
    }
}

impl Kind for Detached {
    fn send(self, sim: &mut Simulator, r: PacketRef, later: &[PacketRef]) {
        if self.ends & Detached::from_end(sim.pool.get(r).kind) != 0 {
            // To the null agent, with the uid ns-2's Agent::allocpkt gave it.
            sim.next_packet_id += 1;
            sim.pool.take(r);
        } else {
            OneWay.send(sim, r, later);
        }
    }

    fn receive(self, sim: &mut Simulator, pkt: &Packet) {
        // The packet's destination is the end that did not send it.
        let to = Detached::SENDER | Detached::RECEIVER;
        if self.ends & (to & !Detached::from_end(pkt.kind)) == 0 {
            OneWay.receive(sim, pkt);
        }
    }

    fn dropped(self, _sim: &mut Simulator, _pkt: &Packet) {}

    fn start(self, sim: &mut Simulator, f: FlowId) {
        sim.one_way_start(f);
    }

    fn stop(self, sim: &mut Simulator, f: FlowId) {
        sim.one_way_stop(f);
    }
}

impl Simulator {
    /// Detaches the sender (or the receiver) of one-way flow `f` from its node from now on
    /// ([`Detached`]).
    pub fn detach_endpoint(&mut self, f: usize, sender: bool) -> Result<(), String> {
        let flow = self
            .flows
            .get_mut(f)
            .ok_or_else(|| format!("no flow {f}"))?;
        let end = if sender {
            Detached::SENDER
        } else {
            Detached::RECEIVER
        };
        flow.role = match flow.role {
            Role::Own if !matches!(flow.agent, Agent::Tfrc(_) | Agent::Rap(_)) => {
                Role::Detached(end)
            }
            Role::Detached(ends) => Role::Detached(ends | end),
            _ => return Err(format!("flow {f} is not a one-way TCP or UDP flow")),
        };
        Ok(())
    }

    /// Hands an arriving packet to its flow's own agent, sends what the agent answers and
    /// brings the flow's timers up to date.
    #[inline(always)]
    pub(super) fn deliver(&mut self, pkt: &Packet) {
        let f = self.flows.idx(pkt.flow);
        self.deliver_at(pkt, f);
    }

    /// [`Simulator::deliver`] of a packet of flow `fi`.
    #[inline(always)]
    pub(super) fn deliver_at(&mut self, pkt: &Packet, fi: FlowIdx) {
        let f = fi.id().idx();
        let mut sent = std::mem::take(&mut self.sent_refs);
        let mut out = PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        };
        let c = self.counters.at(fi);
        let mut events = false;
        let mut opened = false;
        match (&mut self.flows.at(fi).agent, pkt.kind) {
            (Agent::Tcp { sink, .. }, PacketKind::TcpData) => {
                self.packets_delivered += 1;
                // The handshake's empty third segment (`handshake_ack`, the only one-way data
                // packet with the ACK flag) completes the connection; it holds no data.
                if pkt.flags & tcp_flags::ACK == 0 {
                    sink.on_data(self.now, pkt, &mut out, c);
                } else {
                    c.packets_received += 1;
                }
            }
            (Agent::Tcp { sender, .. }, PacketKind::TcpAck) => {
                let opening = sender.seqs().0 == 0;
                sender.on_ack(self.now, pkt, &mut out, c);
                events = sender.has_events();
                opened = opening && sender.seqs().0 > 0;
            }
            (Agent::Udp { source }, PacketKind::Udp) => {
                self.packets_delivered += 1;
                null_sink_receive(pkt, source.header(), c);
                self.loss_monitor_recv(f, pkt.seq);
            }
            (Agent::Tfrc(_), _) => {
                self.sent_refs = sent;
                self.on_tfrc(pkt.flow, tfrc::Action::Packet(pkt));
                return;
            }
            (Agent::Rap(_), _) => {
                self.sent_refs = sent;
                self.on_rap(pkt.flow, super::rap::Action::Packet(pkt));
                return;
            }
            _ => unreachable!("packet kind does not match its flow"),
        }
        if events {
            // ns-2's E lines (`$ns eventtrace-all`), before the packets the ACK sends.
            self.agent_events(pkt.flow);
        }
        self.send_pooled(sent);
        if opened {
            self.writer_connected(pkt.flow);
        }
        match pkt.kind {
            PacketKind::TcpAck => self.sync_timers_at(fi),
            PacketKind::TcpData => self.sync_delack(fi),
            PacketKind::Udp => {}
        }
    }

    /// [`Simulator::sync_timers`] after a data segment reached its sink: only the sink has
    /// acted, so of the flow's timers only the delayed ACK can have moved (the sender's
    /// retransmission and pacing deadlines, its RTO and its traced variables are as the last
    /// `sync_timers` left them: every event that changes the sender syncs it).
    #[inline(always)]
    fn sync_delack(&mut self, fi: FlowIdx) {
        let f = fi.id();
        if self.ns2_clock {
            // ns-2's time and order for the delayed-ACK timer (`sim/ns2_clock.rs`).
            self.ns2_sync_timers(f);
            return;
        }
        let flow = self.flows.at(fi);
        let Agent::Tcp { sink, .. } = &flow.agent else {
            return;
        };
        if let Some(t) = flow.delack_event.needs_event(sink.deadline()) {
            self.queue
                .push_timer(t, super::Event::DelAck(f, self.tmix_slots.generation(f)));
        }
    }
}
