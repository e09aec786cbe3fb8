//! PI, the proportional-integral AQM controller: C. V. Hollot, V. Misra, D. Towsley, W. Gong,
//! "On Designing Improved Controllers for AQM Routers Supporting TCP Flows", IEEE INFOCOM
//! 2001 (section V: the digital PI controller); as ns-2.35's `Queue/PI` (queue/pi.cc) runs it.
//!
//! - Every 1/w seconds (the sampling frequency w) the drop probability follows the paper's
//!   difference equation p(kT) = a (q(kT) - q_ref) - b (q((k-1)T) - q_ref) + p((k-1)T),
//!   clamped to [0, 1] (`PIQueue::calculate_p`). q is the backlog waiting at the sampling
//!   instant, in packets, or with `queue_in_bytes` in bytes divided by `mean_pktsize` (q_ref
//!   stays in packets). The sampling instants are ns-2's: the timer is restarted when the run
//!   starts (`Simulator instproc run` resets every queue, `PIQueue::reset` computes p once and
//!   schedules the timer) and each instant is the previous one plus 1/w in doubles
//!   (`PICalcTimer::expire`, `TimerHandler::resched`).
//! - On arrival (`PIQueue::enque`): a backlog at the limit (in packets, or `limit *
//!   mean_pktsize` bytes with `queue_in_bytes`) drops the arrival, drawing nothing. Otherwise
//!   one uniform number u is drawn (`PIQueue::drop_early`, ns-2's `Random::uniform()` in an
//!   ns-2 script's run) and u <= p drops the arrival, or marks it CE when ECN is on and the
//!   packet is ECN-capable (`setbit_`); with `bytes` p is first scaled by size /
//!   mean_pktsize (capped at 1).
//!
//! Updates are computed lazily as PIE's (`pie.rs`): the link calls `update_due` / `update` as
//! time passes, so PI adds no events of its own.

use super::{
    AqmState, Arrival, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service,
    Unit, VarTrace, Verdict,
};
use crate::rng::Uniform;
use crate::time::{SimTime, PS_PER_S};

#[derive(Clone, Copy, Debug)]
pub struct PiParams {
    pub limit_packets: u64,
    pub a: f64,
    pub b: f64,
    /// Sampling frequency, updates per second.
    pub w: f64,
    /// Reference queue, packets.
    pub qref: f64,
    pub mean_pktsize: u32,
    pub bytes: bool,
    pub queue_in_bytes: bool,
    pub ecn: bool,
}

#[derive(Clone, Debug)]
pub struct Pi {
    p: PiParams,
    prob: f64,
    /// The backlog of the last update (ns-2's `qold`, an int in packets or bytes).
    qold: u64,
    /// The next update instant as ns-2's scheduler holds it (seconds, a double), and in
    /// picoseconds.
    next_s: f64,
    next_update: SimTime,
    rng: Uniform,
    pub marks: u64,
    pub early_drops: u64,
    pub forced_drops: u64,
    /// `curq_` changes, when traced ([`VarTrace`]; the average column stays 0).
    var_trace: Option<Box<VarTrace>>,
}

/// A scheduler double in picoseconds, to the nearest.
fn ps(t: f64) -> SimTime {
    SimTime((t * PS_PER_S as f64).round() as u64)
}

impl Pi {
    pub fn new(p: PiParams, rng: Uniform) -> Pi {
        // PIQueue::reset at the start of the run: p = (b - a) q_ref clamped (0 with a > b),
        // and the first update 1/w later.
        let mut pi = Pi {
            p,
            prob: 0.0,
            qold: 0,
            next_s: 0.0,
            next_update: SimTime::ZERO,
            rng,
            marks: 0,
            early_drops: 0,
            forced_drops: 0,
            var_trace: None,
        };
        pi.update(Backlog::default());
        pi
    }

    /// The backlog in the unit the queue is measured in.
    #[inline]
    fn qlen(&self, b: Backlog) -> u64 {
        if self.p.queue_in_bytes {
            b.bytes
        } else {
            b.packets
        }
    }

    /// `PIQueue::calculate_p` at an update instant, with the backlog waiting then.
    pub fn update(&mut self, waiting: Backlog) {
        let qlen = self.qlen(waiting);
        let (a, b, qref) = (self.p.a, self.p.b, self.p.qref);
        let p = if self.p.queue_in_bytes {
            let m = self.p.mean_pktsize as f64;
            a * (qlen as f64 / m - qref) - b * (self.qold as f64 / m - qref) + self.prob
        } else {
            a * (qlen as f64 - qref) - b * (self.qold as f64 - qref) + self.prob
        };
        self.prob = p.clamp(0.0, 1.0);
        self.qold = qlen;
        self.next_s += 1.0 / self.p.w;
        self.next_update = ps(self.next_s);
    }

