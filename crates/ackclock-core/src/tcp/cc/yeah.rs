//! YeAH-TCP: A. Baiocchi, A. P. Castellani, F. Vacirca, "YeAH-TCP: Yet Another Highspeed
//! TCP", PFLDnet 2007. ns-3.44: `TcpYeah` (src/internet/model/tcp-yeah.cc: `IncreaseWindow`,
//! `GetSsThresh`, `CongestionStateSet`); Linux: net/ipv4/tcp_yeah.c.
//!
//! Once per round trip YeAH estimates the segments its flow keeps queued, Q = cwnd (RTT_min -
//! RTT_base) / RTT_min (RTT_min the round's smallest RTT, RTT_base the smallest seen), and the
//! congestion level L = (RTT_min - RTT_base) / RTT_base (section 3):
//!
//! - Fast mode (Q < alpha = 80 and L < 1/phi = 1/8): Scalable TCP's increase, 1 segment per
//!   min(cwnd, 100) segments acknowledged (`StcpAiFactor` 100).
//! - Slow mode: Reno's increase; when Q > alpha, precautionary decongestion takes
//!   min(Q / gamma, cwnd / 2^epsilon) segments off (never below `reno_count`) and sets
//!   ssthresh there. `reno_count`, the estimate of the window a competing Reno flow would
//!   have, is set to cwnd / 2 on entering slow mode and then grows by one each slow round;
//!   after zeta (50) fast rounds it resets to 2.
//! - A loss takes off max(Q_last, cwnd / 2^delta) segments, at most half the window, while
//!   fewer than rho (16) slow rounds were counted (not competing with Reno flows); otherwise
//!   half (competing).
//! - Slow start is Reno's. Rounds are windows of data: a round ends when the cumulative ACK
//!   passes the highest segment sent at its start; it counts only with more than two RTT
//!   samples. YeAH is off outside the Open state (`CongestionStateSet`).
//!
//! ns-3 tests L against `1 / m_phy` in integer arithmetic (`m_phy` is a `uint32_t`), which is
//! 0 for phy > 1: any queueing puts its YeAH in slow mode. `integer_phy` = 1 does the same (on
//! under `ns3_cc_defaults`, so in the `ns3` profile); 0 (the default) takes the paper's and
//! Linux's threshold, 1/phi (`rtt - baseRTT > baseRTT / phy`).

