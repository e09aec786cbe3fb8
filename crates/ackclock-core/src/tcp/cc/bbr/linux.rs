//! BBR as Linux runs it (`net/ipv4/tcp_bbr.c`, BBR v1), for the `rack` sender of the `linux`
//! profile; other senders keep `bbr.rs`'s model of the draft. What differs, by Linux function:
//!
//! - `bbr_set_cwnd` / `bbr_set_cwnd_to_recover_or_restore`: cwnd is BBR's alone (the sender's
//!   ssthresh and PRR do not touch it). Lost segments come off cwnd; the first round of
//!   recovery conserves packets (cwnd = in flight + acknowledged, a new round starting now);
//!   leaving recovery or a timeout's loss state restores the cwnd saved when it began
//!   (`bbr_save_cwnd`, called by `bbr_ssthresh`, which changes nothing else). Outside that,
//!   cwnd grows by what each ACK delivers toward the target; before the pipe is full it keeps
//!   growing while the connection has delivered fewer than 10 segments (`tp->delivered`).
//! - The target (`bbr_inflight`): the BDP rounded up (10 segments before any RTT sample), plus
//!   the ACK aggregation allowance (`bbr_update_ack_aggregation`, `bbr_ack_aggregation_cwnd`:
//!   the most data delivered beyond the estimated bandwidth in an epoch, over 5-10 rounds, at
//!   most 100 ms of it, once the pipe is full), plus `bbr_quantization_budget`: three TSO
//!   goals (a millisecond of data at the pacing rate, at least 2 segments above 1.2 Mb/s),
//!   rounded up to even, 2 more in the 5/4 phase of ProbeBW.
//! - Pacing at 99% of gain x bandwidth (`bbr_pacing_margin_percent`); before any bandwidth
//!   sample, the initial window at the high gain over the smoothed RTT, once one exists.
//! - The gain cycle's phase ends after one min RTT of deliveries, the 5/4 phase only once what
//!   was in flight before the ACK reaches its target or a loss is seen; Drain ends when what is
//!   in flight is down to the 1.0 target (`bbr_is_next_cycle_phase`, `bbr_check_drain`).
//! - Rounds and bandwidth only from valid samples (`bbr_update_bw`).
//! - The min-RTT filter is stamped when the flow starts (`bbr_init`), not at time 0, so a
//!   flow starting late does not enter ProbeRTT at once; ProbeRTT's end restores cwnd
//!   (`bbr_check_probe_rtt_done`). Its first value is the connection's minimum RTT, the
//!   handshake's (`bbr->min_rtt_us = tcp_min_rtt(tp)`), below any full segment's; the stamp
//!   is taken at the first ACK, a round trip after Linux's (docs/validation.md, tenth pass).
//! - Only a sample below the minimum renews the filter (`bbr_update_min_rtt` renews with one
//!   equal to it too; the parameter `min_rtt_equal_renews`, 0 under the `linux` profile): a
//!   host's own latency varies, so Linux never measures its first minimum again to the
//!   microsecond and enters ProbeRTT 10 s after a flow starts and about every 10.3 s after
//!   (every Linux BBR run on the testbed: first at 9.7-10.6 s), where a simulated path
//!   repeats its minimum exactly each time the queue empties and renewed it for 20 s or
//!   more. Two flows whose second starts 10 s after the first then meet as Linux's do: the
//!   first flow's ProbeRTT empties the queue as the second starts (docs/validation.md).
//! - Every ACK in ProbeRTT, the one that ends it included, marks what is in flight
//!   application-limited (`bbr_update_min_rtt`: `tp->app_limited = tp->delivered +
//!   tcp_packets_in_flight`; `Window::app_limited`, which the sender hands to its rate
//!   sampler): until that is delivered, about a round after ProbeRTT, samples lower no
//!   bandwidth estimate and start the long-term sampler over.
//! - A timeout (`bbr_set_state(TCP_CA_Loss)`) forgets the full-bandwidth count and keeps the
//!   saved cwnd.
//! - Each entry into ProbeBW starts the gain cycle in a random phase, one of the seven other
//!   than the 3/4 one (`bbr_reset_probe_bw_mode`, `bbr_cycle_rand`), from the flow's own
//!   random stream (`AnyCc::set_random`), so that flows' cycles do not stay in step.
//!
//! - The long-term ("policer") bandwidth (`bbr_lt_bw_sampling`, `bbr_lt_bw_interval_done`,
//!   `bbr_reset_lt_bw_sampling`): from the first loss on, intervals of 4 to 16 rounds are
//!   measured, each ended by a loss; one in which at least 50/256 (20%) of what was delivered
//!   was lost (`tp->lost`, segments marked lost, retransmissions again) gives the delivery
//!   rate over it; two such intervals within 1/8 (or 4 kb/s) of each other make BBR use their
//!   mean as its bandwidth (`bbr_bw`: pacing, cwnd target, ACK aggregation) with a pacing gain
//!   of 1 for 48 rounds of ProbeBW, after which the gain cycle restarts in a random phase
//!   (`bbr_reset_probe_bw_mode`); taken in Startup, it keeps Startup's high gain
//!   (`bbr_update_gains` sets each mode's gains on every ACK). An application-limited sample or an interval of more than
//!   16 rounds starts over; a timeout counts as a round's end with a loss (`bbr_set_state`).
//!   Linux's own runs on the testbed show it: two flows sharing a DropTail queue pace at two
//!   constant rates for 48 rounds after the second one starts (validation/linux, docs).
//!
//! - An undone reduction (`bbr_undo_cwnd`) keeps cwnd and starts full-pipe detection and the
//!   long-term sampling over.
//!
//! Left out: the idle restart, ACKs known to be delayed in the min-RTT filter.

