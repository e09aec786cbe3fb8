//! LEDBAT: RFC 6817, "Low Extra Delay Background Transport (LEDBAT)" (S. Shalunov et al.,
//! 2012), section 2.4.2's sender. ns-3.44: `TcpLedbat` (src/internet/model/tcp-ledbat.cc:
//! `CongestionAvoidance`, `PktsAcked`, `UpdateBaseDelay`, `AddDelay`).
//!
//! LEDBAT keeps the queueing delay it adds near TARGET. From each ACK's one-way delay (its
//! timestamps: when the receiver sent it less when the echoed segment was sent):
//!
//! - current delay: the smallest of the last `noise_filter_len` (4) samples (RFC 6817 3.4.2,
//!   ns-3's `MinCircBuf`); base delay: the smallest of `base_history_len` (10) minima, one
//!   per minute (2.4.2's BASE_HISTORY; ns-3 rolls over after 60 s as well);
//! - queuing_delay = current - base; off_target = (TARGET - queuing_delay) / TARGET;
//! - cwnd += GAIN x off_target x (segments acknowledged) / cwnd (2.4.2), then cwnd is at most
//!   flightsize + ALLOWED_INCREASE and at least MIN_CWND (2) segments;
//! - a loss halves the window, at least MIN_CWND (2.4.2's `on data loss`); slow start is
//!   Reno's until the first congestion-avoidance step (ns-3's `SSParam` yes, its
//!   `LEDBAT_CAN_SS` flag: slow start again only once cwnd is back at one segment).
//!
//! Without timestamps LEDBAT grows as Reno (ns-3: `LEDBAT_VALID_OWD` unset). TARGET is 100
//! ms (RFC 6817's upper bound; ns-3's `TargetDelay`). The flight is the one before this ACK
//! and ALLOWED_INCREASE is `allowed_increase` (1, RFC 6817's SHOULD). ns-3 counts delays in
//! whole milliseconds and caps cwnd at that flight alone (`max_cwnd = m_highTxMark -
//! m_lastAckedSeq + segmentsAcked x segmentSize`, where `TcpSocketBase::ProcessAck` has set
//! `m_lastAckedSeq` to this ACK before `IncreaseWindow`): `allowed_increase` 0 under
//! `ns3_cc_defaults`. A sender that keeps its window full then never grows in congestion
//! avoidance under ns-3's LEDBAT (the cap is the window it already has); it only shrinks while
//! the queueing delay is above TARGET, and so settles below it.

use super::{
    slow_start, AckEvent, AckSample, CcInfo, CcSetup, CongestionOps, Ns3Class, Param, Range,
    Window, NO_TRACE,
};
use crate::time::{SimDuration, SimTime};

/// How long one base-delay minimum covers (RFC 6817 2.4.2: one minute).
const ROLLOVER: SimDuration = SimDuration::from_millis(60_000);

const MAX_HISTORY: usize = 32;

#[derive(Clone, Debug)]
pub struct Ledbat {
    target: f64,
    gain: f64,
    min_cwnd: f64,
    allowed_increase: f64,
    slow_start: bool,
    base_len: usize,
    noise_len: usize,
    /// Per-minute minima of the one-way delay, seconds, oldest first.
    base: [f64; MAX_HISTORY],
    base_n: usize,
    last_rollover: Option<SimTime>,
    /// The last one-way delay samples, seconds (a ring).
    noise: [f64; MAX_HISTORY],
    noise_n: usize,
    noise_at: usize,
    can_ss: bool,
    /// The last queueing delay seen, seconds.
    pub queuing_delay: f64,
}

impl Ledbat {
    fn base_delay(&self) -> f64 {
        self.base[..self.base_n]
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
    }

    fn current_delay(&self) -> f64 {
        self.noise[..self.noise_n]
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
    }

