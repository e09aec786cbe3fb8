//! ns-2.35's two-way SACK sender, `SackFullTcpAgent` (tcp/tcp-full.cc), under `ns2_full_tcp`
//! with SACK recovery. It is not the one-way `Sack1TcpAgent` (`sack.rs`): its recovery runs
//! on `FullTcpAgent::recv` with its own hooks, and these differ:
//!
//! - every pure duplicate ACK counts (`recv`: `++dupacks_` for an ACK at `highest_ack_`
//!   while the timer runs, whether or not its SACK blocks say anything new), and one below
//!   `highest_ack_` or with no timer running resets the count (`oldack`);
//! - the third starts recovery (`SackFullTcpAgent::dupack_action`): `pipe_` is the data sent
//!   above the cumulative ACK less what the scoreboard holds (no allowance for the duplicates
//!   themselves), the fast retransmission is not counted in it (`fast_retransmit` sends with
//!   `foutput` alone), then `send_much` sends while `pipe_ < int(cwnd_)`; with `bug_fix_` a
//!   third duplicate within the last recovery's data only sets `fastrecov_` (no retransmit,
//!   no pipe control: the window still rules);
//! - while `fastrecov_`, each pure ACK and each ACK of new data takes one segment off
//!   `pipe_`, a partial ACK one more (`pack_action`); a partial ACK opens no window
//!   (`open_cwnd_on_pack_` false for this class, tcl/lib/ns-default.tcl) and leaves the
//!   duplicate count as it is;
//! - the ACK that reaches `recover_` leaves pipe control (`ack_action`) and opens cwnd as any
//!   new ACK does (`opencwnd`), from the halved window; `recover_` stays where it was;
//! - what to send next (`nxt_tseq`): while `highest_ack_ < recover_`, the first hole at or
//!   above `h_seqno_` with a SACKed block above it (`ReassemblyQueue::nexthole`,
//!   `sack_rtx_threshmode_` 1 with `sack_rtx_cthresh_` 1), else `t_seqno_`; sending a hole
//!   moves `h_seqno_` past it (`sent`), and every new ACK raises it to the ACK;
//! - a timeout clears the scoreboard (`clear_on_timeout_`) and `fastrecov_` but not
//!   `pipectrl_`: its `send_much` is forced for the first segment, and pipe control, with a
//!   `pipe_` no longer counted down, holds the rest until the next new ACK ends it.

use super::events::AgentEventKind;
use super::*;

/// `SackFullTcpAgent`'s state beside the sender's own.
#[derive(Clone, Debug, Default)]
pub(super) struct FullSack {
    /// `h_seqno_`: no hole below it is sent again in this recovery.
    h_seqno: u64,
    /// `pipectrl_`: `send_allowed` compares `pipe_` with cwnd instead of the window.
    pipectrl: bool,
}

impl TcpSender {
    /// `FullTcpAgent::recv`'s ACK processing with `SackFullTcpAgent`'s hooks, for an ACK (or a
    /// data segment's piggy-backed acknowledgement, `pure` false) whose ECN-Echo the caller
    /// has handled.
    #[cold]
    pub(super) fn on_full_sack_ack(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        mut sb: Box<Scoreboard>,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let ack = pkt.ack;
        let pure = pkt.kind != PacketKind::TcpData;
        // process_sack: every block goes into the scoreboard (sq_).
        sb.update(self.una, pkt.sack.iter(ack));
        let new = ack > self.una && ack <= self.maxseq;
        // "ACK indicates packet left the network".
        if self.in_recovery && (pure || new) {
            self.pipe -= 1;
        }
        if ack <= self.una {
            self.scoreboard = Some(sb);
            if !pure {
                return; // dupack_reset_ false: a data segment leaves the count alone
            }
            if self.rto_deadline.is_none() || ack < self.una {
                self.dupacks = 0; // oldack
                return;
            }
            self.dupacks += 1;
            if self.dupacks == self.dupack_threshold {
                self.full_sack_dupack_action(now, out, c);
            } else if self.dupacks > self.dupack_threshold {
                // extra_ack() does nothing without reno_fastrecov_.
                self.send_much(now, out, c);
            }
            return;
        }
        if ack > self.maxseq {
            self.scoreboard = Some(sb); // "too-big ACK": dropped after an ACK
            return;
        }
        let fast_path = self.ns2_fast_ack;
        let partial = self.in_recovery && self.recover.is_some_and(|r| ack < r);
        sb.advance(ack); // cleartonxt, in pack_action and ack_action
        self.scoreboard = Some(sb);
        let dupacks = self.dupacks;
        if let Some(fs) = self.full_sack.as_deref_mut() {
            fs.h_seqno = fs.h_seqno.max(ack);
            if !partial && !fast_path {
                fs.pipectrl = false; // ack_action
            }
        }
        if partial {
            // SackFullTcpAgent::pack_action: the retransmission and the original have both
            // left; no window growth on a partial ACK; dupacks_ kept.
            self.pipe -= 1;
            self.skip_growth = true;
        } else {
            self.in_recovery = false; // ack_action: fastrecov_ = FALSE, dupacks_ = 0
        }
        // newack (timers, RTT sample, highest_ack_, t_seqno_), opencwnd unless partial, and
        // send_much: the one-way path outside recovery does the same.
        let was = std::mem::replace(&mut self.in_recovery, false);
        self.new_ack(now, ack, out, c);
        self.in_recovery = was;
        if partial {
            self.dupacks = dupacks;
        }
    }

