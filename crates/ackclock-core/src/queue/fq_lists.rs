//! The flow-queue scheduler of FQ-CoDel and FQ-PIE: RFC 8290, sections 4.1-4.2.
//!
//! A deficit round robin over two lists of queue indices: queues that just became active
//! ("new") are served ahead of the others ("old"). A queue that has spent its deficit gets
//! another quantum and moves to the tail of the old list; a new queue found empty moves to
//! the old list (so that a flow cannot stay new by sending in bursts) unless that list is
//! empty, and an old queue found empty leaves. With `ns3` (`FlowLists::ns3`), a new queue
//! found empty moves to the old list even when that list is empty, as ns-3.44's
//! `FqCoDelQueueDisc::DoDequeue` has it (it tests only that the new list is not empty). What each queue holds, and how it decides to
//! drop or mark, is its discipline's (`fq_codel.rs`, `fq_pie.rs`); the queues themselves are
//! made at their bucket's first packet (`FlowQueues`).

use std::collections::VecDeque;

/// Which list a queue is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum List {
    #[default]
    None,
    New,
    Old,
}

/// A queue's place in the scheduler: its deficit and its list.
#[derive(Clone, Copy, Debug, Default)]
pub struct Slot {
    deficit: i64,
    listed: List,
}

impl Slot {
    /// The queue has sent a packet of `size` bytes.
    #[inline]
    pub fn spend(&mut self, size: u32) {
        self.deficit -= size as i64;
    }
}

/// The new and old lists, with the quantum each turn adds.
#[derive(Clone, Debug)]
pub struct FlowLists {
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    quantum: i64,
    ns3: bool,
}

impl FlowLists {
    pub fn new(quantum: u32) -> FlowLists {
        FlowLists {
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            quantum: quantum as i64,
            ns3: false,
        }
    }

    /// A new queue found empty always moves to the old list (ns-3.44's
    /// `FqCoDelQueueDisc::DoDequeue`; RFC 8290 and Linux only when the old list has queues).
    pub fn ns3(mut self, on: bool) -> FlowLists {
        self.ns3 = on;
        self
    }

    /// A packet joined queue `b` (section 4.1): an idle queue becomes new, with a quantum.
    #[inline]
    pub fn activate(&mut self, b: u32, slot: &mut Slot) {
        if slot.listed == List::None {
            slot.listed = List::New;
            slot.deficit = self.quantum;
            self.new_flows.push_back(b);
        }
    }

    /// The queue to serve (section 4.2), and whether it is on the new list: the head of the
    /// new list, else of the old list, passing over (to the old list's tail, with another
    /// quantum) every queue whose deficit is spent. None: no queue is active.
    #[inline]
    pub fn next<Q>(
        &mut self,
        queues: &mut [Q],
        slot: impl Fn(&mut Q) -> &mut Slot,
    ) -> Option<(u32, bool)> {
        loop {
            let (b, from_new) = if let Some(&b) = self.new_flows.front() {
                (b, true)
            } else if let Some(&b) = self.old_flows.front() {
                (b, false)
            } else {
                return None;
            };
            let s = slot(&mut queues[b as usize]);
            if s.deficit > 0 {
                return Some((b, from_new));
            }
            s.deficit += self.quantum;
            s.listed = List::Old;
            self.pop(from_new);
            self.old_flows.push_back(b);
        }
    }

    /// Queue `b`, served from the list `next` named, turned out empty: a new queue moves to
    /// the old list unless that is empty, an old one leaves.
    #[inline]
    pub fn emptied(&mut self, b: u32, from_new: bool, slot: &mut Slot) {
        self.pop(from_new);
        if from_new && (self.ns3 || !self.old_flows.is_empty()) {
            slot.listed = List::Old;
            self.old_flows.push_back(b);
        } else {
            slot.listed = List::None;
        }
    }

    fn pop(&mut self, from_new: bool) {
        if from_new {
            self.new_flows.pop_front();
        } else {
            self.old_flows.pop_front();
        }
    }
}

/// Buckets in use before a bucket's queue is found by a table of every bucket rather than by
/// a search of the sorted list: a lookup of at most six steps; the table (4 bytes a bucket)
/// only on the few link directions that carry many flows.
const SORTED_MAX: usize = 32;

