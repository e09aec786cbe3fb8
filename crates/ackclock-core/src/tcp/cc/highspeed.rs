//! HighSpeed TCP: RFC 3649, "HighSpeed TCP for Large Congestion Windows" (S. Floyd, 2003),
//! with RFC 3742's limited slow start.
//!
//! At or below `low_window` (38) segments it is Reno. Above, the response function is a line
//! in log-log space through (Low_Window, Low_P) and (High_Window, High_P), with Low_P =
//! 1.5 / Low_Window^2 (Reno's loss rate at that window) (section 5):
//!
//!   p(w) = exp(log Low_P + (log w - log Low_W) (log High_P - log Low_P) / (log High_W - log Low_W))
//!   b(w) = (High_Decrease - 0.5) (log w - log Low_W) / (log High_W - log Low_W) + 0.5
//!   a(w) = w^2 p(w) 2 b(w) / (2 - b(w))
//!
//! Congestion avoidance adds a(w)/w per ACK; a loss leaves w (1 - b(w)). Defaults Low_Window
//! 38, High_Window 83000, High_P 1e-7, High_Decrease 0.1 (ns-2's `low_window_`,
//! `high_window_`, `high_p_`, `high_decrease_`).

use super::{slow_start, AckEvent, CcInfo, CcSetup, CongestionOps, Ns3Class, Param, Range, Window};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct HighSpeed {
    low_window: f64,
    high_window: f64,
    high_decrease: f64,
    log_low_p: f64,
    log_high_p: f64,
}

crate::params! {
    /// HighSpeed's parameters (`cc_params`), each with its declaration.
    pub struct HighSpeedParams {
        low_window: f64 = Param::new("low_window", 38.0, Range::Segments, "Low_Window: Reno at or below")
            .ns2("low_window_"),
        high_window: f64 = Param::new("high_window", 83000.0, Range::Segments, "High_Window")
            .ns2("high_window_"),
        high_p: f64 = Param::new("high_p", 1e-7, Range::Between(0.0, 1.0), "High_P: loss rate at High_Window")
            .ns2("high_p_"),
        high_decrease: f64 = Param::new("high_decrease", 0.1, Range::Between(0.0, 1.0), "b(High_Window)")
            .ns2("high_decrease_"),
    }
}

impl CongestionOps for HighSpeed {
    const INFO: CcInfo = CcInfo {
        name: "highspeed",
        ns3: &[Ns3Class::newreno("TcpHighSpeed")],
        ecn_per_segment: false,
        params: HighSpeedParams::PARAMS,
    };

    type Params = HighSpeedParams;

    fn new(p: &HighSpeedParams, _setup: &CcSetup) -> HighSpeed {
        let low_window = p.low_window;
        let high_window = p.high_window;
        let high_p = p.high_p;
        let high_decrease = p.high_decrease;
        HighSpeed {
            low_window,
            high_window,
            high_decrease,
            log_low_p: (1.5 / (low_window * low_window)).ln(),
            log_high_p: high_p.ln(),
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
        } else if w.cwnd <= self.low_window {
            // Per segment acknowledged, as ns-3's class counts them.
            w.cwnd += ev.credit / w.cwnd;
        } else {
            w.cwnd += self.a(w.cwnd) * ev.credit / w.cwnd;
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        let cwnd = w.cwnd.min(w.rwnd);
        cwnd * (1.0 - self.b(cwnd))
    }
}

impl HighSpeed {
    fn fraction(&self, w: f64) -> f64 {
        (w.ln() - self.low_window.ln()) / (self.high_window.ln() - self.low_window.ln())
    }

    /// The decrease factor b(w).
    pub fn b(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 0.5;
        }
        (self.high_decrease - 0.5) * self.fraction(w) + 0.5
    }

    /// The increase a(w), in segments per round trip.
    pub fn a(&self, w: f64) -> f64 {
        if w <= self.low_window {
            return 1.0;
        }
        let p = (self.log_low_p + self.fraction(w) * (self.log_high_p - self.log_low_p)).exp();
        let b = self.b(w);
        w * w * p * 2.0 * b / (2.0 - b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hs() -> HighSpeed {
        HighSpeed::new(&HighSpeedParams::default(), &CcSetup::default())
    }

    #[test]
    fn response_function_matches_rfc3649_table() {
        let h = hs();
        // RFC 3649's table of a(w) and b(w): its rows are where a(w) reaches whole numbers,
        // so the formula's values are within a few percent of them.
        for (w, a, b) in [
            (38.0, 1.0, 0.50),
            (118.0, 2.0, 0.44),
            (221.0, 3.0, 0.41),
            (1058.0, 8.0, 0.33),
            (83000.0, 72.0, 0.10),
        ] {
            assert!((h.a(w) - a).abs() / a < 0.08, "a({w}) = {} vs {a}", h.a(w));
            assert!((h.b(w) - b).abs() < 0.011, "b({w}) = {} vs {b}", h.b(w));
        }
        assert_eq!(h.a(20.0), 1.0);
        assert_eq!(h.b(20.0), 0.5);
    }

    #[test]
    fn loss_keeps_one_minus_b() {
        let mut h = hs();
        let w = Window::new(83000.0, 1.0, 1e9);
        assert!((h.ssthresh(&w, SimTime::ZERO) - 83000.0 * 0.9).abs() < 1.0);
    }
}
