//! CoDel, Controlled Delay: RFC 8289.
//!
//! A FIFO whose dequeue watches each packet's sojourn time (dequeue time - enqueue time).
//! When the sojourn has stayed at or above `target` (5 ms) for at least `interval` (100 ms)
//! while more than one MTU is queued, CoDel enters the dropping state: it drops the head
//! packet, then drops again at intervals of interval / sqrt(count) (the control law,
//! section 3.3) until the sojourn falls below target or the backlog below one MTU. Re-entering
//! soon after leaving (within 16 intervals) resumes from the count the last episode ended
//! with (section 5.5's "count - lastcount"). With ECN, an ECN-capable packet is marked CE
//! instead of dropped and sent.
//!
//! `CoDelVars` is the controller of one queue, so FQ-CoDel (RFC 8290) can run one per flow.

use std::collections::VecDeque;

use super::{
    AqmState, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service, Unit,
};
use crate::packet::{ecn, Packet};
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Copy, Debug)]
pub struct CoDelParams {
    pub limit_packets: u64,
    pub target: SimDuration,
    pub interval: SimDuration,
    /// The MTU of the "more than one packet queued" test, in bytes.
    pub mtu: u32,
    pub ecn: bool,
    /// Mark an ECN-capable packet whose sojourn exceeds this (Linux's and ns-3's
    /// `ce_threshold`/`CeThreshold`, for DCTCP-style marking); None: never.
    pub ce_threshold: Option<SimDuration>,
    /// ns-3.44's `CoDelQueueDisc` arithmetic (see [`CoDelVars`]): 1024 ns ticks, the
    /// fixed-point Newton step for 1/sqrt(count), and an ECN mark in the dropping state
    /// scheduling the next from now.
    pub ns3: bool,
}

/// A FIFO of packets with their enqueue times and its byte count.
#[derive(Clone, Debug, Default)]
pub struct TimedFifo {
    pub packets: VecDeque<(SimTime, Packet)>,
    pub bytes: u64,
}

impl TimedFifo {
    #[inline]
    pub fn push(&mut self, now: SimTime, pkt: Packet) {
        self.bytes += pkt.size as u64;
        self.packets.push_back((now, pkt));
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, Packet)> {
        let head = self.packets.pop_front()?;
        self.bytes -= head.1.size as u64;
        Some(head)
    }

    #[inline]
    pub fn backlog(&self) -> Backlog {
        Backlog {
            packets: self.packets.len() as u64,
            bytes: self.bytes,
        }
    }
}

/// One tick of ns-3.44's CoDel clock in picoseconds: 1024 ns (`CoDelGetTime` and
/// `CoDelQueueDisc::Time2CoDel` shift nanoseconds right by `CODEL_SHIFT`, 10).
const NS3_TICK: u64 = 1_024_000;

/// ns-3.44's `CoDelQueueDisc::NewtonStep` (Linux's `codel_Newton_step`): one Newton
/// iteration, y (3 - count y^2) / 2, of 1/sqrt(count) in 16-bit fixed point, from the value
/// the previous count left (so the first steps from 1 undershoot: 0.5 for count 2).
fn newton_step(rec_inv_sqrt: u16, count: u32) -> u16 {
    let invsqrt = (rec_inv_sqrt as u64) << 16;
    let invsqrt2 = (invsqrt * invsqrt) >> 32;
    let val = (3u64 << 32).wrapping_sub(count as u64 * invsqrt2) >> 2;
    (val.wrapping_mul(invsqrt) >> (32 - 2 + 1) >> 16) as u16
}

/// The CoDel controller of one queue. Its times are in the clock's unit: picoseconds, or
/// with `ns3` ns-3.44's 1024 ns ticks.
#[derive(Clone, Copy, Debug, Default)]
pub struct CoDelVars {
    /// When the sojourn time will have been above target for a whole interval; None while
    /// it is below.
    first_above_time: Option<u64>,
    drop_next: u64,
    count: u32,
    lastcount: u32,
    /// 1/sqrt(count) in 16-bit fixed point (`ns3` only).
    rec_inv_sqrt: u16,
    pub dropping: bool,
}

