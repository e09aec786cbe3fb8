//! BBR v1: Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, "BBR: Congestion-Based Congestion
//! Control", ACM Queue 14(5), 2016, and draft-cardwell-iccrg-bbr-congestion-control-00 (2017),
//! the version Linux 4.9 shipped.
//!
//! A model of the path, not a reaction to loss: `btl_bw` is the windowed maximum of the
//! delivery rate over the last 10 round trips, `rt_prop` the minimum RTT over the last 10 s.
//! The sender paces at `pacing_gain x btl_bw` and caps what is in flight at
//! `cwnd_gain x BDP` (BDP = btl_bw x rt_prop). The gains follow the state machine:
//!
//! - Startup: both gains 2/ln 2 = 2.885, doubling the rate each round trip, until `btl_bw`
//!   has grown by less than 25% for 3 round trips (the pipe is full);
//! - Drain: pacing gain ln 2 / 2 (the inverse) until what is in flight falls to one BDP;
//! - ProbeBW: pacing gain cycles through 5/4, 3/4, 1, 1, 1, 1, 1, 1, a phase per `rt_prop`
//!   (the 5/4 phase lasts until in flight reaches 5/4 BDP or a loss, the 3/4 phase ends early
//!   once in flight is down to one BDP), cwnd gain 2;
//! - ProbeRTT: when `rt_prop` is 10 s old, in flight drops to 4 segments for at least 200 ms
//!   and a round trip, then back to ProbeBW (or Startup if the pipe was never filled).
//!
//! Loss: packet conservation on entering recovery (cwnd = in flight + newly delivered),
//! then growth by what is delivered up to the target; the window before recovery is restored
//! when it ends (Linux `bbr_set_cwnd_to_recover_or_restore`). Windows are in segments and
//! rates in segments per second; at least 4 segments of cwnd.
//!
//! `ns3_model` = 1 (the `ns3` profile's default) adds what ns-3.44's `TcpBbr`
//! (src/internet/model/tcp-bbr.cc) puts on top of the draft:
//! - `InFlight`: the target and the ProbeBW and Drain comparisons take gain x BDP plus three
//!   segments (`3 * m_sendQuantum`), two more in ProbeBW's 5/4 phase (`m_cycleIndex == 0`);
//! - `UpdateTargetCwnd` adds `AckAggregationCwnd` once the pipe is full: the larger of the
//!   last two windows' (`ExtraAckedRttWindowLength`, 5 rounds each) largest `extraAck`,
//!   at most 0.1 s of the bandwidth estimate. `UpdateAckAggregation` measures its epoch in
//!   whole seconds (`uint32_t epochProp`), so the bytes expected in it are 0 for the first
//!   second, and restarts it once its bytes would reach `AckEpochAckedResetThresh` (4096):
//!   `extraAck` is then the bytes acknowledged since the last restart, up to 4095, whatever
//!   the ACKs' timing (12 segments of 340 bytes, 2 of 1448 with delayed ACKs);
//! - `SetPacingRate` paces 1% below gain x the estimate (`m_pacingMargin`).

use super::{
    AckEvent, CaState, CcInfo, CcSetup, CongestionOps, Conn, Ns3Class, Param, Range, Window,
};
use crate::tcp::delivery_rate::RateSample;
use crate::time::SimTime;

pub mod linux;

const HIGH_GAIN: f64 = 2.885_390_081_777_927; // 2 / ln 2
const DRAIN_GAIN: f64 = 1.0 / HIGH_GAIN;
const CYCLE: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
const MIN_CWND: f64 = 4.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

