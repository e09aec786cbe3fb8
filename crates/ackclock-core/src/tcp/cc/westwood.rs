//! Westwood+: L. A. Grieco, S. Mascolo, "Performance Evaluation and Comparison of
//! Westwood+, New Reno, and Vegas TCP Congestion Control", ACM CCR 34(2), 2004.
//!
//! The sender estimates the bandwidth it gets from the ACK stream: once per round trip, the
//! data acknowledged over that round trip divided by its length is one sample, smoothed by a
//! low-pass filter (BWE <- 7/8 BWE + 1/8 sample; Westwood+ samples once per RTT, which is what
//! distinguishes it from Westwood's per-ACK samples). After a loss the window is set to the
//! estimated bandwidth-delay product, ssthresh = BWE x RTT_min, instead of half the window,
//! so random losses do not halve it. Growth is Reno's.
//!
//! `ns3_model` = 1 (the `ns3` profile's default) is ns-3.44's `TcpWestwoodPlus`
//! (src/internet/model/tcp-westwood-plus.cc), which samples differently:
//!
//! - `PktsAcked` (every ACK ns-3's `ProcessAck` passes, duplicates counted as one segment, in
//!   recovery too, with the smoothed RTT) adds the segments to `m_ackedSegments`; the first
//!   call after a sample schedules `EstimateBW` one smoothed RTT later, with that RTT;
//! - `EstimateBW`: the sample is m_ackedSegments x MSS x 8 / that RTT, in whole bits per
//!   second (`DataRate` from a double), filtered by Tustin's approximation,
//!   BWE = 0.9 BWE' + 0.1 (sample + sample') / 2, each product truncated to whole b/s
//!   (`DataRate::operator*(double)`), from BWE' = sample' = 0;
//! - `GetSsThresh`: max(2 segments, uint32(BWE x m_minRtt / 8)) bytes, m_minRtt the smallest
//!   smoothed RTT since the handshake (`AckSample::min_rtt`), the window not read.
//!
//! The scheduled `EstimateBW` runs here at the first `pkts_acked` or `ssthresh` at or after its
//! time (nothing reads the estimate in between).
//!
//! Growth is `TcpNewReno::IncreaseWindow`'s (`TcpWestwoodPlus` does not override it): under
//! ns-3's whole-byte growth an ACK of more than one segment whose slow-start step reaches
//! ssthresh also takes one congestion-avoidance step ([`newreno_increase_window`]).

use super::{
    newreno_increase_window, AckEvent, AckSample, CcInfo, CcSetup, CongestionOps, Ns3Class, Param,
    Range, Window, NO_TRACE,
};
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Debug)]
pub struct Westwood {
    /// Bandwidth estimate, in segments per second.
    pub bwe: f64,
    /// The smallest RTT seen, in seconds.
    pub rtt_min: f64,
    acked: f64,
    sample_start: Option<SimTime>,
    srtt: f64,
    /// `ns3_model`: ns-3.44's `TcpWestwoodPlus` state.
    ns3: Option<Ns3Westwood>,
}

/// ns-3.44's `TcpWestwoodPlus` (`ns3_model`): rates in whole bits per second.
#[derive(Clone, Debug, Default)]
struct Ns3Westwood {
    mss: f64,
    /// `m_ackedSegments`.
    acked: u32,
    /// `m_IsCount`: the pending `EstimateBW`'s time and the RTT it was scheduled with.
    pending: Option<(SimTime, SimDuration)>,
    /// `m_currentBW` (= `m_lastBW` after each estimate), `m_lastSampleBW`.
    bw: u64,
    last_sample: u64,
    /// `tcb->m_minRtt` as the last `pkts_acked` gave it.
    min_rtt: Option<SimDuration>,
}

impl Ns3Westwood {
    /// `EstimateBW`, if it is due by `now`.
    fn estimate_due(&mut self, now: SimTime) {
        let Some((at, rtt)) = self.pending else {
            return;
        };
        if at > now {
            return;
        }
        let sample = (f64::from(self.acked) * self.mss * 8.0 / rtt.as_secs_f64()) as u64;
        self.pending = None;
        self.acked = 0;
        // Tustin: m_lastBW * ALPHA + ((sample + m_lastSampleBW) * 0.5) * (1 - ALPHA).
        let alpha = 0.9;
        let half = ((sample + self.last_sample) as f64 * 0.5) as u64;
        self.bw = (self.bw as f64 * alpha) as u64 + (half as f64 * (1.0 - alpha)) as u64;
        self.last_sample = sample;
    }

