//! FQ-PIE: flow queueing (RFC 8290's scheduler) with a PIE controller (RFC 8033) per flow
//! queue, as G. Ramakrishnan, M. P. Tahiliani et al. specified it ("FQ-PIE Queue Discipline
//! in the Linux Kernel: Design, Implementation and Challenges", IEEE LCN 2019;
//! draft-tahiliani-tsvwg-fq-pie) and implemented it in Linux's `sch_fq_pie`
//! (net/sched/sch_fq_pie.c) and in ns-3.44's `FqPieQueueDisc`
//! (src/traffic-control/model/fq-pie-queue-disc.cc, with a `PieQueueDisc` per flow,
//! pie-queue-disc.cc). This file follows ns-3's.
//!
//! - Scheduling: as FQ-CoDel (`fq_codel.rs`): packets hash by flow to one of `flows` (1024)
//!   queues, served by deficit round robin with `quantum` bytes (the device MTU), new queues
//!   before old ones. A new queue found empty moves to the old list only if that list is not
//!   empty (RFC 8290 section 4.2; Linux's `fq_pie_qdisc_dequeue`), or always with `ns3_lists`,
//!   on in the `ns3` profile (ns-3.44's `FqPieQueueDisc::DoDequeue` tests only that the new
//!   list is not empty, as its `FqCoDelQueueDisc::DoDequeue` does).
//! - Each queue runs PIE with the packet's sojourn time as its queue delay (ns-3's default,
//!   `UseDequeueRateEstimator` false; RFC 8033 section 5.2's timestamp variant): at a dequeue
//!   from the queue, qdelay = now - enqueue time, and 0 if the queue is then empty.
//! - Every `t_update` from the queue's creation (its first packet), its drop probability moves
//!   by RFC 8033 section 4.2's p = alpha (qdelay - target) + beta (qdelay - qdelay_old), scaled
//!   by 1/2048 ... 1/2 while drop_prob is below 1e-6 ... 0.1, capped at +0.02 per update once
//!   drop_prob >= 0.1 (section 5.5), decayed by 2% while both delays are 0, within [0, 1];
//!   held at 0 while a burst allowance lasts (section 4.4).
//! - Arrival to a queue (`PieQueueDisc::DropEarly`): no early drop while a burst allowance is
//!   left; the first arrival that finds none arms a new one of `max_burst` (150 ms) and is
//!   itself judged; no early drop while qdelay_old < target / 2 and drop_prob < 0.2, or with at
//!   most 2 packets in the queue; otherwise dropped with probability drop_prob, or with ECN
//!   CE-marked if ECN-capable and drop_prob < `mark_ecn_threshold`. The allowance is re-armed
//!   only after 1.5 s of quiet updates (both delays below target / 2, drop_prob 0).
//! - A queue holds at most `limit` packets (its own PIE's limit); when all queues together
//!   hold more than `limit`, packets are dropped from the head of the queue with the most
//!   bytes until half its bytes are gone or 64 packets were dropped (`FqPieDrop`).

use super::fq_lists::{FlowLists, FlowQueues, Slot};

