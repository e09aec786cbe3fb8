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
//! take delays in whole milliseconds (ns-3) or microseconds (Linux); here they are exact,
//! but under `ns3_model`.
//!
//! `ns3_model` = 1 (the `ns3` profile's default) follows ns-3.44's `TcpIllinois` in its own
//! types: d_a and d_m are whole milliseconds (`Time::GetMilliSeconds`); congestion avoidance
//! keeps a `uint32_t` counter, `m_ackCnt += segmentsAcked x alpha` (the fraction dropped at
//! each ACK), and grows cwnd by whole segments while the counter reaches cwnd in segments
//! (`IncreaseWindow`); `RecalcParam`'s Reno rule compares cwnd in *bytes* with `WinThresh`
//! (15), so it never applies to a window of more than 15 bytes; the round's sums restart at a
//! loss (`CongestionStateSet`'s `Reset`); ssthresh is (1 - beta) x whole segments, truncated
//! (`GetSsThresh`; ns-3 takes the bytes in flight where this takes cwnd).

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
    /// `ns3_model`: ns-3's `m_ackCnt`.
    ns3: Option<u32>,
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

impl Illinois {
    /// ns-3.44's `TcpIllinois::IncreaseWindow` (with `RecalcParam` and `Reset`).
    fn ns3_cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if ev.una >= self.round_end {
            // `RecalcParam(m_cWnd)`: the window in bytes against `WinThresh` in segments.
            if self.cnt_rtt > 0 {
                let ms = |d: f64| (d * 1000.0).floor() / 1000.0;
                let da = ms(self.sum_rtt / self.cnt_rtt as f64 - self.base_rtt);
                let dm = ms(self.max_rtt - self.base_rtt);
                self.update(da, dm);
            }
            self.round_end = ev.sent;
            self.cnt_rtt = 0;
            self.sum_rtt = 0.0;
        }
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
            return;
        }
        let Some(ack_cnt) = self.ns3.as_mut() else {
            return;
        };
        let mut seg_cwnd = (w.cwnd.floor() as u32).max(1);
        let old = seg_cwnd;
        if ev.acked > 0 {
            *ack_cnt = (f64::from(*ack_cnt) + ev.acked as f64 * self.alpha) as u32;
        }
        while *ack_cnt >= seg_cwnd {
            *ack_cnt -= seg_cwnd;
            seg_cwnd += 1;
        }
        if seg_cwnd != old {
            w.cwnd = f64::from(seg_cwnd);
        }
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
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "ns-3.44's TcpIllinois arithmetic (module notes)")
            .profile_defaults(&[("ns3", 1.0)]),
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
            ns3: p.ns3_model.then_some(0),
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
        if self.ns3.is_some() {
            self.ns3_cong_avoid(w, ev);
            return;
        }
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
        if self.ns3.is_some() {
            // `GetSsThresh`: whole segments of the bytes in flight, truncated.
            let flight = w.ns3_bytes_in_flight().unwrap_or(w.cwnd.min(w.rwnd));
            return ((1.0 - self.beta) * flight.floor()).max(2.0).floor();
        }
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

    /// ns-3.44's `IncreaseWindow`: a `uint32_t` counter takes segments x alpha, its fraction
    /// dropped, and cwnd grows by whole segments; d_a and d_m in whole milliseconds.
    #[test]
    fn ns3_model_counts_in_whole_segments_and_milliseconds() {
        let p = IllinoisParams {
            ns3_model: true,
            ..IllinoisParams::default()
        };
        let mut i = Illinois::new(&p, &CcSetup::default());
        let mut w = Window::new(20.0, 10.0, 1e9);
        let ack = |i: &mut Illinois, w: &mut Window, acked: u64| {
            let mut ev = AckEvent::one_segment(SimTime::ZERO, None);
            ev.acked = acked;
            ev.una = 0;
            ev.sent = 0;
            i.cong_avoid(w, ev);
        };
        // alpha_max 10: two segments add 20 = cwnd, one whole segment.
        ack(&mut i, &mut w, 2);
        assert_eq!((w.cwnd, i.ns3), (21.0, Some(0)));
        // alpha 0.3: 2 x 0.3 = 0.6 is truncated away on every ACK, so cwnd never grows.
        i.alpha = 0.3;
        for _ in 0..100 {
            ack(&mut i, &mut w, 2);
        }
        assert_eq!((w.cwnd, i.ns3), (21.0, Some(0)));
        // alpha 1.7: 3.4 -> 3 per ACK; seven ACKs make 21, one segment.
        i.alpha = 1.7;
        for _ in 0..7 {
            ack(&mut i, &mut w, 2);
        }
        assert_eq!((w.cwnd, i.ns3), (22.0, Some(0)));
        // RecalcParam: 10.6 ms of average and 40.9 ms of largest queueing delay are 10 and
        // 40 ms: alpha from k1 / (k2 + da) with those.
        i.base_rtt = 0.100;
        i.max_rtt = 0.1409;
        i.sum_rtt = 2.0 * 0.1106;
        i.cnt_rtt = 2;
        i.round_end = 0;
        let mut ev = AckEvent::one_segment(SimTime::ZERO, None);
        ev.acked = 0;
        ev.una = 5;
        ev.sent = 9;
        i.cong_avoid(&mut w, ev);
        let (dm, da) = (0.040 - 0.0004, 0.010 - 0.0004);
        let alpha = dm * 10.0 / (dm + da * (10.0 - 0.3) / 0.3);
        assert!((i.alpha - alpha).abs() < 1e-9, "{} {alpha}", i.alpha);
        // ssthresh: (1 - beta) x whole segments, truncated.
        i.beta = 0.3;
        let w = Window::new(22.7, 10.0, 1e9);
        assert_eq!(i.ssthresh(&w, SimTime::ZERO), (0.7f64 * 22.0).floor());
    }
}
