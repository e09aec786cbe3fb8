//! ns-2.35's Forward Acknowledgement TCP, `Agent/TCP/Fack` (tcp/tcp-fack.cc,
//! `FackTcpAgent`; M. Mathis, J. Mahdavi, "Forward Acknowledgement: Refining TCP Congestion
//! Control", SIGCOMM 1996): the `fack` variant. Its receive, timeout and sending replace
//! `TcpAgent`'s whole; window growth is `TcpAgent::opencwnd`'s and the scoreboard ns-2's
//! `ScoreBoard` (`sender/ns2_board.rs`). Sequence numbers below are ns-2's (`last_ack_` is the
//! engine's `una - 1`, `t_seqno_` its `nxt`), `fack_` the highest segment the receiver is
//! known to hold. Rule by rule:
//!
//! - `FackTcpAgent::recv`, outside fast recovery: an ACK of new data without SACK blocks is
//!   a new ACK as `TcpAgent` takes it (`recv_newack_helper`: `newack`, `opencwnd`), with
//!   `fack_ = last_ack_`, the scoreboard cleared, `retran_data_` 0 and sending resumed. An
//!   ACK below `last_ack_` changes nothing. Any other (a duplicate, or new data with SACK
//!   blocks) updates the scoreboard from the old `last_ack_`, then `oldack` (below), raises
//!   `fack_` to the highest SACKed segment and `t_seqno_` past it, and counts `dupacks_ =
//!   fack_ - last_ack_ - 1`: at `numdupacks_` fast recovery begins: `recover_ = t_seqno_`,
//!   `slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART)` (ssthresh half the window, cwnd
//!   `wnd_restart_`, one segment), the timer restarted without timing, `last_ack_ + 1`
//!   marked resent (`retran_data_` + 1) and resent. The agent then sends if `dupacks_` is 0.
//! - `FackTcpAgent::oldack`: `last_ack_` moves to the ACK, the timer restarts (`newtimer`,
//!   before the sample), the timed segment's ACK ends the backoff, and every such ACK gives
//!   an RTT sample from the timestamp it echoes (`rtt_update(now - ts_echo)`, timestamps on
//!   or not: ns-2's sink always echoes the segment's), `ts_resetRTO_` ending the backoff too.
//! - In fast recovery every ACK goes through `oldack`, raises `fack_`, updates the scoreboard
//!   from the new `last_ack_`, stops sending when a resent segment was lost again
//!   (`CheckSndNxt`, `timeout_`), opens cwnd (`opencwnd`, on every ACK), and ends recovery
//!   when it has no SACK blocks and reaches `recover_`; then the agent sends.
//! - `FackTcpAgent::send_much`: while `t_seqno_ <= fack_ + window() - retran_data_` and not
//!   `timeout_`: the lowest hole not resent (`GetNextRetran`, marked resent with `t_seqno_`,
//!   `retran_data_` + 1), else new data, in fast recovery only within `wnd_` of
//!   `highest_ack_`; `maxburst_` segments at most per call.
//! - `FackTcpAgent::timeout`: unless nothing is outstanding and `slow_start_restart_` is
//!   false: `timeout_` and `retran_data_` cleared, `slowdown(CLOSE_SSTHRESH_HALF |
//!   CLOSE_CWND_RESTART)` (or, nothing outstanding, `CLOSE_CWND_INIT`), scoreboard cleared,
//!   the timer backed off (not with nothing outstanding) and restarted, `fack_ = last_ack_`,
//!   go back N; fast recovery is not left (`fastrecov_` and `recover_` stay).
//!
//! Not modelled (the ns-2 front end refuses them with Fack): `rampdown_` and `ss-div4_`
//! (the window trim during recovery), ECN, `overhead_`. An ACK below `last_ack_` in fast
//! recovery (reordered ACKs), which ns-2's `oldack` would take `last_ack_` back to, leaves it.

use super::ns2_board::Board;
use super::*;

/// `FackTcpAgent::SBSIZE`: the scoreboard's first size.
const SBSIZE: usize = 1024;

#[derive(Clone, Debug)]
pub(super) struct Fack {
    board: Board,
    /// `fack_`, `retran_data_`, `recover_`, `dupacks_` (it can be -1), `timeout_`,
    /// `fastrecov_`.
    fack: i64,
    retran_data: i64,
    recover: i64,
    dupacks: i64,
    timeout: bool,
    fastrecov: bool,
}

