//! TCP-Illinois: S. Liu, T. Basar, R. Srikant, "TCP-Illinois: A loss- and delay-based
//! congestion control algorithm for high-speed networks", Performance Evaluation 65(6-7),
//! 2008. ns-3.44: `TcpIllinois` (src/internet/model/tcp-illinois.cc: `RecalcParam`,
//! `CalculateAlpha`, `CalculateBeta`, `IncreaseWindow`, `GetSsThresh`); Linux:
//! net/ipv4/tcp_illinois.c.
//!
//! Loss decides when to back off, queueing delay how much to grow and shrink. Once per round
//! trip, with d_a the average and d_m the largest queueing delay of the round (RTT less the
//! smallest RTT seen), section III:
//!
//! - alpha = alpha_max while d_a <= d_1 = d_m / 100 (after theta = 5 such rounds once it had
//!   been above), else k_1 / (k_2 + d_a), the curve through (d_1, alpha_max) and (d_m,
//!   alpha_min);
//! - beta = beta_min while d_a <= d_2 = d_m / 10, beta_max from d_3 = 8 d_m / 10, linear
//!   between;
//! - below `win_thresh` (15) segments alpha = 1 and beta = 1/2 (Reno).
//!
//! Congestion avoidance adds alpha / cwnd per segment acknowledged; a loss leaves (1 - beta)
//! cwnd; a timeout resets alpha and beta to 1 and 1/2. Slow start is Reno's. ns-3 and Linux
//! take delays in whole milliseconds (ns-3) or microseconds (Linux); here they are exact.

