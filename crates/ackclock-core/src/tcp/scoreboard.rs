//! The SACK scoreboard (RFC 6675 section 3; ns-2 `ScoreBoard`): which outstanding segments
//! the receiver has reported holding, and which have been retransmitted in this recovery.
//!
//! Outstanding segments always lie in [una, una + window), so two ring bitmaps sized to the
//! receiver window hold the state without allocation after start-up.

#[derive(Clone, Debug)]
pub struct Scoreboard {
    sacked: Vec<bool>,
    retransmitted: Vec<bool>,
    mask: u64,
    /// Lowest segment the bitmaps may describe (the cumulative ACK at the last update).
    low: u64,
    /// One past the highest SACKed segment; `low` when nothing is SACKed.
    high: u64,
    /// No segment below this can be the next retransmission (a scan hint).
    scan_from: u64,
    /// One past the highest segment marked retransmitted: marks may lie above `high`.
    marks_end: u64,
    /// Segments SACKed, and retransmitted segments not SACKed, in [low, low + window).
    sacked_count: u64,
    retrans_out: u64,
}

impl Scoreboard {
    pub fn new(window: u32) -> Scoreboard {
        let cap = (window as u64).next_power_of_two().max(1);
        Scoreboard {
            sacked: vec![false; cap as usize],
            retransmitted: vec![false; cap as usize],
            mask: cap - 1,
            low: 0,
            high: 0,
            scan_from: 0,
            marks_end: 0,
            sacked_count: 0,
            retrans_out: 0,
        }
    }

    #[inline]
    fn slot(&self, seq: u64) -> usize {
        (seq & self.mask) as usize
    }

    /// Where the bitmaps may hold a bit: below the larger of `high` and `marks_end`.
    fn marked_end(&self) -> u64 {
        self.high.max(self.marks_end).max(self.low)
    }

    /// Forgets everything below the new cumulative ACK `una`.
    pub fn advance(&mut self, una: u64) {
        let end = una.min(self.marked_end());
        for s in self.low..end.max(self.low) {
            let i = self.slot(s);
            if self.sacked[i] {
                self.sacked_count -= 1;
            } else if self.retransmitted[i] {
                self.retrans_out -= 1;
            }
            self.sacked[i] = false;
            self.retransmitted[i] = false;
        }
        if una > self.low {
            self.low = una;
        }
        self.high = self.high.max(self.low);
        self.scan_from = self.scan_from.max(self.low);
    }

    /// Forgets everything (a new window of data, or a timeout).
    pub fn clear(&mut self, una: u64) {
        for s in self.low..self.marked_end() {
            let i = self.slot(s);
            self.sacked[i] = false;
            self.retransmitted[i] = false;
        }
        self.low = una.max(self.low);
        self.marks_end = self.low;
        self.high = self.low;
        self.scan_from = self.low;
        self.sacked_count = 0;
        self.retrans_out = 0;
    }

    /// Whether `blocks` report a segment not SACKed yet, with the cumulative ACK at `una`
    /// (what [`Scoreboard::update`] would return, without recording anything).
    pub fn reports_new(&self, una: u64, blocks: impl Iterator<Item = (u64, u64)>) -> bool {
        let low = una.max(self.low);
        let limit = low + self.mask + 1;
        blocks
            .flat_map(|(start, end)| start.max(low)..end.min(limit))
            .any(|s| !self.sacked[self.slot(s)])
    }

    /// Records SACKed ranges; returns whether any segment was newly reported.
    pub fn update(&mut self, una: u64, blocks: impl Iterator<Item = (u64, u64)>) -> bool {
        self.advance(una);
        let limit = self.low + self.mask + 1;
        let mut changed = false;
        for (start, end) in blocks {
            for s in start.max(self.low)..end.min(limit) {
                let i = self.slot(s);
                if !self.sacked[i] {
                    self.sacked[i] = true;
                    self.sacked_count += 1;
                    if self.retransmitted[i] {
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

    pub fn is_sacked(&self, seq: u64) -> bool {
        seq >= self.low && seq < self.high && self.sacked[self.slot(seq)]
    }

    pub fn mark_retransmitted(&mut self, seq: u64) {
        if seq >= self.low && seq < self.low + self.mask + 1 {
            let i = self.slot(seq);
            if !self.retransmitted[i] && !self.sacked[i] {
                self.retrans_out += 1;
            }
            self.retransmitted[i] = true;
            self.marks_end = self.marks_end.max(seq + 1);
        }
    }

    /// Segments the receiver has reported holding above the cumulative ACK.
    pub fn sacked(&self) -> u64 {
        self.sacked_count
    }

    /// RFC 6675's pipe (SetPipe), with every hole below the highest SACKed segment taken as
    /// lost (as `next_retransmission` takes it): the segments sent above the highest SACKed
    /// one, plus the retransmissions not yet SACKed.
    pub fn pipe(&self, una: u64, maxseq: u64) -> u64 {
        maxseq.saturating_sub(self.high.max(una)) + self.retrans_out
    }

    /// The lowest hole below the highest SACKed segment not yet retransmitted (ns-2's
    /// `GetNextRetran`; RFC 6675 NextSeg rule 1 with a segment taken as lost once any
    /// later segment is SACKed, as ns-2 does).
    pub fn next_retransmission(&mut self) -> Option<u64> {
        let mut s = self.scan_from.max(self.low);
        while s < self.high {
            let i = self.slot(s);
            if !self.sacked[i] && !self.retransmitted[i] {
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
