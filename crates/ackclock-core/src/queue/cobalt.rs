//! CoBALT, "CoDel BLUE Alternate": CoDel (RFC 8289) and BLUE (W. Feng, K. G. Shin,
//! D. D. Kandlur, D. Saha, "The BLUE active queue management algorithms", IEEE/ACM ToN
//! 10(4), 2002) in one FIFO, as J. Morton and T. Høiland-Jørgensen wrote it for Linux's
//! `sch_cake` (net/sched/sch_cake.c, `cobalt_should_drop`, `cobalt_queue_full`,
//! `cobalt_queue_empty`; T. Høiland-Jørgensen, D. Taht, J. Morton, "Piece of CAKE", IEEE
//! LANMAN 2018) and ns-3.44 runs it as `CobaltQueueDisc`
//! (src/traffic-control/model/cobalt-queue-disc.cc, `CobaltShouldDrop`).
//!
//! At each dequeue, with the head packet's sojourn time s:
//! - CoDel part: if s > target and not dropping, start dropping with
//!   drop_next = control_law(now) and count at least 1; if s <= target, stop dropping. When
//!   dropping and drop_next is due, the packet is dropped (or CE-marked with ECN), count rises
//!   by one and drop_next = control_law(drop_next). When not dropping and drop_next is due,
//!   count falls by one per elapsed control-law interval (CoBALT's "count decay", instead
//!   of CoDel's restart from a remembered count).
//!   control_law(t) = t + interval / sqrt(count), with 1/sqrt(count) the value the last
//!   count change computed (1 at count 0).
//! - CE threshold: an ECN-capable packet not already marked whose sojourn exceeds
//!   `ce_threshold` is marked (for DCTCP-style marking).
//! - BLUE part: p_drop rises by `increment` (1/256) when the queue overflows or a sojourn
//!   exceeds `blue_threshold` (400 ms), and falls by `decrement` (1/4096) when a dequeue finds
//!   the queue empty, each at most once per `target`. Any packet is then dropped with
//!   probability p_drop (never marked: BLUE's drops are for unresponsive flows).
//! - Activity timeout: with count 0, drop_next = now + interval; when the schedule was not
//!   due yet and nothing was dropped, drop_next = now.
//!
//! ns-3 keeps times in CoDel's 1.024 us units and 1/sqrt(count) in 32-bit fixed point with
//! Newton steps; this file uses picoseconds and floating point (the same law, without the
//! rounding). Its default limit is 1000 packets of 1500 bytes (1 500 000 bytes).

use super::codel::TimedFifo;
use super::{
    AqmState, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service, Unit,
};
use crate::packet::{ecn, Packet};
use crate::rng::RandomStream;
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Copy, Debug)]
pub struct CobaltParams {
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    pub target: SimDuration,
    pub interval: SimDuration,
    pub ecn: bool,
    /// Mark ECN-capable packets whose sojourn exceeds this; None: never.
    pub ce_threshold: Option<SimDuration>,
    pub increment: f64,
    pub decrement: f64,
    pub blue_threshold: SimDuration,
    /// BLUE's initial drop probability.
    pub p_drop: f64,
}

#[derive(Clone, Debug)]
pub struct Cobalt {
    p: CobaltParams,
    q: TimedFifo,
    count: u32,
    rec_inv_sqrt: f64,
    dropping: bool,
    /// Picoseconds; signed, as the schedule is compared by difference.
    drop_next: i128,
    p_drop: f64,
    last_update_blue: i128,
    rng: RandomStream,
    pub marks: u64,
}

impl Cobalt {
    pub fn new(p: CobaltParams, rng: RandomStream) -> Cobalt {
        Cobalt {
            p,
            q: TimedFifo::default(),
            count: 0,
            rec_inv_sqrt: 1.0,
            dropping: false,
            drop_next: 0,
            p_drop: p.p_drop,
            last_update_blue: 0,
            rng,
            marks: 0,
        }
    }

    fn inv_sqrt(&mut self) {
        self.rec_inv_sqrt = if self.count == 0 {
            1.0
        } else {
            1.0 / (self.count as f64).sqrt()
        };
    }

    fn control_law(&self, t: i128) -> i128 {
        t + (self.p.interval.0 as f64 * self.rec_inv_sqrt) as i128
    }

