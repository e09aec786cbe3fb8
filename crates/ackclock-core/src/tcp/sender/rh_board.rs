//! ns-2.35's `ScoreBoardRH` (tcp/scoreboard-rh.cc), the scoreboard of `Agent/TCP/SackRH`
//! (`sender/sack_rh.rs`): a ring of `SBSIZE` nodes indexed by sequence number modulo its size,
//! `first_` and `length_` the live part. Each node keeps whether the segment is acknowledged
//! cumulatively or by SACK, whether it is resent (with `snd_nxt_` then and the rate-halving
//! interval `rh_id_`), and `sack_cnt_`, the ACKs that reported data above it while it was a
//! hole. Its quirks are ns-2's and kept: the ring is not cleared when it empties, so a later
//! update extends it from the sequence number of the slot before `first_` (an ACK that jumps
//! past the whole board with SACK blocks re-creates holes at or below it), and `retran_sacked_`
//! starts at 0. Sequence numbers are ns-2's (`last_ack` the highest acknowledged, -1 before
//! any; SACK blocks `[left, right)`).

use crate::packet::SackBlocks;

/// `SBSIZE` (tcp/scoreboard-rh.h). ns-2 exits when the board would reach it.
const SBSIZE: usize = 1024;

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    seq_no: i64,
    ack: bool,
    sack: bool,
    retran: bool,
    snd_nxt: i64,
    sack_cnt: i64,
    rh_id: i64,
}

