//! A radix heap with 64-way digits (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for
//! the shortest path problem", JACM 37(2), 1990; with digits of several bits it is the
//! multi-level bucket structure of Denardo and Fox, "Shortest-route methods: 1. Reaching,
//! pruning, and buckets", Operations Research 27(1), 1979, as measured by Cherkassky, Goldberg
//! and Silverstein, "Buckets, heaps, lists, and monotone priority queues", SIAM J. Comput.
//! 28(4), 1999), one of the event-queue candidates measured for issue 31
//! (`docs/performance.md`, "The event queue at 10 000 flows"). Selected by the cargo feature
//! `eventq-radix`; the default is the binary heap in `mod.rs`.
//!
//! It needs what a simulation's queue gives: no entry is pushed earlier than the last one
//! removed (`last`). An entry's bucket is the highest 6-bit digit in which its time differs
//! from `last`, and that digit's value: entries of a lower digit position, or of the same
//! position and a smaller digit, are earlier, so the buckets in index order hold earlier
//! entries first, and bucket 0 holds the entries of time `last` itself. A push is one
//! exclusive-or, a leading-zero count, an append and one comparison with the earliest entry,
//! whatever the number pending (a binary heap's push and pop each walk up to log2(n) levels, on
//! a data-dependent branch per level). Removing the earliest entry of a bucket other than 0
//! makes its time `last` and moves the rest of that bucket to lower ones (each entry moves at
//! most once per digit position, 11 times in all, and in a network's queue a few times); the
//! next earliest is found by scanning the first non-empty bucket, and kept (its copy and its
//! place), so that peeking, which the event loop does several times per event, is a load.
//! Ties in time are ordered by sequence: bucket 0 is kept sorted by it, so the order is exactly
//! (time, sequence). Bucket vectors keep their capacity, so once grown the heap does not
//! allocate.

use super::Entry;

/// Bits per digit: a digit position's 64 buckets are one word of the occupancy bitmap, so the
/// first non-empty bucket is two trailing-zero counts away.
const BITS: u32 = 6;
const RADIX: usize = 1 << BITS;
/// Digit positions covering a 64-bit time (the top one holds 4 bits).
const POSITIONS: usize = 64usize.div_ceil(BITS as usize);
/// Bucket 0 (time equal to `last`), then for each digit position p the buckets `p * RADIX + d`
/// for digit values d >= 1 (a later time's highest differing digit is above `last`'s, never 0).
const BUCKETS: usize = RADIX * POSITIONS;

#[derive(Debug)]
pub(super) struct RadixHeap<E> {
    buckets: Vec<Vec<Entry<E>>>,
    /// Bit d of word p set when bucket `p * RADIX + d` is not empty.
    occupied: [u64; POSITIONS],
    /// Bit p set when word p of `occupied` is not zero.
    positions: u32,
    /// Time of the entry removed last (no entry may be pushed earlier).
    last: u64,
    len: usize,
    /// A copy of the earliest entry, and its bucket and index.
    head: Option<Entry<E>>,
    head_at: (usize, usize),
}

