//! TFRC flows (`crate::tfrc`): their start and stop, timers, and the data and feedback
//! packets between the two ends. The header fields a packet does not carry travel in the
//! flow's agent, keyed by sequence number (`tfrc::InFlight`).

use super::*;
use crate::packet::SackBlocks;
use crate::packet_pool::Outgoing;
use crate::tfrc::sender::{DataOut, TimerOp};
use crate::tfrc::sink::Report;
use crate::tfrc::TfrcTimer;

/// What happens to a TFRC flow.
pub(super) enum Action<'a> {
    /// The application starts: an endless sender starts (`TfrcAgent::start`), one of a given
    /// size gets its data (`TfrcAgent::sendmsg`).
    Start,
    Stop,
    /// The application hands over this many more packets (-1: endless).
    Advance(i64),
    /// A timer's event ([`TfrcTimer`] as u8).
    Timer(u8),
    /// A data packet reaches the receiver, or a feedback packet the sender.
    Packet(&'a Packet),
}

impl Simulator {
    pub(super) fn on_tfrc(&mut self, f: FlowId, action: Action<'_>) {
        let now = self.now;
        // ns-2's own double clock under the ns2 profile: the TFRC rules compare times and
        // RTTs in doubles, and ties between them fall as ns-2's arithmetic makes them.
        let ns2 = self.ns2_clock;
        let uid = self.pool.ns2_now.1;
        let t = self.now2();
        let i = f.idx();
        let Agent::Tfrc(conn) = &mut self.flows[i].agent else {
            return;
        };
        let c = &mut self.counters[i];
        let mut data: Option<DataOut> = None;
        let mut report: Option<Report> = None;
        match action {
            Action::Start => {
                // ns-2: `start` on an endless sender, an FTP's `send -1` otherwise, whose
                // first data starts the sender (TfrcAgent::advanceby).
                data = match conn.limit {
                    Some(bytes) => conn.sender.write(t, bytes),
                    None => conn.sender.advance(t, -1),
                }
            }
            Action::Stop => conn.sender.stop(),
            Action::Advance(n) => data = conn.sender.advance(t, n),
            Action::Timer(k) => {
                let k = k as usize;
                if conn.deadlines[k] != Some(now) || (ns2 && conn.ns2_uids[k] != uid) {
                    return; // cancelled or moved
                }
                conn.deadlines[k] = None;
                match TfrcTimer::from_u8(k as u8) {
                    TfrcTimer::Send => data = conn.sender.nextpkt(t),
                    TfrcTimer::NoFeedback => data = conn.sender.on_no_feedback(t),
                    TfrcTimer::Report => report = conn.sink.on_timer(t),
                }
            }
            Action::Packet(pkt) if pkt.kind == PacketKind::Udp => {
                self.packets_delivered += 1;
                c.packets_received += 1;
                c.bytes_received += pkt.size as u64;
                c.bytes_delivered += conn.sender.cfg.packet_size as u64;
                let hdr = conn.data.take(pkt.seq, |h| h.seq);
                report = conn.sink.on_data(t, pkt, hdr.as_ref());
            }
            Action::Packet(pkt) => {
                if let Some(fb) = conn.feedback.take(pkt.seq, |h| h.seq) {
                    let rtt = t - fb.echo;
                    c.rtt_samples += 1;
                    c.rtt_sum_ps += SimDuration::from_secs_f64(rtt.max(0.0)).0 as u128;
                    data = conn.sender.on_feedback(t, &fb);
                }
            }
        }
        let mut sent = std::mem::take(&mut self.sent_refs);
        let mut out = PoolOut {
            pool: &mut self.pool,
            sent: &mut sent,
        };
        if let Some(mut d) = data {
            d.pkt.sent_at = now;
            c.packets_sent += 1;
            c.bytes_sent += d.pkt.size as u64;
            d.pkt.nth = c.packets_sent as u32;
            conn.data.push(d.hdr);
            out.push(d.pkt);
        }
        if let Some(r) = report {
            c.acks_sent += 1;
            let s = &conn.sender;
            out.push(Packet {
                id: 0,
                flow: f,
                kind: PacketKind::TcpAck,
                flags: 0,
                src: s.dst,
                dst: s.src,
                size: s.cfg.feedback_size,
                seq: r.fb.seq,
                // The trace shows `ack - 1`: ns-2 shows the highest packet received.
                ack: (r.fb.maxseq + 1).max(0) as u64,
                sent_at: now,
                ts_echo: SimTime::ZERO,
                retransmit: false,
                sack: SackBlocks::NONE,
                nth: 0,
                rwnd: 0,
                ecn: 0,
            });
            conn.feedback.push(r.fb);
        }
        // The timers the ends asked for.
        let mut timers: [Option<(SimTime, f64)>; 3] = [None; 3];
        let ops = std::mem::take(&mut conn.sender.timer_ops);
        let sink_op = conn.sink.timer_op.take().map(TimerOp::In);
        for (k, op) in [ops[0], ops[1], sink_op].into_iter().enumerate() {
            match op {
                Some(TimerOp::In(s)) => arm(&mut conn.deadlines[k], &mut timers[k], now, t, s, ns2),
                Some(TimerOp::Cancel) => conn.deadlines[k] = None,
                // After the packet is sent (below).
                Some(TimerOp::Spread(_)) | None => {}
            }
        }
        self.send_pooled(sent);
        if let Some(TimerOp::Spread(s)) = ops[0] {
            // TfrcAgent::nextpkt draws its random factor once sendpkt has handed the packet
            // on: a queue the packet met on the way drew first.
            if let Agent::Tfrc(conn) = &mut self.flows[i].agent {
                let s = conn.sender.spread(s);
                arm(&mut conn.deadlines[0], &mut timers[0], now, t, s, ns2);
            }
        }
        for (k, at) in timers.into_iter().enumerate() {
            if let Some((at, at2)) = at {
                if self.ns2_clock {
                    // TimerHandler::resched: ns-2's time for it is clock + delay in doubles.
                    let uid = self.queue.reserve(1);
                    if let Agent::Tfrc(conn) = &mut self.flows[f.idx()].agent {
                        // As `sched::ns2_unkey` gives it back when the event runs.
                        conn.ns2_uids[k] = uid & ((1 << crate::sched::NS2_UID_BITS) - 1);
                    }
                    let seq = crate::sched::ns2_key(at, at2, uid);
                    self.queue.push_keyed(at, seq, Event::Tfrc(f, k as u8));
                } else {
                    self.queue.push_timer(at, Event::Tfrc(f, k as u8));
                }
            }
        }
    }

