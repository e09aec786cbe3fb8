//! The `sack` variant's loss recovery under `rfc6675_recovery` without `prr`: RFC 6675
//! (sections 2, 4, 5 and 5.1) as ns-3.44's `TcpSocketBase` runs it on `TcpTxBuffer`'s
//! scoreboard (src/internet/model/tcp-socket-base.cc, tcp-tx-buffer.cc), with
//! `TcpClassicRecovery` (cwnd = ssthresh through recovery).
//!
//! - The scoreboard lives as long as the connection: every ACK's SACK blocks update it
//!   (RFC 6675 section 5, `ReceivedAck`'s `ReadOptions` before `DiscardUpTo`), a cumulative
//!   ACK forgets only what it covers, and the end of recovery clears nothing (RFC 6675 step
//!   (A): information above the new HighACK SHOULD NOT be cleared).
//! - A duplicate ACK is one that SACKs something new, whether or not it also advances the
//!   cumulative ACK (`ProcessAck`: `isDupack = scoreboardUpdated`); only an ACK without new
//!   SACK information resets the count. None is counted after a timeout until the ACK passes
//!   the recovery point (`DupAck` returns in `CA_LOSS`).
//! - Recovery starts on the `dupack_threshold`-th duplicate once the last recovery point is
//!   passed, or on any duplicate when IsLost(HighACK + 1) holds, three SACKed segments above
//!   the head (RFC 6675 section 5 steps (1) and (2), `DupAck`). Entry marks the head lost if
//!   it is not (`EnterRecovery`'s `MarkHeadAsLost`), sets the recovery point to the highest
//!   segment sent, cwnd = ssthresh, and resends the head.
//! - Sending, in every state, is RFC 6675 step (C) (`SendPendingData`): while the pipe
//!   (SetPipe, `TcpTxBuffer::BytesInFlight`: sent - SACKed - lost + retransmitted) is below
//!   min(cwnd, rwnd), NextSeg's lowest lost hole not yet resent below the highest SACKed
//!   segment (rule 1), else new data (rule 2). NextSeg's rule 3 and the rescue
//!   retransmission (rule 4, which ns-3 leaves out) are not modelled.
//! - A partial ACK (below the recovery point) resends, outside the pipe, the next lost hole or
//!   else a new segment unless the segment it now asks for was already resent (`ProcessAck`'s
//!   `IsRetransmittedDataAcked` and `DoRetransmit`), and restarts the timer only if it is the
//!   recovery's first (`NewAck(ack, m_isFirstPartialAck)`).
//! - The ACK reaching the recovery point ends recovery with cwnd = ssthresh, then grows the
//!   window by every segment it covers, those SACKed before included (`ProcessAck` recomputes
//!   `segsAcked` from the cumulative ACK there), where RFC 6675 and RFC 6937 end at ssthresh;
//!   elsewhere growth counts the segments an ACK delivered (cumulatively or by SACK,
//!   `currentDelivered`), and an ACK that is also a duplicate grows nothing (`IncreaseWindow`
//!   only in `CA_OPEN`).
//! - A timeout keeps the SACK information and takes every other outstanding segment as lost
//!   (RFC 6675 section 5.1 with its errata 1610, `ReTxTimeout`'s `SetSentListLost`): cwnd one
//!   segment, NextSeg resends the holes below the highest SACKed segment, then new data; a
//!   second timeout before the head is acknowledged keeps ssthresh; the recovery point is the
//!   highest segment sent, and the ACK reaching it returns to the open state.

use super::*;

