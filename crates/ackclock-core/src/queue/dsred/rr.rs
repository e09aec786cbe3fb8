//! dsRED's round robin (ns-2.35 diffserv/dsred.cc, `dsREDQueue::selectQueueToDeque`,
//! schedModeRR): the next queue after the last chosen, skipping empty ones; after a whole
//! turn of empty queues it stops one past where it started.

use super::sched::SchedState;

pub fn select(s: &mut SchedState, lens: &[usize]) -> usize {
    let n = lens.len();
    s.q = (s.q + 1) % n;
    let mut i = 0;
    while i < n && lens[s.q] == 0 {
        s.q = (s.q + 1) % n;
        i += 1;
    }
    s.q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::dsred::sched::MAX_QUEUES;

    #[test]
    fn alternates_and_skips_empty() {
        let mut s = SchedState::new([1; MAX_QUEUES], [0.0; MAX_QUEUES]);
        assert_eq!(select(&mut s, &[1, 1]), 1);
        assert_eq!(select(&mut s, &[1, 1]), 0);
        assert_eq!(select(&mut s, &[1, 0]), 0);
        // All empty: one past where it started.
        assert_eq!(select(&mut s, &[0, 0]), 1);
    }
}