    /// Hands flow `f`'s TFRC sender `npkts` more packets now (-1: endless): ns-2's FTP
    /// `produce`/`producemore` and the agent's `advance`/`advanceby`.
    pub fn tfrc_advance(&mut self, f: usize, npkts: i64) -> Result<(), String> {
        match self.flows.get(f).map(|x| &x.agent) {
            Some(Agent::Tfrc(_)) => {
                self.on_tfrc(FlowId(f as u32), Action::Advance(npkts));
                Ok(())
            }
            _ => Err(format!("flow {f} is not a TFRC flow")),
        }
    }

    /// Flow `f`'s TFRC sender's rate (bytes/s), RTT (s), last reported loss event rate,
    /// true loss rate and next sequence number; None for other flows.
    pub fn tfrc_vars(&self, f: usize) -> Option<[f64; 5]> {
        let Agent::Tfrc(conn) = &self.flows.get(f)?.agent else {
            return None;
        };
        let s = &conn.sender;
        Some([
            s.rate(),
            s.rtt(),
            s.flost,
            s.true_loss_rate,
            s.seqno() as f64,
        ])
    }
}

/// A timer set `s` seconds from `now` (`t` in ns-2's clock): its new deadline, and the event
/// to push unless it was already due then. Under the ns2 profile (`ns2`) the engine's clock
/// is ns-2's (`sched::ns2_ps`), and a timer set again is a new event even within the same
/// picosecond (`TimerHandler::resched`; only the latest fires, `ns2_uids`).
fn arm(
    deadline: &mut Option<SimTime>,
    timer: &mut Option<(SimTime, f64)>,
    now: SimTime,
    t: f64,
    s: f64,
    ns2: bool,
) {
    let at = if ns2 {
        crate::sched::ns2_ps(t + s).max(now)
    } else {
        now + SimDuration::from_secs_f64(s)
    };
    if ns2 || *deadline != Some(at) {
        *deadline = Some(at);
        *timer = Some((at, t + s));
    }
}
