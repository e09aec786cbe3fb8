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
//!
//! Under ns-3's class (the `ns3` profile: [`Window::ns3_mss`] set) it is ns-3.44's
//! `TcpHighSpeed` (src/internet/model/tcp-highspeed.cc), which reads a(w) and b(w) from RFC
//! 3649 appendix B's table (`TableLookupA`, `TableLookupB`: the first row whose w is at least
//! the window in whole segments; a(w) is the row's number) instead of the formula:
//! `CongestionAvoidance` adds a(w) per segment acknowledged to a counter of whole segments
//! (`m_ackCnt`) and one segment to cwnd each time it reaches cwnd; `GetSsThresh` keeps
//! max(2, w (1 - b(w))) whole segments of w, the segments in flight (`bytesInFlight`).

use super::{
    ns3_increase_window, slow_start, AckEvent, CcInfo, CcSetup, CongestionOps, Ns3Class, Param,
    Range, Window,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct HighSpeed {
    low_window: f64,
    high_window: f64,
    high_decrease: f64,
    log_low_p: f64,
    log_high_p: f64,
    /// ns-3's `m_ackCnt`: a(w) per segment acknowledged, in whole segments.
    ack_cnt: u32,
}

/// RFC 3649 appendix B: each row's largest window w (segments) and its b(w); a(w) is the row's
/// number (1 for the first). Windows above the last row take the last row's values.
const RFC3649_TABLE: [(u32, f64); 73] = [
    (38, 0.50),
    (118, 0.44),
    (221, 0.41),
    (347, 0.38),
    (495, 0.37),
    (663, 0.35),
    (851, 0.34),
    (1058, 0.33),
    (1284, 0.32),
    (1529, 0.31),
    (1793, 0.30),
    (2076, 0.29),
    (2378, 0.28),
    (2699, 0.28),
    (3039, 0.27),
    (3399, 0.27),
    (3778, 0.26),
    (4177, 0.26),
    (4596, 0.25),
    (5036, 0.25),
    (5497, 0.24),
    (5979, 0.24),
    (6483, 0.23),
    (7009, 0.23),
    (7558, 0.22),
    (8130, 0.22),
    (8726, 0.22),
    (9346, 0.21),
    (9991, 0.21),
    (10661, 0.21),
    (11358, 0.20),
    (12082, 0.20),
    (12834, 0.20),
    (13614, 0.19),
    (14424, 0.19),
    (15265, 0.19),
    (16137, 0.19),
    (17042, 0.18),
    (17981, 0.18),
    (18955, 0.18),
    (19965, 0.17),
    (21013, 0.17),
    (22101, 0.17),
    (23230, 0.17),
    (24402, 0.16),
    (25618, 0.16),
    (26881, 0.16),
    (28193, 0.16),
    (29557, 0.15),
    (30975, 0.15),
    (32450, 0.15),
    (33986, 0.15),
    (35586, 0.14),
    (37253, 0.14),
    (38992, 0.14),
    (40808, 0.14),
    (42707, 0.13),
    (44694, 0.13),
    (46776, 0.13),
    (48961, 0.13),
    (51258, 0.13),
    (53667, 0.12),
    (56230, 0.12),
    (58932, 0.12),
    (61799, 0.12),
    (64851, 0.11),
    (68113, 0.11),
    (71617, 0.11),
    (75401, 0.10),
    (79517, 0.10),
    (84035, 0.10),
    (89053, 0.10),
    (94717, 0.09),
];

/// The table's row for a window of `w` whole segments (its index).
fn rfc3649_row(w: u32) -> usize {
    RFC3649_TABLE
        .iter()
        .position(|&(max, _)| w <= max)
        .unwrap_or(RFC3649_TABLE.len() - 1)
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
            ack_cnt: 0,
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.ns3_mss > 0.0 && ev.per_ack {
            ns3_increase_window(w, &ev, |w, acked| self.ns3_congestion_avoidance(w, acked));
            return;
        }
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
        if let Some(flight) = w.ns3_bytes_in_flight() {
            // ns-3.44's `TcpHighSpeed::GetSsThresh`: whole segments of the bytes in flight,
            // max(2, w (1 - b(w))) truncated.
            let seg = flight.floor();
            let b = RFC3649_TABLE[rfc3649_row(seg as u32)].1;
            return (seg * (1.0 - b)).max(2.0).floor();
        }
        let cwnd = w.cwnd.min(w.rwnd);
        cwnd * (1.0 - self.b(cwnd))
    }
}

impl HighSpeed {
    /// ns-3.44's `TcpHighSpeed::CongestionAvoidance`: `acked` segments, each worth a(w).
    fn ns3_congestion_avoidance(&mut self, w: &mut Window, acked: u64) {
        let mut seg = w.cwnd.floor() as u32;
        let old = seg;
        let a = rfc3649_row(seg) as u32 + 1;
        self.ack_cnt = self.ack_cnt.wrapping_add((acked as u32).wrapping_mul(a));
        while self.ack_cnt >= seg.max(1) {
            self.ack_cnt -= seg.max(1);
            seg += 1;
        }
        if seg != old {
            w.cwnd = f64::from(seg);
        }
    }

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
