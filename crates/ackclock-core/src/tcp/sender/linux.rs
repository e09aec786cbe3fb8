//! The `rack` sender: Linux's loss recovery for SACK flows (the `linux` profile), following
//! `net/ipv4/tcp_input.c` (`tcp_ack`, `tcp_fastretrans_alert`, `tcp_enter_recovery`,
//! `tcp_enter_loss`, `tcp_cwnd_reduction`, `tcp_cong_control`), `tcp_recovery.c` (RACK,
//! RFC 8985), `tcp_output.c` (`tcp_xmit_retransmit_queue`, `tcp_schedule_loss_probe`,
//! `tcp_send_loss_probe`) and `tcp_timer.c` (`tcp_retransmit_timer`). The scoreboard is
//! `tcp::rack::RackBoard`.
//!
//! Per ACK, as `tcp_ack`: the SACK blocks and the cumulative ACK update the scoreboard and the
//! rate sample; recovery or loss ends once the cumulative ACK reaches `high_seq` (what was
//! sent when it began; a SACK flow may start the next recovery on the same ACK, there is no
//! RFC 6582 `recover` gate, `tcp_is_non_sack_preventing_reopen`); RACK marks what it proves
//! lost (`tcp_rack_mark_lost`); any segment marked lost in the Open or Disorder state starts
//! recovery (`tcp_time_to_recover`: "the loss is proven"), with ssthresh from congestion
//! control and proportional rate reduction from the cwnd at that moment
//! (`tcp_init_cwnd_reduction`); a lost retransmission during timeout recovery starts
//! recovery too. cwnd: congestion control's own `cong_control` if it has one (BBR); else PRR
//! in recovery (`tcp_cwnd_reduction`), else growth by the segments delivered (acknowledged
//! or SACKed) on ACKs that advance the cumulative ACK (`tcp_may_raise_cwnd`).
//!
//! Sending (`tcp_xmit_retransmit_queue`, then `tcp_write_xmit`): while what is in flight
//! (`tcp_packets_in_flight`) is below cwnd and pacing allows, the lowest lost segment first,
//! then new data.
//!
//! Timers, one at a time as Linux's `icsk_pending`: the retransmission timeout; RACK's
//! reordering timer (`tcp_rack_reo_timeout`); the tail loss probe (`tcp_schedule_loss_probe`,
//! RFC 8985 section 7: in the Open state, 2 SRTT + 2 ms, + 200 ms with one segment out, never
//! after the RTO), which sends one new segment, or resends the last one, beyond cwnd. A
//! timeout (`tcp_enter_loss`): ssthresh is recomputed only if no reduction happened in this
//! window yet (not in recovery, or the window's end is acknowledged, or the previous timeout
//! made progress), every segment not SACKed is lost (`tcp_timeout_mark_lost`), cwnd = what is
//! in flight + 1, the first segment goes again and slow start resends the rest.
//!
//! Undo (`tcp_undo_cwnd_reduction`): recovery and a timeout's loss state remember the
//! cumulative ACK (`tcp_init_undo`), cwnd and `tcp_current_ssthresh`; the episode's first
//! retransmission stamps `retrans_stamp`. An ACK echoing a timestamp older than it
//! (`tcp_packet_delayed`) undoes the reduction at recovery's end (`tcp_try_undo_recovery`), on a
//! partial ACK once no retransmission is out (`tcp_try_undo_partial`; with some out, only new
//! data goes) or in the loss state (`tcp_try_undo_loss`): cwnd from congestion control's
//! `undo_cwnd`, ssthresh back if higher, LOST marks cleared. F-RTO (RFC 5682 3.1 with SACK,
//! `tcp_process_loss`) after a timeout outside recovery or a repeated one: the first ACK
//! advancing the cumulative ACK sends new data (step 2b, `REXMIT_NEW`); then data never
//! retransmitted (S)ACKed below the recovery point undoes the timeout (3b), a hole proves it
//! real (3a).
//!
//! Left out: DSACKs (the receiver sends none: `tcp_try_undo_dsack`, a probe's DSACK in
//! `tcp_process_tlp_ack`), reordering detection (`tcp_check_sack_reordering`) and the
//! reordering window's growth.