impl CoDelVars {
    /// A time or duration in the clock's unit (ns-3 truncates to whole ticks).
    #[inline]
    fn clock(ps: u64, p: &CoDelParams) -> u64 {
        if p.ns3 {
            ps / NS3_TICK
        } else {
            ps
        }
    }

    /// RFC 8289's control law, t + interval / sqrt(count); with `ns3`, ns-3.44's
    /// `CoDelQueueDisc::ControlLaw`: t + interval x rec_inv_sqrt in fixed point
    /// (`ReciprocalDivide`).
    fn control_law(&self, t: u64, p: &CoDelParams) -> u64 {
        let interval = Self::clock(p.interval.0, p);
        if p.ns3 {
            t + ((interval * ((self.rec_inv_sqrt as u64) << 16)) >> 32)
        } else {
            t + (interval as f64 / (self.count as f64).sqrt()) as u64
        }
    }

    /// Pops the head and says whether it may be dropped (RFC 8289 `dodequeue`). With `ns3`,
    /// ns-3.44's `CoDelQueueDisc::OkToDrop`: sojourn and target in whole ticks, a backlog
    /// below `mtu` (`MinBytes`) rather than at most one MTU, and a drop only strictly after
    /// first_above_time.
    fn dodequeue(
        &mut self,
        now: SimTime,
        q: &mut TimedFifo,
        p: &CoDelParams,
    ) -> (Option<(SimTime, Packet)>, bool) {
        let Some((at, pkt)) = q.pop() else {
            self.first_above_time = None;
            return (None, false);
        };
        let sojourn = Self::clock(now.0 - at.0, p);
        let little = if p.ns3 {
            q.bytes < p.mtu as u64
        } else {
            q.bytes <= p.mtu as u64
        };
        let mut ok_to_drop = false;
        if sojourn < Self::clock(p.target.0, p) || little {
            self.first_above_time = None;
        } else {
            let now = Self::clock(now.0, p);
            match self.first_above_time {
                None => self.first_above_time = Some(now + Self::clock(p.interval.0, p)),
                Some(t) if now > t || (now == t && !p.ns3) => ok_to_drop = true,
                Some(_) => {}
            }
        }
        (Some((at, pkt)), ok_to_drop)
    }

    /// The next packet to send from `q`; packets dropped go to `dropped`. Returns the number
    /// of ECN marks made with the packet.
    ///
    /// With a CE threshold, the packet sent is also marked if it is ECN-capable, the control
    /// law did not mark it already and its sojourn exceeds the threshold (ns-3.44's
    /// `CoDelQueueDisc::DoDequeue`, which needs `UseEcn` for it and compares whole ticks;
    /// Linux's `codel_dequeue`).
    #[inline]
    pub fn dequeue(
        &mut self,
        now: SimTime,
        q: &mut TimedFifo,
        p: &CoDelParams,
        dropped: &mut Vec<Packet>,
    ) -> (Option<(SimTime, Packet)>, u64) {
        let (mut head, mut marks) = self.dequeue_law(now, q, p, dropped);
        if let (Some(ce), Some((at, pkt))) = (p.ce_threshold, head.as_mut()) {
            if marks == 0
                && p.ecn
                && pkt.ecn & ecn::ECT != 0
                && Self::clock(now.0 - at.0, p) > Self::clock(ce.0, p)
            {
                pkt.ecn |= ecn::CE;
                marks = 1;
            }
        }
        (head, marks)
    }