impl Fack {
    pub(super) fn new() -> Box<Fack> {
        Box::new(Fack {
            board: Board::new(SBSIZE),
            fack: -1,
            retran_data: 0,
            recover: 0,
            dupacks: 0,
            timeout: false,
            fastrecov: false,
        })
    }
}

/// `FackTcpAgent::maxsack`: the highest segment the ACK's SACK blocks hold; -2 without any.
fn maxsack(blocks: &SackBlocks, ack: u64) -> i64 {
    blocks
        .iter(ack)
        .map(|(_, right)| right as i64)
        .max()
        .unwrap_or(-1)
        - 1
}

impl TcpSender {
    fn fk(&mut self) -> &mut Fack {
        self.fack.as_deref_mut().expect("fack")
    }

    /// `FackTcpAgent::recv`.
    #[inline(never)]
    pub(super) fn on_fack_ack(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let seqno = pkt.ack as i64 - 1;
        let last_ack = self.una as i64 - 1;
        let sack = !pkt.sack.is_empty();
        if self.fk().fastrecov {
            self.fack_oldack(now, pkt, c);
            let ms = maxsack(&pkt.sack, pkt.ack);
            let t_seqno = self.nxt as i64;
            let highest_ack = self.una as i64 - 1;
            let f = self.fk();
            f.fack = f.fack.max(ms);
            let raise = f.fack >= t_seqno;
            let next = f.fack + 1;
            f.retran_data -= f.board.update(highest_ack, &pkt.sack, pkt.ack);
            f.timeout |= f.board.check_snd_nxt(&pkt.sack, pkt.ack);
            if raise {
                self.nxt = next as u64;
            }
            self.open_cwnd(now, 0, None);
            let f = self.fk();
            if !sack && highest_ack >= f.recover {
                // No SACK blocks: fast recovery is over.
                f.fastrecov = false;
                f.timeout = false;
                f.board.clear();
                f.retran_data = 0;
                f.dupacks = 0;
                self.dupacks = 0;
            }
            self.fack_send(now, self.max_burst, out, c);
            return;
        }
        if seqno > last_ack && !sack && pkt.ack <= self.maxseq {
            // A regular ACK outside fast recovery (recv_newack_helper), whose send_much
            // (dupacks_ 0) is new_ack's.
            let f = self.fk();
            f.fack = seqno;
            f.timeout = false;
            f.board.clear();
            f.retran_data = 0;
            f.dupacks = 0;
            self.on_new_ack(now, pkt.ack, out, c);
            return;
        }
        if seqno >= last_ack && pkt.ack <= self.maxseq {
            let decr = self.fk().board.update(last_ack, &pkt.sack, pkt.ack);
            self.fk().retran_data -= decr;
            self.fack_oldack(now, pkt, c);
            let ms = maxsack(&pkt.sack, pkt.ack);
            let last_ack = self.una as i64 - 1;
            let f = self.fk();
            f.fack = f.fack.max(ms);
            let fack = f.fack;
            if fack >= self.nxt as i64 {
                self.nxt = (fack + 1) as u64;
            }
            let dupacks = fack - last_ack - 1;
            self.fk().dupacks = dupacks;
            self.dupacks = dupacks.max(0) as u32;
            if dupacks >= self.dupack_threshold as i64 {
                self.fack_recovery(now, out, c);
            }
        }
        if self.fk().dupacks == 0 {
            self.fack_send(now, self.max_burst, out, c);
        }
    }

    /// The start of fast recovery in `FackTcpAgent::recv`.
    fn fack_recovery(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        let t_seqno = self.nxt as i64;
        self.fk().recover = t_seqno;
        self.last_action = LastAction::Dupack;
        // slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART): cwnd_ = int(wnd_restart_).
        self.reduce_window();
        self.w.cwnd = 1.0;
        // reset_rtx_timer(1, 0): the timer restarted, no segment timed.
        self.arm_timer(now);
        self.timed = None;
        c.fast_retransmits += 1;
        let first = self.una;
        let f = self.fk();
        f.fastrecov = true;
        f.board.mark_retran(first as i64, t_seqno);
        f.retran_data += 1;
        self.emit(first, now, out, c);
    }