/// The flow queues of one discipline, each made when its bucket's first packet comes, in that
/// order (its index in the scheduler's lists). Made up front, 1024 queues of FQ-CoDel were
/// 100 kB a link direction, written at set-up: 3.9 GB for the 40 002 directions of a
/// 10 000-flow dumbbell under the `ns3` profile, whose default queue is FQ-CoDel, where each
/// access link carries one flow. Made at first use the queues, their order and every answer
/// are as before; only where a queue lives differs.
#[derive(Clone, Debug)]
pub struct FlowQueues<Q> {
    /// In the order they were made.
    queues: Vec<Q>,
    /// Each queue's bucket.
    buckets: Vec<u32>,
    index: BucketIndex,
    /// How many buckets there are (`flows`).
    size: u32,
}

/// Bucket -> queue: (bucket, queue) sorted by bucket while few are in use, then a table.
#[derive(Clone, Debug)]
enum BucketIndex {
    Sorted(Vec<(u32, u32)>),
    Table(Vec<u32>),
}

const NO_QUEUE: u32 = u32::MAX;

impl<Q: Default> FlowQueues<Q> {
    /// No queues yet, for buckets 0 to `size` - 1.
    pub fn new(size: u32) -> FlowQueues<Q> {
        FlowQueues {
            queues: Vec::new(),
            buckets: Vec::new(),
            index: BucketIndex::Sorted(Vec::new()),
            size,
        }
    }

    /// Bucket `b`'s queue, if made.
    #[inline]
    pub fn find(&self, b: u32) -> Option<u32> {
        match &self.index {
            BucketIndex::Sorted(v) => v
                .binary_search_by_key(&b, |&(bucket, _)| bucket)
                .ok()
                .map(|i| v[i].1),
            BucketIndex::Table(t) => Some(t[b as usize]).filter(|&q| q != NO_QUEUE),
        }
    }

    /// Bucket `b`'s queue, made now if this is its first packet (`true` then).
    #[inline]
    pub fn find_or_make(&mut self, b: u32) -> (u32, bool) {
        if let Some(q) = self.find(b) {
            return (q, false);
        }
        let q = self.queues.len() as u32;
        self.queues.push(Q::default());
        self.buckets.push(b);
        match &mut self.index {
            BucketIndex::Sorted(v) if v.len() < SORTED_MAX => {
                let at = v.partition_point(|&(bucket, _)| bucket < b);
                v.insert(at, (b, q));
            }
            BucketIndex::Sorted(v) => {
                let mut table = vec![NO_QUEUE; self.size as usize];
                for &(bucket, queue) in v.iter() {
                    table[bucket as usize] = queue;
                }
                table[b as usize] = q;
                self.index = BucketIndex::Table(table);
            }
            BucketIndex::Table(t) => t[b as usize] = q,
        }
        (q, true)
    }
}

impl<Q> FlowQueues<Q> {
    /// Queue `q`'s bucket.
    #[inline]
    pub fn bucket(&self, q: u32) -> u32 {
        self.buckets[q as usize]
    }

    /// The queues in the order they were made (a queue's index is its place here).
    pub fn all(&self) -> &[Q] {
        &self.queues
    }

    /// The same, to change.
    #[inline]
    pub fn all_mut(&mut self) -> &mut [Q] {
        &mut self.queues
    }

    /// The queues in bucket order, as a table of every bucket would list them.
    pub fn by_bucket(&self) -> impl Iterator<Item = &Q> {
        let mut order: Vec<u32> = (0..self.queues.len() as u32).collect();
        order.sort_unstable_by_key(|&q| self.buckets[q as usize]);
        order.into_iter().map(move |q| &self.queues[q as usize])
    }
}

impl<Q> std::ops::Index<u32> for FlowQueues<Q> {
    type Output = Q;
    #[inline]
    fn index(&self, q: u32) -> &Q {
        &self.queues[q as usize]
    }
}

