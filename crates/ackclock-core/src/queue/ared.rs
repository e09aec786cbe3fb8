//! Adaptive RED: S. Floyd, R. Gummadi, S. Shenker, "Adaptive RED: An Algorithm for Increasing
//! the Robustness of RED's Active Queue Management", ICSI technical report, 2001; as ns-3.44's
//! `RedQueueDisc` runs it with `ARED = true` (src/traffic-control/model/red-queue-disc.cc,
//! `InitializeParams`, `UpdateMaxP`, `Estimator`) and ns-2.35's `Queue/RED` with `adaptive_ 1`.
//!
//! RED (`red.rs`) with max_p adapted so that the average queue stays in the middle of
//! [min_th, max_th]:
//!
//! - target range: [min_th + 0.4 (max_th - min_th), max_th - 0.4 (max_th - min_th)];
//! - at an arrival at least `interval` (0.5 s) after max_p last changed, with the new average
//!   `avg`: if avg is below the range and max_p > bottom, max_p <- beta max_p
//!   (multiplicative decrease, beta = 0.9); if avg is above it and max_p < top,
//!   max_p <- max_p + min(alpha, max_p / 4) (additive increase, alpha = 0.01);
//! - top = 0.5; bottom = min(0.01, 8 mean_pktsize RTT / C) (at most 1/W for a connection whose
//!   window W is the path's bandwidth-delay product, RTT = 0.1 s);
//! - the paper's automatic parameters: min_th = max(5, target_delay C / 2) packets, max_th =
//!   3 min_th, w_q = 1 - exp(-1 / C) with C in mean-size packets per second, and gentle
//!   (these are RED's own automatic values, filled in by `red.rs` when given as zero).
//!
//! Between adaptations max_p is RED's max_p: `Red::base_probability` reads the current value.
//!
//! ns-2.35's `Queue/RED` with `adaptive_ 1` (`red.rs` with `adaptive`) runs the same rule
//! (`REDQueue::updateMaxP`, called from `REDQueue::estimator` after the new average when
//! `now > lastset + interval_`) with its own automatic bottom, min(0.01, 80000 / bandwidth)
//! (`REDQueue::initialize_params`: 1/W for 1000-byte packets and a 100 ms RTT; [`Ared::ns2`]),
//! and, with `feng_adaptive_ 1`, Feng et al.'s variant instead (W. Feng, D. Kandlur, D. Saha,
//! K. Shin, "A Self-Configuring RED Gateway", INFOCOM 1999; `REDQueue::updateMaxPFeng`): at
//! every arrival, when the average first falls below min_th max_p <- max_p / alpha, when it
//! first rises above max_th max_p <- max_p beta (ns-2's suites use alpha 3, beta 2); no
//! interval.

use super::red::Red;
use super::{
    AqmState, Arrival, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service, Unit, Verdict,
};
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Copy, Debug)]
pub struct AredParams {
    pub interval: SimDuration,
    pub alpha: f64,
    pub beta: f64,
    pub top: f64,
    /// 0: the paper's automatic value.
    pub bottom: f64,
    /// The round-trip time of the automatic bottom.
    pub rtt: SimDuration,
}

impl Default for AredParams {
    /// The paper's (and ns-3's) values.
    fn default() -> AredParams {
        AredParams {
            interval: SimDuration::from_millis(500),
            alpha: 0.01,
            beta: 0.9,
            top: 0.5,
            bottom: 0.0,
            rtt: SimDuration::from_millis(100),
        }
    }
}

/// Where Feng's variant last saw the average (`edv::Status` in ns-2.35's red.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Band {
    Above,
    Below,
    Between,
}

/// The adaptation state.
#[derive(Clone, Copy, Debug)]
pub struct Ared {
    p: AredParams,
    bottom: f64,
    last_set: SimTime,
    /// Feng et al.'s rule instead of the AIMD one.
    feng: bool,
    band: Band,
}