    /// `FackTcpAgent::oldack` for the ACK at hand.
    fn fack_oldack(&mut self, now: SimTime, pkt: &Packet, c: &mut FlowCounters) {
        if pkt.ack > self.una {
            self.una = pkt.ack;
            self.note_completion(now);
        }
        let highest_ack = self.una as i64 - 1;
        let f = self.fk();
        f.fack = f.fack.max(highest_ack);
        if self.nxt < self.una {
            self.nxt = self.una;
        }
        // newtimer: t_seqno_ is past the ACK, so the timer is set, with the timeout before
        // this ACK's sample.
        self.arm_timer(now);
        if self.timed.is_some_and(|(seq, _)| pkt.ack > seq) {
            self.timed = None;
            self.rtt.reset_backoff();
        }
        self.rtt.sample_between(pkt.ts_echo, now, self.timestamps);
        c.rtt_samples += 1;
        c.rtt_sum_ps += u128::from(self.rtt.last_sample);
        if self.ts_reset_rto {
            self.rtt.reset_backoff();
        }
        self.note_ns2_newack();
    }

    /// `FackTcpAgent::send_much(0, reason, maxburst)`.
    pub(super) fn fack_send(
        &mut self,
        now: SimTime,
        maxburst: u32,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        // FackTcpAgent::window(): int(min(cwnd_, wnd_)) (wintrim_ 0 without rampdown_).
        let win = self.w.cwnd.min(self.w.rwnd).max(0.0) as i64;
        let wnd = self.w.rwnd as i64;
        let mut npacket = 0;
        loop {
            let t_seqno = self.nxt as i64;
            let highest_ack = self.una as i64 - 1;
            let f = self.fack.as_deref_mut().expect("fack");
            if t_seqno > f.fack + win - f.retran_data || f.timeout {
                break;
            }
            let xmit = match f.board.next_retran() {
                Some(seq) => {
                    f.board.mark_retran(seq, t_seqno);
                    f.retran_data += 1;
                    seq as u64
                }
                None => {
                    if self.nxt >= self.app_limit {
                        return;
                    }
                    if f.fastrecov && t_seqno > highest_ack + wnd {
                        break;
                    }
                    self.nxt += 1;
                    t_seqno as u64
                }
            };
            self.emit(xmit, now, out, c);
            self.nxt = self.nxt.max(xmit + 1);
            npacket += 1;
            if maxburst > 0 && npacket == maxburst {
                break;
            }
        }
    }

    /// `FackTcpAgent::timeout(TCP_TIMER_RTX)`.
    #[inline(never)]
    pub(super) fn on_fack_timeout(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let idle = self.una >= self.maxseq;
        if idle && self.idle_timeout_keeps_window {
            return; // nothing outstanding and slow_start_restart_ false
        }
        let f = self.fk();
        f.timeout = false;
        f.retran_data = 0;
        f.board.clear();
        self.last_action = LastAction::Timeout;
        if idle {
            // slowdown(CLOSE_CWND_INIT) (restart_bugfix_): ssthresh_ kept.
            self.w.cwnd = self.window_init;
            self.cong_action_pending = true;
            self.first_decrease = false;
        } else {
            c.timeouts += 1;
            // slowdown(CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART), last_cwnd_action_ a
            // timeout's: ssthresh_ half the window.
            if self.ns2_first_decrease {
                self.first_decrease = true;
            }
            self.reduce_window();
            self.w.cwnd = 1.0;
            // reset_rtx_timer(TCP_REASON_TIMEOUT, 1): backed off.
            self.rtt.on_timeout();
        }
        self.arm_timer(now);
        self.timed = None;
        self.fk().fack = self.una as i64 - 1;
        self.nxt = self.una;
        self.fack_send(now, 0, out, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maxsack_is_the_highest_sacked_segment() {
        let mut blocks = SackBlocks::NONE;
        assert_eq!(maxsack(&blocks, 14), -2);
        assert!(blocks.push(14, 15, 17));
        assert!(blocks.push(14, 20, 22));
        assert_eq!(maxsack(&blocks, 14), 21);
    }
}