    /// RFC 8289's `dequeue`; with `ns3`, ns-3.44's `CoDelQueueDisc::DoDequeue`.
    fn dequeue_law(
        &mut self,
        now_time: SimTime,
        q: &mut TimedFifo,
        p: &CoDelParams,
        dropped: &mut Vec<Packet>,
    ) -> (Option<(SimTime, Packet)>, u64) {
        if p.ns3 && q.packets.is_empty() {
            // ns-3.44's `CoDelQueueDisc::DoDequeue` leaves the dropping state on an empty
            // queue and returns before `OkToDrop`: first_above_time stays (RFC 8289's
            // `dodequeue` and Linux's `codel_should_drop` clear it).
            self.dropping = false;
            return (None, 0);
        }
        let (mut head, mut ok_to_drop) = self.dodequeue(now_time, q, p);
        let Some(_) = head else {
            self.dropping = false;
            return (None, 0);
        };
        let now = Self::clock(now_time.0, p);
        if self.dropping {
            if !ok_to_drop {
                self.dropping = false;
            } else {
                while now >= self.drop_next && self.dropping {
                    self.count += 1;
                    if p.ns3 {
                        self.rec_inv_sqrt = newton_step(self.rec_inv_sqrt, self.count);
                    }
                    let (at, mut pkt) = head.expect("a packet is in hand here");
                    if p.ecn && pkt.ecn & ecn::ECT != 0 {
                        pkt.ecn |= ecn::CE;
                        // RFC 8289 (and Linux's codel_dequeue) schedules the next mark from
                        // drop_next; ns-3.44's DoDequeue from now, which spaces marks out
                        // by however late this dequeue came.
                        let from = if p.ns3 { now } else { self.drop_next };
                        self.drop_next = self.control_law(from, p);
                        return (Some((at, pkt)), 1);
                    }
                    dropped.push(pkt);
                    (head, ok_to_drop) = self.dodequeue(now_time, q, p);
                    if head.is_none() || !ok_to_drop {
                        self.dropping = false;
                    } else {
                        self.drop_next = self.control_law(self.drop_next, p);
                    }
                }
            }
        } else if ok_to_drop {
            let (at, mut pkt) = head.expect("a packet is in hand here");
            let mut marks = 0;
            if p.ecn && pkt.ecn & ecn::ECT != 0 {
                pkt.ecn |= ecn::CE;
                head = Some((at, pkt));
                marks = 1;
            } else {
                dropped.push(pkt);
                (head, _) = self.dodequeue(now_time, q, p);
            }
            self.dropping = true;
            let delta = self.count.saturating_sub(self.lastcount);
            // "now - drop_next" within 16 intervals: ns-3 subtracts in uint32_t and compares
            // as int64_t, so a drop_next still ahead counts as long ago.
            let recent = if p.ns3 {
                now >= self.drop_next && now - self.drop_next < 16 * Self::clock(p.interval.0, p)
            } else {
                now.saturating_sub(self.drop_next) < 16 * p.interval.0
            };
            if delta > 1 && recent {
                self.count = delta;
                if p.ns3 {
                    // One Newton step from the last episode's value, as ns-3 and Linux do.
                    self.rec_inv_sqrt = newton_step(self.rec_inv_sqrt, self.count);
                }
            } else {
                self.count = 1;
                self.rec_inv_sqrt = u16::MAX; // ~0U >> REC_INV_SQRT_SHIFT
            }
            self.drop_next = self.control_law(now, p);
            self.lastcount = self.count;
            return (head, marks);
        }
        (head, 0)
    }
}

#[derive(Clone, Debug)]
pub struct CoDel {
    p: CoDelParams,
    q: TimedFifo,
    vars: CoDelVars,
    pub marks: u64,
}

impl CoDel {
    pub fn new(p: CoDelParams) -> CoDel {
        CoDel {
            p,
            q: TimedFifo::default(),
            vars: CoDelVars::default(),
            marks: 0,
        }
    }

    /// Every packet waiting (for the invariant checker).
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.q.packets.iter().map(|(_, p)| p)
    }
}

/// CoDel's parameters, FQ-CoDel's first.
pub(super) const CODEL_PARAMS: [Param; 5] = [
    Param::new(
        "target",
        5e9,
        Range::Positive,
        "acceptable standing queue delay",
    )
    .unit(Unit::Time)
    .ns2("target_")
    .ns3("Target"),
    Param::new(
        "interval",
        100e9,
        Range::Positive,
        "window the delay must stay above target",
    )
    .unit(Unit::Time)
    .ns2("interval_")
    .ns3("Interval"),
    Param::new(
        "mtu",
        1500.0,
        Range::Count,
        "dropping needs more than this queued",
    )
    .unit(Unit::Bytes)
    .ns3("MinBytes"),
    Param::new(
        "ce_threshold",
        0.0,
        Range::NonNegative,
        "with ecn, mark above this sojourn (0: off)",
    )
    .unit(Unit::Time)
    .ns3("CeThreshold"),
    // On in the ns3 profile only: Linux has the same fixed-point law (codel_Newton_step), but
    // the linux profile keeps RFC 8289's exact square root it has always had.
    Param::new(
        "ns3_model",
        0.0,
        Range::Flag,
        "ns-3.44's CoDelQueueDisc arithmetic",
    )
    .profile_defaults(&[("ns3", 1.0)]),
];

