//! A FIFO ring of `Copy` values with a power-of-two capacity, for a link's queues.
//!
//! `VecDeque` does the same job, but wraps its indices with a compare and a conditional
//! subtraction and re-checks its capacity in every call; here a wrap is one mask, kept beside
//! the buffer. A link pushes and pops two rings per packet-hop, so this is on the hottest path
//! of a run. An emptied ring starts again at slot 0, so a lightly used link keeps touching the
//! same cache line instead of cycling through its whole buffer.

/// The most values a ring holds: its indexes are 32-bit.
const MAX_CAPACITY: usize = 1 << 31;

#[derive(Clone, Debug)]
pub struct Ring<T> {
    /// Its length is a power of two (at least one) at all times: `with_capacity` and `grow`
    /// are the only places that set it, each together with `mask`. Every index below is
    /// masked by `mask`, so it is always in bounds, which is what lets the accessors skip the
    /// bounds check. A boxed slice, not a `Vec`: no capacity beside the length, so the ring's
    /// header is 32 bytes and a link keeps more of what a hop reads in its first cache line.
    buf: Box<[T]>,
    /// `buf.len() - 1`, kept so that a wrap is a load and an `and` rather than a load, a
    /// decrement and an `and` (a link masks an index four or five times per hop).
    mask: u32,
    head: u32,
    /// At most `buf.len()`, so at most 2^31 (`grow` refuses to pass it).
    len: u32,
}

impl<T: Copy + Default> Ring<T> {
    /// An empty ring with room for `n` values (rounded up to a power of two) before it grows.
    pub fn with_capacity(n: usize) -> Self {
        let n = n.clamp(1, MAX_CAPACITY).next_power_of_two();
        Ring {
            buf: vec![T::default(); n].into_boxed_slice(),
            mask: (n - 1) as u32,
            head: 0,
            len: 0,
        }
    }

    /// The value at `i & mask`, without a bounds check.
    #[inline(always)]
    fn at(&self, i: u32) -> &T {
        let i = (i & self.mask) as usize;
        debug_assert!(i < self.buf.len());
        // SAFETY: `mask` is `buf.len() - 1` (see `buf`: `with_capacity` and `grow`, the only
        // places that change either, set both together), so `i & mask <= mask < buf.len()`:
        // the index is in bounds.
        unsafe { self.buf.get_unchecked(i) }
    }

    /// The value at `i & mask`, to change, without a bounds check.
    #[inline(always)]
    fn at_mut(&mut self, i: u32) -> &mut T {
        let i = (i & self.mask) as usize;
        debug_assert!(i < self.buf.len());
        // SAFETY: as in `at`: `i & mask < buf.len()`.
        unsafe { self.buf.get_unchecked_mut(i) }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn push_back(&mut self, v: T) {
        if self.len > self.mask {
            self.grow();
        }
        *self.at_mut(self.head + self.len) = v;
        self.len += 1;
    }

    #[inline]
    pub fn front(&self) -> Option<&T> {
        (self.len > 0).then(|| self.at(self.head))
    }

    #[inline]
    pub fn back(&self) -> Option<&T> {
        (self.len > 0).then(|| self.at(self.head + self.len - 1))
    }

    /// The `k`-th value from the front (`k < len`).
    #[inline]
    pub fn get(&self, k: usize) -> &T {
        assert!(k < self.len(), "ring index out of range");
        self.at(self.head + k as u32)
    }

    /// The `k`-th value from the front (`k < len`), to change.
    #[inline]
    pub fn get_mut(&mut self, k: usize) -> &mut T {
        assert!(k < self.len(), "ring index out of range");
        self.at_mut(self.head + k as u32)
    }

    #[inline]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let v = *self.at(self.head);
        self.len -= 1;
        // The next slot, or slot 0 once the ring is empty (a select, not a branch).
        let keep = if self.len == 0 { 0 } else { u32::MAX };
        self.head = (self.head + 1) & self.mask & keep;
        Some(v)
    }

    /// Removes the last value (rare: a queue shrunk during the run).
    pub fn pop_back(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let v = *self.at(self.head + self.len - 1);
        self.len -= 1;
        if self.len == 0 {
            self.head = 0;
        }
        Some(v)
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        (0..self.len).map(move |k| self.at(self.head + k))
    }

    /// Doubles the buffer, moving the values to its start in order.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let n = self.buf.len() * 2;
        assert!(n <= MAX_CAPACITY, "a link queue of over 2^31 packets");
        let mut buf = Vec::with_capacity(n);
        buf.extend(self.iter().copied());
        buf.resize(n, T::default());
        self.buf = buf.into_boxed_slice();
        self.mask = (n - 1) as u32;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    fn behaves_as_a_deque_through_wraps_and_growth() {
        let mut r: Ring<u32> = Ring::with_capacity(3);
        let mut model = VecDeque::new();
        let mut x = 1u32;
        for step in 0..10_000u32 {
            // Pushes outnumber pops early on (growth), then balance (wraps), then drain.
            let push = match step {
                0..=2999 => step % 3 != 0,
                3000..=7999 => step % 2 == 0,
                _ => step % 5 == 0,
            };
            if push {
                r.push_back(x);
                model.push_back(x);
                x += 1;
            } else {
                assert_eq!(r.pop_front(), model.pop_front());
            }
            assert_eq!(r.len(), model.len());
            assert_eq!(r.front(), model.front());
            assert_eq!(r.back(), model.back());
            assert_eq!(
                r.mask as usize,
                r.buf.len() - 1,
                "the mask follows every growth"
            );
        }
        assert!(r.iter().eq(model.iter()));
        assert!(r.buf.len().is_power_of_two());
    }

    #[test]
    fn an_emptied_ring_restarts_at_the_first_slot() {
        let mut r: Ring<u8> = Ring::with_capacity(8);
        for v in 0..5 {
            r.push_back(v);
        }
        for _ in 0..5 {
            r.pop_front();
        }
        assert!(r.is_empty());
        assert_eq!(r.head, 0);
        assert_eq!(r.pop_front(), None);
    }
}
