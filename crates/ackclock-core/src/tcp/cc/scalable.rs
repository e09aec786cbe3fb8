//! Scalable TCP: T. Kelly, "Scalable TCP: Improving Performance in Highspeed Wide Area
//! Networks", ACM CCR 33(2), 2003.
//!
//! Above the legacy window (16 segments) congestion avoidance adds a = 0.01 segment per ACK
//! (a fixed 1% per round trip, whatever the window) and a loss leaves (1 - b) cwnd with
//! b = 0.125, so the time to recover from a loss does not grow with the window. At or below
//! the legacy window it is Reno.
//!
//! ns-3.44's `TcpScalable` (src/internet/model/tcp-scalable.cc, `CongestionAvoidance`) adds
//! one segment per min(cwnd, AIFactor) segments acknowledged with AIFactor 50: a = 1/50 above
//! 50 segments and Reno below (`a` 0.02 and `legacy_window` 50 under `ns3_cc_defaults`); its
//! `GetSsThresh` keeps (1 - MDFactor) of the flight at any window, where Kelly's and Linux's
//! halve at or below the legacy window, as the other profiles do here.
//!
//! Under ns-3's class (the `ns3` profile: [`Window::ns3_mss`] set) congestion avoidance is
//! `TcpScalable::CongestionAvoidance`'s in whole segments: a counter (`m_ackCnt`) of segments
//! acknowledged adds one segment when it is already at w = min(cwnd, AIFactor) (AIFactor =
//! 1 / `a`), then takes the ACK's segments and adds counter / w segments when it reaches w;
//! `GetSsThresh` keeps max(2, (1 - MDFactor) w) whole segments of w, the segments in flight
//! (`bytesInFlight`), at any window.

use super::{
    ns3_increase_window, slow_start, AckEvent, CcInfo, CcSetup, CongestionOps, Ns3Class, Param,
    Range, Window,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Scalable {
    a: f64,
    b: f64,
    legacy: f64,
    /// ns-3's `m_ackCnt`: segments acknowledged towards the next whole segment.
    ack_cnt: u32,
}

crate::params! {
    /// Scalable's parameters (`cc_params`), each with its declaration.
    pub struct ScalableParams {
        a: f64 = Param::new("a", 0.01, Range::Fraction, "segments added per ACK above the legacy window")
            .profile_defaults(&[("ns3", 0.02)]),
        b: f64 = Param::new("b", 0.125, Range::Between(0.0, 1.0), "fraction of cwnd taken off on a loss")
            .ns3("MDFactor"),
        legacy_window: f64 = Param::new("legacy_window", 16.0, Range::Segments, "Reno at or below")
            .profile_defaults(&[("ns3", 50.0)])
            .ns2("scalable_lwnd_"),
    }
}

impl CongestionOps for Scalable {
    const INFO: CcInfo = CcInfo {
        name: "scalable",
        ns3: &[Ns3Class::newreno("TcpScalable")],
        ecn_per_segment: false,
        params: ScalableParams::PARAMS,
    };

    type Params = ScalableParams;

    fn new(p: &ScalableParams, _setup: &CcSetup) -> Scalable {
        Scalable {
            a: p.a,
            b: p.b,
            legacy: p.legacy_window,
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
        } else if w.cwnd <= self.legacy {
            // Per segment acknowledged, as ns-3's class counts them.
            w.cwnd += ev.credit / w.cwnd;
        } else {
            w.cwnd += self.a * ev.credit;
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        if let Some(flight) = w.ns3_bytes_in_flight() {
            // ns-3.44's `TcpScalable::GetSsThresh`: whole segments of the bytes in flight,
            // max(2, w (1 - MDFactor)) truncated, with no legacy branch.
            return (flight.floor() * (1.0 - self.b)).max(2.0).floor();
        }
        let cwnd = w.cwnd.min(w.rwnd);
        if cwnd <= self.legacy {
            cwnd / 2.0
        } else {
            cwnd * (1.0 - self.b)
        }
    }
}

impl Scalable {
    /// ns-3.44's `TcpScalable::CongestionAvoidance` for `acked` segments.
    fn ns3_congestion_avoidance(&mut self, w: &mut Window, acked: u64) {
        let mut seg = (w.cwnd.floor() as u32).max(1);
        let old = seg;
        let ai = ((1.0 / self.a).round() as u32).max(1);
        let step = seg.min(ai);
        if self.ack_cnt >= step {
            self.ack_cnt = 0;
            seg += 1;
        }
        self.ack_cnt = self.ack_cnt.saturating_add(acked as u32);
        if self.ack_cnt >= step {
            seg += self.ack_cnt / step;
            self.ack_cnt = 0;
        }
        if seg != old {
            w.cwnd = f64::from(seg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_percent_per_round_trip_and_an_eighth_off() {
        let mut s = Scalable::new(&ScalableParams::default(), &CcSetup::default());
        let mut w = Window::new(1000.0, 10.0, 1e9);
        let ack = AckEvent {
            now: SimTime::ZERO,
            acked: 1,
            credit: 1.0,
            rtt: None,
            delay: None,
            una: 0,
            sent: 0,
            per_ack: false,
        };
        for _ in 0..1000 {
            s.cong_avoid(&mut w, ack);
        }
        assert!((w.cwnd - 1010.0).abs() < 1e-9);
        assert!((s.ssthresh(&w, SimTime::ZERO) - 1010.0 * 0.875).abs() < 1e-9);
        let small = Window::new(10.0, 5.0, 1e9);
        assert_eq!(s.ssthresh(&small, SimTime::ZERO), 5.0);
    }
}
