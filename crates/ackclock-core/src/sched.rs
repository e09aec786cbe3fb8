//! The event queue: a binary min-heap keyed by (time, insertion sequence).
//!
//! Ties break by insertion order, which makes runs deterministic. Events are small `Copy`
//! values stored inline, so pushing and popping never allocates once the heap has grown to
//! its working size.
//!
//! The heap is written out here rather than taken from `std::collections::BinaryHeap`
//! because std's sift loops write the moving entry into the array and read it straight back
//! (its `Hole`), with a wider load than the stores that wrote it; on x86 that defeats store
//! forwarding and stalled every push and pop (the two hottest spots of `run_until` under
//! perf). Here the moving entry stays in registers and is written once, at its final slot.
//! Williams' binary heap (CACM 7(6), 1964), sift-down by Floyd's bottom-up variant
//! (CACM 7(12), 1964): walk to a leaf along the smaller children, then climb back.

use crate::time::SimTime;

#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> Entry<E> {
    /// Whether `self` runs before `other`.
    #[inline(always)]
    fn before(&self, other: &Self) -> bool {
        (self.time.0, self.seq) < (other.time.0, other.seq)
    }
}

#[derive(Debug)]
pub struct EventQueue<E> {
    heap: Vec<Entry<E>>,
    next_seq: u64,
    last_popped: SimTime,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            heap: Vec::with_capacity(1024),
            next_seq: 0,
            last_popped: SimTime::ZERO,
        }
    }

    /// Schedules `event` at `time`. Scheduling into the past is a logic error.
    #[inline]
    pub fn push(&mut self, time: SimTime, event: E) {
        debug_assert!(time >= self.last_popped, "event scheduled in the past");
        let e = Entry {
            time,
            seq: self.next_seq,
            event,
        };
        self.next_seq += 1;
        let mut i = self.heap.len();
        self.heap.push(e);
        // Sift up: parents move down into the hole until `e` fits.
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !e.before(&p) {
                break;
            }
            self.heap[i] = p;
            i = parent;
        }
        self.heap[i] = e;
    }

    /// Time of the earliest event, if any.
    #[inline]
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.first().map(|e| e.time)
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let last = self.heap.pop()?;
        let n = self.heap.len();
        let top = if n == 0 {
            last
        } else {
            let top = self.heap[0];
            // Bottom-up: move the smaller child up until a leaf is reached...
            let mut i = 0;
            let mut child = 1;
            while child + 1 < n {
                if self.heap[child + 1].before(&self.heap[child]) {
                    child += 1;
                }
                self.heap[i] = self.heap[child];
                i = child;
                child = 2 * i + 1;
            }
            if child < n {
                self.heap[i] = self.heap[child];
                i = child;
            }
            // ...then `last` climbs back from that leaf to its place.
            while i > 0 {
                let parent = (i - 1) / 2;
                let p = self.heap[parent];
                if !last.before(&p) {
                    break;
                }
                self.heap[i] = p;
                i = parent;
            }
            self.heap[i] = last;
            top
        };
        debug_assert!(top.time >= self.last_popped, "time went backwards");
        self.last_popped = top.time;
        Some((top.time, top.event))
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_then_insertion_order() {
        let mut q = EventQueue::new();
        q.push(SimTime(5), 'a');
        q.push(SimTime(1), 'b');
        q.push(SimTime(5), 'c');
        q.push(SimTime(3), 'd');
        q.push(SimTime(5), 'e');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['b', 'd', 'a', 'c', 'e']);
    }

    /// Random interleavings of pushes and pops, many ties included, against a sorted model.
    #[test]
    fn matches_a_sorted_model() {
        use crate::rng::RandomStream;
        let mut rng = RandomStream::named(7, "sched");
        let mut q = EventQueue::new();
        let mut model = std::collections::BTreeSet::new();
        let mut now = 0;
        for id in 0..20_000u32 {
            if rng.uniform_u64(0, 3) > 0 || model.is_empty() {
                let t = now + rng.uniform_u64(0, 50);
                q.push(SimTime(t), id);
                model.insert((t, id));
            } else {
                let (t, id) = q.pop().expect("not empty");
                let first = *model.iter().next().expect("not empty");
                assert_eq!((t.0, id), first);
                model.remove(&first);
                now = t.0;
            }
            assert_eq!(q.len(), model.len());
        }
        while let Some((t, id)) = q.pop() {
            let first = *model.iter().next().expect("not empty");
            assert_eq!((t.0, id), first);
            model.remove(&first);
        }
        assert!(model.is_empty());
    }
}