use super::codel::TimedFifo;
use super::pie::probability_step;
use super::{
    AqmState, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service, Unit,
};
use crate::packet::{ecn, Packet};
use crate::rng::RandomStream;
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Copy, Debug)]
pub struct FqPieParams {
    pub limit_packets: u64,
    pub flows: u32,
    pub quantum: u32,
    pub target: SimDuration,
    pub t_update: SimDuration,
    pub alpha: f64,
    pub beta: f64,
    pub max_burst: SimDuration,
    pub ecn: bool,
    pub mark_ecn_threshold: f64,
    pub drop_batch: u32,
    pub ns3_lists: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Burst {
    #[default]
    None,
    Protecting,
    Active,
}

/// One queue's PIE state.
#[derive(Clone, Copy, Debug, Default)]
pub struct PieVars {
    pub drop_prob: f64,
    /// Seconds.
    qdelay: f64,
    qdelay_old: f64,
    /// Picoseconds.
    burst_allowance: u64,
    burst: Burst,
    burst_reset: u32,
    next_update: SimTime,
}

impl PieVars {
    /// `PieQueueDisc::CalculateP`.
    fn update(&mut self, p: &FqPieParams) {
        let target = p.target.as_secs_f64();
        let qdelay = self.qdelay;
        let mut prob;
        if self.burst_allowance > 0 {
            self.drop_prob = 0.0;
            prob = 0.0;
        } else {
            prob = probability_step(
                p.alpha,
                p.beta,
                qdelay - target,
                qdelay - self.qdelay_old,
                self.drop_prob,
            );
        }
        prob += self.drop_prob;
        if qdelay == 0.0 && self.qdelay_old == 0.0 {
            prob *= 0.98;
        }
        self.drop_prob = prob.clamp(0.0, 1.0);
        self.burst_allowance = self.burst_allowance.saturating_sub(p.t_update.0);
        let reset_limit = (1.5 / p.t_update.as_secs_f64()) as u32;
        let quiet =
            qdelay < 0.5 * target && self.qdelay_old < 0.5 * target && self.drop_prob == 0.0;
        if quiet && self.burst_allowance == 0 {
            match self.burst {
                Burst::Protecting => {
                    self.burst = Burst::Active;
                    self.burst_reset = 0;
                }
                Burst::Active => {
                    self.burst_reset += 1;
                    if self.burst_reset > reset_limit {
                        self.burst_reset = 0;
                        self.burst = Burst::None;
                    }
                }
                Burst::None => {}
            }
        } else if self.burst == Burst::Active {
            self.burst_reset = 0;
        }
        self.qdelay_old = qdelay;
    }

    /// `PieQueueDisc::DropEarly` with `queued` packets already in the queue.
    fn drop_early(&mut self, p: &FqPieParams, queued: u64, rng: &mut RandomStream) -> bool {
        if self.burst_allowance > 0 {
            return false;
        }
        if self.burst == Burst::None {
            self.burst = Burst::Protecting;
            self.burst_allowance = p.max_burst.0;
        }
        let target = p.target.as_secs_f64();
        if (self.qdelay_old < 0.5 * target && self.drop_prob < 0.2) || queued <= 2 {
            return false;
        }
        rng.next_f64() <= self.drop_prob
    }
}

#[derive(Clone, Debug, Default)]
struct FlowQueue {
    q: TimedFifo,
    pie: PieVars,
    slot: Slot,
}

#[derive(Clone, Debug)]
pub struct FqPie {
    p: FqPieParams,
    /// Made at their bucket's first packet, as ns-3 creates a flow's PIE; their PIE updates
    /// run from then on, in the order they were made.
    queues: FlowQueues<FlowQueue>,
    next_update: SimTime,
    lists: FlowLists,
    packets: u64,
    bytes: u64,
    perturbation: u64,
    rng: RandomStream,
    pub marks: u64,
}

impl FqPie {
    pub fn new(p: FqPieParams, perturbation: u64, rng: RandomStream) -> FqPie {
        FqPie {
            p,
            queues: FlowQueues::new(p.flows),
            next_update: SimTime::MAX,
            lists: FlowLists::new(p.quantum).ns3(p.ns3_lists),
            packets: 0,
            bytes: 0,
            perturbation,
            rng,
            marks: 0,
        }
    }

    /// The queue a flow hashes to (as FQ-CoDel's, `fq_codel::FqCoDel::bucket`).
    pub fn bucket(&self, flow: u32) -> u32 {
        let mut z = (flow as u64).wrapping_add(self.perturbation);
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z % self.p.flows as u64) as u32
    }

