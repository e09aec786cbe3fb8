//! A calendar queue (R. Brown, "Calendar queues: a fast O(1) priority queue implementation
//! for the simulation event set problem", CACM 31(10), 1988), one of the event-queue
//! candidates measured for issue 31 (`docs/performance.md`, "The event queue"). Selected by
//! the cargo feature `eventq-calendar`; the default is the binary heap in `mod.rs`.
//!
//! Entries fall into `nbuckets` buckets ("days") of `2^shift` time units by their time, the
//! days of one "year" wrapping around. Each bucket is kept sorted with its earliest entry last,
//! so equal times (which share a bucket) leave in sequence order and the order is exactly
//! that of a heap keyed by (time, sequence). The position of the earliest entry is kept, so
//! peeking is one load; after a removal the next one is found by walking forward day by day
//! from the removed entry's day (Brown's dequeue), falling back to comparing every bucket's
//! earliest entry after a whole year of empty days. The calendar doubles or halves when the
//! number of entries passes twice or half the number of buckets, and the day length is then
//! set from the spacing of the earliest entries (Brown's resize: three times their mean
//! separation). Bucket vectors are kept when the calendar halves, so once grown to its
//! working size it does not allocate.

use super::Entry;

/// Entries sampled for the day length at a resize (Brown samples up to 25).
const SAMPLE: usize = 25;
const MIN_BUCKETS: usize = 8;

#[derive(Debug)]
pub(super) struct CalendarQueue<E> {
    /// `buckets[..nbuckets]` are in use; each sorted by (time, seq) descending.
    buckets: Vec<Vec<Entry<E>>>,
    nbuckets: usize,
    /// Day length: `1 << shift` time units.
    shift: u32,
    len: usize,
    /// The bucket holding the earliest entry (meaningful when `len > 0`).
    min_bucket: usize,
    /// Scratch space for resizes.
    spare: Vec<Entry<E>>,
}

