//! The SACK scoreboard (RFC 6675 section 3; ns-2 `ScoreBoard`): which outstanding segments
//! the receiver has reported holding, and which have been retransmitted in this recovery.
//!
//! Outstanding segments always lie in [una, una + window): a ring of two flags per segment
//! (`seqring.rs`) holds the state, as many as the marks span (nothing SACKed or resent: the
//! smallest ring), at most the receiver window's.
//!
//! Which holes are lost: by default every hole below the highest SACKed segment, as ns-2's
//! `ScoreBoard::GetNextRetran` takes them. With [`Scoreboard::lost_after`] N (the TCP
//! parameter `rfc6675_recovery`), a hole is lost only once N SACKed segments lie above it:
//! RFC 6675 section 4's IsLost (DupThresh discontiguous SACKed segments above, all segments
//! one size) as ns-3.44's `TcpTxBuffer::UpdateLostCount` marks it. A hole not lost yet is not
//! resent (NextSeg rule 1) and counts in the pipe (SetPipe (a)); resent, it counts twice
//! (SetPipe (a) and (b)). Under that rule holes may also be marked lost outright: the head on
//! entering recovery with fewer SACKed segments above it (`TcpTxBuffer::MarkHeadAsLost`) and,
//! after a timeout, every segment not SACKed (`TcpTxBuffer::SetSentListLost`, which keeps the
//! SACK information, RFC 6675 section 5.1 with [Errata1610]); such a hole above the highest
//! SACKed segment is lost but not resent by NextSeg rule 1 ((1.b)), as in ns-3. And as ns-3's
//! buffer counts it, a retransmission stays in the pipe once SACKed, until the cumulative ACK
//! passes it (`TcpTxBuffer::Update` marks the item SACKed and no longer lost but leaves its
//! `m_retrans`, which only `RemoveFromCounts` takes back at `DiscardUpTo`), where RFC 6675's
//! SetPipe counts no SACKed octet.

/// One segment's marks.
use super::seqring::SeqRing;

#[derive(Clone, Copy, Debug, Default)]
struct Marks {
    sacked: bool,
    retransmitted: bool,
}

#[derive(Clone, Debug)]
pub struct Scoreboard {
    /// The marks of [low, marked_end); beyond, every mark is clear.
    marks: SeqRing<Marks>,
    /// Lowest segment the bitmaps may describe (the cumulative ACK at the last update).
    low: u64,
    /// One past the highest SACKed segment; `low` when nothing is SACKed.
    high: u64,
    /// No segment below this can be the next retransmission (a scan hint).
    scan_from: u64,
    /// One past the highest segment marked retransmitted: marks may lie above `high`.
    marks_end: u64,
    /// Segments SACKed, and retransmitted segments not SACKed (with `sacked_rtx_in_pipe`,
    /// SACKed or not), in [low, low + window).
    sacked_count: u64,
    retrans_out: u64,
    /// SACKed segments above a hole that make it lost; 0: any (ns-2's rule).
    lost_after: u64,
    /// Under `lost_after`, every hole below this is lost whatever lies above it.
    lost_below: u64,
    /// A retransmission SACKed stays in the pipe until the cumulative ACK passes it.
    sacked_rtx_in_pipe: bool,
    /// ns-2.35's `ScoreBoardRQ::sack_min`: the highest cumulative ACK `update` was given,
    /// which `clear` leaves (`ClearScoreBoard` clears the queue and `h_seqno_` only) and
    /// `GetNextRetran` starts from. Within a connection it never exceeds `low`; after a
    /// reset (`Sack1TcpAgent::reset`, `sender/reset.rs`) it is the old connection's, and no
    /// hole below it is retransmitted.
    sack_min: u64,
}

impl Scoreboard {
    pub fn new(window: u32) -> Scoreboard {
        Scoreboard {
            marks: SeqRing::new(window as u64),
            low: 0,
            high: 0,
            scan_from: 0,
            marks_end: 0,
            sacked_count: 0,
            retrans_out: 0,
            lost_after: 0,
            lost_below: 0,
            sacked_rtx_in_pipe: false,
            sack_min: 0,
        }
    }