use super::{Bbr, Mode, CYCLE, DRAIN_GAIN, HIGH_GAIN, MIN_CWND};
use crate::rng::RandomStream;
use crate::tcp::cc::Window;
use crate::tcp::delivery_rate::RateSample;
use crate::time::SimTime;

/// Linux's `TCP_INIT_CWND`.
const INIT_CWND: f64 = 10.0;
/// `bbr_cycle_rand`: ProbeBW starts in one of this many phases.
const CYCLE_RAND: usize = 7;
/// `bbr_pacing_margin_percent`.
const PACING_MARGIN: f64 = 0.99;
/// `bbr_lt_intvl_min_rtts`, `bbr_lt_loss_thresh` (of 256), `bbr_lt_bw_ratio` (of 256),
/// `bbr_lt_bw_diff` (bytes per second), `bbr_lt_bw_max_rtts`.
const LT_INTVL_MIN_RTTS: u32 = 4;
const LT_LOSS_THRESH: u64 = 50;
const LT_BW_RATIO: f64 = 32.0 / 256.0;
const LT_BW_DIFF: f64 = 4000.0 / 8.0;
const LT_BW_MAX_RTTS: u32 = 48;
/// `bbr_extra_acked_win_rtts`, `bbr_extra_acked_max_us`, `bbr_ack_epoch_acked_reset_thresh`.
const EXTRA_ACKED_WIN_RTTS: u32 = 5;
const EXTRA_ACKED_MAX_S: f64 = 0.1;
const ACK_EPOCH_RESET: f64 = (1u64 << 20) as f64;

pub use crate::tcp::cc::CaState;

#[derive(Clone, Debug, Default)]
pub struct LinuxBbr {
    /// The segment size, for the TSO goal.
    mss: f64,
    /// The sender's state now, and at the last ACK (`bbr->prev_ca_state`).
    pub state: CaState,
    prev_state: CaState,
    started: bool,
    has_seen_rtt: bool,
    ack_epoch: SimTime,
    ack_epoch_acked: f64,
    extra_acked: [f64; 2],
    extra_win_rtts: u32,
    extra_win_idx: usize,
    /// The connection's losses (`tp->lost`) as the sender last reported them, and when data
    /// was last delivered (`tp->delivered_mstamp`).
    lost: u64,
    delivered_at: SimTime,
    /// The connection's deliveries at the last ACK (`tp->delivered`).
    delivered: u64,
    lt: LtBw,
}

