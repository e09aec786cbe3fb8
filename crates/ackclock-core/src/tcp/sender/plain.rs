//! Whether a sender is `plain`: none of the parts the general send and ACK paths test for,
//! so it takes their forms with those tests compiled out (`send_window::<true>`,
//! `emit_with::<true>`, `process_ack::<true>`).

use super::TcpSender;

impl TcpSender {
    /// Whether the sender has none of the parts `send_much`, `send_window` and `emit` test
    /// for beyond a plain ns-2 Reno, NewReno or Tahoe sender's: Linux's sender and pacing,
    /// ns-2's TCP-Linux and Vegas, FACK, SACK-RH, FullTcp and its SACK, RBP, the RFC 6675
    /// sender, `overhead_`, Quick-Start, a byte stream, `QOption_`, `bugFix_ack_` and PSH.
    /// What changes from segment to segment (pacing, messages, ECN, the SACK scoreboard,
    /// the congestion control's hooks, delivery rate, the timer rules) is still tested on
    /// the plain path; the SYN's and a retransmission's rules never meet it.
    pub(super) fn plain_now(&self) -> bool {
        !self.linux_pacing
            && self.linux.is_none()
            && self.ns2_linux.is_none()
            && self.sack_rh.is_none()
            && self.fack.is_none()
            && self.ns2_vegas.is_none()
            && self.full_sack.is_none()
            && self.rbp.is_none()
            && !self.rfc6675
            && self.overhead.is_none()
            && self.quick_start.is_none()
            && self.stream.is_none()
            && self.qoption.is_none()
            && !self.full_tcp
            && self.bugfix.is_none()
            && self.psh.is_none()
            && !self.rtt.is_ikr()
    }

    /// Sets `plain` after the sender is built or one of the parts `plain_now` looks for
    /// changed.
    pub(super) fn refresh_plain(&mut self) {
        self.plain = self.plain_now();
    }
}
