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
//! `ns3_cc_defaults`). ns-3 takes rho from whole milliseconds (`GetMilliSeconds`); here it is
//! exact. ns-3 adds the increase in whole segments once they accumulate (`m_cWndCnt`); here
//! fractions add at once.

use super::{
    AckEvent, AckSample, CcInfo, CcSetup, CongestionOps, Ns3Class, Param, Range, Window, NO_TRACE,
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
}

impl Hybla {
    fn recalc(&mut self) {
        self.rho = (self.min_rtt / self.rtt0).max(1.0);
    }
}

crate::params! {
    /// Hybla's parameters (`cc_params`), each with its declaration.
    pub struct HyblaParams {
        rtt0: f64 = Param::new("rtt0", 0.025, Range::Positive, "reference RTT RTT0, seconds")
            .ns3("RRTT")
            .profile_defaults(&[("ns3", 0.05)]),
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

    fn new(p: &HyblaParams, _setup: &CcSetup) -> Hybla {
        Hybla {
            rtt0: p.rtt0,
            min_rtt: f64::INFINITY,
            rho: 1.0,
        }
    }

    fn pkts_acked(&mut self, _w: &mut Window, sample: &AckSample) {
        if let Some(r) = sample.rtt {
            let r = r.as_secs_f64();
            if r > 0.0 && r <= self.min_rtt {
                self.min_rtt = r;
                self.recalc();
            }
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            w.cwnd = (w.cwnd + 2f64.powf(self.rho) - 1.0).min(w.ssthresh);
        } else {
            w.cwnd += self.rho * self.rho * ev.credit / w.cwnd;
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
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

    fn hybla(rtt_ms: u64) -> Hybla {
        let mut h = Hybla::new(&HyblaParams::default(), &CcSetup::default());
        let mut w = Window::new(1.0, 1.0, 1e9);
        h.pkts_acked(
            &mut w,
            &AckSample {
                now: SimTime::ZERO,
                acked: 1,
                rtt: Some(SimDuration::from_millis(rtt_ms)),
                owd: None,
                echo: None,
                min_rtt: None,
            },
        );
        h
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
}