    /// Runs every queue's PIE updates due by `now`, each at its own instant.
    fn catch_up(&mut self, now: SimTime) {
        if now < self.next_update {
            return;
        }
        let mut earliest = SimTime::MAX;
        for q in self.queues.all_mut() {
            let pie = &mut q.pie;
            while pie.next_update <= now {
                pie.update(&self.p);
                pie.next_update += self.p.t_update;
            }
            earliest = earliest.min(pie.next_update);
        }
        self.next_update = earliest;
    }

    /// `FqPieDrop`: from the queue with the most bytes, up to half of them or a batch.
    fn drop_from_fattest(&mut self, dropped: &mut Vec<Packet>) {
        let mut fattest = 0;
        let mut most = 0;
        for (b, q) in self.queues.all().iter().enumerate() {
            if q.q.bytes > most {
                most = q.q.bytes;
                fattest = b as u32;
            }
        }
        let threshold = most / 2;
        let fq = &mut self.queues[fattest];
        let (mut len, mut count) = (0u64, 0u32);
        while let Some((_, victim)) = fq.q.pop() {
            self.packets -= 1;
            self.bytes -= victim.size as u64;
            len += victim.size as u64;
            dropped.push(victim);
            count += 1;
            if count >= self.p.drop_batch || len >= threshold {
                break;
            }
        }
    }

    /// The PIE state of the queue flow `flow` hashes to.
    pub fn pie_of(&self, flow: u32) -> PieVars {
        self.queues
            .find(self.bucket(flow))
            .map(|q| self.queues[q].pie)
            .unwrap_or_default()
    }

    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.queues
            .by_bucket()
            .flat_map(|q| q.q.packets.iter().map(|(_, p)| p))
    }
}

crate::params! {
    /// The `FqPie` discipline's parameters (`queue.params`), each with its declaration.
    pub struct FqPieSettings {
        flows: u32 = Param::new("flows", 1024.0, Range::Count, "flow queues packets are hashed into").ns3("Flows"),
        quantum: u32 = Param::new("quantum", 1500.0, Range::Count, "bytes a queue may send per round (the MTU)")
            .unit(Unit::Bytes)
            .ns3("Quantum"),
        target: crate::time::SimDuration = Param::new("target", 15e9, Range::Positive, "PIE's reference queue delay")
            .unit(Unit::Time)
            .ns3("QueueDelayReference")
            .aliases(&["qdelay_ref"]),
        t_update: crate::time::SimDuration = Param::new("t_update", 15e9, Range::Positive, "period of each queue's probability update")
            .unit(Unit::Time)
            .ns3("Tupdate")
            .aliases(&["tupdate"]),
        alpha: f64 = Param::new("alpha", 0.125, Range::NonNegative, "PIE's proportional gain (per second)")
            .ns3("A"),
        beta: f64 = Param::new("beta", 1.25, Range::NonNegative, "PIE's integral gain (per second)").ns3("B"),
        max_burst: crate::time::SimDuration = Param::new("max_burst", 150e9, Range::NonNegative, "burst allowance")
            .unit(Unit::Time)
            .ns3("MaxBurstAllowance"),
        mark_ecn_threshold: f64 = Param::new(
            "mark_ecn_threshold",
            0.1,
            Range::Fraction,
            "with ecn, mark instead of dropping while drop_prob is below this",
            )
            .ns3("MarkEcnThreshold"),
        drop_batch: u32 = Param::new("drop_batch", 64.0, Range::Count, "most packets one overflow drops")
            .unit(Unit::Packets)
            .ns3("DropBatchSize"),
        ns3_lists: bool = Param::new(
            "ns3_lists",
            0.0,
            Range::Flag,
            "a new queue found empty moves to the old list even when that is empty (ns-3.44's FqPieQueueDisc::DoDequeue)",
            )
            .profile_defaults(&[("ns3", 1.0)]),
    }
}

const FQ_PIE_PARAMS: &[Param] = FqPieSettings::PARAMS;