use super::{Prr, TcpSender};
use crate::monitor::FlowCounters;
use crate::packet::Packet;
use crate::packet_pool::Outgoing;
use crate::tcp::cc::{AckEvent, CaEvent, CaState, Conn};
use crate::tcp::rack::RackBoard;
use crate::time::{SimDuration, SimTime};

/// Which timer the sender's one deadline stands for (`icsk_pending`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    Rto,
    Reorder,
    LossProbe,
}

/// RACK's reordering timer and the probe timer wait this much longer (`TCP_TIMEOUT_MIN`).
const TIMEOUT_MIN: SimDuration = SimDuration::from_millis(2);
/// A lone outstanding segment's probe waits for the delayed ACK too (`TCP_RTO_MIN`).
const RTO_MIN: SimDuration = SimDuration::from_millis(200);

#[derive(Clone, Debug)]
pub(super) struct Linux {
    pub(super) board: RackBoard,
    pub(super) state: CaState,
    /// `tp->high_seq`: what was sent when the current recovery or loss began.
    high_seq: u64,
    /// The cwnd when recovery began (`tp->prior_cwnd`, PRR's RecoverFS).
    prior_cwnd: f64,
    /// Timeouts since the cumulative ACK last moved (`icsk_retransmits`).
    retransmits: u32,
    /// The deadline standing for something other than the RTO, and what.
    special: Option<(SimTime, Timer)>,
    /// `tp->tlp_high_seq` (a probe outstanding) and whether it was a retransmission.
    tlp_high_seq: Option<u64>,
    tlp_retrans: bool,
    /// `tcp_min_rtt` (ps; u64::MAX before a sample), from Karn-clean samples.
    pub(super) min_rtt: u64,
    /// `tp->lost`: segments marked lost so far, by RACK, its timer or a timeout.
    lost: u64,
    /// Undo (`tcp_init_undo`): `tp->undo_marker` (the cumulative ACK when the reduction
    /// began; None once undone), `tp->prior_ssthresh` (0: nothing to restore) and
    /// `tp->retrans_stamp`, when the first retransmission of the episode left.
    undo_marker: Option<u64>,
    prior_ssthresh: f64,
    retrans_stamp: Option<SimTime>,
    /// F-RTO (RFC 5682, `tp->frto`) after this timeout; on the next send only new data
    /// (`REXMIT_NEW`, also after a partial undo that leaves retransmissions out).
    frto: bool,
    new_only: bool,
    /// Spurious reductions undone (timestamps: `tcp_try_undo_recovery`, `tcp_try_undo_partial`,
    /// `tcp_try_undo_loss`; F-RTO), for tests.
    pub(super) undos: u64,
}

impl Linux {
    pub(super) fn new(window: u32) -> Linux {
        Linux {
            board: RackBoard::new(window),
            state: CaState::Open,
            high_seq: 0,
            prior_cwnd: 0.0,
            retransmits: 0,
            special: None,
            tlp_high_seq: None,
            tlp_retrans: false,
            min_rtt: u64::MAX,
            lost: 0,
            undo_marker: None,
            prior_ssthresh: 0.0,
            retrans_stamp: None,
            frto: false,
            new_only: false,
            undos: 0,
        }
    }
}

impl TcpSender {
    /// Segments in flight (`tcp_packets_in_flight`).
    #[inline]
    pub(super) fn linux_in_flight(&self) -> u64 {
        let out = self.maxseq - self.una;
        self.linux.as_ref().map_or(out, |l| l.board.in_flight(out))
    }

