//! Linux's SACK scoreboard with RACK loss detection (RFC 8985, "The RACK-TLP Loss Detection
//! Algorithm for TCP"), as `net/ipv4/tcp_input.c` and `tcp_recovery.c` keep it; the sender's
//! `rack` path (`sender.rs`) drives it.
//!
//! Each outstanding segment carries Linux's `TCP_SKB_CB(skb)->sacked` tags: SACKed, LOST,
//! RETRANS (a retransmission in flight, `TCPCB_SACKED_RETRANS`) and EVER (`TCPCB_RETRANS`,
//! ever retransmitted), with the time it was last sent. The counters are Linux's
//! `sacked_out`, `lost_out` and `retrans_out`, so that what is in flight is
//! `tcp_packets_in_flight`: packets_out - (sacked_out + lost_out) + retrans_out.
//!
//! - An ACK tags what it newly SACKs (`tcp_sacktag_one`: a LOST or RETRANS tag goes) and frees
//!   what it cumulatively acknowledges (`tcp_clean_rtx_queue`). Tags survive recovery's end
//!   and timeouts: only the cumulative ACK removes them.
//! - RACK (`tcp_rack_advance`): of the segments an ACK delivers, the one sent last sets
//!   RACK.xmit_time and RACK.rtt, except a retransmitted one whose RTT is below the minimum
//!   RTT (its ACK may be for the original).
//! - `tcp_rack_detect_loss`: a segment not SACKed, sent before RACK.xmit_time and
//!   outstanding for longer than RACK.rtt + reo_wnd is LOST (a retransmission lost again
//!   loses its RETRANS tag); for the others the earliest such moment is the reordering timer.
//!   Originals go out in sequence order, so the scan stops at the first never-retransmitted
//!   segment sent after RACK.xmit_time: nothing above it can qualify.
//! - `tcp_timeout_mark_lost`: on a timeout every segment not SACKed is LOST, except segments
//!   sent within RACK.rtt (the first one always).
//! - The retransmission queue (`tcp_xmit_retransmit_queue`) sends the lowest LOST segment
//!   not SACKed and not already retransmitted.
//!
//! Windows here count segments; the ring (`seqring.rs`) holds the outstanding segments, up to
//! the largest window's.

use super::seqring::SeqRing;
use crate::time::SimTime;

const SACKED: u8 = 1;
const LOST: u8 = 2;
/// A retransmission is in flight (Linux `TCPCB_SACKED_RETRANS`).
const RETRANS: u8 = 4;
/// Retransmitted at least once (Linux `TCPCB_RETRANS`).
const EVER: u8 = 8;

/// What one ACK delivered, for the rate sampler, congestion control and the RTT.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Delivered {
    /// Segments newly cumulatively acknowledged or SACKed (`acked_sacked`).
    pub segments: u64,
    /// Of those, how many were newly SACKed.
    pub sacked: u64,
    /// The send time of the most recently sent segment delivered that was never
    /// retransmitted (Karn's rule; Linux's `last_ackt` / `last_sackt` behind `ca_rtt_us`).
    pub last_clean_sent: Option<SimTime>,
    /// The lowest of those never-retransmitted segments (`FLAG_ORIG_SACK_ACKED` is set when it
    /// lies below `high_seq`).
    pub first_clean_seq: Option<u64>,
}

/// One outstanding segment: when it was last sent (ps) and its tags.
#[derive(Clone, Copy, Debug, Default)]
struct Seg {
    sent: u64,
    tags: u8,
}

#[derive(Clone, Debug)]
pub struct RackBoard {
    /// The segments of [una, maxseq); beyond, tags are clear (the cumulative ACK clears them)
    /// and send times unread.
    segs: SeqRing<Seg>,
    /// The cumulative ACK (lowest outstanding segment).
    una: u64,
    pub sacked_out: u64,
    pub lost_out: u64,
    pub retrans_out: u64,
    /// Whether RACK has a segment yet, RACK.xmit_time (ps), RACK.end_seq, RACK.rtt (ps), and
    /// whether it moved since the last loss detection.
    rack_valid: bool,
    rack_sent: u64,
    rack_seq: u64,
    pub rack_rtt: u64,
    advanced: bool,
    /// The lowest segment that may be LOST and not yet retransmitted (a scan hint).
    lost_hint: u64,
}

impl RackBoard {
    pub fn new(window: u32) -> RackBoard {
        RackBoard {
            segs: SeqRing::new(window as u64 + 8),
            una: 0,
            sacked_out: 0,
            lost_out: 0,
            retrans_out: 0,
            rack_valid: false,
            rack_sent: 0,
            rack_seq: 0,
            rack_rtt: 0,
            advanced: false,
            lost_hint: 0,
        }
    }

