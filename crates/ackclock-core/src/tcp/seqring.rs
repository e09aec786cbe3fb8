//! Per-segment entries for the sequence numbers in a sliding window [base, end), in a ring
//! sized to the span in use, up to the ring of the whole window.
//!
//! The sender's scoreboards (`scoreboard.rs`, `rack.rs`) and the rate sampler
//! (`delivery_rate.rs`) keep an entry per outstanding segment, indexed by sequence number
//! modulo a power of two. Sized once to the largest window, a 10 000-segment window cost
//! 16 384 entries per structure from the start: about 1 MB per flow for the `linux` profile's
//! BBR (issue 31), used only while that much is outstanding. Here the ring starts at
//! [`MIN`] entries, doubles when a write lands beyond it and halves (at least) when the span
//! in use falls to a quarter of it, never past the whole window's size (`max`), which keeps
//! the wrap-around of the fixed ring it replaces. An entry for a sequence number s sits at
//! s mod the size, so resizing re-places the entries of [base, end); the others are left at
//! their default, as a fixed ring's are once their segments are acknowledged (the owners
//! never read them; see each owner). Resizing is amortized over the segments that caused it,
//! never per segment in steady state.

/// The smallest ring, in entries: an initial window's worth.
pub const MIN: u64 = 16;

#[derive(Clone, Debug)]
pub struct SeqRing<T> {
    slots: Box<[T]>,
    /// Size in entries minus one (a power of two minus one).
    mask: u64,
    /// The largest size (a power of two): the fixed ring of the whole window.
    max: u64,
    /// The smallest size: [`MIN`], or `max` for a fixed ring.
    floor: u64,
}

impl<T: Copy + Default> SeqRing<T> {
    /// A ring for up to `max` entries (rounded up to a power of two), [`MIN`] of them at first.
    pub fn new(max: u64) -> SeqRing<T> {
        let max = max.max(1).next_power_of_two();
        SeqRing::sized(MIN.min(max), max, MIN.min(max))
    }

    /// The ring at its largest from the start: the fixed ring this one replaces (tests
    /// compare the two).
    #[cfg(test)]
    pub fn fixed(max: u64) -> SeqRing<T> {
        let max = max.max(1).next_power_of_two();
        SeqRing::sized(max, max, max)
    }

    fn sized(len: u64, max: u64, floor: u64) -> SeqRing<T> {
        SeqRing {
            slots: vec![T::default(); len as usize].into_boxed_slice(),
            mask: len - 1,
            max,
            floor,
        }
    }

    /// The whole window's size: sequence numbers this far apart share an entry.
    #[inline(always)]
    pub fn max(&self) -> u64 {
        self.max
    }

    /// Entries held now.
    #[inline(always)]
    pub fn size(&self) -> u64 {
        self.mask + 1
    }

    /// The entry of `seq`, which must lie in the span made room for.
    #[inline(always)]
    pub fn get(&self, seq: u64) -> T {
        self.slots[(seq & self.mask) as usize]
    }

    #[inline(always)]
    pub fn get_mut(&mut self, seq: u64) -> &mut T {
        &mut self.slots[(seq & self.mask) as usize]
    }

    /// The entry of `seq` at or above `base`: the default beyond the ring, where nothing has
    /// been written since the span last moved past it.
    #[inline]
    pub fn get_from(&self, seq: u64, base: u64) -> T {
        if seq - base > self.mask {
            T::default()
        } else {
            self.get(seq)
        }
    }

    /// Makes room for the entries of [base, end), keeping those of [base, end).
    #[inline]
    pub fn reserve(&mut self, base: u64, end: u64) {
        if end.saturating_sub(base) > self.size() && self.size() < self.max {
            self.grow(base, end);
        }
    }

