//! dsRED's weighted round robin (ns-2.35 diffserv/dsred.cc, `dsREDQueue::selectQueueToDeque`,
//! schedModeWRR): a queue keeps the turn for its weight's number of packets (`wirrTemp`
//! counts down what it has left); an empty queue passes the turn at once.

use super::sched::SchedState;

pub fn select(s: &mut SchedState, lens: &[usize]) -> usize {
    let n = lens.len();
    if s.wirr_temp[s.q] <= 0 {
        s.q = (s.q + 1) % n;
        s.wirr_temp[s.q] = s.weight[s.q] - 1;
    } else {
        s.wirr_temp[s.q] -= 1;
    }
    let mut i = 0;
    while i < n && lens[s.q] == 0 {
        s.wirr_temp[s.q] = 0;
        s.q = (s.q + 1) % n;
        s.wirr_temp[s.q] = s.weight[s.q] - 1;
        i += 1;
    }
    s.q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::dsred::sched::MAX_QUEUES;

    #[test]
    fn weights_three_to_one() {
        let mut w = [1; MAX_QUEUES];
        w[0] = 3;
        let mut s = SchedState::new(w, [0.0; MAX_QUEUES]);
        let picks: Vec<usize> = (0..8).map(|_| select(&mut s, &[9, 9])).collect();
        assert_eq!(picks, [1, 0, 0, 0, 1, 0, 0, 0]);
    }
}