    /// The marks in a ring of the whole window from the start, as before they were sized to
    /// their span (tests compare the two).
    #[cfg(test)]
    fn with_fixed_ring(mut self) -> Scoreboard {
        self.marks = SeqRing::fixed(self.marks.max());
        self
    }

    /// `retrans_out` counted again from the marks: what the running count must equal.
    #[cfg(test)]
    fn recount_retransmissions(&self) -> u64 {
        (self.low..self.marked_end())
            .map(|s| self.marks.get(s))
            .filter(|m| m.retransmitted && (!m.sacked || self.sacked_rtx_in_pipe))
            .count() as u64
    }

    /// ns-2's `sack_min` after `Sack1TcpAgent::reset`: the old connection's, kept.
    pub fn keep_sack_min(&mut self, old: &Scoreboard) {
        self.sack_min = self.sack_min.max(old.sack_min);
    }

    /// ns-3.44's count of retransmissions: one SACKed stays in the pipe until the cumulative
    /// ACK passes it (see the module's notes).
    pub fn sacked_retransmissions_in_pipe(mut self) -> Scoreboard {
        self.sacked_rtx_in_pipe = true;
        self
    }

    /// RFC 6675's IsLost: a hole is lost once `n` SACKed segments lie above it (ns-3.44's
    /// `TcpTxBuffer::UpdateLostCount` with `m_dupAckThresh` = n).
    pub fn lost_after(mut self, n: u32) -> Scoreboard {
        self.lost_after = n as u64;
        self
    }

    /// Holes below this segment are lost: the highest SACKed segment's end under ns-2's rule,
    /// else the `lost_after`-th SACKed segment counted down from the highest (`low` if there
    /// are fewer), or the segment holes were marked lost below if higher.
    fn lost_edge(&self) -> u64 {
        if self.lost_after == 0 {
            return self.high;
        }
        let mut found = 0;
        let mut s = self.high;
        while s > self.low {
            s -= 1;
            if self.marks.get(s).sacked {
                found += 1;
                if found == self.lost_after {
                    return s.max(self.lost_below);
                }
            }
        }
        self.low.max(self.lost_below)
    }

    /// Marks every hole below `seq` lost (under `lost_after`): the head on entering recovery
    /// (ns-3.44's `TcpTxBuffer::MarkHeadAsLost`).
    pub fn mark_lost_below(&mut self, seq: u64) {
        self.lost_below = self.lost_below.max(seq);
    }

    /// A retransmission timeout that keeps the SACK information (ns-3.44's
    /// `TcpTxBuffer::SetSentListLost` with SACK on): every segment below `maxseq` not SACKed is
    /// lost and none counts as retransmitted any more.
    pub fn timeout_keeping_sacks(&mut self, maxseq: u64) {
        for s in self.low..self.marked_end() {
            self.marks.get_mut(s).retransmitted = false;
        }
        self.retrans_out = 0;
        self.marks_end = self.low;
        self.scan_from = self.low;
        self.lost_below = maxseq;
    }

    /// RFC 6675's IsLost for one segment: not SACKed, below the highest SACKed segment, and
    /// lost by the rule in force (ns-3.44's `TcpTxBuffer::IsLost`).
    pub fn is_lost(&self, seq: u64) -> bool {
        seq >= self.low && seq < self.high && seq < self.lost_edge() && !self.marks.get(seq).sacked
    }

    /// Whether `seq` was retransmitted and is not SACKed.
    pub fn is_retransmitted(&self, seq: u64) -> bool {
        if seq < self.low || seq >= self.low + self.marks.max() {
            return false;
        }
        let m = self.marks.get_from(seq, self.low);
        m.retransmitted && !m.sacked
    }

    /// Whether the scoreboard holds anything for the segments above `low`: a SACKed segment,
    /// a retransmission in flight or a hole marked lost.
    pub fn holds_anything(&self) -> bool {
        self.high > self.low || self.retrans_out > 0 || self.lost_below > self.low
    }

    /// Where the bitmaps may hold a bit: below the larger of `high` and `marks_end`.
    fn marked_end(&self) -> u64 {
        self.high.max(self.marks_end).max(self.low)
    }