    /// One ACK (`tcp_ack`).
    #[inline(never)]
    pub(super) fn on_linux_ack(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let ack = pkt.ack;
        if ack < self.una || ack > self.maxseq {
            return;
        }
        let Some(mut l) = self.linux.take() else {
            return;
        };
        let prior_una = self.una;
        let prior_in_flight = l.board.in_flight(self.maxseq - self.una);
        let min_rtt = l.min_rtt;
        let rate = &mut self.rate;
        let d = l.board.on_ack(
            ack,
            pkt.sack.iter(ack),
            self.maxseq,
            now,
            if min_rtt == u64::MAX { 0 } else { min_rtt },
            pkt.ts_echo,
            |seq| {
                if let Some(r) = rate.as_mut() {
                    r.skb_delivered(seq);
                }
            },
        );
        // Karn's rule: the RTT of the most recently sent segment delivered that was never
        // retransmitted (`ca_rtt_us`); the minimum RTT from these (`tcp_update_rtt_min`).
        let ca_rtt = d.last_clean_sent.map(|s| now.since(s));
        if let Some(r) = ca_rtt {
            l.min_rtt = l.min_rtt.min(r.0.max(1));
        }
        let advanced = ack > prior_una;
        let mut rtt = None;
        if advanced {
            rtt = self.sample_rtt(now, ack, c);
            self.rtt.reset_backoff();
            self.una = ack;
            // tcp_clean_rtx_queue: pkts_acked with Karn's ca_rtt_us.
            self.pkts_acked(now, ack - prior_una, ca_rtt);
            self.note_completion(now);
            self.nxt = self.nxt.max(self.una);
            l.retransmits = 0;
            if std::mem::take(&mut self.syn_pending) {
                // The SYN is acknowledged: the connection opens with the initial window.
                self.w.cwnd = self.window_init;
                self.linux = Some(l);
                self.linux_timers(now, true, false);
                self.send_much(now, out, c);
                return;
            }
        }
        // A probe's ACK (`tcp_process_tlp_ack`): a retransmitted probe that the cumulative
        // ACK passes repaired a loss: the window is reduced as for a loss (CWR).
        if let Some(h) = l.tlp_high_seq {
            if ack >= h {
                if l.tlp_retrans && ack > h {
                    if !self.cc.has_cong_control() {
                        self.w.cwnd = self.reduce_window();
                    }
                    l.tlp_high_seq = None;
                } else if !l.tlp_retrans || (!advanced && d.segments == 0) {
                    l.tlp_high_seq = None;
                }
            }
        }
        // The ACK echoes a timestamp older than the episode's first retransmission: what it
        // acknowledges arrived before any retransmission did (tcp_packet_delayed).
        let delayed = l
            .retrans_stamp
            .is_some_and(|r| pkt.ts_echo > SimTime::ZERO && pkt.ts_echo < r);
        let may_undo = l.undo_marker.is_some() && delayed;
        // The end of recovery or loss, and undo (tcp_fastretrans_alert, D and E).
        let mut exited = false;
        let mut hold = false;
        match l.state {
            CaState::Recovery if self.una >= l.high_seq => {
                // tcp_try_undo_recovery, else tcp_end_cwnd_reduction.
                if may_undo {
                    self.linux_undo(&mut l, false);
                } else if !self.cc.has_cong_control() {
                    self.w.cwnd = self.w.ssthresh;
                }
                l.state = CaState::Open;
                exited = true;
            }
            CaState::Recovery if advanced && may_undo => {
                // tcp_try_undo_partial: the hole was filled by the original. With
                // retransmissions still out, only new data goes on this ACK; else undo.
                if l.board.retrans_out > 0 {
                    hold = true;
                    l.new_only = true;
                } else {
                    self.linux_undo(&mut l, true);
                    l.state = CaState::Open;
                    exited = true;
                }
            }
            CaState::Loss => {
                // tcp_process_loss
                let recovered = self.una >= l.high_seq;
                let orig_acked = d.first_clean_seq.is_some_and(|s| s < l.high_seq);
                if advanced && may_undo {
                    // tcp_try_undo_loss: the timeout was spurious (timestamps).
                    self.linux_undo(&mut l, true);
                    l.retransmits = 0;
                    l.state = CaState::Open;
                    exited = true;
                } else if l.frto && orig_acked {
                    // F-RTO step 3b: data never retransmitted is (S)ACKed: spurious.
                    self.linux_undo(&mut l, true);
                    l.retransmits = 0;
                    l.state = CaState::Open;
                    exited = true;
                } else {
                    if l.frto {
                        if self.maxseq > l.high_seq {
                            // Step 3a: new data went out and the ACK shows a hole: real.
                            if d.sacked > 0 || !advanced {
                                l.frto = false;
                            }
                        } else if advanced && !recovered {
                            // Step 2b: send new data first (REXMIT_NEW), if there is any.
                            l.high_seq = self.maxseq;
                            let wnd_end = self.una + self.w.rwnd.max(0.0) as u64;
                            if self.nxt < self.app_limit && self.nxt < wnd_end {
                                l.new_only = true;
                            } else {
                                l.frto = false;
                            }
                        }
                    }
                    if !l.new_only && self.una >= l.high_seq {
                        // tcp_try_undo_recovery (F-RTO step 2a): the loss ends.
                        if may_undo {
                            self.linux_undo(&mut l, false);
                        }
                        l.state = CaState::Open;
                        exited = true;
                    }
                }
            }
            _ => {}
        }
        // RACK (tcp_identify_packet_loss).
        let recovering = matches!(l.state, CaState::Recovery | CaState::Loss);
        let srtt = if self.rtt.srtt > 0 {
            self.rtt.srtt
        } else {
            u64::MAX
        };
        let reo_wnd = l
            .board
            .reo_wnd(recovering, self.dupack_threshold as u64, min_rtt, srtt);
        let retrans_before = l.board.retrans_out;
        let (newly_lost, wait) = if hold {
            (0, None)
        } else {
            l.board.detect_loss(now, self.maxseq, reo_wnd, false)
        };
        l.lost += newly_lost;
        let lost_retrans = l.board.retrans_out < retrans_before;
        if let Some(at) = wait {
            self.rto_deadline = Some(at + TIMEOUT_MIN);
            l.special = Some((at + TIMEOUT_MIN, Timer::Reorder));
        }
        // The start of recovery (tcp_time_to_recover: a loss proven).
        let open = matches!(l.state, CaState::Open | CaState::Disorder);
        if l.board.lost_out > 0 && (open || (l.state == CaState::Loss && lost_retrans)) {
            self.linux_enter_recovery(&mut l, c);
        } else if l.state == CaState::Open && l.board.sacked_out > 0 {
            l.state = CaState::Disorder;
        } else if l.state == CaState::Disorder && l.board.sacked_out == 0 {
            l.state = CaState::Open;
        }
        // tcp_try_to_open: no retransmission left in this window, no episode to time.
        if matches!(l.state, CaState::Open | CaState::Disorder)
            && l.board.retrans_out == 0
            && !l.board.ever_retransmitted(self.una)
        {
            l.retrans_stamp = None;
        }
        let in_recovery = l.state == CaState::Recovery;
        let was = self.in_recovery;
        self.in_recovery = in_recovery;
        self.linux = Some(l);
        // Congestion control (tcp_cong_control).
        let delivered = d.segments;
        if self.cc.has_cong_control() {
            let _ = exited;
            self.linux_cong_control(now, delivered, ca_rtt, was, newly_lost, prior_in_flight);
        } else if in_recovery {
            self.linux_prr(delivered, newly_lost, advanced);
        } else if advanced {
            self.linux_open_cwnd(now, delivered, rtt, ca_rtt);
        }
        self.linux_timers(now, advanced, wait.is_some());
        self.send_much(now, out, c);
    }

