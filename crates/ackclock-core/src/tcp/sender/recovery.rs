//! The ns-2 senders' loss recovery (see `sender.rs` for the rules): new and partial ACKs,
//! duplicate ACKs with limited transmit (RFC 3042), fast retransmit and fast recovery for
//! Tahoe, Reno (RFC 5681 section 3.2) and NewReno (RFC 6582), the window reduction shared by
//! every loss and ECN-Echo (RFC 3168 section 6.1.2), and the retransmission timeout (RFC 6298,
//! RFC 5681 section 3.1). ns-2.35: tcp/tcp.cc (`TcpAgent::newack`, `dupack_action`,
//! `slowdown`, `timeout`), tcp/tcp-reno.cc, tcp/tcp-newreno.cc.

use super::events::AgentEventKind;
use super::*;

impl TcpSender {
    /// RFC 3168 6.1.2: an ECN-Echo halves the window as a loss would (ssthresh from
    /// congestion control, cwnd = ssthresh), at most once per window of data and not during
    /// loss recovery, and the ACK that carried it does not open the window.
    pub(super) fn on_ecn_echo(&mut self, ack: u64, c: &mut FlowCounters) {
        if self.ns2_ecn != Ns2Ecn::Off {
            self.on_ecn_echo_ns2(ack, c);
            return;
        }
        if self.full_tcp {
            // ns-2.35's FullTcpAgent::recv: `if (!ect_ || !ecnecho) opencwnd()`, with `ect_`
            // set by the handshake (the SYN-ACK's ECE): no ACK carrying ECN-Echo opens the
            // window, whether it reduces it or not.
            self.skip_growth = true;
        }
        if self.in_recovery || self.ecn_recover.is_some_and(|r| ack <= r) {
            return;
        }
        let (before, ssthresh) = (self.w.cwnd, self.w.ssthresh);
        self.w.cwnd = self.reduce_window();
        // TcpAgent::ecn's slowdown (FullTcp's and the one-way agents').
        self.slowdown_event(before, ssthresh, self.w.cwnd);
        self.last_cut_dupack = false; // ns-2's CWND_ACTION_ECN
        self.ecn_recover = Some(self.maxseq);
        self.cwr_pending = true;
        self.skip_growth = true;
        c.ecn_reductions += 1;
    }

    /// ns-2.35's ECN-Echo ([`Ns2Ecn`]): `TcpAgent::ecn` (a reduction beyond `recover_` or
    /// after a timeout) and the window decision of `TcpAgent::recv_newack_helper`.
    pub(super) fn on_ecn_echo_ns2(&mut self, ack: u64, c: &mut FlowCounters) {
        if self.recover.is_none_or(|r| ack > r) || self.last_action == LastAction::Timeout {
            // TcpAgent::ecn: a reduction at a window of one segment sets `ecn_backoff_`, the
            // next one in a row backs the timer off (`rtt_backoff`); a larger window clears it.
            if self.w.cwnd > 1.0 {
                self.ecn_backoff = false;
            } else if self.ecn_backoff {
                self.rtt.on_timeout();
            } else {
                self.ecn_backoff = true;
            }
            // slowdown(CLOSE_CWND_HALF | CLOSE_SSTHRESH_HALF): a window of one segment
            // becomes half a segment (none with whole_reduce), sending nothing until the
            // timer fires.
            if self.dupwnd > 0.0
                && !self.full_tcp
                && matches!(self.recovery, Recovery::Reno | Recovery::NewReno)
            {
                // RenoTcpAgent::windowd, the window slowdown() halves: cwnd_ + dupwnd_ (ecn()
                // runs before the ACK ends fast recovery's inflation).
                self.w.cwnd += self.dupwnd;
            }
            let (before, ssthresh) = (self.traced_cwnd(), self.w.ssthresh);
            self.w.cwnd = self.reduced_window();
            self.slowdown_event(before, ssthresh, self.w.cwnd);
            self.recover = Some(self.maxseq);
            self.last_action = LastAction::Ecn;
            self.cwr_pending = true;
            c.ecn_reductions += 1;
        }
        // TcpAgent::newack: this ACK's RTT sample ends no backoff while `ect_` (as before this
        // ACK) and `ecn_backoff_` hold ("still in ECN-Echo with a congestion window of 1").
        self.ecn_hold_backoff = self.ect_seen && self.ecn_backoff;
        if ack > self.una && ack <= self.maxseq {
            // The window opens only before the first ECN-Echo (`ect_` still 0) or, with
            // old_ecn_, within a burst of them.
            let opens = !self.ect_seen || (self.ns2_ecn == Ns2Ecn::OldEcn && self.ecn_burst);
            self.skip_growth = !opens;
            if self.ect_seen {
                self.ecn_burst = true;
            }
            self.ect_seen = true;
        }
    }

