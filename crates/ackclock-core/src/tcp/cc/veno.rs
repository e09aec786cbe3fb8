//! TCP Veno: C. P. Fu, S. C. Liew, "TCP Veno: TCP Enhancement for Transmission Over Wireless
//! Access Networks", IEEE JSAC 21(2), 2003. ns-3.44: `TcpVeno` (src/internet/model/
//! tcp-veno.cc: `PktsAcked`, `IncreaseWindow`, `GetSsThresh`); Linux: net/ipv4/tcp_veno.c.
//!
//! Veno estimates the segments its flow keeps queued as Vegas does, N = cwnd (1 - BaseRTT /
//! RTT) (section II.A; BaseRTT the smallest RTT seen, RTT the smallest of the last round),
//! and uses it to tell congestion from random loss:
//!
//! - congestion avoidance: while N < beta (3 segments) Reno's 1/cwnd per segment; at or
//!   above, one segment every other round trip (section II.B);
//! - a loss with N < beta is taken as random: cwnd x 4/5; otherwise Reno's halving
//!   (section II.C).
//! - slow start is Reno's.
//!
//! N is taken once per round trip from that round's smallest RTT, when the round gave more
//! than two samples (Linux's and ns-3's `cntRtt > 2`); in recovery Veno is off until the
//! state is Open again (`CongestionStateSet`). ns-3 computes N on every ACK from the samples
//! since the last ACK and so, with one sample per ACK, never passes `m_cntRtt > 2`: its
//! increase is always NewReno's, and only its loss response is Veno's.
//!
//! Under ns-3's class (the `ns3` profile: [`Window::ns3_mss`] set) these are ns-3.44's rules:
//! `IncreaseWindow` sets N = w - floor(w BaseRTT / minRTT) on every ACK it is given (w the
//! window in whole segments, minRTT the smallest sample `PktsAcked` was given since the last
//! ACK, none counting as an infinite RTT) and then, with more than two samples since the last
//! ACK and Veno on, Veno's increase (at or above beta a NewReno step on every other ACK),
//! else `TcpNewReno::IncreaseWindow`; `GetSsThresh` keeps 4/5 of the bytes in flight
//! (`bytesInFlight`) or `TcpNewReno::GetSsThresh`'s half of them.

