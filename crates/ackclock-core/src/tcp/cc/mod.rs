//! Congestion control behind one set of hooks, in the spirit of Linux's
//! `tcp_congestion_ops` and ns-3's `TcpCongestionOps`.
//!
//! The sender owns loss detection and recovery; an algorithm decides how the window grows on
//! ACKs (`on_ack`, Linux `cong_avoid`), where it goes on loss (`reduced_window`, Linux
//! `ssthresh`), and what it forgets on a timeout (`on_timeout`). Algorithms are variants of
//! `AnyCc`, dispatched by `match`, their state inline. Each takes its parameters from the
//! flow's `cc_params` (names from its definition, see `docs/models/congestion-control.md`).

pub mod bbr;
pub mod bic;
pub mod cubic;
pub mod fast;
pub mod highspeed;
pub mod htcp;
pub mod hystart;
pub mod reno;
pub mod scalable;
pub mod vegas;
pub mod westwood;
pub mod westwood_original;

pub use reno::Reno;

use std::collections::BTreeMap;

use crate::scenario::TcpConfig;
use crate::time::{SimDuration, SimTime};

/// The window state congestion control reads and writes, in segments.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub cwnd: f64,
    pub ssthresh: f64,
    /// The receiver's advertised window.
    pub rwnd: f64,
}

/// One new cumulative ACK, as congestion control sees it.
#[derive(Clone, Copy, Debug)]
pub struct AckEvent {
    pub now: SimTime,
    /// Segments newly acknowledged.
    pub acked: u64,
    /// Growth credit of this ACK in segments: 1 per ACK with packet-counted windows (ns-2),
    /// the segments it acknowledges with byte-counted ones (RFC 3465, as ns-3 and
    /// IKRSimLib count bytes acknowledged).
    pub credit: f64,
    /// The RTT estimator's sample, when this ACK gave one.
    pub rtt: Option<SimDuration>,
    /// This ACK's own round-trip time (now minus the echoed send time of the segment it
    /// answers): the delay signal of Vegas and FAST.
    pub delay: Option<SimDuration>,
    /// The cumulative ACK after this one (first unacknowledged segment), and one past the
    /// highest segment sent so far: HyStart's rounds.
    pub una: u64,
    pub sent: u64,
}

#[cfg(test)]
impl AckEvent {
    /// A test ACK of one segment, one unit of credit, at `now`, with the delay sample `delay`.
    pub fn one_segment(now: SimTime, delay: Option<SimDuration>) -> AckEvent {
        AckEvent {
            now,
            acked: 1,
            credit: 1.0,
            rtt: None,
            delay,
            una: 0,
            sent: 0,
        }
    }
}

/// The named parameters of one algorithm, each read once with its default.
pub struct Params<'a> {
    given: &'a BTreeMap<String, f64>,
    used: Vec<&'static str>,
}

