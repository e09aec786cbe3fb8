//! `$tcp reset` on a one-way agent during the run: ns-2.35's `TcpAgent::reset` (tcp/tcp.cc),
//! which starts the connection over on the same agent (`Sack1TcpAgent::reset` clears its
//! scoreboard first, tcp/tcp-sack1.cc).
//!
//! What `TcpAgent::reset` sets anew is what a sender built afresh from the flow's
//! configuration holds: sequence numbers from 0 (`t_seqno_`, `maxseq_`, `last_ack_`,
//! `highest_ack_`), nothing to send (`curseq_` 0), the initial window, `recover_` 0,
//! `dupacks_` 0, the RTT estimate (`rtt_init`: `t_srtt_`, `t_rttvar_`, `t_rtxcur_`,
//! `t_backoff_`), `awnd_`, `first_decrease_`, `last_cwnd_action_`, a new `boot_time_` drawn
//! from the default generator, and its timers cancelled (`cancel_timers`: retransmission,
//! delayed send, burst send). So the caller builds that sender and [`TcpSender::ns2_reset`]
//! carries over from the old one what `reset` leaves as it was:
//! - `ssthresh_ = int(wnd_)` (clamped by `max_ssthresh_`): the window the agent has now,
//!   which a script may have changed during the run;
//! - `rtt_active_` and `rtt_ts_` (only `rtt_seq_` goes back to -1): when a segment was being
//!   timed at the reset, the first new ACK of the new connection covers `rtt_seq_` -1 and
//!   `TcpAgent::newack` takes `now - rtt_ts_`, the time since the old segment was sent, as
//!   its RTT sample; no new segment is timed until then (`TcpAgent::output` times one only
//!   when `!rtt_active_`);
//! - Sack1's `timeout_` (duplicate ACKs ignored after a timeout until a new ACK),
//!   `firstpartial_` and `next_pkt_`, and its scoreboard's `sack_min`
//!   (`ScoreBoardRQ::ClearScoreBoard` clears the queue and `h_seqno_` only, and
//!   `GetNextRetran` starts at `sack_min`: no hole below the old connection's last
//!   cumulative ACK in recovery is retransmitted before a timeout);
//! - the pending `cong_action_` mark and the ECN back-off state (`ecn_backoff_`,
//!   `ecn_burst_`), NewReno's `firstpartial_`, `syn_connects_`, and the window-increase
//!   state (`count_`, `fcnt_`: the congestion control object is kept);
//! - the delayed-send timer's random generator (`overhead_`), the event trace.
//!
//! A reset during fast recovery (Reno's `dupwnd_`, Sack1's `fastrecov_` stay set in ns-2,
//! and the new connection's first ACKs would meet them) is refused, as are agents whose
//! state lives beside these rules (Linux, Vegas, FACK, Q-option, FullTcp, the engine's own
//! RACK, PRR, rate sampling).

use super::*;

impl TcpSender {
    /// Why this sender cannot be reset during the run ([`TcpSender::ns2_reset`]), if it
    /// cannot.
    pub fn ns2_reset_refusal(&self) -> Option<&'static str> {
        if self.full_tcp {
            return Some("a FullTcp agent");
        }
        if self.linux.is_some()
            || self.ns2_linux.is_some()
            || self.ns2_vegas.is_some()
            || self.fack.is_some()
            || self.sack_rh.is_some()
            || self.qoption.is_some()
            || self.prr.is_some()
            || self.rate.is_some()
            || self.cwnd_use.is_some()
            || self.full_sack.is_some()
            || self.psh.is_some()
            || self.recovery == Recovery::Rfc793
        {
            return Some("this TCP variant");
        }
        if self.advertised {
            return Some("a flow with a receive buffer (flow control)");
        }
        if self.in_recovery || self.dupwnd != 0.0 || self.frto.state != 0 {
            return Some("an agent in fast recovery or F-RTO");
        }
        None
    }

    /// `TcpAgent::reset` now: this sender becomes `fresh` (the flow's sender as its
    /// configuration builds it, with the new `boot_time_`), with what ns-2's reset leaves
    /// carried over (see the module's comment). The caller has checked
    /// [`TcpSender::ns2_reset_refusal`].
    pub fn ns2_reset(&mut self, fresh: Box<TcpSender>) {
        let old = std::mem::replace(self, *fresh);
        // ssthresh_ = int(wnd_); if (max_ssthresh_ > 0 && max_ssthresh_ < ssthresh_) ...
        self.max_window = old.max_window;
        self.w.rwnd = old.w.rwnd;
        let mut ssthresh = old.max_window.floor();
        if self.w.max_ssthresh > 0.0 && self.w.max_ssthresh < ssthresh {
            ssthresh = self.w.max_ssthresh;
        }
        self.w.ssthresh = ssthresh;
        // rtt_active_ and rtt_ts_ stay; rtt_seq_ = -1, which every new ACK covers.
        self.timed = old.timed.map(|(_, sent)| (0, sent));
        self.cong_action_pending = old.cong_action_pending;
        self.ecn_backoff = old.ecn_backoff;
        self.ecn_hold_backoff = old.ecn_hold_backoff;
        self.ecn_burst = old.ecn_burst;
        self.ect_seen = old.ect_seen;
        self.first_partial = old.first_partial;
        // Sack1TcpAgent's timeout_, firstpartial_ and next_pkt_, and its scoreboard's
        // sack_min (ScoreBoardRQ::ClearScoreBoard leaves it).
        self.sack_rto_wait = old.sack_rto_wait;
        self.sack_partial_seen = old.sack_partial_seen;
        self.sack_next_pkt = old.sack_next_pkt;
        if let (Some(new), Some(old)) = (self.scoreboard.as_deref_mut(), old.scoreboard.as_deref())
        {
            new.keep_sack_min(old);
        }
        self.syn_sends = old.syn_sends;
        self.syns_sent = old.syns_sent;
        self.cc = old.cc;
        self.hooks = old.hooks;
        self.clock = old.clock;
        self.event_trace = old.event_trace;
        self.events = old.events;
        // cancel_timers: the delayed-send timer stops; its generator is the agent's.
        self.overhead = old.overhead.map(|mut o| {
            o.cancel();
            o
        });
        self.refresh_plain();
    }
}