    /// `SackFullTcpAgent::dupack_action`, on the third duplicate ACK.
    fn full_sack_dupack_action(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let recovered = self.recover.is_none_or(|r| self.una > r);
        self.in_recovery = true; // fastrecov_
        let sacked = self.scoreboard.as_ref().map_or(0, |sb| sb.sacked());
        self.pipe = (self.maxseq - self.una) as i64 - sacked as i64;
        if !recovered && (self.careful || self.ecn) {
            if self.ecn && self.last_action == LastAction::Ecn {
                // ECN reduced the window in this window of data already: retransmit
                // without reducing it again.
                self.last_action = LastAction::Dupack;
                self.full_sack_fast_retransmit(now, out, c);
                return;
            }
            if self.careful {
                return; // bug_fix_: no second fast retransmit for one window of data
            }
        }
        // FAST_RECOVERY is traced before the slowdown, FAST_RETX after it (fast_retransmit).
        self.event(AgentEventKind::FastRecovery);
        let (before, ssthresh) = (self.w.cwnd, self.w.ssthresh);
        self.w.cwnd = self.reduce_window(); // slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)
        self.slowdown_event(before, ssthresh, self.w.cwnd);
        self.recover = Some(self.maxseq);
        self.last_cut_dupack = true;
        self.last_action = LastAction::Dupack;
        self.full_sack_fast_retransmit(now, out, c);
    }

    /// `fast_retransmit(highest_ack_)` (not counted in `pipe_`), pipe control on, and
    /// `send_much`.
    fn full_sack_fast_retransmit(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        self.event(AgentEventKind::FastRetx);
        self.rto_deadline = None; // cancel_rtx_timer; output sets it again
        self.timed = None; // rtt_active_ = FALSE
        self.recover = Some(self.maxseq);
        c.fast_retransmits += 1;
        self.emit(self.una, now, out, c);
        if let Some(fs) = self.full_sack.as_deref_mut() {
            fs.pipectrl = true;
            fs.h_seqno = self.una + 1;
        }
        self.send_much(now, out, c);
    }

    /// `FullTcpAgent::send_much` with `SackFullTcpAgent::nxt_tseq`, `send_allowed` and
    /// `sent`; `force` sends the first segment whatever the window (a timeout's).
    #[cold]
    pub(super) fn full_sack_send(
        &mut self,
        now: SimTime,
        mut force: bool,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let Some(mut fs) = self.full_sack.take() else {
            return;
        };
        let mut burst = 0;
        loop {
            let seq = self.full_sack_next(&mut fs);
            if seq >= self.app_limit {
                break; // foutput: nothing to send
            }
            if self.stream.is_some() && self.nagle_holds(seq) {
                break; // foutput: a short segment waits (Nagle, `stream.rs`)
            }
            if !force {
                let allowed = if fs.pipectrl {
                    seq < self.una + self.w.rwnd.max(0.0) as u64
                        && self.pipe < self.w.cwnd.max(0.0) as i64
                } else {
                    seq < self.una + self.window()
                };
                if !allowed {
                    break;
                }
            }
            self.emit(seq, now, out, c);
            // sent(): t_seqno_ and h_seqno_ advance past a segment sent at them.
            if seq == self.nxt {
                self.nxt += 1;
            }
            if seq == fs.h_seqno {
                fs.h_seqno += 1;
            }
            self.pipe += 1;
            force = false;
            burst += 1;
            if self.max_burst != 0 && burst >= self.max_burst {
                break;
            }
        }
        self.full_sack = Some(fs);
    }

    /// `SackFullTcpAgent::nxt_tseq`: while below `recover_`, the first hole at or above
    /// `h_seqno_` that has a SACKed block above it, else `t_seqno_`.
    fn full_sack_next(&self, fs: &mut FullSack) -> u64 {
        if self.recover.is_none_or(|r| self.una >= r) {
            return self.nxt;
        }
        let Some(sb) = self.scoreboard.as_deref() else {
            return self.nxt;
        };
        match sb.hole_from(fs.h_seqno.max(self.una)) {
            Some(seq) => {
                fs.h_seqno = fs.h_seqno.max(seq);
                seq
            }
            None => self.nxt,
        }
    }
}