    /// `tcp_current_ssthresh`: in a reduction its ssthresh, else at least 3/4 of cwnd.
    fn linux_current_ssthresh(&self, l: &Linux) -> f64 {
        if matches!(l.state, CaState::Recovery | CaState::Cwr) {
            return self.w.ssthresh;
        }
        let c = if self.integer_cwnd {
            self.w.cwnd.floor()
        } else {
            self.w.cwnd
        };
        let three_quarters = if self.integer_cwnd {
            (c / 2.0).floor() + (c / 4.0).floor()
        } else {
            0.75 * c
        };
        self.w.ssthresh.max(three_quarters)
    }

    /// `tcp_undo_cwnd_reduction`: the reduction was spurious. cwnd from congestion control's
    /// `undo_cwnd` (Reno's, CUBIC's: the larger of cwnd and the window before it), ssthresh
    /// back to what it was if that is higher; with `unmark_loss` no segment stays LOST.
    fn linux_undo(&mut self, l: &mut Linux, unmark_loss: bool) {
        if unmark_loss {
            l.board.unmark_lost(self.maxseq);
        } else {
            l.board.force_advance();
        }
        if l.prior_ssthresh > 0.0 {
            self.w.cwnd = self.cc.undo_cwnd(&self.w, l.prior_cwnd);
            if l.prior_ssthresh > self.w.ssthresh {
                self.w.ssthresh = l.prior_ssthresh;
            }
        }
        l.undo_marker = None;
        l.frto = false;
        l.undos += 1;
        self.prr = None;
    }