impl<Q> std::ops::IndexMut<u32> for FlowQueues<Q> {
    #[inline]
    fn index_mut(&mut self, q: u32) -> &mut Q {
        &mut self.queues[q as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serves `queues` (packet sizes each holds, front first) until all are empty, activating
    /// them in index order; returns the order of (queue, size) sent.
    fn serve(mut queues: Vec<VecDeque<u32>>, quantum: u32) -> Vec<(u32, u32)> {
        let mut lists = FlowLists::new(quantum);
        let mut slots = vec![Slot::default(); queues.len()];
        for b in 0..queues.len() as u32 {
            lists.activate(b, &mut slots[b as usize]);
        }
        let mut out = Vec::new();
        while let Some((b, from_new)) = lists.next(&mut slots, |s| s) {
            match queues[b as usize].pop_front() {
                Some(size) => {
                    slots[b as usize].spend(size);
                    out.push((b, size));
                }
                None => lists.emptied(b, from_new, &mut slots[b as usize]),
            }
        }
        out
    }

    #[test]
    fn flow_queues_answer_as_a_table_of_every_bucket() {
        // Random buckets of 1024, past the sorted list's size into the table: each bucket
        // finds the queue made at its first use, and bucket order lists them as a table of
        // every bucket would.
        for seed in 1..20u64 {
            let mut x = seed;
            let mut queues: FlowQueues<u32> = FlowQueues::new(1024);
            let mut table = vec![None; 1024];
            let mut made = 0u32;
            let uses = (seed * 7) as usize;
            for _ in 0..uses {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let b = ((x >> 33) % if seed % 2 == 0 { 40 } else { 1024 }) as u32;
                let (q, new) = queues.find_or_make(b);
                assert_eq!(new, table[b as usize].is_none());
                if new {
                    table[b as usize] = Some(made);
                    queues[q] = b;
                    made += 1;
                }
                assert_eq!(Some(q), table[b as usize]);
                assert_eq!(queues.bucket(q), b);
            }
            for b in 0..1024 {
                assert_eq!(queues.find(b), table[b as usize]);
            }
            let in_order: Vec<u32> = queues.by_bucket().copied().collect();
            let expected: Vec<u32> = (0..1024).filter(|&b| table[b as usize].is_some()).collect();
            assert_eq!(in_order, expected);
            assert_eq!(queues.all().len() as u32, made);
        }
    }

    #[test]
    fn deficit_round_robin_shares_bytes_by_quantum() {
        // Queue 0 sends 1000-byte packets, queue 1 500-byte ones, quantum 1000: each turn
        // queue 0 sends one packet and queue 1 two (section 4.2's byte fairness).
        let q0 = VecDeque::from(vec![1000; 3]);
        let q1 = VecDeque::from(vec![500; 6]);
        let order = serve(vec![q0, q1], 1000);
        let who: Vec<u32> = order.iter().map(|&(b, _)| b).collect();
        assert_eq!(who, [0, 1, 1, 0, 1, 1, 0, 1, 1]);
    }

    #[test]
    fn a_new_queue_found_empty_moves_to_the_old_list_and_an_old_one_leaves() {
        let mut lists = FlowLists::new(1500);
        let mut slots = vec![Slot::default(); 2];
        lists.activate(0, &mut slots[0]);
        lists.activate(1, &mut slots[1]);
        // Queue 0 is new and found empty while queue 1 is still new: the old list is empty,
        // so queue 0 leaves at once.
        assert_eq!(lists.next(&mut slots, |s| s), Some((0, true)));
        lists.emptied(0, true, &mut slots[0]);
        assert_eq!(slots[0].listed, List::None);
        // Queue 1 spends its deficit and goes to the old list with another quantum.
        assert_eq!(lists.next(&mut slots, |s| s), Some((1, true)));
        slots[1].spend(1500);
        assert_eq!(lists.next(&mut slots, |s| s), Some((1, false)));
        assert_eq!(slots[1].deficit, 1500);
        // A queue that becomes active again is new and served ahead of the old one.
        lists.activate(0, &mut slots[0]);
        assert_eq!(lists.next(&mut slots, |s| s), Some((0, true)));
        // Found empty while queue 1 is on the old list: it moves there behind it.
        lists.emptied(0, true, &mut slots[0]);
        assert_eq!(slots[0].listed, List::Old);
        assert_eq!(lists.next(&mut slots, |s| s), Some((1, false)));
        lists.emptied(1, false, &mut slots[1]);
        assert_eq!(slots[1].listed, List::None);
        assert_eq!(lists.next(&mut slots, |s| s), Some((0, false)));
        lists.emptied(0, false, &mut slots[0]);
        assert_eq!(lists.next(&mut slots, |s| s), None);
    }

    #[test]
    fn under_ns3_a_new_queue_found_empty_always_moves_to_the_old_list() {
        // ns-3.44's FqCoDelQueueDisc::DoDequeue: a queue found empty while the new list is
        // not empty (it came from there) goes to the old list, even an empty one.
        for ns3 in [false, true] {
            let mut lists = FlowLists::new(1500).ns3(ns3);
            let mut slots = vec![Slot::default(); 1];
            lists.activate(0, &mut slots[0]);
            assert_eq!(lists.next(&mut slots, |s| s), Some((0, true)));
            lists.emptied(0, true, &mut slots[0]);
            let listed = if ns3 { List::Old } else { List::None };
            assert_eq!(slots[0].listed, listed);
            // Old and empty: it leaves in both.
            if ns3 {
                assert_eq!(lists.next(&mut slots, |s| s), Some((0, false)));
                lists.emptied(0, false, &mut slots[0]);
            }
            assert_eq!(lists.next(&mut slots, |s| s), None);
        }
    }
}