use super::{
    slow_start, AckEvent, AckSample, CaState, CcInfo, CcSetup, CongestionOps, Conn, Ns3Class,
    Param, Range, Window, NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Illinois {
    alpha_min: f64,
    alpha_max: f64,
    alpha_base: f64,
    beta_min: f64,
    beta_max: f64,
    beta_base: f64,
    win_thresh: f64,
    theta: u32,
    pub alpha: f64,
    pub beta: f64,
    base_rtt: f64,
    max_rtt: f64,
    sum_rtt: f64,
    cnt_rtt: u32,
    round_end: u64,
    rtt_above: bool,
    rtt_low: u32,
}

impl Illinois {
    /// Section III's alpha and beta from the average (`da`) and largest (`dm`) queueing
    /// delay, in seconds.
    fn update(&mut self, da: f64, dm: f64) {
        let d1 = dm / 100.0;
        if da <= d1 {
            if !self.rtt_above {
                self.alpha = self.alpha_max;
            }
            self.rtt_low += 1;
            if self.rtt_low >= self.theta {
                self.rtt_low = 0;
                self.rtt_above = false;
                self.alpha = self.alpha_max;
            }
        } else {
            self.rtt_above = true;
            // alpha = k1 / (k2 + da) through (d1, alpha_max) and (dm, alpha_min).
            let (dm1, da1) = (dm - d1, da - d1);
            self.alpha = dm1 * self.alpha_max
                / (dm1 + da1 * (self.alpha_max - self.alpha_min) / self.alpha_min);
        }
        let (d2, d3) = (dm / 10.0, 8.0 * dm / 10.0);
        self.beta = if da <= d2 {
            self.beta_min
        } else if da < d3 {
            (self.beta_min * d3 - self.beta_max * d2 + (self.beta_max - self.beta_min) * da)
                / (d3 - d2)
        } else {
            self.beta_max
        };
    }
}

crate::params! {
    /// Illinois's parameters (`cc_params`), each with its declaration.
    pub struct IllinoisParams {
        alpha_min: f64 = Param::new("alpha_min", 0.3, Range::Positive, "smallest increase per round trip").ns3("AlphaMin"),
        alpha_max: f64 = Param::new("alpha_max", 10.0, Range::Positive, "largest increase per round trip").ns3("AlphaMax"),
        alpha_base: f64 = Param::new("alpha_base", 1.0, Range::Positive, "increase below win_thresh").ns3("AlphaBase"),
        beta_min: f64 = Param::new("beta_min", 0.125, Range::Between(0.0, 1.0), "smallest decrease").ns3("BetaMin"),
        beta_max: f64 = Param::new("beta_max", 0.5, Range::Between(0.0, 1.0), "largest decrease").ns3("BetaMax"),
        beta_base: f64 = Param::new("beta_base", 0.5, Range::Between(0.0, 1.0), "decrease below win_thresh").ns3("BetaBase"),
        win_thresh: f64 = Param::new("win_thresh", 15.0, Range::Segments, "Reno below this window").ns3("WinThresh"),
        theta: f64 = Param::new("theta", 5.0, Range::Whole(1, 1_000_000), "rounds of low delay before alpha_max again").ns3("Theta"),
    }
}

impl CongestionOps for Illinois {
    const INFO: CcInfo = CcInfo {
        name: "illinois",
        ns3: &[Ns3Class::newreno("TcpIllinois")],
        ecn_per_segment: false,
        params: IllinoisParams::PARAMS,
    };

    type Params = IllinoisParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &IllinoisParams, _setup: &CcSetup) -> Illinois {
        Illinois {
            alpha_min: p.alpha_min,
            alpha_max: p.alpha_max,
            alpha_base: p.alpha_base,
            beta_min: p.beta_min,
            beta_max: p.beta_max,
            beta_base: p.beta_base,
            win_thresh: p.win_thresh,
            theta: p.theta as u32,
            alpha: p.alpha_max,
            beta: p.beta_base,
            base_rtt: f64::INFINITY,
            max_rtt: 0.0,
            sum_rtt: 0.0,
            cnt_rtt: 0,
            round_end: 0,
            rtt_above: false,
            rtt_low: 0,
        }
    }

    fn pkts_acked(&mut self, _w: &mut Window, sample: &AckSample) {
        if let Some(r) = sample.rtt {
            let r = r.as_secs_f64();
            if r > 0.0 {
                self.base_rtt = self.base_rtt.min(r);
                self.max_rtt = self.max_rtt.max(r);
                self.sum_rtt += r;
                self.cnt_rtt += 1;
            }
        }
    }

    fn set_state(&mut self, _w: &mut Window, state: CaState, _conn: &Conn) {
        if state == CaState::Loss {
            self.alpha = self.alpha_base;
            self.beta = self.beta_base;
            self.rtt_low = 0;
            self.rtt_above = false;
            self.cnt_rtt = 0;
            self.sum_rtt = 0.0;
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if ev.una >= self.round_end {
            if w.cwnd < self.win_thresh {
                self.alpha = self.alpha_base;
                self.beta = self.beta_base;
            } else if self.cnt_rtt > 0 {
                let da = self.sum_rtt / self.cnt_rtt as f64 - self.base_rtt;
                let dm = self.max_rtt - self.base_rtt;
                self.update(da, dm);
            }
            self.round_end = ev.sent;
            self.cnt_rtt = 0;
            self.sum_rtt = 0.0;
        }
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
        } else {
            w.cwnd += self.alpha * ev.credit / w.cwnd;
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        ((1.0 - self.beta) * w.cwnd.min(w.rwnd)).max(2.0)
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("illinois_alpha", self.alpha),
            ("illinois_beta", self.beta),
            NO_TRACE,
            NO_TRACE,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn illinois() -> Illinois {
        Illinois::new(&IllinoisParams::default(), &CcSetup::default())
    }

    /// alpha falls from alpha_max at d1 = dm/100 to alpha_min at dm; beta rises from beta_min
    /// at d2 = dm/10 to beta_max at d3 = 8 dm/10.
    #[test]
    fn alpha_and_beta_follow_the_queueing_delay() {
        let mut i = illinois();
        let dm = 0.1;
        i.update(0.0005, dm); // da <= d1 = 1 ms
        assert_eq!(i.alpha, 10.0);
        assert_eq!(i.beta, 0.125);
        i.update(dm, dm);
        assert!((i.alpha - 0.3).abs() < 1e-12, "{}", i.alpha);
        assert_eq!(i.beta, 0.5);
        i.update(0.001 + 1e-12, dm); // just above d1: about alpha_max
        assert!((i.alpha - 10.0).abs() < 1e-6, "{}", i.alpha);
        i.update(0.045, dm); // halfway between d2 = 10 ms and d3 = 80 ms
        assert!((i.beta - 0.3125).abs() < 1e-12, "{}", i.beta);
        // Once above d1, alpha_max comes back only after theta low rounds.
        i.update(0.0, dm);
        assert!(i.alpha < 10.0);
        for _ in 0..4 {
            i.update(0.0, dm);
        }
        assert_eq!(i.alpha, 10.0);
    }

    #[test]
    fn grows_by_alpha_and_backs_off_by_beta() {
        let mut i = illinois();
        i.round_end = u64::MAX;
        i.alpha = 2.0;
        i.beta = 0.25;
        let mut w = Window::new(100.0, 50.0, 1e9);
        i.cong_avoid(&mut w, AckEvent::one_segment(SimTime::ZERO, None));
        assert!((w.cwnd - 100.02).abs() < 1e-12);
        let w = Window::new(100.0, 50.0, 1e9);
        assert_eq!(i.ssthresh(&w, SimTime::ZERO), 75.0);
    }
}