    fn add_sample(&mut self, now: SimTime, owd: f64) {
        // RFC 6817 2.4.2 update_base_delay: a new minute starts a new minimum.
        let new_minute = self.last_rollover.is_none_or(|t| now.since(t) >= ROLLOVER);
        if new_minute {
            self.last_rollover = Some(now);
            if self.base_n == self.base_len {
                self.base.copy_within(1..self.base_n, 0);
                self.base_n -= 1;
            }
            self.base[self.base_n] = owd;
            self.base_n += 1;
        } else {
            let last = &mut self.base[self.base_n - 1];
            *last = last.min(owd);
        }
        // update_current_delay: a window of the last samples.
        self.noise[self.noise_at] = owd;
        self.noise_at = (self.noise_at + 1) % self.noise_len;
        self.noise_n = (self.noise_n + 1).min(self.noise_len);
    }
}

crate::params! {
    /// LEDBAT's parameters (`cc_params`), each with its declaration.
    pub struct LedbatParams {
        target: f64 = Param::new("target", 0.1, Range::Positive, "TARGET queueing delay, seconds").ns3("TargetDelay"),
        gain: f64 = Param::new("gain", 1.0, Range::Positive, "GAIN").ns3("Gain"),
        base_history_len: f64 = Param::new("base_history_len", 10.0, Range::Whole(1, 32), "BASE_HISTORY: per-minute minima kept").ns3("BaseHistoryLen"),
        noise_filter_len: f64 = Param::new("noise_filter_len", 4.0, Range::Whole(1, 32), "CURRENT_FILTER: samples of the current delay").ns3("NoiseFilterLen"),
        min_cwnd: f64 = Param::new("min_cwnd", 2.0, Range::Segments, "MIN_CWND").ns3("MinCwnd"),
        allowed_increase: f64 = Param::new("allowed_increase", 1.0, Range::NonNegative, "ALLOWED_INCREASE over the flight, segments").profile_defaults(&[("ns3", 0.0)]),
        slow_start: bool = Param::new("slow_start", 1.0, Range::Flag, "slow-start until the first increase by delay").ns3("SSParam"),
    }
}

impl CongestionOps for Ledbat {
    const INFO: CcInfo = CcInfo {
        name: "ledbat",
        ns3: &[Ns3Class::newreno("TcpLedbat")],
        ecn_per_segment: false,
        params: LedbatParams::PARAMS,
    };

    type Params = LedbatParams;
    const PKTS_ACKED: bool = true;

    fn new(p: &LedbatParams, _setup: &CcSetup) -> Ledbat {
        Ledbat {
            target: p.target,
            gain: p.gain,
            min_cwnd: p.min_cwnd,
            allowed_increase: p.allowed_increase,
            slow_start: p.slow_start,
            base_len: p.base_history_len as usize,
            noise_len: p.noise_filter_len as usize,
            base: [0.0; MAX_HISTORY],
            base_n: 0,
            last_rollover: None,
            noise: [0.0; MAX_HISTORY],
            noise_n: 0,
            noise_at: 0,
            can_ss: true,
            queuing_delay: f64::NAN,
        }
    }