impl<E: Copy> RadixHeap<E> {
    pub(super) fn with_capacity(_n: usize) -> Self {
        RadixHeap {
            buckets: (0..BUCKETS).map(|_| Vec::new()).collect(),
            occupied: [0; POSITIONS],
            positions: 0,
            last: 0,
            len: 0,
            head: None,
            head_at: (0, 0),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The bucket of an entry at `time` (not earlier than `last`).
    #[inline(always)]
    fn bucket_of(&self, time: u64) -> usize {
        debug_assert!(time >= self.last, "pushed before the last removed entry");
        let x = time ^ self.last;
        if x == 0 {
            return 0;
        }
        let p = (63 - x.leading_zeros()) / BITS;
        let d = (time >> (p * BITS)) as usize & (RADIX - 1);
        p as usize * RADIX + d
    }

    #[inline(always)]
    fn mark(&mut self, b: usize) {
        self.occupied[b / RADIX] |= 1 << (b % RADIX);
        self.positions |= 1 << (b / RADIX);
    }

    #[inline(always)]
    fn unmark(&mut self, b: usize) {
        let w = &mut self.occupied[b / RADIX];
        *w &= !(1 << (b % RADIX));
        if *w == 0 {
            self.positions &= !(1 << (b / RADIX));
        }
    }

    /// Puts `e` into its bucket; returns the bucket and the index it took.
    #[inline(always)]
    fn put(&mut self, e: Entry<E>) -> (usize, usize) {
        let b = self.bucket_of(e.time.0);
        let bucket = &mut self.buckets[b];
        let i = if b == 0 {
            // Time `last` itself: kept in sequence order, earliest last.
            let mut i = bucket.len();
            while i > 0 && bucket[i - 1].seq < e.seq {
                i -= 1;
            }
            bucket.insert(i, e);
            if self.head_at.0 == 0 && self.head.is_some() && i <= self.head_at.1 {
                self.head_at.1 += 1; // the head moved up one place
            }
            i
        } else {
            bucket.push(e);
            bucket.len() - 1
        };
        self.mark(b);
        self.len += 1;
        (b, i)
    }

    #[inline]
    pub(super) fn push(&mut self, e: Entry<E>) {
        let at = self.put(e);
        if self.head.is_none_or(|h| e.before(&h)) {
            self.head = Some(e);
            self.head_at = at;
        }
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<Entry<E>> {
        let top = self.head?;
        self.remove_head(top);
        if self.len > 0 {
            self.find_head();
        } else {
            self.head = None;
        }
        Some(top)
    }

    /// Replaces the earliest entry (the heap is not empty) with `e`: the next earliest is
    /// looked for once, after `e` is in.
    #[inline]
    pub(super) fn replace_root(&mut self, e: Entry<E>) {
        let top = self.head.expect("replace_root on an empty heap");
        self.remove_head(top);
        self.head = None;
        self.put(e);
        self.find_head();
    }

    /// Removes the earliest entry `top`: from bucket 0, or from its bucket, whose other
    /// entries then move to the buckets their times fall in once `top`'s time is `last`, all
    /// of them lower.
    #[inline(always)]
    fn remove_head(&mut self, top: Entry<E>) {
        let (b, i) = self.head_at;
        if b == 0 {
            debug_assert_eq!(i, self.buckets[0].len() - 1);
            self.buckets[0].pop();
        } else if self.buckets[b].len() == 1 {
            // Alone in its bucket (the usual case when few events are pending): nothing moves.
            self.last = top.time.0;
            self.buckets[b].clear();
            self.unmark(b);
        } else {
            self.last = top.time.0;
            let mut moving = std::mem::take(&mut self.buckets[b]);
            self.unmark(b);
            moving.swap_remove(i);
            for &e in &moving {
                let nb = self.bucket_of(e.time.0);
                debug_assert!(nb < b);
                self.buckets[nb].push(e);
                self.mark(nb);
            }
            moving.clear();
            self.buckets[b] = moving;
            let zero = &mut self.buckets[0];
            if zero.len() > 1 {
                zero.sort_unstable_by_key(|e| std::cmp::Reverse(e.seq));
            }
        }
        self.len -= 1;
        if self.buckets[0].is_empty() {
            self.unmark(0);
        }
    }

    /// Finds the earliest entry again (the heap is not empty): bucket 0's last if it has
    /// any, else the earliest of the first non-empty bucket.
    #[inline]
    fn find_head(&mut self) {
        debug_assert!(
            self.positions != 0,
            "no bucket is occupied but the heap is not empty"
        );
        let p = self.positions.trailing_zeros() as usize;
        let b = p * RADIX + self.occupied[p].trailing_zeros() as usize;
        let bucket = &self.buckets[b];
        let i = if b == 0 {
            bucket.len() - 1
        } else {
            let mut best = 0;
            for (j, e) in bucket.iter().enumerate().skip(1) {
                if e.before(&bucket[best]) {
                    best = j;
                }
            }
            best
        };
        self.head = Some(bucket[i]);
        self.head_at = (b, i);
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
    use crate::time::SimTime;

    /// Random pushes, pops and root replacements against a sorted model: fixed offsets (a
    /// network's transmission and propagation times), random ones from 0 (ties with the last
    /// removed entry) to far-off timers, and sequence numbers out of push order (the ns-2
    /// keys and reserved timers of `mod.rs`), so that ties are ordered by sequence alone.
    #[test]
    fn matches_a_sorted_model() {
        let mut rng = RandomStream::named(9, "radix");
        let mut q = RadixHeap::with_capacity(4);
        let mut model = std::collections::BTreeSet::new();
        let mut now = 0u64;
        let mut next = 0u64;
        let offset = |rng: &mut RandomStream| match rng.uniform_u64(0, 5) {
            0 => 0,
            1 => [1_200_000, 12_000_000, 1_001_200_000][rng.uniform_u64(0, 2) as usize],
            2 => rng.uniform_u64(0, 50),
            3 => rng.uniform_u64(0, 1 << 40),
            _ => rng.uniform_u64(0, 5_000_000),
        };
        for _ in 0..60_000u64 {
            // Sequences mostly growing, sometimes drawn from far below or above.
            next += 1 + rng.uniform_u64(0, 3);
            let seq = match rng.uniform_u64(0, 4) {
                0 => rng.uniform_u64(0, u64::MAX / 2) * 2 + 1,
                _ => next * 2,
            };
            if model.is_empty() || rng.uniform_u64(0, 3) > 0 {
                let t = now + offset(&mut rng);
                if model.insert((t, seq)) {
                    q.push(Entry {
                        time: SimTime(t),
                        seq,
                        event: seq,
                    });
                }
            } else {
                let first = *model.iter().next().expect("not empty");
                let got = *q.first().expect("not empty");
                assert_eq!(
                    (got.time.0, got.seq, got.event),
                    (first.0, first.1, first.1)
                );
                model.remove(&first);
                now = first.0;
                if rng.uniform_u64(0, 2) == 0 {
                    let t = now + 1 + offset(&mut rng);
                    if model.insert((t, seq)) {
                        q.replace_root(Entry {
                            time: SimTime(t),
                            seq,
                            event: seq,
                        });
                    } else {
                        q.pop();
                    }
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
        assert!(model.is_empty());
        assert!(q.first().is_none());
    }

    /// Many entries at one time, pushed in no order of sequence, some while that time is
    /// the last removed one: they leave in sequence order.
    #[test]
    fn ties_leave_in_sequence_order() {
        let mut q = RadixHeap::with_capacity(4);
        let e = |t: u64, s: u64| Entry {
            time: SimTime(t),
            seq: s,
            event: s,
        };
        q.push(e(0, 0));
        for s in [9, 3, 7, 1, 8] {
            q.push(e(100, s));
        }
        q.push(e(1 << 50, 2));
        assert_eq!(q.pop().map(|x| x.seq), Some(0));
        assert_eq!(q.pop().map(|x| x.seq), Some(1));
        // Now `last` is 100: pushes at 100 go into bucket 0, in sequence order.
        q.push(e(100, 5));
        q.push(e(100, 2));
        q.push(e(100, 10));
        let order: Vec<u64> = std::iter::from_fn(|| q.pop().map(|x| x.seq)).collect();
        assert_eq!(order, vec![2, 3, 5, 7, 8, 9, 10, 2]);
        assert_eq!(q.len(), 0);
    }
}
