//! ns-2.35's `ScoreBoard` (tcp/scoreboard.cc) as `FackTcpAgent` uses it (`sender/fack.rs`),
//! kept node for node: its quirks decide what a FACK sender resends.
//!
//! The board holds one node per segment from `first` (the segment after the cumulative ACK
//! it was last advanced to) for `length` segments, in a ring indexed by sequence number
//! modulo its size. A node records whether the segment was acknowledged (`ack_flag_`),
//! SACKed (`sack_flag_`) or resent in this recovery (`retran_`), and for a resent one the
//! `snd_nxt_` at its resending. Rules, by function:
//!
//! - `UpdateScoreBoard(last_ack, tcph)`: nodes up to `last_ack` leave the front, each resent
//!   one counted; with SACK blocks and an empty board a node for `last_ack + 1` starts it;
//!   each block adds nodes up to its right edge and marks those inside it SACKed, a resent
//!   one counted again (and no longer resent). The count is what `retran_data_` loses. The
//!   ring doubles when a block reaches `size - 1` past `last_ack`.
//! - `GetNextRetran`: the lowest node neither acknowledged, SACKed nor resent.
//! - `MarkRetran(seq, snd_nxt)`: the node at `seq`'s slot, in the board or not.
//! - `CheckSndNxt(tcph)`: a resent node below a block's right edge whose `snd_nxt_` lies
//!   below that edge was lost again: it is no longer resent, and the agent stops sending
//!   (its `timeout_`) until the timer fires.
//! - `ClearScoreBoard`: the board is empty (`length_ = 0`); nodes stay as they were.

use crate::packet::SackBlocks;

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    seq: i64,
    acked: bool,
    sacked: bool,
    retran: bool,
    snd_nxt: i64,
}

#[derive(Clone, Debug)]
pub(super) struct Board {
    nodes: Vec<Node>,
    first: i64,
    length: i64,
}

impl Board {
    pub(super) fn new(size: usize) -> Board {
        Board {
            nodes: vec![Node::default(); size],
            first: 0,
            length: 0,
        }
    }

    fn slot(&self, seq: i64) -> usize {
        seq.rem_euclid(self.nodes.len() as i64) as usize
    }

    fn node(&mut self, seq: i64) -> &mut Node {
        let i = self.slot(seq);
        &mut self.nodes[i]
    }

    fn first_seq(&self) -> i64 {
        self.nodes[self.slot(self.first)].seq
    }

    fn last_seq(&self) -> i64 {
        self.nodes[self.slot(self.first + self.length - 1)].seq
    }

    /// `ScoreBoard::UpdateScoreBoard` for an ACK whose SACK blocks are `blocks` (the packet's,
    /// read with its cumulative ACK `ack`), with `last_ack` the agent's: the resent segments
    /// now acknowledged or SACKed.
    pub(super) fn update(&mut self, last_ack: i64, blocks: &SackBlocks, ack: u64) -> i64 {
        let mut retran_decr = 0;
        if self.length > 0 && self.first_seq() <= last_ack {
            let mut i = self.first_seq();
            while i <= last_ack {
                let n = self.node(i);
                if n.seq <= last_ack {
                    n.acked = true;
                    n.sacked = true;
                    if n.retran {
                        n.retran = false;
                        n.snd_nxt = 0;
                        retran_decr += 1;
                    }
                    self.first += 1;
                    self.length -= 1;
                    if self.length == 0 {
                        break;
                    }
                }
                i += 1;
            }
        }
        if self.length == 0 && !blocks.is_empty() {
            let seq = last_ack + 1;
            *self.node(seq) = Node {
                seq,
                ..Node::default()
            };
            self.first = seq;
            self.length = 1;
        }
        for (left, right) in blocks.iter(ack) {
            let (left, right) = (left as i64, right as i64);
            if right > self.last_seq() {
                while right - last_ack >= self.nodes.len() as i64 - 1 {
                    self.resize(self.nodes.len() * 2);
                }
                for seq in self.last_seq() + 1..right {
                    *self.node(seq) = Node {
                        seq,
                        ..Node::default()
                    };
                    self.length += 1;
                }
            }
            for i in self.first_seq()..right {
                let n = self.node(i);
                if n.seq >= left && n.seq < right {
                    n.sacked = true;
                    if n.retran {
                        n.retran = false;
                        retran_decr += 1;
                    }
                }
            }
        }
        retran_decr
    }

    /// `ScoreBoard::resizeSB`: the nodes from the first to one past the last, re-placed.
    fn resize(&mut self, size: usize) {
        let mut nodes = vec![Node::default(); size];
        let first = self.first_seq();
        for seq in first..=first + self.length {
            nodes[seq.rem_euclid(size as i64) as usize] = self.nodes[self.slot(seq)];
        }
        self.nodes = nodes;
    }

    /// `ScoreBoard::CheckSndNxt`: true if a resent segment was lost again.
    pub(super) fn check_snd_nxt(&mut self, blocks: &SackBlocks, ack: u64) -> bool {
        let mut lost_again = false;
        for (_, right) in blocks.iter(ack) {
            let right = right as i64;
            for i in self.first_seq()..right {
                let n = self.node(i);
                if n.retran && n.snd_nxt < right {
                    n.retran = false;
                    n.snd_nxt = 0;
                    lost_again = true;
                }
            }
        }
        lost_again
    }

    pub(super) fn clear(&mut self) {
        self.length = 0;
    }

    /// `ScoreBoard::GetNextRetran`.
    pub(super) fn next_retran(&self) -> Option<i64> {
        if self.length == 0 {
            return None;
        }
        let first = self.first_seq();
        (first..first + self.length).find(|&i| {
            let n = &self.nodes[self.slot(i)];
            !n.acked && !n.sacked && !n.retran
        })
    }

    /// `ScoreBoard::MarkRetran(seq, snd_nxt)`.
    pub(super) fn mark_retran(&mut self, seq: i64, snd_nxt: i64) {
        let n = self.node(seq);
        n.retran = true;
        n.snd_nxt = snd_nxt;
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
    fn holes_resent_once_and_counted_when_sacked() {
        let mut b = Board::new(8);
        // Cumulative ACK 13 (ns-2's last_ack_ 13), segments 15-16 SACKed: 14 is the hole.
        assert_eq!(b.update(13, &blocks(14, &[(15, 17)]), 14), 0);
        assert_eq!(b.next_retran(), Some(14));
        b.mark_retran(14, 17);
        assert_eq!(b.next_retran(), None);
        // 18 SACKed too: node 17 is a new hole.
        assert_eq!(b.update(13, &blocks(14, &[(15, 17), (18, 19)]), 14), 0);
        assert_eq!(b.next_retran(), Some(17));
        // The retransmission of 14 was lost again: a block past its snd_nxt_ 17.
        assert!(b.check_snd_nxt(&blocks(14, &[(18, 20)]), 14));
        assert_eq!(b.next_retran(), Some(14));
        b.mark_retran(14, 20);
        // The cumulative ACK passes 14: one resent segment left the network.
        assert_eq!(b.update(16, &blocks(17, &[(18, 20)]), 17), 1);
        assert_eq!(b.next_retran(), Some(17));
        b.clear();
        assert_eq!(b.next_retran(), None);
    }

    #[test]
    fn the_ring_doubles_as_ns2s() {
        let mut b = Board::new(8);
        b.update(1, &blocks(2, &[(3, 12)]), 2);
        assert_eq!(b.nodes.len(), 16);
        assert_eq!(b.next_retran(), Some(2));
        assert_eq!(b.length, 10);
    }
}