    fn pkts_acked(&mut self, _w: &mut Window, sample: &AckSample) {
        if let Some(d) = sample.owd {
            self.add_sample(sample.now, d.as_secs_f64());
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd <= 1.0 {
            self.can_ss = true;
        }
        if self.slow_start && self.can_ss && w.cwnd <= w.ssthresh {
            slow_start(w, &ev);
            return;
        }
        self.can_ss = false;
        if self.noise_n == 0 {
            // No one-way delay: Reno.
            w.cwnd += ev.credit / w.cwnd;
            return;
        }
        self.queuing_delay = self.current_delay() - self.base_delay();
        let off_target = (self.target - self.queuing_delay) / self.target;
        w.cwnd += self.gain * off_target * ev.credit / w.cwnd;
        // The flight before this ACK (ns-3: m_highTxMark - m_lastAckedSeq + segmentsAcked).
        let flight = ev.sent.saturating_sub(ev.una) as f64 + ev.acked as f64;
        w.cwnd = w
            .cwnd
            .min(flight + self.allowed_increase)
            .max(self.min_cwnd);
        if w.cwnd <= w.ssthresh {
            w.ssthresh = w.cwnd - 1.0 / 1024.0;
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        (w.cwnd.min(w.rwnd) / 2.0).max(self.min_cwnd)
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("ledbat_queuing_delay", self.queuing_delay),
            NO_TRACE,
            NO_TRACE,
            NO_TRACE,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ledbat() -> Ledbat {
        Ledbat::new(&LedbatParams::default(), &CcSetup::default())
    }

    fn owd(l: &mut Ledbat, t_s: u64, ms: u64) {
        let mut w = Window::new(10.0, 5.0, 1e9);
        l.pkts_acked(
            &mut w,
            &AckSample {
                now: SimTime::ZERO + SimDuration::from_millis(t_s * 1000),
                acked: 1,
                rtt: None,
                owd: Some(SimDuration::from_millis(ms)),
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

    /// RFC 6817 2.4.2: cwnd += GAIN (TARGET - queuing_delay) / TARGET / cwnd per segment.
    #[test]
    fn grows_below_target_and_shrinks_above() {
        let mut l = ledbat();
        l.can_ss = false;
        owd(&mut l, 0, 20); // base 20 ms
        owd(&mut l, 1, 70); // current: min of the last four = 20 ms: no queueing
        let mut w = Window::new(10.0, 5.0, 1e9);
        l.cong_avoid(&mut w, ack(0, 100));
        assert!((w.cwnd - 10.1).abs() < 1e-12, "{}", w.cwnd);
        for _ in 0..4 {
            owd(&mut l, 2, 170); // queuing delay 150 ms: off_target = -0.5
        }
        let mut w = Window::new(10.0, 5.0, 1e9);
        l.cong_avoid(&mut w, ack(0, 100));
        assert!(
            (l.queuing_delay - 0.15).abs() < 1e-12,
            "{}",
            l.queuing_delay
        );
        assert!((w.cwnd - 9.95).abs() < 1e-12, "{}", w.cwnd);
        // At most the flight plus ALLOWED_INCREASE; at least MIN_CWND.
        let mut w = Window::new(10.0, 5.0, 1e9);
        l.cong_avoid(&mut w, ack(95, 100)); // 5 in flight + 1 acknowledged
        assert_eq!(w.cwnd, 7.0);
        // ns-3's TcpLedbat::CongestionAvoidance caps at the flight before the ACK alone
        // (m_highTxMark - m_lastAckedSeq + segmentsAcked, m_lastAckedSeq already this ACK's),
        // so a full window does not grow however far below TARGET the delay is.
        let mut ns3 = Ledbat::new(&LedbatParams::for_profile(Some("ns3")), &CcSetup::default());
        ns3.can_ss = false;
        owd(&mut ns3, 0, 20);
        let mut w = Window::new(10.0, 5.0, 1e9);
        ns3.cong_avoid(&mut w, ack(95, 100));
        assert_eq!(w.cwnd, 6.0);
        let mut full = Window::new(10.0, 5.0, 1e9);
        ns3.cong_avoid(&mut full, ack(91, 100)); // 9 in flight + 1 acknowledged = cwnd
        assert_eq!(full.cwnd, 10.0);
        assert_eq!(l.ssthresh(&Window::new(3.0, 5.0, 1e9), SimTime::ZERO), 2.0);
    }

    /// The base delay is the smallest of per-minute minima, the oldest forgotten after
    /// BASE_HISTORY minutes.
    #[test]
    fn base_delay_forgets_old_minutes() {
        let mut l = ledbat();
        owd(&mut l, 0, 10);
        for minute in 1..=10 {
            owd(&mut l, 60 * minute, 50);
        }
        assert!((l.base_delay() - 0.05).abs() < 1e-12, "{}", l.base_delay());
    }
}