use super::{
    newreno_increase_window, reno_increase, slow_start, AckEvent, AckSample, CaState, CcInfo,
    CcSetup, CongestionOps, Conn, Ns3Class, Param, Range, Window, NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Veno {
    beta: f64,
    /// Seconds.
    base_rtt: f64,
    round_min: f64,
    round_samples: u32,
    round_end: u64,
    /// The segments queued (N) at the last round's end.
    pub diff: f64,
    /// Grow on the next window of ACKs (every other round trip above beta).
    inc: bool,
    /// Credit accumulated towards the next window.
    cnt: f64,
    doing_veno: bool,
}

crate::params! {
    /// Veno's parameters (`cc_params`), each with its declaration.
    pub struct VenoParams {
        beta: f64 = Param::new("beta", 3.0, Range::NonNegative, "segments queued above which a loss is congestion")
            .ns3("Beta"),
    }
}

impl CongestionOps for Veno {
    const INFO: CcInfo = CcInfo {
        name: "veno",
        ns3: &[Ns3Class::newreno("TcpVeno")],
        ecn_per_segment: false,
        params: VenoParams::PARAMS,
    };

    type Params = VenoParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &VenoParams, _setup: &CcSetup) -> Veno {
        Veno {
            beta: p.beta,
            base_rtt: f64::INFINITY,
            round_min: f64::INFINITY,
            round_samples: 0,
            round_end: 0,
            diff: 0.0,
            inc: true,
            cnt: 0.0,
            doing_veno: true,
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

    fn set_state(&mut self, w: &mut Window, state: CaState, _conn: &Conn) {
        self.doing_veno = state == CaState::Open;
        if self.doing_veno {
            self.round_min = f64::INFINITY;
            // ns-3's `EnableVeno` resets minRTT only.
            if w.ns3_mss == 0.0 {
                self.round_samples = 0;
            }
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.ns3_mss > 0.0 && ev.per_ack {
            self.ns3_increase_window(w, &ev);
            return;
        }
        if ev.una >= self.round_end {
            if self.round_samples > 2 && self.round_min.is_finite() {
                self.diff = w.cwnd * (1.0 - self.base_rtt / self.round_min);
            }
            self.round_end = ev.sent;
            self.round_min = f64::INFINITY;
            self.round_samples = 0;
        }
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
        } else if !self.doing_veno || self.diff < self.beta {
            reno_increase(w, &ev);
        } else {
            // One segment every other window of ACKs.
            self.cnt += ev.credit;
            if self.cnt >= w.cwnd {
                self.cnt = 0.0;
                if self.inc {
                    w.cwnd += 1.0;
                }
                self.inc = !self.inc;
            }
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        if let Some(flight) = w.ns3_bytes_in_flight() {
            // ns-3.44's `TcpVeno::GetSsThresh`: 4/5 of the bytes in flight (truncated to
            // whole bytes) or `TcpNewReno::GetSsThresh`'s half, at least 2 segments.
            if self.diff < self.beta {
                return (((flight * w.ns3_mss).round() * 0.8).floor() / w.ns3_mss).max(2.0);
            }
            return w.ns3_newreno_ssthresh();
        }
        let cwnd = w.cwnd.min(w.rwnd);
        if self.diff < self.beta {
            cwnd * 4.0 / 5.0
        } else {
            cwnd / 2.0
        }
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [("veno_diff", self.diff), NO_TRACE, NO_TRACE, NO_TRACE]
    }
}

impl Veno {
    /// ns-3.44's `TcpVeno::IncreaseWindow`: N from this ACK's samples, then the increase.
    fn ns3_increase_window(&mut self, w: &mut Window, ev: &AckEvent) {
        let seg = w.cwnd.floor();
        // BaseRTT / minRTT; both unset (`Time::Max`) is 1.
        let ratio = if self.round_min.is_infinite() && self.base_rtt.is_infinite() {
            1.0
        } else {
            self.base_rtt / self.round_min
        };
        self.diff = seg - (seg * ratio).floor();
        if !self.doing_veno || self.round_samples <= 2 {
            newreno_increase_window(w, ev);
        } else if w.cwnd < w.ssthresh {
            slow_start(w, ev);
        } else if self.diff < self.beta {
            reno_increase(w, ev);
        } else {
            // A NewReno step on every other ACK.
            if self.inc {
                reno_increase(w, ev);
            }
            self.inc = !self.inc;
        }
        self.round_samples = 0;
        self.round_min = f64::INFINITY;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn sample(v: &mut Veno, w: &mut Window, ms: u64) {
        v.pkts_acked(
            w,
            &AckSample {
                now: SimTime::ZERO,
                acked: 1,
                rtt: Some(SimDuration::from_millis(ms)),
                owd: None,
                echo: None,
                min_rtt: None,
            },
        );
    }

    fn ack(una: u64, sent: u64) -> AckEvent {
        AckEvent {
            una,
            sent,
            ..AckEvent::one_segment(SimTime::ZERO, None)
        }
    }

    /// N = cwnd (1 - BaseRTT / RTT); below beta a loss takes a fifth off, at or above half.
    #[test]
    fn a_loss_with_few_segments_queued_is_random() {
        let mut v = Veno::new(&VenoParams::default(), &CcSetup::default());
        let mut w = Window::new(20.0, 10.0, 1e9);
        for _ in 0..3 {
            sample(&mut v, &mut w, 100);
        }
        v.cong_avoid(&mut w, ack(1, 40)); // round 1 ends: N = 0
        assert_eq!(v.diff, 0.0);
        let w20 = Window::new(20.0, 10.0, 1e9);
        assert_eq!(v.ssthresh(&w20, SimTime::ZERO), 16.0);
        // RTT 125 ms at cwnd 20: N = 20 x 0.2 = 4 >= 3: congestive, halve.
        for _ in 0..3 {
            sample(&mut v, &mut w, 125);
        }
        w.cwnd = 20.0;
        v.cong_avoid(&mut w, ack(40, 80));
        assert!((v.diff - 4.0).abs() < 1e-9, "{}", v.diff);
        assert_eq!(v.ssthresh(&w20, SimTime::ZERO), 10.0);
    }

    /// At or above beta, congestion avoidance adds one segment every other round trip.
    #[test]
    fn above_beta_one_segment_per_two_round_trips() {
        let mut v = Veno::new(&VenoParams::default(), &CcSetup::default());
        v.diff = 5.0;
        v.round_end = u64::MAX;
        let mut w = Window::new(10.0, 5.0, 1e9);
        for _ in 0..40 {
            v.cong_avoid(&mut w, ack(0, 0));
        }
        // Four windows of ten ACKs: +1, +0, +1, +0 (the window grows to 11 after the first).
        assert!((11.0..=12.0).contains(&w.cwnd), "{}", w.cwnd);
        let mut reno = Window::new(10.0, 5.0, 1e9);
        v.diff = 0.0;
        for _ in 0..40 {
            v.cong_avoid(&mut reno, ack(0, 0));
        }
        assert!(reno.cwnd > 13.0, "{}", reno.cwnd);
    }
}