    pub fn p_drop(&self) -> f64 {
        self.p_drop
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    /// `cobalt_queue_full`: the queue overflowed.
    fn queue_full(&mut self, now: i128) {
        if now - self.last_update_blue > self.p.target.0 as i128 {
            self.p_drop = (self.p_drop + self.p.increment).min(1.0);
            self.last_update_blue = now;
        }
        self.dropping = true;
        self.drop_next = now;
        if self.count == 0 {
            self.count = 1;
        }
    }

    /// `cobalt_queue_empty`: a dequeue found nothing.
    fn queue_empty(&mut self, now: i128) {
        if self.p_drop > 0.0 && now - self.last_update_blue > self.p.target.0 as i128 {
            self.p_drop = (self.p_drop - self.p.decrement).max(0.0);
            self.last_update_blue = now;
        }
        self.dropping = false;
        if self.count > 0 && now - self.drop_next >= 0 {
            self.count -= 1;
            self.inv_sqrt();
            self.drop_next = self.control_law(self.drop_next);
        }
    }

    /// `cobalt_should_drop` for the packet `pkt`, enqueued at `at`; may mark it.
    fn should_drop(&mut self, now: i128, at: SimTime, pkt: &mut Packet) -> bool {
        let sojourn = now - at.0 as i128;
        let mut schedule = now - self.drop_next;
        let over_target = sojourn > self.p.target.0 as i128;
        let mut next_due = self.count > 0 && schedule >= 0;
        let ect = pkt.ecn & ecn::ECT != 0;
        let mut marked = false;
        let mut drop = false;
        if over_target {
            if !self.dropping {
                self.dropping = true;
                self.drop_next = self.control_law(now);
            }
            if self.count == 0 {
                self.count = 1;
            }
        } else if self.dropping {
            self.dropping = false;
        }
        if next_due && self.dropping {
            marked = self.p.ecn && ect;
            if marked {
                pkt.ecn |= ecn::CE;
                self.marks += 1;
            }
            drop = !marked;
            self.count = self.count.saturating_add(1);
            self.inv_sqrt();
            self.drop_next = self.control_law(self.drop_next);
            schedule = now - self.drop_next;
        } else {
            while next_due {
                self.count -= 1;
                self.inv_sqrt();
                self.drop_next = self.control_law(self.drop_next);
                schedule = now - self.drop_next;
                next_due = self.count > 0 && schedule >= 0;
            }
        }
        if let Some(ce) = self.p.ce_threshold {
            if !marked && self.p.ecn && ect && sojourn > ce.0 as i128 && pkt.ecn & ecn::CE == 0 {
                pkt.ecn |= ecn::CE;
                self.marks += 1;
            }
        }
        if sojourn > self.p.blue_threshold.0 as i128
            && now - self.last_update_blue > self.p.target.0 as i128
        {
            self.p_drop = (self.p_drop + self.p.increment).min(1.0);
            self.last_update_blue = now;
        }
        if self.p_drop > 0.0 {
            let u = self.rng.next_f64();
            drop = drop || u < self.p_drop;
        }
        if self.count == 0 {
            self.drop_next = now + self.p.interval.0 as i128;
        } else if schedule > 0 && !drop {
            self.drop_next = now;
        }
        drop
    }

    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.q.packets.iter().map(|(_, p)| p)
    }
}

crate::params! {
    /// The `Cobalt` discipline's parameters (`queue.params`), each with its declaration.
    pub struct CobaltSettings {
        target: crate::time::SimDuration = Param::new("target", 5e9, Range::Positive, "CoDel's acceptable standing queue delay")
            .unit(Unit::Time)
            .ns3("Target"),
        interval: crate::time::SimDuration = Param::new("interval", 100e9, Range::Positive, "CoDel's interval")
            .unit(Unit::Time)
            .ns3("Interval"),
        ce_threshold: crate::time::SimDuration = Param::new(
            "ce_threshold",
            0.0,
            Range::NonNegative,
            "with ecn, mark ECN-capable packets whose sojourn exceeds this (0: off)",
            )
            .unit(Unit::Time)
            .ns3("CeThreshold"),
        increment: f64 = Param::new("increment", 1.0 / 256.0, Range::Fraction, "BLUE's step up of p_drop")
            .ns3("Increment"),
        decrement: f64 = Param::new("decrement", 1.0 / 4096.0, Range::Fraction, "BLUE's step down of p_drop")
            .ns3("Decrement"),
        blue_threshold: crate::time::SimDuration = Param::new(
            "blue_threshold",
            400e9,
            Range::Positive,
            "a sojourn above this raises BLUE's p_drop",
            )
            .unit(Unit::Time)
            .ns3("BlueThreshold"),
        p_drop: f64 = Param::new("p_drop", 0.0, Range::NonNegative, "BLUE's initial drop probability").ns3("Pdrop"),
    }
}