    /// A third duplicate ACK that may not start fast retransmit: after an ECN reduction
    /// ns-2.35 retransmits anyway, without reducing the window again ([`Ns2Ecn`]; the ECN
    /// branch of the agents' `dupack_action`). True if it did.
    pub(super) fn ecn_then_dupack(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) -> bool {
        if self.ns2_ecn == Ns2Ecn::Off || self.last_action != LastAction::Ecn {
            return false;
        }
        self.last_action = LastAction::Dupack;
        c.fast_retransmits += 1;
        self.timed = None;
        let (before, ssthresh_before) = (self.traced_cwnd(), self.w.ssthresh);
        if self.full_tcp && self.recovery.is_tahoe() {
            self.slowdown_event(before, ssthresh_before, 1.0);
            // TahoeFullTcpAgent::dupack_action's ECN branch: slowdown(CLOSE_CWND_ONE),
            // set_rtx_timer, t_seqno_ = highest_ack_, and nothing sent now (recv drops the
            // segment): the next duplicate's send_much retransmits (`on_dupack`).
            self.w.cwnd = 1.0;
            self.cong_action_pending = true;
            self.nxt = self.una;
            self.arm_timer(now);
            return true;
        }
        if self.full_tcp && self.recovery != Recovery::Sack {
            // FullTcpAgent::dupack_action's ECN branch (/Newreno's too): slowdown(
            // CLOSE_CWND_HALF) halves cwnd_ again and keeps ssthresh_, fast_retransmit moves
            // recover_ to maxseq_, fastrecov_: later duplicates inflate cwnd_ (extra_ack), the
            // ACK that ends recovery leaves it at most ssthresh_ (pack_action).
            let ssthresh = self.w.ssthresh;
            let half = self.reduced_window();
            self.w.ssthresh = ssthresh;
            self.w.cwnd = half;
            self.slowdown_event(before, ssthresh_before, half);
            self.event_at(AgentEventKind::FastRetx, half);
            self.dupwnd = 0.0;
            self.in_recovery = true;
            self.first_partial = true;
            self.recover = Some(self.maxseq);
            self.last_cut_dupack = true;
            self.emit(self.una, now, out, c);
            self.arm_timer(now);
            return true;
        }
        if self.recovery.is_tahoe() {
            // TcpAgent::dupack_action: slowdown(CLOSE_CWND_ONE), reset_rtx_timer(0, 0).
            self.slowdown_event(before, ssthresh_before, 1.0);
            self.w.cwnd = 1.0;
            self.cong_action_pending = true;
            self.nxt = self.una;
            self.arm_timer(now);
            self.send_much(now, out, c);
            return true;
        }
        // Reno, NewReno: reset_rtx_timer(1, 0), output(last_ack_ + 1), dupwnd_ = numdupacks_.
        self.dupwnd = self.dupack_threshold as f64;
        self.in_recovery = true;
        self.first_partial = true;
        self.emit(self.una, now, out, c);
        self.arm_timer(now);
        self.send_much(now, out, c);
        true
    }

