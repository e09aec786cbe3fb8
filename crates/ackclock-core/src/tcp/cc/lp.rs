//! TCP-LP (Low Priority): A. Kuzmanovic, E. W. Knightly, "TCP-LP: A Distributed Algorithm
//! for Low Priority Data Transfer", IEEE INFOCOM 2003. ns-3.44: `TcpLp` (src/internet/model/
//! tcp-lp.cc: `RttSample`, `OwdCalculator`, `PktsAcked`, `CongestionAvoidance`); Linux:
//! net/ipv4/tcp_lp.c.
//!
//! TCP-LP yields to other traffic by reacting to one-way delay before losses come
//! (section III):
//!
//! - the smoothed one-way delay is s = 7/8 s + 1/8 d per sample (d from the ACK's
//!   timestamps), beside the smallest and largest delays seen (d_min, d_max; the largest
//!   through Linux's reserve, `owd_max_rsv`, so that one outlier is not taken);
//! - an early congestion indication is s > d_min + delta (d_max - d_min), delta = 0.15
//!   (eq. 1);
//! - on an indication the window halves, or drops to one segment when it comes within the
//!   inference time of the last reduction (3 round trips, taken as 3 x the time since the
//!   echoed segment was sent, `m_inference`), and d_min / d_max restart from s;
//! - within the inference time after a reduction, congestion avoidance does not grow
//!   (`LP_WITHIN_INF`); otherwise it is Reno's, as are slow start and the loss response.
//!
//! `ns3_model` = 1 (the `ns3` profile's default) follows ns-3.44's `TcpLp` to the bit: the
//! delays are whole milliseconds (`OwdCalculator`: TSval - TSecr, each a millisecond count,
//! with `ns3_ts_ms`; a zero delay is no sample), s is kept eight times over in a `uint32_t`
//! (`m_sOwd += owd - (m_sOwd >> 3)`), the threshold is d_min + 15 (d_max - d_min) / 100 in
//! integer milliseconds (so with d_max - d_min under 7 ms any s above d_min is an
//! indication), a reduction restarts d_min from s and d_max from 2 s (`m_sOwd >> 2`), halves
//! cwnd in bytes (`m_cWnd >> 1`, at least one segment), and the inference time is 3 x (now -
//! TSecr), the echoed timestamp in whole milliseconds (`PktsAcked`).
//! `IncreaseWindow` is `TcpNewReno`'s: an ACK of more than one segment whose slow-start step
//! reaches ssthresh also takes `TcpLp::CongestionAvoidance`'s step, outside the inference time.
//! A loss takes `TcpNewReno::GetSsThresh` (inherited; tcp-congestion-ops.cc), max(2 segments,
//! bytesInFlight / 2) ([`Window::ns3_newreno_ssthresh`]).

use super::{
    ns3_slow_start_rest, reno_increase, slow_start, AckEvent, AckSample, CcInfo, CcSetup,
    CongestionOps, Ns3Class, Param, Range, Window, NO_TRACE,
};
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Debug)]
pub struct Lp {
    delta: f64,
    /// Smoothed one-way delay, seconds (0: no sample yet).
    pub sowd: f64,
    owd_min: f64,
    owd_max: f64,
    owd_max_rsv: f64,
    last_drop: Option<SimTime>,
    /// Seconds.
    inference: f64,
    within_inference: bool,
    /// Early congestion indications so far.
    pub indications: u64,
    /// `ns3_model`: ns-3.44's integer state.
    ns3: Option<Ns3Lp>,
    mss: f64,
}

/// ns-3.44's `TcpLp` state, in its types: milliseconds as `uint32_t`, s eight times over.
#[derive(Clone, Copy, Debug)]
struct Ns3Lp {
    s_owd8: u32,
    owd_min: u32,
    owd_max: u32,
    owd_max_rsv: u32,
    last_drop: Option<SimTime>,
    inference: SimDuration,
}

impl Ns3Lp {
    const NEW: Ns3Lp = Ns3Lp {
        s_owd8: 0,
        owd_min: u32::MAX,
        owd_max: 0,
        owd_max_rsv: 0,
        last_drop: None,
        inference: SimDuration(0),
    };

