//! A link's part in Quick-Start (RFC 4782): the node's agent sees each request before the
//! link takes it, and reads the link's bandwidth and queue utilisation (ns-2.35's
//! `QSAgent`, queue/queue.cc's `utilization` and `peak_utilization`).

use super::{Carried, Enqueued, Link, QUICK_START};
use crate::net::quick_start::{LinkLoad, QsUtil};
use crate::packet_pool::PacketPool;
use crate::time::SimTime;

impl Link {
    /// Keeps the queue's utilisation for the Quick-Start agent of the link's node
    /// (`net/quick_start.rs`), which sees every request before it enters.
    pub fn keep_quick_start(&mut self, util: Option<QsUtil>) {
        self.qs = util.map(Box::new);
        self.service |= QUICK_START;
    }

    /// Whether requests entering the link stop at its node's Quick-Start agent.
    #[inline]
    pub fn quick_starts(&self) -> bool {
        self.service & QUICK_START != 0
    }

    /// Whether the packet offered next has passed the node's Quick-Start agent already.
    pub fn quick_start_passed(&self) -> bool {
        self.qs_passed
    }

    /// The packet offered next has passed the node's Quick-Start agent already (or not).
    pub fn set_quick_start_passed(&mut self, passed: bool) {
        self.qs_passed = passed;
    }

    /// Offers `c` again past the Quick-Start agent ([`Enqueued::QuickStart`]).
    pub fn pass_quick_start(
        &mut self,
        now: SimTime,
        c: Carried,
        pool: &mut PacketPool,
    ) -> Enqueued {
        self.qs_passed = true;
        let out = self.enqueue(now, c, pool);
        self.qs_passed = false;
        out
    }

    /// A packet arrives at `now` on a link without ns-2's clock: settles the transmission
    /// the last arrival on a free line may have started, and notes this one's.
    pub(super) fn qs_note_arrival(&mut self, now: SimTime) {
        let busy = crate::sched::ns2_seconds(self.busy_until);
        let Some(u) = self.qs.as_deref_mut() else {
            return;
        };
        if let Some((s, before)) = u.candidate.take() {
            if busy != before {
                u.on_start(s, before);
            }
        }
        if self.busy_until <= now {
            u.candidate = Some((crate::sched::ns2_seconds(now), busy));
        }
    }

    /// What the node's Quick-Start agent reads of the link at `now` (`now2` on ns-2's
    /// clock): its bandwidth, and with `util` its queue's utilisation, the peak one with
    /// `peak` (queue/queue.cc: `utilization`, `peak_utilization`; the query moves the
    /// queue's measurement to now, as ns-2's does).
    pub fn quick_start_load(
        &mut self,
        now: SimTime,
        now2: f64,
        util: bool,
        peak: bool,
    ) -> LinkLoad {
        if self.ns2.is_none() {
            self.qs_note_arrival(now);
            if let Some(u) = self.qs.as_deref_mut() {
                u.candidate = None;
            }
        }
        let (bandwidth, t, end) = match self.ns2.as_deref() {
            Some(n) => (n.bw, now2, n.busy),
            None => (
                self.rate.bps() as f64,
                crate::sched::ns2_seconds(now),
                crate::sched::ns2_seconds(self.busy_until),
            ),
        };
        let util = match self.qs.as_deref_mut() {
            Some(u) if util => u.query(t, end, peak),
            _ => 0.0,
        };
        LinkLoad { bandwidth, util }
    }
}