/// The long-term bandwidth sampler's state (`struct bbr`'s lt_* fields).
#[derive(Clone, Copy, Debug, Default)]
pub struct LtBw {
    /// `lt_is_sampling`, `lt_use_bw`, `lt_rtt_cnt`.
    pub sampling: bool,
    pub use_bw: bool,
    pub rtt_cnt: u32,
    /// `lt_bw`, segments per second (0: none).
    pub bw: f64,
    /// The interval's start: `lt_last_delivered`, `lt_last_lost`, `lt_last_stamp` (whole ms).
    last_delivered: u64,
    last_lost: u64,
    last_stamp_ms: u64,
}

impl Bbr {
    /// Runs Linux's BBR from now on, with segments of `mss` bytes.
    pub fn set_linux(&mut self, mss: f64) {
        self.linux = Some(Box::new(LinuxBbr {
            mss,
            ..LinuxBbr::default()
        }));
    }

    /// Gives Linux's BBR the flow's random stream, from which each entry into ProbeBW draws
    /// its phase as `bbr_reset_probe_bw_mode` does (the draft's model keeps `start_phase`).
    pub fn set_random(&mut self, rng: RandomStream) {
        if self.is_linux() {
            self.rng = Some(Box::new(rng));
        }
    }

    /// The phase ProbeBW starts in (`bbr_reset_probe_bw_mode`): cycle_idx = CYCLE_LEN - 1 -
    /// get_random_u32_below(bbr_cycle_rand = 7), then `bbr_advance_cycle_phase`, so one of
    /// phases 2-7 and 0 with equal chance, never the 3/4 phase; `start_phase` without a stream.
    fn probe_bw_start_phase(&mut self) -> usize {
        match self.rng.as_mut() {
            Some(rng) => {
                let r = (rng.next_f64() * CYCLE_RAND as f64) as usize;
                (CYCLE.len() - 1 - r.min(CYCLE_RAND - 1) + 1) % CYCLE.len()
            }
            None => self.start_phase,
        }
    }

    /// Whether this is Linux's BBR.
    pub fn is_linux(&self) -> bool {
        self.linux.is_some()
    }

    /// The sender's congestion-avoidance state (read on the next ACK, as Linux reads
    /// `icsk_ca_state`).
    pub fn set_ca_state(&mut self, state: CaState) {
        if let Some(l) = self.linux.as_mut() {
            l.state = state;
        }
    }

    /// `bbr_ssthresh`: the sender is entering recovery or a timeout's loss state; only the
    /// cwnd is saved.
    pub fn save_cwnd(&mut self, w: &Window) {
        let prev = self.linux.as_ref().map_or(CaState::Open, |l| l.prev_state);
        if prev < CaState::Recovery && self.mode != Mode::ProbeRtt {
            self.prior_cwnd = w.cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(w.cwnd);
        }
    }

    /// The connection's losses so far (`tp->lost`), read on the next ACK.
    pub fn set_lost(&mut self, lost: u64) {
        if let Some(l) = self.linux.as_mut() {
            l.lost = lost;
        }
    }

    /// `bbr_set_state(TCP_CA_Loss)`: a timeout, treated as a round's end with a loss for the
    /// long-term sampler; `delivered` and `lost` are the connection's counts.
    pub fn on_loss_state(&mut self, now: SimTime, delivered: u64, lost: u64) {
        self.full_bw = 0.0;
        self.round_start = true;
        let Some(mut l) = self.linux.take() else {
            return;
        };
        l.prev_state = CaState::Loss;
        l.state = CaState::Loss;
        l.lost = lost;
        self.lt_bw_sampling(&mut l, now, 1, false, delivered);
        self.linux = Some(l);
    }

