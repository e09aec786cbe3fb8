//! One-way flows: the agent (TCP sender and sink, UDP source and null sink, TFRC, a Tmix
//! application) is the whole story. Their packets enter the network as they are and reach
//! their agent as they are; the one-way agents' code is written (and inlined) once, in
//! [`Simulator::deliver`], which a Tmix half-connection uses too. This file is a child module
//! of `sim`.

use super::flow::{Kind, OneWay};
use super::{tfrc, Agent, Simulator};
use crate::ids::FlowId;
use crate::packet::{Packet, PacketKind};
use crate::packet_pool::{PacketRef, PoolOut};
use crate::traffic::null_sink_receive;

impl Kind for OneWay {
    #[inline(always)]
    fn send(self, sim: &mut Simulator, r: PacketRef, _later: &[PacketRef]) {
        let (src, c) = sim.enter(r);
        sim.forward_carried(src, c);
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

impl Simulator {
    /// Hands an arriving packet to its flow's own agent, sends what the agent answers and
    /// brings the flow's timers up to date.
    #[inline(always)]
    pub(super) fn deliver(&mut self, pkt: &Packet) {
        let f = pkt.flow.idx();
        let mut sent = std::mem::take(&mut self.sent_refs);
        let mut out = PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        };
        let c = &mut self.counters[f];
        match (&mut self.flows[f].agent, pkt.kind) {
            (Agent::Tcp { sink, .. }, PacketKind::TcpData) => {
                self.packets_delivered += 1;
                sink.on_data(self.now, pkt, &mut out, c);
            }
            (Agent::Tcp { sender, .. }, PacketKind::TcpAck) => {
                sender.on_ack(self.now, pkt, &mut out, c);
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
            _ => unreachable!("packet kind does not match its flow"),
        }
        self.send_pooled(sent);
        match pkt.kind {
            PacketKind::TcpAck => self.sync_timers(pkt.flow),
            PacketKind::TcpData => self.sync_delack(pkt.flow),
            PacketKind::Udp => {}
        }
    }

    /// [`Simulator::sync_timers`] after a data segment reached its sink: only the sink has
    /// acted, so of the flow's timers only the delayed ACK can have moved (the sender's
    /// retransmission and pacing deadlines, its RTO and its traced variables are as the last
    /// `sync_timers` left them: every event that changes the sender syncs it).
    #[inline(always)]
    fn sync_delack(&mut self, f: FlowId) {
        if self.ns2_clock {
            // ns-2's time and order for the delayed-ACK timer (`sim/ns2_clock.rs`).
            self.ns2_sync_timers(f);
            return;
        }
        let flow = &mut self.flows[f.idx()];
        let Agent::Tcp { sink, .. } = &flow.agent else {
            return;
        };
        if let Some(t) = flow.delack_event.needs_event(sink.deadline()) {
            self.queue.push_timer(t, super::Event::DelAck(f));
        }
    }
}