impl Ared {
    /// With the link's rate and RED's mean packet size (for the automatic bottom).
    pub fn new(p: AredParams, rate_bps: f64, mean_pktsize: u32) -> Ared {
        let bottom = if p.bottom == 0.0 {
            let one_over_w = 8.0 * mean_pktsize as f64 / (rate_bps * p.rtt.as_secs_f64());
            one_over_w.min(0.01)
        } else {
            p.bottom
        };
        Ared {
            p,
            bottom,
            last_set: SimTime::ZERO,
            feng: false,
            band: Band::Above,
        }
    }

    /// As ns-2.35's `Queue/RED` adapts: the automatic bottom (`bottom` 0) is
    /// `REDQueue::initialize_params`'s min(0.01, 80000 / bandwidth), and `feng` selects
    /// `REDQueue::updateMaxPFeng`. ns-2 never initialises Feng's band (`edv_.status`); a new
    /// queue's zeroed memory holds the first value, `Above`, which the live test against ns-2.35
    /// confirms (tests/ns2/test_adaptive_red_vs_ns2.py).
    pub fn ns2(p: AredParams, rate_bps: f64, feng: bool) -> Ared {
        let bottom = if p.bottom == 0.0 {
            (80000.0 / rate_bps).min(0.01)
        } else {
            p.bottom
        };
        Ared {
            p,
            bottom,
            last_set: SimTime::ZERO,
            feng,
            band: Band::Above,
        }
    }

    pub fn bottom(&self) -> f64 {
        self.bottom
    }

    /// max_p after an arrival at `now` that made the average `avg`, with RED's thresholds.
    pub fn adapt(&mut self, now: SimTime, avg: f64, th_min: f64, th_max: f64, max_p: f64) -> f64 {
        if self.feng {
            return self.adapt_feng(avg, th_min, th_max, max_p);
        }
        if now <= self.last_set + self.p.interval {
            return max_p;
        }
        let part = 0.4 * (th_max - th_min);
        if avg < th_min + part && max_p > self.bottom {
            self.last_set = now;
            max_p * self.p.beta
        } else if avg > th_max - part && self.p.top > max_p {
            self.last_set = now;
            max_p + self.p.alpha.min(0.25 * max_p)
        } else {
            max_p
        }
    }

    /// `REDQueue::updateMaxPFeng`: max_p / alpha on entering the band below min_th, max_p beta
    /// on entering the one above max_th (the thresholds themselves belong to neither).
    fn adapt_feng(&mut self, avg: f64, th_min: f64, th_max: f64, max_p: f64) -> f64 {
        let mut max_p = max_p;
        if th_min < avg && avg < th_max {
            self.band = Band::Between;
        }
        if avg < th_min && self.band != Band::Below {
            self.band = Band::Below;
            max_p /= self.p.alpha;
        }
        if avg > th_max && self.band != Band::Above {
            self.band = Band::Above;
            max_p *= self.p.beta;
        }
        max_p
    }
}

/// RED with Adaptive RED's max_p and automatic parameters: the `ared` queue kind.
#[derive(Clone, Debug)]
pub struct AdaptiveRed(pub Red);