#[derive(Clone, Debug)]
pub struct Bbr {
    pub mode: Mode,
    /// Windowed max of delivery-rate samples: (round, rate) of the best in the window.
    bw_samples: [(u64, f64); 3],
    pub btl_bw: f64,
    /// Minimum RTT (s) and when it was measured.
    pub rt_prop: f64,
    rt_prop_stamp: SimTime,
    pub pacing_gain: f64,
    pub cwnd_gain: f64,
    round_count: u64,
    next_round_delivered: u64,
    round_start: bool,
    full_bw: f64,
    full_bw_count: u32,
    pub filled_pipe: bool,
    cycle_index: usize,
    cycle_stamp: SimTime,
    probe_rtt_done: Option<SimTime>,
    probe_rtt_round_done: bool,
    prior_cwnd: f64,
    in_recovery: bool,
    packet_conservation: bool,
    recovery_round: u64,
    /// Rounds the bandwidth filter spans, the `rt_prop` window, ProbeRTT's length.
    bw_window_rounds: u64,
    rt_prop_window_s: f64,
    /// A sample equal to `rt_prop` restarts its window (`min_rtt_equal_renews`).
    equal_renews: bool,
    probe_rtt_s: f64,
    initial_cwnd: f64,
    /// Segments per second to pace at (0 before the first estimate).
    pub pacing_rate: f64,
    /// The phase of the gain cycle ProbeBW starts from.
    start_phase: usize,
    /// Entering ProbeRTT: remember cwnd at the next update; leaving it: restore it.
    save_cwnd_later: bool,
    restore_after_probe_rtt: bool,
    /// Linux's BBR (`bbr/linux.rs`) for the `rack` sender; None: the draft's model above.
    linux: Option<Box<linux::LinuxBbr>>,
    /// Linux's BBR: the flow's stream for ProbeBW's random start phase
    /// (`bbr_reset_probe_bw_mode`); None: the fixed `start_phase`.
    rng: Option<Box<crate::rng::RandomStream>>,
    /// `ns3_model`: ns-3.44's `TcpBbr` terms (module notes); None: the draft's.
    ns3: Option<Ns3Terms>,
}

/// ns-3.44's `TcpBbr` ACK-aggregation state, in bytes as ns-3 keeps it.
#[derive(Clone, Copy, Debug)]
struct Ns3Terms {
    mss: f64,
    /// `m_ackEpochTime`, `m_ackEpochAcked`.
    epoch_time: SimTime,
    epoch_acked: u64,
    /// `m_extraAcked`, `m_extraAckedIdx`, `m_extraAckedWinRtt`.
    extra_acked: [u64; 2],
    idx: usize,
    win_rtt: u32,
}

/// ns-3.44's `ExtraAckedRttWindowLength` and `AckEpochAckedResetThresh` defaults.
const NS3_EXTRA_ACKED_ROUNDS: u32 = 5;
const NS3_ACK_EPOCH_RESET_BYTES: u64 = 1 << 12;
/// ns-3.44's `m_pacingMargin`.
const NS3_PACING_MARGIN: f64 = 0.01;

crate::params! {
    /// BBR's parameters (`cc_params`), each with its declaration.
    pub struct BbrParams {
        bw_window_rounds: f64 = Param::new("bw_window_rounds", 10.0, Range::Segments, "rounds of the btl_bw filter")
            .ns3("BwWindowLength"),
        min_rtt_window: f64 = Param::new("min_rtt_window", 10.0, Range::Positive, "s the rt_prop estimate lasts")
            .ns3("RttWindowLength"),
        probe_rtt_time: f64 = Param::new("probe_rtt_time", 0.2, Range::Positive, "s ProbeRTT lasts at least")
            .ns3("ProbeRttDuration"),
        start_phase: f64 = Param::new("start_phase", 2.0, Range::Whole(0, 7), "gain-cycle phase ProbeBW starts"),
        min_rtt_equal_renews: bool = Param::new(
            "min_rtt_equal_renews",
            1.0,
            Range::Flag,
            "an RTT sample equal to rt_prop restarts its window (0: only a lower one)",
            )
            .profile_defaults(&[("linux", 0.0)]),
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "ns-3.44's TcpBbr terms: InFlight's quanta, ACK aggregation, the 1% pacing margin (module notes)")
            .profile_defaults(&[("ns3", 1.0)]),
    }
}

/// BBR owns cwnd and pacing: the sender's hooks map onto the model's updates.
impl CongestionOps for Bbr {
    const INFO: CcInfo = CcInfo {
        name: "bbr",
        ns3: &[Ns3Class::segments("TcpBbr")],
        ecn_per_segment: false,
        params: BbrParams::PARAMS,
    };

    type Params = BbrParams;
    const CONG_CONTROL: bool = true;