impl QueueDiscipline for FqPie {
    const INFO: QdiscInfo = QdiscInfo {
        params: FQ_PIE_PARAMS,
        ecn: true,
        default_limit: Some(10240),
        ..QdiscInfo::new(
            "fq_pie",
            Service::Dequeue,
            "Flow queueing with PIE (RFC 8033) per queue, as Linux's sch_fq_pie and ns-3's \
             FqPieQueueDisc",
        )
    };

    type Params = FqPieSettings;

    fn new(p: &FqPieSettings, setup: &QueueSetup) -> FqPie {
        let mut rng = setup.rng.clone();
        let perturbation = rng.next_u64();
        FqPie::new(
            FqPieParams {
                limit_packets: setup.packets(),
                flows: p.flows,
                quantum: p.quantum,
                target: p.target,
                t_update: p.t_update,
                alpha: p.alpha,
                beta: p.beta,
                max_burst: p.max_burst,
                ecn: setup.ecn,
                mark_ecn_threshold: p.mark_ecn_threshold,
                drop_batch: p.drop_batch,
                ns3_lists: p.ns3_lists,
            },
            perturbation,
            rng,
        )
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, mut pkt: Packet, dropped: &mut Vec<Packet>) {
        self.catch_up(now);
        let (b, created) = self.queues.find_or_make(self.bucket(pkt.flow.0));
        let fq = &mut self.queues[b];
        if created {
            // ns-3 creates the flow's PIE at its first packet; its first update runs at once.
            fq.pie.next_update = now;
            fq.pie.update(&self.p);
            fq.pie.next_update = now + self.p.t_update;
            self.next_update = self.next_update.min(fq.pie.next_update);
        }
        let queued = fq.q.packets.len() as u64;
        if queued + 1 > self.p.limit_packets {
            dropped.push(pkt);
            return;
        }
        if fq.pie.drop_early(&self.p, queued, &mut self.rng) {
            let ect = pkt.ecn & ecn::ECT != 0;
            if self.p.ecn && fq.pie.drop_prob < self.p.mark_ecn_threshold && ect {
                pkt.ecn |= ecn::CE;
                self.marks += 1;
            } else {
                dropped.push(pkt);
                return;
            }
        }
        fq.q.push(now, pkt);
        self.packets += 1;
        self.bytes += pkt.size as u64;
        self.lists.activate(b, &mut fq.slot);
        if self.packets > self.p.limit_packets {
            self.drop_from_fattest(dropped);
        }
    }

    #[inline]
    fn dequeue(&mut self, now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        self.catch_up(now);
        loop {
            let (b, from_new) = self.lists.next(self.queues.all_mut(), |q| &mut q.slot)?;
            let fq = &mut self.queues[b];
            let Some((at, pkt)) = fq.q.pop() else {
                self.lists.emptied(b, from_new, &mut fq.slot);
                continue;
            };
            fq.pie.qdelay = if fq.q.packets.is_empty() {
                0.0
            } else {
                (now.0 - at.0) as f64 * 1e-12
            };
            fq.slot.spend(pkt.size);
            self.packets -= 1;
            self.bytes -= pkt.size as u64;
            return Some((at, pkt));
        }
    }