impl<'a> Params<'a> {
    pub fn new(given: &'a BTreeMap<String, f64>) -> Params<'a> {
        Params {
            given,
            used: Vec::new(),
        }
    }

    /// Parameter `name`, or `default`.
    pub fn get(&mut self, name: &'static str, default: f64) -> f64 {
        self.used.push(name);
        self.given.get(name).copied().unwrap_or(default)
    }

    /// An error for a parameter the algorithm does not have.
    fn check(self, algorithm: &str) -> Result<(), String> {
        for k in self.given.keys() {
            if !self.used.contains(&k.as_str()) {
                let known = if self.used.is_empty() {
                    "it has none".to_string()
                } else {
                    format!("expected {}", self.used.join(", "))
                };
                return Err(format!(
                    "cc_params.{k}: not a parameter of {algorithm}; {known}"
                ));
            }
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub enum AnyCc {
    Reno(Reno),
    HighSpeed(highspeed::HighSpeed),
    Scalable(scalable::Scalable),
    Bic(bic::Bic),
    Cubic(cubic::Cubic),
    Westwood(westwood::Westwood),
    WestwoodOriginal(westwood_original::WestwoodOriginal),
    Vegas(vegas::Vegas),
    Fast(fast::Fast),
    Htcp(htcp::Htcp),
    Bbr(Box<bbr::Bbr>),
}

/// The algorithms `cc` may name.
pub const ALGORITHMS: &[&str] = &[
    "reno",
    "highspeed",
    "scalable",
    "bic",
    "cubic",
    "westwood",
    "westwood_original",
    "vegas",
    "fast",
    "htcp",
    "bbr",
];

impl AnyCc {
    /// The algorithm `cfg.cc` names, with its parameters; an error names what is wrong.
    pub fn new(cfg: &TcpConfig) -> Result<AnyCc, String> {
        let mut p = Params::new(&cfg.cc_params);
        let max_ssthresh = cfg.max_ssthresh as f64;
        let cc = match cfg.cc.as_str() {
            "reno" => AnyCc::Reno(Reno { max_ssthresh }),
            "highspeed" => AnyCc::HighSpeed(highspeed::HighSpeed::new(&mut p, max_ssthresh)),
            "scalable" => AnyCc::Scalable(scalable::Scalable::new(&mut p, max_ssthresh)),
            "bic" => AnyCc::Bic(bic::Bic::new(&mut p, max_ssthresh)),
            "cubic" => {
                let rules = hystart::Rules::by_name(&cfg.hystart)?;
                AnyCc::Cubic(cubic::Cubic::new(&mut p, max_ssthresh, rules))
            }
            "westwood" => AnyCc::Westwood(westwood::Westwood::new(&mut p, max_ssthresh)),
            "westwood_original" => AnyCc::WestwoodOriginal(
                westwood_original::WestwoodOriginal::new(&mut p, max_ssthresh),
            ),
            "vegas" => AnyCc::Vegas(vegas::Vegas::new(&mut p, max_ssthresh)),
            "fast" => AnyCc::Fast(fast::Fast::new(&mut p)),
            "htcp" => AnyCc::Htcp(htcp::Htcp::new(&mut p, max_ssthresh)),
            "bbr" => AnyCc::Bbr(Box::new(bbr::Bbr::new(&mut p, cfg.window_init as f64))),
            other => {
                return Err(format!(
                    "cc: unsupported congestion control {other:?}; expected one of {}",
                    ALGORITHMS.join(", ")
                ))
            }
        };
        p.check(&cfg.cc)?;
        Ok(cc)
    }

    /// Window growth on a new ACK outside loss recovery.
    #[inline]
    pub fn on_ack(&mut self, w: &mut Window, ev: AckEvent) {
        match self {
            AnyCc::Reno(c) => c.on_ack(w, ev),
            AnyCc::HighSpeed(c) => c.on_ack(w, ev),
            AnyCc::Scalable(c) => c.on_ack(w, ev),
            AnyCc::Bic(c) => c.on_ack(w, ev),
            AnyCc::Cubic(c) => c.on_ack(w, ev),
            AnyCc::Westwood(c) => c.on_ack(w, ev),
            AnyCc::WestwoodOriginal(c) => c.on_ack(w, ev),
            AnyCc::Vegas(c) => c.on_ack(w, ev),
            AnyCc::Fast(c) => c.on_ack(w, ev),
            AnyCc::Htcp(c) => c.on_ack(w, ev),
            // BBR sets the window from its model on every ACK (`Bbr::on_ack`).
            AnyCc::Bbr(_) => {}
        }
    }

    /// The window after a loss is detected at `now` (Linux `ssthresh`), before the sender
    /// rounds ssthresh to whole segments.
    #[inline]
    pub fn reduced_window(&mut self, w: &Window, now: SimTime) -> f64 {
        match self {
            AnyCc::Reno(c) => c.reduced_window(w),
            AnyCc::HighSpeed(c) => c.reduced_window(w),
            AnyCc::Scalable(c) => c.reduced_window(w),
            AnyCc::Bic(c) => c.reduced_window(w),
            AnyCc::Cubic(c) => c.reduced_window(w, now),
            AnyCc::Westwood(c) => c.reduced_window(w),
            AnyCc::WestwoodOriginal(c) => c.reduced_window(w),
            AnyCc::Vegas(c) => c.reduced_window(w),
            AnyCc::Fast(c) => c.reduced_window(w),
            AnyCc::Htcp(c) => c.reduced_window(w, now),
            // No multiplicative decrease: recovery conserves packets instead.
            AnyCc::Bbr(_) => w.cwnd,
        }
    }

    /// A retransmission timeout: state tied to the old window is reset.
    pub fn on_timeout(&mut self) {
        match self {
            AnyCc::Cubic(c) => c.on_timeout(),
            AnyCc::Bic(c) => c.on_timeout(),
            AnyCc::Bbr(c) => c.on_timeout(),
            AnyCc::Htcp(c) => c.on_timeout(),
            _ => {}
        }
    }

    /// Internal state for traces: (name, value) pairs.
    /// Empty names are unused slots.
    pub fn state(&self) -> [(&'static str, f64); 4] {
        const NONE: (&str, f64) = ("", f64::NAN);
        match self {
            AnyCc::Cubic(c) => [("cubic_wmax", c.w_max), ("cubic_k", c.k), NONE, NONE],
            AnyCc::Bic(c) => [("bic_wmax", c.last_max), NONE, NONE, NONE],
            AnyCc::Westwood(c) => [
                ("westwood_bwe", c.bwe),
                ("westwood_rtt_min", c.rtt_min),
                NONE,
                NONE,
            ],
            AnyCc::WestwoodOriginal(c) => [
                ("westwood_bwe", c.bwe),
                ("westwood_rtt_min", c.rtt_min),
                NONE,
                NONE,
            ],
            AnyCc::Vegas(c) => [
                ("vegas_base_rtt", c.base_rtt),
                ("vegas_diff", c.diff),
                NONE,
                NONE,
            ],
            AnyCc::Fast(c) => [
                ("fast_base_rtt", c.base_rtt),
                ("fast_avg_rtt", c.avg_rtt),
                NONE,
                NONE,
            ],
            AnyCc::Htcp(c) => [
                ("htcp_beta", c.beta),
                ("htcp_rtt_min", c.rtt_min),
                ("htcp_max_b", c.max_b),
                NONE,
            ],
            // btl_bw in segments per second, min_rtt in seconds; mode 0 Startup, 1 Drain,
            // 2 ProbeBW, 3 ProbeRTT.
            AnyCc::Bbr(c) => [
                ("bbr_btl_bw", c.btl_bw),
                ("bbr_min_rtt", c.rt_prop),
                ("bbr_mode", c.mode_number()),
                ("bbr_pacing_gain", c.pacing_gain),
            ],
            _ => [NONE; 4],
        }
    }

    /// BBR's model, when this is BBR.
    pub fn bbr_mut(&mut self) -> Option<&mut bbr::Bbr> {
        match self {
            AnyCc::Bbr(c) => Some(c),
            _ => None,
        }
    }
}

/// Reno's slow start (RFC 5681, L = 2 with byte counting), shared by the loss-based
/// algorithms below their own regime, with RFC 3742 limited slow start: above
/// `max_ssthresh` segments (0 = off) each ACK adds 1/K segment, K = floor(cwnd /
/// (max_ssthresh / 2)), so the window grows by at most max_ssthresh/2 segments per round trip.
/// `max_ssthresh` is a TCP parameter, not an algorithm's: every algorithm slow-starting this
/// way honours it.
#[inline]
pub fn slow_start(w: &mut Window, ev: &AckEvent, max_ssthresh: f64) {
    // RFC 3465 2.2: slow start grows by at most L = 2 segments per ACK.
    let credit = ev.credit.min(2.0);
    if max_ssthresh > 0.0 && w.cwnd > max_ssthresh {
        let k = (w.cwnd / (0.5 * max_ssthresh)).floor();
        w.cwnd += credit / k;
    } else {
        w.cwnd += credit;
    }
}

/// Reno's congestion avoidance, 1/cwnd per segment acknowledged.
#[inline]
pub fn reno_increase(w: &mut Window, ev: &AckEvent) {
    w.cwnd += ev.credit / w.cwnd;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack() -> AckEvent {
        AckEvent::one_segment(SimTime::ZERO, Some(SimDuration::from_millis(100)))
    }

    /// RFC 3742 section 2: above max_ssthresh, each ACK in slow start adds 1/K segment with
    /// K = floor(cwnd / (0.5 max_ssthresh)); at or below it, one segment. The flow's
    /// `max_ssthresh` is a TCP parameter: every algorithm that slow-starts like Reno honours it.
    #[test]
    fn every_reno_slow_start_is_limited_above_max_ssthresh() {
        for name in [
            "reno",
            "highspeed",
            "scalable",
            "bic",
            "cubic",
            "westwood",
            "westwood_original",
            "htcp",
        ] {
            let mut cfg = crate::scenarios::ns2_tcp();
            cfg.cc = name.into();
            cfg.max_ssthresh = 100;
            let mut cc = AnyCc::new(&cfg).unwrap();
            let mut w = Window {
                cwnd: 80.0,
                ssthresh: f64::INFINITY,
                rwnd: 1e9,
            };
            cc.on_ack(&mut w, ack());
            assert_eq!(w.cwnd, 81.0, "{name}: at or below max_ssthresh, +1 per ACK");
            w.cwnd = 400.0;
            cc.on_ack(&mut w, ack());
            // K = floor(400 / 50) = 8.
            assert!((w.cwnd - 400.125).abs() < 1e-12, "{name}: {}", w.cwnd);
            // One window of ACKs (a round trip) adds about max_ssthresh / 2 = 50 segments.
            w.cwnd = 400.0;
            for _ in 0..400 {
                cc.on_ack(&mut w, ack());
            }
            assert!((w.cwnd - 450.0).abs() < 1.5, "{name}: {}", w.cwnd);
            // max_ssthresh 0 turns it off: Reno's +1 per ACK.
            cfg.max_ssthresh = 0;
            let mut cc = AnyCc::new(&cfg).unwrap();
            w.cwnd = 400.0;
            cc.on_ack(&mut w, ack());
            assert_eq!(w.cwnd, 401.0, "{name}");
        }
    }
}