    pub fn admit(&mut self, a: &Arrival) -> Verdict {
        let qlen = self.qlen(a.backlog);
        // PIQueue::enque: curq_ is the backlog the arrival finds, whatever becomes of it.
        if let Some(t) = self.var_trace.as_deref_mut() {
            t.record(a.now, qlen as f64, 0.0);
        }
        let qlim = if self.p.queue_in_bytes {
            self.p
                .limit_packets
                .saturating_mul(self.p.mean_pktsize as u64)
        } else {
            self.p.limit_packets
        };
        if qlen >= qlim {
            self.forced_drops += 1;
            return Verdict::Drop;
        }
        let mut p = self.prob;
        if self.p.bytes {
            p = (p * a.size as f64 / self.p.mean_pktsize as f64).min(1.0);
        }
        if self.rng.next_f64() <= p {
            if self.p.ecn && a.ect() {
                self.marks += 1;
                return Verdict::Mark;
            }
            self.early_drops += 1;
            return Verdict::Drop;
        }
        Verdict::Admit
    }

    pub fn prob(&self) -> f64 {
        self.prob
    }
}

crate::params! {
    /// The `Pi` discipline's parameters (`queue.params`), each with its declaration; the
    /// defaults are ns-2.35's (tcl/lib/ns-default.tcl).
    pub struct PiSettings {
        a: f64 = Param::new("a", 0.00001822, Range::NonNegative, "weight of the queue's distance from q_ref")
            .ns2("a_"),
        b: f64 = Param::new("b", 0.00001816, Range::NonNegative, "weight of the last sample's distance from q_ref")
            .ns2("b_"),
        w: f64 = Param::new("w", 170.0, Range::Positive, "sampling frequency (updates per second)")
            .ns2("w_"),
        qref: f64 = Param::new("qref", 50.0, Range::NonNegative, "reference queue q_ref")
            .unit(Unit::Packets)
            .ns2("qref_"),
        mean_pktsize: u32 = Param::new("mean_pktsize", 500.0, Range::Count, "bytes per packet of a queue in bytes")
            .unit(Unit::Bytes)
            .ns2("mean_pktsize_"),
        bytes: bool = Param::new("bytes", 0.0, Range::Flag, "drop probability scaled by packet size")
            .ns2("bytes_"),
        queue_in_bytes: bool = Param::new("queue_in_bytes", 0.0, Range::Flag, "queue measured in bytes")
            .ns2("queue_in_bytes_"),
    }
}

const PI_PARAMS: &[Param] = PiSettings::PARAMS;

impl QueueDiscipline for Pi {
    const INFO: QdiscInfo = QdiscInfo {
        params: PI_PARAMS,
        ecn: true,
        ..QdiscInfo::new(
            "pi",
            Service::Enqueue,
            "PI controller (Hollot, Misra, Towsley, Gong 2001) as ns-2.35's Queue/PI",
        )
    };

    type Params = PiSettings;

    const PERIODIC: bool = true;

    fn new(p: &PiSettings, setup: &QueueSetup) -> Pi {
        Pi::new(
            PiParams {
                limit_packets: setup.packets(),
                a: p.a,
                b: p.b,
                w: p.w,
                qref: p.qref,
                mean_pktsize: p.mean_pktsize,
                bytes: p.bytes,
                queue_in_bytes: p.queue_in_bytes,
                ecn: setup.ecn,
            },
            Uniform::Own(setup.rng.clone()),
        )
    }

    #[inline]
    fn admit(&mut self, a: &Arrival) -> Verdict {
        Pi::admit(self, a)
    }

    #[inline]
    fn update_due(&self) -> SimTime {
        self.next_update
    }

    fn update(&mut self, waiting: Backlog) {
        Pi::update(self, waiting)
    }

    fn random(&mut self) -> Option<&mut Uniform> {
        Some(&mut self.rng)
    }

    fn var_trace(&mut self) -> Option<&mut Option<Box<VarTrace>>> {
        Some(&mut self.var_trace)
    }

    /// PIQueue::deque: curq_ is the backlog left after the departure.
    fn departed(&mut self, now: SimTime, waiting: Backlog) {
        let q = self.qlen(waiting) as f64;
        if let Some(t) = self.var_trace.as_deref_mut() {
            t.record(now, q, 0.0);
        }
    }

