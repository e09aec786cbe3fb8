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
//! W_max = cwnd (1 + beta) / 2.

use super::{reno_increase, slow_start, AckEvent, Params, Window};

#[derive(Clone, Debug)]
pub struct Bic {
    /// RFC 3742's max_ssthresh in segments (the flow's `max_ssthresh`); 0 = off.
    max_ssthresh: f64,
    beta: f64,
    low_window: f64,
    max_increment: f64,
    smooth_part: f64,
    fast_convergence: bool,
    pub last_max: f64,
}

const B: f64 = 4.0;

impl Bic {
    pub fn new(p: &mut Params, max_ssthresh: f64) -> Bic {
        Bic {
            max_ssthresh,
            beta: p.get("beta", 0.8),
            low_window: p.get("low_window", 14.0),
            max_increment: p.get("max_increment", 16.0),
            smooth_part: p.get("smooth_part", 20.0),
            fast_convergence: p.get("fast_convergence", 1.0) != 0.0,
            last_max: 0.0,
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

    pub fn on_ack(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev, self.max_ssthresh);
        } else if w.cwnd <= self.low_window {
            reno_increase(w, &ev);
        } else {
            w.cwnd += ev.credit / self.acks_per_segment(w.cwnd).max(1.0);
        }
    }

    pub fn reduced_window(&mut self, w: &Window) -> f64 {
        let cwnd = w.cwnd.min(w.rwnd);
        self.last_max = if self.fast_convergence && cwnd < self.last_max {
            cwnd * (1.0 + self.beta) / 2.0
        } else {
            cwnd
        };
        if cwnd <= self.low_window {
            cwnd / 2.0
        } else {
            cwnd * self.beta
        }
    }

    pub fn on_timeout(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn binary_search_then_max_probing() {
        let given = BTreeMap::new();
        let mut b = Bic::new(&mut Params::new(&given), 0.0);
        let w = Window {
            cwnd: 1000.0,
            ssthresh: 1.0,
            rwnd: 1e9,
        };
        assert_eq!(b.reduced_window(&w), 800.0);
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
        let smaller = Window {
            cwnd: 900.0,
            ssthresh: 1.0,
            rwnd: 1e9,
        };
        b.reduced_window(&smaller);
        assert!((b.last_max - 900.0 * 0.9).abs() < 1e-9);
    }
}