impl Node {
    fn fresh(seq_no: i64) -> Node {
        Node {
            seq_no,
            ..Node::default()
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct RhBoard {
    sbn: Vec<Node>,
    first: usize,
    length: usize,
    retran_sacked: i64,
    /// `numdupacks_` of the agent: the reports that make a hole lost.
    numdupacks: i64,
    /// The board would have reached `SBSIZE` (ns-2 prints an error and exits).
    pub(super) overflow: bool,
}

impl RhBoard {
    pub(super) fn new(numdupacks: u32) -> RhBoard {
        RhBoard {
            sbn: vec![Node::default(); SBSIZE + 1],
            first: 0,
            length: 0,
            retran_sacked: 0,
            numdupacks: i64::from(numdupacks),
            overflow: false,
        }
    }

    fn at(&mut self, seq: i64) -> &mut Node {
        &mut self.sbn[seq.rem_euclid(SBSIZE as i64) as usize]
    }

    fn first_seq(&self) -> i64 {
        self.sbn[self.first].seq_no
    }

    fn last_seq(&self) -> i64 {
        self.sbn[(self.first + self.length + SBSIZE - 1) % SBSIZE].seq_no
    }

    /// Appends nodes after the last one (or the slot before `first_` when empty) up to
    /// `right` (not included).
    fn extend_to(&mut self, right: i64) {
        let last = self.last_seq();
        if right > last {
            for i in last + 1..right {
                *self.at(i) = Node::fresh(i);
                self.length += 1;
                if self.length >= SBSIZE {
                    self.overflow = true;
                    self.length = SBSIZE - 1;
                    return;
                }
            }
        }
    }

    /// `UpdateScoreBoard(last_ack, tcph, rh_id)`: the resent segments now acknowledged or
    /// SACKed, or found lost again (`CheckSndNxt`), which leave `retran_data_`.
    pub(super) fn update(
        &mut self,
        last_ack: i64,
        blocks: &SackBlocks,
        ack: u64,
        rh_id: i64,
    ) -> i64 {
        let mut sack_max = 0;
        let mut retran_decr = 0;
        let has_blocks = !blocks.is_empty();
        if !has_blocks && self.length == 0 {
            return 0;
        }
        if self.length == 0 {
            let i = last_ack + 1;
            *self.at(i) = Node::fresh(i);
            self.first = i.rem_euclid(SBSIZE as i64) as usize;
            self.length = 1;
        }
        if self.first_seq() <= last_ack {
            let mut i = self.first_seq();
            while i <= last_ack {
                if self.at(i).seq_no <= last_ack {
                    self.first = (self.first + 1) % SBSIZE;
                    self.length -= 1;
                    let n = self.at(i);
                    n.ack = true;
                    n.sack = true;
                    if n.retran {
                        n.retran = false;
                        n.snd_nxt = 0;
                        retran_decr += 1;
                        self.retran_sacked = rh_id;
                    }
                    if self.length == 0 {
                        break;
                    }
                }
                i += 1;
            }
        }
        for (left, right) in blocks.iter(ack) {
            let (left, right) = (left as i64, right as i64);
            sack_max = sack_max.max(right);
            self.extend_to(right);
            let mut i = self.first_seq();
            while i < right {
                let n = self.at(i);
                if n.seq_no >= left && n.seq_no < right {
                    n.sack = true;
                    if n.retran {
                        n.retran = false;
                        n.snd_nxt = 0;
                        retran_decr += 1;
                        self.retran_sacked = rh_id;
                    }
                }
                i += 1;
            }
        }
        if self.length != 0 {
            let mut i = self.first_seq();
            while i < sack_max {
                let n = self.at(i);
                if !n.ack && !n.sack {
                    n.sack_cnt += 1;
                }
                i += 1;
            }
        }
        retran_decr + self.check_snd_nxt(sack_max)
    }

    /// `CheckSndNxt(sack_max)`: a resent segment below the highest SACKed one that was sent
    /// before the retransmission (`snd_nxt_ < sack_max`) was lost again: a hole once more.
    fn check_snd_nxt(&mut self, sack_max: i64) -> i64 {
        let mut lost = 0;
        if self.length != 0 {
            let mut i = self.first_seq();
            while i < sack_max {
                let n = self.at(i);
                if n.retran && n.snd_nxt < sack_max {
                    n.retran = false;
                    n.snd_nxt = 0;
                    n.sack_cnt = 1;
                    lost += 1;
                }
                i += 1;
            }
        }
        lost
    }

    /// `GetNextRetran`: the first hole reported `numdupacks_` times and not resent.
    pub(super) fn next_retran(&mut self) -> Option<i64> {
        if self.length == 0 {
            return None;
        }
        let (from, numdupacks) = (self.first_seq(), self.numdupacks);
        (from..from + self.length as i64).find(|&i| {
            let n = self.sbn[i.rem_euclid(SBSIZE as i64) as usize];
            !n.ack && !n.sack && !n.retran && n.sack_cnt >= numdupacks
        })
    }

    /// `MarkRetran(seq, snd_nxt, rh_id)`.
    pub(super) fn mark_retran(&mut self, seq: i64, snd_nxt: i64, rh_id: i64) {
        let n = self.at(seq);
        n.retran = true;
        n.snd_nxt = snd_nxt;
        n.rh_id = rh_id;
    }

    /// `GetFack(last_ack)`: the board's last segment, or `last_ack` when it is empty.
    pub(super) fn fack(&self, last_ack: i64) -> i64 {
        if self.length != 0 {
            self.first_seq() + self.length as i64 - 1
        } else {
            last_ack
        }
    }

    /// `GetNewHoles`: the holes reported once so far.
    pub(super) fn new_holes(&self) -> i64 {
        let from = self.first_seq();
        (from..from + self.length as i64)
            .filter(|&i| {
                let n = self.sbn[i.rem_euclid(SBSIZE as i64) as usize];
                !n.ack && !n.sack && n.sack_cnt == 1
            })
            .count() as i64
    }

    /// `TimeoutScoreBoard(snd_nxt)`: the board reaches `snd_nxt`, every hole is to be resent
    /// (`sack_cnt_ = numdupacks_`, nothing marked resent), and a first segment SACKed but not
    /// acknowledged (a renege) becomes a hole again.
    pub(super) fn timeout(&mut self, snd_nxt: i64) {
        if self.length == 0 {
            return;
        }
        self.extend_to(snd_nxt);
        let (from, numdupacks) = (self.first_seq(), self.numdupacks);
        for i in from..from + self.length as i64 {
            let n = self.at(i);
            if !n.ack && !n.sack {
                n.retran = false;
                n.snd_nxt = 0;
                n.sack_cnt = numdupacks;
            }
        }
        let n = self.at(from);
        if !n.ack && n.sack {
            n.sack = false;
            n.retran = false;
            n.snd_nxt = 0;
            n.sack_cnt = numdupacks;
        }
    }

    /// The agent's `numdupacks_`.
    pub(super) fn numdupacks(&self) -> i64 {
        self.numdupacks
    }

    /// `RetranSacked(rh_id)`: a retransmission of that interval was acknowledged.
    pub(super) fn retran_sacked(&self, rh_id: i64) -> bool {
        self.retran_sacked == rh_id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(ack: u64, list: &[(u64, u64)]) -> SackBlocks {
        let mut b = SackBlocks::NONE;
        for &(l, r) in list {
            assert!(b.push(ack, l, r));
        }
        b
    }

    #[test]
    fn a_hole_is_resent_after_numdupacks_reports_and_fack_is_the_last_sacked() {
        let mut b = RhBoard::new(3);
        // Segment 10 lost, 11.. SACKed one by one (cumulative ACK 9).
        for right in 12..15 {
            assert_eq!(b.update(9, &blocks(10, &[(11, right)]), 10, 0), 0);
            if right < 14 {
                assert_eq!(b.next_retran(), None);
            }
        }
        assert_eq!(b.next_retran(), Some(10));
        assert_eq!(b.fack(9), 13);
        b.mark_retran(10, 14, 1);
        assert_eq!(b.next_retran(), None);
        // The retransmission's cumulative ACK takes it out of retran_data_.
        assert_eq!(b.update(13, &SackBlocks::NONE, 14, 1), 1);
        assert!(b.retran_sacked(1));
    }
}