use super::{
    reno_increase, slow_start, AckEvent, AckSample, CaState, CcInfo, CcSetup, CongestionOps, Conn,
    Ns3Class, Param, Range, Window, NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Yeah {
    alpha: f64,
    gamma: f64,
    delta: u32,
    epsilon: u32,
    rho: u32,
    zeta: u32,
    stcp_ai: f64,
    /// The congestion level above which a round is slow: 1/phy, or ns-3's `1 / m_phy` in
    /// integers (`integer_phy`).
    level_max: f64,
    base_rtt: f64,
    round_min: f64,
    round_samples: u32,
    round_end: u64,
    doing_yeah: bool,
    /// Consecutive slow rounds (`m_doingRenoNow`).
    pub slow_rounds: u32,
    reno_count: f64,
    fast_count: u32,
    /// The queue estimate of the last round, segments.
    pub last_q: f64,
}

crate::params! {
    /// YeAH's parameters (`cc_params`), each with its declaration.
    pub struct YeahParams {
        alpha: f64 = Param::new("alpha", 80.0, Range::NonNegative, "segments queued above which YeAH decongests").ns3("Alpha"),
        gamma: f64 = Param::new("gamma", 1.0, Range::Positive, "fraction of the queue removed per round (Q / gamma)").ns3("Gamma"),
        delta: f64 = Param::new("delta", 3.0, Range::Whole(0, 31), "log2 of the smallest fraction of cwnd a loss removes").ns3("Delta"),
        epsilon: f64 = Param::new("epsilon", 1.0, Range::Whole(0, 31), "log2 of the largest fraction decongestion removes").ns3("Epsilon"),
        phy: f64 = Param::new("phy", 8.0, Range::Positive, "slow mode above a congestion level of 1/phy").ns3("Phy"),
        rho: f64 = Param::new("rho", 16.0, Range::Whole(0, 1_000_000), "slow rounds after which a loss means competing with Reno").ns3("Rho"),
        zeta: f64 = Param::new("zeta", 50.0, Range::Whole(0, 1_000_000), "fast rounds after which reno_count resets").ns3("Zeta"),
        stcp_ai: f64 = Param::new("stcp_ai", 100.0, Range::Segments, "Scalable's increase: 1 per min(cwnd, this) segments").ns3("StcpAiFactor"),
        integer_phy: bool = Param::new("integer_phy", 0.0, Range::Flag, "the level threshold 1/phy in integers, as ns-3")
            .profile_defaults(&[("ns3", 1.0)]),
    }
}

impl CongestionOps for Yeah {
    const INFO: CcInfo = CcInfo {
        name: "yeah",
        ns3: &[Ns3Class::newreno("TcpYeah")],
        ecn_per_segment: false,
        params: YeahParams::PARAMS,
    };

    type Params = YeahParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &YeahParams, _setup: &CcSetup) -> Yeah {
        Yeah {
            alpha: p.alpha,
            gamma: p.gamma,
            delta: p.delta as u32,
            epsilon: p.epsilon as u32,
            rho: p.rho as u32,
            zeta: p.zeta as u32,
            stcp_ai: p.stcp_ai,
            level_max: if p.integer_phy {
                // TcpYeah::IncreaseWindow: `L > (1 / m_phy)`, m_phy a uint32_t.
                (1 / (p.phy as u32).max(1)) as f64
            } else {
                1.0 / p.phy
            },
            base_rtt: f64::INFINITY,
            round_min: f64::INFINITY,
            round_samples: 0,
            round_end: 0,
            doing_yeah: true,
            slow_rounds: 0,
            reno_count: 2.0,
            fast_count: 0,
            last_q: 0.0,
        }
    }

    fn pkts_acked(&mut self, _w: &mut Window, sample: &AckSample) {
        if let Some(r) = sample.rtt {
            let r = r.as_secs_f64();
            if r > 0.0 {
                self.base_rtt = self.base_rtt.min(r);
                self.round_min = self.round_min.min(r);
                self.round_samples += 1;
            }
        }
    }

    fn set_state(&mut self, _w: &mut Window, state: CaState, _conn: &Conn) {
        self.doing_yeah = state == CaState::Open;
        if self.doing_yeah {
            self.round_min = f64::INFINITY;
            self.round_samples = 0;
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
        } else if self.slow_rounds == 0 {
            // Fast mode: Scalable's increase.
            w.cwnd += ev.credit / w.cwnd.min(self.stcp_ai);
        } else {
            reno_increase(w, &ev);
        }
        if ev.una < self.round_end {
            return;
        }
        if self.doing_yeah && self.round_samples > 2 && self.round_min.is_finite() {
            let seg_cwnd = w.cwnd.floor();
            let rtt_queue = self.round_min - self.base_rtt;
            let queue = (seg_cwnd * rtt_queue / self.round_min).floor();
            let level = rtt_queue / self.base_rtt;
            if queue > self.alpha || level > self.level_max {
                if queue > self.alpha && seg_cwnd > self.reno_count {
                    // Precautionary decongestion.
                    let reduction = (queue / self.gamma)
                        .floor()
                        .min((seg_cwnd / 2f64.powi(self.epsilon as i32)).floor());
                    w.cwnd = (seg_cwnd - reduction).max(self.reno_count);
                    w.ssthresh = w.cwnd;
                }
                if self.reno_count <= 2.0 {
                    self.reno_count = (w.cwnd.floor() / 2.0).floor().max(2.0);
                } else {
                    self.reno_count += 1.0;
                }
                self.slow_rounds += 1;
            } else {
                self.fast_count += 1;
                if self.fast_count > self.zeta {
                    self.reno_count = 2.0;
                    self.fast_count = 0;
                }
                self.slow_rounds = 0;
            }
            self.last_q = queue;
        }
        self.round_end = ev.sent;
        self.round_min = f64::INFINITY;
        self.round_samples = 0;
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        // ns-3.44's `TcpYeah::GetSsThresh` reduces the bytes in flight (whole segments of
        // them for the reduction); cwnd without ns-3's class.
        let bytes = w.ns3_bytes_in_flight();
        let flight = bytes.unwrap_or(w.cwnd.min(w.rwnd)).floor();
        let half = (flight / 2.0).floor().max(2.0);
        let reduction = if self.slow_rounds < self.rho {
            self.last_q
                .max((flight / 2f64.powi(self.delta as i32)).floor())
                .min(half)
        } else {
            half
        };
        self.fast_count = 0;
        self.reno_count = (self.reno_count / 2.0).floor().max(2.0);
        (bytes.unwrap_or(flight) - reduction).max(2.0)
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("yeah_queue", self.last_q),
            ("yeah_slow_rounds", self.slow_rounds as f64),
            NO_TRACE,
            NO_TRACE,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn yeah() -> Yeah {
        Yeah::new(&YeahParams::default(), &CcSetup::default())
    }

    fn round(y: &mut Yeah, w: &mut Window, rtt_ms: u64, end: u64) {
        for _ in 0..3 {
            y.pkts_acked(
                w,
                &AckSample {
                    now: SimTime::ZERO,
                    acked: 1,
                    rtt: Some(SimDuration::from_millis(rtt_ms)),
                    owd: None,
                    echo: None,
                    min_rtt: None,
                },
            );
        }
        let ev = AckEvent {
            una: end,
            sent: end + 1000,
            ..AckEvent::one_segment(SimTime::ZERO, None)
        };
        y.cong_avoid(w, ev);
    }

    /// Fast mode grows as Scalable (1 per 100 segments above 100); a queue above alpha puts
    /// YeAH in slow mode and decongests by min(Q / gamma, cwnd / 2).
    #[test]
    fn fast_mode_then_precautionary_decongestion() {
        let mut y = yeah();
        let mut w = Window::new(400.0, 10.0, 1e9);
        round(&mut y, &mut w, 100, 0); // base 100 ms, no queue: fast
        assert_eq!(y.slow_rounds, 0);
        let before = w.cwnd;
        y.cong_avoid(
            &mut w,
            AckEvent {
                una: 1,
                sent: 1,
                ..AckEvent::one_segment(SimTime::ZERO, None)
            },
        );
        assert!(
            (w.cwnd - before - 0.01).abs() < 1e-12,
            "{}",
            w.cwnd - before
        );
        // RTT 150 ms at cwnd 400: Q = floor(400 x 50 / 150) = 133 > 80: decongest by 133.
        w.cwnd = 400.0;
        round(&mut y, &mut w, 150, 1000);
        assert_eq!(y.last_q, 133.0);
        assert_eq!(y.slow_rounds, 1);
        // The Scalable step of this ACK came first (400.01 -> floor 400), then 400 - 133.
        assert_eq!(w.cwnd, 267.0);
        assert_eq!(w.ssthresh, 267.0);
    }

    /// A round with a small queue, Q = floor(100 x 5 / 105) = 4 < alpha and L = 5 / 100 < 1/8:
    /// fast for the paper and Linux; slow for ns-3, whose threshold `1 / m_phy` is 0 in
    /// integers (`integer_phy`).
    #[test]
    fn integer_phy_makes_any_queue_slow() {
        for (integer, slow) in [(0.0, 0), (1.0, 1)] {
            let given = std::collections::BTreeMap::from([("integer_phy".to_string(), integer)]);
            let mut y = Yeah::new(&YeahParams::given(&given).unwrap(), &CcSetup::default());
            let mut w = Window::new(100.0, 10.0, 1e9);
            round(&mut y, &mut w, 100, 0);
            assert_eq!(y.slow_rounds, 0);
            round(&mut y, &mut w, 105, 1000);
            assert_eq!(
                (y.last_q, y.slow_rounds),
                (4.0, slow),
                "integer_phy {integer}"
            );
        }
    }

    /// Not competing with Reno: a loss takes max(Q, cwnd / 8) off, at most half.
    #[test]
    fn a_loss_removes_the_queue() {
        let mut y = yeah();
        y.last_q = 30.0;
        let w = Window::new(100.0, 10.0, 1e9);
        assert_eq!(y.ssthresh(&w, SimTime::ZERO), 70.0);
        y.last_q = 5.0;
        assert_eq!(y.ssthresh(&w, SimTime::ZERO), 88.0); // 100 - floor(100 / 8)
        y.slow_rounds = 16;
        assert_eq!(y.ssthresh(&w, SimTime::ZERO), 50.0);
    }
}