crate::params! {
    /// The `CoDel` discipline's parameters (`queue.params`), each with its declaration.
    pub struct CoDelSettings {
        target: crate::time::SimDuration = CODEL_PARAMS[0],
        interval: crate::time::SimDuration = CODEL_PARAMS[1],
        mtu: u32 = CODEL_PARAMS[2],
        ce_threshold: crate::time::SimDuration = CODEL_PARAMS[3],
        ns3_model: bool = CODEL_PARAMS[4],
    }
}

/// CoDel's parameters from the settings CoDel and FQ-CoDel share and the link (a macro: their
/// settings are two types with the same fields).
macro_rules! codel_params {
    ($p:expr, $setup:expr) => {
        $crate::queue::codel::CoDelParams {
            limit_packets: $setup.packets(),
            target: $p.target,
            interval: $p.interval,
            mtu: $p.mtu,
            ecn: $setup.ecn,
            ce_threshold: Some($p.ce_threshold).filter(|t| t.0 > 0),
            ns3: $p.ns3_model,
        }
    };
}
pub(super) use codel_params;

impl QueueDiscipline for CoDel {
    const INFO: QdiscInfo = QdiscInfo {
        params: &CODEL_PARAMS,
        ecn: true,
        ..QdiscInfo::new("codel", Service::Dequeue, "Controlled Delay, RFC 8289")
    };

    type Params = CoDelSettings;

    fn new(p: &CoDelSettings, setup: &QueueSetup) -> CoDel {
        CoDel::new(codel_params!(p, setup))
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        if self.q.packets.len() as u64 >= self.p.limit_packets {
            dropped.push(pkt);
            return;
        }
        self.q.push(now, pkt);
    }