    fn new(p: &BbrParams, setup: &CcSetup) -> Bbr {
        let mut b = Bbr::with(p, setup.initial_window);
        if setup.linux {
            b.set_linux(setup.mss);
        } else if p.ns3_model {
            b.ns3 = Some(Ns3Terms {
                mss: setup.mss.max(1.0),
                epoch_time: SimTime::ZERO,
                epoch_acked: 0,
                extra_acked: [0; 2],
                idx: 0,
                win_rtt: 0,
            });
        }
        b
    }

    /// No multiplicative decrease: recovery conserves packets instead. Linux's
    /// (`bbr_ssthresh`) saves cwnd for the end of recovery.
    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        if self.is_linux() {
            self.save_cwnd(w);
        }
        w.cwnd
    }

    /// Nothing: the window comes from the model on every ACK (`cong_control`).
    fn cong_avoid(&mut self, _w: &mut Window, _ev: AckEvent) {}

    /// Linux's `bbr_undo_cwnd`: a spurious slow-down forgets the full-pipe count and the
    /// long-term sampling, and keeps cwnd; the draft's model, Reno's rule.
    fn undo_cwnd(&mut self, w: &Window, prior_cwnd: f64) -> f64 {
        if self.is_linux() {
            self.on_undo();
            return w.cwnd;
        }
        w.cwnd.max(prior_cwnd)
    }

    fn set_state(&mut self, w: &mut Window, state: CaState, conn: &Conn) {
        if self.is_linux() {
            // Linux's BBR reads the state on each ACK (`cong_control`) and acts on Loss only.
            if state == CaState::Loss {
                self.on_loss_state(conn.now, conn.delivered, conn.lost);
            }
            return;
        }
        match state {
            CaState::Recovery => self.on_enter_recovery(w, conn.in_flight),
            CaState::Open => self.on_exit_recovery(w),
            CaState::Loss => self.on_timeout(),
            CaState::Disorder | CaState::Cwr => {}
        }
    }

    fn cong_control(&mut self, w: &mut Window, rs: &RateSample, conn: &Conn) {
        if self.is_linux() {
            self.set_ca_state(conn.ca_state);
            self.set_lost(conn.lost);
            self.linux_init_min_rtt(conn.min_rtt_s);
            self.linux_on_ack(w, conn.now, rs, conn.delivered, conn.in_flight, conn.srtt_s);
            w.pacing_rate = self.pacing_rate;
            return;
        }
        self.on_ack(w, conn.now, rs, conn.delivered, conn.in_flight, conn.srtt_s);
        w.pacing_rate = self.pacing_rate;
    }

    /// btl_bw in segments per second, min_rtt in seconds; mode 0 Startup, 1 Drain, 2 ProbeBW,
    /// 3 ProbeRTT.
    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("bbr_btl_bw", self.btl_bw),
            ("bbr_min_rtt", self.rt_prop),
            ("bbr_mode", self.mode_number()),
            ("bbr_pacing_gain", self.pacing_gain),
        ]
    }
}

impl Bbr {
    /// BBR with parameters `p` and the initial window `initial_cwnd` in segments.
    pub fn with(p: &BbrParams, initial_cwnd: f64) -> Bbr {
        Bbr {
            mode: Mode::Startup,
            bw_samples: [(0, 0.0); 3],
            btl_bw: 0.0,
            rt_prop: f64::INFINITY,
            rt_prop_stamp: SimTime::ZERO,
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            round_count: 0,
            next_round_delivered: 0,
            round_start: false,
            full_bw: 0.0,
            full_bw_count: 0,
            filled_pipe: false,
            cycle_index: 0,
            cycle_stamp: SimTime::ZERO,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            prior_cwnd: 0.0,
            in_recovery: false,
            packet_conservation: false,
            recovery_round: 0,
            bw_window_rounds: p.bw_window_rounds.max(1.0) as u64,
            rt_prop_window_s: p.min_rtt_window,
            equal_renews: p.min_rtt_equal_renews,
            probe_rtt_s: p.probe_rtt_time,
            initial_cwnd: initial_cwnd.max(1.0),
            pacing_rate: 0.0,
            start_phase: p.start_phase as usize % CYCLE.len(),
            save_cwnd_later: false,
            restore_after_probe_rtt: false,
            linux: None,
            rng: None,
            ns3: None,
        }
    }

