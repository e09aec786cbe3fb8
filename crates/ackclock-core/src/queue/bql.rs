//! Byte queue limits: the dynamic limit on the bytes a device queue may hold, from Linux's
//! lib/dynamic_queue_limits.c (T. Herbert, 2011; `dql_queued`, `dql_avail`, `dql_completed`)
//! as ns-3.44 ports it (src/network/utils/dynamic-queue-limits.cc, `DynamicQueueLimits`,
//! used by `NetDeviceQueue::NotifyQueuedBytes` / `NotifyTransmittedBytes`).
//!
//! The device reports bytes queued and bytes completed (ns-3: when the device takes a packet
//! from its queue to transmit it). `avail = adj_limit - queued`; the queue above the device
//! (the traffic-control layer's root discipline) stops feeding it while avail < 0.
//! At each completion of `count` bytes, with `inprogress` the bytes still queued after it:
//! - starved (the queue was over its limit and is now empty, or was over it in the previous
//!   interval and everything then queued is now done): the limit grows by the bytes queued
//!   and completed since the last completion plus the previous over-limit;
//! - busy the whole interval: slack = max(limit + prev_ovlimit - 2 completed_now,
//!   prev_last_obj - prev_ovlimit if over the limit before), tracked as its minimum; once per
//!   `hold_time` (1 s) the limit falls by that lowest slack;
//! - the limit stays in [min_limit, max_limit]; adj_limit = limit + completed.
//!
//! Byte counts are modular 32-bit, as in both sources.

use crate::time::{SimDuration, SimTime};

/// ns-3's and Linux's `DQL_MAX_LIMIT`, (UINT_MAX / 16) - 1.
pub const MAX_LIMIT: u32 = (u32::MAX / 16) - 1;

#[derive(Clone, Copy, Debug)]
pub struct DqlParams {
    pub hold_time: SimDuration,
    pub min_limit: u32,
    pub max_limit: u32,
}

