//! ns-2.35's `ScoreBoard1` (tcp/scoreboard1.h, tcp/scoreboard1.cc, David Wei's scoreboard
//! for TCP-Linux, after Linux 2.6's `clean_rtx_queue` and `sacktag_write_queue`): the
//! segments above the cumulative ACK as runs of one state each, in flight, SACKed, lost or
//! retransmitted (a retransmitted segment is a run of its own that remembers `t_seqno_` when
//! it left and the number of its retransmission). Sequence numbers are ns-2's (the engine's
//! segment numbers); `last_ack` is ns-2's `highest_ack_`, the last segment acknowledged.
//! ns-2 keeps a linked list; here the runs sit in one vector in sequence order, so that no
//! segment allocates once the vector has grown.

/// `SKB_FLAG_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    InFlight,
    Sacked,
    Lost,
    Retransmitted,
}

/// `FLAG_DATA_SACKED`, `FLAG_DATA_LOST` and `FLAG_UNSURE_TSTAMP` (tcp/linux/ns-linux-util.h).
pub(crate) const FLAG_DATA_SACKED: u8 = 2;
pub(crate) const FLAG_DATA_LOST: u8 = 8;
pub(crate) const FLAG_UNSURE_TSTAMP: u8 = 16;

/// `ScoreBoardNode1`: [seq, nxt] of one mark, or for a retransmission the segment `seq`
/// with `nxt` the `t_seqno_` it left at and `retran` its retransmission number.
#[derive(Clone, Copy, Debug)]
struct Run {
    mark: Mark,
    seq: i64,
    nxt: i64,
    retran: i64,
}

impl Run {
    fn new(seq: i64, nxt: i64, mark: Mark) -> Run {
        Run {
            mark,
            seq,
            nxt,
            retran: 0,
        }
    }

    /// `GetEnd`.
    fn end(&self) -> i64 {
        if self.mark == Mark::Retransmitted {
            self.seq
        } else {
            self.nxt
        }
    }

    /// `GetLength`.
    fn len(&self) -> i64 {
        if self.mark == Mark::Retransmitted {
            1
        } else {
            self.nxt + 1 - self.seq
        }
    }

    /// `SetFlag`: a retransmission that takes another mark becomes the one segment again.
    fn set_mark(&mut self, mark: Mark) {
        if self.mark == Mark::Retransmitted {
            self.nxt = self.seq;
        }
        self.mark = mark;
    }

    /// `ShouldClean`: 0 keeps the run, -1 drops it whole, n > 0 drops its first n segments.
    fn should_clean(&self, ackseq: i64) -> i64 {
        if ackseq < self.seq {
            0
        } else if self.mark == Mark::Retransmitted || ackseq >= self.nxt {
            -1
        } else {
            ackseq + 1 - self.seq
        }
    }
}

/// `ScoreBoard1`.
#[derive(Clone, Debug, Default)]
pub(crate) struct ScoreBoard1 {
    runs: Vec<Run>,
    /// `nxt_to_retrx_`: the run to look for the next retransmission from.
    next_retx: Option<usize>,
    acked_rtx_id: i64,
    rtx_id: i64,
    /// `fack_`: the highest segment SACKed.
    fack: i64,
    /// `fack_out_`, `sack_out_`: segments marked lost, SACKed.
    fack_out: i64,
    sack_out: i64,
}