    /// [`Self::new_ack`], out of line: the SACK senders' paths.
    pub(super) fn on_new_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        self.new_ack(now, ack, out, c);
    }

    /// A new ACK. Inlined into `on_ack`'s own call (the one-way senders without SACK, most
    /// ACKs of most runs), where the call's register saves cost 20 instructions per ACK.
    #[inline(always)]
    pub(super) fn new_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        self.new_ack_with::<false>(now, ack, out, c);
    }

    /// [`TcpSender::new_ack`]; `PLAIN`: from `process_ack::<true>`, the sender `plain`, so the
    /// tests for FullTcp, `bugFix_ack_`, `QOption_` and Quick-Start are compiled out.
    #[inline(always)]
    pub(super) fn new_ack_with<const PLAIN: bool>(
        &mut self,
        now: SimTime,
        ack: u64,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        // ns-2.35's TcpAgent::newack with timerfix_ false calls newtimer() before rtt_update()
        // and the backoff reset: the timer restarts with the timeout from before this ACK.
        // FullTcpAgent::newack does the same (`full_newack_backoff`; never for a plain
        // sender, whose `full_ack_rto` `process_ack` left None).
        let early_rto = match if PLAIN {
            None
        } else {
            self.full_ack_rto.take()
        } {
            Some(rto) => Some(rto),
            None => self.rtx_timer_before_sample.then(|| self.rtt.rto()),
        };
        // FullTcpAgent::recv's header prediction for a pure ACK (set in `process_ack`):
        // `newack` and `send_much` only. cwnd_ does not open (so it stops at the first value
        // at or above `window_`) and `dupacks_` is not reset (only `ack_action` resets it).
        let fast_path = !PLAIN && std::mem::take(&mut self.ns2_fast_ack);
        let newreno_partial = self.in_recovery
            && self.recovery == Recovery::NewReno
            && self.recover.is_some_and(|r| ack < r);
        if (PLAIN || !self.full_tcp) && !newreno_partial {
            self.note_ns2_newack(); // ns2_awnd: not on NewReno's partial ACKs
            if !PLAIN {
                if let Some(b) = self.bugfix.as_deref_mut() {
                    // TcpAgent::newack: prev_highest_ack_, and ts_echo_ with timestamps.
                    b.on_newack(self.una, self.timestamps.then_some(self.ts_echo));
                }
            }
        }
        let rtt = self.sample_rtt(now, ack, c);
        let acked = ack - self.una;
        // ns-3.44's ProcessSynSent takes the handshake's RTT sample (EstimateRtt) but calls no
        // PktsAcked: under `rfc6675_recovery` (ns-3's ACK processing) the SYN's ACK gives
        // congestion control nothing.
        if !(self.syn_pending && self.rfc6675) {
            self.pkts_acked(now, acked, rtt);
        }
        let prev_una = self.una;
        self.una = ack;
        self.note_completion(now);
        if !fast_path {
            self.dupacks = 0;
        }
        if self.nxt < self.una {
            self.nxt = self.una;
        }
        // ns-2.35's control_increase_ (TcpAgent::recv_newack_helper): the window opens only
        // if the sender was window-limited, `network_limited`: t_seqno_ beyond
        // prev_highest_ack_ + window(), window() = min(cwnd_, wnd_) in whole segments.
        let grow = !self.control_increase
            || self.nxt >= prev_una + self.w.cwnd.min(self.w.rwnd).max(0.0) as u64;
        let mut restart_timer = true;
        let mut partial_capped = false;
        if self.dupacks_always_inflate && !self.in_recovery {
            // RenoTcpAgent::recv: dupwnd_ = 0 on a new ACK (NewRenoTcpAgent::recv too, outside
            // fast recovery): duplicates' inflation outside recovery is taken back.
            self.dupwnd = 0.0;
        }
        if self.in_recovery {
            let full = self.recover.is_none_or(|r| ack >= r);
            if self.recovery == Recovery::NewReno && !full && self.full_tcp {
                // ns-2.35's NewRenoFullTcpAgent::pack_action: fast_retransmit(highest_ack_),
                // which moves recover_ to maxseq_, cwnd_ = ssthresh_, and at most
                // recov_maxburst_ (2) segments per ACK until recovery ends (ack_action);
                // FullTcpAgent::newack restarts the timer on every new ACK; recv does not open
                // cwnd_ on it (tcl/lib/ns-default.tcl: open_cwnd_on_pack_ false for Newreno).
                self.event(AgentEventKind::FastRetx);
                self.emit(self.una, now, out, c);
                self.recover = Some(self.maxseq);
                self.last_cut_dupack = true;
                self.w.cwnd = self.w.ssthresh;
                self.cwnd_step = Some(self.w.ssthresh);
                self.dupwnd = 0.0;
                if self.recovery_burst.is_none() {
                    self.recovery_burst = Some(self.max_burst);
                    self.max_burst = NS2_RECOV_MAXBURST;
                }
                partial_capped = true;
            } else if self.recovery == Recovery::NewReno && !full {
                // RFC 6582 3.2 step 5: retransmit the next hole, deflate, add one back.
                self.emit(self.una, now, out, c);
                // Without deflation (ns-2's partial_window_deflation_ 0, NewRenoTcpAgent::recv)
                // fast recovery's extra window is dropped: the window is cwnd (= ssthresh).
                if !self.partial_deflation {
                    self.dupwnd = 0.0;
                } else if self.dupwnd > acked as f64 {
                    self.dupwnd -= acked as f64 - 1.0;
                } else {
                    // Deflating by more than the inflation takes the rest off cwnd itself
                    // (RFC 6582 3.2 step 5 deflates the whole window; ns-2.35's
                    // NewRenoTcpAgent::partialnewack: cwnd_ -= deflate - dupwnd_, at least
                    // one segment, dupwnd_ = 1 to flag fast recovery).
                    self.w.cwnd = (self.w.cwnd - (acked as f64 - self.dupwnd)).max(1.0);
                    self.dupwnd = 1.0;
                }
                if self.rtt.is_ns2() {
                    // NewRenoTcpAgent::recv: a partial ACK leaves dupacks_ as it was, so this
                    // and the ACKs after it until recovery ends send with send_much(0, 0, 2):
                    // at most two segments each (newreno_changes_ 0, its default).
                    if self.recovery_burst.is_none() {
                        self.recovery_burst = Some(self.max_burst);
                        self.max_burst = NS2_RECOV_MAXBURST;
                    }
                    partial_capped = true;
                }
                // RFC 6582 section 4: Impatient restarts the timer on the first partial ACK
                // only, Slow-but-Steady on each (ns-2's newreno_changes1_ 1 and 0,
                // NewRenoTcpAgent::partialnewack_helper).
                restart_timer = self.first_partial || self.slow_but_steady;
                self.first_partial = false;
            } else {
                // RFC 5681 3.2 step 6 / RFC 6582 step 3: deflate the window (cwnd already
                // holds the reduced window) and leave recovery. As ns-2 does, this ACK
                // then opens cwnd like any other new ACK.
                // ns-2's FullTcpAgent::pack_action (reno_fastrecov_): cwnd_, inflated by the
                // duplicates, falls back to ssthresh_ (a whole number of segments).
                if self.full_tcp && self.w.cwnd + self.dupwnd > self.w.ssthresh {
                    self.w.cwnd = self.w.ssthresh;
                    self.cwnd_step = Some(self.w.ssthresh);
                } else if self.full_tcp && self.recovery != Recovery::Sack {
                    // Below ssthresh_ (the recovery an ECN cut began): cwnd_ keeps the
                    // duplicates' inflation.
                    self.w.cwnd += self.dupwnd;
                }

                if self.exit_recovery_fix
                    && self.recovery == Recovery::NewReno
                    && !self.full_tcp
                    && self.dupwnd > 0.0
                {
                    // RFC 6582 3.2 step 3, option 1 (NewRenoTcpAgent::recv with
                    // exit_recovery_fix_, while dupwnd_ > 0): cwnd_ = min(ssthresh_,
                    // maxseq_ - ack + 1), the data outstanding plus one segment.
                    let outstanding = (self.maxseq - ack + 1) as f64;
                    self.w.cwnd = self.w.ssthresh.min(outstanding);
                    self.cwnd_step = Some(self.w.cwnd); // a traced cwnd_ shows it
                }
                self.dupwnd = 0.0;
                self.in_recovery = false;
                if grow && self.recovery_exit_growth {
                    self.open_cwnd(now, acked, rtt);
                }
            }
        } else if self.syn_pending && !self.delay_growth {
            // TcpAgent::recv with delay_growth_ false: the SYN's ACK is a new ACK like any.
            self.syn_pending = false;
            if grow && !fast_path {
                self.open_cwnd(now, acked, rtt);
            }
        } else if self.syn_pending {
            // The SYN is acknowledged: the connection is open, with the initial window.
            self.syn_pending = false;
            if self.first_loss != FirstLoss::Off && self.window_init != self.w.cwnd + 1.0 {
                // ns-2's TcpAgent::recv opens cwnd_ by one segment first (opencwnd), then sets
                // it to initial_window(): a traced cwnd_ shows both.
                self.cwnd_step = Some(self.w.cwnd + 1.0);
            }
            self.w.cwnd = if self.quick_start.is_some() {
                self.qs_initial_window() // TcpAgent::initial_window: qs_cwnd_
            } else {
                self.window_init
            };
            if let Some((window, cut)) = self.syn_window.take() {
                // FullTcpAgent::recv in SYN_RECEIVED with `ecn_syn_` (tcp/full.rs).
                self.w.cwnd = window;
                if cut {
                    self.on_ecn_echo(ack, c);
                }
            }
            if self.handshake_ack {
                self.send_handshake_ack(now, out, c);
            }
        } else if grow && !fast_path {
            self.open_cwnd(now, acked, rtt);
            if prev_una == 0 && self.delay_growth && self.quick_start.is_some() {
                // TcpAgent::recv's `last_ack_ == 0 && delay_growth_` without syn_: the ACK of
                // segment 0 sets cwnd_ to initial_window(), the approved Quick-Start window.
                if let Some(w) = self.qs_approved_window() {
                    self.w.cwnd = w;
                }
            }
        }
        if !partial_capped {
            if let Some(burst) = self.recovery_burst.take() {
                self.max_burst = burst; // NewRenoFullTcpAgent::ack_action
            }
        }
        // RFC 6298 5.2 / 5.3: stop the timer when all is acknowledged, else restart it.
        // ns-2.35's one-way agents restart it on every new ACK (`TcpAgent::newtimer`:
        // t_seqno_ is always beyond the ACK), all acknowledged or not (`idle_rtx_timer`).
        if self.una >= self.maxseq && !self.idle_rtx_timer {
            self.rto_deadline = None;
        } else if restart_timer || self.rto_deadline.is_none() {
            match early_rto {
                Some(rto) => self.rto_deadline = Some(now + rto),
                None => self.arm_timer(now),
            }
        }
        if !PLAIN && self.qoption.is_some() && self.una == self.app_limit {
            // TcpAgent::recv_newack_helper with QOption_: all the application gave is
            // acknowledged (`curseq_ == highest_ack_ + 1`), cancel_rtx_timer().
            self.rto_deadline = None;
        }
        if !PLAIN && self.quick_start.is_some() && !newreno_partial {
            self.qs_on_newack(); // TcpAgent::recv_newack_helper
        }
        if self.frto.state != 0 && !newreno_partial {
            // The end of TcpAgent::recv_newack_helper (not NewReno's partial ACKs).
            self.frto_on_new_ack(prev_una);
        }
        if !PLAIN && self.rtt.is_ikr() {
            let nxt = self.nxt;
            self.send_much(now, out, c);
            // IKRSimLib's SendNewData: no new data went, data outstanding: the timer is set
            // with a pending backoff reset done.
            if self.nxt == nxt && self.una < self.maxseq && self.rtt.ikr_idle_reset() {
                self.arm_timer(now);
            }
            return;
        }
        self.send_much(now, out, c);
    }

    /// RFC 3042: one new segment on each of the first duplicate ACKs.
    pub(super) fn limited_transmit(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if !self.limited_transmit {
            return;
        }
        let allowed = (self.w.cwnd as u64 + self.dupacks as u64).min(self.w.rwnd as u64);
        if self.nxt < self.una + allowed && self.nxt < self.app_limit {
            self.emit(self.nxt, now, out, c);
            if self.qoption.is_some() {
                self.qoption_after_send(now, self.nxt); // TcpAgent::send_one
            }
            self.nxt += 1;
        }
    }

    /// An ACK below the highest acknowledged (reordered) with `old_ack_sends`: ns-2.35's
    /// `recv` sends anyway with `aggressive_maxburst_` (`valid_ack || aggressive_maxburst_`),
    /// under each agent's own condition: `TcpAgent::recv` always; `RenoTcpAgent::recv` while
    /// `dupacks_` is 0 or at least `numdupacks_`; `NewRenoTcpAgent::recv` while it is 0, or
    /// two segments at most from `numdupacks_` on (`send_much(0, 0, 2)`, `newreno_changes_`
    /// 0). The ACK changes nothing else.
    #[cold]
    pub(super) fn on_old_ack(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if self.full_tcp {
            return; // FullTcpAgent::recv never reads aggressive_maxburst_
        }
        let in_dupacks = self.dupacks != 0;
        let past_threshold = self.dupacks >= self.dupack_threshold;
        match self.recovery {
            Recovery::Tahoe => {}
            Recovery::Reno if in_dupacks && !past_threshold => return,
            Recovery::NewReno if in_dupacks => {
                if past_threshold {
                    let burst = std::mem::replace(&mut self.max_burst, 2);
                    self.send_much(now, out, c);
                    self.max_burst = burst;
                }
                return;
            }
            Recovery::Reno | Recovery::NewReno => {}
            // Fack: FackTcpAgent::recv, its own (`on_fack_ack`), never comes here.
            Recovery::Sack | Recovery::Rfc793 | Recovery::Fack | Recovery::SackRh => return,
        }
        self.send_much(now, out, c);
    }

    pub(super) fn on_dupack(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if self.frto.state != 0 && self.frto_on_dupack() {
            // TcpAgent::recv (Reno's, NewReno's) after recv_frto_helper: the count is 0,
            // singledup_'s send_one, then send_much.
            self.limited_transmit(now, out, c);
            self.send_much(now, out, c);
            return;
        }
        self.dupacks += 1;
        if self.in_recovery {
            if !self.full_tcp && self.recovery == Recovery::NewReno {
                self.event(AgentEventKind::NewRenoFastRecovery);
            }
            // RFC 5681 3.2 step 4: each further duplicate means a segment has left the network.
            self.dupwnd += 1.0;
            self.send_much(now, out, c);
            return;
        }
        if self.dupacks < self.dupack_threshold {
            self.limited_transmit(now, out, c);
            return;
        }
        if self.dupacks != self.dupack_threshold || self.no_fast_retransmit {
            // (no_fast_retransmit: TcpAgent::recv's `!noFastRetrans_` test; the threshold's
            // duplicate does what a later one does.)
            if self.full_tcp {
                // FullTcpAgent::recv: each duplicate past the threshold ends in send_much.
                self.send_much(now, out, c);
            } else if self.dupacks_always_inflate {
                // RenoTcpAgent::recv / NewRenoTcpAgent::recv with exitFastRetrans_ false:
                // ++dupwnd_ on every duplicate past numdupacks_, in fast recovery or not,
                // then send_much.
                if self.recovery == Recovery::NewReno {
                    self.event(AgentEventKind::NewRenoFastRecovery);
                }
                self.dupwnd += 1.0;
                self.send_much(now, out, c);
            }
            return;
        }
        if !self.may_fast_retransmit() && !self.bugfix_allows() {
            if self.full_tcp && matches!(self.recovery, Recovery::Reno | Recovery::NewReno) {
                // ns-2.35's FullTcpAgent::dupack_action sets fastrecov_ before its bug_fix_
                // check returns: later duplicates inflate cwnd_ (extra_ack) and the next
                // new ACK deflates it to ssthresh_ (pack_action), with nothing retransmitted.
                self.in_recovery = true;
                self.dupwnd = 0.0;
            }
            let retransmitted = self.ecn_then_dupack(now, out, c);
            if self.dupacks_always_inflate && !self.full_tcp && !retransmitted {
                // RenoTcpAgent::recv / NewRenoTcpAgent::recv with exitFastRetrans_ false:
                // dupwnd_ = numdupacks_ after dupack_action, whose bug_fix_ check returned
                // without a fast retransmit; send_much follows.
                self.dupwnd = self.dupack_threshold as f64;
                self.send_much(now, out, c);
            }
            return;
        }
        if !self.full_tcp
            && self.quick_start.is_some()
            && self.qs_loss_applies()
            && matches!(self.recovery, Recovery::Tahoe | Recovery::NewReno)
        {
            self.qs_loss_dupack(now, out, c);
            return;
        }
        let (before, ssthresh_before) = (self.traced_cwnd(), self.w.ssthresh);
        if self.full_tcp && self.recovery.is_tahoe() {
            // TahoeFullTcpAgent::dupack_action traces FAST_RETX before its slowdown.
            self.event(AgentEventKind::FastRetx);
        } else if !self.full_tcp {
            self.one_way_fast_retx_event();
        }
        let reduced = self.reduce_window();
        // Reno reads its recovery point only in `may_fast_retransmit`; NewReno's recovery
        // needs it whatever `careful_after_fast_retransmit` says.
        if self.careful_after_fast_retransmit || self.recovery != Recovery::Reno {
            self.recover = Some(self.maxseq);
        }
        self.last_cut_dupack = true; // FullTcpAgent::fast_retransmit: CWND_ACTION_DUPACK
        self.last_action = LastAction::Dupack;
        c.fast_retransmits += 1;
        if self.rtt.is_ns2() {
            // ns-2's reset_rtx_timer: no timing across the fast retransmit.
            self.timed = None;
        }
        if self.recovery.is_tahoe() {
            // Fast retransmit, then slow start from one segment, going back N.
            self.slowdown_event(before, ssthresh_before, 1.0);
            self.w.cwnd = 1.0;
            self.timed = None;
            self.nxt = self.una;
            self.arm_timer(now);
            self.send_much(now, out, c);
            return;
        }
        self.w.cwnd = reduced;
        if !self.full_tcp {
            self.slowdown_event(before, ssthresh_before, reduced);
        }
        if self.full_tcp && self.recovery != Recovery::Sack {
            // FullTcpAgent::dupack_action: slowdown halves cwnd_, then cwnd_ = ssthresh_ +
            // dupacks_ (a traced cwnd_ shows both); the window sent by is the same.
            // slowdown's SLOW_START, then fast_retransmit's FAST_RETX with the halved cwnd_.
            self.slowdown_event(before, ssthresh_before, reduced);
            self.event_at(AgentEventKind::FastRetx, reduced);
            self.cwnd_step = Some(reduced);
            self.w.cwnd = self.w.ssthresh;
        }
        self.dupwnd = self.dupack_threshold as f64;
        self.in_recovery = true;
        self.first_partial = true;
        self.emit(self.una, now, out, c);
        self.arm_timer(now);
        if self.full_tcp && self.recovery != Recovery::Sack {
            // FullTcpAgent::recv: `dupack_action(); goto drop;` on the third duplicate, and
            // dupack_action's fast_retransmit sends the one segment (foutput): new data waits
            // for the next duplicate's send_much, whatever the inflated window allows now.
            return;
        }
        self.send_much(now, out, c);
    }

    /// Whether a third duplicate ACK starts fast retransmit: always without `bug_fix` (and
    /// `ecn`), else only once the last recovery's data are acknowledged (RFC 6582 section
    /// 3.2 step 2; ns-2's `highest_ack_ > recover_`), or for segment 1 with ns-2's
    /// `bugfix_ss_` (`(bugfix_ss_ && highest_ack_ == 0)` in ns-2.35's `dupack_action`s).
    /// With `ns2_full_tcp` and Reno or NewReno recovery also whenever the last window cut was
    /// a fast retransmit's (ns-2.35 tcp/tcp-full.cc `FullTcpAgent::dupack_action`, which
    /// Tahoe's and Sack's FullTcp replace: `last_cwnd_action_ == CWND_ACTION_DUPACK`).
    /// NewReno with `less_careful` also when exactly the recovery point is acknowledged
    /// (`NewRenoTcpAgent::dupack_action`: `highest_ack_ == recover_`).
    pub(super) fn may_fast_retransmit(&self) -> bool {
        !self.careful
            || self.recover.is_none_or(|r| self.una > r)
            || (self.less_careful
                && self.recovery == Recovery::NewReno
                && self.recover == Some(self.una))
            || (self.first_loss == FirstLoss::BugfixSs && self.una == 1)
            || (self.full_tcp
                && self.last_cut_dupack
                && matches!(self.recovery, Recovery::Reno | Recovery::NewReno))
    }

    /// Sets ssthresh after a loss and returns the reduced window fast recovery continues
    /// with. Congestion control gives the reduced window W' (Reno: W/2); as in RFC 5681
    /// equation 4 ssthresh is at least two segments, and with packet-counted windows it is
    /// truncated to whole segments while cwnd keeps W' exactly (ns-2's `slowdown()` with
    /// `precisionReduce_`: `ssthresh_ = (int) halfwin`, `cwnd_ = halfwin`).
    ///
    /// With `integer_cwnd` the window is Linux's `snd_cwnd`, whole segments (its fraction
    /// lives in `snd_cwnd_cnt`, `tcp_cong_avoid_ai`): the algorithm reduces the whole
    /// segments and its result is truncated (`tcp_reno_ssthresh`: max(cwnd >> 1, 2);
    /// `bictcp_recalc_ssthresh`: max(cwnd * beta >> 10, 2)), and the reduced window is that
    /// ssthresh (`tcp_end_cwnd_reduction`).
    pub(super) fn reduce_window(&mut self) -> f64 {
        self.reduced_window().max(1.0)
    }

    /// [`Self::reduce_window`] without its floor of one segment: ns-2.35's `slowdown()`
    /// (CLOSE_CWND_HALF) leaves `cwnd_ = halfwin` even below one (its `window()`, the whole
    /// segments, is then 0 and the agent sends nothing until its timer fires:
    /// `TcpAgent::timeout` raises `cwnd_` to one).
    pub(super) fn reduced_window(&mut self) -> f64 {
        if self.integer_cwnd {
            self.w.cwnd = self.w.cwnd.floor().max(1.0);
        }
        let mut reduced = if self.ssthresh_flight {
            // The window a loss reduces is min(cwnd, FlightSize) (RFC 5681 eq. 4's FlightSize;
            // IKRSimLib's `TCP_Sender::ReduceSSThresh` with CarefulSSThreshReduction:
            // min(fCWnd, fSndMax - fSndUna, fRecWnd) / 2).
            let mut w = self.w;
            w.cwnd = w.cwnd.min(self.maxseq.saturating_sub(self.una) as f64);
            self.cc.ssthresh(&w, self.clock)
        } else {
            self.cc.ssthresh(&self.w, self.clock)
        };
        if self.whole_reduce {
            // ns-2's slowdown without precision_reduce_: (int)(window() / 2), window() the
            // whole segments of min(cwnd, rwnd); floor(floor(w) / 2) = floor(w / 2).
            reduced = reduced.floor();
        }
        if self.ns2_first_decrease {
            reduced = self.ns2_slowdown();
        }
        // Byte-counted windows keep the exact half (RFC 5681 eq. 4 in bytes).
        let whole = if self.bytes && !self.integer_cwnd {
            reduced
        } else {
            reduced.floor()
        };
        self.w.ssthresh = whole.max(2.0);
        self.cong_action_pending = true;
        if self.integer_cwnd {
            self.w.ssthresh
        } else {
            reduced
        }
    }

    /// ns-2.35's `TcpAgent::slowdown` for a congestion control that keeps other than half the
    /// window (`ns2_first_decrease`): the reduced window (ssthresh before truncation). It is
    /// windowd() = min(cwnd, rwnd), or its whole segments window() without precision_reduce_;
    /// decreasewin is what congestion control keeps of it (Reno: decrease_num_ * window),
    /// halfwin its half, both truncated without precision_reduce_. "For the first decrease,
    /// decrease by half even for non-standard values of decrease_num_": ssthresh_ and cwnd_
    /// (CLOSE_CWND_HALF) take halfwin on the first reduction (first_decrease_) and in slow
    /// start (cwnd_ < ssthresh_); ssthresh_ also on a timeout's (`on_timeout` marks it as a
    /// first: its last_cwnd_action_ is CWND_ACTION_TIMEOUT; the agents' dupack_action and
    /// ecn() set theirs before slowdown() too, so an earlier timeout does not count).
    fn ns2_slowdown(&mut self) -> f64 {
        let exact = self.w.cwnd.min(self.w.rwnd);
        let mut win = exact;
        if self.whole_reduce {
            win = win.floor();
        }
        let mut half = win / 2.0;
        // Without precision_reduce_ Reno keeps decrease_num_ * window(), of the whole
        // segments, but HighSpeed (windowOption_ 8) windowd() - decrease_param() windowd(),
        // of the exact window; both truncated.
        let base = if self.cc.name() == "highspeed" {
            exact
        } else {
            win
        };
        let mut decreased = self.cc.ssthresh(
            &Window {
                cwnd: base,
                ..self.w
            },
            self.clock,
        );
        if self.whole_reduce {
            half = half.floor();
            decreased = decreased.floor();
        }
        let halve =
            std::mem::replace(&mut self.first_decrease, false) || self.w.cwnd < self.w.ssthresh;
        if halve {
            half
        } else {
            decreased
        }
    }

    /// The retransmission timer fired at `now` (the simulator calls this only at the deadline).
    pub fn on_timeout(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.rto_deadline = None;
        if self.rbp.is_some() && self.rbp_timeout() {
            return; // RBP*TcpAgent::timeout with nothing outstanding (sender/rbp.rs)
        }
        // Sack1TcpAgent::timeout: no F-RTO after a timeout during SACK recovery.
        let sack_recovery = self.in_recovery && self.recovery == Recovery::Sack;
        self.frto_on_timeout_start();
        if self.ns2_vegas.is_some() {
            self.on_ns2_vegas_timeout(now, out, c);
            return;
        }
        if self.ns2_linux.is_some() {
            self.on_ns2_linux_timeout(now, out, c);
            return;
        }
        if self.sack_rh.is_some() {
            self.on_sack_rh_timeout(now, out, c);
            return;
        }
        if self.fack.is_some() {
            self.on_fack_timeout(now, out, c);
            return;
        }
        if !self.full_tcp {
            // TcpAgent::timeout traces TIMEOUT before anything changes.
            self.event(AgentEventKind::Timeout);
        }
        if self.quick_start.is_some() {
            self.qs_on_timeout();
        }
        if self.recovery == Recovery::Sack
            && self.rtt.is_ns2()
            && !self.full_tcp
            && self.prr.is_none()
            && !self.rfc6675
        {
            // Sack1TcpAgent::timeout sets timeout_ on every expiry of the timer.
            self.sack_rto_wait = true;
        }
        if self.idle_rtx_timer && self.una >= self.maxseq {
            // ns-2.35's TcpAgent::timeout with nothing outstanding (restart_bugfix_):
            // slowdown(CLOSE_CWND_ONE | NO_OUTSTANDING_DATA), cwnd_ to one segment, ssthresh_
            // kept, the congestion action marked; recover_ = maxseq_; reset_rtx_timer(0, 0),
            // the timer again without backoff, no RTT measurement running; the last action
            // a timeout's. Not counted as a timeout (nrexmit_ stays).
            if self.idle_timeout_keeps_window {
                // With slow_start_restart_ false TcpAgent::timeout calls no slowdown() and
                // keeps recover_ (only cwnd_ below one is raised to one);
                // RenoTcpAgent::timeout (bug_fix_, the front end's only case) and
                // Sack1TcpAgent::timeout set recover_ = maxseq_ before it, Tahoe does not.
                self.w.cwnd = self.w.cwnd.max(1.0);
                if !self.recovery.is_tahoe() {
                    self.recover = Some(self.maxseq);
                }
            } else {
                let (before, ssthresh) = (self.w.cwnd, self.w.ssthresh);
                self.slowdown_event(before, ssthresh, 1.0);
                self.w.cwnd = 1.0;
                self.cong_action_pending = true;
                self.first_decrease = false; // every slowdown() clears first_decrease_
                self.recover = Some(self.maxseq);
            }
            if self.ns2_ecn != Ns2Ecn::Off {
                self.last_action = LastAction::Timeout;
            }
            self.last_cut_dupack = false;
            self.timed = None;
            self.arm_timer(now);
            self.send_much(now, out, c);
            return;
        }
        // FullTcpAgent::timeout with nothing outstanding (the timer `recv` set after a window
        // cut below one segment): timeout_action as for a loss, without backoff
        // (reset_rtx_timer: `highest_ack_ == maxseq_` with restart_bugfix_).
        let idle_full = self.full_tcp && self.una >= self.maxseq;
        if self.una >= self.maxseq && !idle_full {
            if self.advertised && self.w.rwnd < 1.0 && self.nxt < self.app_limit {
                // A window probe: the next segment, sent past the zero window; the receiver
                // answers with its window whether or not it keeps the segment.
                self.emit(self.nxt, now, out, c);
                self.nxt += 1;
                self.rtt.on_timeout();
                self.arm_timer(now);
            }
            return;
        }
        if self.linux.is_some() {
            self.on_linux_timeout(now, out, c);
            return;
        }
        c.timeouts += 1;
        if self.una == 0 {
            // Nothing acknowledged yet (ns-2's highest_ack_ == -1, TcpAgent::timeout): the
            // segment-size rule gives way to the fixed initial window, or with bugfix_ss_ a
            // fixed one above one segment becomes one (RFC 3390 section 2).
            if self.window_init_by_size {
                self.window_init_by_size = false;
                self.window_init = self.window_init_fixed;
            } else if self.first_loss == FirstLoss::BugfixSs && self.window_init > 1.0 {
                self.window_init = 1.0;
            }
        }
        self.clock = now;
        if self.hooks.cwnd_event {
            self.cc.cwnd_event(&mut self.w, CaEvent::Loss);
        }
        if self.rfc6675 {
            if let Some(sb) = self.scoreboard.take() {
                self.rfc6675_timeout(now, sb, out, c);
                return;
            }
        }
        // Linux (`tcp_enter_loss`) keeps the ssthresh that fast recovery set for this window
        // when the timeout comes during that recovery; RFC 5681 and ns-2 recompute it.
        // ns-2.35's TcpAgent::timeout during an unrecovered ECN reduction closes the window
        // without halving ssthresh again (`Ns2Ecn`).
        // FullTcpAgent::timeout_action keeps ssthresh_ whenever the last window cut was an
        // ECN reduction (slowdown(CLOSE_CWND_ONE), last_cwnd_action_ left as it was).
        let after_ecn = self.last_action == LastAction::Ecn
            && (self.full_tcp || self.recover.is_some_and(|r| self.una < r));
        let keeps_ssthresh = after_ecn || (self.linux_timeouts && self.in_recovery);
        if self.ns2_first_decrease {
            // TcpAgent::timeout sets last_cwnd_action_ = CWND_ACTION_TIMEOUT before its
            // slowdown(), whose ssthresh_ then takes half the window as on a first decrease
            // (and clears first_decrease_); slowdown(CLOSE_CWND_ONE) after an ECN reduction
            // clears it too.
            self.first_decrease = !keeps_ssthresh;
        }
        if self.full_tcp
            && self.dupwnd > 0.0
            && matches!(self.recovery, Recovery::Reno | Recovery::NewReno)
        {
            // FullTcpAgent::timeout_action's slowdown() halves window(), min(cwnd_, wnd_), and
            // a two-way agent's cwnd_ itself carries fast recovery's inflation (dupack_action's
            // ssthresh_ + dupacks_, extra_ack's cwnd_++), which dupwnd holds here. The one-way
            // agents clear theirs first (RenoTcpAgent::timeout: dupwnd_ = 0).
            self.w.cwnd += self.dupwnd;
            self.dupwnd = 0.0;
        }
        if !keeps_ssthresh {
            self.reduce_window();
        }
        if self.ns2_ecn != Ns2Ecn::Off && !(self.full_tcp && after_ecn) {
            self.last_action = LastAction::Timeout;
        }
        self.set_ca_state(now, CaState::Loss);
        // FullTcpAgent::timeout_action and TcpAgent::timeout: slowdown(...CLOSE_CWND_RESTART
        // or _ONE) leaves cwnd_ at one segment, SLOW_START with t_seqno_ before it goes back.
        self.slowdown_event(f64::INFINITY, 0.0, 1.0);
        self.w.cwnd = 1.0;
        self.dupwnd = 0.0;
        self.in_recovery = false;
        self.frto_on_timeout_cut(sack_recovery);
        // ns-2.35's one-way Tahoe (TcpAgent::timeout) keeps its count of duplicate ACKs
        // across a timeout: the next duplicate is the count's next, not a first one that
        // limited transmit (singledup_) answers with new data; RenoTcpAgent::timeout,
        // Sack1TcpAgent::timeout and FullTcpAgent's timeout clear it.
        if !self.recovery.is_tahoe() || self.full_tcp {
            self.dupacks = 0;
        }
        self.recover = Some(self.maxseq);
        self.last_cut_dupack = false; // CWND_ACTION_TIMEOUT
        if !idle_full {
            self.rtt.on_timeout();
        }
        self.timed = None;
        if let Some(sb) = self.scoreboard.as_mut() {
            sb.clear(self.una);
        }
        self.nxt = self.una;
        if self.full_sack.is_some() {
            // FullTcpAgent::timeout: send_much(1, ...), the first segment forced; pipe
            // control, if on, stays on (SackFullTcpAgent::timeout_action leaves pipectrl_).
            self.full_sack_send(now, true, out, c);
            return;
        }
        self.send_much(now, out, c);
        if self.advertised && self.nxt == self.una {
            // The receiver's window is closed: the retransmission goes anyway, as a probe.
            self.emit(self.una, now, out, c);
            self.nxt = self.una + 1;
        }
    }
}
