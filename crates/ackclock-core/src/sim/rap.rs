//! RAP flows (`crate::rap`): their start and stop, timers, and the data packets and ACKs
//! between the two ends. An ACK's receiver state travels in the flow's agent, keyed by the
//! sequence number it acknowledges (`RapConn::acks`).

use super::*;
use crate::packet::SackBlocks;
use crate::packet_pool::Outgoing;
use crate::rap::{Actions, RapTimer};

/// What happens to a RAP flow.
pub(super) enum Action<'a> {
    Start,
    Stop,
    /// A timer's event ([`RapTimer`] as u8).
    Timer(u8),
    /// A data packet reaches the receiver, or an ACK the source.
    Packet(&'a Packet),
}

impl Simulator {
    pub(super) fn on_rap(&mut self, f: FlowId, action: Action<'_>) {
        let now = self.now;
        // ns-2's own double clock under the ns2 profile (as TFRC's, `sim/tfrc.rs`).
        let ns2 = self.ns2_clock;
        let uid = self.pool.ns2_now.1;
        let t = self.now2();
        let i = f.idx();
        let mut first = self.rap_first_sample;
        let Agent::Rap(conn) = &mut self.flows[i].agent else {
            return;
        };
        let c = &mut self.counters[i];
        let mut acts = Actions::default();
        let mut ack = None;
        match action {
            Action::Start => {
                if conn.sender.is_stopped() {
                    acts = conn.sender.start(t);
                }
            }
            Action::Stop => {
                conn.sender.stop();
                conn.deadlines = [None; 2];
            }
            Action::Timer(k) => {
                let k = k as usize;
                if conn.deadlines[k] != Some(now) || (ns2 && conn.ns2_uids[k] != uid) {
                    return; // cancelled or moved
                }
                conn.deadlines[k] = None;
                acts = if k == RapTimer::Ipg as usize {
                    conn.sender.on_ipg_timer(t)
                } else {
                    conn.sender.on_rtt_timer()
                };
            }
            Action::Packet(pkt) if pkt.kind == PacketKind::Udp => {
                self.packets_delivered += 1;
                c.packets_received += 1;
                c.bytes_received += pkt.size as u64;
                c.bytes_delivered += pkt.size as u64;
                ack = Some(conn.sink.on_data(pkt.seq as i64));
            }
            Action::Packet(pkt) => {
                if let Some(h) = conn.acks.take(pkt.seq, |h| h.seq as u64) {
                    acts = conn.sender.on_ack(t, &h, &mut first);
                }
            }
        }
        self.rap_first_sample = first;
        // ns-2's order: the RTT timer set (RttTimeout, LossHandler), the packet sent, the
        // IPG timer set after it (IpgTimeout).
        if let Some(s) = acts.rtt_timer {
            self.rap_arm(f, RapTimer::Rtt, now, t, s);
        }
        let Agent::Rap(conn) = &mut self.flows[i].agent else {
            return;
        };
        let c = &mut self.counters[i];
        let mut sent = std::mem::take(&mut self.sent_refs);
        let mut out = PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        };
        if let Some(seq) = acts.send {
            let size = conn.sender.cfg.packet_size;
            c.packets_sent += 1;
            c.bytes_sent += size as u64;
            out.push(Packet {
                id: 0,
                flow: f,
                kind: PacketKind::Udp,
                flags: 0,
                src: conn.src,
                dst: conn.dst,
                size,
                seq: seq as u64,
                ack: 0,
                sent_at: now,
                ts_echo: SimTime::ZERO,
                retransmit: false,
                sack: SackBlocks::NONE,
                nth: c.packets_sent as u32,
                rwnd: 0,
                ecn: 0,
            });
        }
        if let Some(h) = ack {
            c.acks_sent += 1;
            out.push(Packet {
                id: 0,
                flow: f,
                kind: PacketKind::TcpAck,
                flags: 0,
                src: conn.dst,
                dst: conn.src,
                size: conn.sender.cfg.ack_size,
                seq: h.seq as u64,
                // The trace shows `ack - 1`: the sequence number acknowledged.
                ack: (h.seq + 1) as u64,
                sent_at: now,
                ts_echo: SimTime::ZERO,
                retransmit: false,
                sack: SackBlocks::NONE,
                nth: 0,
                rwnd: 0,
                ecn: 0,
            });
            conn.acks.push(h);
        }
        self.send_pooled(sent);
        if let Some(gap) = acts.ipg_timer {
            let Agent::Rap(conn) = &mut self.flows[i].agent else {
                return;
            };
            let s = conn.ipg_delay(gap);
            self.rap_arm(f, RapTimer::Ipg, now, t, s);
        }
    }

    /// Sets RAP timer `k` of flow `f` `s` seconds from `now` (`t` in ns-2's clock):
    /// `TimerHandler::resched`, a new event (under the ns2 profile at ns-2's double sum and
    /// with the next scheduling order; only the latest fires).
    fn rap_arm(&mut self, f: FlowId, k: RapTimer, now: SimTime, t: f64, s: f64) {
        let k = k as usize;
        let at = if self.ns2_clock {
            crate::sched::ns2_ps(t + s).max(now)
        } else {
            now + SimDuration::from_secs_f64(s)
        };
        if self.ns2_clock {
            let uid = self.queue.reserve(1);
            if let Agent::Rap(conn) = &mut self.flows[f.idx()].agent {
                conn.deadlines[k] = Some(at);
                // As `sched::ns2_unkey` gives it back when the event runs.
                conn.ns2_uids[k] = uid & ((1 << crate::sched::NS2_UID_BITS) - 1);
            }
            let seq = crate::sched::ns2_key(at, t + s, uid);
            self.queue.push_keyed(at, seq, Event::Rap(f, k as u8));
        } else {
            if let Agent::Rap(conn) = &mut self.flows[f.idx()].agent {
                if conn.deadlines[k] == Some(at) {
                    return;
                }
                conn.deadlines[k] = Some(at);
            }
            self.queue.push_timer(at, Event::Rap(f, k as u8));
        }
    }

    /// Flow `f`'s RAP source's `seqno_`, `sessionLossCount_`, `ipg_`, `srtt_` and
    /// `timeout_`; None for other flows.
    pub fn rap_vars(&self, f: usize) -> Option<[f64; 5]> {
        let Agent::Rap(conn) = &self.flows.get(f)?.agent else {
            return None;
        };
        Some(conn.sender.vars())
    }
}