    /// `bbr_undo_cwnd`: full-pipe detection and long-term sampling start over.
    pub fn on_undo(&mut self) {
        self.full_bw = 0.0;
        self.full_bw_count = 0;
        if let Some(l) = self.linux.as_mut() {
            let delivered = l.delivered;
            Self::lt_reset(l, delivered);
        }
    }

    /// `bbr_bw`: the long-term estimate while it is in use, else the windowed maximum.
    fn linux_bw(&self, l: &LinuxBbr) -> f64 {
        if l.lt.use_bw {
            l.lt.bw
        } else {
            self.btl_bw
        }
    }

    /// `bbr_reset_lt_bw_sampling_interval`.
    fn lt_reset_interval(l: &mut LinuxBbr, delivered: u64) {
        l.lt.last_stamp_ms = l.delivered_at.0 / 1_000_000_000;
        l.lt.last_delivered = delivered;
        l.lt.last_lost = l.lost;
        l.lt.rtt_cnt = 0;
    }

    /// `bbr_reset_lt_bw_sampling`.
    fn lt_reset(l: &mut LinuxBbr, delivered: u64) {
        l.lt.bw = 0.0;
        l.lt.use_bw = false;
        l.lt.sampling = false;
        Self::lt_reset_interval(l, delivered);
    }

    /// `bbr_lt_bw_sampling`, after this ACK's round check; `losses` are the segments it
    /// marked lost, `delivered` the connection's deliveries.
    fn lt_bw_sampling(
        &mut self,
        l: &mut LinuxBbr,
        now: SimTime,
        losses: u64,
        app_limited: bool,
        delivered: u64,
    ) {
        if l.lt.use_bw {
            if self.mode == Mode::ProbeBw && self.round_start {
                l.lt.rtt_cnt += 1;
                if l.lt.rtt_cnt >= LT_BW_MAX_RTTS {
                    // Stop using lt_bw; restart gain cycling (bbr_reset_probe_bw_mode).
                    Self::lt_reset(l, delivered);
                    self.cycle_index = self.probe_bw_start_phase();
                    self.cycle_stamp = now;
                }
            }
            return;
        }
        // Wait for the first loss, so that a policer has used up its tokens.
        if !l.lt.sampling {
            if losses == 0 {
                return;
            }
            Self::lt_reset_interval(l, delivered);
            l.lt.sampling = true;
        }
        if app_limited {
            Self::lt_reset(l, delivered);
            return;
        }
        if self.round_start {
            l.lt.rtt_cnt += 1;
        }
        if l.lt.rtt_cnt < LT_INTVL_MIN_RTTS {
            return;
        }
        if l.lt.rtt_cnt > 4 * LT_INTVL_MIN_RTTS {
            Self::lt_reset(l, delivered);
            return;
        }
        // The interval ends with a loss.
        if losses == 0 {
            return;
        }
        let lost = l.lost.saturating_sub(l.lt.last_lost);
        let got = delivered.saturating_sub(l.lt.last_delivered);
        if got == 0 || lost * 256 < LT_LOSS_THRESH * got {
            return;
        }
        let t_ms = (l.delivered_at.0 / 1_000_000_000).saturating_sub(l.lt.last_stamp_ms);
        if t_ms < 1 {
            return;
        }
        let bw = got as f64 / (t_ms as f64 * 1e-3);
        // bbr_lt_bw_interval_done: two consistent lossy intervals mean a policer.
        if l.lt.bw > 0.0 {
            let diff = (bw - l.lt.bw).abs();
            if diff <= LT_BW_RATIO * l.lt.bw || diff * l.mss <= LT_BW_DIFF {
                l.lt.bw = (bw + l.lt.bw) / 2.0;
                l.lt.use_bw = true;
                l.lt.rtt_cnt = 0;
                self.pacing_gain = 1.0;
                return;
            }
        }
        l.lt.bw = bw;
        Self::lt_reset_interval(l, delivered);
    }

