//! ns-2.35's TCP SACK with Rate-Halving, `Agent/TCP/SackRH` (tcp/tcp-sack-rh.cc,
//! `SackRHTcpAgent`; M. Mathis, J. Semke, J. Mahdavi, K. Lahey, "The Rate-Halving
//! Algorithm for TCP Congestion Control", draft-mathis-tcp-ratehalving, 1999): the `sack_rh`
//! variant. Its receive, timeout and sending replace `TcpAgent`'s whole; window growth is
//! `TcpAgent::opencwnd`'s, the scoreboard ns-2's `ScoreBoardRH` (`sender/rh_board.rs`).
//! Sequence numbers below are ns-2's (`last_ack_` is the engine's `una - 1`, `t_seqno_` its
//! `nxt`). The draft's section numbers are the code's:
//!
//! - Every ACK first goes through `SackRHTcpAgent::newack`: the timer restarted (`newtimer`),
//!   `last_ack_` to the ACK, `t_seqno_` past it, the timed segment's ACK ends the backoff
//!   and gives the RTT sample (with timestamps every ACK's echo does), `awnd_`.
//! - The scoreboard takes the ACK (`retran_data_` less the resent segments it covers); an
//!   ACK without SACK blocks that does not advance counts in `num_dupacks_`; `fack_` is the
//!   board's last segment in RH_INCR and RH_EXACT, `last_ack_ + num_dupacks_ + 1` when
//!   estimating.
//! - States: RH_INCR (no adjustment), RH_EXACT (holes known from SACK: entered when the ACK
//!   reports a new hole, cwnd_ falls by half the segments newly known to have left),
//!   RH_EST (duplicates without SACK: cwnd_ falls half a segment per ACK), RH_EST_REPAIR (cwnd_
//!   down to half: held). 7.8: without a retransmission or ECN, RH_EXACT left on an ACK
//!   without SACK and RH_EST on a new ACK restore the prior window (reordering). 7.10/7.11:
//!   RH_EXACT ends when `fack_` reaches `prior_max_seq_` or a retransmission of this interval
//!   was SACKed, RH_EST* when `last_ack_` reaches it (cwnd_ from the estimate, 7.13); then
//!   7.14's bounds: cwnd_ at most half the prior window, ssthresh_ = cwnd_ (an int) but at
//!   least a quarter of it. 7.9: a partial ACK while estimating clears `retran_data_`.
//!   Entering an interval sets `cong_action_` and a new `rh_id_`.
//! - 7.2: in RH_INCR the window opens (`opencwnd`) when the ACK finds the pipe full
//!   (`t_seqno_ - old fack_ + old retran_data_ + 1 >= int(cwnd_)`).
//! - 7.3, `send_much`: while `int(cwnd_) >= t_seqno_ - fack_ + retran_data_`: the first hole
//!   reported `numdupacks_` times (`GetNextRetran`, marked resent with `t_seqno_` and
//!   `rh_id_`), else, estimating with a new hole, `last_ack_ + 1`, else new data within
//!   `wnd_` of `last_ack_`; `maxburst_` segments at most per call.
//! - 7.15, `timeout`: unless nothing is outstanding and `slow_start_restart_` is false; an
//!   adjustment under way is undone (cwnd_ to the prior window), then `slowdown(
//!   CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART)`, `retran_data_` 0, every hole to be resent
//!   (`TimeoutScoreBoard`), `t_seqno_` back to `fack_ + 1`, the timer backed off.
//!
//! Not modelled (the ns-2 front end refuses them with SackRH): ECN, `overhead_`, an ACK
//! below `last_ack_` (reordered), which ns-2's `newack` would take `last_ack_` back to.

use super::rh_board::RhBoard;
use super::*;

const RH_INCR: u8 = 0;
const RH_EXACT: u8 = 11;
const RH_EST: u8 = 12;
const RH_EST_REPAIR: u8 = 13;
const RHEH_NONE: u8 = 0;
const RHEH_COUNTING: u8 = 1;
const RHEH_NEW_HOLE: u8 = 2;
const RHEH_RETRANS_OCCURRED: u8 = 3;