    /// The segments in a ring of the whole window from the start, as before it was sized to
    /// what is outstanding (tests compare the two).
    #[cfg(test)]
    fn with_fixed_ring(mut self) -> RackBoard {
        self.segs = SeqRing::fixed(self.segs.max());
        self
    }

    /// Segments in the network (`tcp_packets_in_flight`) with `packets_out` outstanding.
    #[inline]
    pub fn in_flight(&self, packets_out: u64) -> u64 {
        (packets_out + self.retrans_out).saturating_sub(self.sacked_out + self.lost_out)
    }

    /// The tags of `seq` at or above the cumulative ACK.
    fn tags(&self, seq: u64) -> u8 {
        self.segs.get_from(seq, self.una).tags
    }

    pub fn is_sacked(&self, seq: u64) -> bool {
        seq >= self.una && self.tags(seq) & SACKED != 0
    }

    pub fn is_lost(&self, seq: u64) -> bool {
        seq >= self.una && self.tags(seq) & LOST != 0
    }

    /// Segment `seq` leaves at `now`: new data (above everything sent) or a retransmission.
    pub fn on_send(&mut self, seq: u64, now: SimTime, retransmit: bool) {
        if !retransmit {
            self.segs.reserve(self.una, seq + 1);
        }
        let g = self.segs.get_mut(seq);
        g.sent = now.0;
        if !retransmit {
            g.tags = 0;
            return;
        }
        if g.tags & RETRANS == 0 {
            self.retrans_out += 1;
        }
        g.tags |= RETRANS | EVER;
    }

    /// Tcp_rack_advance: segment `seq` (tags `tags`, last sent `sent`) was delivered at `now`.
    fn rack_advance(&mut self, tags: u8, seq: u64, sent: u64, now: SimTime, min_rtt: u64) {
        let after = sent > self.rack_sent || (sent == self.rack_sent && seq > self.rack_seq);
        if self.rack_valid && !after {
            return;
        }
        let rtt = now.0.saturating_sub(sent);
        if tags & EVER != 0 && rtt < min_rtt {
            // Perhaps the original's ACK: ambiguous.
            return;
        }
        self.rack_valid = true;
        self.rack_rtt = rtt;
        self.rack_sent = sent;
        self.rack_seq = seq;
        self.advanced = true;
    }

    #[allow(clippy::too_many_arguments)]
    /// One ACK: SACK blocks first (`tcp_sacktag_write_queue`), then the cumulative ACK `ack`
    /// (`tcp_clean_rtx_queue`). `on_delivered` sees each segment delivered for the first time,
    /// for the rate sampler (`tcp_rate_skb_delivered`). `spurious(sent)` tells whether an ACK
    /// of a retransmission sent at `sent` was for the original (Linux `tcp_skb_spurious_retrans`,
    /// by the echoed timestamp): such a segment does not advance RACK.
    pub fn on_ack(
        &mut self,
        ack: u64,
        blocks: impl Iterator<Item = (u64, u64)>,
        maxseq: u64,
        now: SimTime,
        min_rtt: u64,
        ts_echo: SimTime,
        mut on_delivered: impl FnMut(u64),
    ) -> Delivered {
        let mut d = Delivered::default();
        let mut clean: Option<u64> = None;
        let low = ack.max(self.una);
        let limit = (self.una + self.segs.max()).min(maxseq);
        for (start, end) in blocks {
            for s in start.max(low)..end.min(limit) {
                let Seg { sent, tags: t } = self.segs.get(s);
                if t & SACKED != 0 {
                    continue;
                }
                if t & LOST != 0 {
                    self.lost_out -= 1;
                }
                if t & RETRANS != 0 {
                    self.retrans_out -= 1;
                }
                self.segs.get_mut(s).tags = (t & EVER) | SACKED;
                self.sacked_out += 1;
                d.segments += 1;
                d.sacked += 1;
                if t & EVER == 0 {
                    clean = Some(clean.map_or(sent, |c| c.max(sent)));
                    d.first_clean_seq = Some(d.first_clean_seq.map_or(s, |f| f.min(s)));
                }
                self.rack_advance(t, s, sent, now, min_rtt);
                on_delivered(s);
            }
        }
        for s in self.una..ack.min(self.una + self.segs.max()) {
            let Seg { sent, tags: t } = self.segs.get(s);
            self.segs.get_mut(s).tags = 0;
            if t & SACKED != 0 {
                self.sacked_out -= 1;
                continue;
            }
            if t & LOST != 0 {
                self.lost_out -= 1;
            }
            if t & RETRANS != 0 {
                self.retrans_out -= 1;
            }
            d.segments += 1;
            if t & EVER == 0 {
                clean = Some(clean.map_or(sent, |c| c.max(sent)));
                d.first_clean_seq = Some(d.first_clean_seq.map_or(s, |f| f.min(s)));
            }
            let spurious = t & EVER != 0 && ts_echo > SimTime::ZERO && ts_echo.0 < sent;
            if !spurious {
                self.rack_advance(t, s, sent, now, min_rtt);
            }
            on_delivered(s);
        }
        if ack > self.una {
            self.una = ack;
        }
        self.segs.fit(self.una, maxseq);
        self.lost_hint = self.lost_hint.max(self.una);
        d.last_clean_sent = clean.map(SimTime);
        d
    }