impl<E: Copy> CalendarQueue<E> {
    /// A calendar of the smallest size; it grows with its entries (`n` is ignored).
    pub(super) fn with_capacity(_n: usize) -> Self {
        CalendarQueue {
            buckets: (0..MIN_BUCKETS).map(|_| Vec::with_capacity(4)).collect(),
            nbuckets: MIN_BUCKETS,
            shift: 20,
            len: 0,
            min_bucket: 0,
            spare: Vec::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn bucket_of(&self, time: u64) -> usize {
        ((time >> self.shift) as usize) & (self.nbuckets - 1)
    }

    /// Puts `e` into its bucket, keeping the bucket sorted (earliest last).
    #[inline(always)]
    fn insert(bucket: &mut Vec<Entry<E>>, e: Entry<E>) {
        let mut i = bucket.len();
        while i > 0 && bucket[i - 1].before(&e) {
            i -= 1;
        }
        bucket.insert(i, e);
    }

    #[inline]
    pub(super) fn push(&mut self, e: Entry<E>) {
        let b = self.bucket_of(e.time.0);
        let earliest = self.len == 0
            || self.buckets[self.min_bucket]
                .last()
                .is_none_or(|m| e.before(m));
        Self::insert(&mut self.buckets[b], e);
        self.len += 1;
        if earliest {
            self.min_bucket = b;
        }
        if self.len > 2 * self.nbuckets {
            self.resize(2 * self.nbuckets);
        }
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<Entry<E>> {
        if self.len == 0 {
            return None;
        }
        let top = self.buckets[self.min_bucket]
            .pop()
            .expect("the earliest entry");
        self.len -= 1;
        if self.len > 0 {
            if self.len < self.nbuckets / 2 && self.nbuckets > MIN_BUCKETS {
                self.resize(self.nbuckets / 2);
            } else {
                self.find_min(top.time.0);
            }
        }
        Some(top)
    }

    /// Replaces the earliest entry (the queue is not empty) with `e`.
    #[inline]
    pub(super) fn replace_root(&mut self, e: Entry<E>) {
        self.pop();
        self.push(e);
    }

    #[inline]
    pub(super) fn first(&self) -> Option<&Entry<E>> {
        if self.len == 0 {
            return None;
        }
        self.buckets[self.min_bucket].last()
    }

    /// Finds the earliest entry (the queue is not empty; no entry is earlier than `from`):
    /// the first bucket, walking day by day from `from`'s, whose earliest entry falls in
    /// that day; after a whole year without one, the earliest of all buckets' earliest.
    fn find_min(&mut self, from: u64) {
        let start = from >> self.shift;
        for day in start..start + self.nbuckets as u64 {
            let b = (day as usize) & (self.nbuckets - 1);
            if let Some(e) = self.buckets[b].last() {
                if (e.time.0 >> self.shift) == day {
                    self.min_bucket = b;
                    return;
                }
            }
        }
        let mut best: Option<(usize, &Entry<E>)> = None;
        for (b, bucket) in self.buckets[..self.nbuckets].iter().enumerate() {
            if let Some(e) = bucket.last() {
                if best.is_none_or(|(_, m)| e.before(m)) {
                    best = Some((b, e));
                }
            }
        }
        self.min_bucket = best.expect("not empty").0;
    }

    /// Rebuilds the calendar with `n` buckets and a day length of three times the mean
    /// separation of the earliest entries (Brown 1988, section 3).
    #[cold]
    fn resize(&mut self, n: usize) {
        let mut all = std::mem::take(&mut self.spare);
        all.clear();
        for bucket in &mut self.buckets[..self.nbuckets] {
            all.append(bucket);
        }
        all.sort_unstable_by_key(|e| (e.time.0, e.seq));
        let k = all.len().min(SAMPLE);
        let shift = if k >= 2 {
            let span = all[k - 1].time.0 - all[0].time.0;
            let width = (3 * span / (k as u64 - 1)).max(1);
            63 - width.leading_zeros()
        } else {
            self.shift
        };
        while self.buckets.len() < n {
            self.buckets.push(Vec::with_capacity(4));
        }
        self.nbuckets = n;
        self.shift = shift;
        // Latest first, so each bucket receives its entries in descending order.
        for &e in all.iter().rev() {
            let b = self.bucket_of(e.time.0);
            self.buckets[b].push(e);
        }
        if let Some(first) = all.first() {
            self.min_bucket = self.bucket_of(first.time.0);
        }
        all.clear();
        self.spare = all;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;
    use crate::time::SimTime;

    /// Random pushes, pops and root replacements with bursts of ties and far-off entries,
    /// against a sorted model; the calendar resizes many times on the way.
    #[test]
    fn matches_a_sorted_model_through_resizes() {
        let mut rng = RandomStream::named(3, "calendar");
        let mut q = CalendarQueue::with_capacity(4);
        let mut model = std::collections::BTreeSet::new();
        let mut now = 0u64;
        let mut seq = 0u64;
        for round in 0..60_000u64 {
            // Phases of growth and shrinkage, so the calendar doubles and halves.
            let grow = (round / 5_000) % 2 == 0;
            let push = model.is_empty() || rng.uniform_u64(0, 10) < if grow { 7 } else { 3 };
            if push {
                let t = match rng.uniform_u64(0, 10) {
                    0 => now,
                    1 => now + 1_000_000 + rng.uniform_u64(0, 1_000_000_000),
                    _ => now + rng.uniform_u64(0, 5_000),
                };
                q.push(Entry {
                    time: SimTime(t),
                    seq,
                    event: seq,
                });
                model.insert((t, seq));
                seq += 1;
            } else {
                let first = *model.iter().next().expect("not empty");
                let got = q.first().expect("not empty");
                assert_eq!((got.time.0, got.seq), first);
                model.remove(&first);
                now = first.0;
                if rng.uniform_u64(0, 3) == 0 {
                    let t = now + 1 + rng.uniform_u64(0, 5_000);
                    q.replace_root(Entry {
                        time: SimTime(t),
                        seq,
                        event: seq,
                    });
                    model.insert((t, seq));
                    seq += 1;
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
    }
}
