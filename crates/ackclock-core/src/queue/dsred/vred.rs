//! One physical queue of ns-2.35's DiffServ RED (diffserv/dsredq.cc, `redQueue`): a FIFO of
//! every precedence's packets, and per precedence (virtual queue) its own RED state: the
//! thresholds and `max_p` of `configQ`, the average (`edv_.v_ave`), the count since the last
//! drop and the idle time.
//!
//! - `redQueue::enque`: a full physical queue (`length > qlim - 1`) drops. Under DROP mode a
//!   virtual queue of `th_min` packets drops. Otherwise the average of the virtual queues the
//!   mode names is brought up to the arrival (`calcAvg`): RIO-C averages precedence p and every
//!   higher one (p..numPrec), each over the packets of precedences 0..=that one; RIO-D only
//!   p, over its own packets; WRED one average (kept in every precedence) over the whole
//!   physical queue. An idle average first decays as if `m = int(ptc * idle)` packets had
//!   gone by (ptc: the link's rate in mean-size packets per second, `setPTC`).
//! - Then RED's test on precedence p's average: above `th_max` drop; between the thresholds
//!   count++, p_b = max_p (avg - min) / (max - min), p_a = p_b / (1 - count p_b), and
//!   `Random::uniform(0, 1) <= p_a` drops early (count = 0); at or below `th_min` count = -1.
//!   With ECN (`ecn_` and an ECT packet) the packet is queued first and a drop becomes a CE
//!   mark.
//! - `calcAvg` computes in C `float` (single precision), each step rounded to it: ns-2's
//!   average is that float stored in a double.
//! - `redQueue::updateIdleFlag` after a packet is queued, `updateREDStateVar` after one
//!   leaves: a virtual queue that empties is idle from then (RIO-C: with every lower one
//!   empty, it and the empty ones above it; RIO-D: itself; WRED: precedence 0's).

use std::collections::VecDeque;

use crate::packet::Packet;
use crate::rng::Uniform;
use crate::time::SimTime;

use super::MredMode;

/// ns-2.35's MAX_PREC (diffserv/dsredq.h).
pub const MAX_PREC: usize = 3;

/// What `redQueue::enque` did with a packet (dsred.h's PKT_* values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enq {
    Enqueued,
    /// A forced drop (full queue, DROP mode, average above `th_max`): `PKT_DROPPED`.
    Dropped,
    /// A random early drop: `PKT_EDROPPED`.
    EarlyDropped,
    /// Queued with Congestion Experienced set: `PKT_MARKED`.
    Marked,
}

/// One virtual queue's parameters and state (dsredq.h `qParam`, red.h's `edp`/`edv`).
#[derive(Clone, Copy, Debug, Default)]
pub struct VirtualQueue {
    pub th_min: f64,
    pub th_max: f64,
    pub max_p_inv: f64,
    pub q_w: f64,
    /// Packets per second of the link at the mean packet size (`edp_.ptc`).
    pub ptc: f64,
    pub mean_pktsize: f64,
    pub v_ave: f64,
    pub count: i32,
    pub qlen: i64,
    pub idle: bool,
    pub idletime: f64,
}

/// One physical queue (`redQueue`).
#[derive(Clone, Debug)]
pub struct PhysQueue {
    pub num_prec: usize,
    pub qlim: u64,
    pub mode: MredMode,
    pub v: [VirtualQueue; MAX_PREC],
    pub fifo: VecDeque<(SimTime, Packet)>,
    pub bytes: u64,
}

impl PhysQueue {
    pub fn new(num_prec: usize, qlim: u64, mode: MredMode) -> PhysQueue {
        PhysQueue {
            num_prec,
            qlim,
            mode,
            v: [VirtualQueue::default(); MAX_PREC],
            fifo: VecDeque::new(),
            bytes: 0,
        }
    }

    /// `redQueue::config`: thresholds, max_p (kept as its inverse, as ns-2 does) and the
    /// weight; the average restarts at 0, idle since `now`.
    pub fn config(&mut self, prec: usize, min: f64, max: f64, max_p: f64, q_w: f64, now: f64) {
        let v = &mut self.v[prec];
        v.qlen = 0;
        v.th_min = min;
        v.th_max = max;
        v.max_p_inv = 1.0 / max_p;
        v.q_w = q_w;
        v.v_ave = 0.0;
        v.idle = true;
        v.idletime = now;
    }

    /// `redQueue::setPTC` over the first `num_prec` virtual queues.
    pub fn set_ptc(&mut self, bw_bps: f64) {
        let n = self.num_prec;
        for v in &mut self.v[..n] {
            v.ptc = bw_bps / (8.0 * v.mean_pktsize);
        }
    }

    /// `redQueue::getRealLength`.
    pub fn len(&self) -> usize {
        self.fifo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }

    /// `redQueue::getWeightedLength`: RIO-C's last precedence's average, else their sum.
    pub fn weighted_length(&self) -> f64 {
        if self.mode == MredMode::RioC {
            self.v[self.num_prec - 1].v_ave
        } else {
            self.v[..self.num_prec].iter().map(|v| v.v_ave).sum()
        }
    }