impl ScoreBoard1 {
    pub(crate) fn new() -> ScoreBoard1 {
        let mut s = ScoreBoard1::default();
        s.clear();
        s
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// `ClearScoreBoard`.
    pub(crate) fn clear(&mut self) {
        self.rtx_id = 0;
        self.acked_rtx_id = -1;
        self.fack_out = 0;
        self.sack_out = 0;
        self.fack = 0;
        self.next_retx = None;
        self.runs.clear();
    }

    /// `packets_in_flight(snd_una, snd_nxt)`: sent, not acknowledged, neither SACKed nor
    /// lost.
    pub(crate) fn packets_in_flight(&self, snd_una: i64, snd_nxt: i64) -> i64 {
        snd_nxt - snd_una - self.fack_out - self.sack_out
    }

    /// `Split`: run `i` ends before `seq`, a new run of the same mark from `seq` follows it.
    fn split(&mut self, i: usize, seq: i64) {
        let r = self.runs[i];
        self.runs.insert(i + 1, Run::new(seq, r.nxt, r.mark));
        self.runs[i].nxt = seq - 1;
        if let Some(n) = self.next_retx.as_mut() {
            if *n > i {
                *n += 1;
            }
        }
    }

    /// `Mergable`: run `i + 1` exists, is no retransmission and has run `i`'s mark.
    fn mergeable(&self, i: usize) -> bool {
        self.runs
            .get(i + 1)
            .is_some_and(|n| n.mark != Mark::Retransmitted && n.mark == self.runs[i].mark)
    }

    /// `Merge`: run `i` takes in run `i + 1`.
    fn merge(&mut self, i: usize) {
        self.runs[i].nxt = self.runs[i + 1].nxt;
        self.runs.remove(i + 1);
        if let Some(n) = self.next_retx.as_mut() {
            if *n > i {
                *n -= 1;
            }
        }
    }

    /// `CleanRtxQueue`: drops what `last_ack` acknowledges; true when an acknowledged
    /// retransmission is later than any acknowledged before.
    fn clean(&mut self, last_ack: i64, flag: &mut u8) -> bool {
        let mut changed = false;
        while let Some(head) = self.runs.first().copied() {
            let cmp = head.should_clean(last_ack);
            if cmp == 0 {
                break;
            }
            let n = if cmp < 0 { head.len() } else { cmp };
            match head.mark {
                Mark::Sacked => self.sack_out -= n,
                Mark::Lost => self.fack_out -= n,
                _ => {}
            }
            if cmp < 0 {
                if head.mark == Mark::Retransmitted {
                    if head.retran > self.acked_rtx_id {
                        changed = true;
                        self.acked_rtx_id = head.retran;
                    }
                    *flag |= FLAG_UNSURE_TSTAMP;
                }
                self.runs.remove(0);
                // A pointer to the dropped head moves to the new head.
                self.next_retx = match self.next_retx {
                    Some(0) | None if self.runs.is_empty() => None,
                    Some(0) => Some(0),
                    Some(k) => Some(k - 1),
                    None => None,
                };
            } else {
                self.runs[0].seq = last_ack + 1;
                break;
            }
        }
        changed
    }

    /// `UpdateScoreBoard(last_ack, tcph, dupack_threshold)`: the ACK's SACK blocks ([start,
    /// end) as ns-2's sink writes them) marked, and the runs below `fack_ - (threshold + 1)`
    /// or retransmitted before segments now SACKed marked lost. Returns the flags.
    pub(crate) fn update(
        &mut self,
        last_ack: i64,
        blocks: impl Iterator<Item = (u64, u64)>,
        dupack_threshold: i64,
    ) -> u8 {
        let mut flag = 0u8;
        let mut thorough = self.clean(last_ack, &mut flag);
        if self.runs.is_empty() {
            self.clear();
            thorough = false;
        }
        // D-SACK blocks (below the cumulative ACK) dropped, the rest sorted by left edge.
        let mut left = [0i64; 4];
        let mut right = [0i64; 4];
        let mut n = 0usize;
        let mut any = false;
        for (l, r) in blocks {
            any = true;
            let (l, r) = (l as i64, r as i64);
            if l >= last_ack && n < left.len() {
                let mut j = n;
                n += 1;
                while j > 0 && left[j - 1] > l {
                    left[j] = left[j - 1];
                    right[j] = right[j - 1];
                    j -= 1;
                }
                left[j] = l;
                right[j] = r;
            }
        }
        if !thorough && (!any || n == 0) {
            return flag;
        }
        if n > 0 && self.fack < right[n - 1] - 1 {
            self.fack = right[n - 1] - 1;
            thorough = true;
        }
        if self.runs.is_empty() {
            self.runs
                .push(Run::new(last_ack + 1, self.fack, Mark::InFlight));
        }
        self.next_retx = None;
        let lost_threshold = self.fack - (dupack_threshold + 1);
        let mut i = 0usize;
        let mut prev: Option<usize> = None;
        let mut si = 0usize;
        while i < self.runs.len() && (si < n || thorough) {
            if self.runs[i].mark != Mark::Sacked {
                while si < n && right[si] <= self.runs[i].seq {
                    si += 1;
                }
                if si < n && left[si] <= self.runs[i].end() {
                    if left[si] > self.runs[i].seq {
                        // The first part of this run is not SACKed.
                        self.split(i, left[si]);
                    } else {
                        if right[si] <= self.runs[i].end() {
                            self.split(i, right[si]);
                        }
                        let len = self.runs[i].len();
                        match self.runs[i].mark {
                            Mark::Lost => self.fack_out -= len,
                            Mark::Retransmitted => {
                                self.acked_rtx_id = self.runs[i].retran;
                                flag |= FLAG_UNSURE_TSTAMP;
                                thorough = true;
                            }
                            _ => {}
                        }
                        self.sack_out += len;
                        flag |= FLAG_DATA_SACKED;
                        self.runs[i].set_mark(Mark::Sacked);
                    }
                }
                if si >= n || left[si] > self.runs[i].end() {
                    let r = self.runs[i];
                    match r.mark {
                        Mark::Retransmitted => {
                            // Lost again: sent before the highest SACK, or more than the
                            // threshold retransmissions before one acknowledged.
                            if r.nxt <= self.fack
                                || r.retran + dupack_threshold + 1 < self.acked_rtx_id
                            {
                                self.runs[i].set_mark(Mark::Lost);
                                self.fack_out += 1;
                                flag |= FLAG_DATA_LOST;
                                self.next_retx.get_or_insert(i);
                            }
                        }
                        Mark::InFlight => {
                            if r.seq <= lost_threshold {
                                if lost_threshold < r.end() {
                                    self.split(i, lost_threshold + 1);
                                }
                                self.runs[i].set_mark(Mark::Lost);
                                self.fack_out += self.runs[i].len();
                                flag |= FLAG_DATA_LOST;
                                self.next_retx.get_or_insert(i);
                            }
                        }
                        Mark::Lost => {
                            self.next_retx.get_or_insert(i);
                        }
                        Mark::Sacked => {}
                    }
                }
            }
            let p = match prev {
                Some(p) if self.mergeable(p) => {
                    if self.next_retx == Some(p + 1) {
                        self.next_retx = Some(p);
                    }
                    self.merge(p);
                    p
                }
                _ => {
                    prev = Some(i);
                    i
                }
            };
            if p + 1 == self.runs.len() && self.runs[p].end() < self.fack {
                let start = self.runs[p].end() + 1;
                self.runs.push(Run::new(start, self.fack, Mark::InFlight));
            }
            i = p + 1;
        }
        flag
    }

    /// `MarkLoss(snd_una, snd_nxt)`, on a timeout: every segment sent and not SACKed is lost.
    pub(crate) fn mark_loss(&mut self, snd_una: i64, snd_nxt: i64) {
        self.next_retx = None;
        let mut i = 0usize;
        let mut prev: Option<usize> = None;
        let mut last_lost = false;
        while i < self.runs.len() {
            if self.runs[i].mark != Mark::Sacked {
                if self.runs[i].mark != Mark::Lost {
                    self.fack_out += self.runs[i].end() - self.runs[i].seq + 1;
                }
                self.runs[i].set_mark(Mark::Lost);
                match (last_lost, prev) {
                    (true, Some(p)) => {
                        self.merge(p);
                        i = p;
                    }
                    _ => {
                        self.next_retx.get_or_insert(i);
                    }
                }
                last_lost = true;
            } else {
                last_lost = false;
            }
            prev = Some(i);
            i += 1;
            if i == self.runs.len() {
                let end = self.runs[i - 1].end();
                if end + 1 < snd_nxt {
                    // Everything sent after the scoreboard's end was lost too.
                    self.runs
                        .push(Run::new(end + 1, snd_nxt - 1, Mark::InFlight));
                }
            }
        }
        if prev.is_none() && snd_una < snd_nxt {
            self.runs.push(Run::new(snd_una, snd_nxt - 1, Mark::Lost));
            self.next_retx = Some(0);
            self.fack_out += snd_nxt - snd_una;
        }
        self.rtx_id = 0;
        self.acked_rtx_id = -1;
    }

    /// `GetNextRetran`: the first segment of the first lost run from `nxt_to_retrx_` on.
    pub(crate) fn next_retransmission(&mut self) -> Option<i64> {
        while let Some(j) = self.next_retx {
            match self.runs.get(j) {
                Some(r) if r.mark == Mark::Lost => return Some(r.seq),
                Some(_) => self.next_retx = Some(j + 1),
                None => self.next_retx = None,
            }
        }
        None
    }

    /// `MarkRetran(seq, snd_nxt)`: the segment `next_retransmission` named leaves again.
    pub(crate) fn mark_retransmitted(&mut self, snd_nxt: i64) {
        let Some(j) = self.next_retx else {
            return;
        };
        self.fack_out -= 1;
        if self.runs[j].nxt > self.runs[j].seq {
            let s = self.runs[j].seq;
            self.split(j, s + 1);
        }
        let r = &mut self.runs[j];
        r.mark = Mark::Retransmitted;
        r.nxt = snd_nxt;
        r.retran = self.rtx_id;
        self.rtx_id += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ns-2's own `ScoreBoard1::test` opening: SACK of 4 with 1 acknowledged, then of 7,
    /// then the first retransmission.
    #[test]
    fn sack_marks_and_losses_as_ns2() {
        let mut sb = ScoreBoard1::new();
        // 1 acknowledged, 4 SACKed: [2,3] in flight, 4 SACKed.
        let f = sb.update(1, [(4u64, 5u64)].into_iter(), 3);
        assert_eq!(f & FLAG_DATA_SACKED, FLAG_DATA_SACKED);
        assert_eq!(f & FLAG_DATA_LOST, 0);
        assert_eq!(sb.packets_in_flight(2, 5), 2);
        // 7 SACKed: fack 7, threshold 3: segment 2 and 3 lost.
        let f = sb.update(1, [(7u64, 8u64)].into_iter(), 3);
        assert_eq!(f & FLAG_DATA_LOST, FLAG_DATA_LOST);
        assert_eq!(sb.next_retransmission(), Some(2));
        assert_eq!(sb.fack_out, 2);
        assert_eq!(sb.sack_out, 2);
        sb.mark_retransmitted(8);
        assert_eq!(sb.fack_out, 1);
        assert_eq!(sb.next_retransmission(), Some(3));
        // The cumulative ACK passes everything: the board empties.
        sb.update(7, std::iter::empty(), 3);
        assert!(sb.is_empty());
        assert_eq!(sb.packets_in_flight(8, 8), 0);
    }

    /// `MarkLoss` on a timeout: all not SACKed is lost, one run per stretch.
    #[test]
    fn timeout_marks_all_unsacked_lost() {
        let mut sb = ScoreBoard1::new();
        sb.mark_loss(5, 10);
        assert_eq!(sb.fack_out, 5);
        assert_eq!(sb.next_retransmission(), Some(5));
        let mut sb = ScoreBoard1::new();
        sb.update(4, [(7u64, 8u64)].into_iter(), 3);
        sb.mark_loss(5, 12);
        // 5, 6 lost; 7 SACKed; 8..11 lost.
        assert_eq!(sb.fack_out, 6);
        assert_eq!(sb.sack_out, 1);
        assert_eq!(sb.packets_in_flight(5, 12), 0);
    }
}
