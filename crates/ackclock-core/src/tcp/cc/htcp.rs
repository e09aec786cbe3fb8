//! H-TCP: D. Leith, R. Shorten, "H-TCP: TCP for high-speed and long-distance networks",
//! PFLDnet 2004, and draft-leith-tcp-htcp-06 (2008).
//!
//! The increase depends on the time Δ since the last congestion event: for Δ below
//! Δ_L (1 s) it is Reno's one segment per RTT; above, α(Δ) = 1 + 10 (Δ - Δ_L) +
//! ((Δ - Δ_L) / 2)^2 segments per RTT (cwnd += α / cwnd per ACK).
//!
//! - RTT scaling (draft section 4.1): α is multiplied by RTT_min / RTT_ref (RTT_ref
//!   100 ms), the ratio kept within [0.1, 2] as Linux does, so flows of different RTTs grow
//!   alike in time.
//! - Adaptive backoff (section 4.2): on a loss cwnd becomes β cwnd with β = RTT_min /
//!   RTT_max (of the last congestion epoch) within [0.5, 0.8]; if the throughput the flow
//!   achieved just before the loss differs by more than 20% from the previous epoch's, the
//!   network has changed and β is 0.5.
//! - α is then scaled by 2 (1 - β), so that the flow stays as friendly to Reno as with
//!   β = 0.5 (section 4.3).
//!
//! Throughput is measured as Linux's `tcp_htcp` does: segments acknowledged per RTT_min-long
//! interval, smoothed 3/4 old + 1/4 new; its maximum over the epoch is compared at the next
//! loss. Below ssthresh the window grows as Reno's slow start.
//!
//! `ns3_model` = 1 (the `ns3` profile's default) follows ns-3.44's `TcpHtcp` instead
//! (src/internet/model/tcp-htcp.cc), which differs from the draft in units and rules:
//! - `CongestionAvoidance`: each ACK adds max(1, (MSS^2 + cwnd alpha) / cwnd) bytes, cwnd in
//!   bytes: Reno's MSS^2 / cwnd plus alpha *bytes* (the draft's alpha is segments per RTT),
//!   truncated to whole bytes; no RTT scaling;
//! - `IncreaseWindow` is `TcpNewReno`'s: an ACK of more than one segment whose slow-start step
//!   reaches ssthresh also takes one `CongestionAvoidance` step (`SlowStart` returns
//!   segmentsAcked - 1);
//! - `UpdateAlpha` (every `PktsAcked` and every loss): alpha = max(1, 2 (1 - beta) alpha(Δ)),
//!   Δ from the last loss or from the start of the simulation, beta 0 before the first loss;
//! - `PktsAcked`: RTT_min and RTT_max of the epoch from every ACK's RTT (the smoothed RTT
//!   under `ns3_srtt_samples`), throughput = bytes acknowledged in the open state since the
//!   last loss / the time since it, in whole bytes per second;
//! - `GetSsThresh` (every loss): beta = RTT_min / RTT_max, unclamped, if the throughput rose
//!   since the last loss and the rise divided by the old throughput, in integer arithmetic,
//!   is at most `throughput_ratio` (so any rise smaller than the old throughput), else
//!   `default_backoff`; ssthresh = max(2, beta x flight) segments (flight here: the window,
//!   as the other algorithms take it); then the epoch's RTTs and throughput restart.

use super::{
    ns3_slow_start_rest, slow_start, AckEvent, AckSample, CaState, CcInfo, CcSetup, CongestionOps,
    Conn, Ns3Class, Param, Range, Window, NO_TRACE,
};
use crate::time::SimTime;

const BETA_MIN: f64 = 0.5;
const BETA_MAX: f64 = 0.8;

