//! BIC TCP: L. Xu, K. Harfoush, I. Rhee, "Binary Increase Congestion Control for Fast,
//! Long Distance Networks", IEEE INFOCOM 2004; constants and the smoothing of Linux's
//! `tcp_bic`, which ns-2's TCP-Linux runs.
//!
//! Below `low_window` (14) segments it is Reno. Otherwise, after a loss at W_max the window
//! searches binarily toward W_max: each round trip it grows by half the distance (here a
//! quarter, Linux's `BICTCP_B` = 4), by at most `max_increment` (16) segments, and slows to
//! `smooth_part` (20) round trips per segment when close. Past W_max it probes for more,
//! slowly at first, then by `max_increment` per round trip (max probing). A loss leaves
//! `beta` (0.8) of the window; with fast convergence a loss below the previous W_max sets
//! W_max = cwnd (1 + beta) / 2 (Linux's `bictcp_recalc_ssthresh`), or `fc_wmax` x cwnd when
//! `fc_wmax` > 0: ns-3.44's `TcpBic::GetSsThresh` takes W_max = beta x cwnd = 0.8 cwnd
//! (`fc_wmax` 0.8 under `ns3_cc_defaults`).

use super::{
    slow_start, AckEvent, CcInfo, CcSetup, CongestionOps, Ns3Class, Param, Range, Window, NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Bic {
    beta: f64,
    low_window: f64,
    max_increment: f64,
    smooth_part: f64,
    fast_convergence: bool,
    fc_wmax: f64,
    pub last_max: f64,
}

const B: f64 = 4.0;

crate::params! {
    /// BIC's parameters (`cc_params`), each with its declaration.
    pub struct BicParams {
        beta: f64 = Param::new("beta", 0.8, Range::Between(0.0, 1.0), "window kept on a loss")
            .ns2("bic_beta_")
            .ns3("Beta"),
        low_window: f64 = Param::new("low_window", 14.0, Range::Segments, "Reno at or below")
            .ns2("low_window_")
            .ns3("LowWnd"),
        max_increment: f64 = Param::new("max_increment", 16.0, Range::Positive, "most segments added per RTT")
            .ns2("bic_max_increment_")
            .ns3("MaxIncr"),
        smooth_part: f64 = Param::new("smooth_part", 20.0, Range::Positive, "RTTs per segment near W_max")
            .ns3("SmoothPart"),
        fast_convergence: bool = Param::new("fast_convergence", 1.0, Range::Flag, "lower W_max after a shrink")
            .ns2("bic_fast_convergence_")
            .ns3("FastConvergence"),
        fc_wmax: f64 = Param::new("fc_wmax", 0.0, Range::NonNegative, "W_max / cwnd on fast convergence; 0: (1 + beta) / 2")
            .profile_defaults(&[("ns3", 0.8)]),
    }
}

impl CongestionOps for Bic {
    const INFO: CcInfo = CcInfo {
        name: "bic",
        ns3: &[Ns3Class::newreno("TcpBic")],
        ecn_per_segment: false,
        params: BicParams::PARAMS,
    };

    type Params = BicParams;

    fn new(p: &BicParams, _setup: &CcSetup) -> Bic {
        Bic {
            beta: p.beta,
            low_window: p.low_window,
            max_increment: p.max_increment,
            smooth_part: p.smooth_part,
            fast_convergence: p.fast_convergence,
            fc_wmax: p.fc_wmax,
            last_max: 0.0,
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
        } else if w.cwnd <= self.low_window {
            // Per segment acknowledged, as ns-3's class counts them.
            w.cwnd += ev.credit / w.cwnd;
        } else {
            w.cwnd += ev.credit / self.acks_per_segment(w.cwnd).max(1.0);
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        if let Some(flight) = w.ns3_bytes_in_flight() {
            return self.ns3_ssthresh(w, flight);
        }
        let cwnd = w.cwnd.min(w.rwnd);
        self.last_max = if self.fast_convergence && cwnd < self.last_max {
            if self.fc_wmax > 0.0 {
                cwnd * self.fc_wmax
            } else {
                cwnd * (1.0 + self.beta) / 2.0
            }
        } else {
            cwnd
        };
        if cwnd <= self.low_window {
            cwnd / 2.0
        } else {
            cwnd * self.beta
        }
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [("bic_wmax", self.last_max), NO_TRACE, NO_TRACE, NO_TRACE]
    }
}

impl Bic {
    /// ns-3.44's `TcpBic::GetSsThresh` (under ns-3's class, [`Window::ns3_mss`] set): cwnd in
    /// whole segments w, W_max = floor(`fc_wmax` w) on fast convergence (else w), and below
    /// `LowWnd` (strictly) `TcpNewReno`'s max(2, bytesInFlight / 2), else max(2, beta w)
    /// segments truncated to whole bytes.
    fn ns3_ssthresh(&mut self, w: &Window, flight: f64) -> f64 {
        let seg = w.cwnd.floor();
        self.last_max = if self.fast_convergence && seg < self.last_max {
            let fc = if self.fc_wmax > 0.0 {
                self.fc_wmax
            } else {
                (1.0 + self.beta) / 2.0
            };
            (fc * seg).floor()
        } else {
            seg
        };
        if seg < self.low_window {
            ((flight * w.ns3_mss / 2.0).floor() / w.ns3_mss).max(2.0)
        } else {
            ((seg * self.beta).max(2.0) * w.ns3_mss).floor() / w.ns3_mss
        }
    }

    /// ACKs per one-segment increase at window `cwnd` (Linux `bictcp_update`'s cnt).
    pub fn acks_per_segment(&self, cwnd: f64) -> f64 {
        if self.last_max <= 0.0 {
            // No loss yet: probe as after passing W_max.
            return cwnd / self.max_increment;
        }
        if cwnd < self.last_max {
            let dist = (self.last_max - cwnd) / B;
            if dist > self.max_increment {
                cwnd / self.max_increment
            } else if dist <= 1.0 {
                cwnd * self.smooth_part / B
            } else {
                cwnd / dist
            }
        } else if cwnd < self.last_max + B {
            cwnd * self.smooth_part / B
        } else if cwnd < self.last_max + self.max_increment * (B - 1.0) {
            cwnd * (B - 1.0) / (cwnd - self.last_max)
        } else {
            cwnd / self.max_increment
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_search_then_max_probing() {
        let mut b = Bic::new(&BicParams::default(), &CcSetup::default());
        let w = Window::new(1000.0, 1.0, 1e9);
        assert_eq!(b.ssthresh(&w, SimTime::ZERO), 800.0);
        assert_eq!(b.last_max, 1000.0);
        // Far below W_max: capped at max_increment per round trip.
        assert!((b.acks_per_segment(800.0) - 800.0 / 16.0).abs() < 1e-9);
        // Closer: a quarter of the distance per round trip.
        assert!((b.acks_per_segment(960.0) - 960.0 / 10.0).abs() < 1e-9);
        // At W_max: smooth, 20/4 round trips per segment.
        assert!((b.acks_per_segment(1000.0) - 1000.0 * 5.0).abs() < 1e-9);
        // Well past it: max probing.
        assert!((b.acks_per_segment(1100.0) - 1100.0 / 16.0).abs() < 1e-9);
        // Fast convergence.
        let smaller = Window::new(900.0, 1.0, 1e9);
        b.ssthresh(&smaller, SimTime::ZERO);
        assert!((b.last_max - 900.0 * 0.9).abs() < 1e-9);
    }

    /// Fast convergence: a loss below the last W_max sets W_max = cwnd (1 + beta) / 2
    /// (Linux), or 0.8 cwnd as ns-3's TcpBic does.
    #[test]
    fn fast_convergence_lowers_w_max() {
        let mut b = Bic::new(&BicParams::default(), &CcSetup::default());
        b.last_max = 200.0;
        b.ssthresh(&Window::new(100.0, 1.0, 1e9), SimTime::ZERO);
        assert!((b.last_max - 90.0).abs() < 1e-12);
        let mut n = Bic::new(&BicParams::for_profile(Some("ns3")), &CcSetup::default());
        n.last_max = 200.0;
        n.ssthresh(&Window::new(100.0, 1.0, 1e9), SimTime::ZERO);
        assert!((n.last_max - 80.0).abs() < 1e-12);
    }
}
