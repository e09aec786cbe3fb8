//! A two-level event queue: sorted FIFO lanes in front of a binary heap, one of the
//! event-queue candidates measured for issue 31 (`docs/performance.md`, "The event queue").
//! Selected by the cargo feature `eventq-lanes`; the default is the binary heap in `mod.rs`.
//!
//! Most events a network simulation schedules lie a fixed offset after the instant that
//! schedules them: a packet entering an idle link arrives a transmission time and a
//! propagation delay later, the next packet of a busy link one transmission time after the
//! one delivered, a retransmission timer one RTO on. Events pushed at nondecreasing instants
//! with the same offset come out in time order, and their insertion sequence grows, so a FIFO
//! of them is already sorted by (time, sequence). Here a push's offset from the last removed
//! event picks one of [`LANES`] lanes by hash; it joins that lane if it is not earlier than the lane's last
//! entry, else the heap (Williams' binary heap of `mod.rs`). The earliest event is the
//! earlier of the heap's root and the earliest lane front (the lane kept in `best`, found
//! again by a scan of the fronts when its front leaves), so the order is exactly the heap's
//! alone: (time, sequence). The construction is ours, written for this measurement: sorted
//! lists merged by a selection among their heads are old (Knuth, TAOCP 3, 5.4.1), but we know
//! of no paper on this exact queue.

use super::{Entry, Heap};
use crate::time::SimTime;
use std::collections::VecDeque;

/// Lanes; a power of two (the hash keeps its top bits).
const LANES: usize = 8;
const LANE_BITS: u32 = LANES.trailing_zeros();

#[derive(Debug)]
pub(super) struct LaneQueue<E> {
    heap: Heap<E>,
    /// Each sorted by (time, sequence), earliest at the front.
    lanes: [VecDeque<Entry<E>>; LANES],
    /// The lane with the earliest front; `LANES` when every lane is empty.
    best: usize,
    /// Time of the entry removed last: a push's offset from it picks the lane.
    now: SimTime,
    len: usize,
    /// A copy of the earliest entry, kept up to date by every change: the event loop asks
    /// for it several times per event.
    head: Option<Entry<E>>,
}

impl<E: Copy> LaneQueue<E> {
    pub(super) fn with_capacity(n: usize) -> Self {
        LaneQueue {
            heap: Heap::with_capacity(n),
            lanes: std::array::from_fn(|_| VecDeque::with_capacity(n / LANES + 1)),
            best: LANES,
            now: SimTime::ZERO,
            len: 0,
            head: None,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn lane_front(&self) -> Option<&Entry<E>> {
        self.lanes.get(self.best).and_then(|l| l.front())
    }

    #[inline]
    pub(super) fn push(&mut self, e: Entry<E>) {
        self.len += 1;
        let offset = e.time.0.wrapping_sub(self.now.0);
        // Fibonacci hashing (Knuth, TAOCP 3, 6.4): the top bits of offset x 2^64 / phi.
        let i = (offset.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - LANE_BITS)) as usize;
        let lane = &mut self.lanes[i];
        match lane.back() {
            Some(last) if e.before(last) => self.heap.push(e),
            Some(_) => lane.push_back(e),
            None => {
                lane.push_back(e);
                if self.lane_front().is_none_or(|f| e.before(f)) {
                    self.best = i;
                }
            }
        }
        if self.head.is_none_or(|h| e.before(&h)) {
            self.head = Some(e);
        }
    }

    /// Finds the lane with the earliest front again.
    #[inline]
    fn rescan(&mut self) {
        let mut best = LANES;
        for (i, lane) in self.lanes.iter().enumerate() {
            if let Some(f) = lane.front() {
                if best == LANES || f.before(&self.lanes[best][0]) {
                    best = i;
                }
            }
        }
        self.best = best;
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<Entry<E>> {
        let head = self.head?;
        let from_lane = self
            .lane_front()
            .is_some_and(|f| f.time == head.time && f.seq == head.seq);
        let e = if from_lane {
            let e = self.lanes[self.best].pop_front();
            self.rescan();
            e
        } else {
            self.heap.pop()
        }?;
        self.len -= 1;
        self.now = e.time;
        self.head = match (self.heap.first(), self.lane_front()) {
            (Some(h), Some(f)) => Some(if f.before(h) { *f } else { *h }),
            (h, f) => h.or(f).copied(),
        };
        Some(e)
    }

    /// Replaces the earliest entry (the queue is not empty) with `e`.
    #[inline]
    pub(super) fn replace_root(&mut self, e: Entry<E>) {
        self.pop().expect("replace_root on an empty queue");
        self.push(e);
    }

    #[inline(always)]
    pub(super) fn first(&self) -> Option<&Entry<E>> {
        self.head.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;

    /// Random pushes (a few fixed offsets, as a network's, and random ones), pops and root
    /// replacements, many ties, against a sorted model.
    #[test]
    fn matches_a_sorted_model() {
        let mut rng = RandomStream::named(5, "lanes");
        let mut q = LaneQueue::with_capacity(4);
        let mut model = std::collections::BTreeSet::new();
        let mut now = 0u64;
        let offset = |rng: &mut RandomStream| {
            if rng.uniform_u64(0, 2) == 0 {
                [3, 17, 40][rng.uniform_u64(0, 2) as usize]
            } else {
                rng.uniform_u64(0, 50)
            }
        };
        for seq in 0..30_000u64 {
            if model.is_empty() || rng.uniform_u64(0, 3) > 0 {
                let t = now + offset(&mut rng);
                q.push(Entry {
                    time: SimTime(t),
                    seq,
                    event: seq,
                });
                model.insert((t, seq));
            } else {
                let first = *model.iter().next().expect("not empty");
                model.remove(&first);
                now = first.0;
                if rng.uniform_u64(0, 2) == 0 {
                    let got = *q.first().expect("not empty");
                    assert_eq!((got.time.0, got.seq), first);
                    let t = now + 1 + offset(&mut rng);
                    q.replace_root(Entry {
                        time: SimTime(t),
                        seq,
                        event: seq,
                    });
                    model.insert((t, seq));
                } else {
                    let e = q.pop().expect("not empty");
                    assert_eq!((e.time.0, e.seq), first);
                }
            }
            assert_eq!(q.len(), model.len());
        }
        while let Some(e) = q.pop() {
            let first = *model.iter().next().expect("not empty");
            assert_eq!((e.time.0, e.seq), first);
            model.remove(&first);
        }
    }
}