crate::params! {
    /// The `AdaptiveRed` discipline's parameters (`queue.params`), each with its declaration.
    pub struct AdaptiveRedSettings {
        min_thresh: f64 = Param::new("min_thresh", 0.0, Range::NonNegative, "min_th in packets (0: automatic)")
            .unit(Unit::Packets)
            .ns3("MinTh"),
        max_thresh: f64 = Param::new("max_thresh", 0.0, Range::NonNegative, "max_th in packets (0: automatic)")
            .unit(Unit::Packets)
            .ns3("MaxTh"),
        q_weight: f64 = Param::new("q_weight", 0.0, Range::Weight, "EWMA weight (0, -1, -2: automatic)").ns3("QW"),
        max_p: f64 = Param::new("max_p", 0.02, Range::Fraction, "initial max_p")
            .ns3("LInterm")
            .inverse_aliases(&["linterm"]),
        gentle: bool = Param::new("gentle", 1.0, Range::Flag, "p_b from max_p to 1 between max_th and 2 max_th")
            .ns3("Gentle"),
        wait: bool = Param::new("wait", 1.0, Range::Flag, "wait between early drops").ns3("Wait"),
        mean_pktsize: u32 = Param::new("mean_pktsize", 500.0, Range::Count, "mean packet size for idle decay")
            .unit(Unit::Bytes)
            .ns3("MeanPktSize"),
        target_delay: crate::time::SimDuration = Param::new("target_delay", 5e9, Range::Positive, "target delay of automatic thresholds")
            .unit(Unit::Time)
            .ns3("TargetDelay"),
        interval: crate::time::SimDuration = Param::new("interval", 0.5e12, Range::Positive, "time between max_p changes")
            .unit(Unit::Time)
            .ns3("Interval"),
        alpha: f64 = Param::new("alpha", 0.01, Range::Fraction, "max_p's additive increase").ns3("Alpha"),
        beta: f64 = Param::new("beta", 0.9, Range::Fraction, "max_p's multiplicative decrease").ns3("Beta"),
        top: f64 = Param::new("top", 0.5, Range::Fraction, "max_p's upper bound").ns3("Top"),
        bottom: f64 = Param::new("bottom", 0.0, Range::NonNegative, "max_p's lower bound (0: automatic)")
            .ns3("Bottom"),
    }
}

const ARED_PARAMS: &[Param] = AdaptiveRedSettings::PARAMS;

/// RED's parameters from the settings ARED and NLRED share with RED (a macro: their settings
/// are two types with the same fields).
macro_rules! red_params {
    ($p:expr, $setup:expr) => {
        $crate::queue::red::RedParams {
            limit_packets: $setup.packets(),
            min_thresh: $p.min_thresh,
            max_thresh: $p.max_thresh,
            q_weight: $p.q_weight,
            max_p: $p.max_p,
            gentle: $p.gentle,
            wait: $p.wait,
            bytes: false,
            queue_in_bytes: false,
            mean_pktsize: $p.mean_pktsize,
            target_delay_s: $p.target_delay.as_secs_f64(),
            ecn: $setup.ecn,
            // ns-3 marks every early decision on an ECN-capable packet, and drops above max_th.
            use_mark_p: false,
            mark_p: 1.0,
            mark_p_strict: false,
            cautious: 0,
            idle_pktsize: 100,
            ns1_compat: false,
            early_drop_target: false,
            hard_drop: true,
            idle_pow: false,
        }
    };
}
pub(super) use red_params;

impl QueueDiscipline for AdaptiveRed {
    const INFO: QdiscInfo = QdiscInfo {
        params: ARED_PARAMS,
        ecn: true,
        ..QdiscInfo::new(
            "ared",
            Service::Enqueue,
            "Adaptive RED (Floyd, Gummadi, Shenker 2001), as ns-3's RedQueueDisc with ARED",
        )
    };

    type Params = AdaptiveRedSettings;

    fn new(p: &AdaptiveRedSettings, setup: &QueueSetup) -> AdaptiveRed {
        let rp = red_params!(p, setup);
        let mut red = Red::new(
            rp,
            setup.rate_bps,
            setup.delay.as_secs_f64(),
            setup.rng.clone(),
        );
        red.set_adaptive(Ared::new(
            AredParams {
                interval: p.interval,
                alpha: p.alpha,
                beta: p.beta,
                top: p.top,
                bottom: p.bottom,
                rtt: SimDuration::from_millis(100),
            },
            setup.rate_bps,
            rp.mean_pktsize,
        ));
        AdaptiveRed(red)
    }

    #[inline]
    fn admit(&mut self, a: &Arrival) -> Verdict {
        self.0.admit(a)
    }

    fn var_trace(&mut self) -> Option<&mut Option<Box<super::VarTrace>>> {
        <Red as QueueDiscipline>::var_trace(&mut self.0)
    }

    fn random(&mut self) -> Option<&mut crate::rng::Uniform> {
        <Red as QueueDiscipline>::random(&mut self.0)
    }