    /// Forgets everything below the new cumulative ACK `una`.
    pub fn advance(&mut self, una: u64) {
        let end = una.min(self.marked_end());
        for s in self.low..end.max(self.low) {
            let m = std::mem::take(self.marks.get_mut(s));
            if m.sacked {
                self.sacked_count -= 1;
            }
            if m.retransmitted && (!m.sacked || self.sacked_rtx_in_pipe) {
                self.retrans_out -= 1;
            }
        }
        if una > self.low {
            self.low = una;
        }
        self.high = self.high.max(self.low);
        self.scan_from = self.scan_from.max(self.low);
        self.marks.fit(self.low, self.marked_end());
    }

    /// Forgets everything (a new window of data, or a timeout).
    pub fn clear(&mut self, una: u64) {
        for s in self.low..self.marked_end() {
            *self.marks.get_mut(s) = Marks::default();
        }
        self.low = una.max(self.low);
        self.marks_end = self.low;
        self.high = self.low;
        self.scan_from = self.low;
        self.sacked_count = 0;
        self.retrans_out = 0;
        self.lost_below = 0;
        self.marks.fit(self.low, self.low);
    }

    /// Whether `blocks` report a segment not SACKed yet, with the cumulative ACK at `una`
    /// (what [`Scoreboard::update`] would return, without recording anything).
    pub fn reports_new(&self, una: u64, blocks: impl Iterator<Item = (u64, u64)>) -> bool {
        let low = una.max(self.low);
        let limit = low + self.marks.max();
        blocks
            .flat_map(|(start, end)| start.max(low)..end.min(limit))
            .any(|s| !self.marks.get_from(s, self.low).sacked)
    }

    /// Records SACKed ranges; returns whether any segment was newly reported.
    pub fn update(&mut self, una: u64, blocks: impl Iterator<Item = (u64, u64)>) -> bool {
        self.advance(una);
        self.sack_min = self.sack_min.max(una);
        let limit = self.low + self.marks.max();
        let mut changed = false;
        for (start, end) in blocks {
            // `high` may reach the block's end even if it starts beyond the limit: the ring
            // covers it.
            self.marks.reserve(self.low, end.min(limit));
            for s in start.max(self.low)..end.min(limit) {
                let m = self.marks.get_mut(s);
                if !m.sacked {
                    m.sacked = true;
                    self.sacked_count += 1;
                    if m.retransmitted && !self.sacked_rtx_in_pipe {
                        self.retrans_out -= 1;
                    }
                    changed = true;
                }
            }
            if end.min(limit) > self.high {
                self.high = end.min(limit);
            }
        }
        changed
    }

    /// One past the highest SACKed segment (the cumulative ACK's when nothing is SACKed).
    pub fn sacked_end(&self) -> u64 {
        self.high
    }

    pub fn is_sacked(&self, seq: u64) -> bool {
        seq >= self.low && seq < self.high && self.marks.get(seq).sacked
    }

    /// Counts `seq` as a retransmission in flight unless it is SACKed: under ns-3's rule even
    /// then (`TcpTxBuffer::CopyFromSequence` adds to `m_retrans` whatever the item's SACK
    /// mark, and `RemoveFromCounts` takes it back at the cumulative ACK, as `advance` does).
    pub fn mark_retransmitted(&mut self, seq: u64) {
        if seq >= self.low && seq < self.low + self.marks.max() {
            self.marks.reserve(self.low, seq + 1);
            let m = self.marks.get_mut(seq);
            if !m.retransmitted && (!m.sacked || self.sacked_rtx_in_pipe) {
                self.retrans_out += 1;
            }
            m.retransmitted = true;
            self.marks_end = self.marks_end.max(seq + 1);
        }
    }

    /// The first segment at or above `from` not SACKed with a SACKed one above it (ns-2.35's
    /// `ReassemblyQueue::nexthole` as `SackFullTcpAgent::nxt_tseq` reads it: a hole only
    /// while a block follows).
    pub fn hole_from(&self, from: u64) -> Option<u64> {
        (from.max(self.low)..self.high).find(|&s| !self.marks.get(s).sacked)
    }