    /// `tcp_enter_recovery` with `tcp_init_undo` and `tcp_init_cwnd_reduction`.
    fn linux_enter_recovery(&mut self, l: &mut Linux, c: &mut FlowCounters) {
        l.prior_ssthresh = if l.state == CaState::Cwr {
            0.0
        } else {
            self.linux_current_ssthresh(l)
        };
        l.undo_marker = Some(self.una);
        l.frto = false;
        if !self.cc.has_cong_control() {
            self.reduce_window();
        } else {
            // Linux calls ssthresh here whatever the algorithm; BBR's only saves its cwnd.
            self.cc.ssthresh(&self.w, self.clock);
        }
        l.prior_cwnd = self.w.cwnd;
        l.high_seq = self.maxseq;
        l.state = CaState::Recovery;
        l.tlp_high_seq = None;
        self.prr = Some(Prr {
            recover_fs: (self.w.cwnd as u64).max(1),
            ..Prr::default()
        });
        c.fast_retransmits += 1;
    }

    /// `tcp_cwnd_reduction`: proportional rate reduction (RFC 6937) with RecoverFS the cwnd
    /// at the start of recovery, cwnd = in flight + sndcnt.
    fn linux_prr(&mut self, delivered: u64, newly_lost: u64, advanced: bool) {
        let mut p = self.prr.unwrap_or_default();
        let in_flight = self.linux_in_flight();
        if delivered > 0 {
            p.delivered += delivered;
            let ssthresh = self.w.ssthresh;
            let delta = ssthresh - in_flight as f64;
            let mut sndcnt = if delta < 0.0 {
                let due = (ssthresh * p.delivered as f64 / p.recover_fs.max(1) as f64).ceil();
                (due as i64 - p.out as i64).max(0) as u64
            } else {
                let mut n = (p.delivered.saturating_sub(p.out)).max(delivered);
                if advanced && newly_lost == 0 {
                    n += 1;
                }
                n.min(delta as u64)
            };
            if p.out == 0 {
                // The fast retransmission goes on the ACK that starts recovery.
                sndcnt = sndcnt.max(1);
            }
            self.w.cwnd = (in_flight + sndcnt) as f64;
        }
        self.prr = Some(p);
    }

    /// Growth outside recovery (`tcp_cong_avoid`) by what the ACK delivered; the delay
    /// HyStart and the delay-based algorithms see is Karn's `ca_rtt_us`, as Linux passes
    /// to `pkts_acked`.
    fn linux_open_cwnd(
        &mut self,
        now: SimTime,
        delivered: u64,
        rtt: Option<SimDuration>,
        ca_rtt: Option<SimDuration>,
    ) {
        if !self.cwnd_limited() {
            return;
        }
        let credit = if self.bytes { delivered as f64 } else { 1.0 };
        // With `integer_cwnd`, Linux's snd_cwnd is whole segments and `tcp_cong_avoid_ai`
        // counts the segments acknowledged at that window in snd_cwnd_cnt: an increase the
        // algorithm makes in congestion avoidance is per segment acknowledged at the whole
        // window (Reno: 1/W, not 1/(W + fraction)), so it is scaled by cwnd / W; cwnd keeps
        // the fraction, which sending ignores. Slow start adds segments as they are.
        let before = self.w.cwnd;
        let congestion_avoidance = before >= self.w.ssthresh;
        self.cc.cong_avoid(
            &mut self.w,
            AckEvent {
                now,
                acked: delivered,
                credit,
                rtt,
                delay: ca_rtt,
                una: self.una,
                sent: self.maxseq,
                per_ack: self.per_ack,
            },
        );
        if self.integer_cwnd && congestion_avoidance && self.w.cwnd > before && before >= 1.0 {
            self.w.cwnd = before + (self.w.cwnd - before) * before / before.floor();
        }
    }

