//! Westwood+: L. A. Grieco, S. Mascolo, "Performance Evaluation and Comparison of
//! Westwood+, New Reno, and Vegas TCP Congestion Control", ACM CCR 34(2), 2004.
//!
//! The sender estimates the bandwidth it gets from the ACK stream: once per round trip, the
//! data acknowledged over that round trip divided by its length is one sample, smoothed by a
//! low-pass filter (BWE <- 7/8 BWE + 1/8 sample; Westwood+ samples once per RTT, which is what
//! distinguishes it from Westwood's per-ACK samples). After a loss the window is set to the
//! estimated bandwidth-delay product, ssthresh = BWE x RTT_min, instead of half the window,
//! so random losses do not halve it. Growth is Reno's.

use super::{
    reno_increase, slow_start, AckEvent, CcInfo, CcSetup, CongestionOps, Ns3Class, Window, NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Westwood {
    /// Bandwidth estimate, in segments per second.
    pub bwe: f64,
    /// The smallest RTT seen, in seconds.
    pub rtt_min: f64,
    acked: f64,
    sample_start: Option<SimTime>,
    srtt: f64,
}

crate::params! {
    /// Westwood has no parameters.
    pub struct WestwoodParams {
    }
}

impl CongestionOps for Westwood {
    const INFO: CcInfo = CcInfo {
        name: "westwood",
        ns3: &[Ns3Class::newreno("TcpWestwoodPlus")],
        ecn_per_segment: false,
        params: WestwoodParams::PARAMS,
    };

    type Params = WestwoodParams;

    fn new(_p: &WestwoodParams, _setup: &CcSetup) -> Westwood {
        Westwood {
            bwe: 0.0,
            rtt_min: f64::INFINITY,
            acked: 0.0,
            sample_start: None,
            srtt: 0.0,
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        self.observe(&ev);
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
        } else {
            reno_increase(w, &ev);
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        if self.bwe > 0.0 && self.rtt_min.is_finite() {
            (self.bwe * self.rtt_min).min(w.cwnd.min(w.rwnd))
        } else {
            w.cwnd.min(w.rwnd) / 2.0
        }
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("westwood_bwe", self.bwe),
            ("westwood_rtt_min", self.rtt_min),
            NO_TRACE,
            NO_TRACE,
        ]
    }
}

impl Westwood {
    fn observe(&mut self, ev: &AckEvent) {
        if let Some(r) = ev.delay.or(ev.rtt) {
            let r = r.as_secs_f64();
            self.rtt_min = self.rtt_min.min(r);
            self.srtt = if self.srtt == 0.0 {
                r
            } else {
                0.875 * self.srtt + 0.125 * r
            };
        }
        self.acked += ev.acked as f64;
        let start = *self.sample_start.get_or_insert(ev.now);
        let span = ev.now.since(start).as_secs_f64();
        if self.srtt > 0.0 && span >= self.srtt {
            let sample = self.acked / span;
            self.bwe = if self.bwe == 0.0 {
                sample
            } else {
                0.875 * self.bwe + 0.125 * sample
            };
            self.acked = 0.0;
            self.sample_start = Some(ev.now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;
    use std::collections::BTreeMap;

    #[test]
    fn loss_sets_the_window_to_the_estimated_bdp() {
        let given = BTreeMap::new();
        let mut ww = Westwood::new(&WestwoodParams::given(&given).unwrap(), &CcSetup::default());
        let mut w = Window::new(50.0, 10.0, 1e9);
        // 1000 segments/s acknowledged, RTT 100 ms (min 80 ms) for 5 s.
        let mut now = SimTime::ZERO;
        for i in 0..5000u64 {
            now = SimTime(i * 1_000_000_000);
            let delay = if i == 10 { 80 } else { 100 };
            ww.cong_avoid(
                &mut w,
                AckEvent {
                    now,
                    acked: 1,
                    credit: 1.0,
                    rtt: None,
                    delay: Some(SimDuration::from_millis(delay)),
                    una: 0,
                    sent: 0,
                    per_ack: false,
                },
            );
        }
        assert!((ww.bwe - 1000.0).abs() < 15.0, "{}", ww.bwe);
        assert!((ww.rtt_min - 0.08).abs() < 1e-12);
        w.cwnd = 200.0;
        assert!(
            (ww.ssthresh(&w, SimTime::ZERO) - 80.0).abs() < 1.5,
            "{}",
            ww.ssthresh(&w, SimTime::ZERO)
        );
        let _ = now;
    }
}