    /// `RttSample` with a delay of `owd` whole milliseconds (not zero).
    fn sample(&mut self, owd: u32) {
        self.owd_min = self.owd_min.min(owd);
        if owd > self.owd_max {
            if owd > self.owd_max_rsv {
                self.owd_max = if self.owd_max_rsv == 0 {
                    owd
                } else {
                    self.owd_max_rsv
                };
                self.owd_max_rsv = owd;
            } else {
                self.owd_max = owd;
            }
        }
        self.s_owd8 = if self.s_owd8 != 0 {
            self.s_owd8.wrapping_add(owd.wrapping_sub(self.s_owd8 >> 3))
        } else {
            owd << 3
        };
    }

    /// `PktsAcked`'s threshold test: s within d_min + 15 (d_max - d_min) / 100, in unsigned
    /// 32-bit milliseconds as ns-3 computes it.
    fn within_threshold(&self) -> bool {
        let spread = self.owd_max.wrapping_sub(self.owd_min);
        self.s_owd8 >> 3 <= self.owd_min.wrapping_add(15u32.wrapping_mul(spread) / 100)
    }
}

impl Lp {
    fn owd_sample(&mut self, d: f64) {
        self.owd_min = self.owd_min.min(d);
        if d > self.owd_max {
            if d > self.owd_max_rsv {
                self.owd_max = if self.owd_max_rsv == 0.0 {
                    d
                } else {
                    self.owd_max_rsv
                };
                self.owd_max_rsv = d;
            } else {
                self.owd_max = d;
            }
        }
        self.sowd = if self.sowd == 0.0 {
            d
        } else {
            0.875 * self.sowd + 0.125 * d
        };
    }
}

crate::params! {
    /// TCP-LP's parameters (`cc_params`), each with its declaration.
    pub struct LpParams {
        delta: f64 = Param::new("delta", 0.15, Range::Fraction, "threshold: d_min + delta (d_max - d_min)"),
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "ns-3.44's TcpLp arithmetic (module notes)")
            .profile_defaults(&[("ns3", 1.0)]),
    }
}

impl CongestionOps for Lp {
    const INFO: CcInfo = CcInfo {
        name: "lp",
        ns3: &[Ns3Class::newreno("TcpLp")],
        ecn_per_segment: false,
        params: LpParams::PARAMS,
    };

    type Params = LpParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &LpParams, setup: &CcSetup) -> Lp {
        Lp {
            delta: p.delta,
            sowd: 0.0,
            owd_min: f64::INFINITY,
            owd_max: 0.0,
            owd_max_rsv: 0.0,
            last_drop: None,
            inference: 0.0,
            within_inference: false,
            indications: 0,
            ns3: p.ns3_model.then_some(Ns3Lp::NEW),
            mss: setup.mss.max(1.0),
        }
    }

    fn pkts_acked(&mut self, w: &mut Window, sample: &AckSample) {
        if self.ns3.is_some() {
            self.ns3_pkts_acked(w, sample);
            return;
        }
        let Some(owd) = sample.owd else {
            return;
        };
        let d = owd.as_secs_f64();
        if d > 0.0 {
            self.owd_sample(d);
        }
        if let Some(rtt) = sample.rtt {
            self.inference = 3.0 * rtt.as_secs_f64();
        }
        let now = sample.now;
        self.within_inference = self
            .last_drop
            .is_some_and(|t| now.since(t).as_secs_f64() < self.inference);
        if self.sowd == 0.0
            || self.sowd <= self.owd_min + self.delta * (self.owd_max - self.owd_min)
        {
            return;
        }
        // An early congestion indication.
        self.owd_min = self.sowd;
        self.owd_max = 2.0 * self.sowd;
        self.owd_max_rsv = 2.0 * self.sowd;
        w.cwnd = if self.within_inference {
            1.0
        } else {
            (w.cwnd / 2.0).max(1.0)
        };
        self.last_drop = Some(now);
        self.indications += 1;
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
            // TcpNewReno::IncreaseWindow: the rest of a slow-start ACK that reaches ssthresh
            // goes to TcpLp::CongestionAvoidance, which grows outside the inference time.
            if ns3_slow_start_rest(w, &ev) > 0 && !self.within_inference {
                reno_increase(w, &ev);
            }
        } else if !self.within_inference {
            reno_increase(w, &ev);
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        if self.ns3.is_some() {
            // TcpLp inherits TcpNewReno::GetSsThresh: half the bytes in flight.
            return w.ns3_newreno_ssthresh();
        }
        w.cwnd.min(w.rwnd) / 2.0
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [("lp_sowd", self.sowd), NO_TRACE, NO_TRACE, NO_TRACE]
    }
}