#[derive(Clone, Debug)]
pub struct Htcp {
    delta_l: f64,
    rtt_ref: f64,
    rtt_scaling: bool,
    adaptive_backoff: bool,
    bandwidth_switch: bool,
    /// When the last congestion event happened (the flow's first ACK before one).
    last_congestion: Option<SimTime>,
    pub beta: f64,
    /// Smallest RTT seen, largest in this epoch (s).
    pub rtt_min: f64,
    pub rtt_max: f64,
    /// Throughput (segments/s): smoothed, maximum this epoch, maximum last epoch.
    b_i: f64,
    pub max_b: f64,
    old_max_b: f64,
    count: f64,
    count_since: Option<SimTime>,
    /// Throughput samples since the last congestion event.
    samples: u32,
    /// ns-3.44's `TcpHtcp` (`ns3_model`), its attributes and state: `m_defaultBackoff`,
    /// `m_throughputRatio`, `m_alpha` (bytes per ACK), `m_lastCon` (s), `m_throughput` and
    /// `m_lastThroughput` (bytes/s), `m_dataSent` (bytes), whether the state is open.
    ns3: Option<Ns3Htcp>,
    /// The segment size in bytes (ns-3's `m_segmentSize`).
    mss: f64,
}

#[derive(Clone, Debug)]
struct Ns3Htcp {
    default_backoff: f64,
    throughput_ratio: f64,
    alpha: f64,
    last_con: f64,
    throughput: u32,
    last_throughput: u32,
    data_sent: f64,
    open: bool,
}

/// α(Δ) of the draft's equation (1), before scaling.
pub fn alpha_of(delta: f64, delta_l: f64) -> f64 {
    if delta <= delta_l {
        return 1.0;
    }
    let d = delta - delta_l;
    1.0 + 10.0 * d + (d / 2.0).powi(2)
}

crate::params! {
    /// H-TCP's parameters (`cc_params`), each with its declaration.
    pub struct HtcpParams {
        delta_l: f64 = Param::new("delta_l", 1.0, Range::Positive, "s after a loss before high-speed mode")
            .ns3("DeltaL"),
        rtt_ref: f64 = Param::new("rtt_ref", 0.1, Range::Positive, "reference RTT in s of RTT scaling"),
        rtt_scaling: bool = Param::new("rtt_scaling", 1.0, Range::Flag, "scale the increase with the RTT"),
        adaptive_backoff: bool = Param::new("adaptive_backoff", 1.0, Range::Flag, "beta from RTT_min / RTT_max"),
        bandwidth_switch: bool = Param::new("bandwidth_switch", 1.0, Range::Flag, "beta 0.5 on a throughput change"),
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "ns-3.44's TcpHtcp rules (module notes)")
            .profile_defaults(&[("ns3", 1.0)]),
        default_backoff: f64 = Param::new("default_backoff", 0.5, Range::Between(0.0, 1.0), "ns3_model: beta otherwise")
            .ns3("DefaultBackoff"),
        throughput_ratio: f64 = Param::new("throughput_ratio", 0.2, Range::NonNegative, "ns3_model: beta's threshold")
            .ns3("ThroughputRatio"),
    }
}

impl CongestionOps for Htcp {
    const INFO: CcInfo = CcInfo {
        name: "htcp",
        ns3: &[Ns3Class::newreno("TcpHtcp")],
        ecn_per_segment: false,
        params: HtcpParams::PARAMS,
    };

