//! PIE, Proportional Integral controller Enhanced: RFC 8033.
//!
//! - Every `t_update` (T_UPDATE, 15 ms) the drop probability moves by
//!   p = alpha (qdelay - target) + beta (qdelay - qdelay_old) (section 4.2), scaled down
//!   while drop_prob is small (by 2048, 512, 128, 32, 8, 2 below 1e-6 ... 0.1) and capped at
//!   0.02 per update once drop_prob >= 0.1 (section 5.5). drop_prob decays by 2% per update
//!   while the queue delay stays 0 (section 4.2), and stays in [0, 1].
//! - qdelay is the current queueing delay, queue bytes / departure rate (section 4.1's
//!   Little's-law estimate). A FIFO link knows both exactly: the bytes still waiting at the
//!   update instant and the line rate.
//! - Burst allowance (section 4.4): no early drops while it lasts; it starts at max_burst
//!   (150 ms), shrinks by t_update per update, and is restored once drop_prob is 0 and both
//!   qdelay and qdelay_old are below target / 2.
//! - On arrival (section 4.1, with section 5.1's safeguards): no early drop during a burst
//!   allowance, while qdelay_old < target / 2 and drop_prob < 0.2, or with at most two mean
//!   packets queued; otherwise drop (or with ECN mark, while drop_prob <= 10%, section 5.1)
//!   with probability drop_prob. A full buffer drops the arrival.
//!
//! Updates are computed lazily: the link calls `update_due` / `update` as time passes, so PIE
//! adds no events of its own (the backlog between events is known).

use super::{
    AqmState, Arrival, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service,
    Unit, Verdict,
};
use crate::rng::RandomStream;
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Copy, Debug)]
pub struct PieParams {
    pub limit_packets: u64,
    pub target: SimDuration,
    pub t_update: SimDuration,
    pub alpha: f64,
    pub beta: f64,
    pub max_burst: SimDuration,
    pub mean_pktsize: u32,
    pub ecn: bool,
    /// Mark instead of drop only while drop_prob is at most this (RFC 8033 section 5.1: 10%).
    pub mark_ecn_threshold: f64,
}

#[derive(Clone, Debug)]
pub struct Pie {
    p: PieParams,
    rate_bps: f64,
    drop_prob: f64,
    qdelay_old: f64,
    /// Picoseconds of burst allowance left.
    burst_allowance: u64,
    next_update: SimTime,
    rng: RandomStream,
    pub marks: u64,
}

impl Pie {
    pub fn new(p: PieParams, rate_bps: f64, rng: RandomStream) -> Pie {
        Pie {
            p,
            rate_bps,
            drop_prob: 0.0,
            qdelay_old: 0.0,
            burst_allowance: p.max_burst.0,
            next_update: SimTime::ZERO + p.t_update,
            rng,
            marks: 0,
        }
    }

    /// When the next probability update is due.
    #[inline]
    pub fn update_due(&self) -> SimTime {
        self.next_update
    }

    /// The periodic update at its due time, with the bytes waiting at that instant.
    pub fn update(&mut self, waiting_bytes: u64) {
        let target = self.p.target.as_secs_f64();
        let qdelay = waiting_bytes as f64 * 8.0 / self.rate_bps;
        let p = probability_step(
            self.p.alpha,
            self.p.beta,
            qdelay - target,
            qdelay - self.qdelay_old,
            self.drop_prob,
        );
        self.drop_prob += p;
        if qdelay == 0.0 && self.qdelay_old == 0.0 {
            self.drop_prob *= 0.98;
        }
        self.drop_prob = self.drop_prob.clamp(0.0, 1.0);
        self.burst_allowance = self.burst_allowance.saturating_sub(self.p.t_update.0);
        if self.drop_prob == 0.0 && qdelay < target / 2.0 && self.qdelay_old < target / 2.0 {
            self.burst_allowance = self.p.max_burst.0;
        }
        self.qdelay_old = qdelay;
        self.next_update += self.p.t_update;
    }

