//! CBQ's weighted round robin within a priority (Floyd and Jacobson 1995, section 5; ns-2.35's
//! `Queue/CBQ/WRR`, queue/cbq.cc `WRR_CBQueue::deque` and `setM`).
//!
//! - Each leaf's turn is worth `allot * M` bytes (truncated to an int), with M = (the number
//!   of classes at its priority) maxpkt / (the sum of their allotments): a round gives each
//!   about maxpkt bytes per class, in proportion to its share.
//! - A leaf sends while its bytes last and it may send (the estimator, `cbq`), then the turn
//!   passes on; a leaf passed over (no packets, or regulated) loses what it had left.
//! - When a round finds only leaves that may send but have used their bytes, a second round
//!   lets the first of them send without bytes (ns-2's `deficit` 2).

use super::cbq::Cbq;
use crate::packet::Packet;
use crate::time::SimTime;

impl Cbq {
    /// ns-2's `WRR_CBQueue::setM`: the bytes a whole allotment is worth in a round, per
    /// priority.
    pub(super) fn set_m(&mut self) {
        for i in 0..=self.maxprio.max(-1) as i64 {
            let i = i as usize;
            self.m[i] = if self.alloc[i] > 0.0 {
                (self.cnt[i] * self.maxpkt) as f64 * 1.0 / self.alloc[i]
            } else {
                0.0
            };
        }
    }

    /// ns-2's `WRR_CBQueue::deque`: the next packet at `now` (seconds), with its accounting.
    pub(super) fn deque_wrr(&mut self, now: f64) -> Option<(SimTime, Packet)> {
        let mut first: Option<u16> = None;
        let mut eligible: Option<u16> = None;
        'prios: for prio in 0..=self.maxprio.max(-1) as i64 {
            let Some(start) = self.active[prio as usize] else {
                continue;
            };
            let mut c = start;
            let mut deficit = 0;
            loop {
                loop {
                    let m = self.m[self.classes[c as usize].pri];
                    let cl = &mut self.classes[c as usize];
                    if deficit < 2 && cl.bytes_alloc <= 0 {
                        // C's (int) of the double: toward zero.
                        cl.bytes_alloc = cl.bytes_alloc.wrapping_add((cl.allotment * m) as i32);
                    }
                    if cl.demand() {
                        if first.is_none() && cl.permit_borrowing && cl.lender.is_some() {
                            first = Some(c);
                        }
                        if !self.send_permitted(c, now) {
                            self.classes[c as usize].delayed(now);
                        } else if self.classes[c as usize].bytes_alloc > 0 || deficit > 1 {
                            eligible = Some(c);
                            break 'prios;
                        } else {
                            deficit = 1;
                        }
                    }
                    self.classes[c as usize].bytes_alloc = 0;
                    c = self.classes[c as usize].peer;
                    if c == start {
                        break;
                    }
                }
                if deficit == 1 {
                    deficit = 2;
                } else {
                    break;
                }
            }
        }
        let (e, regulated) = match eligible {
            Some(e) => (e, true),
            None => (first?, false),
        };
        let mut next = self.classes[e as usize].peer;
        let (at, pkt) = self.pop(e);
        if regulated {
            // Its bytes pay for the packet; while some are left the turn stays with it.
            let cl = &mut self.classes[e as usize];
            if cl.bytes_alloc > 0 {
                cl.bytes_alloc -= pkt.size as i32;
            }
            if cl.bytes_alloc > 0 {
                next = e;
            }
            self.sent(e, pkt.size, now);
        }
        let pri = self.classes[e as usize].pri;
        self.active[pri] = Some(next);
        Some((at, pkt))
    }
}

#[cfg(test)]
mod tests {
    use super::super::cbq::{CbqSettings, CbqTree};
    use super::*;
    use crate::queue::QueueDiscipline;
    use crate::scenario::CbqClassConfig;

    fn class(name: &str, parent: Option<&str>, allot: f64) -> CbqClassConfig {
        CbqClassConfig {
            name: name.into(),
            parent: parent.map(Into::into),
            allot,
            borrow: true,
            maxidle_s: None,
            priority: if parent.is_some() { 1 } else { 8 },
            level: None,
            extradelay_s: 0.0,
            limit: parent.map(|_| 100),
            flows: Vec::new(),
        }
    }

    #[test]
    fn round_gives_bytes_in_proportion_to_allotments() {
        // Two leaves at one priority, 25% and 75%: M = 2 * 1000 / 1.0 = 2000 bytes, so a
        // round is worth 500 and 1500 bytes.
        let tree = CbqTree {
            classes: vec![
                class("root", None, 1.0),
                class("a", Some("root"), 0.25),
                class("b", Some("root"), 0.75),
            ],
            flow_class: vec![1, 2],
        };
        let p = CbqSettings {
            algorithm: 0,
            wrr: true,
            maxpkt: 1000,
        };
        let mut q = Cbq::new(&p, &tree, 1e9, true);
        assert_eq!(q.m[1], 2000.0);
        let mut drops = Vec::new();
        for _ in 0..20 {
            for f in [0, 1] {
                q.enqueue(SimTime::ZERO, Packet::test_udp(0, f, 250), &mut drops);
            }
        }
        // The root lends to both (ancestor-only, a fast link: everyone under its limit), so
        // the bytes alone decide: a sends 2 packets (500 bytes), b 6 (1500), and again.
        let order: Vec<u32> = (0..16)
            .map(|k| {
                let now = SimTime(k * 4_000_000);
                q.dequeue(now, &mut drops).unwrap().1.flow.0
            })
            .collect();
        assert_eq!(order, vec![0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1]);
        // newallot changes the round at once.
        q.newallot(1, 0.75);
        assert_eq!(q.m[1], 2000.0 / 1.5);
    }
}