    /// `redQueue::calcAvg(prec, m)`: m - 1 idle decays, one for this arrival, then the
    /// sample; in C float.
    fn calc_avg(&mut self, prec: usize, m: i64) {
        let q_w = self.v[prec].q_w;
        let mut f = self.v[prec].v_ave as f32;
        let mut k = m;
        loop {
            k -= 1;
            if k < 1 || f == 0.0 {
                break; // 0 stays 0: the rest of a long idle decay changes nothing
            }
            f = (f as f64 * (1.0 - q_w)) as f32;
        }
        f = (f as f64 * (1.0 - q_w)) as f32;
        match self.mode {
            MredMode::RioC => {
                for i in 0..=prec {
                    f = (f as f64 + self.v[i].q_w * self.v[i].qlen as f64) as f32;
                }
            }
            MredMode::RioD => f = (f as f64 + q_w * self.v[prec].qlen as f64) as f32,
            _ => f = (f as f64 + q_w * self.fifo.len() as f64) as f32,
        }
        if self.mode == MredMode::Wred {
            let n = self.num_prec;
            for v in &mut self.v[..n] {
                v.v_ave = f as f64;
            }
        } else {
            self.v[prec].v_ave = f as f64;
        }
    }

    /// The idle decay count of virtual queue `i` at `now` (`int(ptc * (now - idletime_))`,
    /// C's truncation), 0 when it is not idle.
    fn idle_m(&self, i: usize, now: f64) -> i64 {
        let v = &self.v[i];
        if v.idle {
            (v.ptc * (now - v.idletime)) as i64
        } else {
            0
        }
    }

    /// `redQueue::updateIdleFlag`.
    fn busy(&mut self, prec: usize) {
        match self.mode {
            MredMode::RioC => {
                let n = self.num_prec;
                for v in &mut self.v[prec..n] {
                    v.idle = false;
                }
            }
            MredMode::RioD => self.v[prec].idle = false,
            _ => self.v[0].idle = false,
        }
    }

    fn push(&mut self, now: SimTime, pkt: Packet, prec: usize) {
        self.bytes += pkt.size as u64;
        self.fifo.push_back((now, pkt));
        self.v[prec].qlen += 1;
    }

    /// `redQueue::enque`: the packet is queued (Enqueued, Marked: CE set) or given back.
    pub fn enque(
        &mut self,
        at: SimTime,
        now: f64,
        mut pkt: Packet,
        prec: usize,
        ecn: bool,
        rng: &mut Uniform,
    ) -> (Enq, Option<Packet>) {
        if self.fifo.len() as u64 > self.qlim.saturating_sub(1) || self.qlim == 0 {
            return (Enq::Dropped, Some(pkt));
        }
        match self.mode {
            MredMode::Drop => {
                if self.v[prec].qlen as f64 >= self.v[prec].th_min {
                    return (Enq::Dropped, Some(pkt));
                }
            }
            MredMode::RioC => {
                for i in prec..self.num_prec {
                    let m = self.idle_m(i, now);
                    self.calc_avg(i, m + 1);
                }
            }
            MredMode::RioD => {
                let m = self.idle_m(prec, now);
                self.calc_avg(prec, m + 1);
            }
            MredMode::Wred => {
                let m = self.idle_m(0, now);
                self.calc_avg(0, m + 1);
            }
        }
        let mut marked = false;
        let mut early = false;
        let mut drop = false;
        let v = &mut self.v[prec];
        if v.v_ave > v.th_min {
            if v.v_ave <= v.th_max {
                v.count += 1;
                let pb = (1.0 / v.max_p_inv) * (v.v_ave - v.th_min) / (v.th_max - v.th_min);
                let pa = pb / (1.0 - v.count as f64 * pb);
                let u = rng.next_f64();
                if u <= pa {
                    v.count = 0;
                    if ecn {
                        marked = true;
                    } else {
                        early = true;
                    }
                }
            } else {
                v.count = 0;
                if ecn {
                    marked = true;
                } else {
                    drop = true;
                }
            }
        } else {
            v.count = -1;
        }
        if drop {
            return (Enq::Dropped, Some(pkt));
        }
        if early {
            return (Enq::EarlyDropped, Some(pkt));
        }
        if marked {
            pkt.ecn |= crate::packet::ecn::CE;
        }
        self.push(at, pkt, prec);
        self.busy(prec);
        (if marked { Enq::Marked } else { Enq::Enqueued }, None)
    }

    /// `redQueue::deque`: the FIFO's head.
    pub fn deque(&mut self) -> Option<(SimTime, Packet)> {
        let head = self.fifo.pop_front()?;
        self.bytes -= head.1.size as u64;
        Some(head)
    }