    pub fn admit(&mut self, a: &Arrival) -> Verdict {
        if a.backlog.packets >= self.p.limit_packets {
            return Verdict::Drop;
        }
        let target = self.p.target.as_secs_f64();
        if self.burst_allowance > 0
            || (self.qdelay_old < target / 2.0 && self.drop_prob < 0.2)
            || a.backlog.bytes <= 2 * self.p.mean_pktsize as u64
        {
            return Verdict::Admit;
        }
        if self.rng.next_f64() < self.drop_prob {
            if self.p.ecn && a.ect() && self.drop_prob <= self.p.mark_ecn_threshold {
                self.marks += 1;
                return Verdict::Mark;
            }
            return Verdict::Drop;
        }
        Verdict::Admit
    }

    pub fn drop_prob(&self) -> f64 {
        self.drop_prob
    }

    pub fn state(&self) -> AqmState {
        AqmState {
            avg: f64::NAN,
            prob: self.drop_prob,
            dropping: f64::NAN,
        }
    }
}

crate::params! {
    /// The `Pie` discipline's parameters (`queue.params`), each with its declaration.
    pub struct PieSettings {
        target: crate::time::SimDuration = Param::new("target", 15e9, Range::NonNegative, "target queueing delay (QDELAY_REF)")
            .unit(Unit::Time)
            .ns3("QueueDelayReference")
            .aliases(&["qdelay_ref"]),
        t_update: crate::time::SimDuration = Param::new("t_update", 15e9, Range::Positive, "probability update period (T_UPDATE)")
            .unit(Unit::Time)
            .ns3("Tupdate")
            .aliases(&["tupdate"]),
        alpha: f64 = Param::new("alpha", 0.125, Range::NonNegative, "weight of the delay's distance from target")
            .ns3("A"),
        beta: f64 = Param::new("beta", 1.25, Range::NonNegative, "weight of the delay's change").ns3("B"),
        max_burst: crate::time::SimDuration = Param::new("max_burst", 150e9, Range::NonNegative, "burst allowance (MAX_BURST)")
            .unit(Unit::Time)
            .ns3("MaxBurstAllowance"),
        mean_pktsize: u32 = Param::new("mean_pktsize", 1500.0, Range::Count, "no drops with two of these queued")
            .unit(Unit::Bytes)
            .ns3("MeanPktSize"),
        mark_ecn_threshold: f64 = Param::new("mark_ecn_threshold", 0.1, Range::Fraction, "mark only while drop_prob <= this")
            .ns3("MarkEcnThreshold"),
    }
}

const PIE_PARAMS: &[Param] = PieSettings::PARAMS;

impl QueueDiscipline for Pie {
    const INFO: QdiscInfo = QdiscInfo {
        params: PIE_PARAMS,
        ecn: true,
        ..QdiscInfo::new(
            "pie",
            Service::Enqueue,
            "Proportional Integral controller Enhanced, RFC 8033",
        )
    };

    type Params = PieSettings;

    const PERIODIC: bool = true;

    fn new(p: &PieSettings, setup: &QueueSetup) -> Pie {
        Pie::new(
            PieParams {
                limit_packets: setup.packets(),
                target: p.target,
                t_update: p.t_update,
                alpha: p.alpha,
                beta: p.beta,
                max_burst: p.max_burst,
                mean_pktsize: p.mean_pktsize,
                ecn: setup.ecn,
                mark_ecn_threshold: p.mark_ecn_threshold,
            },
            setup.rate_bps,
            setup.rng.clone(),
        )
    }

    #[inline]
    fn admit(&mut self, a: &Arrival) -> Verdict {
        Pie::admit(self, a)
    }

    #[inline]
    fn update_due(&self) -> SimTime {
        self.next_update
    }

    fn update(&mut self, waiting: Backlog) {
        Pie::update(self, waiting.bytes)
    }

    fn state(&self) -> AqmState {
        Pie::state(self)
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (Some(self.p.limit_packets), None)
    }
}