    type Params = HtcpParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &HtcpParams, setup: &CcSetup) -> Htcp {
        let ns3 = p.ns3_model;
        Htcp {
            delta_l: p.delta_l,
            rtt_ref: p.rtt_ref,
            rtt_scaling: p.rtt_scaling,
            adaptive_backoff: p.adaptive_backoff,
            bandwidth_switch: p.bandwidth_switch,
            last_congestion: None,
            // ns-3's m_beta starts at 0.
            beta: if ns3 { 0.0 } else { BETA_MIN },
            rtt_min: f64::INFINITY,
            rtt_max: 0.0,
            b_i: 0.0,
            max_b: 0.0,
            old_max_b: 0.0,
            count: 0.0,
            count_since: None,
            samples: 0,
            mss: setup.mss.max(1.0),
            ns3: ns3.then_some(Ns3Htcp {
                default_backoff: p.default_backoff,
                throughput_ratio: p.throughput_ratio,
                alpha: 0.0,
                last_con: 0.0,
                throughput: 0,
                last_throughput: 0,
                data_sent: 0.0,
                open: true,
            }),
        }
    }

    fn pkts_acked(&mut self, _w: &mut Window, sample: &AckSample) {
        // ns-3's `TcpHtcp::PktsAcked` (the draft's model samples in `cong_avoid`).
        let mss = self.mss;
        let Some(n) = self.ns3.as_mut() else {
            return;
        };
        let now = sample.now.as_secs_f64();
        if n.open {
            n.data_sent += sample.acked as f64 * mss;
        }
        n.throughput = (n.data_sent / (now - n.last_con)) as u32;
        self.ns3_update_alpha(now);
        if let Some(r) = sample.rtt {
            let r = r.as_secs_f64();
            self.rtt_min = self.rtt_min.min(r);
            self.rtt_max = self.rtt_max.max(r);
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if let Some(n) = self.ns3.as_mut() {
            // `TcpNewReno::IncreaseWindow` with `TcpHtcp::CongestionAvoidance`.
            n.open = true;
            let grow = |w: &mut Window| {
                let cwnd = w.cwnd * self.mss;
                let adder = ((self.mss * self.mss + cwnd * n.alpha) / cwnd).max(1.0);
                w.cwnd += adder.trunc() / self.mss;
            };
            if w.cwnd < w.ssthresh {
                slow_start(w, &ev);
                // The rest of a slow-start ACK that reaches ssthresh: one more step.
                if ns3_slow_start_rest(w, &ev) > 0 {
                    grow(w);
                }
            } else {
                grow(w);
            }
            return;
        }
        self.last_congestion.get_or_insert(ev.now);
        if let Some(r) = ev.delay.or(ev.rtt) {
            let r = r.as_secs_f64();
            self.rtt_min = self.rtt_min.min(r);
            self.rtt_max = self.rtt_max.max(r);
        }
        self.measure_throughput(ev.now, ev.acked as f64);
        if w.cwnd < w.ssthresh {
            slow_start(w, &ev);
        } else {
            w.cwnd += self.alpha(ev.now) * ev.credit / w.cwnd;
        }
    }

    fn ssthresh(&mut self, w: &Window, now: SimTime) -> f64 {
        if self.ns3.is_some() {
            return self.ns3_ssthresh(w, now);
        }
        self.update_beta();
        self.last_congestion = Some(now);
        self.rtt_max = self.rtt_min;
        self.samples = 0;
        self.count = 0.0;
        self.count_since = Some(now);
        self.beta * w.cwnd
    }

    fn set_state(&mut self, _w: &mut Window, state: CaState, _conn: &Conn) {
        if let Some(n) = self.ns3.as_mut() {
            // ns-3 counts data only in the open state; `cong_avoid` reopens it.
            n.open = state == CaState::Open;
            return;
        }
        if state == CaState::Loss {
            self.on_timeout();
        }
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("htcp_beta", self.beta),
            ("htcp_rtt_min", self.rtt_min),
            ("htcp_max_b", self.max_b),
            NO_TRACE,
        ]
    }
}

impl Htcp {
    /// ns-3's `TcpHtcp::UpdateAlpha` at `now` (s).
    fn ns3_update_alpha(&mut self, now: f64) {
        let Some(n) = self.ns3.as_mut() else {
            return;
        };
        let a = alpha_of(now - n.last_con, self.delta_l);
        n.alpha = (2.0 * (1.0 - self.beta) * a).max(1.0);
    }