    #[inline]
    fn dequeue(&mut self, now: SimTime, dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        let (head, marks) = self.vars.dequeue(now, &mut self.q, &self.p, dropped);
        self.marks += marks;
        head
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
            prob: f64::NAN,
            dropping: if self.vars.dropping { 1.0 } else { 0.0 },
        }
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (Some(self.p.limit_packets), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(id: u64) -> Packet {
        Packet::test_udp(id, 0, 1000)
    }

    fn ms(x: f64) -> SimTime {
        SimTime((x * 1e9) as u64)
    }

    fn codel() -> CoDel {
        CoDel::new(CoDelParams {
            limit_packets: 100_000,
            target: SimDuration::from_millis(5),
            interval: SimDuration::from_millis(100),
            mtu: 1500,
            ecn: false,
            ce_threshold: None,
            ns3: false,
        })
    }

    /// A standing queue: every packet has waited 20 ms. Drop times must follow
    /// t_k = t_{k-1} + interval / sqrt(k).
    #[test]
    fn drops_follow_interval_over_sqrt_count() {
        let mut c = codel();
        let mut dropped = Vec::new();
        let mut id = 0;
        // Keep 50 packets queued, each enqueued 20 ms before its dequeue; dequeue every 1 ms.
        let mut drop_times = Vec::new();
        for step in 0..2000u64 {
            let now = ms(20.0 + step as f64);
            while c.backlog().packets < 50 {
                c.enqueue(ms(step as f64), pkt(id), &mut dropped);
                id += 1;
            }
            let before = dropped.len();
            c.dequeue(now, &mut dropped);
            for _ in before..dropped.len() {
                drop_times.push(now);
            }
        }
        assert!(drop_times.len() > 10, "{}", drop_times.len());
        // First drop one interval after the sojourn first exceeded target (at the first
        // dequeue, 20 ms).
        assert_eq!(drop_times[0], ms(120.0));
        for k in 1..drop_times.len().min(30) {
            let gap = (drop_times[k].0 - drop_times[k - 1].0) as f64 / 1e9;
            let law = 100.0 / (k as f64).sqrt();
            // Dequeues happen every 1 ms, so a drop lands on the first dequeue at or after
            // its scheduled time.
            assert!(
                (gap - law).abs() <= 1.0 + 1e-9,
                "drop {k}: gap {gap} ms, law {law} ms"
            );
        }
    }

    #[test]
    fn an_empty_dequeue_keeps_first_above_time_under_ns3() {
        // ns-3.44's CoDelQueueDisc::DoDequeue returns on an empty queue before OkToDrop:
        // it leaves the dropping state but keeps first_above_time; RFC 8289's dodequeue
        // clears it.
        for ns3 in [false, true] {
            let mut c = codel();
            c.p.ns3 = ns3;
            let mut dropped = Vec::new();
            for i in 0..3 {
                c.enqueue(ms(0.0), pkt(i), &mut dropped);
            }
            // Sojourn 20 ms with 2000 bytes left: above target from now.
            assert!(c.dequeue(ms(20.0), &mut dropped).is_some());
            assert!(c.vars.first_above_time.is_some());
            c.vars.dropping = true;
            let mut empty = TimedFifo::default();
            let (head, _) = c.vars.dequeue(ms(21.0), &mut empty, &c.p, &mut dropped);
            assert!(head.is_none());
            assert!(!c.vars.dropping);
            assert_eq!(c.vars.first_above_time.is_some(), ns3, "ns3 {ns3}");
        }
    }

    #[test]
    fn short_sojourn_never_drops() {
        let mut c = codel();
        let mut dropped = Vec::new();
        for i in 0..10_000u64 {
            c.enqueue(ms(i as f64), pkt(i), &mut dropped);
            c.enqueue(ms(i as f64), pkt(i), &mut dropped);
            c.dequeue(ms(i as f64 + 4.0), &mut dropped);
            c.dequeue(ms(i as f64 + 4.0), &mut dropped);
        }
        assert!(dropped.is_empty());
        assert_eq!(c.state().dropping, 0.0);
    }

    #[test]
    fn ecn_capable_packets_are_marked_not_dropped() {
        let mut c = CoDel::new(CoDelParams {
            ecn: true,
            ..codel().p
        });
        let mut dropped = Vec::new();
        let mut marked = 0;
        let mut id = 0;
        for step in 0..2000u64 {
            while c.backlog().packets < 50 {
                let mut p = pkt(id);
                p.ecn = ecn::ECT;
                c.enqueue(ms(step as f64), p, &mut dropped);
                id += 1;
            }
            if let Some((_, p)) = c.dequeue(ms(20.0 + step as f64), &mut dropped) {
                if p.ecn & ecn::CE != 0 {
                    marked += 1;
                }
            }
        }
        assert!(dropped.is_empty());
        assert!(marked > 10);
        assert_eq!(marked, c.marks);
    }

    /// DCTCP-style marking: every ECN-capable packet that waited more than the threshold is
    /// marked, those that waited less are not, long before the control law would act.
    #[test]
    fn ce_threshold_marks_by_sojourn() {
        let mut c = CoDel::new(CoDelParams {
            ecn: true,
            ce_threshold: Some(SimDuration::from_millis(1)),
            ..codel().p
        });
        let mut dropped = Vec::new();
        for (i, wait) in [0.5, 1.5, 0.9, 3.0, 1.0].iter().enumerate() {
            let mut p = pkt(i as u64);
            p.ecn = ecn::ECT;
            c.enqueue(ms(0.0), p, &mut dropped);
            let (_, p) = c.dequeue(ms(*wait), &mut dropped).unwrap();
            assert_eq!(p.ecn & ecn::CE != 0, *wait > 1.0, "sojourn {wait} ms");
        }
        assert_eq!(c.marks, 2);
        // Not ECN-capable: never marked, and not dropped for it.
        c.enqueue(ms(0.0), pkt(9), &mut dropped);
        let (_, p) = c.dequeue(ms(4.0), &mut dropped).unwrap();
        assert_eq!(p.ecn & ecn::CE, 0);
        assert!(dropped.is_empty());
    }
    fn ns3_codel(ecn: bool) -> CoDel {
        CoDel::new(CoDelParams {
            ecn,
            ns3: true,
            ..codel().p
        })
    }

    /// ns-3.44's `CoDelQueueDisc::NewtonStep` is one step of y (3 - count y^2) / 2 from the
    /// previous count's value, starting from 1 (~0U >> 16) at count 1: 0.5 at count 2, not
    /// 1/sqrt(2), converging on 1/sqrt(count) after a few counts.
    #[test]
    fn ns3_newton_step_is_one_iteration_per_count() {
        let mut fixed = u16::MAX;
        let mut y = 1.0f64;
        for count in 2..200u32 {
            fixed = newton_step(fixed, count);
            y = y * (3.0 - count as f64 * y * y) / 2.0;
            assert!((fixed as f64 / 65536.0 - y).abs() < 1e-3, "count {count}");
        }
        assert!((newton_step(u16::MAX, 2) as f64 / 65536.0 - 0.5).abs() < 1e-3);
        assert!((fixed as f64 / 65536.0 - 1.0 / 199f64.sqrt()).abs() < 1e-3);
    }

    /// The standing queue of `drops_follow_interval_over_sqrt_count` under ns-3's arithmetic:
    /// the gaps follow interval x the Newton iterate (100, 50, 56.25, 48.77, ... ms), not
    /// interval / sqrt(count) (100, 70.7, 57.7, 50, ...).
    #[test]
    fn ns3_drops_follow_the_newton_iterate() {
        let mut c = ns3_codel(false);
        let mut dropped = Vec::new();
        let mut id = 0;
        let mut drop_times = Vec::new();
        for step in 0..1000u64 {
            let now = ms(20.0 + step as f64);
            while c.backlog().packets < 50 {
                c.enqueue(ms(step as f64), pkt(id), &mut dropped);
                id += 1;
            }
            let before = dropped.len();
            c.dequeue(now, &mut dropped);
            for _ in before..dropped.len() {
                drop_times.push(now);
            }
        }
        // First drop strictly after one interval (in 1024 ns ticks) from the first dequeue.
        assert_eq!(drop_times[0], ms(121.0));
        let mut y = 1.0f64;
        for k in 1..drop_times.len().min(12) {
            let gap = (drop_times[k].0 - drop_times[k - 1].0) as f64 / 1e9;
            // Drop k - 1 left count k and the iterate for k (1 for the entering drop).
            if k > 1 {
                y = y * (3.0 - k as f64 * y * y) / 2.0;
            }
            assert!(
                (gap - 100.0 * y).abs() <= 1.0 + 1e-9,
                "drop {k}: gap {gap} ms, ns-3's law {} ms",
                100.0 * y
            );
        }
        let first_gaps: Vec<f64> = drop_times[..3]
            .windows(2)
            .map(|w| (w[1].0 - w[0].0) as f64 / 1e9)
            .collect();
        assert_eq!(first_gaps, [100.0, 50.0]);
    }

    /// A mark in the dropping state: RFC 8289 (and Linux) schedule the next one from the
    /// mark's scheduled time, ns-3.44's `DoDequeue` from the dequeue that marked.
    #[test]
    fn ns3_schedules_the_next_mark_from_now() {
        for ns3 in [false, true] {
            let mut c = CoDel::new(CoDelParams {
                ecn: true,
                ns3,
                ..codel().p
            });
            let mut dropped = Vec::new();
            let mut marked_at = Vec::new();
            // Every packet waited 20 ms; dequeues at 20 ms (above target from here), 121
            // (enter: mark, next at 221), 251 (30 ms late: mark, count 2), then 292.
            for (i, t) in [20.0, 121.0, 251.0, 292.0].into_iter().enumerate() {
                for j in 0..3 {
                    let mut p = pkt(10 * i as u64 + j);
                    p.ecn = ecn::ECT;
                    c.enqueue(ms(t - 20.0), p, &mut dropped);
                }
                let (_, p) = c.dequeue(ms(t), &mut dropped).unwrap();
                if p.ecn & ecn::CE != 0 {
                    marked_at.push(t);
                }
            }
            // RFC: next after 251 is 221 + 70.7 = 291.7 (292 marks); ns-3: 251 + 50 = 301.
            let expect: &[f64] = if ns3 {
                &[121.0, 251.0]
            } else {
                &[121.0, 251.0, 292.0]
            };
            assert_eq!(marked_at, expect, "ns3 {ns3}");
            assert!(dropped.is_empty());
        }
    }
}