    /// Congestion control that owns cwnd and pacing sees the ACK's rate sample after loss
    /// detection (Linux calls `cong_control` from `tcp_cong_control`, after
    /// `tcp_fastretrans_alert`).
    #[allow(clippy::too_many_arguments)]
    fn linux_cong_control(
        &mut self,
        now: SimTime,
        delivered: u64,
        ca_rtt: Option<SimDuration>,
        was_in_recovery: bool,
        losses: u64,
        prior_in_flight: u64,
    ) {
        let (min_rtt, state, lost) = self
            .linux
            .as_ref()
            .map_or((0, CaState::Open, 0), |l| (l.min_rtt, l.state, l.lost));
        let in_flight = self.linux_in_flight();
        let srtt_s = SimDuration(self.rtt.srtt).as_secs_f64();
        let Some(r) = self.rate.as_mut() else {
            return;
        };
        let rtt_s = ca_rtt.map_or(0.0, |d| d.as_secs_f64());
        let min_rtt = if min_rtt == u64::MAX { 0 } else { min_rtt };
        let mut rs = r.generate(now, delivered, min_rtt, rtt_s);
        rs.losses = losses;
        rs.prior_in_flight = prior_in_flight;
        let conn = Conn {
            now,
            delivered: r.delivered,
            in_flight,
            srtt_s,
            ca_state: state,
            lost,
            min_rtt_s: min_rtt as f64 * 1e-12,
        };
        if self.in_recovery && !was_in_recovery {
            self.cc.set_state(&mut self.w, CaState::Recovery, &conn);
        } else if !self.in_recovery && was_in_recovery {
            self.cc.set_state(&mut self.w, CaState::Open, &conn);
        }
        self.cc.cong_control(&mut self.w, &rs, &conn);
        self.pacing_rate = self.w.pacing_rate;
        if std::mem::take(&mut self.w.app_limited) {
            // Congestion control set tp->app_limited (BBR in ProbeRTT).
            r.on_app_limited(in_flight);
        }
    }

    /// Sends what cwnd, the receiver's window and pacing allow: lost segments first
    /// (`tcp_xmit_retransmit_queue`), then new data (`tcp_write_xmit`).
    #[inline(never)]
    pub(super) fn linux_send(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        self.pace_deadline = None;
        let cwnd = self.w.cwnd.min(self.w.rwnd).max(0.0) as u64;
        let wnd_end = self.una + self.w.rwnd.max(0.0) as u64;
        let mut sent_new = false;
        let mut sent = 0u64;
        let mut limited = false;
        for _pass in 0..2 {
            loop {
                if self.pacing_rate > 0.0 && now < self.next_send {
                    self.pace_deadline = Some(self.next_send);
                    break;
                }
                if self.linux_in_flight() >= cwnd {
                    limited = true;
                    break;
                }
                let end = self.maxseq.min(wnd_end);
                let lost = self
                    .linux
                    .as_mut()
                    .filter(|l| !l.new_only)
                    .and_then(|l| l.board.next_lost(end));
                if let Some(seq) = lost {
                    self.emit(seq, now, out, c);
                    self.linux_note_retransmission(now);
                } else if self.nxt < wnd_end && self.nxt < self.app_limit {
                    self.emit(self.nxt, now, out, c);
                    self.nxt += 1;
                    sent_new = true;
                } else {
                    break;
                }
                sent += 1;
            }
            // tcp_xmit_recovery: F-RTO's new data could not go: retransmit as usual.
            let fallback = self
                .linux
                .as_mut()
                .filter(|l| l.new_only && l.frto && !sent_new)
                .map(|l| {
                    l.frto = false;
                    l.new_only = false;
                })
                .is_some();
            if !fallback {
                break;
            }
        }
        if let Some(l) = self.linux.as_mut() {
            l.new_only = false;
        }
        if self.piece > 0 {
            self.close_piece(now);
        }
        if let Some(p) = self.prr.as_mut() {
            if self.in_recovery {
                p.out += sent;
            }
        }
        if self.cwnd_use.is_some() {
            self.note_linux_cwnd_use(sent > 0, limited);
        }
        if self.nxt >= self.app_limit && self.app_limit < wnd_end {
            let inflight = self.linux_in_flight();
            if let Some(r) = self.rate.as_mut() {
                r.on_app_limited(inflight);
            }
        }
        if sent_new {
            self.linux_schedule_probe(now, false);
        }
    }

    /// `__tcp_retransmit_skb`: the episode's first retransmission stamps `retrans_stamp`.
    fn linux_note_retransmission(&mut self, now: SimTime) {
        if let Some(l) = self.linux.as_mut() {
            l.retrans_stamp.get_or_insert(now);
        }
    }

