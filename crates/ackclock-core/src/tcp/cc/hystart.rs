//! HyStart, hybrid slow start: S. Ha and I. Rhee, "Taming the elephants: New TCP slow
//! start", Computer Networks 55(9), 2011; on by default in Linux's CUBIC.
//!
//! Slow start ends early (ssthresh = cwnd, so congestion avoidance takes over before a
//! loss) when one of two tests fires within a round. A round begins when the cumulative ACK
//! passes the highest segment sent when the last round began, so it lasts one round trip.
//!
//! - ACK train: the round's ACKs have come back at most 2 ms apart ever since it began, and
//!   that train has lasted longer than half the minimum delay seen. A window whose ACKs span
//!   half a round trip already holds a path's worth of segments.
//! - Delay increase: once the round has given 8 delay samples, the smallest sample of the
//!   round exceeds the minimum delay seen by more than an eighth of that minimum, clamped to
//!   4-16 ms: a queue is building.
//!
//! Rounds count from the start of slow start, below 16 segments too, so that each round
//! begins with the flight it measures (Linux 6.18's `hystart_update`; before a 2025 fix Linux,
//! and ackclock until issue 29, started counting only at 16 segments, mid-flight, so that a
//! round's first samples carried the queue of the previous round's burst and the delay test
//! fired early: at 144 segments on a 10 Mb/s, 100 ms path where Linux leaves near 245).
//! As in Linux: both tests run only at cwnd >= 16 segments, once one fires they rest until a
//! retransmission timeout restarts slow start (which also forgets the minimum delay), and the
//! owner skips delay samples in the first second after a window reduction. Linux widens the
//! ACK-train span by up to 1 ms when segmentation offload bunches ACKs together; no
//! offload is modelled here, so the span is exactly half the minimum delay.
//!
//! `Rules::Ns3` follows ns-3.44's `TcpCubic` instead, whose port differs from Linux in three
//! places: the ACK train must outlast the whole minimum delay, not half of it; the delay test
//! compares the minimum of the round's first 8 samples (later ones are not looked at) with the
//! minimum delay plus the minimum delay itself clamped to 4 ms-1 s (so, between 4 ms and 1 s,
//! a doubled delay), not an eighth of it clamped to 4-16 ms; and rounds restart whenever slow
//! start sees a sample, whatever the window, after the tests have judged that sample with the
//! old round (`PktsAcked`'s `HystartUpdate` runs before `IncreaseWindow`'s `HystartReset`).
//! (The owner skips samples for 10 ms after a reduction under these rules, ns-3's
//! `CubicDelta`, instead of Linux's second.)

use super::{AckEvent, Window};
use crate::time::{SimDuration, SimTime};

/// The smallest window the tests run at, in segments.
pub const LOW_WINDOW: f64 = 16.0;
/// The largest gap between two ACKs of one train.
const ACK_DELTA: SimDuration = SimDuration::from_millis(2);
/// Delay samples a round takes before its delay test may fire.
const MIN_SAMPLES: u32 = 8;
const DELAY_THRESH_MIN: SimDuration = SimDuration::from_millis(4);
const DELAY_THRESH_MAX: SimDuration = SimDuration::from_millis(16);
/// ns-3's `HyStartDelayMax`.
const NS3_DELAY_THRESH_MAX: SimDuration = SimDuration::from_millis(1000);

/// The `hystart` parameter: off, Linux's rules or ns-3's.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum HyStartRule {
    #[default]
    Off,
    Linux,
    Ns3,
}

impl HyStartRule {
    /// The rules to run, None for off.
    pub fn rules(self) -> Option<Rules> {
        match self {
            HyStartRule::Off => None,
            HyStartRule::Linux => Some(Rules::Linux),
            HyStartRule::Ns3 => Some(Rules::Ns3),
        }
    }
}

/// Whose HyStart: Linux's `tcp_cubic` or ns-3's `TcpCubic`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rules {
    #[default]
    Linux,
    Ns3,
}