    /// ns-3's `TcpHtcp::GetSsThresh` and `UpdateBeta`.
    fn ns3_ssthresh(&mut self, w: &Window, now: SimTime) -> f64 {
        let n = self.ns3.as_mut().expect("ns3_model");
        n.last_con = now.as_secs_f64();
        self.beta = n.default_backoff;
        if n.throughput > n.last_throughput && n.last_throughput > 0 {
            let rise = (n.throughput - n.last_throughput) / n.last_throughput;
            if f64::from(rise) <= n.throughput_ratio && self.rtt_max > 0.0 {
                self.beta = self.rtt_min / self.rtt_max;
            }
        }
        n.last_throughput = n.throughput;
        n.throughput = 0;
        n.data_sent = 0.0;
        self.ns3_update_alpha(now.as_secs_f64());
        self.rtt_min = f64::INFINITY;
        self.rtt_max = 0.0;
        // max(2 segments, bytesInFlight x beta truncated to whole bytes).
        match w.ns3_bytes_in_flight() {
            Some(flight) => {
                (((flight * w.ns3_mss).round() * self.beta).floor() / w.ns3_mss).max(2.0)
            }
            None => (self.beta * w.cwnd.min(w.rwnd)).max(2.0),
        }
    }

    /// The increase per RTT now: α(Δ), RTT-scaled, times 2 (1 - β).
    pub fn alpha(&self, now: SimTime) -> f64 {
        let since = self.last_congestion.unwrap_or(now);
        let delta = now.0.saturating_sub(since.0) as f64 * 1e-12;
        let mut a = alpha_of(delta, self.delta_l);
        if self.rtt_scaling && self.rtt_min.is_finite() {
            a *= (self.rtt_min / self.rtt_ref).clamp(0.1, 2.0);
        }
        (2.0 * (1.0 - self.beta) * a).max(f64::MIN_POSITIVE)
    }

    fn measure_throughput(&mut self, now: SimTime, acked: f64) {
        let since = *self.count_since.get_or_insert(now);
        self.count += acked;
        let elapsed = now.0.saturating_sub(since.0) as f64 * 1e-12;
        if !self.rtt_min.is_finite() || elapsed < self.rtt_min || elapsed == 0.0 {
            return;
        }
        let cur = self.count / elapsed;
        self.samples += 1;
        if self.samples <= 3 {
            // Just after a backoff the rate is still settling: start the epoch's record here.
            self.b_i = cur;
            self.max_b = cur;
        } else {
            self.b_i = (3.0 * self.b_i + cur) / 4.0;
            self.max_b = self.max_b.max(self.b_i);
        }
        self.count = 0.0;
        self.count_since = Some(now);
    }

    /// β for the loss just detected, from the epoch that ends with it.
    pub fn update_beta(&mut self) {
        let (max_b, old) = (self.max_b, self.old_max_b);
        self.old_max_b = max_b;
        if self.bandwidth_switch && old > 0.0 && !(0.8 * old..=1.2 * old).contains(&max_b) {
            self.beta = BETA_MIN;
            return;
        }
        self.beta = if self.adaptive_backoff && self.rtt_max > 0.0 && self.rtt_min.is_finite() {
            (self.rtt_min / self.rtt_max).clamp(BETA_MIN, BETA_MAX)
        } else {
            BETA_MIN
        };
    }

