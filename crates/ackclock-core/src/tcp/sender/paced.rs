//! Pacing the sender's segments: the deadline the simulator keeps an event for, Linux's pacing
//! rate (`tcp_update_pacing_rate`) and the gap after each paced segment or TSO piece
//! (`tcp_update_skb_after_send`).

use super::{psh, Outgoing, TcpSender};
use crate::monitor::FlowCounters;
use crate::tcp::pacing;
use crate::time::{SimDuration, SimTime};

impl TcpSender {
    /// When pacing lets the next segment leave, if it is holding one back.
    #[inline]
    pub fn pace_deadline(&self) -> Option<SimTime> {
        self.pace_deadline
    }

    /// The pacing deadline is reached: send what the window allows.
    pub fn on_pace(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        if self.pace_deadline.is_some_and(|d| d <= now) {
            self.pace_deadline = None;
            if self.qs_holds() {
                self.qs_on_delsnd(now, out, c);
            } else if self.overhead.is_some() {
                self.on_delsnd(now, out, c);
            } else if self.rbp.is_some() {
                self.rbp_on_timer(now, out, c);
            } else {
                self.send_much(now, out, c);
            }
            if self.rto_deadline.is_none() && self.una < self.maxseq {
                self.arm_timer(now);
            }
        }
    }

    /// The pacing rate in bits per second on the wire (segments of `wire_size` bytes), 0 when
    /// not pacing (the `pacing_rate` trace).
    pub fn pacing_bps(&self) -> f64 {
        self.pacing_rate * self.wire_size as f64 * 8.0
    }

    /// `pacing`: Linux's tcp_update_pacing_rate (tcp/pacing.rs). Out of line: most flows do
    /// not pace.
    #[inline(never)]
    pub(super) fn update_pacing_rate(&mut self) {
        {
            let srtt_s = SimDuration(self.rtt.srtt).as_secs_f64();
            // Linux's sender counts the segments out too; ns-3's rule takes cwnd alone.
            let packets_out = if self.linux.is_some() {
                self.maxseq.saturating_sub(self.una)
            } else {
                0
            };
            self.pacing_rate =
                pacing::linux_pacing_rate(self.w.cwnd, self.w.ssthresh, packets_out, srtt_s);
        }
    }

    /// A paced segment left at `now`: the next may leave 1 / rate later. Linux's sender
    /// (`rack`) paces from the connection's eleventh data segment on
    /// (tcp_update_skb_after_send; data_segs_out: the segments sent before this one, less the
    /// SYN), whatever sets the rate. With `psh` (Linux's TSO pieces, `sender/psh.rs`) it
    /// paces pieces, not segments: `tcp_write_xmit` sends up to `tcp_tso_autosize` segments
    /// (at least 2) at one instant as one buffer and `tcp_update_skb_after_send` holds the
    /// next buffer back by this one's length at the pacing rate; a piece that cwnd, the
    /// data or the receiver's window cut short ends when the sending does (`close_piece`).
    /// So the second segment of a piece waits behind the first at a bottleneck, as Linux's
    /// do (the RTT BBR's min-RTT filter sees, docs/validation.md). Out of line: most flows
    /// do not pace.
    #[inline(never)]
    pub(super) fn pace_after_send(&mut self, now: SimTime, packets_sent: u64) {
        let before = (packets_sent - 1).saturating_sub(self.syn as u64);
        if self.linux.is_none() || before >= pacing::UNPACED_SEGMENTS {
            if self.linux.is_some() && self.psh.is_some() {
                self.piece += 1;
                if self.piece >= psh::tso_segs(self.pacing_rate) {
                    self.close_piece(now);
                }
                return;
            }
            let gap = (1e12 / self.pacing_rate) as u64;
            self.next_send = SimTime(self.next_send.max(now).0.saturating_add(gap));
        }
    }

    /// Ends the paced TSO piece sent at `now`: the next may leave its segments / rate later
    /// (`tcp_update_skb_after_send`).
    pub(super) fn close_piece(&mut self, now: SimTime) {
        if self.piece > 0 && self.pacing_rate > 0.0 {
            let gap = (1e12 * self.piece as f64 / self.pacing_rate) as u64;
            self.next_send = SimTime(self.next_send.max(now).0.saturating_add(gap));
            self.piece = 0;
        }
    }
}
