//! TCP Vegas: L. S. Brakmo, L. L. Peterson, "TCP Vegas: End to End Congestion Avoidance on a
//! Global Internet", IEEE JSAC 13(8), 1995. ns-3.44: `TcpVegas` (src/internet/model/
//! tcp-vegas.cc: `PktsAcked`, `IncreaseWindow`, `GetSsThresh`, `CongestionStateSet`), a port
//! of Linux's net/ipv4/tcp_vegas.c.
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
//!
//! `ns3_model` = 1 (the `ns3` profile's default, with ns-3's `alpha` 2 and `beta` 4) follows
//! ns-3.44's `TcpVegas` instead, rule by rule:
//! - every ACK's RTT (`PktsAcked`; the smoothed RTT under `ns3_srtt_samples`) lowers BaseRTT
//!   and the round's minimum and counts a sample (`m_cntRtt`);
//! - a round ends when the ACK reaches the next segment to send at the round's start
//!   (`m_lastAckedSeq >= m_begSndNxt`); with at most 2 samples in it the window grows as
//!   `TcpNewReno`'s, else with W the whole segments of cwnd (`GetCwndInSegments`) the target
//!   is floor(W x BaseRTT / RTT) and diff = W - target, in whole segments;
//! - in slow start, diff > gamma sets cwnd = min(W, target + 1) segments and ssthresh as on a
//!   loss; in congestion avoidance diff > beta sets cwnd = W - 1 (and ssthresh as on a loss),
//!   diff < alpha cwnd = W + 1; then ssthresh = max(ssthresh, 3/4 cwnd); between rounds slow
//!   start grows as `TcpNewReno::SlowStart`, congestion avoidance not at all;
//! - a loss sets ssthresh = max(min(ssthresh, cwnd - 1), 2) segments (`GetSsThresh`, which
//!   ns-3 calls on losses too): one segment less, not half;
//! - Vegas is off outside the open state (`CongestionStateSet`) and restarts its round at the
//!   first ACK back in it (ns-3 restarts on leaving recovery; after a timeout it grows as
//!   `TcpNewReno` until the recovery point is acknowledged, here only until the first ACK
//!   that opens the window).
//!
//! `ns2_model` = 1 (what `ackclock ns2` sets for `Agent/TCP/Vegas`) is ns-2.35's own
//! `VegasTcpAgent` (tcp/tcp-vegas.cc), a different algorithm again, recovery and timeout
//! included: it runs in the sender (`tcp/sender/ns2_vegas.rs`) and this module only holds
//! its parameters.

use super::{
    reno_increase, slow_start, AckEvent, AckSample, CaState, CcInfo, CcSetup, CongestionOps, Conn,
    Ns3Class, Param, Range, Window, NO_TRACE,
};
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
    /// ns-3.44's `TcpVegas` (`ns3_model`): its samples this round (`m_cntRtt`), the round's
    /// right edge (`m_begSndNxt`), and whether Vegas is on (`m_doingVegasNow`).
    ns3: bool,
    /// `ns2_model` and `ns2_delay_growth` (the sender reads them: `Vegas::ns2_model`).
    ns2: bool,
    ns2_delay_growth: bool,
    cnt_rtt: u32,
    beg_snd_nxt: u64,
    doing: bool,
}

impl Vegas {
    /// Under `ns2_model`, ns-2.35's `VegasTcpAgent` runs in the sender (`sender/ns2_vegas.rs`),
    /// with v_alpha_, v_beta_, v_gamma_ and whether the window starts at one segment.
    pub fn ns2_model(&self) -> Option<(f64, f64, f64, bool)> {
        self.ns2
            .then_some((self.alpha, self.beta, self.gamma, self.ns2_delay_growth))
    }

    /// ns-3's `TcpVegas::GetSsThresh`: one segment under cwnd, never above ssthresh, at
    /// least 2.
    fn ns3_ssthresh(w: &Window) -> f64 {
        w.ssthresh.min(w.cwnd - 1.0).max(2.0)
    }

    /// `TcpNewReno::IncreaseWindow`.
    fn reno(w: &mut Window, ev: &AckEvent) {
        if w.cwnd < w.ssthresh {
            slow_start(w, ev);
        } else {
            reno_increase(w, ev);
        }
    }