#[derive(Clone, Debug)]
pub(super) struct SackRh {
    board: RhBoard,
    fack: i64,
    retran_data: i64,
    num_dupacks: i64,
    rh_state: u8,
    prior_cwnd: f64,
    prior_max_seq: i64,
    rh_id: i64,
    rh_max: i64,
    rh_est_hole_state: u8,
    num_retrans: i64,
    rh_retran_flag: bool,
    rh_ecn_flag: bool,
}

impl SackRh {
    pub(super) fn new(numdupacks: u32) -> Box<SackRh> {
        Box::new(SackRh {
            board: RhBoard::new(numdupacks),
            fack: -1,
            retran_data: 0,
            num_dupacks: 0,
            rh_state: RH_INCR,
            prior_cwnd: 0.0,
            prior_max_seq: 0,
            rh_id: 0,
            rh_max: 0,
            rh_est_hole_state: RHEH_NONE,
            num_retrans: 0,
            rh_retran_flag: false,
            rh_ecn_flag: false,
        })
    }

    /// `rhclear`.
    fn clear(&mut self) {
        self.rh_id = 0;
        self.prior_max_seq = 0;
        self.num_dupacks = 0;
        self.rh_est_hole_state = RHEH_NONE;
        self.rh_ecn_flag = false;
        self.num_retrans = 0;
        self.rh_retran_flag = false;
        self.prior_cwnd = 0.0;
    }

    /// `computefack`.
    fn compute_fack(&mut self, last_ack: i64) {
        self.fack = if self.rh_state == RH_INCR || self.rh_state == RH_EXACT {
            self.board.fack(last_ack)
        } else {
            last_ack + self.num_dupacks + 1
        };
    }

    /// Enters an adjustment interval in `state` (7.4, 7.5).
    fn enter(&mut self, state: u8, cwnd: f64, t_seqno: i64) {
        self.rh_state = state;
        self.prior_cwnd = cwnd;
        self.prior_max_seq = t_seqno;
        self.rh_max += 1;
        self.rh_id = self.rh_max;
    }
}

impl TcpSender {
    fn rh(&mut self) -> &mut SackRh {
        self.sack_rh.as_deref_mut().expect("sack_rh")
    }

    /// `boundparms` (7.14).
    fn rh_bound(&mut self) {
        let prior = self.rh().prior_cwnd;
        if self.w.cwnd > prior / 2.0 {
            self.w.cwnd = prior / 2.0;
        }
        // ssthresh_ is an int: the assignment truncates.
        let mut ssthresh = self.w.cwnd.trunc();
        if ssthresh < prior / 4.0 {
            ssthresh = (prior / 4.0).trunc();
        }
        self.w.ssthresh = ssthresh;
    }

    /// `SackRHTcpAgent::newack` for the ACK at hand.
    fn rh_newack(&mut self, now: SimTime, pkt: &Packet, c: &mut FlowCounters) {
        let seqno = pkt.ack as i64 - 1;
        // newtimer: set while t_seqno_ is past the ACK or data beyond it was sent.
        if self.nxt as i64 > seqno || seqno < self.maxseq as i64 - 1 {
            self.arm_timer(now);
        } else {
            self.rto_deadline = None;
        }
        if pkt.ack > self.una {
            self.una = pkt.ack;
            self.note_completion(now);
        }
        if self.nxt < self.una {
            self.nxt = self.una;
        }
        if self.timestamps {
            self.rtt.sample_between(pkt.ts_echo, now, true);
            c.rtt_samples += 1;
            c.rtt_sum_ps += u128::from(self.rtt.last_sample);
        }
        if let Some((seq, sent)) = self.timed {
            if pkt.ack > seq {
                self.rtt.reset_backoff();
                self.timed = None;
                if !self.timestamps {
                    self.rtt.sample_between(sent, now, false);
                    c.rtt_samples += 1;
                    c.rtt_sum_ps += u128::from(self.rtt.last_sample);
                }
            }
        }
        self.note_ns2_newack();
    }