    /// `PktsAcked(tcb, packetsAcked, rtt)`.
    fn pkts_acked(&mut self, s: &AckSample) {
        self.estimate_due(s.now);
        let Some(rtt) = s.rtt.filter(|r| r.0 > 0) else {
            return;
        };
        self.min_rtt = s.min_rtt.or(self.min_rtt);
        self.acked = self.acked.wrapping_add(s.acked as u32);
        if self.pending.is_none() {
            self.pending = Some((s.now + rtt, rtt));
        }
    }

    /// `GetSsThresh` in segments.
    fn ssthresh(&mut self, now: SimTime) -> f64 {
        self.estimate_due(now);
        let min_rtt = self.min_rtt.map_or(0.0, |r| r.as_secs_f64());
        let bytes = (min_rtt * self.bw as f64 / 8.0) as u32;
        (f64::from(bytes) / self.mss).max(2.0)
    }
}

crate::params! {
    /// Westwood+'s parameters (`cc_params`).
    pub struct WestwoodParams {
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "ns-3.44's TcpWestwoodPlus rules (module notes)")
            .profile_defaults(&[("ns3", 1.0)]),
    }
}

impl CongestionOps for Westwood {
    const INFO: CcInfo = CcInfo {
        name: "westwood",
        ns3: &[Ns3Class::newreno("TcpWestwoodPlus")],
        ecn_per_segment: false,
        params: WestwoodParams::PARAMS,
    };

    type Params = WestwoodParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &WestwoodParams, setup: &CcSetup) -> Westwood {
        Westwood {
            bwe: 0.0,
            rtt_min: f64::INFINITY,
            acked: 0.0,
            sample_start: None,
            srtt: 0.0,
            ns3: p.ns3_model.then(|| Ns3Westwood {
                mss: setup.mss,
                ..Ns3Westwood::default()
            }),
        }
    }

    fn pkts_acked(&mut self, _w: &mut Window, sample: &AckSample) {
        if let Some(n) = self.ns3.as_mut() {
            n.pkts_acked(sample);
            self.bwe = n.bw as f64 / (8.0 * n.mss);
            self.rtt_min = n.min_rtt.map_or(f64::INFINITY, |r| r.as_secs_f64());
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if self.ns3.is_none() {
            self.observe(&ev);
        }
        newreno_increase_window(w, &ev);
    }

    fn ssthresh(&mut self, w: &Window, now: SimTime) -> f64 {
        if let Some(n) = self.ns3.as_mut() {
            return n.ssthresh(now);
        }
        if self.bwe > 0.0 && self.rtt_min.is_finite() {
            (self.bwe * self.rtt_min).min(w.cwnd.min(w.rwnd))
        } else {
            w.cwnd.min(w.rwnd) / 2.0
        }
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("westwood_bwe", self.bwe),
            ("westwood_rtt_min", self.rtt_min),
            NO_TRACE,
            NO_TRACE,
        ]
    }
}