const COBALT_PARAMS: &[Param] = CobaltSettings::PARAMS;

impl QueueDiscipline for Cobalt {
    const INFO: QdiscInfo = QdiscInfo {
        params: COBALT_PARAMS,
        ecn: true,
        default_limit: Some(1000),
        ..QdiscInfo::new(
            "cobalt",
            Service::Dequeue,
            "CoDel and BLUE in one FIFO, as sch_cake and ns-3's CobaltQueueDisc",
        )
    };

    type Params = CobaltSettings;

    fn new(p: &CobaltSettings, setup: &QueueSetup) -> Cobalt {
        Cobalt::new(
            CobaltParams {
                limit_packets: setup.limit_packets,
                limit_bytes: None,
                target: p.target,
                interval: p.interval,
                ecn: setup.ecn,
                ce_threshold: Some(p.ce_threshold).filter(|t| t.0 > 0),
                increment: p.increment,
                decrement: p.decrement,
                blue_threshold: p.blue_threshold,
                p_drop: p.p_drop.min(1.0),
            },
            setup.rng.clone(),
        )
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        let full = self
            .p
            .limit_packets
            .is_some_and(|l| self.q.packets.len() as u64 + 1 > l)
            || self
                .p
                .limit_bytes
                .is_some_and(|l| self.q.bytes + pkt.size as u64 > l);
        if full {
            self.queue_full(now.0 as i128);
            dropped.push(pkt);
            return;
        }
        self.q.push(now, pkt);
    }

    #[inline]
    fn dequeue(&mut self, now: SimTime, dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        let t = now.0 as i128;
        loop {
            let Some((at, mut pkt)) = self.q.pop() else {
                self.dropping = false;
                self.queue_empty(t);
                return None;
            };
            if self.should_drop(t, at, &mut pkt) {
                dropped.push(pkt);
            } else {
                return Some((at, pkt));
            }
        }
    }