impl Rules {
    /// How long after a window reduction delay samples are skipped.
    pub fn settle(self) -> SimDuration {
        match self {
            Rules::Linux => SimDuration::from_millis(1000),
            Rules::Ns3 => SimDuration::from_millis(10),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct HyStart {
    rules: Rules,
    /// A test has fired: slow start is over until the next timeout.
    found: bool,
    delay_min: Option<SimDuration>,
    /// The round ends when the cumulative ACK passes this segment; None: no round yet.
    end_seq: Option<u64>,
    round_start: SimTime,
    last_ack: SimTime,
    /// The round's smallest delay sample and how many samples it has taken.
    round_min: Option<SimDuration>,
    samples: u32,
}

impl HyStart {
    pub fn new(rules: Rules) -> HyStart {
        HyStart {
            rules,
            ..HyStart::default()
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// A delay sample from a new ACK; ends slow start when a test fires.
    pub fn on_sample(&mut self, w: &mut Window, ev: &AckEvent, delay: SimDuration) {
        let delay = delay.max(SimDuration(1));
        if self.delay_min.is_none_or(|m| delay < m) {
            self.delay_min = Some(delay);
        }
        if self.rules == Rules::Linux {
            // Linux (hystart_update, since the 2025 fix "tcp_cubic: ... hystart_low_window")
            // counts rounds from the start of slow start, below the low window too, so a round
            // begins with the flight it measures; the tests wait for the low window.
            if !self.found && w.cwnd < w.ssthresh {
                self.new_round(ev);
            }
            if !self.found && w.cwnd < w.ssthresh && w.cwnd >= LOW_WINDOW {
                self.test(w, ev, delay);
            }
            return;
        }
        // ns-3.44's TcpSocketBase::ProcessAck calls PktsAcked, whose HystartUpdate runs the
        // tests (at cwnd <= ssthresh), before IncreaseWindow, whose HystartReset starts the
        // next round (at cwnd < ssthresh): the ACK that ends a round is judged with that
        // round's samples, and the new round's first sample is the next ACK's.
        if !self.found && w.cwnd <= w.ssthresh && w.cwnd >= LOW_WINDOW {
            self.test(w, ev, delay);
        }
        if w.cwnd < w.ssthresh {
            self.new_round(ev);
        }
    }

    /// Both tests on one delay sample (`hystart_update`, ns-3's `HystartUpdate`).
    fn test(&mut self, w: &mut Window, ev: &AckEvent, delay: SimDuration) {
        let ns3 = self.rules == Rules::Ns3;
        let delay_min = self.delay_min.unwrap_or(delay);
        let span = if ns3 {
            delay_min
        } else {
            SimDuration(delay_min.0 / 2)
        };
        if ev.now.since(self.last_ack) <= ACK_DELTA {
            self.last_ack = ev.now;
            if ev.now.since(self.round_start) > span {
                self.found = true;
            }
        }
        if self.samples < MIN_SAMPLES {
            self.samples += 1;
            self.round_min = Some(self.round_min.map_or(delay, |m| m.min(delay)));
        } else {
            if !ns3 {
                self.round_min = Some(self.round_min.map_or(delay, |m| m.min(delay)));
            }
            let thresh = if ns3 {
                delay_min.clamp(DELAY_THRESH_MIN, NS3_DELAY_THRESH_MAX)
            } else {
                SimDuration(delay_min.0 / 8).clamp(DELAY_THRESH_MIN, DELAY_THRESH_MAX)
            };
            if self.round_min.is_some_and(|m| m.0 > delay_min.0 + thresh.0) {
                self.found = true;
            }
        }
        if self.found {
            w.ssthresh = w.cwnd;
        }
    }

    /// Starts a new round when the cumulative ACK has passed the last one's end.
    fn new_round(&mut self, ev: &AckEvent) {
        if self.end_seq.is_none_or(|end| ev.una > end) {
            self.end_seq = Some(ev.sent);
            self.round_start = ev.now;
            self.last_ack = ev.now;
            self.round_min = None;
            self.samples = 0;
        }
    }

    /// A retransmission timeout: slow start begins again, with no memory of the old path.
    pub fn reset(&mut self) {
        *self = HyStart::new(self.rules);
    }

    pub fn found(&self) -> bool {
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(now_us: u64, una: u64, sent: u64) -> AckEvent {
        AckEvent {
            now: SimTime(now_us * 1_000_000),
            acked: 1,
            credit: 1.0,
            rtt: None,
            delay: None,
            una,
            sent,
            per_ack: false,
        }
    }

    fn window(cwnd: f64) -> Window {
        Window::new(cwnd, f64::INFINITY, 1e9)
    }

    /// One round of slow start: `acks` ACKs `gap_us` apart from `start_us`, the first
    /// acknowledging segment `una` + 1, each with a delay of `rtt_ms` + `queued_ms`.
    struct Round {
        start_us: u64,
        una: u64,
        acks: u64,
        gap_us: u64,
        rtt_ms: u64,
        queued_ms: u64,
    }

    /// Runs `r`, cwnd growing by one per ACK; returns the ACK (counted from 1) that ended
    /// slow start.
    fn round(h: &mut HyStart, w: &mut Window, r: Round) -> Option<u64> {
        let sent = r.una + 2 * r.acks;
        let delay = SimDuration::from_millis(r.rtt_ms + r.queued_ms);
        for i in 0..r.acks {
            h.on_sample(
                w,
                &ev(r.start_us + i * r.gap_us, r.una + 1 + i, sent),
                delay,
            );
            if w.ssthresh.is_finite() {
                return Some(i + 1);
            }
            w.cwnd += 1.0;
        }
        None
    }

    #[test]
    fn linux_rounds_count_from_the_start_of_slow_start() {
        // hystart_update resets the round before it checks hystart_low_window: the round
        // that begins with the initial window ends where that window ends, not where the
        // flight was when cwnd reached 16.
        let mut h = HyStart::new(Rules::Linux);
        let mut w = window(10.0);
        let d = SimDuration::from_millis(100);
        h.on_sample(&mut w, &ev(100_000, 1, 11), d);
        w.cwnd = 20.0;
        h.on_sample(&mut w, &ev(105_000, 6, 21), d);
        assert_eq!(h.end_seq, Some(11));
        h.on_sample(&mut w, &ev(110_000, 12, 31), d);
        assert_eq!(h.end_seq, Some(31), "the next round begins past segment 11");
    }

    fn r(start_us: u64, una: u64, acks: u64, gap_us: u64, rtt_ms: u64, queued_ms: u64) -> Round {
        Round {
            start_us,
            una,
            acks,
            gap_us,
            rtt_ms,
            queued_ms,
        }
    }

    #[test]
    fn an_ack_train_longer_than_half_the_minimum_delay_ends_slow_start() {
        // 100 ms path, ACKs 1 ms apart: the train passes 50 ms at its 51st ACK.
        let mut h = HyStart::default();
        let mut w = window(64.0);
        let ended = round(&mut h, &mut w, r(0, 0, 100, 1000, 100, 0));
        assert_eq!(
            ended,
            Some(52),
            "the first ACK more than 50 ms after the round's first"
        );
        assert_eq!(w.ssthresh, w.cwnd);
        assert!(h.found());
    }

    #[test]
    fn a_gap_over_two_ms_breaks_the_train_for_the_rest_of_the_round() {
        let mut h = HyStart::default();
        let mut w = window(64.0);
        // 3 ms apart: never a train, and no queueing delay.
        assert_eq!(round(&mut h, &mut w, r(0, 0, 60, 3000, 100, 0)), None);
        assert!(w.ssthresh.is_infinite());
    }

    #[test]
    fn a_rise_in_delay_over_an_eighth_of_the_minimum_ends_slow_start() {
        let mut h = HyStart::default();
        let mut w = window(20.0);
        // First round: 100 ms, ACKs 5 ms apart (no train).
        assert_eq!(round(&mut h, &mut w, r(0, 0, 10, 5000, 100, 0)), None);
        // Next round, 12 ms of queueing: 12 <= 100/8 = 12.5 ms, no exit.
        assert_eq!(
            round(&mut h, &mut w, r(200_000, 100, 20, 5000, 100, 12)),
            None
        );
        // Next, 13 ms: over the threshold, after the round's eight samples.
        assert_eq!(
            round(&mut h, &mut w, r(400_000, 200, 20, 5000, 100, 13)),
            Some(9)
        );
    }

    #[test]
    fn the_delay_threshold_is_clamped_to_four_and_sixteen_ms() {
        for (rtt, queued, fires) in [
            (10, 3, false),
            (10, 5, true),
            (400, 16, false),
            (400, 17, true),
        ] {
            let mut h = HyStart::default();
            let mut w = window(20.0);
            round(&mut h, &mut w, r(0, 0, 10, 3000, rtt, 0));
            let got = round(&mut h, &mut w, r(1_000_000, 100, 20, 3000, rtt, queued));
            assert_eq!(got.is_some(), fires, "rtt {rtt} ms, queued {queued} ms");
        }
    }

    #[test]
    fn small_windows_and_congestion_avoidance_are_left_alone() {
        let mut h = HyStart::default();
        let mut w = window(8.0);
        // 1 ms apart for 100 ms, but the window stays under 16 segments.
        for i in 0..100 {
            h.on_sample(
                &mut w,
                &ev(i * 1000, i + 1, 300),
                SimDuration::from_millis(100),
            );
        }
        assert!(w.ssthresh.is_infinite());
        let mut ca = Window::new(50.0, 40.0, 1e9);
        for i in 0..100 {
            h.on_sample(
                &mut ca,
                &ev(i * 1000, i + 1, 300),
                SimDuration::from_millis(100),
            );
        }
        assert_eq!(ca.ssthresh, 40.0);
    }

    #[test]
    fn a_timeout_rearms_the_tests() {
        let mut h = HyStart::default();
        let mut w = window(64.0);
        assert!(round(&mut h, &mut w, r(0, 0, 100, 1000, 100, 0)).is_some());
        let mut again = window(64.0);
        assert_eq!(
            round(&mut h, &mut again, r(1_000_000, 200, 100, 1000, 100, 0)),
            None
        );
        h.reset();
        assert!(round(&mut h, &mut again, r(2_000_000, 400, 100, 1000, 100, 0)).is_some());
    }

    #[test]
    fn ns3_rules_need_a_train_of_the_whole_delay_and_a_doubled_delay() {
        // The same 100 ms path with ACKs 1 ms apart: Linux's train fires past 50 ms, ns-3's
        // past 100 ms.
        let mut h = HyStart::new(Rules::Ns3);
        let mut w = window(64.0);
        assert_eq!(round(&mut h, &mut w, r(0, 0, 200, 1000, 100, 0)), Some(102));
        // Delay: 99 ms of queueing on a 100 ms path does not fire, 101 ms does.
        for (queued, fires) in [(99, false), (101, true)] {
            let mut h = HyStart::new(Rules::Ns3);
            let mut w = window(20.0);
            round(&mut h, &mut w, r(0, 0, 10, 5000, 100, 0));
            let got = round(&mut h, &mut w, r(1_000_000, 100, 20, 5000, 100, queued));
            assert_eq!(got.is_some(), fires, "queued {queued} ms");
        }
        // Only the round's first 8 samples count: a rise after them goes unseen.
        let mut h = HyStart::new(Rules::Ns3);
        let mut w = window(20.0);
        round(&mut h, &mut w, r(0, 0, 10, 5000, 100, 0));
        assert_eq!(
            round(&mut h, &mut w, r(1_000_000, 100, 8, 5000, 100, 0)),
            None
        );
        assert_eq!(
            round(&mut h, &mut w, r(1_040_000, 108, 8, 5000, 100, 150)),
            None
        );
    }

    #[test]
    fn ns3_judges_the_ack_that_ends_a_round_with_that_rounds_samples() {
        // TcpCubic::PktsAcked (HystartUpdate) comes before IncreaseWindow (HystartReset): a
        // round of eight samples, each 150 ms over a 100 ms minimum, is judged on the ACK
        // that ends it, which then starts the next round.
        let mut h = HyStart::new(Rules::Ns3);
        let mut w = window(20.0);
        let (base, queued) = (SimDuration::from_millis(100), SimDuration::from_millis(250));
        h.on_sample(&mut w, &ev(0, 1, 10), base);
        assert_eq!(h.end_seq, Some(10));
        for i in 0..8 {
            h.on_sample(&mut w, &ev(5_000 * (i + 1), 2 + i, 10), queued);
        }
        assert!(w.ssthresh.is_infinite(), "eight samples: no test yet");
        h.on_sample(&mut w, &ev(50_000, 11, 30), base);
        assert_eq!(
            w.ssthresh, 20.0,
            "the round's eight samples, judged on its last ACK"
        );
        assert_eq!(h.end_seq, Some(10), "no new round once slow start is over");
    }

    #[test]
    fn rule_names_are_read_once() {
        let read = |s: &str| serde_json::from_str::<HyStartRule>(s);
        assert_eq!(read("\"off\"").unwrap().rules(), None);
        assert_eq!(read("\"ns3\"").unwrap().rules(), Some(Rules::Ns3));
        let e = read("\"bsd\"").unwrap_err().to_string();
        assert!(e.contains("unknown variant `bsd`"), "{e}");
    }
}