    /// `SackRHTcpAgent::recv`.
    #[inline(never)]
    pub(super) fn on_sack_rh_ack(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let sack = !pkt.sack.is_empty();
        let old_ack = self.una as i64 - 1;
        self.rh_newack(now, pkt, c);
        let last_ack = self.una as i64 - 1;
        let t_seqno = self.nxt as i64;
        let r = self.rh();
        let (old_fack, old_retran_data) = (r.fack, r.retran_data);
        r.retran_data -= r.board.update(last_ack, &pkt.sack, pkt.ack, r.rh_id);
        if !sack && old_ack == last_ack {
            r.num_dupacks += 1;
            if r.rh_est_hole_state == RHEH_COUNTING && r.num_dupacks == r.board_numdupacks() {
                r.rh_est_hole_state = RHEH_NEW_HOLE;
            }
        }
        r.compute_fack(last_ack);
        // 7.8: reordering exits.
        if !r.rh_retran_flag
            && !r.rh_ecn_flag
            && ((r.rh_state == RH_EXACT && !sack) || (r.rh_state == RH_EST && last_ack > old_ack))
        {
            r.rh_state = RH_INCR;
            let prior = r.prior_cwnd;
            r.clear();
            r.compute_fack(last_ack);
            self.w.cwnd = prior;
        }
        // 7.10: RH_EXACT completes.
        let r = self.rh();
        if r.rh_state == RH_EXACT && (r.fack >= r.prior_max_seq || r.board.retran_sacked(r.rh_id)) {
            self.rh_bound();
            let r = self.rh();
            r.rh_state = RH_INCR;
            r.clear();
        }
        // 7.11: RH_EST* complete.
        let r = self.rh();
        if (r.rh_state == RH_EST || r.rh_state == RH_EST_REPAIR) && last_ack >= r.prior_max_seq {
            r.retran_data = 0;
            // estadjust (7.13).
            let estimate = (r.prior_cwnd - r.num_retrans as f64) / 2.0;
            self.w.cwnd = estimate;
            self.rh_bound();
            let r = self.rh();
            r.rh_state = RH_INCR;
            r.clear();
            r.compute_fack(last_ack);
        }
        // 7.12: the NewReno case.
        let cwnd_now = self.w.cwnd;
        let r = self.rh();
        if r.rh_state == RH_EST && cwnd_now <= r.prior_cwnd / 2.0 {
            r.rh_state = RH_EST_REPAIR;
        }
        // 7.9: partial ACKs while estimating.
        if (r.rh_state == RH_EST || r.rh_state == RH_EST_REPAIR) && last_ack > old_ack {
            r.retran_data = 0;
            r.num_dupacks -= last_ack - old_ack - 1;
            r.rh_est_hole_state = if r.num_dupacks >= r.board_numdupacks() {
                RHEH_NEW_HOLE
            } else {
                RHEH_COUNTING
            };
            r.compute_fack(last_ack);
        }
        // Entry conditions: 7.4 (a new hole; ECN is not modelled), 7.5 (duplicates).
        let cwnd_now = self.w.cwnd;
        let r = self.rh();
        let mut entered = false;
        if r.rh_state == RH_INCR && r.board.new_holes() != 0 {
            r.enter(RH_EXACT, cwnd_now, t_seqno);
            entered = true;
        }
        if r.rh_state == RH_INCR && r.num_dupacks > 0 {
            r.enter(RH_EST, cwnd_now, t_seqno);
            r.rh_est_hole_state = RHEH_COUNTING;
            entered = true;
        }
        if r.rh_state == RH_EXACT && r.num_dupacks > 0 {
            r.rh_state = RH_EST;
            r.rh_est_hole_state = RHEH_COUNTING;
            r.rh_max += 1;
            r.rh_id = r.rh_max;
        }
        if entered {
            self.cong_action_pending = true;
            self.last_action = LastAction::Dupack;
        }
        // The window.
        let cwnd = self.w.cwnd;
        let r = self.rh();
        match r.rh_state {
            // 7.2: the window opens when the ACK found the pipe full.
            RH_INCR if t_seqno - old_fack + old_retran_data + 1 >= cwnd as i64 => {
                self.open_cwnd(now, 0, None);
            }
            RH_EXACT => {
                let drop = ((r.fack - old_fack) + r.board.new_holes()) as f64;
                self.w.cwnd -= drop / 2.0;
            }
            RH_EST => self.w.cwnd -= 0.5,
            _ => {}
        }
        self.dupacks = r_dupacks(self.rh());
        self.sack_rh_send(now, self.max_burst, out, c);
    }

