//! dsRED's priority scheduler (ns-2.35 diffserv/dsred.cc, `dsREDQueue::selectQueueToDeque`,
//! schedModePRI, with Sergio Andreozzi's rate limits): the lowest-numbered non-empty queue
//! whose departure rate (a 1 s time sliding window, `applyTSWMeter`) is not above its
//! `addQueueRate` limit (0: none); if every non-empty queue is over its limit, the
//! lowest-numbered non-empty one all the same.

use super::sched::SchedState;

pub fn select(s: &mut SchedState, lens: &[usize]) -> usize {
    let n = lens.len();
    let mut i = 0;
    while i < n && (lens[i] == 0 || (s.max_rate[i] != 0.0 && s.avg_rate[i] > s.max_rate[i])) {
        i += 1;
    }
    s.q = i;
    if i == n {
        i = 0;
        s.q = 0;
        while i < n && lens[s.q] == 0 {
            s.q = (s.q + 1) % n;
            i += 1;
        }
    }
    s.q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::dsred::sched::MAX_QUEUES;

    #[test]
    fn highest_priority_within_its_rate() {
        let mut r = [0.0; MAX_QUEUES];
        r[0] = 1000.0;
        let mut s = SchedState::new([1; MAX_QUEUES], r);
        assert_eq!(select(&mut s, &[1, 1]), 0);
        s.avg_rate[0] = 2000.0;
        assert_eq!(select(&mut s, &[1, 1]), 1);
        assert_eq!(select(&mut s, &[1, 0]), 0); // over its rate, but the only one
        assert_eq!(select(&mut s, &[0, 0]), 0);
    }
}
