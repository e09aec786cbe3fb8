//! FAST TCP: C. Jin, D. X. Wei, S. H. Low, "FAST TCP: Motivation, Architecture, Algorithms,
//! Performance", IEEE INFOCOM 2004.
//!
//! Every update period (one average RTT unless `interval` is given, in seconds) the window
//! moves toward the point where `alpha` segments of the flow sit in queues:
//!
//!   w <- min(2w, (1 - gamma) w + gamma (baseRTT / avgRTT w + alpha))
//!
//! baseRTT is the smallest RTT seen, avgRTT a moving average of the per-ACK RTT with weight
//! min(3 / w, 1/4) (the paper's section 5.2). Defaults: alpha 200 segments, gamma 0.5 (the
//! paper's experiments). The min(2w, ...) term makes the start a slow start. A loss halves
//! the window, as in the paper's loss recovery.

use super::{AckEvent, CcInfo, CcSetup, CongestionOps, Param, Range, Window, NO_TRACE};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Fast {
    alpha: f64,
    gamma: f64,
    interval: f64,
    /// Seconds.
    pub base_rtt: f64,
    pub avg_rtt: f64,
    last_update: Option<SimTime>,
}

crate::params! {
    /// FAST's parameters (`cc_params`), each with its declaration.
    pub struct FastParams {
        alpha: f64 = Param::new("alpha", 200.0, Range::Positive, "segments kept in queues")
            .ns2("alpha_"),
        gamma: f64 = Param::new("gamma", 0.5, Range::Fraction, "step toward the target per update")
            .ns2("gamma_"),
        interval: f64 = Param::new("interval", 0.0, Range::NonNegative, "update period in s (0: one RTT)"),
    }
}

impl CongestionOps for Fast {
    const INFO: CcInfo = CcInfo {
        name: "fast",
        ns3: &[],
        ecn_per_segment: false,
        params: FastParams::PARAMS,
    };

    type Params = FastParams;

    fn new(p: &FastParams, _setup: &CcSetup) -> Fast {
        Fast {
            alpha: p.alpha,
            gamma: p.gamma,
            interval: p.interval,
            base_rtt: f64::INFINITY,
            avg_rtt: 0.0,
            last_update: None,
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if let Some(r) = ev.delay.or(ev.rtt) {
            let r = r.as_secs_f64();
            self.base_rtt = self.base_rtt.min(r);
            let weight = (3.0 / w.cwnd).min(0.25);
            self.avg_rtt = if self.avg_rtt == 0.0 {
                r
            } else {
                (1.0 - weight) * self.avg_rtt + weight * r
            };
        }
        if self.avg_rtt == 0.0 {
            return;
        }
        let last = *self.last_update.get_or_insert(ev.now);
        let period = if self.interval > 0.0 {
            self.interval
        } else {
            self.avg_rtt
        };
        if ev.now.since(last).as_secs_f64() >= period {
            self.last_update = Some(ev.now);
            w.cwnd = self.target(w.cwnd).max(2.0);
            w.ssthresh = w.ssthresh.max(w.cwnd);
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        w.cwnd.min(w.rwnd) / 2.0
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("fast_base_rtt", self.base_rtt),
            ("fast_avg_rtt", self.avg_rtt),
            NO_TRACE,
            NO_TRACE,
        ]
    }
}

impl Fast {
    /// The window one update moves `w` to.
    pub fn target(&self, w: f64) -> f64 {
        (2.0 * w).min(
            (1.0 - self.gamma) * w + self.gamma * (self.base_rtt / self.avg_rtt * w + self.alpha),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn equilibrium_keeps_alpha_segments_queued() {
        let given = BTreeMap::from([("alpha".to_string(), 20.0)]);
        let mut f = Fast::new(&FastParams::given(&given).unwrap(), &CcSetup::default());
        f.base_rtt = 0.1;
        // A bottleneck of 1000 segments/s: RTT = base + queue / rate, queue = w - 100.
        let mut w = 10.0f64;
        for _ in 0..200 {
            f.avg_rtt = 0.1 + (w - 100.0).max(0.0) / 1000.0;
            w = f.target(w);
        }
        // Equilibrium: w - rate x baseRTT = alpha, so w = 120.
        assert!((w - 120.0).abs() < 0.5, "{w}");
        // From far below, it at most doubles per update.
        f.avg_rtt = 0.1;
        assert_eq!(f.target(10.0), 20.0);
    }
}