    /// `SackRHTcpAgent::send_much(0, reason, maxburst)` (7.3).
    pub(super) fn sack_rh_send(
        &mut self,
        now: SimTime,
        maxburst: u32,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let wnd = self.w.rwnd as i64;
        let mut npacket = 0;
        loop {
            let cwnd = self.w.cwnd as i64;
            let t_seqno = self.nxt as i64;
            let last_ack = self.una as i64 - 1;
            let app_limit = self.app_limit;
            let r = self.sack_rh.as_deref_mut().expect("sack_rh");
            if cwnd < t_seqno - r.fack + r.retran_data {
                break;
            }
            let xmit = match r.board.next_retran() {
                None => {
                    if (r.rh_state == RH_EST || r.rh_state == RH_EST_REPAIR)
                        && r.rh_est_hole_state == RHEH_NEW_HOLE
                    {
                        r.rh_est_hole_state = RHEH_RETRANS_OCCURRED;
                        r.num_retrans += 1;
                        r.retran_data += 1;
                        r.rh_retran_flag = true;
                        (last_ack + 1) as u64
                    } else if (self.nxt) < app_limit && t_seqno <= last_ack + wnd {
                        self.nxt += 1;
                        t_seqno as u64
                    } else {
                        break;
                    }
                }
                Some(seq) if seq <= last_ack + wnd => {
                    r.board.mark_retran(seq, t_seqno, r.rh_id);
                    r.retran_data += 1;
                    r.rh_retran_flag = true;
                    seq as u64
                }
                Some(_) => break,
            };
            self.emit(xmit, now, out, c);
            self.nxt = self.nxt.max(xmit + 1);
            npacket += 1;
            if maxburst > 0 && npacket == maxburst {
                break;
            }
        }
    }

    /// `SackRHTcpAgent::timeout(TCP_TIMER_RTX)` (7.15).
    #[inline(never)]
    pub(super) fn on_sack_rh_timeout(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if self.una >= self.maxseq && self.idle_timeout_keeps_window {
            return; // nothing outstanding and slow_start_restart_ false
        }
        let r = self.rh();
        if r.rh_state != RH_INCR {
            let prior = r.prior_cwnd;
            r.clear();
            r.rh_state = RH_INCR;
            self.w.cwnd = prior;
        }
        c.timeouts += 1;
        self.last_action = LastAction::Timeout;
        if self.ns2_first_decrease {
            self.first_decrease = true;
        }
        // slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART).
        self.reduce_window();
        self.w.cwnd = 1.0;
        let t_seqno = self.nxt as i64;
        let last_ack = self.una as i64 - 1;
        let r = self.rh();
        r.retran_data = 0;
        r.board.timeout(t_seqno);
        r.compute_fack(last_ack);
        let fack = r.fack;
        if t_seqno > fack + 1 {
            self.nxt = (fack + 1) as u64;
        }
        // reset_rtx_timer(1, 1): backed off, restarted, t_seqno_ kept, no segment timed.
        self.rtt.on_timeout();
        self.arm_timer(now);
        self.timed = None;
        self.sack_rh_send(now, self.max_burst, out, c);
    }
}

/// The duplicate count a trace shows (`num_dupacks_`, never negative).
fn r_dupacks(r: &SackRh) -> u32 {
    r.num_dupacks.max(0) as u32
}

impl SackRh {
    fn board_numdupacks(&self) -> i64 {
        self.board.numdupacks()
    }
}
