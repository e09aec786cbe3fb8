//! PSH as Linux's sender sets it (`psh`, the `linux` profile), for the receiver's immediate
//! ACK of a pushed segment (`tcp::sink`: Linux's `tcp_measure_rcv_mss` marks the
//! acknowledgement ICSK_ACK_PUSHED, and `tcp_cleanup_rbuf` sends it as soon as the
//! application has read the segment, instead of waiting for the delayed-ACK timer).
//!
//! Linux 6.18 (net/ipv4/tcp.c, tcp_output.c) builds its segments as TSO/GSO buffers (GSO is
//! always on for TCP, `sk_setup_caps`, even where the device offloads nothing) and marks PSH
//! per buffer: `tcp_sendmsg_locked` cuts the application's writes into buffers and marks one
//! (`tcp_mark_push`: the buffer's last segment carries PSH once the device segments it,
//! `tcp_gso_segment`) where a write ends or where `forced_push` holds; `tcp_write_xmit` sends
//! at most `tcp_tso_autosize` segments of a buffer at once (the segments of 2^-10 s at the
//! pacing rate `tcp_update_pacing_rate` keeps, at least `tcp_min_tso_segs` = 2), and when
//! cwnd cuts a buffer short `tso_fragment` leaves PSH on the part not yet sent, which
//! `tcp_grow_skb` then tops up from the next buffer. What the testbed's captures show
//! (docs/validation.md; iperf3 and a plain blocking writer alike, 10 and 100 Mb/s): once the
//! flow is in congestion avoidance, every whole piece of `tcp_tso_autosize` segments that
//! leaves at one instant ends with PSH, and a piece cut short by cwnd (a lone segment sent
//! after two were acknowledged, or one after a duplicate ACK) carries none. That is the
//! rule here: new segments sent at one instant are counted in pieces of the TSO size, the
//! last of each whole piece carries PSH. Retransmissions carry none.
//!
//! A paced flow (BBR under the `linux` profile) sends each piece at one instant and the next
//! a piece's length at the pacing rate later (`TcpSender::pace_after_send`); every
//! TSO-size-th new segment carries PSH.
//!
//! Not modelled: why each buffer is marked (the per-buffer `forced_push` was not traced), the
//! longer spacing seen in the first seconds (one PSH per 17-25 segments while the first
//! writes' buffers of half the peer's window, `tcp_bound_to_half_wnd`, were sent), and BBR's
//! `bbr_min_tso_segs` (1 below 1.2 Mb/s).

use super::TcpSender;
use crate::packet::tcp_flags;
use crate::tcp::pacing;
use crate::time::{SimDuration, SimTime};

/// `tcp_min_tso_segs`: the smallest TSO piece.
const MIN_TSO_SEGS: u32 = 2;

/// `tcp_tso_autosize`: the segments of a TSO piece at a pacing rate of `rate` segments per
/// second (sk_pacing_shift 10: the bytes of 2^-10 s, in whole segments), at least
/// MIN_TSO_SEGS.
pub(crate) fn tso_segs(rate: f64) -> u32 {
    ((rate / 1024.0).floor().min(u32::MAX as f64) as u32).max(MIN_TSO_SEGS)
}

impl TcpSender {
    /// The flags of the new segment leaving now (`tcp_flags::PSH` or 0). Out of line: only
    /// the `linux` profile sets PSH.
    #[inline(never)]
    pub(super) fn psh_flag(&mut self, now: SimTime) -> u8 {
        let Some((mut n, at)) = self.psh else {
            return 0;
        };
        let paced = self.pacing_rate > 0.0;
        if !paced && now != at {
            n = 0;
        }
        n += 1;
        let goal = tso_segs(self.tso_rate());
        let flag = if n >= goal {
            n = 0;
            tcp_flags::PSH
        } else {
            0
        };
        self.psh = Some((n, now));
        flag
    }

    /// The pacing rate Linux keeps whether or not it paces (`tcp_update_pacing_rate`, or the
    /// rate the flow paces at), in segments per second; before an RTT sample, the smallest
    /// piece.
    fn tso_rate(&self) -> f64 {
        if self.pacing_rate > 0.0 {
            return self.pacing_rate;
        }
        if self.rtt.srtt == 0 {
            return 0.0;
        }
        let srtt_s = SimDuration(self.rtt.srtt).as_secs_f64();
        let packets_out = self.maxseq.saturating_sub(self.una);
        pacing::linux_pacing_rate(self.w.cwnd, self.w.ssthresh, packets_out, srtt_s)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ackp as ack, sender_with};
    use super::super::Recovery;
    use super::*;
    use crate::monitor::FlowCounters;
    use crate::packet::Packet;

    const MS: u64 = 1_000_000_000;

    fn sender(psh: bool) -> (TcpSender, Vec<Packet>, FlowCounters) {
        let mut cfg = crate::fixtures::ns2_tcp();
        cfg.window = 100;
        cfg.window_init = 3;
        cfg.psh = psh;
        let (mut s, mut out, mut c) = sender_with(&cfg, Recovery::Sack);
        s.start(SimTime::ZERO, &mut out, &mut c);
        (s, out, c)
    }

    fn pushed(out: &[Packet]) -> Vec<(u64, bool)> {
        out.iter()
            .map(|p| (p.seq, p.flags & tcp_flags::PSH != 0))
            .collect()
    }

    #[test]
    fn the_last_segment_of_each_whole_piece_carries_psh() {
        // Three segments at one instant in pieces of two: 0, 1 (PSH) and 2, which cwnd cut
        // short (no PSH). An ACK of one segment in slow start sends two more at a new
        // instant: a whole piece, 3 and 4 (PSH).
        let (mut s, mut out, mut c) = sender(true);
        assert_eq!(pushed(&out), vec![(0, false), (1, true), (2, false)]);
        out.clear();
        s.on_ack(SimTime(100 * MS), &ack(1), &mut out, &mut c);
        assert_eq!(pushed(&out), vec![(3, false), (4, true)]);
        // Without `psh` no segment carries it.
        let (_, out, _) = sender(false);
        assert!(out.iter().all(|p| p.flags == 0));
    }

    #[test]
    fn a_piece_is_a_millisecond_of_the_pacing_rate_and_at_least_two_segments() {
        // 10 Mb/s of 1514-byte frames: 826 segments/s, under 1024: the minimum, 2.
        assert_eq!(tso_segs(826.0), 2);
        assert_eq!(tso_segs(0.0), 2);
        // 2047 segments/s: one segment per 2^-10 s, still 2; 3072: 3.
        assert_eq!(tso_segs(2047.0), 2);
        assert_eq!(tso_segs(3072.0), 3);
        // BBR at 100 Mb/s with its 1.25 gain: 10 320 segments/s, 10 segments.
        assert_eq!(tso_segs(10320.0), 10);
    }
}
