//! Scalable TCP: T. Kelly, "Scalable TCP: Improving Performance in Highspeed Wide Area
//! Networks", ACM CCR 33(2), 2003.
//!
//! Above the legacy window (16 segments) congestion avoidance adds a = 0.01 segment per ACK
//! (a fixed 1% per round trip, whatever the window) and a loss leaves (1 - b) cwnd with
//! b = 0.125, so the time to recover from a loss does not grow with the window. At or below
//! the legacy window it is Reno.

use super::{reno_increase, slow_start, AckEvent, Params, Window};

#[derive(Clone, Debug)]
pub struct Scalable {
    /// RFC 3742's max_ssthresh in segments (the flow's `max_ssthresh`); 0 = off.
    max_ssthresh: f64,
    a: f64,
    b: f64,
    legacy: f64,
}

impl Scalable {
    pub fn new(p: &mut Params, max_ssthresh: f64) -> Scalable {
        Scalable {
            max_ssthresh,
            a: p.get("a", 0.01),
            b: p.get("b", 0.125),
            legacy: p.get("legacy_window", 16.0),
        }
    }

    pub fn on_ack(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev, self.max_ssthresh);
        } else if w.cwnd <= self.legacy {
            reno_increase(w, &ev);
        } else {
            w.cwnd += self.a * ev.credit;
        }
    }

    pub fn reduced_window(&mut self, w: &Window) -> f64 {
        let cwnd = w.cwnd.min(w.rwnd);
        if cwnd <= self.legacy {
            cwnd / 2.0
        } else {
            cwnd * (1.0 - self.b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;
    use std::collections::BTreeMap;

    #[test]
    fn one_percent_per_round_trip_and_an_eighth_off() {
        let given = BTreeMap::new();
        let mut s = Scalable::new(&mut Params::new(&given), 0.0);
        let mut w = Window {
            cwnd: 1000.0,
            ssthresh: 10.0,
            rwnd: 1e9,
        };
        let ack = AckEvent {
            now: SimTime::ZERO,
            acked: 1,
            credit: 1.0,
            rtt: None,
            delay: None,
            una: 0,
            sent: 0,
        };
        for _ in 0..1000 {
            s.on_ack(&mut w, ack);
        }
        assert!((w.cwnd - 1010.0).abs() < 1e-9);
        assert!((s.reduced_window(&w) - 1010.0 * 0.875).abs() < 1e-9);
        let small = Window {
            cwnd: 10.0,
            ssthresh: 5.0,
            rwnd: 1e9,
        };
        assert_eq!(s.reduced_window(&small), 5.0);
    }
}