impl TcpSender {
    pub(super) fn on_rfc6675_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        blocks: &SackBlocks,
        mut sb: Box<Scoreboard>,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if ack < self.una || ack > self.maxseq {
            self.scoreboard = Some(sb);
            return;
        }
        if self.syn_pending {
            // The SYN's ACK opens the connection as for every sender.
            self.scoreboard = Some(sb);
            if ack > self.una {
                self.on_new_ack(now, ack, out, c);
            }
            return;
        }
        let old_una = self.una;
        let old_dupacks = self.dupacks;
        let sacked_before = sb.sacked();
        // RFC 6675 section 5: Update() with every ACK's SACK information.
        let dup = sb.update(ack, blocks.iter(ack));
        // DeliveredData: the cumulative ACK's advance plus the change in SACKed segments.
        let delivered = (ack - old_una + sb.sacked()).saturating_sub(sacked_before);
        let mut rtt = None;
        if ack > old_una {
            // timerfix_ false (`on_new_ack`): the timeout from before this ACK's sample.
            rtt = self.sample_rtt(now, ack, c);
            self.una = ack;
            self.note_completion(now);
            self.nxt = self.nxt.max(self.una);
        }
        if dup && !self.rfc_loss && !self.in_recovery {
            // `DupAck`, RFC 6675 section 5 steps (1) and (2).
            self.dupacks += 1;
            let passed = self.recover.is_none_or(|r| ack >= r);
            if (self.dupacks == self.dupack_threshold && passed) || sb.is_lost(ack) {
                self.rfc6675_enter_recovery(now, &mut sb, out, c);
            }
        }
        if ack > old_una {
            if !dup {
                self.dupacks = 0;
            }
            let below_recover = self.recover.is_some_and(|r| ack < r);
            if self.in_recovery && below_recover {
                // A partial ACK (RFC 6675 (B); ns-3's DoRetransmit of the next segment).
                if !sb.is_retransmitted(ack) && !self.rfc6675_send_one(now, &mut sb, out, c) {
                    sb.mark_retransmitted(self.una);
                    self.emit(self.una, now, out, c);
                }
                self.pkts_acked(now, 1, rtt);
                if self.first_partial {
                    self.rtt.reset_backoff();
                    self.arm_timer(now);
                }
                self.first_partial = false;
            } else if self.rfc_loss && below_recover {
                // After a timeout, below its recovery point: slow start goes on.
                self.pkts_acked(now, delivered, rtt);
                if delivered > 0 {
                    self.open_cwnd(now, delivered, rtt);
                }
                self.new_ack_timer(now);
            } else {
                let mut grow = delivered;
                if self.in_recovery {
                    // RFC 6675 (A): recovery is over; cwnd = ssthresh, then ns-3 grows it by
                    // every segment this ACK covers, those SACKed before included
                    // (`segsAcked = (ackNumber - oldHeadSequence) / segmentSize`).
                    self.in_recovery = false;
                    self.first_partial = true;
                    self.dupacks = 0;
                    grow = ack - old_una;
                    self.pkts_acked(now, grow, rtt);
                    self.w.cwnd = self.w.ssthresh;
                } else if self.rfc_loss {
                    self.rfc_loss = false;
                    self.first_partial = true;
                    grow = self.recover.map_or(0, |r| ack - r);
                    self.pkts_acked(now, grow, rtt);
                } else if old_dupacks > 0 {
                    self.pkts_acked(now, delivered.saturating_sub(old_dupacks as u64), rtt);
                } else {
                    self.pkts_acked(now, delivered, rtt);
                }
                // `IncreaseWindow` and `NewAck` only in the open state: not on a duplicate.
                if self.dupacks == 0 {
                    if grow > 0 {
                        self.open_cwnd(now, grow, rtt);
                    }
                    self.new_ack_timer(now);
                }
            }
        }
        self.rfc6675_send(now, &mut sb, out, c);
        self.scoreboard = Some(sb);
    }

    /// `NewAck(ack, true)`: the timer restarts with the timeout from the estimate (the
    /// backoff gone), or stops when everything is acknowledged.
    fn new_ack_timer(&mut self, now: SimTime) {
        if self.una >= self.maxseq {
            self.rto_deadline = None;
        } else {
            self.rtt.reset_backoff();
            self.arm_timer(now);
        }
    }

    /// `EnterRecovery`: the head lost, the recovery point, ssthresh, cwnd = ssthresh, and the
    /// head resent (RFC 6675 step (4)).
    fn rfc6675_enter_recovery(
        &mut self,
        now: SimTime,
        sb: &mut Scoreboard,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if !sb.is_lost(self.una) {
            sb.mark_lost_below(self.una + 1);
        }
        self.recover = Some(self.maxseq);
        self.last_action = LastAction::Dupack;
        self.in_recovery = true;
        self.first_partial = true;
        self.reduce_window();
        self.w.cwnd = self.w.ssthresh;
        c.fast_retransmits += 1;
        sb.mark_retransmitted(self.una);
        self.emit(self.una, now, out, c);
    }

    /// RFC 6675 step (C): while the pipe is below min(cwnd, rwnd), NextSeg's segment.
    pub(super) fn rfc6675_send(
        &mut self,
        now: SimTime,
        sb: &mut Scoreboard,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if self.linux_pacing && self.rtt.srtt > 0 {
            self.update_pacing_rate();
        }
        let window = self.w.cwnd.min(self.w.rwnd).max(0.0) as i64;
        self.pipe = sb.pipe(self.una, self.maxseq) as i64;
        self.pace_deadline = None;
        while self.pipe < window {
            if self.pacing_rate > 0.0 && now < self.next_send {
                self.pace_deadline = Some(self.next_send);
                break;
            }
            if !self.rfc6675_send_one(now, sb, out, c) {
                break;
            }
            self.pipe += 1;
        }
        self.sack_info = sb.holds_anything();
    }

    /// NextSeg rules 1 and 2: the lowest lost hole not yet resent, else a new segment within
    /// the receiver's window; false if neither.
    fn rfc6675_send_one(
        &mut self,
        now: SimTime,
        sb: &mut Scoreboard,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) -> bool {
        self.sack_send_one(now, sb, out, c)
    }

    /// A retransmission timeout under `rfc6675_recovery` (ns-3.44's `ReTxTimeout` with SACK):
    /// the SACK information kept, every other outstanding segment lost, cwnd one segment.
    pub(super) fn rfc6675_timeout(
        &mut self,
        now: SimTime,
        mut sb: Box<Scoreboard>,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        // ssthresh is kept by a second timeout before the head is acknowledged.
        if !(self.rfc_loss && sb.is_retransmitted(self.una)) {
            self.reduce_window();
        }
        if self.ns2_ecn != Ns2Ecn::Off {
            self.last_action = LastAction::Timeout;
        }
        self.set_ca_state(now, CaState::Loss);
        self.w.cwnd = 1.0;
        self.dupwnd = 0.0;
        self.in_recovery = false;
        self.rfc_loss = true;
        self.dupacks = 0;
        self.recover = Some(self.maxseq);
        self.rtt.on_timeout();
        self.timed = None;
        sb.timeout_keeping_sacks(self.maxseq);
        self.rfc6675_send(now, &mut sb, out, c);
        self.scoreboard = Some(sb);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ackp, sender_with};
    use super::*;
    use crate::fixtures::ns2_tcp;

    fn rfc_sender(rfc: bool) -> (TcpSender, Vec<Packet>, FlowCounters) {
        let mut cfg = ns2_tcp();
        cfg.window = 100;
        cfg.limited_transmit = false;
        cfg.rfc6675_recovery = rfc;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
        s.start(SimTime(0), &mut out, &mut c);
        let mut t = 1;
        while s.w.cwnd < 20.0 {
            s.on_ack(SimTime(t), &ackp(s.una + 1), &mut out, &mut c);
            t += 1;
        }
        out.clear();
        (s, out, c)
    }

    fn sacking(ack: u64, blocks: &[(u64, u64)]) -> Packet {
        let mut a = ackp(ack);
        for &(l, r) in blocks {
            a.sack.push(ack, l, r);
        }
        a
    }

    #[test]
    fn the_scoreboard_outlives_recovery_and_is_lost_starts_the_next_one() {
        // RFC 6675 (A) and section 5 step (2), as ns-3.44's TcpTxBuffer and DupAck: the SACK
        // information above the ACK that ends recovery is kept, so the next duplicate finds
        // the head lost (three SACKed segments above it) and starts recovery at once; ns-2's
        // Sack1 clears the scoreboard and waits for three new duplicates.
        for rfc in [false, true] {
            let (mut s, mut out, mut c) = rfc_sender(rfc);
            let una = s.una;
            // una lost: three duplicates SACK una + 1 onward; recovery, recover = maxseq.
            for i in 0..3 {
                s.on_ack(
                    SimTime(1000 + i),
                    &sacking(una, &[(una + 1, una + 2 + i)]),
                    &mut out,
                    &mut c,
                );
            }
            assert!(s.in_recovery);
            let recover = s.recover.unwrap();
            // Everything up to `recover` arrives but `recover` itself, and recover + 1..5 do:
            // the ACK reaching recover ends recovery with them SACKed.
            s.on_ack(
                SimTime(2000),
                &sacking(recover, &[(recover + 1, recover + 5)]),
                &mut out,
                &mut c,
            );
            assert!(!s.in_recovery);
            let fast = c.fast_retransmits;
            out.clear();
            // One more duplicate SACKing recover + 5.
            s.on_ack(
                SimTime(2001),
                &sacking(recover, &[(recover + 1, recover + 6)]),
                &mut out,
                &mut c,
            );
            assert_eq!(s.in_recovery, rfc, "rfc6675 {rfc}");
            if rfc {
                assert_eq!(c.fast_retransmits, fast + 1);
                assert_eq!(out[0].seq, recover, "the head resent first");
            }
        }
    }

    #[test]
    fn a_timeout_resends_only_what_is_not_sacked() {
        // RFC 6675 section 5.1 with its errata, ns-3.44's ReTxTimeout -> SetSentListLost(false):
        // after a timeout the holes below the highest SACKed segment go again, not the SACKed
        // segments; ns-2 goes back N from the cumulative ACK.
        for rfc in [false, true] {
            let (mut s, mut out, mut c) = rfc_sender(rfc);
            let una = s.una;
            // una and una + 2 lost, una + 1 and una + 3.. SACKed: too few duplicates to recover.
            s.on_ack(
                SimTime(1000),
                &sacking(una, &[(una + 1, una + 2)]),
                &mut out,
                &mut c,
            );
            s.on_ack(
                SimTime(1001),
                &sacking(una, &[(una + 3, una + 4), (una + 1, una + 2)]),
                &mut out,
                &mut c,
            );
            out.clear();
            s.on_timeout(SimTime(5000), &mut out, &mut c);
            assert_eq!(s.w.cwnd, 1.0);
            assert_eq!(out.iter().map(|p| p.seq).collect::<Vec<_>>(), [una]);
            out.clear();
            // una arrives: ACK una + 1 (una + 1 was SACKed, the receiver holds it too: the
            // cumulative ACK moves to the hole at una + 2).
            s.on_ack(
                SimTime(6000),
                &sacking(una + 2, &[(una + 3, una + 4)]),
                &mut out,
                &mut c,
            );
            let sent: Vec<u64> = out.iter().map(|p| p.seq).collect();
            if rfc {
                // cwnd 2: the hole una + 2, then new data (una + 3 is SACKed).
                assert_eq!(sent[0], una + 2);
                assert!(!sent.contains(&(una + 3)), "{sent:?}");
            } else {
                assert_eq!(sent, [una + 2, una + 3]);
            }
        }
    }
}
