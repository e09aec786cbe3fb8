//! TCP Hybla: C. Caini, R. Firrincieli, "TCP Hybla: a TCP enhancement for heterogeneous
//! networks", International Journal of Satellite Communications and Networking 22(5), 2004.
//! ns-3.44: `TcpHybla` (src/internet/model/tcp-hybla.cc: `RecalcParam`, `SlowStart`,
//! `CongestionAvoidance`); Linux: net/ipv4/tcp_hybla.c.
//!
//! Hybla makes a long-RTT flow grow as a flow of the reference RTT RTT0 would, by the
//! normalised RTT rho = max(RTT_min / RTT0, 1) (section 3, eq. 7):
//!
//! - slow start: cwnd += 2^rho - 1 per ACK (eq. 8; ns-3 and Linux once per ACK, whatever it
//!   covers), never beyond ssthresh (`TcpHybla::SlowStart`: min(cwnd + inc, ssthresh));
//! - congestion avoidance: cwnd += rho^2 / cwnd per segment acknowledged (eq. 8; ns-3
//!   loops over the segments acknowledged, accumulating whole segments in `m_cWndCnt`);
//! - a loss halves the window as Reno does.
//!
//! RTT0 (`rtt0`) is 25 ms in the paper and in Linux, 50 ms in ns-3 (`RRTT`, taken under
//! `ns3_cc_defaults`). Here rho follows every new minimum RTT, exactly, and the increases add
//! at once, fractions included.
//!
//! `ns3_model` = 1 (the `ns3` profile's default) follows ns-3.44's `TcpHybla` arithmetic:
//! - `TcpHybla::PktsAcked` recomputes rho only when the RTT it is given equals
//!   `tcb->m_minRtt`. ns-3 passes the smoothed RTT, and `m_minRtt` is the smallest smoothed RTT
//!   since the handshake (`TcpSocketBase::EstimateRtt`), so rho is recomputed only on an ACK
//!   whose srtt is the smallest yet: a flow whose srtt has grown since the handshake keeps
//!   rho = 1 (Reno's growth) until its srtt comes back down to that minimum. With the TCP
//!   parameter `ns3_srtt_samples` the sample carries ns-3's minimum ([`AckSample::min_rtt`]);
//!   without it the smallest sample this algorithm saw stands in.
//! - `TcpHybla::RecalcParam`: rho = max(minRtt / RRTT, 1) with both in whole milliseconds
//!   (`Time::GetMilliSeconds` truncates).
//! - `TcpHybla::SlowStart` adds (2^rho - 1) segments truncated to whole bytes, up to ssthresh,
//!   and returns segmentsAcked - 1, which `TcpNewReno::IncreaseWindow` (inherited) passes to
//!   `CongestionAvoidance` once cwnd has reached ssthresh.
//! - `TcpHybla::CongestionAvoidance` adds rho^2 / W per segment acknowledged to a counter
//!   (`m_cWndCnt`), W the window in whole segments (`GetCwndInSegments`), and moves the
//!   counter's whole segments into cwnd.
//! - A loss: `TcpNewReno::GetSsThresh` (inherited; tcp-congestion-ops.cc), max(2 segments,
//!   bytesInFlight / 2) ([`Window::ns3_newreno_ssthresh`]).

use super::{
    ns3_slow_start_rest, AckEvent, AckSample, CcInfo, CcSetup, CongestionOps, Ns3Class, Param,
    Range, Window, NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Hybla {
    /// The reference RTT in seconds.
    rtt0: f64,
    /// The smallest RTT seen, seconds.
    min_rtt: f64,
    /// rho = max(min_rtt / rtt0, 1).
    pub rho: f64,
    /// `ns3_model`: the segment size in bytes (ns-3's increases are whole bytes).
    ns3_mss: Option<f64>,
    /// `ns3_model`: ns-3's `m_cWndCnt`, congestion avoidance's increase not yet in cwnd.
    cwnd_cnt: f64,
}

impl Hybla {
    /// TcpHybla::CongestionAvoidance: rho^2 / W per segment acknowledged into m_cWndCnt, W in
    /// whole segments; its whole segments go into cwnd.
    fn ns3_congestion_avoidance(&mut self, w: &mut Window, segments: u64) {
        let segs = (w.cwnd + 1e-9).floor().max(1.0);
        for _ in 0..segments {
            self.cwnd_cnt += self.rho * self.rho / segs;
        }
        if self.cwnd_cnt >= 1.0 {
            let whole = self.cwnd_cnt.floor();
            self.cwnd_cnt -= whole;
            w.cwnd += whole;
        }
    }

    fn recalc(&mut self) {
        self.rho = if self.ns3_mss.is_some() {
            // TcpHybla::RecalcParam: both times in whole milliseconds.
            let ms = |s: f64| (s * 1e3 + 1e-9).floor();
            (ms(self.min_rtt) / ms(self.rtt0)).max(1.0)
        } else {
            (self.min_rtt / self.rtt0).max(1.0)
        };
    }
}

crate::params! {
    /// Hybla's parameters (`cc_params`), each with its declaration.
    pub struct HyblaParams {
        rtt0: f64 = Param::new("rtt0", 0.025, Range::Positive, "reference RTT RTT0, seconds")
            .ns3("RRTT")
            .profile_defaults(&[("ns3", 0.05)]),
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "ns-3.44's TcpHybla arithmetic (module notes)")
            .profile_defaults(&[("ns3", 1.0)]),
    }
}

