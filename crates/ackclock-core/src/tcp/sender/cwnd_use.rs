//! Whether cwnd may grow: Linux's `tcp_is_cwnd_limited` (cwnd limited the sender in this
//! window of data, or in slow start it is under twice the largest flight) and ns-3.44's
//! `m_isCwndLimited` (`TcpSocketBase::SendDataPacket`).

use super::{CwndUse, TcpSender};

impl TcpSender {
    /// Records, after a round of sending, whether cwnd was what stopped it, in the manner of
    /// Linux's `tcp_cwnd_validate`: the current window of data remembers that it was
    /// cwnd-limited, or else the largest flight it had.
    #[inline(never)]
    pub(super) fn note_cwnd_use(&mut self, sent: bool) {
        let flight = self.nxt.saturating_sub(self.una);
        let limited = flight as f64 >= self.w.cwnd.floor();
        let Some(u) = self.cwnd_use.as_mut() else {
            return;
        };
        if !sent && !limited {
            return;
        }
        if self.una >= u.until || limited || (!u.limited && flight > u.max_out) {
            *u = CwndUse {
                limited,
                max_out: flight,
                until: self.nxt,
            };
        }
    }

    /// Whether cwnd may grow: it limited the sender in this window of data, or, in slow
    /// start, it is still under twice the largest flight (Linux's `tcp_is_cwnd_limited`); and,
    /// under `ns3_cwnd_limited`, the last data segment sent left less than a segment of it
    /// (in slow start only for a class whose slow start checks it).
    pub(super) fn cwnd_limited(&self) -> bool {
        (self.ns3_limited != Some(false)
            || (self.ns3_slow_start_free && self.w.cwnd < self.w.ssthresh))
            && self.cwnd_use.is_none_or(|u| {
                u.limited || (self.w.cwnd < self.w.ssthresh && self.w.cwnd < 2.0 * u.max_out as f64)
            })
    }

    /// ns-3.44's `TcpSocketBase::SendDataPacket` (src/internet/model/tcp-socket-base.cc),
    /// after every data segment it sends, new or retransmitted: `m_isCwndLimited = cWnd <
    /// BytesInFlight() + segmentSize`, the flight counting the segment just sent.
    /// `TcpCubic::IncreaseWindow` and `TcpLinuxReno::IncreaseWindow` grow nothing while it is
    /// false ("a simple version of Linux tcp_cwnd_validate()"), so a sender that does not
    /// fill its window, paced or held by the receiver's window, stops growing. ns-3's flight
    /// (`TcpTxBuffer::BytesInFlight`, sent - SACKed - lost + retransmitted) holds segment
    /// `seq` once it is sent, new or resent; the sender's own count holds it already only
    /// when it is the span below `nxt` and `seq` lies in it (a fast retransmission without
    /// SACK). The SACK pipe counts a segment after its send (`rfc6675_send`,
    /// `send_much`), a resent one included: so after a timeout, cwnd one segment, the first
    /// retransmission fills the window and its ACK opens it, as in ns-3.
    #[inline(never)]
    pub(super) fn note_ns3_cwnd_limited(&mut self, seq: u64) {
        let pipe = self.sack_info || (self.in_recovery && self.scoreboard.is_some());
        let counted = !pipe && seq < self.nxt;
        let flight = self.in_flight() + u64::from(!counted);
        self.ns3_limited = Some(self.w.cwnd < flight as f64 + 1.0);
    }
}