impl Lp {
    /// ns-3.44's `TcpLp::PktsAcked` (with `RttSample` and `OwdCalculator`).
    fn ns3_pkts_acked(&mut self, w: &mut Window, sample: &AckSample) {
        const MS: u64 = crate::time::PS_PER_S / 1000;
        let Some(n) = self.ns3.as_mut() else {
            return;
        };
        // `OwdCalculator`: |TSval - TSecr| in milliseconds; zero is no valid sample.
        if let Some(owd) = sample.owd {
            let ms = (owd.0 / MS) as u32;
            if ms > 0 {
                n.sample(ms);
            }
        }
        self.sowd = f64::from(n.s_owd8 >> 3) / 1000.0;
        let now = sample.now;
        if let Some(echo) = sample.echo {
            let echo_ms = echo.0 / MS;
            if now.0 / MS > echo_ms {
                n.inference = SimDuration(3 * (now.0 - echo_ms * MS));
            }
        }
        self.within_inference = n.last_drop.is_some_and(|t| now.since(t) < n.inference);
        if n.within_threshold() {
            return;
        }
        n.owd_min = n.s_owd8 >> 3;
        n.owd_max = n.s_owd8 >> 2;
        n.owd_max_rsv = n.s_owd8 >> 2;
        let mss = self.mss;
        w.cwnd = if self.within_inference {
            1.0
        } else {
            // `m_cWnd >> 1` in bytes, at least one segment.
            let bytes = (w.cwnd * mss).round() as u64;
            ((bytes >> 1) as f64 / mss).max(1.0)
        };
        n.last_drop = Some(now);
        self.indications += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn sample(l: &mut Lp, w: &mut Window, t_ms: u64, owd_ms: u64) {
        l.pkts_acked(
            w,
            &AckSample {
                now: SimTime::ZERO + SimDuration::from_millis(t_ms),
                acked: 1,
                rtt: Some(SimDuration::from_millis(100)),
                owd: Some(SimDuration::from_millis(owd_ms)),
                echo: None,
                min_rtt: None,
            },
        );
    }

    /// Eq. 1: a smoothed delay above d_min + 0.15 (d_max - d_min) halves the window; a second
    /// one within the inference time (3 RTT) drops it to one segment.
    #[test]
    fn early_indications_halve_then_collapse_the_window() {
        let mut l = Lp::new(&LpParams::default(), &CcSetup::default());
        let mut w = Window::new(40.0, 10.0, 1e9);
        sample(&mut l, &mut w, 0, 50); // s = d_min = d_max = 50 ms: no indication
        assert_eq!(w.cwnd, 40.0);
        // 150 ms: d_max stays 50 (150 goes to the reserve); s = 62.5 > 50: halve.
        sample(&mut l, &mut w, 10, 150);
        assert!((l.sowd - 0.0625).abs() < 1e-12);
        assert_eq!(w.cwnd, 20.0);
        assert_eq!(l.indications, 1);
        // 20 ms later, within the inference time (3 x 100 ms): s = 104.7 ms against a
        // threshold of 62.5 + 0.15 x 62.5: one segment.
        sample(&mut l, &mut w, 30, 400);
        assert_eq!(l.indications, 2);
        assert_eq!(w.cwnd, 1.0, "a second indication within 300 ms");
        // Within the inference time congestion avoidance does not grow.
        let mut ca = Window::new(20.0, 10.0, 1e9);
        l.cong_avoid(&mut ca, AckEvent::one_segment(SimTime::ZERO, None));
        assert_eq!(ca.cwnd, 20.0);
    }

    /// ns-3.44's TcpLp inherits TcpNewReno::IncreaseWindow: an ACK of two segments whose
    /// slow-start step reaches ssthresh also takes TcpLp::CongestionAvoidance's step (NewReno's,
    /// 1200^2 / 3600 = 400 bytes), but not within the inference time.
    #[test]
    fn ns3_slow_start_rest_goes_to_congestion_avoidance_outside_the_inference_time() {
        let p = LpParams {
            ns3_model: true,
            ..LpParams::default()
        };
        let setup = CcSetup {
            mss: 1200.0,
            ..CcSetup::default()
        };
        let mut l = Lp::new(&p, &setup);
        let grow = |l: &mut Lp, acked: u64, inference: bool| {
            l.within_inference = inference;
            let mut w = Window::new(2.0, 3123.0 / 1200.0, 1e9);
            w.ns3_mss = 1200.0;
            let ev = AckEvent {
                acked,
                credit: acked as f64,
                per_ack: true,
                ..AckEvent::one_segment(SimTime::ZERO, None)
            };
            l.cong_avoid(&mut w, ev);
            (w.cwnd * 1200.0).round()
        };
        assert_eq!(grow(&mut l, 2, false), 3600.0 + 400.0);
        assert_eq!(grow(&mut l, 1, false), 3600.0);
        assert_eq!(grow(&mut l, 2, true), 3600.0);
    }

    /// ns-3.44's `TcpLp` in its integers: s kept eight times over, the threshold
    /// d_min + 15 (d_max - d_min) / 100 in whole milliseconds, cwnd halved in bytes, the
    /// inference time 3 x (now - TSecr in whole milliseconds).
    #[test]
    fn ns3_model_keeps_ns3s_integer_milliseconds() {
        let p = LpParams {
            ns3_model: true,
            ..LpParams::default()
        };
        let setup = CcSetup {
            mss: 340.0,
            ..CcSetup::default()
        };
        let mut l = Lp::new(&p, &setup);
        let mut w = Window::new(41.0, 10.0, 1e9);
        let at = |l: &mut Lp, w: &mut Window, t_us: u64, owd_ms: u64, echo_us: u64| {
            l.pkts_acked(
                w,
                &AckSample {
                    now: SimTime(t_us * 1_000_000),
                    acked: 1,
                    rtt: Some(SimDuration::from_millis(100)),
                    owd: Some(SimDuration::from_millis(owd_ms)),
                    echo: Some(SimTime(echo_us * 1_000_000)),
                    min_rtt: None,
                },
            )
        };
        // 45 ms: s8 = 360, d_min = d_max = 45 (the reserve 45).
        at(&mut l, &mut w, 1_000_000, 45, 900_500);
        let n = l.ns3.unwrap();
        assert_eq!(
            (n.s_owd8, n.owd_min, n.owd_max, n.owd_max_rsv),
            (360, 45, 45, 45)
        );
        // 47 ms: the reserve takes 47, d_max the old reserve; s8 = 360 + 47 - 45 = 362.
        at(&mut l, &mut w, 1_010_000, 47, 910_000);
        let n = l.ns3.unwrap();
        assert_eq!((n.s_owd8, n.owd_max, n.owd_max_rsv), (362, 45, 47));
        assert_eq!(w.cwnd, 41.0);
        // 53 ms: d_max 47, s8 = 362 + 53 - 45 = 370, s = 46 > 45 + 15 x 2 / 100 = 45 (the
        // real-valued threshold 45.3 too): an indication halves 13940 bytes to 6970.
        at(&mut l, &mut w, 1_020_000, 53, 920_000);
        let n = l.ns3.unwrap();
        assert_eq!(n.s_owd8, 370);
        assert_eq!(l.indications, 1);
        assert_eq!(w.cwnd, 6970.0 / 340.0);
        // d_min from s (46), d_max and the reserve from 2 s (370 >> 2 = 92).
        assert_eq!((n.owd_min, n.owd_max, n.owd_max_rsv), (46, 92, 92));
        // The inference time: 3 x (1.020 s - 0.920 s) = 300 ms.
        assert_eq!(n.inference, SimDuration::from_millis(300));
        // A zero delay is no sample; s stays, and a second indication comes only above
        // 46 + 15 x 46 / 100 = 52 ms.
        at(&mut l, &mut w, 1_030_000, 0, 930_000);
        assert_eq!(l.ns3.unwrap().s_owd8, 370);
        assert_eq!(l.indications, 1);
    }
}