    #[inline]
    fn backlog(&self) -> Backlog {
        Backlog {
            packets: self.packets,
            bytes: self.bytes,
        }
    }

    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.packets().for_each(f)
    }

    #[inline]
    fn marks(&self) -> u64 {
        self.marks
    }

    fn state(&self) -> AqmState {
        let max = self
            .queues
            .all()
            .iter()
            .map(|q| q.pie.drop_prob)
            .fold(0.0, f64::max);
        AqmState {
            avg: f64::NAN,
            // The largest drop probability of any queue.
            prob: max,
            dropping: f64::NAN,
        }
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (Some(self.p.limit_packets), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> FqPieParams {
        FqPieParams {
            limit_packets: 10240,
            flows: 1024,
            quantum: 1500,
            target: SimDuration::from_millis(15),
            t_update: SimDuration::from_millis(15),
            alpha: 0.125,
            beta: 1.25,
            max_burst: SimDuration::from_millis(150),
            ecn: false,
            mark_ecn_threshold: 0.1,
            drop_batch: 64,
            ns3_lists: false,
        }
    }

    fn fq(p: FqPieParams) -> FqPie {
        FqPie::new(p, 7, RandomStream::named(1, "fq_pie"))
    }

    fn ms(x: f64) -> SimTime {
        SimTime((x * 1e9) as u64)
    }

    #[test]
    fn pie_update_follows_rfc_8033() {
        let p = params();
        let mut v = PieVars {
            qdelay: 0.035,
            ..PieVars::default()
        };
        v.update(&p);
        let expect = (0.125 * 0.02 + 1.25 * 0.035) / 2048.0;
        assert!((v.drop_prob - expect).abs() < 1e-15, "{}", v.drop_prob);
        v.drop_prob = 0.5;
        v.qdelay = 0.2;
        v.qdelay_old = 0.0;
        v.update(&p);
        assert!((v.drop_prob - 0.52).abs() < 1e-12, "capped at +0.02");
        v.qdelay = 0.0;
        v.qdelay_old = 0.0;
        v.drop_prob = 0.5;
        v.update(&p);
        assert!((v.drop_prob - (0.5 - 0.125 * 0.015) * 0.98).abs() < 1e-12);
        // A burst allowance holds drop_prob at 0 and shrinks by t_update.
        v.burst_allowance = p.max_burst.0;
        v.qdelay = 0.1;
        v.update(&p);
        assert_eq!(v.drop_prob, 0.0);
        assert_eq!(v.burst_allowance, 135_000_000_000);
    }

    #[test]
    fn first_arrival_arms_the_burst_allowance() {
        let p = params();
        let mut v = PieVars {
            drop_prob: 1.0,
            qdelay_old: 0.1,
            ..PieVars::default()
        };
        let mut rng = RandomStream::named(1, "x");
        // No allowance yet: armed, and this arrival judged (drop_prob 1: dropped).
        assert!(v.drop_early(&p, 10, &mut rng));
        assert_eq!(v.burst_allowance, p.max_burst.0);
        assert!(!v.drop_early(&p, 10, &mut rng), "protected now");
        v.burst_allowance = 0;
        assert!(
            v.drop_early(&p, 10, &mut rng),
            "not re-armed while protecting"
        );
        assert!(!v.drop_early(&p, 2, &mut rng), "two packets queued: never");
    }

    #[test]
    fn flows_share_by_quantum_and_pie_is_per_flow() {
        let mut q = fq(params());
        let mut dropped = Vec::new();
        for _ in 0..300 {
            q.enqueue(SimTime::ZERO, Packet::test_udp(0, 1, 1500), &mut dropped);
            for _ in 0..3 {
                q.enqueue(SimTime::ZERO, Packet::test_udp(0, 2, 500), &mut dropped);
            }
        }
        assert_ne!(q.bucket(1), q.bucket(2));
        let mut bytes = [0u64; 3];
        for _ in 0..400 {
            let (_, p) = q.dequeue(SimTime::ZERO, &mut dropped).unwrap();
            bytes[p.flow.0 as usize] += p.size as u64;
        }
        let share = bytes[1] as f64 / (bytes[1] + bytes[2]) as f64;
        assert!((share - 0.5).abs() < 0.02, "{bytes:?}");
    }

    /// A new queue found empty with the old list empty: Linux's and RFC 8290's rule lets it
    /// leave, so its next packet makes it new again with a fresh quantum; ns-3.44's
    /// (`ns3_lists`) moves it to the old list with what deficit it had.
    #[test]
    fn a_new_queue_found_empty_leaves_or_turns_old_as_ns3() {
        for (ns3, expect) in [
            (false, [2, 2, 1, 1, 1, 2, 2, 2]),
            (true, [2, 2, 1, 1, 2, 2, 2, 1]),
        ] {
            let mut q = fq(FqPieParams {
                ns3_lists: ns3,
                ..params()
            });
            let mut dropped = Vec::new();
            let t = SimTime::ZERO;
            q.enqueue(t, Packet::test_udp(0, 1, 500), &mut dropped);
            assert_eq!(q.dequeue(t, &mut dropped).unwrap().1.flow.0, 1);
            for _ in 0..10 {
                q.enqueue(t, Packet::test_udp(0, 2, 500), &mut dropped);
            }
            // Queue 1 is found empty ahead of queue 2 on the new list, the old list empty.
            assert_eq!(q.dequeue(t, &mut dropped).unwrap().1.flow.0, 2);
            for _ in 0..3 {
                q.enqueue(t, Packet::test_udp(0, 1, 500), &mut dropped);
            }
            let order: Vec<u32> = (0..8)
                .map(|_| q.dequeue(t, &mut dropped).unwrap().1.flow.0)
                .collect();
            assert_eq!(order, expect, "ns3_lists {ns3}");
        }
    }

    #[test]
    fn each_queue_has_its_own_pie() {
        let mut q = fq(params());
        let mut dropped = Vec::new();
        // Flow 1: ten packets at 0, one dequeued at 40 ms (qdelay 40 ms, the queue not empty).
        for _ in 0..10 {
            q.enqueue(SimTime::ZERO, Packet::test_udp(0, 1, 1500), &mut dropped);
        }
        let (_, p) = q.dequeue(ms(40.0), &mut dropped).unwrap();
        assert_eq!(p.flow.0, 1);
        // Flow 2: one packet, sent at once (its queue empties: qdelay 0).
        q.enqueue(ms(41.0), Packet::test_udp(0, 2, 1500), &mut dropped);
        let (_, p) = q.dequeue(ms(41.0), &mut dropped).unwrap();
        assert_eq!(p.flow.0, 2);
        q.catch_up(ms(1000.0));
        // Flow 1: held at 0 for its 150 ms burst allowance (armed by its first arrival), then
        // raised by alpha (0.040 - 0.015) / 2048 per update while drop_prob < 1e-6, ...
        let p1 = q.pie_of(1).drop_prob;
        assert!(p1 > 0.0, "{p1}");
        // The same sequence by hand: the update at creation (qdelay 0, no allowance yet), the
        // arrival arming the allowance, updates at 15 and 30 ms with qdelay 0, then 64 more
        // (45 ... 990 ms) with the 40 ms measured at the dequeue.
        let mut v = PieVars::default();
        v.update(&params());
        v.burst = Burst::Protecting;
        v.burst_allowance = params().max_burst.0;
        v.update(&params());
        v.update(&params());
        v.qdelay = 0.04;
        for _ in 0..64 {
            v.update(&params());
        }
        let expect = v.drop_prob;
        assert!((p1 - expect).abs() < 1e-15, "{p1} vs {expect}");
        assert_eq!(q.pie_of(2).drop_prob, 0.0);
    }

    #[test]
    fn overflow_drops_a_batch_from_the_fattest_queue() {
        let mut q = fq(FqPieParams {
            limit_packets: 20,
            ..params()
        });
        let mut dropped = Vec::new();
        for _ in 0..18 {
            q.enqueue(SimTime::ZERO, Packet::test_udp(0, 1, 1000), &mut dropped);
        }
        for _ in 0..3 {
            q.enqueue(SimTime::ZERO, Packet::test_udp(0, 2, 100), &mut dropped);
        }
        // The 21st packet overflows: flow 1 (18 000 bytes) loses half its bytes, 9 packets.
        assert_eq!(dropped.len(), 9);
        assert!(dropped.iter().all(|p| p.flow.0 == 1));
        assert_eq!(q.backlog().packets, 12);
    }
}
