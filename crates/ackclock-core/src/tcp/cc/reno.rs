//! Reno congestion control: RFC 5681, "TCP Congestion Control", section 3.1.
//!
//! - Slow start (cwnd < ssthresh): cwnd += 1 segment per ACK (3.1, "increase cwnd by at
//!   most SMSS bytes for each ACK received").
//! - Congestion avoidance: cwnd += 1/cwnd per ACK (3.1, equation 3), about one segment per RTT.
//! - On loss: the window halves, W/2 (equation 4; the sender makes ssthresh at least two
//!   segments). RFC 5681 takes W as FlightSize; ns-2's `Agent/TCP` takes min(cwnd, window),
//!   and so do we, because the two agree whenever the sender is window-limited and the
//!   `ns2` profile must reproduce ns-2.
//!
//! - Limited slow start (RFC 3742, `max_ssthresh`): above max_ssthresh segments, slow
//!   start adds 1/K per ACK with K = floor(cwnd / (max_ssthresh / 2)), at most
//!   max_ssthresh/2 segments per round trip.
//!
//! With packet-counted windows growth is per ACK, as in ns-2, RFC 5681's default and ns-3's
//! `TcpNewReno` (one segment per ACK in slow start, one increment per ACK in congestion
//! avoidance, however many segments the ACK covers). With byte-counted windows it is per
//! segment acknowledged (RFC 3465 appropriate byte counting, limit L = 2 segments per ACK in
//! slow start), as IKRSimLib counts bytes acknowledged and Linux (and ns-3's `TcpLinuxReno`)
//! counts segments acknowledged: with delayed ACKs the window then opens twice as fast as
//! ns-2's. Linux applies no limit L and stops slow start exactly at ssthresh, crediting the
//! rest of the ACK to congestion avoidance; here an ACK that crosses ssthresh is credited to
//! slow start whole, which differs only on stretch ACKs and at the crossing.

use super::{slow_start, AckEvent, Window};

#[derive(Clone, Copy, Debug, Default)]
pub struct Reno {
    /// RFC 3742's max_ssthresh in segments; 0 turns limited slow start off.
    pub max_ssthresh: f64,
}

impl Reno {
    #[inline]
    pub fn on_ack(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev, self.max_ssthresh);
        } else {
            w.cwnd += ev.credit / w.cwnd;
        }
    }

    pub fn reduced_window(&mut self, w: &Window) -> f64 {
        w.cwnd.min(w.rwnd) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;

    fn ack() -> AckEvent {
        AckEvent::one_segment(SimTime::ZERO, None)
    }

    #[test]
    fn slow_start_adds_one_per_ack() {
        let mut w = Window {
            cwnd: 2.0,
            ssthresh: 10.0,
            rwnd: 100.0,
        };
        Reno::default().on_ack(&mut w, ack());
        assert_eq!(w.cwnd, 3.0);
    }

    #[test]
    fn congestion_avoidance_adds_one_per_window() {
        let mut w = Window {
            cwnd: 10.0,
            ssthresh: 5.0,
            rwnd: 100.0,
        };
        for _ in 0..10 {
            Reno::default().on_ack(&mut w, ack());
        }
        // Ten ACKs of 1/cwnd each grow a 10-segment window by just under one segment.
        assert!(w.cwnd > 10.95 && w.cwnd < 11.0, "{}", w.cwnd);
    }

    #[test]
    fn loss_halves_the_usable_window() {
        let w = Window {
            cwnd: 17.6,
            ssthresh: 0.0,
            rwnd: 100.0,
        };
        assert_eq!(Reno::default().reduced_window(&w), 8.8);
        let limited = Window {
            cwnd: 60.0,
            ssthresh: 0.0,
            rwnd: 20.0,
        };
        assert_eq!(Reno::default().reduced_window(&limited), 10.0);
    }

    #[test]
    fn limited_slow_start_adds_at_most_half_max_ssthresh_per_round_trip() {
        let mut reno = Reno {
            max_ssthresh: 100.0,
        };
        let mut w = Window {
            cwnd: 400.0,
            ssthresh: f64::INFINITY,
            rwnd: 1e9,
        };
        // One round trip: one ACK per segment of the window.
        let start = w.cwnd;
        for _ in 0..400 {
            reno.on_ack(&mut w, ack());
        }
        // K = 8 at cwnd 400: about 400/8 = 50 = max_ssthresh/2 segments added.
        assert!((w.cwnd - start - 50.0).abs() < 2.0, "{}", w.cwnd);
        let mut below = Window {
            cwnd: 50.0,
            ssthresh: f64::INFINITY,
            rwnd: 1e9,
        };
        reno.on_ack(&mut below, ack());
        assert_eq!(below.cwnd, 51.0);
    }

    #[test]
    fn byte_counting_credits_every_segment_acknowledged() {
        let mut reno = Reno::default();
        let two = AckEvent {
            now: SimTime::ZERO,
            acked: 2,
            credit: 2.0,
            rtt: None,
            delay: None,
            una: 0,
            sent: 0,
        };
        let mut ca = Window {
            cwnd: 10.0,
            ssthresh: 5.0,
            rwnd: 100.0,
        };
        reno.on_ack(&mut ca, two);
        assert_eq!(ca.cwnd, 10.2);
        let mut ss = Window {
            cwnd: 4.0,
            ssthresh: 50.0,
            rwnd: 100.0,
        };
        let stretch = AckEvent {
            now: SimTime::ZERO,
            acked: 5,
            credit: 5.0,
            rtt: None,
            delay: None,
            una: 0,
            sent: 0,
        };
        reno.on_ack(&mut ss, stretch);
        assert_eq!(
            ss.cwnd, 6.0,
            "slow start takes at most two segments per ACK"
        );
    }
}
