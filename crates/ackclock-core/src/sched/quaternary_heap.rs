//! A 4-ary min-heap (Johnson, "Priority queues with update and finding minimum spanning
//! trees", IPL 4(3), 1975: d-ary heaps), one of the event-queue candidates measured for
//! issue 31 (`docs/performance.md`, "The event queue"). Selected by the cargo feature
//! `eventq-quaternary`; the default is the binary heap in `mod.rs`.
//!
//! Half the depth of a binary heap, so a push climbs half as far; a pop compares up to four
//! children per level. The moving entry stays in registers and is written once at its final
//! slot, as in the binary heap.

use super::Entry;

const D: usize = 4;

#[derive(Debug)]
pub(super) struct QuaternaryHeap<E> {
    entries: Vec<Entry<E>>,
}

impl<E: Copy> QuaternaryHeap<E> {
    pub(super) fn with_capacity(n: usize) -> Self {
        QuaternaryHeap {
            entries: Vec::with_capacity(n),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    pub(super) fn push(&mut self, e: Entry<E>) {
        let mut i = self.entries.len();
        self.entries.push(e);
        while i > 0 {
            let parent = (i - 1) / D;
            let p = self.entries[parent];
            if !e.before(&p) {
                break;
            }
            self.entries[i] = p;
            i = parent;
        }
        self.entries[i] = e;
    }

    /// The index of the earliest child of `i` among `n` entries (`i` has at least one).
    #[inline(always)]
    fn min_child(heap: &[Entry<E>], i: usize, n: usize) -> usize {
        let first = D * i + 1;
        let end = (first + D).min(n);
        let mut best = first;
        for c in first + 1..end {
            if heap[c].before(&heap[best]) {
                best = c;
            }
        }
        best
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<Entry<E>> {
        let last = self.entries.pop()?;
        let n = self.entries.len();
        if n == 0 {
            return Some(last);
        }
        let top = self.entries[0];
        self.sift_down(last, n);
        Some(top)
    }

    /// Places `e` at the root and sifts it down among `n` entries.
    #[inline(always)]
    fn sift_down(&mut self, e: Entry<E>, n: usize) {
        let heap = &mut self.entries;
        let mut i = 0;
        while D * i + 1 < n {
            let c = Self::min_child(heap, i, n);
            if !heap[c].before(&e) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = e;
    }

    /// Replaces the root (the heap is not empty) with `e`.
    #[inline]
    pub(super) fn replace_root(&mut self, e: Entry<E>) {
        let n = self.entries.len();
        self.sift_down(e, n);
    }

    #[inline]
    pub(super) fn first(&self) -> Option<&Entry<E>> {
        self.entries.first()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;
    use crate::time::SimTime;

    /// Random pushes, pops and root replacements, many ties, against a sorted model.
    #[test]
    fn matches_a_sorted_model() {
        let mut rng = RandomStream::named(5, "quaternary");
        let mut q = QuaternaryHeap::with_capacity(4);
        let mut model = std::collections::BTreeSet::new();
        let mut now = 0u64;
        for seq in 0..30_000u64 {
            if model.is_empty() || rng.uniform_u64(0, 3) > 0 {
                let t = now + rng.uniform_u64(0, 50);
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
                    let t = now + 1 + rng.uniform_u64(0, 50);
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
