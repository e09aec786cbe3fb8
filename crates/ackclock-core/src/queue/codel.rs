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

/// The CoDel controller of one queue.
#[derive(Clone, Copy, Debug, Default)]
pub struct CoDelVars {
    /// When the sojourn time will have been above target for a whole interval; None while
    /// it is below.
    first_above_time: Option<SimTime>,
    drop_next: SimTime,
    count: u32,
    lastcount: u32,
    pub dropping: bool,
}

impl CoDelVars {
    fn control_law(t: SimTime, interval: SimDuration, count: u32) -> SimTime {
        t + SimDuration((interval.0 as f64 / (count as f64).sqrt()) as u64)
    }

    /// Pops the head and says whether it may be dropped (RFC 8289 `dodequeue`).
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
        let sojourn = SimDuration(now.0 - at.0);
        let mut ok_to_drop = false;
        if sojourn < p.target || q.bytes <= p.mtu as u64 {
            self.first_above_time = None;
        } else {
            match self.first_above_time {
                None => self.first_above_time = Some(now + p.interval),
                Some(t) if now >= t => ok_to_drop = true,
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
    /// `CoDelQueueDisc::DoDequeue`, which needs `UseEcn` for it; Linux's `codel_dequeue`).
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
            if marks == 0 && p.ecn && pkt.ecn & ecn::ECT != 0 && now.0 - at.0 > ce.0 {
                pkt.ecn |= ecn::CE;
                marks = 1;
            }
        }
        (head, marks)
    }

    /// RFC 8289's `dequeue`.
    fn dequeue_law(
        &mut self,
        now: SimTime,
        q: &mut TimedFifo,
        p: &CoDelParams,
        dropped: &mut Vec<Packet>,
    ) -> (Option<(SimTime, Packet)>, u64) {
        let (mut head, mut ok_to_drop) = self.dodequeue(now, q, p);
        let Some(_) = head else {
            self.dropping = false;
            return (None, 0);
        };
        if self.dropping {
            if !ok_to_drop {
                self.dropping = false;
            } else {
                while now >= self.drop_next && self.dropping {
                    self.count += 1;
                    let (at, mut pkt) = head.expect("a packet is in hand here");
                    if p.ecn && pkt.ecn & ecn::ECT != 0 {
                        pkt.ecn |= ecn::CE;
                        self.drop_next = Self::control_law(self.drop_next, p.interval, self.count);
                        return (Some((at, pkt)), 1);
                    }
                    dropped.push(pkt);
                    (head, ok_to_drop) = self.dodequeue(now, q, p);
                    if head.is_none() || !ok_to_drop {
                        self.dropping = false;
                    } else {
                        self.drop_next = Self::control_law(self.drop_next, p.interval, self.count);
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
                (head, _) = self.dodequeue(now, q, p);
            }
            self.dropping = true;
            let delta = self.count.saturating_sub(self.lastcount);
            self.count = 1;
            if delta > 1 && now.0.saturating_sub(self.drop_next.0) < 16 * p.interval.0 {
                self.count = delta;
            }
            self.drop_next = Self::control_law(now, p.interval, self.count);
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
pub(super) const CODEL_PARAMS: [Param; 4] = [
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
];

crate::params! {
    /// The `CoDel` discipline's parameters (`queue.params`), each with its declaration.
    pub struct CoDelSettings {
        target: crate::time::SimDuration = CODEL_PARAMS[0],
        interval: crate::time::SimDuration = CODEL_PARAMS[1],
        mtu: u32 = CODEL_PARAMS[2],
        ce_threshold: crate::time::SimDuration = CODEL_PARAMS[3],
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
}
