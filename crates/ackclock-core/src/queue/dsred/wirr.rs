//! dsRED's weighted interleaved round robin (ns-2.35 diffserv/dsred.cc,
//! `dsREDQueue::selectQueueToDeque`, schedModeWIRR): one packet per queue per pass, each queue
//! taking part in as many passes as its weight; a queue found empty, or whose weight is used
//! up, is done for the round; when every queue is done the weights are given again.

use super::sched::SchedState;

pub fn select(s: &mut SchedState, lens: &[usize]) -> usize {
    let n = lens.len();
    s.q = (s.q + 1) % n;
    let mut i = 0;
    while i < n && (lens[s.q] == 0 || s.wirr_done[s.q]) {
        if !s.wirr_done[s.q] {
            s.queues_done += 1;
            s.wirr_done[s.q] = true;
        }
        s.q = (s.q + 1) % n;
        i += 1;
    }
    if s.wirr_temp[s.q] == 1 {
        s.queues_done += 1;
        s.wirr_done[s.q] = true;
    }
    s.wirr_temp[s.q] -= 1;
    if s.queues_done >= n {
        s.queues_done = 0;
        for k in 0..n {
            s.wirr_temp[k] = s.weight[k];
            s.wirr_done[k] = false;
        }
    }
    s.q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::dsred::sched::MAX_QUEUES;

    #[test]
    fn interleaves_by_weight() {
        let mut w = [1; MAX_QUEUES];
        w[0] = 2;
        let mut s = SchedState::new(w, [0.0; MAX_QUEUES]);
        let picks: Vec<usize> = (0..7).map(|_| select(&mut s, &[9, 9])).collect();
        // queuesDone starts at MAX_QUEUES: the first pick hands out the weights; then each
        // round serves queue 0 twice and queue 1 once (0 1 0, then 1 0 0).
        assert_eq!(picks, [1, 0, 1, 0, 1, 0, 0]);
    }
}