    /// `bbr_init`: the min-RTT filter starts from the connection's minimum RTT so far
    /// (`bbr->min_rtt_us = tcp_min_rtt(tp)`), which after the handshake is the SYN's round
    /// trip: small frames, so below any full segment's. Until a lower sample or the window's
    /// end (ProbeRTT, 10 s on), BDP and cwnd follow that RTT. `min_rtt_s` 0 (no sample,
    /// no handshake): the first sample sets it, as before. Called before the first ACK's
    /// `linux_on_ack`; a no-op once the flow has started.
    pub fn linux_init_min_rtt(&mut self, min_rtt_s: f64) {
        if self.linux.as_ref().is_some_and(|l| !l.started) && min_rtt_s > 0.0 {
            self.rt_prop = min_rtt_s;
        }
    }

    /// `bbr_main`: one ACK's rate sample; `delivered` is the connection's total,
    /// `in_flight` what is in flight after the ACK, `srtt_s` the smoothed RTT.
    pub fn linux_on_ack(
        &mut self,
        w: &mut Window,
        now: SimTime,
        rs: &RateSample,
        delivered: u64,
        in_flight: u64,
        srtt_s: f64,
    ) {
        let Some(mut l) = self.linux.take() else {
            return;
        };
        if !l.started {
            // bbr_init: the min-RTT filter starts with the connection.
            l.started = true;
            self.rt_prop_stamp = now;
            l.ack_epoch = now;
            l.delivered_at = now;
            Self::lt_reset(&mut l, delivered);
        }
        if rs.delivered > 0 {
            // tcp_rate_gen stamps the delivery before congestion control runs.
            l.delivered_at = now;
        }
        l.delivered = delivered;
        let valid = rs.delivery_rate > 0.0;
        // bbr_update_bw
        self.round_start = false;
        if valid {
            if rs.prior_delivered >= self.next_round_delivered {
                self.next_round_delivered = delivered;
                self.round_count += 1;
                self.round_start = true;
                self.packet_conservation = false;
            }
            self.lt_bw_sampling(&mut l, now, rs.losses, rs.is_app_limited, delivered);
            self.update_btl_bw(rs);
        }
        self.update_ack_aggregation(&mut l, now, rs, valid, w.cwnd);
        // bbr_update_cycle_phase
        if self.mode == Mode::ProbeBw && self.next_phase(now, rs) {
            self.cycle_index = (self.cycle_index + 1) % CYCLE.len();
            self.cycle_stamp = now;
        }
        self.check_full_pipe(rs);
        // bbr_check_drain
        if self.mode == Mode::Startup && self.filled_pipe {
            self.mode = Mode::Drain;
            w.ssthresh = self.inflight(1.0);
        }
        if self.mode == Mode::Drain && in_flight as f64 <= self.inflight(1.0) {
            self.mode = Mode::ProbeBw;
            self.cycle_index = self.probe_bw_start_phase();
            self.cycle_stamp = now;
        }
        self.linux_update_min_rtt(w, now, rs, in_flight, delivered);
        // bbr_update_gains, on every ACK: each mode's gains; with the long-term estimate in
        // use ProbeBW paces at 1 (Startup keeps its high gain, on lt_bw then).
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (HIGH_GAIN, HIGH_GAIN),
            Mode::Drain => (DRAIN_GAIN, HIGH_GAIN),
            Mode::ProbeBw if l.lt.use_bw => (1.0, 2.0),
            Mode::ProbeBw => (CYCLE[self.cycle_index], 2.0),
            Mode::ProbeRtt => (1.0, 1.0),
        };
        // bbr_set_pacing_rate
        if !l.has_seen_rtt && srtt_s > 0.0 {
            l.has_seen_rtt = true;
            self.pacing_rate = HIGH_GAIN * w.cwnd / srtt_s * PACING_MARGIN;
        }
        let rate = self.pacing_gain * self.linux_bw(&l) * PACING_MARGIN;
        if self.filled_pipe || rate > self.pacing_rate {
            self.pacing_rate = rate;
        }
        self.linux_set_cwnd(&mut l, w, rs, in_flight, delivered);
        self.linux = Some(l);
    }

    /// `bbr_bdp` with the windowed maximum bandwidth.
    fn linux_bdp(&self, gain: f64) -> f64 {
        self.linux_bdp_of(self.btl_bw, gain)
    }

    /// `bbr_bdp`: gain x bandwidth `bw` x min RTT in segments, rounded up.
    fn linux_bdp_of(&self, bw: f64, gain: f64) -> f64 {
        if !self.rt_prop.is_finite() {
            return INIT_CWND;
        }
        (gain * bw * self.rt_prop).ceil()
    }

    /// `bbr_tso_segs_goal`: about a millisecond of data at the pacing rate (Linux's
    /// `sk_pacing_shift` of 10), at least 2 segments above 1.2 Mb/s, at most 127.
    fn tso_segs_goal(&self) -> f64 {
        let mss = self.linux.as_ref().map_or(1448.0, |l| l.mss).max(1.0);
        let bytes_per_s = self.pacing_rate * mss;
        let bytes = (bytes_per_s / 1024.0).min(65535.0 - 1.0 - 320.0);
        let min = if bytes_per_s < 150_000.0 { 1.0 } else { 2.0 };
        (bytes / mss).floor().max(min).min(127.0)
    }

    /// `bbr_quantization_budget`.
    fn quantization_budget(&self, cwnd: f64) -> f64 {
        let mut c = cwnd + 3.0 * self.tso_segs_goal();
        c = ((c as u64 + 1) & !1) as f64;
        if self.mode == Mode::ProbeBw && self.cycle_index == 0 {
            c += 2.0;
        }
        c
    }

    /// `bbr_inflight`.
    fn inflight(&self, gain: f64) -> f64 {
        self.quantization_budget(self.linux_bdp(gain))
    }

    /// `bbr_is_next_cycle_phase`, with what was in flight before the ACK.
    fn next_phase(&self, now: SimTime, rs: &RateSample) -> bool {
        let full_length = now.0.saturating_sub(self.cycle_stamp.0) as f64 * 1e-12 > self.rt_prop;
        let inflight = rs.prior_in_flight as f64;
        if self.pacing_gain == 1.0 {
            full_length
        } else if self.pacing_gain > 1.0 {
            full_length && (rs.losses > 0 || inflight >= self.inflight(self.pacing_gain))
        } else {
            full_length || inflight <= self.inflight(1.0)
        }
    }

    /// `bbr_update_ack_aggregation`.
    fn update_ack_aggregation(
        &mut self,
        l: &mut LinuxBbr,
        now: SimTime,
        rs: &RateSample,
        valid: bool,
        cwnd: f64,
    ) {
        if rs.delivered == 0 || !valid {
            return;
        }
        if self.round_start {
            l.extra_win_rtts = (l.extra_win_rtts + 1).min(0x1f);
            if l.extra_win_rtts >= EXTRA_ACKED_WIN_RTTS {
                l.extra_win_rtts = 0;
                l.extra_win_idx ^= 1;
                l.extra_acked[l.extra_win_idx] = 0.0;
            }
        }
        let epoch_s = now.0.saturating_sub(l.ack_epoch.0) as f64 * 1e-12;
        let mut expected = (self.linux_bw(l) * epoch_s).floor();
        let acked = rs.delivered as f64;
        if l.ack_epoch_acked <= expected || l.ack_epoch_acked + acked >= ACK_EPOCH_RESET {
            l.ack_epoch_acked = 0.0;
            l.ack_epoch = now;
            expected = 0.0;
        }
        l.ack_epoch_acked += acked;
        let extra = (l.ack_epoch_acked - expected).min(cwnd);
        if extra > l.extra_acked[l.extra_win_idx] {
            l.extra_acked[l.extra_win_idx] = extra;
        }
    }

    /// `bbr_ack_aggregation_cwnd`.
    fn aggregation_cwnd(&self, l: &LinuxBbr) -> f64 {
        if !self.filled_pipe {
            return 0.0;
        }
        let extra = l.extra_acked[0].max(l.extra_acked[1]);
        extra.min((self.linux_bw(l) * EXTRA_ACKED_MAX_S).floor())
    }

    /// `bbr_update_min_rtt`, with `bbr_check_probe_rtt_done`.
    fn linux_update_min_rtt(
        &mut self,
        w: &mut Window,
        now: SimTime,
        rs: &RateSample,
        in_flight: u64,
        delivered: u64,
    ) {
        let expired =
            now.0.saturating_sub(self.rt_prop_stamp.0) as f64 * 1e-12 > self.rt_prop_window_s;
        if rs.rtt_s > 0.0 && (self.renews_rt_prop(rs.rtt_s) || expired) {
            self.rt_prop = rs.rtt_s;
            self.rt_prop_stamp = now;
        }
        if expired && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            self.save_cwnd(w);
            self.probe_rtt_done = None;
        }
        if self.mode != Mode::ProbeRtt {
            return;
        }
        // Samples of what is in flight now measure ProbeRTT's small window, not the path:
        // marked application-limited (tp->app_limited), so that they neither lower the
        // bandwidth filter nor feed the long-term sampler, which starts over on them.
        w.app_limited = true;
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
                if self.probe_rtt_round_done && now > done {
                    self.rt_prop_stamp = now;
                    w.cwnd = w.cwnd.max(self.prior_cwnd);
                    if self.filled_pipe {
                        self.mode = Mode::ProbeBw;
                        self.cycle_index = self.probe_bw_start_phase();
                        self.cycle_stamp = now;
                    } else {
                        self.mode = Mode::Startup;
                    }
                }
            }
            None => {}
        }
    }

    /// `bbr_set_cwnd` with `bbr_set_cwnd_to_recover_or_restore`.
    fn linux_set_cwnd(
        &mut self,
        l: &mut LinuxBbr,
        w: &mut Window,
        rs: &RateSample,
        in_flight: u64,
        delivered: u64,
    ) {
        let acked = rs.delivered as f64;
        let mut cwnd = w.cwnd;
        if acked > 0.0 {
            if rs.losses > 0 {
                cwnd = (cwnd - rs.losses as f64).max(1.0);
            }
            let (state, prev) = (l.state, l.prev_state);
            if state == CaState::Recovery && prev != CaState::Recovery {
                self.packet_conservation = true;
                self.next_round_delivered = delivered;
                cwnd = in_flight as f64 + acked;
            } else if prev >= CaState::Recovery && state < CaState::Recovery {
                cwnd = cwnd.max(self.prior_cwnd);
                self.packet_conservation = false;
            }
            l.prev_state = state;
            if self.packet_conservation {
                cwnd = cwnd.max(in_flight as f64 + acked);
            } else {
                let bw = self.linux_bw(l);
                let target = self.quantization_budget(
                    self.linux_bdp_of(bw, self.cwnd_gain) + self.aggregation_cwnd(l),
                );
                if self.filled_pipe {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || (delivered as f64) < INIT_CWND {
                    cwnd += acked;
                }
                cwnd = cwnd.max(MIN_CWND);
            }
        }
        if self.mode == Mode::ProbeRtt {
            cwnd = cwnd.min(MIN_CWND);
        }
        w.cwnd = cwnd;
    }
}

#[cfg(test)]
mod tests;