    /// ns-2.35's `ScoreBoardRQ::GetNextUnacked(seq)` (`ReassemblyQueue::nexthole`): None
    /// with nothing SACKed or `seq` above every SACKed block; else `seq` itself if it is not
    /// SACKed, or the end of the SACKed block holding it.
    pub fn next_unacked(&self, seq: u64) -> Option<u64> {
        if self.sacked_count == 0 || seq > self.high {
            return None;
        }
        let from = seq.max(self.low);
        Some(
            (from..self.high)
                .find(|&s| !self.marks.get(s).sacked)
                .unwrap_or(self.high),
        )
    }

    /// ns-2.35's `ScoreBoardRQ::MarkRetran` as `Sack1TcpAgent::partial_ack_action` calls it:
    /// `seq` is marked resent and, at or above the next retransmission's start (`h_seqno_`),
    /// that start moves past it, so the holes below it are not resent.
    pub fn mark_retransmitted_past(&mut self, seq: u64) {
        self.mark_retransmitted(seq);
        if seq >= self.scan_from {
            self.scan_from = seq + 1;
        }
    }

    /// Segments the receiver has reported holding above the cumulative ACK.
    pub fn sacked(&self) -> u64 {
        self.sacked_count
    }

    /// RFC 6675's pipe (SetPipe): the segments sent above the highest SACKed one, the
    /// retransmissions not yet SACKed, and the holes not lost yet (none under ns-2's rule,
    /// which takes every hole below the highest SACKed segment as lost).
    pub fn pipe(&self, una: u64, maxseq: u64) -> u64 {
        if self.lost_after == 0 {
            return maxseq.saturating_sub(self.high.max(una)) + self.retrans_out;
        }
        // Holes marked lost above the highest SACKed segment leave the pipe too.
        let from = self.lost_edge().max(una);
        maxseq.saturating_sub(self.high.max(from))
            + self.retrans_out
            + (from..self.high)
                .filter(|&s| !self.marks.get(s).sacked)
                .count() as u64
    }