    /// ns-3.44's `TcpVegas::IncreaseWindow` (see the module's notes).
    fn ns3_cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if !self.doing {
            // `EnableVegas`: back in the open state, a new round from here.
            self.doing = true;
            self.beg_snd_nxt = ev.sent;
            self.cnt_rtt = 0;
            self.round_min = f64::INFINITY;
        }
        if ev.una < self.beg_snd_nxt {
            if w.cwnd < w.ssthresh {
                slow_start(w, &ev);
            }
            return;
        }
        self.beg_snd_nxt = ev.sent;
        if self.cnt_rtt <= 2 {
            Self::reno(w, &ev);
        } else {
            let seg = w.cwnd.floor();
            let target = (seg * (self.base_rtt / self.round_min)).floor();
            let diff = seg - target;
            self.diff = diff;
            if diff > self.gamma && w.cwnd < w.ssthresh {
                w.cwnd = seg.min(target + 1.0);
                w.ssthresh = Self::ns3_ssthresh(w);
            } else if w.cwnd < w.ssthresh {
                slow_start(w, &ev);
            } else if diff > self.beta {
                w.cwnd = seg - 1.0;
                w.ssthresh = Self::ns3_ssthresh(w);
            } else if diff < self.alpha {
                w.cwnd = seg + 1.0;
            }
            w.ssthresh = w.ssthresh.max(0.75 * w.cwnd);
        }
        self.cnt_rtt = 0;
        self.round_min = f64::INFINITY;
    }
}

crate::params! {
    /// Vegas's parameters (`cc_params`), each with its declaration.
    pub struct VegasParams {
        alpha: f64 = Param::new("alpha", 1.0, Range::NonNegative, "grow below this many queued segments")
            .ns2("v_alpha_")
            .ns3("Alpha")
            .profile_defaults(&[("ns3", 2.0)]),
        beta: f64 = Param::new("beta", 3.0, Range::NonNegative, "shrink above this many queued segments")
            .ns2("v_beta_")
            .ns3("Beta")
            .profile_defaults(&[("ns3", 4.0)]),
        gamma: f64 = Param::new("gamma", 1.0, Range::NonNegative, "leave slow start above this many")
            .ns2("v_gamma_")
            .ns3("Gamma"),
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "ns-3.44's TcpVegas rules (module notes)")
            .profile_defaults(&[("ns3", 1.0)]),
        ns2_model: bool = Param::new("ns2_model", 0.0, Range::Flag, "ns-2.35's VegasTcpAgent, recovery and timeout included (tcp/sender/ns2_vegas.rs)"),
        ns2_delay_growth: bool = Param::new("ns2_delay_growth", 0.0, Range::Flag, "ns2_model: one segment until segment 0 is acknowledged, window_init from the next ACK (ns-2's syn_ with delay_growth_)"),
    }
}

impl CongestionOps for Vegas {
    const INFO: CcInfo = CcInfo {
        name: "vegas",
        ns3: &[Ns3Class::newreno("TcpVegas")],
        ecn_per_segment: false,
        params: VegasParams::PARAMS,
    };