    /// `tcp_cwnd_validate` with what is in flight.
    fn note_linux_cwnd_use(&mut self, sent: bool, limited: bool) {
        let flight = self.linux_in_flight();
        let una = self.una;
        let nxt = self.nxt;
        let Some(u) = self.cwnd_use.as_mut() else {
            return;
        };
        if !sent && !limited {
            return;
        }
        if una >= u.until || limited || (!u.limited && flight > u.max_out) {
            *u = super::CwndUse {
                limited,
                max_out: flight,
                until: nxt,
            };
        }
    }

    /// After an ACK: no timer with nothing outstanding; else the reordering timer if RACK
    /// set one, else on forward progress the probe timer or the RTO (`tcp_set_xmit_timer`).
    fn linux_timers(&mut self, now: SimTime, advanced: bool, reorder: bool) {
        if self.una >= self.maxseq {
            self.rto_deadline = None;
            if let Some(l) = self.linux.as_mut() {
                l.special = None;
            }
            return;
        }
        if reorder {
            return;
        }
        if advanced && !self.linux_schedule_probe(now, true) {
            self.linux_rearm_rto(now);
        }
        if self.rto_deadline.is_none() {
            self.linux_rearm_rto(now);
        }
    }

    fn linux_rearm_rto(&mut self, now: SimTime) {
        self.rto_deadline = Some(now + self.rtt.rto());
        if let Some(l) = self.linux.as_mut() {
            l.special = None;
        }
    }

    /// `tcp_schedule_loss_probe`: in the Open state with data outstanding and no probe
    /// outstanding, a probe in 2 SRTT + 2 ms (+ 200 ms for a lone segment, whose ACK may be
    /// delayed), never after the RTO would fire.
    fn linux_schedule_probe(&mut self, now: SimTime, advancing_rto: bool) -> bool {
        let Some(l) = self.linux.as_ref() else {
            return false;
        };
        if l.state != CaState::Open || self.una >= self.maxseq || self.syn_pending {
            return false;
        }
        let srtt = self.rtt.srtt;
        let mut pto = if srtt > 0 {
            let extra = if self.maxseq - self.una == 1 {
                RTO_MIN
            } else {
                TIMEOUT_MIN
            };
            SimDuration(2 * srtt + extra.0)
        } else {
            SimDuration::from_millis(1000)
        };
        let rto_at = if advancing_rto {
            Some(now + self.rtt.rto())
        } else {
            match (self.rto_deadline, l.special) {
                (Some(d), None) => Some(d),
                _ => {
                    let head = l.board.sent_at(self.una);
                    Some(head + self.rtt.rto())
                }
            }
        };
        if let Some(r) = rto_at {
            if r > now {
                pto = SimDuration(pto.0.min(r.0 - now.0));
            }
        }
        let at = now + pto;
        self.rto_deadline = Some(at);
        if let Some(l) = self.linux.as_mut() {
            l.special = Some((at, Timer::LossProbe));
        }
        true
    }

    /// The sender's one timer fired at `now`: the RTO, RACK's reordering timer or the probe.
    #[inline(never)]
    pub(super) fn on_linux_timeout(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let Some(mut l) = self.linux.take() else {
            return;
        };
        let kind = match l.special.take() {
            Some((at, k)) if at == now => k,
            _ => Timer::Rto,
        };
        self.clock = now;
        match kind {
            Timer::Reorder => {
                // tcp_rack_reo_timeout
                let before = l.board.in_flight(self.maxseq - self.una);
                let srtt = if self.rtt.srtt > 0 {
                    self.rtt.srtt
                } else {
                    u64::MAX
                };
                let recovering = matches!(l.state, CaState::Recovery | CaState::Loss);
                let reo =
                    l.board
                        .reo_wnd(recovering, self.dupack_threshold as u64, l.min_rtt, srtt);
                let (newly, wait) = l.board.detect_loss(now, self.maxseq, reo, true);
                l.lost += newly;
                let changed = l.board.in_flight(self.maxseq - self.una) != before;
                if changed && l.state != CaState::Recovery {
                    self.linux_enter_recovery(&mut l, c);
                    self.in_recovery = true;
                }
                self.linux = Some(l);
                if changed {
                    if !self.cc.has_cong_control() {
                        self.linux_prr(1, 0, false);
                    }
                    self.linux_send(now, out, c);
                }
                match wait {
                    Some(at) => {
                        self.rto_deadline = Some(at + TIMEOUT_MIN);
                        if let Some(l) = self.linux.as_mut() {
                            l.special = Some((at + TIMEOUT_MIN, Timer::Reorder));
                        }
                    }
                    None => self.linux_rearm_rto(now),
                }
            }
            Timer::LossProbe => {
                // tcp_send_loss_probe: one probe per tail: new data if the receiver's
                // window has room, else the last segment again; then the RTO.
                let probe = l.tlp_high_seq.is_none();
                self.linux = Some(l);
                if probe {
                    let wnd_end = self.una + self.w.rwnd.max(0.0) as u64;
                    let retrans = !(self.nxt < wnd_end && self.nxt < self.app_limit);
                    if retrans {
                        self.emit(self.maxseq - 1, now, out, c);
                        self.linux_note_retransmission(now);
                    } else {
                        self.emit(self.nxt, now, out, c);
                        self.nxt += 1;
                    }
                    if let Some(l) = self.linux.as_mut() {
                        l.tlp_high_seq = Some(self.maxseq);
                        l.tlp_retrans = retrans;
                    }
                }
                self.linux_rearm_rto(now);
            }
            Timer::Rto => {
                self.linux = Some(l);
                self.on_linux_rto(now, out, c);
            }
        }
    }