    fn state(&self) -> AqmState {
        AqmState {
            avg: f64::NAN,
            prob: self.prob,
            dropping: f64::NAN,
        }
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (
            (!self.p.queue_in_bytes).then_some(self.p.limit_packets),
            None,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;

    fn params() -> PiParams {
        PiParams {
            limit_packets: 25,
            a: 0.00743488595689,
            b: 0.00736090699216,
            w: 435.3741496598639,
            qref: 6.0,
            mean_pktsize: 1000,
            bytes: false,
            queue_in_bytes: false,
            ecn: false,
        }
    }

    fn pi(p: PiParams) -> Pi {
        Pi::new(p, Uniform::Own(RandomStream::named(1, "pi")))
    }

    fn pkts(n: u64) -> Backlog {
        Backlog {
            packets: n,
            bytes: n * 1000,
        }
    }

    fn arrival(backlog: Backlog, size: u32, pkt: &crate::packet::Packet) -> Arrival<'_> {
        Arrival {
            now: SimTime::ZERO,
            backlog,
            size,
            pkt,
            idle_since: None,
            busy_until: SimTime::ZERO,
            idle_ns2: None,
        }
    }

    /// The paper's difference equation, sample by sample, with the clamp to [0, 1].
    #[test]
    fn update_follows_the_difference_equation() {
        let p = params();
        let mut q = pi(p);
        assert_eq!(q.prob(), 0.0, "reset: (b - a) q_ref < 0 clamps to 0");
        q.update(pkts(10));
        let p1 = p.a * (10.0 - 6.0) - p.b * (0.0 - 6.0);
        assert_eq!(q.prob(), p1);
        q.update(pkts(12));
        let p2 = p.a * (12.0 - 6.0) - p.b * (10.0 - 6.0) + p1;
        assert_eq!(q.prob(), p2);
        // An empty queue drives p down, never below 0.
        for _ in 0..100 {
            q.update(pkts(0));
        }
        assert_eq!(q.prob(), 0.0);
        // A queue far above q_ref drives it up, never above 1.
        for _ in 0..1000 {
            q.update(pkts(25));
        }
        assert_eq!(q.prob(), 1.0);
    }

    /// In bytes, the samples are divided by mean_pktsize; q_ref stays in packets.
    #[test]
    fn a_queue_in_bytes_samples_in_mean_packets() {
        let p = PiParams {
            queue_in_bytes: true,
            ..params()
        };
        let mut q = pi(p);
        q.update(Backlog {
            packets: 3,
            bytes: 7500,
        });
        assert_eq!(q.prob(), p.a * (7500.0 / 1000.0 - 6.0) - p.b * (0.0 - 6.0));
    }

    /// The sampling instants are k / w, each the last plus 1/w in doubles.
    #[test]
    fn updates_come_every_one_over_w() {
        let mut q = pi(params());
        let dt = 1.0 / 435.3741496598639;
        assert_eq!(q.update_due(), ps(dt));
        let mut t = dt;
        for _ in 0..1000 {
            q.update(pkts(0));
            t += dt;
            assert_eq!(q.update_due(), ps(t));
        }
        assert!((q.update_due().as_secs_f64() - 1001.0 * dt).abs() < 1e-9);
    }

    /// A full queue drops whatever p is; p = 0 admits; p = 1 drops, or marks an ECN-capable
    /// packet with ECN on.
    #[test]
    fn arrivals_are_dropped_with_probability_p() {
        let pkt = crate::packet::Packet::TEST;
        let mut q = pi(params());
        assert_eq!(q.admit(&arrival(pkts(25), 1000, &pkt)), Verdict::Drop);
        assert_eq!(q.forced_drops, 1);
        for _ in 0..100 {
            assert_eq!(q.admit(&arrival(pkts(5), 1000, &pkt)), Verdict::Admit);
        }
        q.prob = 1.0;
        assert_eq!(q.admit(&arrival(pkts(5), 1000, &pkt)), Verdict::Drop);
        let mut q = pi(PiParams {
            ecn: true,
            ..params()
        });
        q.prob = 1.0;
        let mut ect = crate::packet::Packet::TEST;
        ect.ecn = crate::packet::ecn::ECT;
        assert_eq!(q.admit(&arrival(pkts(5), 1000, &ect)), Verdict::Mark);
        assert_eq!(q.admit(&arrival(pkts(5), 1000, &pkt)), Verdict::Drop);
        // Measured at p = 0.3, the drop fraction is 0.3.
        q.prob = 0.3;
        let n = 100_000;
        let drops = (0..n)
            .filter(|_| q.admit(&arrival(pkts(5), 1000, &pkt)) == Verdict::Drop)
            .count();
        assert!((drops as f64 / n as f64 - 0.3).abs() < 0.01, "{drops}");
    }

    /// With `bytes`, p is scaled by size / mean_pktsize: half-size packets see half of it.
    #[test]
    fn byte_mode_scales_p_by_packet_size() {
        let pkt = crate::packet::Packet::TEST;
        let mut q = pi(PiParams {
            bytes: true,
            ..params()
        });
        q.prob = 0.4;
        let n = 100_000;
        let drops = (0..n)
            .filter(|_| q.admit(&arrival(pkts(5), 500, &pkt)) == Verdict::Drop)
            .count();
        assert!((drops as f64 / n as f64 - 0.2).abs() < 0.01, "{drops}");
    }
}