    /// As [`SeqRing::reserve`], and back down when [base, end) uses a quarter of the ring or
    /// less.
    #[inline]
    pub fn fit(&mut self, base: u64, end: u64) {
        let span = end.saturating_sub(base);
        if span > self.size() {
            self.reserve(base, end);
        } else if self.size() > self.floor && span * 4 <= self.size() {
            self.shrink(base, end);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, base: u64, end: u64) {
        let len = (end - base).next_power_of_two().min(self.max);
        self.resize(len, base, end);
    }

    #[cold]
    #[inline(never)]
    fn shrink(&mut self, base: u64, end: u64) {
        // Twice the span: the next growth needs the span to double.
        let len = (2 * (end - base)).next_power_of_two().max(self.floor);
        self.resize(len, base, end);
    }

    fn resize(&mut self, len: u64, base: u64, end: u64) {
        let old = std::mem::replace(self, SeqRing::sized(len, self.max, self.floor));
        for s in base..end.min(base + old.size()) {
            *self.get_mut(s) = old.get(s);
        }
    }

    /// Bytes on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<T>()
    }
}

/// For the scoreboards' tests: a random ACK of a flow with [una, maxseq) outstanding, its
/// cumulative ACK up to two segments on and up to three SACK blocks above that.
#[cfg(test)]
pub fn random_ack(
    rng: &mut crate::rng::RandomStream,
    una: u64,
    maxseq: u64,
) -> (u64, Vec<(u64, u64)>) {
    let ack = una + rng.uniform_u64(0, (maxseq - una).min(2));
    let mut blocks = Vec::new();
    for _ in 0..rng.uniform_u64(0, 3) {
        if maxseq > ack + 1 {
            let start = rng.uniform_u64(ack + 1, maxseq - 1);
            blocks.push((start, rng.uniform_u64(start + 1, maxseq)));
        }
    }
    (ack, blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;

    /// A window sliding over random writes, growing to the whole window and back: every
    /// entry in [base, end) reads as in the fixed ring, and the ring follows the span.
    #[test]
    fn reads_as_the_fixed_ring_through_growth_and_shrinking() {
        let mut rng = RandomStream::named(7, "seqring");
        let mut ring = SeqRing::<u64>::new(1000);
        let mut fixed = SeqRing::<u64>::fixed(1000);
        assert_eq!((ring.size(), ring.max(), fixed.size()), (MIN, 1024, 1024));
        let (mut base, mut end) = (0u64, 0u64);
        let mut largest = 0;
        for round in 0..2000 {
            // Send up to a random window, then acknowledge part of it.
            let window = if round % 50 < 5 {
                1024
            } else {
                rng.uniform_u64(1, 40)
            };
            while end < base + window {
                ring.fit(base, end + 1);
                *ring.get_mut(end) = end * 3 + 1;
                *fixed.get_mut(end) = end * 3 + 1;
                end += 1;
            }
            // A write inside the span (a retransmission).
            let s = base + rng.uniform_u64(0, end - base - 1);
            *ring.get_mut(s) = round;
            *fixed.get_mut(s) = round;
            largest = largest.max(ring.size());
            base += rng.uniform_u64(0, end - base);
            ring.fit(base, end);
            assert!(ring.size() >= end - base, "the span fits");
            for s in base..end {
                assert_eq!(ring.get(s), fixed.get(s), "entry {s}");
            }
        }
        assert_eq!(largest, 1024, "grew to the whole window");
        ring.fit(end, end);
        assert_eq!(ring.size(), MIN, "shrinks back with nothing in use");
        assert_eq!(ring.heap_bytes(), MIN as usize * 8);
    }

    #[test]
    fn reads_beyond_the_ring_are_the_default() {
        let mut ring = SeqRing::<u8>::new(64);
        *ring.get_mut(3) = 7;
        assert_eq!(ring.get_from(3, 0), 7);
        assert_eq!(ring.get_from(3 + MIN, 0), 0, "beyond the ring");
        ring.reserve(0, 40);
        assert_eq!((ring.size(), ring.get(3)), (64, 7));
        ring.reserve(0, 1000);
        assert_eq!(ring.size(), 64, "never past the whole window");
    }
}