    /// The reordering window (`tcp_rack_reo_wnd`, no reordering ever seen): none in recovery
    /// or once `dupthresh` segments are SACKed, else a quarter of the minimum RTT, at most
    /// the smoothed RTT.
    pub fn reo_wnd(&self, recovering: bool, dupthresh: u64, min_rtt: u64, srtt: u64) -> u64 {
        if recovering || self.sacked_out >= dupthresh {
            0
        } else {
            (min_rtt / 4).min(srtt)
        }
    }

    /// Tcp_rack_mark_lost: if RACK moved, marks what it proves lost; returns the segments
    /// newly marked and, if some wait for the reordering window, when to look again.
    pub fn detect_loss(
        &mut self,
        now: SimTime,
        maxseq: u64,
        reo_wnd: u64,
        force: bool,
    ) -> (u64, Option<SimTime>) {
        if !(self.advanced || force) || !self.rack_valid {
            return (0, None);
        }
        self.advanced = false;
        let mut newly = 0;
        let mut wait: Option<u64> = None;
        for s in self.una..maxseq.min(self.una + self.segs.max()) {
            let Seg { sent, tags: t } = self.segs.get(s);
            if t & SACKED != 0 || (t & LOST != 0 && t & RETRANS == 0) {
                continue;
            }
            let before = sent < self.rack_sent || (sent == self.rack_sent && s < self.rack_seq);
            if !before {
                if t & EVER == 0 {
                    // Originals leave in order: nothing above was sent earlier.
                    break;
                }
                continue;
            }
            let deadline = sent + self.rack_rtt + reo_wnd;
            if deadline <= now.0 {
                newly += self.mark_lost(s) as u64;
            } else {
                wait = Some(wait.map_or(deadline, |w| w.max(deadline)));
            }
        }
        (newly, wait.map(SimTime))
    }

    /// Tcp_mark_skb_lost: LOST, and a retransmission in flight no longer counts as one.
    /// Whether the connection's loss count (`tp->lost`, `tcp_notify_skb_loss_event`) grows:
    /// for a segment not yet LOST, or a retransmission lost again; not for a SACKed one.
    fn mark_lost(&mut self, seq: u64) -> bool {
        let t = self.segs.get(seq).tags;
        if t & SACKED != 0 {
            return false;
        }
        if t & RETRANS != 0 {
            self.retrans_out -= 1;
        }
        if t & LOST == 0 {
            self.lost_out += 1;
        }
        self.segs.get_mut(seq).tags = (t & !RETRANS) | LOST;
        self.lost_hint = self.lost_hint.min(seq).max(self.una);
        t & LOST == 0 || t & RETRANS != 0
    }

    /// Tcp_timeout_mark_lost: every segment not SACKed is lost, except those sent within
    /// RACK.rtt of `now` (the first outstanding one always). Returns how many the
    /// connection's loss count (`tp->lost`) gains.
    pub fn timeout_mark_lost(&mut self, now: SimTime, maxseq: u64) -> u64 {
        let mut counted = 0;
        for s in self.una..maxseq.min(self.una + self.segs.max()) {
            let sent = self.segs.get(s).sent;
            if s != self.una && self.rack_valid && sent + self.rack_rtt > now.0 {
                continue;
            }
            counted += self.mark_lost(s) as u64;
        }
        self.lost_hint = self.una;
        counted
    }

    /// The lowest segment LOST, not SACKed and not already being retransmitted, below `end`.
    pub fn next_lost(&mut self, end: u64) -> Option<u64> {
        if self.lost_out == 0 {
            return None;
        }
        let mut s = self.lost_hint.max(self.una);
        while s < end {
            let t = self.segs.get(s).tags;
            if t & LOST != 0 && t & (SACKED | RETRANS) == 0 {
                self.lost_hint = s;
                return Some(s);
            }
            s += 1;
        }
        self.lost_hint = s;
        None
    }