    type Params = VegasParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &VegasParams, _setup: &CcSetup) -> Vegas {
        Vegas {
            alpha: p.alpha,
            beta: p.beta,
            gamma: p.gamma,
            base_rtt: f64::INFINITY,
            round_min: f64::INFINITY,
            round_start: None,
            diff: f64::NAN,
            ns3: p.ns3_model,
            ns2: p.ns2_model,
            ns2_delay_growth: p.ns2_delay_growth,
            cnt_rtt: 0,
            beg_snd_nxt: 0,
            doing: true,
        }
    }

    fn pkts_acked(&mut self, _w: &mut Window, sample: &AckSample) {
        // ns-3's `TcpVegas::PktsAcked` (the Linux-style model samples in `cong_avoid`).
        if let (true, Some(r)) = (self.ns3, sample.rtt) {
            let r = r.as_secs_f64();
            self.round_min = self.round_min.min(r);
            self.base_rtt = self.base_rtt.min(r);
            self.cnt_rtt += 1;
        }
    }

    fn set_state(&mut self, _w: &mut Window, state: CaState, _conn: &Conn) {
        // `DisableVegas` outside the open state; `cong_avoid` restarts it.
        if state != CaState::Open {
            self.doing = false;
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if self.ns3 {
            self.ns3_cong_avoid(w, ev);
            return;
        }
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
        if self.ns3 {
            return Self::ns3_ssthresh(w);
        }
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
        let mut v = Vegas::new(&VegasParams::given(&given).unwrap(), &CcSetup::default());
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

    fn ns3_vegas() -> Vegas {
        let mut given = BTreeMap::new();
        given.insert("ns3_model".to_string(), 1.0);
        given.insert("alpha".to_string(), 2.0);
        given.insert("beta".to_string(), 4.0);
        Vegas::new(&VegasParams::given(&given).unwrap(), &CcSetup::default())
    }

    /// One ns-3 round: `n` ACKs each with the smoothed RTT `rtt_ms`, the last reaching the
    /// round's right edge; returns the next right edge.
    fn ns3_round(v: &mut Vegas, w: &mut Window, edge: u64, rtt_ms: u64, n: u64) -> u64 {
        for i in 1..=n {
            let sample = AckSample {
                now: SimTime(0),
                acked: 1,
                rtt: Some(SimDuration::from_millis(rtt_ms)),
                owd: None,
                echo: None,
                min_rtt: None,
            };
            v.pkts_acked(w, &sample);
            let mut ev = AckEvent::one_segment(SimTime(0), sample.rtt);
            ev.una = if i == n { edge } else { edge - 1 };
            ev.sent = edge + 40;
            v.cong_avoid(w, ev);
        }
        edge + 40
    }

    /// ns-3.44's `TcpVegas::IncreaseWindow`: target = floor(W x BaseRTT / RTT) in whole
    /// segments, diff = W - target; hold for alpha <= diff <= beta, W - 1 above beta, W + 1
    /// below alpha; ssthresh at least 3/4 cwnd.
    #[test]
    fn ns3_model_works_in_whole_segments() {
        let mut v = ns3_vegas();
        let mut w = Window::new(23.0, 10.0, 1e9);
        // The first round sets BaseRTT = 100 ms; a round of 1 ACK has too few samples: Reno.
        let mut edge = ns3_round(&mut v, &mut w, 0, 100, 1);
        assert!(w.cwnd > 23.0 && w.cwnd < 23.1, "Reno's 1/cwnd: {}", w.cwnd);
        // RTT 110 ms at W = 23: target floor(20.9) = 20, diff 3: hold (Linux-style: 2.09).
        w.cwnd = 23.4;
        edge = ns3_round(&mut v, &mut w, edge, 110, 5);
        assert_eq!((v.diff, w.cwnd), (3.0, 23.4));
        // RTT 120 ms at W = 30: target 25, diff 5 > beta: cwnd 29, ssthresh max(28, 21.75).
        w.cwnd = 30.0;
        w.ssthresh = 10.0;
        edge = ns3_round(&mut v, &mut w, edge, 120, 5);
        assert_eq!((v.diff, w.cwnd, w.ssthresh), (5.0, 29.0, 21.75));
        // RTT 101 ms at W = 29: target floor(28.7) = 28, diff 1 < alpha: cwnd 30.
        ns3_round(&mut v, &mut w, edge, 101, 5);
        assert_eq!((v.diff, w.cwnd), (1.0, 30.0));
        // A loss: ssthresh = max(min(ssthresh, cwnd - 1), 2) (`GetSsThresh`), not half.
        assert_eq!(v.ssthresh(&w, SimTime(0)), 22.5);
        w.ssthresh = 100.0;
        assert_eq!(v.ssthresh(&w, SimTime(0)), 29.0);
    }

    /// Slow start ends when diff > gamma with cwnd = min(W, target + 1) and ssthresh one
    /// segment under it.
    #[test]
    fn ns3_model_leaves_slow_start_at_the_target() {
        let mut v = ns3_vegas();
        let mut w = Window::new(40.0, f64::INFINITY, 1e9);
        let edge = ns3_round(&mut v, &mut w, 0, 100, 1);
        w.cwnd = 40.0;
        ns3_round(&mut v, &mut w, edge, 125, 5);
        // Four ACKs inside the round slow-start to 44; at its end target floor(44 x 0.8) =
        // 35, diff 9 > gamma: cwnd 36, ssthresh max(35, 27).
        assert_eq!((v.diff, w.cwnd, w.ssthresh), (9.0, 36.0, 35.0));
    }
}
