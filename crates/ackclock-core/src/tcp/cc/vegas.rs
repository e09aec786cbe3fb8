//! TCP Vegas: L. S. Brakmo, L. L. Peterson, "TCP Vegas: End to End Congestion Avoidance on a
//! Global Internet", IEEE JSAC 13(8), 1995.
//!
//! Once per round trip Vegas compares the rate it expects, cwnd / BaseRTT (BaseRTT the
//! smallest RTT seen), with the rate it gets, cwnd / RTT (RTT the smallest sample of the
//! round), and turns the difference into the segments it keeps queued in the network:
//! diff = (expected - actual) x BaseRTT. In congestion avoidance it adds a segment when diff <
//! `alpha` (1), removes one when diff > `beta` (3), else holds. Slow start grows as Reno's
//! until diff exceeds `gamma` (1), then sets ssthresh and keeps at most the window that
//! would queue gamma segments. A loss halves the window as Reno does.
//!
//! Rounds are measured in time: a round ends when one RTT of the round has passed since it
//! began (Linux counts sequence numbers; the two agree while the window is steady).

use super::{
    slow_start, AckEvent, CcInfo, CcSetup, CongestionOps, Param, Params, Range, Window, NO_TRACE, Ns3Class};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Vegas {
    alpha: f64,
    beta: f64,
    gamma: f64,
    /// Seconds.
    pub base_rtt: f64,
    round_min: f64,
    round_start: Option<SimTime>,
    /// The last round's diff, in segments.
    pub diff: f64,
}

impl CongestionOps for Vegas {
    const INFO: CcInfo = CcInfo {
        name: "vegas",
        ns3: &[Ns3Class::newreno("TcpVegas")],
        ecn_per_segment: false,
        params: &[
            Param::new("alpha", 1.0, Range::NonNegative, "grow below this many queued segments")
                .ns2("v_alpha_")
                .ns3("Alpha"),
            Param::new("beta", 3.0, Range::NonNegative, "shrink above this many queued segments")
                .ns2("v_beta_")
                .ns3("Beta"),
            Param::new("gamma", 1.0, Range::NonNegative, "leave slow start above this many")
                .ns2("v_gamma_")
                .ns3("Gamma"),
        ],
    };

    fn new(p: &Params, _setup: &CcSetup) -> Vegas {
        Vegas {
            alpha: p.get("alpha"),
            beta: p.get("beta"),
            gamma: p.get("gamma"),
            base_rtt: f64::INFINITY,
            round_min: f64::INFINITY,
            round_start: None,
            diff: f64::NAN,
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if let Some(r) = ev.delay.or(ev.rtt) {
            let r = r.as_secs_f64();
            self.base_rtt = self.base_rtt.min(r);
            self.round_min = self.round_min.min(r);
        }
        let start = *self.round_start.get_or_insert(ev.now);
        let round_over =
            self.round_min.is_finite() && ev.now.since(start).as_secs_f64() >= self.round_min;
        if !round_over {
            if w.cwnd < w.ssthresh {
                slow_start(w, &ev);
            }
            return;
        }
        let rtt = self.round_min;
        self.round_min = f64::INFINITY;
        self.round_start = Some(ev.now);
        let expected = w.cwnd / self.base_rtt;
        let actual = w.cwnd / rtt;
        self.diff = (expected - actual) * self.base_rtt;
        if w.cwnd < w.ssthresh {
            if self.diff > self.gamma {
                // Leave slow start with the window that queues about gamma segments.
                let target = w.cwnd * self.base_rtt / rtt;
                w.cwnd = w.cwnd.min(target + 1.0).max(2.0);
                w.ssthresh = w.ssthresh.min((w.cwnd - 1.0).max(2.0));
            } else {
                slow_start(w, &ev);
            }
        } else if self.diff > self.beta {
            w.cwnd = (w.cwnd - 1.0).max(2.0);
            // Still congestion avoidance: a smaller window is not a reason to slow-start.
            w.ssthresh = w.ssthresh.min(w.cwnd);
        } else if self.diff < self.alpha {
            w.cwnd += 1.0;
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        w.cwnd.min(w.rwnd) / 2.0
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("vegas_base_rtt", self.base_rtt),
            ("vegas_diff", self.diff),
            NO_TRACE,
            NO_TRACE,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;
    use std::collections::BTreeMap;

    fn run_round(v: &mut Vegas, w: &mut Window, start: u64, rtt_ms: u64) -> u64 {
        // Enough ACKs over one round for the round to end.
        let mut t = start;
        for _ in 0..(w.cwnd as u64 + 3) {
            t += rtt_ms * 1_000_000_000 / (w.cwnd as u64 + 1);
            v.cong_avoid(
                w,
                AckEvent {
                    now: SimTime(t),
                    acked: 1,
                    credit: 1.0,
                    rtt: None,
                    delay: Some(SimDuration::from_millis(rtt_ms)),
                    una: 0,
                    sent: 0,
                    per_ack: false,
                },
            );
        }
        t
    }

    #[test]
    fn holds_between_alpha_and_beta_segments_queued() {
        let given = BTreeMap::new();
        let mut v = Vegas::new(&Params::new(&Vegas::INFO, &given).unwrap(), &CcSetup::default());
        let mut w = Window::new(20.0, 10.0, 1e9);
        let mut t = run_round(&mut v, &mut w, 0, 100); // base RTT 100 ms, nothing queued
        assert!(w.cwnd > 20.0, "grows while diff < alpha: {}", w.cwnd);
        // With RTT 125 ms at cwnd 21: diff = 21 (1 - 100/125) = 4.2 > beta: shrink.
        w.cwnd = 21.0;
        t = run_round(&mut v, &mut w, t, 125);
        assert!(w.cwnd < 21.0, "{} (diff {})", w.cwnd, v.diff);
        // RTT 110 ms at cwnd 20: diff = 20 x 10/110 = 1.8: hold.
        w.cwnd = 20.0;
        run_round(&mut v, &mut w, t, 110);
        assert_eq!(w.cwnd, 20.0, "diff {}", v.diff);
    }
}