    /// The lowest lost hole not yet retransmitted (RFC 6675 NextSeg rule 1; ns-2's
    /// `GetNextRetran` takes every hole below the highest SACKed segment as lost).
    pub fn next_retransmission(&mut self) -> Option<u64> {
        let mut s = self.scan_from.max(self.low).max(self.sack_min);
        // NextSeg (1.b): below the highest SACKed segment, once one is SACKed.
        let edge = if self.high > self.low {
            self.lost_edge().min(self.high)
        } else {
            self.lost_edge()
        };
        while s < edge {
            // `edge` may lie beyond the marks (holes marked lost up to `lost_below`).
            let m = self.marks.get_from(s, self.low);
            if !m.sacked && !m.retransmitted {
                self.scan_from = s;
                return Some(s);
            }
            s += 1;
        }
        self.scan_from = s;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;

    /// The marks sized to their span answer as the whole window's ring did: a sender's random
    /// SACK episodes (blocks, retransmissions, cumulative ACKs, timeouts) under both loss
    /// rules, every answer compared; the ring grows to the window and shrinks back.
    #[test]
    fn marks_sized_to_their_span_answer_as_the_whole_window() {
        let mut rng = RandomStream::named(3, "scoreboard");
        for rule in [0, 3] {
            let make = |fixed: bool| {
                let sb = Scoreboard::new(500);
                let sb = if fixed { sb.with_fixed_ring() } else { sb };
                if rule > 0 {
                    sb.lost_after(rule).sacked_retransmissions_in_pipe()
                } else {
                    sb
                }
            };
            let (mut a, mut b) = (make(false), make(true));
            let (mut una, mut maxseq) = (0u64, 0u64);
            let mut largest = 0;
            for step in 0..20_000u64 {
                // Windows up to the whole 500 segments now and then, else up to 60.
                let reach = if step % 2000 < 300 { 500 } else { 60 };
                match rng.uniform_u64(0, 9) {
                    0..=2 => maxseq = (maxseq + rng.uniform_u64(1, 30)).min(una + reach),
                    3..=5 => {
                        let (ack, blocks) = crate::tcp::seqring::random_ack(&mut rng, una, maxseq);
                        let blocks = || blocks.iter().copied();
                        assert_eq!(a.reports_new(ack, blocks()), b.reports_new(ack, blocks()));
                        assert_eq!(a.update(ack, blocks()), b.update(ack, blocks()));
                        una = ack;
                    }
                    6 | 7 => {
                        let next = a.next_retransmission();
                        assert_eq!(next, b.next_retransmission(), "step {step}");
                        if let Some(s) = next {
                            a.mark_retransmitted(s);
                            b.mark_retransmitted(s);
                        }
                    }
                    8 => {
                        una = rng.uniform_u64(una, maxseq);
                        a.advance(una);
                        b.advance(una);
                    }
                    _ => match rng.uniform_u64(0, 4) {
                        // Any outstanding segment resent (a timeout's go-back-N).
                        4 if maxseq > una => {
                            let s = rng.uniform_u64(una, maxseq - 1);
                            a.mark_retransmitted(s);
                            b.mark_retransmitted(s);
                        }
                        0 => {
                            a.timeout_keeping_sacks(maxseq);
                            b.timeout_keeping_sacks(maxseq);
                        }
                        1 => {
                            a.clear(una);
                            b.clear(una);
                        }
                        _ => {
                            a.mark_lost_below(una + 1);
                            b.mark_lost_below(una + 1);
                        }
                    },
                }
                assert_eq!(
                    (
                        a.sacked(),
                        a.sacked_end(),
                        a.holds_anything(),
                        a.pipe(una, maxseq)
                    ),
                    (
                        b.sacked(),
                        b.sacked_end(),
                        b.holds_anything(),
                        b.pipe(una, maxseq)
                    ),
                    "step {step}"
                );
                assert_eq!(a.retrans_out, a.recount_retransmissions(), "step {step}");
                assert_eq!(a.hole_from(una), b.hole_from(una));
                assert_eq!(a.next_unacked(una), b.next_unacked(una));
                for s in una..maxseq + 2 {
                    assert_eq!(
                        (a.is_sacked(s), a.is_retransmitted(s), a.is_lost(s)),
                        (b.is_sacked(s), b.is_retransmitted(s), b.is_lost(s)),
                        "segment {s} at step {step}"
                    );
                }
                largest = largest.max(a.marks.heap_bytes());
            }
            assert_eq!(largest, 2 * 512, "grew to the whole window");
            a.clear(maxseq);
            assert_eq!(a.marks.heap_bytes(), 2 * 16, "back to the smallest ring");
        }
    }

    /// ns-2.35's `ScoreBoardRQ::sack_min` survives `ClearScoreBoard` and
    /// `Sack1TcpAgent::reset`: a new connection's holes below the old one's last cumulative
    /// ACK in recovery are not retransmitted from the scoreboard.
    #[test]
    fn sack_min_kept_over_a_reset_hides_the_holes_below_it() {
        let mut old = Scoreboard::new(64);
        old.update(40, [(42, 45)].into_iter());
        old.clear(45);
        let mut new = Scoreboard::new(64);
        new.keep_sack_min(&old);
        assert!(
            new.update(25, [(27, 30)].into_iter()),
            "the blocks are recorded"
        );
        assert_eq!(new.next_retransmission(), None);
        let mut plain = Scoreboard::new(64);
        plain.update(25, [(27, 30)].into_iter());
        assert_eq!(plain.next_retransmission(), Some(25));
    }

    #[test]
    fn holes_below_the_highest_sack_are_retransmitted_in_order_once() {
        let mut sb = Scoreboard::new(32);
        // Segments 10..30 outstanding; 11-12 and 15-19 SACKed: holes at 10, 13, 14.
        assert!(sb.update(10, [(11, 13), (15, 20)].into_iter()));
        assert!(!sb.update(10, [(11, 13)].into_iter()), "nothing new");
        assert!(sb.is_sacked(16) && !sb.is_sacked(13));
        assert_eq!(sb.next_retransmission(), Some(10));
        sb.mark_retransmitted(10);
        assert_eq!(sb.next_retransmission(), Some(13));
        sb.mark_retransmitted(13);
        assert_eq!(sb.next_retransmission(), Some(14));
        sb.mark_retransmitted(14);
        assert_eq!(sb.next_retransmission(), None);
        // A cumulative ACK to 13 forgets what lies below.
        sb.advance(13);
        assert!(!sb.is_sacked(11));
        sb.clear(20);
        assert_eq!(sb.next_retransmission(), None);
        assert!(!sb.is_sacked(16));
    }

    #[test]
    fn pipe_counts_segments_above_the_highest_sack_and_retransmissions_in_flight() {
        let mut sb = Scoreboard::new(32);
        // 10..30 outstanding; 11-12 and 15-19 SACKed: 10 segments above 20, holes 10, 13, 14.
        sb.update(10, [(11, 13), (15, 20)].into_iter());
        assert_eq!((sb.sacked(), sb.pipe(10, 30)), (7, 10));
        sb.mark_retransmitted(10);
        sb.mark_retransmitted(13);
        sb.mark_retransmitted(13);
        assert_eq!(sb.pipe(10, 30), 12, "each retransmission once");
        // 13 arrives (SACKed): no longer in flight.
        sb.update(10, [(13, 14)].into_iter());
        assert_eq!((sb.sacked(), sb.pipe(10, 30)), (8, 11));
        // The cumulative ACK reaches 14: 10 (retransmitted) and 11-13 (SACKed) forgotten.
        sb.advance(14);
        assert_eq!((sb.sacked(), sb.pipe(14, 30)), (5, 10));
        sb.clear(30);
        assert_eq!((sb.sacked(), sb.pipe(30, 30)), (0, 0));
    }

    #[test]
    fn rfc6675_holes_are_lost_only_below_three_sacked_segments() {
        // 10..30 outstanding; 11, 13, 15-16 and 18 SACKed: holes 10, 12, 14, 17, 19.
        let blocks = [(11, 12), (13, 14), (15, 17), (18, 19)];
        let mut ns2 = Scoreboard::new(32);
        ns2.update(10, blocks.into_iter());
        // ns-2: every hole below 19 lost; pipe = 11 segments above 18.
        assert_eq!(ns2.pipe(10, 30), 11);
        let mut sb = Scoreboard::new(32).lost_after(3);
        sb.update(10, blocks.into_iter());
        // Three SACKed above hole 14 (15, 16, 18), two above 17: 10, 12 and 14 lost; 17 is
        // in the pipe with the 11 segments above 18.
        assert_eq!(sb.pipe(10, 30), 12);
        let resent: Vec<u64> = std::iter::from_fn(|| {
            let s = sb.next_retransmission()?;
            sb.mark_retransmitted(s);
            Some(s)
        })
        .collect();
        assert_eq!(resent, [10, 12, 14]);
        // Each lost hole resent counts once, as in ns-2's pipe.
        assert_eq!(sb.pipe(10, 30), 15);
        // 20 and 21 SACKed: 17 now has 18, 20 and 21 above it and is lost; 19 is not.
        sb.update(10, [(20, 22)].into_iter());
        assert_eq!(sb.next_retransmission(), Some(17));
        sb.mark_retransmitted(17);
        // 8 above 21, 3 resent holes, 17 resent, 19 still in flight.
        assert_eq!(sb.pipe(10, 30), 8 + 3 + 1 + 1);
        assert_eq!(sb.next_retransmission(), None);
    }

    #[test]
    fn ns3_keeps_a_sacked_retransmission_in_the_pipe_until_the_cumulative_ack() {
        // 10..20 outstanding, 10 and 11 lost, 12..15 SACKed: both holes lost (RFC 6675 IsLost).
        for ns3 in [false, true] {
            let sb = Scoreboard::new(32).lost_after(3);
            let mut sb = if ns3 {
                sb.sacked_retransmissions_in_pipe()
            } else {
                sb
            };
            sb.update(10, [(12, 16)].into_iter());
            assert!(sb.is_lost(10) && sb.is_lost(11) && !sb.is_lost(12));
            assert_eq!(sb.pipe(10, 20), 4); // 16..20
            sb.mark_retransmitted(10);
            sb.mark_retransmitted(11);
            assert!(sb.is_retransmitted(11));
            assert_eq!(sb.pipe(10, 20), 6);
            // The resent 11 is SACKed: RFC 6675's SetPipe drops it; ns-3.44's TcpTxBuffer keeps
            // its m_retrans (Update clears only m_lost) until DiscardUpTo.
            sb.update(10, [(11, 16)].into_iter());
            assert!(!sb.is_retransmitted(11));
            assert_eq!(sb.pipe(10, 20), if ns3 { 6 } else { 5 });
            // The cumulative ACK passes both: 16..20 are left.
            sb.update(16, [].into_iter());
            assert_eq!(sb.pipe(16, 20), 4);
        }
    }

    #[test]
    fn a_sacked_segment_resent_is_counted_as_it_is_uncounted() {
        // 10..20 outstanding, 12 SACKed, then 12 resent anyway (a go-back-N): ns-3.44's
        // CopyFromSequence counts it in m_retrans, RemoveFromCounts takes it back at the
        // cumulative ACK; ns-2's rule never counts a SACKed segment.
        for ns3 in [false, true] {
            let sb = Scoreboard::new(32).lost_after(3);
            let mut sb = if ns3 {
                sb.sacked_retransmissions_in_pipe()
            } else {
                sb
            };
            sb.update(10, [(12, 13)].into_iter());
            let before = sb.pipe(10, 20);
            sb.mark_retransmitted(12);
            assert_eq!(sb.pipe(10, 20), before + u64::from(ns3));
            sb.advance(20);
            assert_eq!((sb.retrans_out, sb.pipe(20, 20)), (0, 0));
        }
    }

    #[test]
    fn a_timeout_keeps_the_sacks_and_takes_every_other_segment_as_lost() {
        let mut sb = Scoreboard::new(32)
            .lost_after(3)
            .sacked_retransmissions_in_pipe();
        // 10..30 outstanding; 12..16 and 20 SACKed; 10 resent.
        sb.update(10, [(12, 16), (20, 21)].into_iter());
        sb.mark_retransmitted(10);
        assert!(sb.holds_anything());
        // ns-3.44's SetSentListLost(false): nothing in the pipe, every hole lost, the resent
        // 10 due again; NextSeg (1.b) resends only holes below the highest SACK (21).
        sb.timeout_keeping_sacks(30);
        assert_eq!(sb.pipe(10, 30), 0);
        let resent: Vec<u64> = std::iter::from_fn(|| {
            let s = sb.next_retransmission()?;
            sb.mark_retransmitted(s);
            Some(s)
        })
        .collect();
        assert_eq!(resent, [10, 11, 16, 17, 18, 19]);
        assert_eq!(sb.pipe(10, 30), 6);
        // Marking the head lost (EnterRecovery's MarkHeadAsLost) with one SACK above it.
        let mut sb = Scoreboard::new(32).lost_after(3);
        sb.update(10, [(11, 12)].into_iter());
        assert!(!sb.is_lost(10));
        assert_eq!(sb.pipe(10, 20), 9);
        sb.mark_lost_below(11);
        assert!(sb.is_lost(10));
        assert_eq!(sb.pipe(10, 20), 8);
        assert_eq!(sb.next_retransmission(), Some(10));
    }

    #[test]
    fn a_mark_above_the_highest_sack_is_forgotten_with_the_rest() {
        let mut sb = Scoreboard::new(8);
        sb.update(10, [(11, 12)].into_iter());
        sb.mark_retransmitted(10);
        sb.mark_retransmitted(14); // above `high` (12)
        assert_eq!(sb.pipe(10, 16), 4 + 2);
        sb.clear(12);
        assert_eq!((sb.sacked(), sb.pipe(12, 16)), (0, 4));
        // Segment 22 shares 14's slot: no stale mark, no counter going below zero.
        sb.update(20, [(22, 23)].into_iter());
        assert_eq!((sb.sacked(), sb.pipe(20, 24)), (1, 1));
        sb.advance(24);
        assert_eq!((sb.sacked(), sb.pipe(24, 24)), (0, 0));
    }
}