    /// What is in flight at `gain`: the BDP, and under `ns3_model` ns-3's `TcpBbr::InFlight`
    /// (three segments of quanta, two more in ProbeBW's 5/4 phase).
    fn ns3_inflight(&self, gain: f64) -> f64 {
        let bdp = self.bdp(gain);
        if self.ns3.is_none() || self.btl_bw == 0.0 || !self.rt_prop.is_finite() {
            return bdp;
        }
        let phase0 = self.mode == Mode::ProbeBw && self.cycle_index == 0;
        bdp + 3.0 + if phase0 { 2.0 } else { 0.0 }
    }

    /// ns-3.44's `TcpBbr::UpdateAckAggregation`, after the round count of this ACK.
    fn ns3_update_ack_aggregation(&mut self, w: &Window, now: SimTime, rs: &RateSample) {
        let round_start = self.round_start;
        let bw_bps = (self.btl_bw * self.ns3.map_or(0.0, |t| t.mss) * 8.0) as u64;
        let Some(t) = self.ns3.as_mut() else { return };
        if rs.delivered == 0 {
            return;
        }
        if round_start {
            t.win_rtt = (t.win_rtt + 1).min(31);
            if t.win_rtt >= NS3_EXTRA_ACKED_ROUNDS {
                t.win_rtt = 0;
                t.idx ^= 1;
                t.extra_acked[t.idx] = 0;
            }
        }
        // `uint32_t epochProp`: the epoch in whole seconds.
        let epoch_prop = now.0.saturating_sub(t.epoch_time.0) / 1_000_000_000_000;
        let mut expected = bw_bps * epoch_prop / 8;
        let acked = (rs.delivered as f64 * t.mss).round() as u64;
        if t.epoch_acked <= expected || t.epoch_acked + acked >= NS3_ACK_EPOCH_RESET_BYTES {
            t.epoch_acked = 0;
            t.epoch_time = now;
            expected = 0;
        }
        t.epoch_acked += acked;
        let extra = (t.epoch_acked - expected).min((w.cwnd * t.mss) as u64);
        t.extra_acked[t.idx] = t.extra_acked[t.idx].max(extra);
    }

    /// ns-3.44's `TcpBbr::AckAggregationCwnd`, in segments.
    fn ns3_ack_aggregation_cwnd(&self) -> f64 {
        match self.ns3 {
            Some(t) if self.filled_pipe => {
                let max_bytes = ((self.btl_bw * t.mss * 8.0) as u64 / 80) as f64;
                (t.extra_acked[0].max(t.extra_acked[1]) as f64).min(max_bytes) / t.mss
            }
            _ => 0.0,
        }
    }

    /// The BDP in segments, or the initial window before any estimate.
    fn bdp(&self, gain: f64) -> f64 {
        if self.btl_bw == 0.0 || !self.rt_prop.is_finite() {
            return self.initial_cwnd * gain.max(1.0);
        }
        gain * self.btl_bw * self.rt_prop
    }

    /// Updates the model with one ACK's rate sample and sets cwnd and the pacing rate.
    /// `in_flight` counts segments outstanding after the ACK, `srtt_s` is the smoothed RTT
    /// for the first pacing rate.
    pub fn on_ack(
        &mut self,
        w: &mut Window,
        now: SimTime,
        rs: &RateSample,
        delivered: u64,
        in_flight: u64,
        srtt_s: f64,
    ) {
        self.update_round(rs, delivered);
        self.update_btl_bw(rs);
        if self.ns3.is_some() {
            self.ns3_update_ack_aggregation(w, now, rs);
        }
        self.update_cycle_phase(now, in_flight);
        self.check_full_pipe(rs);
        self.check_drain(now, in_flight);
        self.update_rt_prop(now, rs, in_flight, delivered);
        self.set_pacing_rate(srtt_s);
        self.set_cwnd(w, rs, in_flight);
    }

