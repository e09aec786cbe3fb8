//! The sender's SACK loss recovery (see `sender.rs` for the rules): ns-2's `Sack1` with RFC
//! 6675's NextSeg rules, and with `prr` RFC 6937's proportional rate reduction.

use super::events::AgentEventKind;
use super::*;

impl TcpSender {
    pub(super) fn on_sack_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        blocks: &SackBlocks,
        mut sb: Box<Scoreboard>,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if self.rfc6675 {
            self.on_rfc6675_ack(now, ack, blocks, sb, out, c);
            return;
        }
        if !self.in_recovery {
            let sacked_before = sb.sacked();
            if ack > self.una && ack <= self.maxseq {
                self.sack_rto_wait = false; // Sack1TcpAgent::recv: `timeout_ = FALSE`
                self.sack_partial_seen = false; // and `firstpartial_ = 0`
                self.on_new_ack(now, ack, out, c);
                sb.clear(self.una);
            } else if ack == self.una && self.una < self.maxseq && !self.sack_rto_wait {
                let changed = sb.update(ack, blocks.iter(ack));
                if changed {
                    self.sack_dupack(now, sacked_before, &mut sb, out, c);
                }
                if self.frto.state == 2 {
                    // Sack1TcpAgent::recv's SACK-based F-RTO, after the duplicate counted;
                    // send_much follows when dupacks_ is 0.
                    self.sfrto_on_dupack(changed, blocks, ack);
                    if self.dupacks == 0 {
                        self.scoreboard = Some(sb);
                        self.send_much(now, out, c);
                        return;
                    }
                }
            } else if ack < self.una && self.old_ack_sends && self.dupacks == 0 {
                // Sack1TcpAgent::recv: an ACK below last_ack_ changes nothing, but with
                // aggressive_maxburst_ send_much follows while dupacks_ is 0.
                self.scoreboard = Some(sb);
                self.send_much(now, out, c);
                return;
            }
            self.scoreboard = Some(sb);
            return;
        }
        if self.prr.is_some() {
            self.on_prr_ack(now, ack, blocks, sb, out, c);
            return;
        }
        self.pipe -= 1;
        if ack > self.una && ack <= self.maxseq {
            if self.sack_advance(now, ack, &mut sb, c) {
                // Recovery is over; cwnd keeps the halved window.
                self.scoreboard = Some(sb);
                self.send_much(now, out, c);
                return;
            }
            sb.update(ack, blocks.iter(ack));
            if self.sack_partial_ack {
                // Sack1TcpAgent::recv with partial_ack_: two segments go at once
                // (partial_ack_action) and the pipe estimate keeps this ACK's segment; only
                // the first partial ACK of a series restarts the timer (`firstpartial_`).
                self.sack1_partial_ack_action(now, &mut sb, out, c);
                self.pipe += 1;
                if !self.sack_partial_seen {
                    self.arm_timer(now);
                    self.rtt.reset_backoff();
                    self.sack_partial_seen = true;
                }
            } else {
                // A partial ACK: the retransmission and the original have both left.
                self.pipe -= 1;
                self.arm_timer(now);
                self.rtt.reset_backoff();
            }
        } else if ack == self.una {
            sb.update(ack, blocks.iter(ack));
        }
        self.sack_send(now, &mut sb, out, c);
        self.scoreboard = Some(sb);
    }

    /// `Sack1TcpAgent::partial_ack_action`: two segments in reply to a partial ACK, each the
    /// next not SACKed from `next_pkt_` on (`GetNextUnacked`), whether or not it was resent
    /// before or is new; `t_seqno_` is raised to it (not past it).
    #[cold]
    fn sack1_partial_ack_action(
        &mut self,
        now: SimTime,
        sb: &mut Scoreboard,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        self.sack_next_pkt = self.sack_next_pkt.max(self.una);
        for _ in 0..2 {
            if let Some(next) = sb.next_unacked(self.sack_next_pkt) {
                self.sack_next_pkt = self.sack_next_pkt.max(next);
            }
            self.nxt = self.nxt.max(self.sack_next_pkt);
            self.emit(self.sack_next_pkt, now, out, c);
            sb.mark_retransmitted_past(self.sack_next_pkt);
            self.sack_next_pkt += 1;
        }
    }

    /// A duplicate ACK with new SACK information outside SACK recovery
    /// (`Sack1TcpAgent::recv`'s count, then `dupack_action` at the threshold).
    fn sack_dupack(
        &mut self,
        now: SimTime,
        sacked_before: u64,
        sb: &mut Scoreboard,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        // Sack1TcpAgent::recv reads a duplicate's SACK blocks only while `timeout_`
        // is false: after a timeout, duplicates neither count nor fill the
        // scoreboard until a new ACK comes.
        // Only a duplicate that reports new SACKed data counts.
        self.dupacks += 1;
        let thresh = self.sack_dupack_threshold();
        if self.dupacks < thresh {
            self.limited_transmit(now, out, c);
        } else if self.dupacks == thresh
            && self.prr.is_none()
            && !self.may_fast_retransmit()
            && self.ns2_ecn != Ns2Ecn::Off
            && self.last_action == LastAction::Ecn
        {
            // Sack1TcpAgent::dupack_action after an ECN reduction (`Ns2Ecn`): fast
            // recovery with the window the ECN left, `recover_` kept.
            self.last_action = LastAction::Dupack;
            self.pipe = (self.maxseq - self.una) as i64 - thresh as i64;
            self.in_recovery = true;
            self.timed = None;
            c.fast_retransmits += 1;
            sb.mark_retransmitted(self.una);
            self.emit(self.una, now, out, c);
            self.arm_timer(now);
        } else if self.dupacks == thresh
            && self.may_fast_retransmit()
            && self.quick_start.is_some()
            && self.prr.is_none()
            && self.qs_loss_applies()
        {
            // Sack1TcpAgent::dupack_action with lossQuickStart: recovery as below (recover_,
            // pipe_, fastrecov_, the segment marked), but from windowInit_, ssthresh_ kept.
            self.recover = Some(self.maxseq);
            self.pipe = (self.maxseq - self.una) as i64 - thresh as i64;
            self.in_recovery = true;
            self.first_partial = true;
            self.timed = None;
            c.fast_retransmits += 1;
            sb.mark_retransmitted(self.una);
            self.qs_loss(now, out, c);
            self.arm_timer(now);
        } else if self.dupacks == thresh && self.may_fast_retransmit() {
            // Sack1TcpAgent::dupack_action traces FAST_RECOVERY before its slowdown.
            let (before, ssthresh) = (self.w.cwnd, self.w.ssthresh);
            self.event(AgentEventKind::FastRecovery);
            self.w.cwnd = self.reduce_window();
            self.slowdown_event(before, ssthresh, self.w.cwnd);
            self.recover = Some(self.maxseq);
            self.last_action = LastAction::Dupack;
            self.pipe = (self.maxseq - self.una) as i64 - thresh as i64;
            self.in_recovery = true;
            self.first_partial = true;
            // Sack1TcpAgent::dupack_action's reset_rtx_timer(1, 0) clears rtt_active_:
            // the measurement in progress ends, and the next new segment starts one.
            self.timed = None;
            c.fast_retransmits += 1;
            if self.prr.is_some() {
                // RFC 6937 3.1: the step runs on the ACK that starts recovery too, with
                // what it delivered; its first segment is the fast retransmission.
                self.prr = Some(Prr {
                    recover_fs: self.maxseq - self.una,
                    ..Prr::default()
                });
                let delivered = sb.sacked() - sacked_before;
                self.prr_step(now, sb, delivered, true, out, c);
            } else {
                sb.mark_retransmitted(self.una);
                self.emit(self.una, now, out, c);
            }
            self.arm_timer(now);
        }
    }

    /// The duplicate ACKs that start SACK recovery: `dupack_threshold`, or with
    /// `dupack_cwnd_fraction` N at least floor(cwnd) / N (ns-2.35's `numdupacksFrac_`,
    /// `TcpAgent::numdupacks(cwnd_)` as `Sack1TcpAgent::recv` and `dupack_action` read it:
    /// `(int) cwnd / numdupacksFrac_` in integers, for windows of hundreds of segments).
    fn sack_dupack_threshold(&self) -> u32 {
        match self.dupack_cwnd_fraction {
            0 => self.dupack_threshold,
            n => self.dupack_threshold.max(self.w.cwnd as u32 / n),
        }
    }

    /// An ACK during SACK recovery with proportional rate reduction (RFC 6937 section 3.1,
    /// with the slow-start reduction bound): the sender sends what the receiver reports
    /// delivered, scaled by ssthresh / RecoverFS while the pipe is above ssthresh, so that
    /// recovery ends with about ssthresh segments in flight, sent evenly across the round
    /// trip rather than after a pause of half of it.
    // Kept out of line: it runs only in recovery, and inlined it changed how the per-ACK path
    // of every sender was compiled (+5% instructions per packet-hop on a NewReno dumbbell).
    #[inline(never)]
    pub(super) fn on_prr_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        blocks: &SackBlocks,
        mut sb: Box<Scoreboard>,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let (una_before, sacked_before) = (self.una, sb.sacked());
        if ack > self.una && ack <= self.maxseq {
            if self.sack_advance(now, ack, &mut sb, c) {
                // RFC 6937: recovery ends with cwnd = ssthresh.
                self.w.cwnd = self.w.ssthresh;
                self.scoreboard = Some(sb);
                self.send_much(now, out, c);
                return;
            }
            sb.update(ack, blocks.iter(ack));
            self.arm_timer(now);
            self.rtt.reset_backoff();
        } else if ack == self.una {
            sb.update(ack, blocks.iter(ack));
        } else {
            self.scoreboard = Some(sb);
            return;
        }
        // DeliveredData: the cumulative ACK's advance plus the change in SACKed segments.
        let delivered = (self.una - una_before + sb.sacked()).saturating_sub(sacked_before);
        self.prr_step(now, &mut sb, delivered, false, out, c);
        self.scoreboard = Some(sb);
    }

    /// RFC 6937 3.1's per-ACK step: sndcnt from what this ACK delivered, then send that many
    /// (holes first), with cwnd = pipe + sndcnt. On the ACK that starts recovery at least the
    /// fast retransmission goes (as Linux's `tcp_cwnd_reduction` ensures).
    // Out of line for the reason given at `on_prr_ack`.
    #[inline(never)]
    pub(super) fn prr_step(
        &mut self,
        now: SimTime,
        sb: &mut Scoreboard,
        delivered: u64,
        entering: bool,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let mut prr = self.prr.unwrap_or_default();
        prr.delivered += delivered;
        let pipe = sb.pipe(self.una, self.maxseq);
        let ssthresh = self.w.ssthresh;
        let mut sndcnt = if pipe as f64 > ssthresh {
            let due = (prr.delivered as f64 * ssthresh / prr.recover_fs.max(1) as f64).ceil();
            (due as u64).saturating_sub(prr.out)
        } else {
            let bound = prr.delivered.saturating_sub(prr.out).max(delivered) + 1;
            ((ssthresh - pipe as f64).max(0.0) as u64).min(bound)
        };
        if entering {
            sndcnt = sndcnt.max(1);
        }
        let mut sent = 0;
        while sent < sndcnt && self.sack_send_one(now, sb, out, c) {
            sent += 1;
        }
        prr.out += sent;
        self.prr = Some(prr);
        self.pipe = sb.pipe(self.una, self.maxseq) as i64;
        self.w.cwnd = (pipe + sndcnt) as f64;
    }

    /// Sends during SACK recovery while the pipe has room: holes first, then new data.
    pub(super) fn sack_send(
        &mut self,
        now: SimTime,
        sb: &mut Scoreboard,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if self.overhead.is_some()
            && self.delsnd_holds(
                now,
                self.pipe < self.w.cwnd as i64 && self.una < self.app_limit,
            )
        {
            return; // Sack1TcpAgent::send_much with overhead_ (`sender/overhead.rs`)
        }
        while self.pipe < self.w.cwnd as i64 && self.sack_send_one(now, sb, out, c) {
            self.pipe += 1;
        }
    }

    /// Sends the lowest hole not yet resent below the highest SACKed segment (RFC 6675 NextSeg
    /// rule 1) or else a new segment (rule 2), within the receiver's window; false if neither.
    pub(super) fn sack_send_one(
        &mut self,
        now: SimTime,
        sb: &mut Scoreboard,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) -> bool {
        let rwnd = self.w.rwnd as u64;
        match sb.next_retransmission().filter(|&s| s < self.una + rwnd) {
            Some(seq) => {
                sb.mark_retransmitted(seq);
                self.emit(seq, now, out, c);
            }
            None if self.nxt < self.una + rwnd && self.nxt < self.app_limit => {
                self.emit(self.nxt, now, out, c);
                self.nxt += 1;
            }
            None => return false,
        }
        true
    }

    /// A new cumulative ACK during SACK recovery; true if it ends recovery (the scoreboard
    /// is then cleared and the timer set for what is left).
    pub(super) fn sack_advance(
        &mut self,
        now: SimTime,
        ack: u64,
        sb: &mut Scoreboard,
        c: &mut FlowCounters,
    ) -> bool {
        // timerfix_ false (`on_new_ack`): the timeout from before this ACK's sample.
        // FullTcp agents: FullTcpAgent::newack's (`full_newack_backoff`).
        let early_rto = match self.full_ack_rto.take() {
            Some(rto) => Some(rto),
            None => self.rtx_timer_before_sample.then(|| self.rtt.rto()),
        };
        // ns-2.35's Sack1TcpAgent::recv calls newack (and so rtt_update) only on the ACK that
        // ends recovery: a partial ACK takes no RTT sample, timestamps or not, and leaves the
        // timed segment timed.
        let partial = self.recover.is_some_and(|r| ack < r);
        let rtt = if partial && self.rtt.is_ns2() {
            None
        } else {
            self.sample_rtt(now, ack, c)
        };
        self.pkts_acked(now, ack - self.una, rtt);
        self.una = ack;
        self.note_completion(now);
        self.dupacks = 0;
        self.nxt = self.nxt.max(self.una);
        if self.recover.is_some_and(|r| ack < r) {
            return false;
        }
        self.in_recovery = false;
        self.note_ns2_newack(); // Sack1TcpAgent::recv: newack on the ACK that ends recovery
        if self.sack_exit_clears_recover {
            // Sack1TcpAgent::recv: `recover_ = 0` on the ACK that ends fast recovery, so
            // `dupack_action`'s `highest_ack_ > recover_` and `TcpAgent::ecn`'s `seqno >
            // recover_` hold from then on.
            self.recover = None;
        }
        sb.clear(self.una);
        if self.una < self.maxseq || self.idle_rtx_timer {
            match early_rto {
                Some(rto) => self.rto_deadline = Some(now + rto),
                None => self.arm_timer(now),
            }
        } else {
            self.rto_deadline = None;
        }
        true
    }
}