    /// When segment `seq` was last sent.
    pub fn sent_at(&self, seq: u64) -> SimTime {
        SimTime(self.segs.get(seq).sent)
    }

    /// Whether outstanding segment `seq` was ever retransmitted (`TCPCB_EVER_RETRANS`).
    pub fn ever_retransmitted(&self, seq: u64) -> bool {
        seq >= self.una && self.tags(seq) & EVER != 0
    }

    /// `tcp_undo_cwnd_reduction(unmark_loss)`: no segment is LOST any more; RACK looks again
    /// on the next ACK (`rack.advanced = 1`).
    pub fn unmark_lost(&mut self, maxseq: u64) {
        for s in self.una..maxseq.min(self.una + self.segs.max()) {
            self.segs.get_mut(s).tags &= !LOST;
        }
        self.lost_out = 0;
        self.advanced = true;
    }

    /// RACK looks again on the next ACK (`rack.advanced = 1`).
    pub fn force_advance(&mut self) {
        self.advanced = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;

    /// The ring sized to what is outstanding answers as the whole window's did: a sender's
    /// random sends, ACKs with SACK blocks, loss detection, retransmissions, timeouts and
    /// undos, every answer compared; the ring grows to the window and shrinks back.
    #[test]
    fn a_ring_sized_to_the_flight_answers_as_the_whole_window() {
        let mut rng = RandomStream::named(4, "rack");
        let (mut a, mut b) = (RackBoard::new(500), RackBoard::new(500).with_fixed_ring());
        let (mut una, mut maxseq, mut now) = (0u64, 0u64, 0u64);
        let mut largest = 0;
        for step in 0..20_000u64 {
            now += rng.uniform_u64(0, 3 * MS);
            let reach = if step % 2000 < 300 { 500 } else { 60 };
            match rng.uniform_u64(0, 9) {
                0..=2 => {
                    for _ in 0..rng
                        .uniform_u64(1, 20)
                        .min((una + reach).saturating_sub(maxseq))
                    {
                        a.on_send(maxseq, SimTime(now), false);
                        b.on_send(maxseq, SimTime(now), false);
                        maxseq += 1;
                    }
                }
                3..=5 => {
                    let (ack, blocks) = crate::tcp::seqring::random_ack(&mut rng, una, maxseq);
                    let (mut da, mut db) = (Vec::new(), Vec::new());
                    let t = SimTime(now);
                    let echo = SimTime(now / 2);
                    let ra = a.on_ack(ack, blocks.iter().copied(), maxseq, t, MS, echo, |s| {
                        da.push(s)
                    });
                    let rb = b.on_ack(ack, blocks.iter().copied(), maxseq, t, MS, echo, |s| {
                        db.push(s)
                    });
                    assert_eq!((ra, da), (rb, db), "step {step}");
                    una = ack;
                }
                6 | 7 => {
                    let reo = rng.uniform_u64(0, 5 * MS);
                    let force = rng.uniform_u64(0, 1) == 1;
                    let t = SimTime(now);
                    assert_eq!(
                        a.detect_loss(t, maxseq, reo, force),
                        b.detect_loss(t, maxseq, reo, force)
                    );
                    let next = a.next_lost(maxseq);
                    assert_eq!(next, b.next_lost(maxseq));
                    if let Some(s) = next {
                        a.on_send(s, t, true);
                        b.on_send(s, t, true);
                    }
                }
                8 => {
                    let t = SimTime(now);
                    assert_eq!(
                        a.timeout_mark_lost(t, maxseq),
                        b.timeout_mark_lost(t, maxseq)
                    );
                }
                _ => {
                    a.unmark_lost(maxseq);
                    b.unmark_lost(maxseq);
                }
            }
            assert_eq!(
                (a.sacked_out, a.lost_out, a.retrans_out, a.rack_rtt),
                (b.sacked_out, b.lost_out, b.retrans_out, b.rack_rtt),
                "step {step}"
            );
            for s in una..maxseq + 2 {
                assert_eq!(
                    (a.is_sacked(s), a.is_lost(s), a.ever_retransmitted(s)),
                    (b.is_sacked(s), b.is_lost(s), b.ever_retransmitted(s)),
                    "segment {s} at step {step}"
                );
            }
            if una < maxseq {
                assert_eq!(a.sent_at(una), b.sent_at(una));
            }
            largest = largest.max(a.segs.heap_bytes());
        }
        assert_eq!(largest, 512 * 16, "grew to the whole window (500 + 8)");
        a.on_ack(
            maxseq,
            [].into_iter(),
            maxseq,
            SimTime(now),
            MS,
            SimTime::ZERO,
            |_| {},
        );
        assert_eq!(a.segs.heap_bytes(), 16 * 16, "back to the smallest ring");
    }

    const MS: u64 = 1_000_000_000;

    fn t(ms: u64) -> SimTime {
        SimTime(ms * MS)
    }

    /// Ten segments sent 1 ms apart from 1 ms on.
    fn board() -> RackBoard {
        let mut b = RackBoard::new(64);
        for s in 0..10 {
            b.on_send(s, t(1 + s), false);
        }
        b
    }

    #[test]
    fn a_segment_sent_before_a_sacked_one_is_lost_after_rack_rtt_plus_reo_wnd() {
        // RFC 8985 6.2 / tcp_rack_detect_loss: 0 is lost once 1..4 are SACKed and RACK.rtt
        // plus the reordering window has passed since 0 was sent.
        let mut b = board();
        let d = b.on_ack(
            0,
            [(1, 4)].into_iter(),
            10,
            t(104),
            100 * MS,
            SimTime::ZERO,
            |_| {},
        );
        assert_eq!((d.segments, d.sacked, b.sacked_out), (3, 3, 3));
        assert_eq!(
            b.rack_rtt,
            100 * MS,
            "segment 3, sent at 4 ms, delivered at 104 ms"
        );
        // A 25 ms window (min RTT / 4): 0 waits until 1 + 100 + 25 ms.
        let (lost, wait) = b.detect_loss(t(104), 10, 25 * MS, false);
        assert_eq!((lost, wait), (0, Some(t(126))));
        let (lost, _) = b.detect_loss(t(126), 10, 25 * MS, true);
        assert_eq!((lost, b.lost_out), (1, 1));
        assert_eq!(b.in_flight(10), 10 - 3 - 1);
        assert_eq!(b.next_lost(10), Some(0));
        // Its retransmission is in flight: counted again, not offered again.
        b.on_send(0, t(126), true);
        assert_eq!((b.retrans_out, b.in_flight(10)), (1, 7));
        assert_eq!(b.next_lost(10), None);
    }

    #[test]
    fn a_lost_retransmission_is_detected_by_a_later_delivery() {
        // RFC 8985's advantage over dupthresh: the retransmission of 0 (sent at 130 ms) is
        // lost; segment 10, sent after it, is SACKed; 0 is lost again RACK.rtt later.
        let mut b = board();
        b.on_ack(
            0,
            [(1, 10)].into_iter(),
            10,
            t(110),
            100 * MS,
            SimTime::ZERO,
            |_| {},
        );
        b.detect_loss(t(110), 10, 0, false);
        assert_eq!(b.lost_out, 1);
        b.on_send(0, t(130), true);
        b.on_send(10, t(131), false);
        b.on_ack(
            0,
            [(1, 11)].into_iter(),
            11,
            t(231),
            100 * MS,
            SimTime::ZERO,
            |_| {},
        );
        assert_eq!(b.rack_rtt, 100 * MS);
        let (lost, wait) = b.detect_loss(t(231), 11, 0, false);
        // 0 was resent at 130 ms, before 10: lost at 130 + 100 ms.
        assert_eq!((lost, wait), (1, None));
        assert_eq!(b.next_lost(11), Some(0));
    }

    #[test]
    fn a_timeout_marks_what_is_not_sacked_and_keeps_the_sack_tags() {
        // Tcp_timeout_mark_lost: SACKed segments are not resent after a timeout.
        let mut b = board();
        b.on_ack(
            2,
            [(4, 6)].into_iter(),
            10,
            t(105),
            100 * MS,
            SimTime::ZERO,
            |_| {},
        );
        b.timeout_mark_lost(t(400), 10);
        assert_eq!((b.sacked_out, b.lost_out, b.in_flight(8)), (2, 6, 0));
        let mut resent = Vec::new();
        while let Some(s) = b.next_lost(10) {
            b.on_send(s, t(400), true);
            resent.push(s);
        }
        assert_eq!(resent, vec![2, 3, 6, 7, 8, 9]);
        assert_eq!(b.in_flight(8), 6);
        // The cumulative ACK to 8 frees what lay below: 2, 3 delivered, 4, 5 were SACKed.
        let d = b.on_ack(
            8,
            [].into_iter(),
            10,
            t(500),
            100 * MS,
            SimTime::ZERO,
            |_| {},
        );
        assert_eq!(d.segments, 4);
        assert_eq!(
            d.last_clean_sent, None,
            "only retransmissions: no RTT (Karn)"
        );
        assert_eq!((b.sacked_out, b.lost_out, b.retrans_out), (0, 2, 2));
    }
}