    fn update_round(&mut self, rs: &RateSample, delivered: u64) {
        self.round_start = false;
        if rs.delivered > 0 && rs.prior_delivered >= self.next_round_delivered {
            self.next_round_delivered = delivered;
            self.round_count += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
    }

    /// Windowed max over `bw_window_rounds` (Kathleen Nichols' min/max filter, as Linux).
    fn update_btl_bw(&mut self, rs: &RateSample) {
        if rs.delivery_rate <= 0.0 {
            return;
        }
        if rs.is_app_limited && rs.delivery_rate < self.btl_bw {
            return;
        }
        let r = self.round_count;
        let v = rs.delivery_rate;
        let win = self.bw_window_rounds;
        let s = &mut self.bw_samples;
        if v >= s[0].1 || r - s[2].0 > win {
            *s = [(r, v); 3];
        } else {
            if v >= s[1].1 {
                s[2] = (r, v);
                s[1] = (r, v);
            } else if v >= s[2].1 {
                s[2] = (r, v);
            }
            // Expire the best when it is older than the window.
            if r - s[0].0 > win {
                s[0] = s[1];
                s[1] = s[2];
                s[2] = (r, v);
                if r - s[0].0 > win {
                    s[0] = s[1];
                    s[1] = s[2];
                }
            } else if s[1].0 == s[0].0 && r - s[1].0 > win / 4 {
                s[1] = (r, v);
                s[2] = (r, v);
            } else if s[2].0 == s[1].0 && r - s[2].0 > win / 2 {
                s[2] = (r, v);
            }
        }
        self.btl_bw = self.bw_samples[0].1;
    }

    fn update_cycle_phase(&mut self, now: SimTime, in_flight: u64) {
        if self.mode != Mode::ProbeBw {
            return;
        }
        let elapsed = now.0.saturating_sub(self.cycle_stamp.0) as f64 * 1e-12 > self.rt_prop;
        let inflight = in_flight as f64;
        let gain = self.pacing_gain;
        let next = if gain > 1.0 {
            elapsed && inflight >= self.ns3_inflight(gain)
        } else if gain < 1.0 {
            elapsed || inflight <= self.ns3_inflight(1.0)
        } else {
            elapsed
        };
        if next {
            self.cycle_index = (self.cycle_index + 1) % CYCLE.len();
            self.cycle_stamp = now;
            self.pacing_gain = CYCLE[self.cycle_index];
        }
    }

    fn check_full_pipe(&mut self, rs: &RateSample) {
        if self.filled_pipe || !self.round_start || rs.is_app_limited {
            return;
        }
        if self.btl_bw >= self.full_bw * 1.25 {
            self.full_bw = self.btl_bw;
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        if self.full_bw_count >= 3 {
            self.filled_pipe = true;
        }
    }

    fn check_drain(&mut self, now: SimTime, in_flight: u64) {
        if self.mode == Mode::Startup && self.filled_pipe {
            self.mode = Mode::Drain;
            self.pacing_gain = DRAIN_GAIN;
            self.cwnd_gain = HIGH_GAIN;
        }
        if self.mode == Mode::Drain && in_flight as f64 <= self.ns3_inflight(1.0) {
            self.enter_probe_bw(now);
        }
    }

    fn enter_probe_bw(&mut self, now: SimTime) {
        self.mode = Mode::ProbeBw;
        self.cwnd_gain = 2.0;
        self.cycle_index = self.start_phase;
        self.pacing_gain = CYCLE[self.cycle_index];
        self.cycle_stamp = now;
    }

    /// An RTT sample `rtt` (s) restarts the `rt_prop` window: one below `rt_prop`, or equal
    /// to it (the draft's and Linux's `bbr_update_min_rtt`: `<=`) unless
    /// `min_rtt_equal_renews` = 0. A real host never measures its minimum twice to the
    /// microsecond (its own latency varies), so its filter expires 10 s after the first
    /// minimum; a simulated path repeats it exactly whenever the queue empties.
    #[inline]
    fn renews_rt_prop(&self, rtt: f64) -> bool {
        rtt < self.rt_prop || (self.equal_renews && rtt == self.rt_prop)
    }

    fn update_rt_prop(&mut self, now: SimTime, rs: &RateSample, in_flight: u64, delivered: u64) {
        let expired =
            now.0.saturating_sub(self.rt_prop_stamp.0) as f64 * 1e-12 > self.rt_prop_window_s;
        if rs.rtt_s > 0.0 && (self.renews_rt_prop(rs.rtt_s) || expired) {
            self.rt_prop = rs.rtt_s;
            self.rt_prop_stamp = now;
        }
        if expired && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.save_cwnd_later = true;
            self.probe_rtt_done = None;
        }
        if self.mode == Mode::ProbeRtt {
            match self.probe_rtt_done {
                None if in_flight as f64 <= MIN_CWND => {
                    self.probe_rtt_done = Some(SimTime(now.0 + (self.probe_rtt_s * 1e12) as u64));
                    self.probe_rtt_round_done = false;
                    self.next_round_delivered = delivered;
                }
                Some(done) => {
                    if self.round_start {
                        self.probe_rtt_round_done = true;
                    }
                    if self.probe_rtt_round_done && now >= done {
                        self.rt_prop_stamp = now;
                        self.restore_after_probe_rtt = true;
                        if self.filled_pipe {
                            self.enter_probe_bw(now);
                        } else {
                            self.mode = Mode::Startup;
                            self.pacing_gain = HIGH_GAIN;
                            self.cwnd_gain = HIGH_GAIN;
                        }
                    }
                }
                None => {}
            }
        }
    }

    fn set_pacing_rate(&mut self, srtt_s: f64) {
        if self.btl_bw == 0.0 {
            // Before any estimate: the initial window over the smoothed RTT (or 1 ms).
            let rtt = if srtt_s > 0.0 { srtt_s } else { 1e-3 };
            self.pacing_rate = self.pacing_gain * self.initial_cwnd / rtt;
            return;
        }
        let mut rate = self.pacing_gain * self.btl_bw;
        if self.ns3.is_some() {
            // TcpBbr::SetPacingRate: `rate *= (1.f - m_pacingMargin)`.
            rate *= 1.0 - NS3_PACING_MARGIN;
        }
        // Startup never slows the rate down.
        if self.filled_pipe || rate > self.pacing_rate {
            self.pacing_rate = rate;
        }
    }

    fn set_cwnd(&mut self, w: &mut Window, rs: &RateSample, in_flight: u64) {
        if self.save_cwnd_later {
            self.prior_cwnd = self.prior_cwnd.max(w.cwnd);
            self.save_cwnd_later = false;
        }
        let acked = rs.delivered as f64;
        let target = if self.ns3.is_some() {
            // TcpBbr::UpdateTargetCwnd: InFlight(cwnd gain) + AckAggregationCwnd().
            self.ns3_inflight(self.cwnd_gain) + self.ns3_ack_aggregation_cwnd()
        } else {
            self.bdp(self.cwnd_gain) + 3.0
        };
        let mut cwnd = w.cwnd;
        if self.packet_conservation {
            cwnd = cwnd.max(in_flight as f64 + acked);
        } else if self.filled_pipe {
            cwnd = (cwnd + acked).min(target);
        } else if cwnd < target || rs.prior_delivered < self.initial_cwnd as u64 {
            cwnd += acked;
        }
        cwnd = cwnd.max(MIN_CWND);
        if self.mode == Mode::ProbeRtt {
            cwnd = cwnd.min(MIN_CWND);
        }
        if std::mem::take(&mut self.restore_after_probe_rtt) {
            cwnd = cwnd.max(self.prior_cwnd);
            self.prior_cwnd = 0.0;
        }
        w.cwnd = cwnd;
    }

    /// Loss recovery starts: remember the window, conserve packets for a round trip.
    pub fn on_enter_recovery(&mut self, w: &mut Window, in_flight: u64) {
        self.prior_cwnd = w.cwnd;
        self.in_recovery = true;
        self.packet_conservation = true;
        self.recovery_round = self.round_count;
        w.cwnd = (in_flight as f64 + 1.0).max(MIN_CWND);
    }

    /// Loss recovery is over: the window before it comes back.
    pub fn on_exit_recovery(&mut self, w: &mut Window) {
        self.in_recovery = false;
        self.packet_conservation = false;
        w.cwnd = w.cwnd.max(self.prior_cwnd);
    }

    /// After a timeout the sender restarts from one segment; BBR keeps its model.
    pub fn on_timeout(&mut self) {
        self.prior_cwnd = 0.0;
        self.packet_conservation = false;
        self.in_recovery = false;
    }

    pub fn mode_number(&self) -> f64 {
        match self.mode {
            Mode::Startup => 0.0,
            Mode::Drain => 1.0,
            Mode::ProbeBw => 2.0,
            Mode::ProbeRtt => 3.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bbr() -> (Bbr, Window) {
        let b = Bbr::with(&BbrParams::default(), 10.0);
        let w = Window::new(10.0, f64::INFINITY, 1e9);
        (b, w)
    }

    /// Feeds one ACK per round trip delivering 10 segments at `rate` with `rtt`, 10 in flight.
    fn rounds(b: &mut Bbr, w: &mut Window, n: u64, rate: f64, rtt: f64, t0: &mut f64) {
        rounds_in_flight(b, w, n, rate, rtt, t0, 10);
    }

    fn rounds_in_flight(
        b: &mut Bbr,
        w: &mut Window,
        n: u64,
        rate: f64,
        rtt: f64,
        t0: &mut f64,
        in_flight: u64,
    ) {
        for _ in 0..n {
            // A little over one RTT apart, so that each ProbeBW phase lasts one call.
            *t0 += rtt * 1.1;
            let prior = b.next_round_delivered;
            let rs = RateSample {
                delivery_rate: rate,
                is_app_limited: false,
                prior_delivered: prior,
                delivered: 10,
                rtt_s: rtt,
                ..RateSample::default()
            };
            let delivered = prior + 10;
            b.on_ack(
                w,
                SimTime((*t0 * 1e12) as u64),
                &rs,
                delivered,
                in_flight,
                rtt,
            );
        }
    }

    #[test]
    fn startup_ends_after_three_rounds_without_25_percent_growth() {
        let (mut b, mut w) = bbr();
        let mut t = 0.0;
        // Doubling rates: still in Startup.
        for k in 0..5 {
            rounds(&mut b, &mut w, 1, 1000.0 * 2f64.powi(k), 0.1, &mut t);
        }
        assert_eq!(b.mode, Mode::Startup);
        assert!(!b.filled_pipe);
        // A plateau: three rounds later the pipe is full, Drain begins, and with little in
        // flight ProbeBW follows at once.
        rounds(&mut b, &mut w, 3, 16000.0, 0.1, &mut t);
        assert!(b.filled_pipe);
        assert_eq!(b.mode, Mode::ProbeBw);
        assert_eq!(b.btl_bw, 16000.0);
        assert_eq!(b.cwnd_gain, 2.0);
    }

    #[test]
    fn the_bandwidth_filter_forgets_a_peak_after_ten_rounds() {
        let (mut b, mut w) = bbr();
        let mut t = 0.0;
        rounds(&mut b, &mut w, 1, 5000.0, 0.1, &mut t);
        rounds(&mut b, &mut w, 5, 3000.0, 0.1, &mut t);
        assert_eq!(b.btl_bw, 5000.0, "the peak stays for the window");
        rounds(&mut b, &mut w, 8, 3000.0, 0.1, &mut t);
        assert_eq!(b.btl_bw, 3000.0, "and then expires");
    }

    #[test]
    fn probe_bw_cycles_its_gains_and_caps_cwnd_at_two_bdp() {
        let (mut b, mut w) = bbr();
        let mut t = 0.0;
        rounds(&mut b, &mut w, 12, 1000.0, 0.1, &mut t);
        assert_eq!(b.mode, Mode::ProbeBw);
        // The 5/4 phase lasts until 5/4 BDP (125 segments) are in flight.
        let mut gains = Vec::new();
        for _ in 0..8 {
            rounds_in_flight(&mut b, &mut w, 1, 1000.0, 0.1, &mut t, 130);
            gains.push(b.pacing_gain);
        }
        let mut sorted = gains.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(sorted, vec![0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.25]);
        // BDP = 1000 segments/s x 0.1 s = 100; cwnd = 2 BDP + 3 once grown.
        rounds(&mut b, &mut w, 40, 1000.0, 0.1, &mut t);
        assert_eq!(w.cwnd, 203.0);
        assert_eq!(b.pacing_rate, b.pacing_gain * 1000.0);
    }

    #[test]
    fn recovery_conserves_packets_and_restores_the_window() {
        let (mut b, mut w) = bbr();
        let mut t = 0.0;
        rounds(&mut b, &mut w, 60, 1000.0, 0.1, &mut t);
        let before = w.cwnd;
        b.on_enter_recovery(&mut w, 50);
        assert_eq!(w.cwnd, 51.0);
        b.on_exit_recovery(&mut w);
        assert_eq!(w.cwnd, before);
    }

    fn ns3_bbr(mss: f64) -> Bbr {
        let p = BbrParams {
            ns3_model: true,
            ..BbrParams::default()
        };
        Bbr::new(
            &p,
            &CcSetup {
                initial_window: 10.0,
                mss,
                ..CcSetup::default()
            },
        )
    }

    /// ns-3.44's TcpBbr::UpdateAckAggregation: with the epoch in whole seconds nothing is
    /// expected within its first second, and the epoch restarts once its bytes would reach
    /// 4096, so extraAck is the bytes acknowledged since that restart: with 340-byte segments
    /// and two per ACK at most 4080 (12 segments), which AckAggregationCwnd adds to the target
    /// once the pipe is full (at most 0.1 s of the estimate).
    #[test]
    fn ns3_model_adds_the_ack_aggregation_of_its_4096_byte_epochs() {
        let mut b = ns3_bbr(340.0);
        let w = Window::new(100.0, f64::INFINITY, 1e9);
        b.btl_bw = 2e6 / 8.0 / 340.0; // 2 Mb/s
        let two = RateSample {
            delivered: 2,
            ..RateSample::default()
        };
        for i in 0..20u64 {
            b.ns3_update_ack_aggregation(&w, SimTime(i * 1_000_000_000), &two);
        }
        assert_eq!(b.ns3.unwrap().extra_acked[0], 4080);
        assert_eq!(
            b.ns3_ack_aggregation_cwnd(),
            0.0,
            "not before the pipe is full"
        );
        b.filled_pipe = true;
        assert_eq!(b.ns3_ack_aggregation_cwnd(), 12.0);
        // Capped at 0.1 s of the estimate: 2 Mb/s -> 25 000 bytes; 200 kb/s -> 2 500.
        b.btl_bw = 2e5 / 8.0 / 340.0;
        assert!((b.ns3_ack_aggregation_cwnd() - 2500.0 / 340.0).abs() < 1e-9);
        // 1448-byte segments: 2896 bytes, then 5792 >= 4096 restarts: 2 segments.
        let mut big = ns3_bbr(1448.0);
        big.btl_bw = 1e7 / 8.0 / 1448.0;
        big.filled_pipe = true;
        for i in 0..20u64 {
            big.ns3_update_ack_aggregation(&w, SimTime(i * 1_000_000_000), &two);
        }
        assert_eq!(big.ns3_ack_aggregation_cwnd(), 2.0);
    }

    /// ns-3.44's TcpBbr::InFlight adds three segments of quanta, two more in ProbeBW's 5/4
    /// phase; SetPacingRate paces 1% below gain x the estimate.
    #[test]
    fn ns3_model_takes_ns3s_quanta_and_pacing_margin() {
        let mut b = ns3_bbr(1000.0);
        b.btl_bw = 1000.0;
        b.rt_prop = 0.1;
        assert_eq!(b.ns3_inflight(2.0), 203.0);
        b.mode = Mode::ProbeBw;
        b.cycle_index = 0;
        assert_eq!(b.ns3_inflight(1.25), 130.0);
        b.pacing_gain = 1.25;
        b.filled_pipe = true;
        b.set_pacing_rate(0.1);
        assert!((b.pacing_rate - 1.25 * 0.99 * 1000.0).abs() < 1e-9);
        let (mut draft, _) = bbr();
        draft.btl_bw = 1000.0;
        draft.rt_prop = 0.1;
        assert_eq!(draft.ns3_inflight(2.0), 200.0);
    }
}