    /// `updateVREDLen` then `updateREDStateVar` after a packet of precedence `prec` left at
    /// `now`.
    pub fn departed(&mut self, prec: usize, now: f64) {
        self.v[prec].qlen -= 1;
        if self.v[prec].qlen != 0 {
            return;
        }
        match self.mode {
            MredMode::RioC => {
                if self.v[..prec].iter().all(|v| v.qlen == 0) {
                    let n = self.num_prec;
                    for v in &mut self.v[prec..n] {
                        if v.qlen != 0 {
                            break;
                        }
                        v.idle = true;
                        v.idletime = now;
                    }
                }
            }
            MredMode::RioD => {
                self.v[prec].idle = true;
                self.v[prec].idletime = now;
            }
            MredMode::Wred => {
                self.v[0].idle = true;
                self.v[0].idletime = now;
            }
            MredMode::Drop => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;

    fn rng() -> Uniform {
        Uniform::Own(RandomStream::named(1, "t"))
    }

    /// RIO-C's average of precedence 1 counts the packets of precedences 0 and 1, each with
    /// its own weight, in C float (`calcAvg`).
    #[test]
    fn rio_c_average_counts_lower_precedences() {
        let mut q = PhysQueue::new(2, 50, MredMode::RioC);
        for v in &mut q.v {
            v.mean_pktsize = 1000.0;
        }
        q.config(0, 20.0, 40.0, 0.02, 0.002, 0.0);
        q.config(1, 10.0, 20.0, 0.1, 0.5, 0.0);
        q.set_ptc(8e6); // 1000 packets/s
        let mut r = rng();
        // Two packets of precedence 0 at t = 0, no idle decay (m = 0).
        for _ in 0..2 {
            let (e, _) = q.enque(SimTime::ZERO, 0.0, Packet::TEST, 0, false, &mut r);
            assert_eq!(e, Enq::Enqueued);
        }
        // Each precedence-0 arrival updated precedence 1's average too: 0, then 0.002 x 1.
        // A precedence-1 arrival: avg1 = avg1 x 0.5 + 0.002 x 2 + 0.5 x 0 (m = 0 at t = 0).
        let (e, _) = q.enque(SimTime::ZERO, 0.0, Packet::TEST, 1, false, &mut r);
        assert_eq!(e, Enq::Enqueued);
        let a1 = (0.002f64 * 1.0) as f32;
        let want = ((a1 as f64 * 0.5) as f32 as f64 + 0.002 * 2.0) as f32;
        assert_eq!(q.v[1].v_ave, want as f64);
    }

    /// Above th_max every arrival is dropped (count reset); DROP mode drops at th_min packets.
    #[test]
    fn forced_drops() {
        let mut q = PhysQueue::new(1, 50, MredMode::Drop);
        q.v[0].mean_pktsize = 1000.0;
        q.config(0, 2.0, 4.0, 0.1, 0.002, 0.0);
        let mut r = rng();
        for k in 0..3 {
            let (e, _) = q.enque(SimTime::ZERO, 0.0, Packet::TEST, 0, false, &mut r);
            assert_eq!(e, if k < 2 { Enq::Enqueued } else { Enq::Dropped });
        }
        let mut q = PhysQueue::new(1, 50, MredMode::RioD);
        q.v[0].mean_pktsize = 1000.0;
        q.config(0, 0.0, 0.0, 0.1, 1.0, 0.0);
        q.set_ptc(8e6);
        let _ = q.enque(SimTime::ZERO, 0.0, Packet::TEST, 0, false, &mut r);
        // avg = 1 (q_w 1, one packet waiting) > th_max 0: dropped.
        let (e, p) = q.enque(SimTime::ZERO, 0.0, Packet::TEST, 0, false, &mut r);
        assert_eq!((e, p.is_some()), (Enq::Dropped, true));
        assert_eq!(q.v[0].count, 0);
    }

    /// A full physical queue drops whatever the averages (`length > qlim - 1`).
    #[test]
    fn full_queue_drops() {
        let mut q = PhysQueue::new(1, 1, MredMode::RioC);
        q.v[0].mean_pktsize = 1000.0;
        q.config(0, 20.0, 40.0, 0.1, 0.002, 0.0);
        q.set_ptc(8e6);
        let mut r = rng();
        assert_eq!(
            q.enque(SimTime::ZERO, 0.0, Packet::TEST, 0, false, &mut r)
                .0,
            Enq::Enqueued
        );
        assert_eq!(
            q.enque(SimTime::ZERO, 0.0, Packet::TEST, 0, false, &mut r)
                .0,
            Enq::Dropped
        );
    }

    /// An idle average decays by (1 - q_w)^(m + 1), m = int(ptc * idle time).
    #[test]
    fn idle_decay() {
        let mut q = PhysQueue::new(1, 50, MredMode::RioD);
        q.v[0].mean_pktsize = 1000.0;
        q.config(0, 20.0, 40.0, 0.1, 0.5, 0.0);
        q.set_ptc(8e6); // 1000 packets/s
        q.v[0].v_ave = 8.0;
        q.v[0].idletime = 1.0;
        let mut r = rng();
        // 2.5 ms idle: m = 2, three halvings of 8: 1.
        let _ = q.enque(SimTime::ZERO, 1.0025, Packet::TEST, 0, false, &mut r);
        assert_eq!(q.v[0].v_ave, 1.0);
        assert!(!q.v[0].idle);
        let _ = q.deque();
        q.departed(0, 1.1);
        assert!(q.v[0].idle);
        assert_eq!(q.v[0].idletime, 1.1);
    }
}
