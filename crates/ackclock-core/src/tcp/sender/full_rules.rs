//! ns-2.35 FullTcpAgent's rules the one-way sender keeps under `ns2_full_tcp`: the idle
//! restart of `foutput` and the backoff `newack` ends.

use super::TcpSender;
use crate::time::SimTime;

impl TcpSender {
    /// ns-2.35's `FullTcpAgent::foutput` with `slow_start_restart_` (its default): a data
    /// segment leaving with all data acknowledged (`quiet`) after an idle time longer than
    /// `t_rtxcur_` (`idle_restart`, counted in ticks) first closes cwnd to the initial window
    /// (`slowdown(CLOSE_CWND_INIT)`, ssthresh kept), which marks the congestion action.
    #[inline(never)]
    pub(super) fn ns2_idle_restart(&mut self, now: SimTime, retransmit: bool) {
        let quiet = self.una >= self.maxseq && !retransmit;
        if let (true, Some(last)) = (quiet, self.last_data_sent) {
            let rtxcur = self.rtt.ns2_rtxcur().unwrap_or_else(|| self.rtt.base_rto());
            if self.rtt.ns2_idle(last, now) > rtxcur {
                let (before, ssthresh) = (self.w.cwnd, self.w.ssthresh);
                self.slowdown_event(before, ssthresh, self.window_init);
                self.w.cwnd = self.window_init;
                self.cong_action_pending = true;
            }
        }
        self.last_data_sent = Some(now);
    }

    /// ns-2.35's `FullTcpAgent::newack`, which `recv` calls before `ecn()`: the timer restarts
    /// with the timeout as it stands (the backoff and the RTT estimate from before this ACK),
    /// then every new ACK ends the backoff, not only one that yields an RTT sample as in
    /// `TcpAgent::newack` (T. Kelly's fix, "t_backoff_ = 1" outside the timed-segment test);
    /// except while `ect_` and `ecn_backoff_` hold and the ACK carries ECN-Echo ("don't end
    /// backoff if still in ECN-Echo with a congestion window of 1 packet").
    #[cold]
    pub(super) fn full_newack_backoff(&mut self, ece: bool) {
        self.full_ack_rto = Some(self.rtt.rto());
        if !(self.ect_seen && self.ecn_backoff && ece) {
            self.rtt.reset_backoff();
            self.ecn_backoff = false;
        }
    }
}
