//! The state ns-2.35's dsRED schedulers share (diffserv/dsred.h, `dsREDQueue`'s `qToDq`,
//! `queueWeight`, `wirrTemp`, `wirrqDone`, `queuesDone`, `queueMaxRate`, `queueAvgRate`,
//! `queueArrTime`); each scheduler is in its own file (rr, wrr, wirr, pri).

/// ns-2.35's MAX_QUEUES (diffserv/dsred.h).
pub const MAX_QUEUES: usize = 8;

#[derive(Clone, Debug)]
pub struct SchedState {
    /// The queue last chosen (`qToDq`).
    pub q: usize,
    pub weight: [i32; MAX_QUEUES],
    pub wirr_temp: [i32; MAX_QUEUES],
    pub wirr_done: [bool; MAX_QUEUES],
    pub queues_done: usize,
    /// PRI's rate limits, bytes per second (0: none; `addQueueRate`).
    pub max_rate: [f64; MAX_QUEUES],
    /// PRI's TSW averages of each queue's departures (`applyTSWMeter`).
    pub avg_rate: [f64; MAX_QUEUES],
    pub arr_time: [f64; MAX_QUEUES],
}

impl SchedState {
    /// As `dsREDQueue`'s constructor and `reset` leave it (`queuesDone` = MAX_QUEUES).
    pub fn new(weight: [i32; MAX_QUEUES], max_rate: [f64; MAX_QUEUES]) -> SchedState {
        SchedState {
            q: 0,
            weight,
            wirr_temp: [0; MAX_QUEUES],
            wirr_done: [false; MAX_QUEUES],
            queues_done: MAX_QUEUES,
            max_rate,
            avg_rate: [0.0; MAX_QUEUES],
            arr_time: [0.0; MAX_QUEUES],
        }
    }

    /// `dsREDQueue::applyTSWMeter`: queue `i`'s departure rate over a 1 s window, with
    /// `bytes` just sent from it (0 for the others) at `now`.
    pub fn tsw_meter(&mut self, i: usize, bytes: f64, now: f64) {
        let win = 1.0;
        let total = self.avg_rate[i] * win + bytes;
        self.avg_rate[i] = total / (now - self.arr_time[i] + win);
        self.arr_time[i] = now;
    }
}