impl Westwood {
    fn observe(&mut self, ev: &AckEvent) {
        if let Some(r) = ev.delay.or(ev.rtt) {
            let r = r.as_secs_f64();
            self.rtt_min = self.rtt_min.min(r);
            self.srtt = if self.srtt == 0.0 {
                r
            } else {
                0.875 * self.srtt + 0.125 * r
            };
        }
        self.acked += ev.acked as f64;
        let start = *self.sample_start.get_or_insert(ev.now);
        let span = ev.now.since(start).as_secs_f64();
        if self.srtt > 0.0 && span >= self.srtt {
            let sample = self.acked / span;
            self.bwe = if self.bwe == 0.0 {
                sample
            } else {
                0.875 * self.bwe + 0.125 * sample
            };
            self.acked = 0.0;
            self.sample_start = Some(ev.now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;
    use std::collections::BTreeMap;

    #[test]
    fn loss_sets_the_window_to_the_estimated_bdp() {
        let given = BTreeMap::new();
        let mut ww = Westwood::new(&WestwoodParams::given(&given).unwrap(), &CcSetup::default());
        let mut w = Window::new(50.0, 10.0, 1e9);
        // 1000 segments/s acknowledged, RTT 100 ms (min 80 ms) for 5 s.
        let mut now = SimTime::ZERO;
        for i in 0..5000u64 {
            now = SimTime(i * 1_000_000_000);
            let delay = if i == 10 { 80 } else { 100 };
            ww.cong_avoid(
                &mut w,
                AckEvent {
                    now,
                    acked: 1,
                    credit: 1.0,
                    rtt: None,
                    delay: Some(SimDuration::from_millis(delay)),
                    una: 0,
                    sent: 0,
                    per_ack: false,
                },
            );
        }
        assert!((ww.bwe - 1000.0).abs() < 15.0, "{}", ww.bwe);
        assert!((ww.rtt_min - 0.08).abs() < 1e-12);
        w.cwnd = 200.0;
        assert!(
            (ww.ssthresh(&w, SimTime::ZERO) - 80.0).abs() < 1.5,
            "{}",
            ww.ssthresh(&w, SimTime::ZERO)
        );
        let _ = now;
    }

    /// ns-3.44's TcpWestwoodPlus: one estimate a smoothed RTT after the first ACK of a
    /// sample, duplicates counted, Tustin's filter from zero in whole b/s, ssthresh from
    /// the smallest smoothed RTT in whole bytes.
    /// ns-3.44's TcpWestwoodPlus grows as TcpNewReno::IncreaseWindow: after a timeout
    /// (ssthresh 3123 bytes of 1200-byte segments), a delayed ACK of two segments at cwnd 2
    /// adds a segment in slow start and, cwnd now above ssthresh, 1200^2 / 3600 = 400 bytes.
    #[test]
    fn ns3_model_passes_the_rest_of_a_slow_start_ack_to_congestion_avoidance() {
        let given = BTreeMap::from([("ns3_model".to_string(), 1.0)]);
        let setup = CcSetup {
            mss: 1200.0,
            ..CcSetup::default()
        };
        let mut ww = Westwood::new(&WestwoodParams::given(&given).unwrap(), &setup);
        let mut w = Window::new(2.0, 3123.0 / 1200.0, 1e9);
        w.ns3_mss = 1200.0;
        ww.cong_avoid(&mut w, AckEvent::segments(2, true));
        assert_eq!((w.cwnd * 1200.0).round(), 4000.0);
    }

    #[test]
    fn ns3_model_samples_once_per_srtt_through_tustins_filter() {
        let given = BTreeMap::from([("ns3_model".to_string(), 1.0)]);
        let setup = CcSetup {
            mss: 1000.0,
            ..CcSetup::default()
        };
        let mut ww = Westwood::new(&WestwoodParams::given(&given).unwrap(), &setup);
        let mut w = Window::new(10.0, 5.0, 1e9);
        let ms = |t: u64| SimTime(t * 1_000_000_000);
        let ack = |t: u64, acked: u64| AckSample {
            now: ms(t),
            acked,
            rtt: Some(SimDuration::from_millis(100)),
            owd: None,
            echo: None,
            min_rtt: Some(SimDuration::from_millis(80)),
        };
        // 0 ms: the first ACK schedules EstimateBW at 100 ms; 10 segments by then (the last
        // two duplicates of one each); 150 ms starts the next sample, 4 segments by 250 ms.
        for (t, a) in [(0, 2), (40, 6), (60, 1), (99, 1), (150, 4)] {
            ww.pkts_acked(&mut w, &ack(t, a));
        }
        // Sample 1: 10 x 1000 x 8 / 0.1 = 800 000 b/s; BWE = 0 + 400 000 x (1 - 0.9), which
        // in doubles is 39 999.99..., truncated to 39 999 b/s as ns-3's DataRate does.
        assert_eq!(ww.ns3.as_ref().unwrap().bw, 39_999);
        // Sample 2 at 250 ms: 320 000 b/s; BWE = 35 999 + 55 999 = 91 998.
        // ssthresh = 91 998 x 0.08 / 8 = 919 bytes < 2 segments: 2.
        assert_eq!(ww.ssthresh(&w, ms(250)), 2.0);
        assert_eq!(ww.ns3.as_ref().unwrap().bw, 91_998);
        // More samples of 800 000 b/s: BWE tends to 800 000, ssthresh to 800 000 x 0.08 / 8
        // = 8000 bytes = 8 segments, never taking the window into account.
        for k in 0..100u64 {
            ww.pkts_acked(&mut w, &ack(300 + 200 * k, 10));
        }
        w.cwnd = 3.0;
        let s = ww.ssthresh(&w, ms(100_000));
        assert!(s > 7.9 && s <= 8.0, "{s}");
    }
}