    pub fn on_timeout(&mut self) {
        self.beta = BETA_MIN;
        self.samples = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;
    use std::collections::BTreeMap;

    const S: u64 = 1_000_000_000_000;

    fn htcp(params: &[(&str, f64)]) -> Htcp {
        let given: BTreeMap<String, f64> =
            params.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        Htcp::new(&HtcpParams::given(&given).unwrap(), &CcSetup::default())
    }

    fn ack(t: f64, rtt: f64) -> AckEvent {
        AckEvent {
            now: SimTime((t * S as f64) as u64),
            acked: 1,
            credit: 1.0,
            rtt: None,
            delay: Some(SimDuration((rtt * S as f64) as u64)),
            una: 0,
            sent: 0,
            per_ack: false,
        }
    }

    #[test]
    fn alpha_follows_the_draft_equation() {
        assert_eq!(alpha_of(0.5, 1.0), 1.0);
        assert_eq!(alpha_of(2.0, 1.0), 1.0 + 10.0 + 0.25);
        assert_eq!(alpha_of(5.0, 1.0), 1.0 + 40.0 + 4.0);
        // With β = 0.5 and RTT_min = RTT_ref, 2 (1 - β) α = α.
        let mut h = htcp(&[]);
        let mut w = Window::new(100.0, 50.0, 1e9);
        h.cong_avoid(&mut w, ack(0.0, 0.1));
        assert!((h.alpha(SimTime(2 * S)) - 11.25).abs() < 1e-9);
        assert!((h.alpha(SimTime(5 * S)) - 45.0).abs() < 1e-9);
    }

    #[test]
    fn rtt_scaling_is_clamped() {
        let mut h = htcp(&[]);
        let mut w = Window::new(100.0, 50.0, 1e9);
        h.cong_avoid(&mut w, ack(0.0, 0.02));
        // RTT_min / RTT_ref = 0.2.
        assert!((h.alpha(SimTime(2 * S)) - 11.25 * 0.2).abs() < 1e-9);
        let mut long = htcp(&[]);
        long.cong_avoid(&mut w, ack(0.0, 0.5));
        assert!(
            (long.alpha(SimTime(2 * S)) - 11.25 * 2.0).abs() < 1e-9,
            "clamped at 2"
        );
    }

    #[test]
    fn backoff_is_rtt_min_over_rtt_max_within_bounds() {
        let mut h = htcp(&[("bandwidth_switch", 0.0)]);
        let mut w = Window::new(100.0, 50.0, 1e9);
        h.cong_avoid(&mut w, ack(0.0, 0.1));
        h.cong_avoid(&mut w, ack(0.1, 0.14));
        // (The ACKs grew cwnd a little in congestion avoidance.)
        let r = h.ssthresh(&w, SimTime(S));
        assert!((r - w.cwnd * 0.1 / 0.14).abs() < 1e-6, "{r}");
        h.cong_avoid(&mut w, ack(1.1, 0.1));
        h.cong_avoid(&mut w, ack(1.2, 0.5));
        assert_eq!(h.ssthresh(&w, SimTime(2 * S)), 0.5 * w.cwnd, "at least 0.5");
        h.cong_avoid(&mut w, ack(2.1, 0.1));
        h.cong_avoid(&mut w, ack(2.2, 0.105));
        assert_eq!(h.ssthresh(&w, SimTime(3 * S)), 0.8 * w.cwnd, "at most 0.8");
    }

    #[test]
    fn a_throughput_change_over_20_percent_backs_off_by_half() {
        let mut h = htcp(&[]);
        h.rtt_min = 0.1;
        h.rtt_max = 0.13;
        let w = Window::new(100.0, 50.0, 1e9);
        h.max_b = 1000.0;
        h.update_beta();
        let steady = h.beta;
        assert!((steady - 0.1 / 0.13).abs() < 1e-9);
        h.max_b = 1100.0; // +10%: same network
        h.update_beta();
        assert!((h.beta - steady).abs() < 1e-9);
        h.max_b = 1500.0; // +36%: the network changed
        h.update_beta();
        assert_eq!(h.beta, 0.5);
        let _ = w;
    }

    #[test]
    fn growth_per_rtt_is_alpha_segments() {
        // In congestion avoidance 3 s after a loss, one RTT of ACKs (cwnd of them) adds
        // about α(3 s) = 1 + 20 + 1 = 22 segments (β 0.5, RTT_min = RTT_ref).
        let mut h = htcp(&[("adaptive_backoff", 0.0), ("bandwidth_switch", 0.0)]);
        let mut w = Window::new(1000.0, 10.0, 1e9);
        h.cong_avoid(&mut w, ack(0.0, 0.1));
        h.ssthresh(&w, SimTime(0));
        let start = w.cwnd;
        let n = w.cwnd as usize;
        for i in 0..n {
            h.cong_avoid(&mut w, ack(3.0 + i as f64 * 1e-6, 0.1));
        }
        assert!((w.cwnd - start - 22.0).abs() < 0.3, "{}", w.cwnd - start);
    }

    /// ns-3.44's TcpHtcp inherits TcpNewReno::IncreaseWindow: an ACK of two segments whose
    /// slow-start step reaches ssthresh also takes one TcpHtcp::CongestionAvoidance step.
    #[test]
    fn ns3_slow_start_rest_takes_one_congestion_avoidance_step() {
        let setup = CcSetup {
            mss: 1000.0,
            ..CcSetup::default()
        };
        let given: BTreeMap<String, f64> = [("ns3_model".to_string(), 1.0)].into();
        let mut h = Htcp::new(&HtcpParams::given(&given).unwrap(), &setup);
        let alpha = h.ns3.as_ref().unwrap().alpha;
        let mut grow = |acked: u64| {
            let mut w = Window::new(2.0, 2.5, 1e9);
            w.ns3_mss = 1000.0;
            let ev = AckEvent {
                acked,
                credit: acked as f64,
                per_ack: true,
                ..AckEvent::one_segment(SimTime::ZERO, None)
            };
            h.cong_avoid(&mut w, ev);
            (w.cwnd * 1000.0).round()
        };
        // Slow start 2 -> 3 segments, then max(1, (1000^2 + 3000 alpha) / 3000) whole bytes.
        let step = ((1e6 + 3000.0 * alpha) / 3000.0).max(1.0).trunc();
        assert_eq!(grow(2), 3000.0 + step);
        assert_eq!(grow(1), 3000.0);
    }

    /// ns-3.44's `TcpHtcp::CongestionAvoidance`: max(1, (MSS^2 + cwnd alpha) / cwnd) bytes
    /// per ACK, alpha = max(1, 2 (1 - beta) alpha(Δ)) bytes, no RTT scaling.
    #[test]
    fn ns3_model_adds_alpha_bytes_per_ack() {
        let setup = CcSetup {
            mss: 1000.0,
            ..CcSetup::default()
        };
        let given: BTreeMap<String, f64> = [("ns3_model".to_string(), 1.0)].into();
        let mut h = Htcp::new(&HtcpParams::given(&given).unwrap(), &setup);
        let mut w = Window::new(100.0, 50.0, 1e9);
        let sample = |t: f64, rtt: f64| AckSample {
            now: SimTime((t * S as f64) as u64),
            acked: 1,
            rtt: Some(SimDuration((rtt * S as f64) as u64)),
            owd: None,
            echo: None,
            min_rtt: None,
        };
        // 3 s into the run with beta 0: alpha = 2 x (1 + 20 + 1) = 44 bytes.
        h.pkts_acked(&mut w, &sample(3.0, 0.1));
        h.cong_avoid(&mut w, ack(3.0, 0.1));
        // (1000^2 + 100 000 x 44) / 100 000 = 54 bytes.
        assert!((w.cwnd - 100.054).abs() < 1e-9, "{}", w.cwnd);
        // A loss at 4 s: no throughput history, so beta = DefaultBackoff 0.5 of the window;
        // then alpha = max(1, 2 x 0.5 x alpha(0)) = 1 byte: Reno's MSS^2 / cwnd + 1 byte.
        h.pkts_acked(&mut w, &sample(3.5, 0.12));
        assert!((h.ssthresh(&w, SimTime(4 * S)) - 0.5 * w.cwnd).abs() < 1e-9);
        w.cwnd = 50.0;
        w.ssthresh = 50.0;
        h.pkts_acked(&mut w, &sample(4.1, 0.1));
        h.cong_avoid(&mut w, ack(4.1, 0.1));
        assert!((w.cwnd - 50.021).abs() < 1e-9, "{}", w.cwnd);
        // The throughput rose by less than it was: beta = RTT_min / RTT_max, unclamped.
        h.pkts_acked(&mut w, &sample(4.5, 0.3));
        let n = h.ns3.as_mut().unwrap();
        n.last_throughput = 1000;
        n.throughput = 1500;
        n.data_sent = 1.0;
        let before = w.cwnd;
        let r = h.ssthresh(&w, SimTime(5 * S));
        assert!(
            (h.beta - 0.1 / 0.3).abs() < 1e-9 && (r - before / 3.0).abs() < 1e-9,
            "{r}"
        );
    }
}
