//! TCP Westwood, the original: S. Mascolo, C. Casetti, M. Gerla, M. Y. Sanadidi, R. Wang,
//! "TCP Westwood: Bandwidth Estimation for Enhanced Transport over Wireless Links", ACM
//! MobiCom 2001, section 2; under the ns3 profile, ns-3.34's `TcpWestwood` with its defaults
//! (`ProtocolType` WESTWOOD, `FilterType` TUSTIN: `TcpWestwood::PktsAcked` and `EstimateBW`),
//! which seed 004 ran.
//!
//! Every ACK for new data is a bandwidth sample, b_k = d_k / (t_k - t_(k-1)): the data it
//! acknowledges over the time since the previous such ACK. The samples are smoothed by the
//! paper's discrete (Tustin) low-pass filter, b^_k = a b^_(k-1) + (1 - a) (b_k + b_(k-1)) / 2;
//! the paper lets a follow the sample spacing, ns-3 fixes it at 0.9 (parameter `alpha`).
//! After a loss, ssthresh = b^ x RTT_min (at least 2 segments): the window the path carried,
//! not half the window, so random losses do not halve it. Growth is Reno's.
//!
//! Per-ACK samples are what Westwood+ (`westwood`, Grieco and Mascolo 2004) replaced with one
//! sample per round trip: with delayed or compressed ACKs two ACKs close together make a
//! sample far above the link's rate, so the original overestimates the bandwidth.

use super::{
    reno_increase, slow_start, AckEvent, CcInfo, CcSetup, CongestionOps, Param, Range, Window,
    NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct WestwoodOriginal {
    alpha: f64,
    /// Filtered bandwidth estimate, in segments per second.
    pub bwe: f64,
    /// The previous raw sample.
    last_sample: f64,
    /// The smallest RTT seen, in seconds.
    pub rtt_min: f64,
    last_ack: SimTime,
}

crate::params! {
    /// Westwood (original)'s parameters (`cc_params`), each with its declaration.
    pub struct WestwoodOriginalParams {
        alpha: f64 = Param::new(
            "alpha",
            0.9,
            Range::Between(0.0, 1.0),
            "the Tustin filter's gain (ns-3 fixes it at 0.9)",
            ),
    }
}

impl CongestionOps for WestwoodOriginal {
    const INFO: CcInfo = CcInfo {
        name: "westwood_original",
        ns3: &[],
        ecn_per_segment: false,
        params: WestwoodOriginalParams::PARAMS,
    };

    type Params = WestwoodOriginalParams;

    fn new(p: &WestwoodOriginalParams, _setup: &CcSetup) -> WestwoodOriginal {
        WestwoodOriginal {
            alpha: p.alpha,
            bwe: 0.0,
            last_sample: 0.0,
            rtt_min: f64::INFINITY,
            last_ack: SimTime::ZERO,
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
            (self.bwe * self.rtt_min).max(2.0)
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

impl WestwoodOriginal {
    fn observe(&mut self, ev: &AckEvent) {
        // ns-3 takes no sample from an ACK without an RTT measurement.
        let Some(r) = ev.delay.or(ev.rtt) else {
            return;
        };
        self.rtt_min = self.rtt_min.min(r.as_secs_f64());
        let gap = ev.now.since(self.last_ack).as_secs_f64();
        self.last_ack = ev.now;
        if gap <= 0.0 {
            return;
        }
        let sample = ev.acked as f64 / gap;
        self.bwe = self.alpha * self.bwe + (1.0 - self.alpha) * 0.5 * (sample + self.last_sample);
        self.last_sample = sample;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn ack(now_ms: u64, acked: u64) -> AckEvent {
        AckEvent {
            now: SimTime(now_ms * 1_000_000_000),
            acked,
            credit: 1.0,
            rtt: None,
            delay: Some(SimDuration::from_millis(100)),
            una: 0,
            sent: 0,
            per_ack: false,
        }
    }

    /// One segment acknowledged every ms: the filter converges on 1000 segments/s and a loss
    /// leaves the window at that rate times the 100 ms RTT. The same 1000 segments/s as ACKs
    /// in pairs 0.1 ms apart every 2 ms give samples of 10 000 and 526 segments/s, which
    /// average to over five times the rate: the original's overestimate.
    #[test]
    fn per_ack_samples_and_their_overestimate_under_ack_compression() {
        let mut w = Window::new(500.0, 10.0, 1e9);
        let mut ww = WestwoodOriginal::new(&WestwoodOriginalParams::default(), &CcSetup::default());
        for i in 1..=2000 {
            ww.cong_avoid(&mut w, ack(i, 1));
        }
        assert!((ww.bwe - 1000.0).abs() < 1.0, "{}", ww.bwe);
        assert!((ww.ssthresh(&w, SimTime::ZERO) - 100.0).abs() < 0.1);

        let mut ww = WestwoodOriginal::new(&WestwoodOriginalParams::default(), &CcSetup::default());
        for i in 1..=1000u64 {
            let t = i * 2_000;
            for dt in [0, 100] {
                let mut ev = ack(0, 1);
                ev.now = SimTime((t + dt) * 1_000_000);
                ww.cong_avoid(&mut w, ev);
            }
        }
        assert!(ww.bwe > 5_000.0, "{}", ww.bwe);
    }
}
