//! TCP-LP (Low Priority): A. Kuzmanovic, E. W. Knightly, "TCP-LP: A Distributed Algorithm
//! for Low Priority Data Transfer", IEEE INFOCOM 2003. ns-3.44: `TcpLp` (src/internet/model/
//! tcp-lp.cc: `RttSample`, `OwdCalculator`, `PktsAcked`, `CongestionAvoidance`); Linux:
//! net/ipv4/tcp_lp.c.
//!
//! TCP-LP yields to other traffic by reacting to one-way delay before losses come
//! (section III):
//!
//! - the smoothed one-way delay is s = 7/8 s + 1/8 d per sample (d from the ACK's
//!   timestamps), beside the smallest and largest delays seen (d_min, d_max; the largest
//!   through Linux's reserve, `owd_max_rsv`, so that one outlier is not taken);
//! - an early congestion indication is s > d_min + delta (d_max - d_min), delta = 0.15
//!   (eq. 1);
//! - on an indication the window halves, or drops to one segment when it comes within the
//!   inference time of the last reduction (3 round trips, taken as 3 x the time since the
//!   echoed segment was sent, `m_inference`), and d_min / d_max restart from s;
//! - within the inference time after a reduction, congestion avoidance does not grow
//!   (`LP_WITHIN_INF`); otherwise it is Reno's, as are slow start and the loss response.

use super::{
    reno_increase, slow_start, AckEvent, AckSample, CcInfo, CcSetup, CongestionOps, Ns3Class,
    Param, Range, Window, NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Lp {
    delta: f64,
    /// Smoothed one-way delay, seconds (0: no sample yet).
    pub sowd: f64,
    owd_min: f64,
    owd_max: f64,
    owd_max_rsv: f64,
    last_drop: Option<SimTime>,
    /// Seconds.
    inference: f64,
    within_inference: bool,
    /// Early congestion indications so far.
    pub indications: u64,
}

impl Lp {
    fn owd_sample(&mut self, d: f64) {
        self.owd_min = self.owd_min.min(d);
        if d > self.owd_max {
            if d > self.owd_max_rsv {
                self.owd_max = if self.owd_max_rsv == 0.0 {
                    d
                } else {
                    self.owd_max_rsv
                };
                self.owd_max_rsv = d;
            } else {
                self.owd_max = d;
            }
        }
        self.sowd = if self.sowd == 0.0 {
            d
        } else {
            0.875 * self.sowd + 0.125 * d
        };
    }
}

crate::params! {
    /// TCP-LP's parameters (`cc_params`), each with its declaration.
    pub struct LpParams {
        delta: f64 = Param::new("delta", 0.15, Range::Fraction, "threshold: d_min + delta (d_max - d_min)"),
    }
}

impl CongestionOps for Lp {
    const INFO: CcInfo = CcInfo {
        name: "lp",
        ns3: &[Ns3Class::newreno("TcpLp")],
        ecn_per_segment: false,
        params: LpParams::PARAMS,
    };

    type Params = LpParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &LpParams, _setup: &CcSetup) -> Lp {
        Lp {
            delta: p.delta,
            sowd: 0.0,
            owd_min: f64::INFINITY,
            owd_max: 0.0,
            owd_max_rsv: 0.0,
            last_drop: None,
            inference: 0.0,
            within_inference: false,
            indications: 0,
        }
    }

    fn pkts_acked(&mut self, w: &mut Window, sample: &AckSample) {
        let Some(owd) = sample.owd else {
            return;
        };
        let d = owd.as_secs_f64();
        if d > 0.0 {
            self.owd_sample(d);
        }
        if let Some(rtt) = sample.rtt {
            self.inference = 3.0 * rtt.as_secs_f64();
        }
        let now = sample.now;
        self.within_inference = self
            .last_drop
            .is_some_and(|t| now.since(t).as_secs_f64() < self.inference);
        if self.sowd == 0.0
            || self.sowd <= self.owd_min + self.delta * (self.owd_max - self.owd_min)
        {
            return;
        }
        // An early congestion indication.
        self.owd_min = self.sowd;
        self.owd_max = 2.0 * self.sowd;
        self.owd_max_rsv = 2.0 * self.sowd;
        w.cwnd = if self.within_inference {
            1.0
        } else {
            (w.cwnd / 2.0).max(1.0)
        };
        self.last_drop = Some(now);
        self.indications += 1;
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
        } else if !self.within_inference {
            reno_increase(w, &ev);
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        w.cwnd.min(w.rwnd) / 2.0
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [("lp_sowd", self.sowd), NO_TRACE, NO_TRACE, NO_TRACE]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn sample(l: &mut Lp, w: &mut Window, t_ms: u64, owd_ms: u64) {
        l.pkts_acked(
            w,
            &AckSample {
                now: SimTime::ZERO + SimDuration::from_millis(t_ms),
                acked: 1,
                rtt: Some(SimDuration::from_millis(100)),
                owd: Some(SimDuration::from_millis(owd_ms)),
            },
        );
    }

    /// Eq. 1: a smoothed delay above d_min + 0.15 (d_max - d_min) halves the window; a second
    /// one within the inference time (3 RTT) drops it to one segment.
    #[test]
    fn early_indications_halve_then_collapse_the_window() {
        let mut l = Lp::new(&LpParams::default(), &CcSetup::default());
        let mut w = Window::new(40.0, 10.0, 1e9);
        sample(&mut l, &mut w, 0, 50); // s = d_min = d_max = 50 ms: no indication
        assert_eq!(w.cwnd, 40.0);
        // 150 ms: d_max stays 50 (150 goes to the reserve); s = 62.5 > 50: halve.
        sample(&mut l, &mut w, 10, 150);
        assert!((l.sowd - 0.0625).abs() < 1e-12);
        assert_eq!(w.cwnd, 20.0);
        assert_eq!(l.indications, 1);
        // 20 ms later, within the inference time (3 x 100 ms): s = 104.7 ms against a
        // threshold of 62.5 + 0.15 x 62.5: one segment.
        sample(&mut l, &mut w, 30, 400);
        assert_eq!(l.indications, 2);
        assert_eq!(w.cwnd, 1.0, "a second indication within 300 ms");
        // Within the inference time congestion avoidance does not grow.
        let mut ca = Window::new(20.0, 10.0, 1e9);
        l.cong_avoid(&mut ca, AckEvent::one_segment(SimTime::ZERO, None));
        assert_eq!(ca.cwnd, 20.0);
    }
}