/// One update's change of PIE's drop probability before the decay and clamp (RFC 8033
/// section 4.2): alpha times the delay's distance from target plus beta times its change since
/// the last update, scaled down while `drop_prob` is small and capped at 2% once it is 10% or
/// more (the auto-tuning of section 4.2 as Linux's `pie_calculate_probability` and ns-3's
/// `PieQueueDisc::CalculateP` apply it). Shared by PIE and FQ-PIE's per-flow PIE.
pub(super) fn probability_step(
    alpha: f64,
    beta: f64,
    above_target: f64,
    growth: f64,
    drop_prob: f64,
) -> f64 {
    let p = alpha * above_target + beta * growth;
    let scale = if drop_prob < 1e-6 {
        2048.0
    } else if drop_prob < 1e-5 {
        512.0
    } else if drop_prob < 1e-4 {
        128.0
    } else if drop_prob < 1e-3 {
        32.0
    } else if drop_prob < 1e-2 {
        8.0
    } else if drop_prob < 1e-1 {
        2.0
    } else {
        1.0
    };
    let p = p / scale;
    if drop_prob >= 0.1 && p > 0.02 {
        0.02
    } else {
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::Backlog;

    fn params() -> PieParams {
        PieParams {
            limit_packets: 1000,
            target: SimDuration::from_millis(15),
            t_update: SimDuration::from_millis(15),
            alpha: 0.125,
            beta: 1.25,
            max_burst: SimDuration::from_millis(150),
            mean_pktsize: 1500,
            ecn: false,
            mark_ecn_threshold: 0.1,
        }
    }

    fn pie() -> Pie {
        Pie::new(params(), 10e6, RandomStream::named(1, "pie"))
    }

    /// Bytes that take `ms` milliseconds at 10 Mb/s.
    fn bytes_for_ms(ms: f64) -> u64 {
        (ms * 1e-3 * 10e6 / 8.0) as u64
    }

    #[test]
    fn update_follows_the_rfc_equation_with_scaling() {
        let mut q = pie();
        q.update(bytes_for_ms(35.0));
        // p = 0.125 (0.035 - 0.015) + 1.25 (0.035 - 0) = 0.0025 + 0.04375, / 2048 at drop_prob 0.
        let expect = (0.125 * 0.02 + 1.25 * 0.035) / 2048.0;
        assert!((q.drop_prob() - expect).abs() < 1e-15, "{}", q.drop_prob());
        q.drop_prob = 0.05;
        q.update(bytes_for_ms(35.0));
        // qdelay unchanged: only the proportional term, halved below 0.1.
        let expect = 0.05 + 0.125 * 0.02 / 2.0;
        assert!((q.drop_prob() - expect).abs() < 1e-12, "{}", q.drop_prob());
    }

    #[test]
    fn increase_is_capped_above_ten_percent_and_decays_when_idle() {
        let mut q = pie();
        q.drop_prob = 0.5;
        q.qdelay_old = 0.0;
        q.update(bytes_for_ms(200.0));
        assert!((q.drop_prob() - 0.52).abs() < 1e-12);
        q.qdelay_old = 0.0;
        q.drop_prob = 0.5;
        q.update(0);
        // p = 0.125 x (-0.015) = -0.001875, then the 2% decay.
        assert!((q.drop_prob() - (0.5 - 0.001875) * 0.98).abs() < 1e-12);
    }

    #[test]
    fn burst_allowance_protects_a_new_burst() {
        let mut q = pie();
        q.drop_prob = 1.0;
        q.qdelay_old = 0.12; // the delay of the 150 000 bytes below
        let a = Arrival {
            now: SimTime::ZERO,
            backlog: Backlog {
                packets: 100,
                bytes: 150_000,
            },
            size: 1500,
            pkt: &crate::packet::Packet::TEST,
            idle_since: None,
            busy_until: SimTime::ZERO,
            idle_ns2: None,
        };
        assert_eq!(q.admit(&a), Verdict::Admit, "burst allowance");
        for _ in 0..10 {
            q.update(150_000);
        }
        assert_eq!(q.burst_allowance, 0);
        assert_eq!(q.admit(&a), Verdict::Drop);
    }

    #[test]
    fn controller_settles_where_qdelay_equals_target() {
        // A fluid queue fed 20% faster than the line, thinned by drop_prob: the integral term
        // drives the delay to the target.
        let mut q = pie();
        let mut bytes = 0.0f64;
        let line = 10e6 / 8.0 * 0.015; // bytes the line sends per update
        for _ in 0..20_000 {
            let offered = 1.2 * line * (1.0 - q.drop_prob());
            bytes = (bytes + offered - line).max(0.0);
            q.update(bytes as u64);
        }
        let delay = bytes * 8.0 / 10e6;
        assert!((delay - 0.015).abs() < 0.002, "{delay}");
        assert!(
            (q.drop_prob() - 1.0 / 6.0).abs() < 0.02,
            "{}",
            q.drop_prob()
        );
    }
}