    /// `tcp_retransmit_timer` / `tcp_enter_loss`.
    fn on_linux_rto(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.rto_deadline = None;
        if self.una >= self.maxseq {
            return;
        }
        let Some(mut l) = self.linux.take() else {
            return;
        };
        c.timeouts += 1;
        if self.hooks.cwnd_event {
            self.cc.cwnd_event(&mut self.w, CaEvent::Loss);
        }
        // Reduce ssthresh if it has not yet been reduced in this window.
        let reduce = matches!(l.state, CaState::Open | CaState::Disorder)
            || l.high_seq <= self.una
            || (l.state == CaState::Loss && l.retransmits == 0);
        // F-RTO (RFC 5682 3.1 step 1) unless a recovery is under way, but on a repeated
        // timeout of the same segment.
        l.frto = l.state < CaState::Recovery || l.retransmits > 0;
        if reduce {
            // tcp_enter_loss: prior_ssthresh, prior_cwnd and tcp_init_undo.
            l.prior_ssthresh = self.linux_current_ssthresh(&l);
            l.prior_cwnd = self.w.cwnd;
            l.undo_marker = Some(self.una);
        }
        if reduce && !self.cc.has_cong_control() {
            self.reduce_window();
        }
        if reduce && self.cc.has_cong_control() {
            // Linux calls ssthresh here whatever the algorithm; BBR's only saves its cwnd.
            self.cc.ssthresh(&self.w, now);
        }
        // tcp_enter_loss marks the losses (tcp_timeout_mark_lost) before it sets the Loss
        // state, which congestion control sees with them counted (BBR's lt_bw sampling).
        let in_flight = l.board.in_flight(self.maxseq - self.una);
        l.lost += l.board.timeout_mark_lost(now, self.maxseq);
        let conn = Conn {
            now,
            delivered: self.rate.as_ref().map_or(0, |r| r.delivered),
            in_flight,
            srtt_s: SimDuration(self.rtt.srtt).as_secs_f64(),
            ca_state: l.state,
            lost: l.lost,
            min_rtt_s: if l.min_rtt == u64::MAX {
                0.0
            } else {
                l.min_rtt as f64 * 1e-12
            },
        };
        self.cc.set_state(&mut self.w, CaState::Loss, &conn);
        self.w.cwnd = (l.board.in_flight(self.maxseq - self.una) + 1) as f64;
        l.state = CaState::Loss;
        l.high_seq = self.maxseq;
        l.tlp_high_seq = None;
        l.retransmits += 1;
        self.in_recovery = false;
        self.dupacks = 0;
        self.prr = None;
        self.rtt.on_timeout();
        self.timed = None;
        self.linux = Some(l);
        // The first outstanding segment goes again at once, unpaced.
        let head = self.una;
        self.emit(head, now, out, c);
        self.linux_note_retransmission(now);
        self.linux_rearm_rto(now);
    }
}

#[cfg(test)]
mod tests;
