//! ns-2.35's F-RTO (tcp/tcp.cc, Pasi Sarolahti's code; the algorithm of RFC 5682): a
//! one-way agent tells a spurious retransmission timeout (a delay spike, not a loss) from a
//! real one by what the ACKs after it acknowledge, and undoes the timeout's window cut when
//! it was spurious. ns-2's `frto_` holds the state, 0, 1 or 2:
//!
//! - `TcpAgent::timeout`: the timeout first remembers the window it cuts (`pipe_prev_`, the
//!   larger of `window()` and `ssthresh_`), and after a cut (not on an idle connection)
//!   moves to 1. `Sack1TcpAgent::timeout` stays at 0 when SACK recovery was under way.
//! - The first new ACK after it (`TcpAgent::recv_newack_helper`, after the window opened):
//!   with no new data to send, or the receiver's window in the way, or the ACK covering all
//!   that was sent before the timeout (step 2a), back to 0 (go-back-N as usual); else the
//!   next segment is the first never sent (`t_seqno_ = recover_ + 1`) and the state 2,
//!   where `window()` lets out two segments past the recovery point (`force_wnd(2)`).
//! - In state 2, a second new ACK declares the timeout spurious (`spurious_timeout`,
//!   `spurious_response_` 1: cwnd back to the flight before that ACK, `t_seqno_ -
//!   prev_highest_ack_`; ssthresh back to `pipe_prev_`; `recover_` below the ACK so the
//!   next loss may fast-retransmit).
//! - A duplicate ACK in state 1 or 2 declares the timeout real (`recv_frto_helper`, which
//!   Tahoe's, Reno's and NewReno's `recv` call): go back to the first unacknowledged
//!   segment with cwnd equal to the state's number, and the duplicate counts for nothing.
//!   Sack1's `recv` never calls it; with `sfrto_enabled_` it reads a duplicate's SACK
//!   blocks instead in state 2: new SACK information about nothing sent after the timeout
//!   only (`is_sacked(tcph, recover_, maxseq_)` false) means spurious, else real.
//!
//! Sequence numbers: ns-2's `recover_` and `highest_ack_` are the engine's minus one (the
//! engine's `recover` and `una` count one past).

use super::*;

/// ns-2.35's `frto_enabled_` / `sfrto_enabled_` on a one-way agent: `frto`, F-RTO from the
/// cumulative ACKs; `sfrto`, and SACK's duplicate ACKs read in state 2.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Ns2Frto {
    #[default]
    Off,
    Frto,
    Sfrto,
}

/// The agent's F-RTO state (`frto_`, `pipe_prev_`, and the `prev_highest_ack_` of the new
/// ACK that moved it to 2).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Frto {
    pub(super) mode: Ns2Frto,
    pub(super) state: u8,
    pipe_prev: f64,
    prev_una: u64,
}

impl Frto {
    pub(super) fn new(mode: Ns2Frto) -> Frto {
        Frto {
            mode,
            ..Frto::default()
        }
    }
}

impl TcpSender {
    /// `TcpAgent::window()` in state 2: `force_wnd(2)`, two segments past the recovery
    /// point whatever cwnd says, within the receiver's window.
    #[cold]
    pub(super) fn frto_window(&self) -> u64 {
        let recover = self.recover.unwrap_or(self.maxseq);
        let forced = (recover + 2).saturating_sub(self.una) as f64;
        forced.min(self.w.rwnd).max(0.0) as u64
    }

    /// `TcpAgent::timeout`'s start: state 0, and `pipe_prev_` from the window before the cut
    /// (`window()` in whole segments, Reno's `dupwnd_` already zeroed by
    /// `RenoTcpAgent::timeout`).
    pub(super) fn frto_on_timeout_start(&mut self) {
        if self.frto.mode == Ns2Frto::Off {
            return;
        }
        self.frto.state = 0;
        let window = self.w.cwnd.min(self.w.rwnd).max(0.0).floor();
        self.frto.pipe_prev = window.max(self.w.ssthresh.floor());
    }

    /// `TcpAgent::timeout` after its window cut: state 1, unless SACK recovery was under way
    /// (`Sack1TcpAgent::timeout`'s `no_frto`).
    pub(super) fn frto_on_timeout_cut(&mut self, sack_recovery: bool) {
        if self.frto.mode != Ns2Frto::Off && !sack_recovery {
            self.frto.state = 1;
        }
    }

    /// The end of `TcpAgent::recv_newack_helper` for a new ACK, `prev_una` the cumulative
    /// ACK before it.
    #[cold]
    pub(super) fn frto_on_new_ack(&mut self, prev_una: u64) {
        match self.frto.state {
            1 => {
                let recover = self.recover.unwrap_or(self.maxseq);
                // `recover_ + 1 >= highest_ack_ + wnd_ || recover_ + 1 >= curseq_`: nothing
                // new may go; `highest_ack_ == recover_`: all sent before was acknowledged.
                let rwnd_end = self.una as f64 + self.w.rwnd.floor();
                if recover as f64 + 1.0 >= rwnd_end
                    || recover >= self.app_limit
                    || self.una == recover
                {
                    self.frto.state = 0;
                } else {
                    self.nxt = recover;
                    self.frto.state = 2;
                    self.frto.prev_una = prev_una;
                }
            }
            2 => {
                self.frto.prev_una = prev_una;
                self.frto_spurious();
            }
            _ => {}
        }
    }

    /// `TcpAgent::spurious_timeout` with `spurious_response_` 1.
    fn frto_spurious(&mut self) {
        self.frto.state = 0;
        // cwnd_ = t_seqno_ - prev_highest_ack_ (ns-2's highest ACK is una - 1).
        self.w.cwnd = (self.nxt + 1).saturating_sub(self.frto.prev_una) as f64;
        self.w.ssthresh = self.frto.pipe_prev;
        // recover_ = highest_ack_ - 1.
        self.recover = Some(self.una.saturating_sub(1));
    }

    /// `TcpAgent::recv_frto_helper` for a duplicate ACK (Tahoe, Reno, NewReno): true if the
    /// timeout was declared real; the duplicate then counts for nothing (`dupacks_ = -1`
    /// before the count's increment).
    #[cold]
    pub(super) fn frto_on_dupack(&mut self) -> bool {
        if self.frto.state == 0 {
            return false;
        }
        self.nxt = self.una;
        self.w.cwnd = self.frto.state as f64;
        self.frto.state = 0;
        self.dupacks = 0;
        true
    }

    /// `Sack1TcpAgent::recv`'s SACK-based F-RTO for a duplicate ACK in state 2
    /// (`sfrto_enabled_`): `changed` is whether it brought new SACK information
    /// (`scb_->IsChanged()`).
    #[cold]
    pub(super) fn sfrto_on_dupack(&mut self, changed: bool, blocks: &SackBlocks, ack: u64) {
        if self.frto.mode != Ns2Frto::Sfrto || self.frto.state != 2 {
            return;
        }
        // is_sacked(tcph, recover_, maxseq_): a block touching ns-2's [recover_, maxseq_].
        let lo = self.recover.unwrap_or(self.maxseq).saturating_sub(1);
        let hi = self.maxseq.saturating_sub(1);
        let after_timeout = blocks.iter(ack).any(|(left, right)| {
            (right > lo && right <= hi) || (left >= lo && left < hi) || (left < lo && right > hi)
        });
        if changed && !after_timeout {
            self.frto_spurious();
        } else {
            self.nxt = self.una;
            self.w.cwnd = self.frto.state as f64;
            self.frto.state = 0;
            self.dupacks = 0;
        }
    }
}