    #[inline]
    fn backlog(&self) -> Backlog {
        self.q.backlog()
    }

    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.packets().for_each(f)
    }

    #[inline]
    fn marks(&self) -> u64 {
        self.marks
    }

    fn state(&self) -> AqmState {
        AqmState {
            avg: f64::NAN,
            prob: self.p_drop,
            dropping: if self.dropping { 1.0 } else { 0.0 },
        }
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (self.p.limit_packets, self.p.limit_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: f64) -> SimTime {
        SimTime((x * 1e9) as u64)
    }

    fn params() -> CobaltParams {
        CobaltParams {
            limit_packets: Some(1000),
            limit_bytes: None,
            target: SimDuration::from_millis(5),
            interval: SimDuration::from_millis(100),
            ecn: false,
            ce_threshold: None,
            increment: 1.0 / 256.0,
            decrement: 1.0 / 4096.0,
            blue_threshold: SimDuration::from_millis(400),
            p_drop: 0.0,
        }
    }

    fn cobalt(p: CobaltParams) -> Cobalt {
        Cobalt::new(p, RandomStream::named(1, "cobalt"))
    }

    /// Dequeues every ms from 20 ms on, 50 packets queued; sojourns of 1 ms until 220 ms,
    /// 60 ms after. The first drop comes one interval after the sojourn first exceeds target,
    /// then at interval / sqrt(count).
    #[test]
    fn codel_part_drops_at_interval_over_sqrt_count() {
        let mut c = cobalt(params());
        let mut dropped = Vec::new();
        let mut drops = Vec::new();
        let deq = |s: u64| 20.0 + s as f64;
        // (A drop takes a packet away: later packets leave one step earlier than stamped.)
        let stamp = |s: u64| deq(s) - if s < 200 { 1.0 } else { 60.0 };
        for s in 0..50 {
            c.enqueue(ms(stamp(s)), Packet::test_udp(s, 0, 1000), &mut dropped);
        }
        for step in 0..1500u64 {
            let s = step + 50;
            c.enqueue(ms(stamp(s)), Packet::test_udp(s, 0, 1000), &mut dropped);
            let before = dropped.len();
            c.dequeue(ms(deq(step)), &mut dropped);
            if dropped.len() > before {
                drops.push(deq(step));
            }
        }
        assert_eq!(drops[0], 320.0, "{drops:?}");
        // After the k-th drop count is k + 1: the next comes interval / sqrt(k + 1) later.
        for k in 1..drops.len().min(20) {
            let gap = drops[k] - drops[k - 1];
            let law = 100.0 / ((k + 1) as f64).sqrt();
            assert!((gap - law).abs() <= 1.0 + 1e-9, "drop {k}: {gap} vs {law}");
        }
        assert!(drops.len() > 20, "{drops:?}");
        assert_eq!(c.p_drop(), 0.0, "no overflow, no 400 ms sojourn: BLUE idle");
    }

    #[test]
    fn count_decays_while_the_queue_is_good() {
        let mut c = cobalt(params());
        let mut dropped = Vec::new();
        c.count = 8;
        c.inv_sqrt();
        c.drop_next = ms(0.0).0 as i128;
        // A packet with a short sojourn, far past the schedule: count decays one step per
        // elapsed control-law interval.
        c.enqueue(ms(199.0), Packet::test_udp(0, 0, 1000), &mut dropped);
        c.dequeue(ms(200.0), &mut dropped);
        let mut count = 8u32;
        let mut next = 0.0f64;
        while count > 0 && next <= 200.0 {
            count -= 1;
            let r = if count == 0 {
                1.0
            } else {
                1.0 / (count as f64).sqrt()
            };
            next += 100.0 * r;
        }
        assert_eq!(c.count(), count);
        assert_eq!(count, 3, "37.8 + 40.8 + 44.7 + 50 ms passed, not 57.7 more");
        assert!(dropped.is_empty());
    }

    #[test]
    fn blue_raises_p_drop_on_overflow_at_most_once_per_target() {
        let mut c = cobalt(CobaltParams {
            limit_packets: Some(2),
            ..params()
        });
        let mut dropped = Vec::new();
        for i in 0..40u64 {
            // One arrival per ms to a full queue of two.
            c.enqueue(ms(i as f64), Packet::test_udp(0, 0, 1000), &mut dropped);
        }
        assert_eq!(dropped.len(), 38);
        // Overflows at every ms from 0 to 39, an increase when more than 5 ms passed since
        // the last: at 6, 12, 18, 24, 30, 36 ms.
        assert!((c.p_drop() - 6.0 / 256.0).abs() < 1e-15, "{}", c.p_drop());
        // An empty queue then lowers it by 1/4096 per target.
        for i in 0..10u64 {
            while c
                .dequeue(ms(100.0 + 6.0 * i as f64), &mut dropped)
                .is_some()
            {}
        }
        assert!((c.p_drop() - (6.0 / 256.0 - 10.0 / 4096.0)).abs() < 1e-12);
    }

    #[test]
    fn ce_threshold_marks_ect_packets_that_waited_longer() {
        let mut c = cobalt(CobaltParams {
            ecn: true,
            ce_threshold: Some(SimDuration::from_millis(1)),
            ..params()
        });
        let mut dropped = Vec::new();
        let mut p = Packet::test_udp(0, 0, 1000);
        p.ecn = ecn::ECT;
        c.enqueue(ms(0.0), p, &mut dropped);
        c.enqueue(ms(0.0), p, &mut dropped);
        let (_, a) = c.dequeue(ms(0.5), &mut dropped).unwrap();
        let (_, b) = c.dequeue(ms(2.0), &mut dropped).unwrap();
        assert_eq!(a.ecn & ecn::CE, 0);
        assert_ne!(b.ecn & ecn::CE, 0);
        assert_eq!(c.marks, 1);
    }
}
