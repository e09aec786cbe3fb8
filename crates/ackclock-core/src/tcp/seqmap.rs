//! A set of sequence numbers in a sliding window [base, base + span), as a ring of bits that
//! grows with the highest offset used and shrinks back when emptied.
//!
//! A TCP receiver remembers its out-of-order segments in such a window (ns-2's `TCPSink`
//! keeps a `seen` array of the advertised window's size). Sized to the whole window up front,
//! one byte per segment, a 10 000-segment window cost 16 kB per flow, used only while a hole
//! is open and then rarely beyond a few hundred segments; 10 000 flows needed 160 MB for it.
//! Here a bit per segment, 64 of them to start with, doubled when a segment lands beyond the
//! ring and dropped back to one word when the set empties: a ring of 2^k bits holds sequence
//! number s at bit s mod 2^k, so growing it re-places the members (set bits always lie in
//! (base, base + 2^k)). Growth and shrinking happen at most a few times per loss episode,
//! never per segment in order.

#[derive(Clone, Debug)]
pub struct SeqMap {
    words: Box<[u64]>,
    /// Ring size in bits minus one (a power of two minus one).
    mask: u32,
    /// The largest offset from `base` the map ever holds (its window's span minus one).
    limit: u32,
}

const WORD: u64 = 64;

impl SeqMap {
    /// A set for offsets 0 to `span` - 1 from the base (`span` rounded up to a power of two).
    pub fn new(span: u32) -> SeqMap {
        let limit = (span.max(1) as u64).next_power_of_two() - 1;
        let limit = limit as u32;
        SeqMap {
            words: Box::new([0]),
            mask: limit.min(WORD as u32 - 1),
            limit,
        }
    }

    /// The largest offset from the base a member may have.
    #[inline(always)]
    pub fn limit(&self) -> u64 {
        self.limit as u64
    }

    #[inline(always)]
    fn at(&self, seq: u64) -> (usize, u64) {
        let i = seq & self.mask as u64;
        ((i / WORD) as usize, 1 << (i % WORD))
    }

    /// Whether `seq` (at an offset from `base` within the limit) is a member.
    #[inline]
    pub fn contains(&self, seq: u64, base: u64) -> bool {
        if seq - base > self.mask as u64 {
            return false;
        }
        let (w, b) = self.at(seq);
        self.words[w] & b != 0
    }

    /// Adds `seq`, at an offset from `base` between 1 and the limit; whether it is new.
    #[inline]
    pub fn insert(&mut self, seq: u64, base: u64) -> bool {
        debug_assert!(seq > base && seq - base <= self.limit as u64);
        if seq - base > self.mask as u64 {
            self.grow(seq, base);
        }
        let (w, b) = self.at(seq);
        let new = self.words[w] & b == 0;
        self.words[w] |= b;
        new
    }

    /// Removes `seq` (the base moving past it); whether it was a member.
    #[inline]
    pub fn take(&mut self, seq: u64, base: u64) -> bool {
        if seq - base > self.mask as u64 {
            return false;
        }
        let (w, b) = self.at(seq);
        let was = self.words[w] & b != 0;
        self.words[w] &= !b;
        was
    }

    /// Forgets every member (a receiver starting over, ns-2's `Acker::reset`).
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
        self.emptied();
    }

    /// The set is empty: back to one word if it had grown.
    #[inline]
    pub fn emptied(&mut self) {
        if self.words.len() > 1 {
            self.shrink();
        }
    }

    #[cold]
    #[inline(never)]
    fn shrink(&mut self) {
        debug_assert!(self.words.iter().all(|&w| w == 0));
        self.words = Box::new([0]);
        self.mask = self.limit.min(WORD as u32 - 1);
    }

    /// Widens the ring to hold `seq`, re-placing the members.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, seq: u64, base: u64) {
        let bits = (seq - base + 1)
            .next_power_of_two()
            .max(2 * (self.mask as u64 + 1))
            .min(self.limit as u64 + 1);
        let old = std::mem::replace(self, SeqMap::sized(bits, self.limit));
        let old_bits = old.mask as u64 + 1;
        for off in 1..old_bits {
            let s = base + off;
            let (w, b) = old.at(s);
            if old.words[w] & b != 0 {
                let (w, b) = self.at(s);
                self.words[w] |= b;
            }
        }
    }

    fn sized(bits: u64, limit: u32) -> SeqMap {
        SeqMap {
            words: vec![0; bits.div_ceil(WORD) as usize].into_boxed_slice(),
            mask: (bits - 1) as u32,
            limit,
        }
    }

    /// Bytes on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.words.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;

    /// Loss episodes: random inserts ahead of a base, then the base moving on past them as a
    /// receiver's rcv_nxt does, against a model set: through growth to the full span and back
    /// to one word.
    #[test]
    fn matches_a_model_set_through_growth_and_shrinking() {
        let mut rng = RandomStream::named(5, "seqmap");
        let mut m = SeqMap::new(1000);
        assert_eq!(m.limit(), 1023);
        let mut model = std::collections::BTreeSet::new();
        let mut base = 0u64;
        let mut grown = 0;
        for episode in 0..300 {
            let reach = if episode % 5 == 0 { m.limit() } else { 100 };
            for _ in 0..rng.uniform_u64(1, 60) {
                let seq = base + 1 + rng.uniform_u64(0, reach - 1);
                assert_eq!(m.insert(seq, base), model.insert(seq), "insert {seq}");
                for probe in [base + 1, base + 2, base + 50, base + 700, seq] {
                    assert_eq!(m.contains(probe, base), model.contains(&probe));
                }
            }
            if m.words.len() > 1 {
                grown += 1;
            }
            while !model.is_empty() {
                // The segment at the base arrives; those held above it follow.
                let before = base;
                base += 1;
                while m.take(base, before) {
                    assert!(model.remove(&base));
                    base += 1;
                }
                assert!(model.iter().all(|&s| s > base));
            }
            m.emptied();
            assert_eq!(m.words.len(), 1);
            assert!(!m.contains(base + 1, base));
        }
        assert!(grown > 50, "the map grew in {grown} episodes");
    }

    #[test]
    fn a_small_window_never_grows_past_its_span() {
        let mut m = SeqMap::new(20);
        assert_eq!(m.limit(), 31);
        assert!(m.insert(31, 0));
        assert!(m.contains(31, 0));
        assert_eq!(m.heap_bytes(), 8);
    }
}