impl Default for DqlParams {
    fn default() -> DqlParams {
        DqlParams {
            hold_time: SimDuration::from_millis(1000),
            min_limit: 0,
            max_limit: MAX_LIMIT,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Dql {
    p: DqlParams,
    num_queued: u32,
    adj_limit: u32,
    last_obj_cnt: u32,
    limit: u32,
    num_completed: u32,
    prev_ovlimit: u32,
    prev_num_queued: u32,
    prev_last_obj_cnt: u32,
    lowest_slack: u32,
    slack_start_time: SimTime,
}

/// a - b if a > b (modular), else 0: Linux's POSDIFF.
fn posdiff(a: u32, b: u32) -> u32 {
    let d = a.wrapping_sub(b) as i32;
    if d > 0 {
        d as u32
    } else {
        0
    }
}

impl Dql {
    pub fn new(p: DqlParams) -> Dql {
        Dql {
            p,
            num_queued: 0,
            adj_limit: 0,
            last_obj_cnt: 0,
            limit: p.min_limit,
            num_completed: 0,
            prev_ovlimit: 0,
            prev_num_queued: 0,
            prev_last_obj_cnt: 0,
            lowest_slack: u32::MAX,
            slack_start_time: SimTime::ZERO,
        }
        .adjusted()
    }

    fn adjusted(mut self) -> Dql {
        self.adj_limit = self.limit.wrapping_add(self.num_completed);
        self
    }

    /// `dql_queued`: `count` bytes entered the device queue.
    pub fn queued(&mut self, count: u32) {
        self.last_obj_cnt = count;
        self.num_queued = self.num_queued.wrapping_add(count);
    }

    /// `dql_avail`: bytes the queue may still take (negative: over the limit).
    pub fn avail(&self) -> i64 {
        self.adj_limit.wrapping_sub(self.num_queued) as i32 as i64
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// `dql_completed`: `count` bytes left the device queue at `now`.
    pub fn completed(&mut self, count: u32, now: SimTime) {
        let num_queued = self.num_queued;
        let completed = self.num_completed.wrapping_add(count);
        let mut limit = self.limit;
        let mut ovlimit = posdiff(num_queued.wrapping_sub(self.num_completed), limit);
        let inprogress = num_queued.wrapping_sub(completed);
        let prev_inprogress = self.prev_num_queued.wrapping_sub(self.num_completed);
        let all_prev_completed = completed.wrapping_sub(self.prev_num_queued) as i32 >= 0;
        if (ovlimit != 0 && inprogress == 0) || (self.prev_ovlimit != 0 && all_prev_completed) {
            limit = limit
                .wrapping_add(posdiff(completed, self.prev_num_queued))
                .wrapping_add(self.prev_ovlimit);
            self.slack_start_time = now;
            self.lowest_slack = u32::MAX;
        } else if inprogress != 0 && prev_inprogress != 0 && !all_prev_completed {
            let slack = posdiff(
                limit.wrapping_add(self.prev_ovlimit),
                2u32.wrapping_mul(completed.wrapping_sub(self.num_completed)),
            );
            let slack_last_objs = if self.prev_ovlimit != 0 {
                posdiff(self.prev_last_obj_cnt, self.prev_ovlimit)
            } else {
                0
            };
            let slack = slack.max(slack_last_objs);
            if slack < self.lowest_slack {
                self.lowest_slack = slack;
            }
            if now > self.slack_start_time + self.p.hold_time {
                limit = posdiff(limit, self.lowest_slack);
                self.slack_start_time = now;
                self.lowest_slack = u32::MAX;
            }
        }
        limit = limit.clamp(self.p.min_limit, self.p.max_limit);
        if limit != self.limit {
            self.limit = limit;
            ovlimit = 0;
        }
        self.adj_limit = limit.wrapping_add(completed);
        self.prev_ovlimit = ovlimit;
        self.prev_last_obj_cnt = self.last_obj_cnt;
        self.num_completed = completed;
        self.prev_num_queued = num_queued;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starvation_grows_the_limit() {
        let mut d = Dql::new(DqlParams::default());
        assert_eq!(d.avail(), 0);
        d.queued(1500);
        assert_eq!(d.avail(), -1500, "over a limit of 0: the queue stops");
        // The packet leaves and nothing is left: starved, the limit grows by what was
        // queued and completed (1500).
        d.completed(1500, SimTime(1));
        assert_eq!(d.limit(), 1500);
        assert_eq!(d.avail(), 1500);
        // Two more, the second over the limit; both complete: starved again, the limit grows
        // by 3000 (queued and completed since) plus the previous over-limit (0).
        d.queued(1500);
        d.queued(1500);
        assert_eq!(d.avail(), -1500);
        d.completed(3000, SimTime(2));
        assert_eq!(d.limit(), 4500);
    }

    /// A queue kept busy with more than it needs: after the hold time the limit falls by the
    /// lowest slack seen, limit - 2 x completed per completion.
    #[test]
    fn slack_shrinks_the_limit_after_the_hold_time() {
        let mut d = Dql::new(DqlParams {
            min_limit: 30_000,
            ..DqlParams::default()
        });
        assert_eq!(d.limit(), 30_000);
        let mut t = 0u64;
        // Keep 20 packets of 1000 bytes queued, complete one per ms.
        for _ in 0..20 {
            d.queued(1000);
        }
        let mut d2 = Dql::new(DqlParams {
            min_limit: 0,
            ..DqlParams::default()
        });
        d2.limit = 30_000;
        d2 = d2.adjusted();
        for _ in 0..20 {
            d2.queued(1000);
        }
        let mut limits = Vec::new();
        while t < 1_500 {
            t += 1;
            let now = SimTime(t * 1_000_000_000);
            d.completed(1000, now);
            d.queued(1000);
            d2.completed(1000, now);
            d2.queued(1000);
            limits.push(d2.limit());
        }
        // The floor holds d's limit; d2's falls once the hold time has passed: slack is
        // 30 000 - 2 x 1000 = 28 000 at every completion.
        assert_eq!(d.limit(), 30_000);
        assert_eq!(limits[999], 30_000, "within the first second");
        assert_eq!(limits[1000], 2_000, "{:?}", &limits[995..1005]);
    }

    /// ns-3's tcp-validation example sets `DynamicQueueLimits::HoldTime` to 1 ms: the same
    /// busy queue then gives up its slack at the first completion more than 1 ms after the
    /// slack's start, not a second later.
    #[test]
    fn a_short_hold_time_lowers_the_limit_sooner() {
        let mut d = Dql::new(DqlParams {
            hold_time: SimDuration::from_millis(1),
            ..DqlParams::default()
        });
        d.limit = 30_000;
        d = d.adjusted();
        for _ in 0..20 {
            d.queued(1000);
        }
        // One completion every 0.4 ms: the third (1.2 ms) is the first after the hold time.
        let mut limits = Vec::new();
        for t in 1..=3u64 {
            d.completed(1000, SimTime(t * 400_000_000));
            d.queued(1000);
            limits.push(d.limit());
        }
        assert_eq!(limits, [30_000, 30_000, 2_000]);
    }
}