impl CongestionOps for Hybla {
    const INFO: CcInfo = CcInfo {
        name: "hybla",
        ns3: &[Ns3Class::newreno("TcpHybla")],
        ecn_per_segment: false,
        params: HyblaParams::PARAMS,
    };

    type Params = HyblaParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &HyblaParams, setup: &CcSetup) -> Hybla {
        Hybla {
            rtt0: p.rtt0,
            min_rtt: f64::INFINITY,
            rho: 1.0,
            ns3_mss: p.ns3_model.then_some(setup.mss.max(1.0)),
            cwnd_cnt: 0.0,
        }
    }

    fn pkts_acked(&mut self, _w: &mut Window, sample: &AckSample) {
        let Some(r) = sample.rtt else { return };
        match (self.ns3_mss, sample.min_rtt) {
            (Some(_), Some(min)) => {
                // TcpHybla::PktsAcked: `if (rtt == tcb->m_minRtt) RecalcParam(tcb)`.
                if r == min {
                    self.min_rtt = min.as_secs_f64();
                    self.recalc();
                }
            }
            _ => {
                let r = r.as_secs_f64();
                if r > 0.0 && r <= self.min_rtt {
                    self.min_rtt = r;
                    self.recalc();
                }
            }
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        let inc = 2f64.powf(self.rho) - 1.0;
        match self.ns3_mss {
            None if w.cwnd < w.ssthresh => w.cwnd = (w.cwnd + inc).min(w.ssthresh),
            None => w.cwnd += self.rho * self.rho * ev.credit / w.cwnd,
            Some(mss) if w.cwnd < w.ssthresh => {
                // TcpHybla::SlowStart: the increase as a uint32_t of bytes, up to ssthresh; the
                // rest of an ACK that reaches it goes to CongestionAvoidance
                // (TcpNewReno::IncreaseWindow).
                w.cwnd = (w.cwnd + (inc * mss).floor() / mss).min(w.ssthresh);
                let rest = ns3_slow_start_rest(w, &ev);
                if rest > 0 {
                    self.ns3_congestion_avoidance(w, rest);
                }
            }
            Some(_) => self.ns3_congestion_avoidance(w, ev.acked.max(1)),
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        if self.ns3_mss.is_some() {
            // TcpHybla inherits TcpNewReno::GetSsThresh: half the bytes in flight.
            return w.ns3_newreno_ssthresh();
        }
        w.cwnd.min(w.rwnd) / 2.0
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [("hybla_rho", self.rho), NO_TRACE, NO_TRACE, NO_TRACE]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    const US: u64 = 1_000_000;

    fn sample(rtt_us: u64, min_rtt_us: Option<u64>) -> AckSample {
        AckSample {
            now: SimTime::ZERO,
            acked: 1,
            rtt: Some(SimDuration(rtt_us * US)),
            owd: None,
            echo: None,
            min_rtt: min_rtt_us.map(|m| SimDuration(m * US)),
        }
    }

    fn hybla(rtt_ms: u64) -> Hybla {
        let mut h = Hybla::new(&HyblaParams::default(), &CcSetup::default());
        h.pkts_acked(
            &mut Window::new(1.0, 1.0, 1e9),
            &sample(rtt_ms * 1000, None),
        );
        h
    }

    fn ack(acked: u64) -> AckEvent {
        AckEvent {
            acked,
            credit: acked as f64,
            ..AckEvent::one_segment(SimTime::ZERO, None)
        }
    }

    /// Eq. 7-8: rho = RTT / RTT0; slow start adds 2^rho - 1 per ACK, congestion avoidance
    /// rho^2 / cwnd per segment.
    #[test]
    fn grows_by_the_normalised_rtt() {
        let mut h = hybla(100); // rho = 100 / 25 = 4
        assert_eq!(h.rho, 4.0);
        let mut w = Window::new(10.0, 100.0, 1e9);
        h.cong_avoid(&mut w, AckEvent::one_segment(SimTime::ZERO, None));
        assert_eq!(w.cwnd, 10.0 + 15.0);
        // Slow start stops at ssthresh.
        let mut w = Window::new(90.0, 100.0, 1e9);
        h.cong_avoid(&mut w, AckEvent::one_segment(SimTime::ZERO, None));
        assert_eq!(w.cwnd, 100.0);
        // Congestion avoidance: 16 / 100 per segment.
        let mut w = Window::new(100.0, 50.0, 1e9);
        h.cong_avoid(&mut w, AckEvent::one_segment(SimTime::ZERO, None));
        assert!((w.cwnd - 100.16).abs() < 1e-12);
        // A short RTT is Reno: rho = 1.
        let mut r = hybla(10);
        assert_eq!(r.rho, 1.0);
        let mut w = Window::new(10.0, 100.0, 1e9);
        r.cong_avoid(&mut w, AckEvent::one_segment(SimTime::ZERO, None));
        assert_eq!(w.cwnd, 11.0);
        assert_eq!(r.ssthresh(&w, SimTime::ZERO), 5.5);
    }

    fn ns3(mss: f64) -> Hybla {
        let p = HyblaParams {
            rtt0: 0.05,
            ns3_model: true,
        };
        Hybla::new(
            &p,
            &CcSetup {
                mss,
                ..CcSetup::default()
            },
        )
    }

    /// ns-3.44's TcpHybla::SlowStart stops at ssthresh and returns segmentsAcked - 1, which
    /// TcpNewReno::IncreaseWindow passes to TcpHybla::CongestionAvoidance once cwnd reached
    /// ssthresh: rho^2 / W for each of those segments into m_cWndCnt.
    #[test]
    fn ns3_slow_start_rest_goes_to_congestion_avoidance() {
        let ack = |acked: u64| AckEvent {
            acked,
            credit: acked as f64,
            per_ack: true,
            ..AckEvent::one_segment(SimTime::ZERO, None)
        };
        for (acked, rest) in [(1, 0.0), (3, 2.0)] {
            let mut h = ns3(1000.0);
            let mut w = Window::new(2.0, 3.0, 1e9);
            w.ns3_mss = 1000.0;
            h.cong_avoid(&mut w, ack(acked));
            let counted = rest * h.rho * h.rho / 3.0;
            assert_eq!(w.cwnd, 3.0 + counted.floor(), "{acked}");
            assert!((h.cwnd_cnt - counted.fract()).abs() < 1e-12, "{acked}");
        }
    }

    /// ns-3.44's TcpHybla::PktsAcked recomputes rho only when the (smoothed) RTT it is given
    /// equals tcb->m_minRtt, and RecalcParam takes both times in whole milliseconds.
    #[test]
    fn ns3_model_takes_rho_only_at_the_minimum_in_whole_milliseconds() {
        let mut h = ns3(340.0);
        let mut w = Window::new(10.0, 1e9, 1e9);
        // The handshake's srtt, 90 ms, is the minimum; the first data ACKs' srtt is above it.
        h.pkts_acked(&mut w, &sample(90_400, Some(90_000)));
        h.pkts_acked(&mut w, &sample(91_200, Some(90_000)));
        assert_eq!(h.rho, 1.0, "srtt above m_minRtt: no RecalcParam");
        // An srtt equal to the minimum: rho = 90 / 50 from whole milliseconds (90.7 -> 90).
        h.pkts_acked(&mut w, &sample(90_700, Some(90_700)));
        assert_eq!(h.rho, 1.8);
        // Without ns-3's model the smallest sample counts, exactly: 90.4 / 50.
        let mut exact = Hybla::new(
            &HyblaParams {
                rtt0: 0.05,
                ns3_model: false,
            },
            &CcSetup::default(),
        );
        exact.pkts_acked(&mut w, &sample(90_400, Some(90_000)));
        assert!((exact.rho - 1.808).abs() < 1e-12, "{}", exact.rho);
    }

    /// TcpHybla::SlowStart adds (2^rho - 1) x MSS as a uint32_t; CongestionAvoidance adds
    /// rho^2 / W per segment acknowledged (W in whole segments) to m_cWndCnt and moves its
    /// whole segments into cwnd.
    #[test]
    fn ns3_model_grows_in_whole_bytes_and_whole_segments() {
        let mut h = ns3(340.0);
        h.rho = 1.8;
        let mut w = Window::new(10.0, 1e9, 1e9);
        h.cong_avoid(&mut w, ack(2));
        // 2^1.8 - 1 = 2.4822 segments = 843.9 bytes -> 843 bytes.
        assert!(
            (w.cwnd - (10.0 + 843.0 / 340.0)).abs() < 1e-12,
            "{}",
            w.cwnd
        );
        h.rho = 1.0;
        let mut w = Window::new(20.5, 10.0, 1e9);
        // W = 20 whole segments: each ACK of two segments adds 2/20 to the counter.
        for _ in 0..9 {
            h.cong_avoid(&mut w, ack(2));
        }
        assert_eq!(w.cwnd, 20.5, "0.9 of a segment waits in m_cWndCnt");
        h.cong_avoid(&mut w, ack(2));
        assert_eq!(w.cwnd, 21.5);
        assert!(h.cwnd_cnt.abs() < 1e-9, "{}", h.cwnd_cnt);
    }
}