    fn state(&self) -> AqmState {
        self.0.state()
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        <Red as QueueDiscipline>::limits(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: f64) -> SimTime {
        SimTime((x * 1e12) as u64)
    }

    #[test]
    fn bottom_is_one_over_the_window_at_most_one_percent() {
        // 10 Mb/s, 1000-byte packets, 100 ms: W = 125 packets, 1/W = 0.008.
        let a = Ared::new(AredParams::default(), 10e6, 1000);
        assert!((a.bottom() - 0.008).abs() < 1e-15);
        let a = Ared::new(AredParams::default(), 1e6, 1000);
        assert_eq!(a.bottom(), 0.01);
    }

    #[test]
    fn aimd_keeps_the_average_in_the_middle_band() {
        let mut a = Ared::new(AredParams::default(), 10e6, 1000);
        // Thresholds 5 and 15: target band [9, 11].
        let mut p = 0.1;
        // Above the band: additive increase by min(0.01, p/4), once per interval.
        p = a.adapt(s(0.6), 12.0, 5.0, 15.0, p);
        assert!((p - 0.11).abs() < 1e-15);
        assert_eq!(
            a.adapt(s(1.0), 12.0, 5.0, 15.0, p),
            p,
            "within the interval"
        );
        let q = a.adapt(s(1.2), 12.0, 5.0, 15.0, p);
        assert!((q - 0.12).abs() < 1e-15);
        // Small max_p: the increase is a quarter of it.
        let mut b = Ared::new(AredParams::default(), 10e6, 1000);
        assert!((b.adapt(s(0.6), 12.0, 5.0, 15.0, 0.02) - 0.025).abs() < 1e-15);
        // In the band: unchanged.
        assert_eq!(a.adapt(s(2.0), 10.0, 5.0, 15.0, q), q);
        // Below it: times 0.9.
        let r = a.adapt(s(2.6), 6.0, 5.0, 15.0, q);
        assert!((r - q * 0.9).abs() < 1e-15);
        // Never above top, never below bottom.
        assert_eq!(a.adapt(s(9.0), 14.0, 5.0, 15.0, 0.5), 0.5);
        assert_eq!(a.adapt(s(19.0), 6.0, 5.0, 15.0, 0.008), 0.008);
    }

    #[test]
    fn ns2_bottom_is_80000_over_the_bandwidth() {
        // REDQueue::initialize_params: 1.5 Mb/s gives 0.0533.. > 0.01, 15 Mb/s 0.00533...
        let a = Ared::ns2(AredParams::default(), 1.5e6, false);
        assert_eq!(a.bottom(), 0.01);
        let a = Ared::ns2(AredParams::default(), 15e6, false);
        assert_eq!(a.bottom(), 80000.0 / 15e6);
        let given = AredParams {
            bottom: 0.1,
            ..AredParams::default()
        };
        assert_eq!(Ared::ns2(given, 15e6, false).bottom(), 0.1);
    }

    #[test]
    fn feng_divides_below_and_multiplies_above_once_per_crossing() {
        let p = AredParams {
            alpha: 3.0,
            beta: 2.0,
            ..AredParams::default()
        };
        let mut a = Ared::ns2(p, 1.5e6, true);
        let t = s(0.001);
        // Starts "above": a first average above max_th changes nothing.
        assert_eq!(a.adapt(t, 16.0, 5.0, 15.0, 0.1), 0.1);
        // Below min_th: / alpha once, however long it stays there; no interval.
        let q = a.adapt(t, 4.0, 5.0, 15.0, 0.1);
        assert!((q - 0.1 / 3.0).abs() < 1e-15);
        assert_eq!(a.adapt(t, 3.0, 5.0, 15.0, q), q);
        // Through the band and above: x beta.
        assert_eq!(a.adapt(t, 10.0, 5.0, 15.0, q), q);
        assert!((a.adapt(t, 15.5, 5.0, 15.0, q) - 2.0 * q).abs() < 1e-15);
    }
}
