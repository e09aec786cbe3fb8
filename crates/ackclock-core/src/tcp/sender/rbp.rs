//! Rate-based pacing after idle (RBP): ns-2.35's `Agent/TCP/Reno/RBP` and
//! `Agent/TCP/Vegas/RBP` (tcp/tcp-rbp.cc, `RBPRenoTcpAgent` and `RBPVegasTcpAgent`, after
//! V. Visweswaraiah and J. Heidemann, "Improving Restart of Idle TCP Connections", USC TR
//! 97-661, 1997). A connection that went idle does not send its window in one burst when
//! data comes again: it paces it out over one round trip, until the first ACK restores the
//! ACK clock. Rule by rule:
//!
//! - `timeout(TCP_TIMER_RTX)` with nothing outstanding (`highest_ack_ == maxseq_`): pacing
//!   becomes possible (`RBP_POSSIBLE`) and nothing else happens: no window change whatever
//!   `slow_start_restart_` says, and the retransmission timer is not set again. With data
//!   outstanding, the agent's own timeout (Reno's or Vegas's).
//! - `send_much` while pacing is possible and a segment may leave (`able_to_rbp_send_one`:
//!   `t_seqno_ < curseq_ && t_seqno_ <= highest_ack_ + window()`): pacing starts
//!   (`RBP_GOING`). The paced window is `rbp_scale_` times cwnd (`RBP_CWND_ALGORITHM`,
//!   Reno's only one) or times Vegas's measured rate and RTT (`v_actual_ * v_rtt_`,
//!   `RBP_VEGAS_RATE_ALGORITHM`), rounded to the nearest whole segment and at least
//!   `RBP_MIN_SEGMENTS` (2); cwnd becomes the smaller of itself and that. The gap between
//!   paced segments is one RTT over `window()`: Reno's smoothed RTT in seconds (`t_srtt_`
//!   unscaled by 2^`T_SRTT_BITS`, times `tcp_tick_`), Vegas's last fine-grained sample
//!   (`v_rtt_`). Then `paced_send_one`. Otherwise the agent's own `send_much`.
//! - `paced_send_one` (and the pace timer's expiry, `RBP*PaceTimer::expire`): while pacing
//!   and a segment may leave, one segment (`output(t_seqno_++, TCP_REASON_RBP)`) and the
//!   pace timer again in one gap (`resched`).
//! - `recv`: any ACK ends pacing (`RBP_OFF`; the pace timer, left running in ns-2, sends
//!   nothing more). Reno's, on an ACK of new data, first caps cwnd at the segments
//!   outstanding (`maxseq_ - last_ack_`) so the window opened meanwhile does not leave in a
//!   burst; Vegas's leaves cwnd to Vegas. Then the agent's own `recv`.
//!
//! The pace timer is the sender's pace deadline; its delay is kept as ns-2's double, so that
//! under the ns2 profile it runs at ns-2's sum (`sim/ns2_clock.rs`, as `overhead_`'s timer).

use serde::{Deserialize, Serialize};

use super::*;

/// ns-2.35's RBP agents (`tcp/tcp-rbp.cc`): which paced window after idle. `off` (the
/// default): none; `cwnd`: `rbp_scale` times cwnd (`Agent/TCP/Reno/RBP`, or
/// `Agent/TCP/Vegas/RBP` with `rbp_rate_algorithm_ 2`); `vegas_rate`: `rbp_scale` times
/// Vegas's measured rate times its RTT (`Agent/TCP/Vegas/RBP`'s default,
/// `rbp_rate_algorithm_ 1`; ns-2.35's Vegas, `cc_params.ns2_model`, only).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Ns2Rbp {
    #[default]
    Off,
    Cwnd,
    VegasRate,
}

/// `rbp_mode_`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Off,
    Possible,
    Going,
}

/// An RBP agent's own state.
#[derive(Clone, Debug)]
pub(super) struct Rbp {
    algorithm: Ns2Rbp,
    /// `rbp_scale_`.
    scale: f64,
    mode: Mode,
    /// `rbp_inter_pace_delay_`, seconds.
    gap: f64,
    /// `rbp_segs_actually_paced_`.
    paced: u64,
    /// The delay the running pace timer was set for, seconds; None: not running (or, after
    /// an ACK ended pacing, running to no effect).
    pending: Option<f64>,
}

impl Rbp {
    pub(super) fn new(algorithm: Ns2Rbp, scale: f64) -> Option<Box<Rbp>> {
        (algorithm != Ns2Rbp::Off).then(|| {
            Box::new(Rbp {
                algorithm,
                scale,
                mode: Mode::Off,
                gap: 0.0,
                paced: 0,
                pending: None,
            })
        })
    }

    /// The paced window before `RBP_MIN_SEGMENTS`: `int(w + 0.5)` of the scaled window.
    fn paced_window(&self, cwnd: f64, vegas_rate_rtt: Option<(f64, f64)>) -> f64 {
        let w = match (self.algorithm, vegas_rate_rtt) {
            // rbwin_vegas = v_actual_ * v_rtt_; rbwin_vegas *= rbp_scale_
            (Ns2Rbp::VegasRate, Some((actual, rtt))) => actual * rtt * self.scale,
            _ => cwnd * self.scale,
        };
        let w = (w + 0.5).trunc(); // int(rbwin + 0.5), toward zero as C's
        if w <= RBP_MIN_SEGMENTS {
            RBP_MIN_SEGMENTS
        } else {
            w
        }
    }
}

/// `RBP_MIN_SEGMENTS`: pacing always sends at least this window.
const RBP_MIN_SEGMENTS: f64 = 2.0;

impl TcpSender {
    /// `rbp_segs_actually_paced_` and `rbp_inter_pace_delay_` (seconds), for an RBP agent.
    pub fn rbp_stats(&self) -> Option<(u64, f64)> {
        self.rbp.as_deref().map(|r| (r.paced, r.gap))
    }

    /// The delay of the running pace timer, seconds as ns-2 computed it.
    pub(super) fn rbp_delay(&self) -> Option<f64> {
        self.rbp.as_deref().and_then(|r| r.pending)
    }

    /// `RBP*TcpAgent::timeout(TCP_TIMER_RTX)`: true if it handled the expiry (nothing
    /// outstanding: pacing possible, the timer not set again).
    #[inline(never)]
    pub(super) fn rbp_timeout(&mut self) -> bool {
        if self.una < self.maxseq {
            return false;
        }
        if let Some(r) = self.rbp.as_deref_mut() {
            r.mode = Mode::Possible;
        }
        true
    }

    /// `RBP*TcpAgent::recv`, before the agent's own: any ACK ends pacing; Reno's caps cwnd
    /// at the segments outstanding on an ACK of new data (`cwnd_ = maxseq_ - last_ack_`).
    #[inline(never)]
    pub(super) fn rbp_recv(&mut self, ack: u64) {
        let vegas = self.ns2_vegas.is_some();
        let Some(r) = self.rbp.as_deref_mut() else {
            return;
        };
        if r.mode == Mode::Off {
            return;
        }
        r.mode = Mode::Off;
        if r.pending.take().is_some() {
            self.pace_deadline = None;
        }
        // tcph->seqno() > last_ack_: the engine's ACK is ns-2's plus one, una last_ack_ + 1.
        if !vegas && ack > self.una {
            self.w.cwnd = self.maxseq.saturating_sub(self.una) as f64;
        }
    }

    /// `able_to_rbp_send_one`: `t_seqno_ < curseq_ && t_seqno_ <= highest_ack_ + window()`.
    fn rbp_able(&self) -> bool {
        self.nxt < self.app_limit && self.nxt < self.una + self.window()
    }

    /// `RBP*TcpAgent::send_much`: starts pacing when it is possible and a segment may leave;
    /// otherwise the agent's own send_much, which leaves a running pace timer alone.
    #[inline(never)]
    pub(super) fn rbp_send_much(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let possible = self
            .rbp
            .as_deref()
            .is_some_and(|r| r.mode == Mode::Possible);
        if !(possible && self.rbp_able()) {
            let held = self.pace_deadline;
            self.send_window::<false>(now, out, c);
            if self.rbp_delay().is_some() {
                self.pace_deadline = held;
            }
            return;
        }
        let vegas = self
            .ns2_vegas
            .as_deref()
            .map(|v| (v.actual_rate(), v.last_rtt()));
        let srtt = self.rtt.ns2_srtt_secs();
        let r = self.rbp.as_deref_mut().expect("rbp");
        r.mode = Mode::Going;
        r.paced = 0;
        let w = r.paced_window(self.w.cwnd, vegas);
        // cwnd_ = MIN(cwnd_, rbwin)
        self.w.cwnd = self.w.cwnd.min(w);
        let win = self.window() as f64;
        // One round trip over window() segments: Vegas's v_rtt_, Reno's t_srtt_ in seconds.
        let rtt = match vegas {
            Some((_, v_rtt)) => v_rtt,
            None => srtt,
        };
        let r = self.rbp.as_deref_mut().expect("rbp");
        r.gap = rtt / win;
        self.rbp_paced_send_one(now, out, c);
    }

    /// `paced_send_one`: one segment while pacing and one may leave, and the pace timer
    /// again.
    fn rbp_paced_send_one(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        let going = self.rbp.as_deref().is_some_and(|r| r.mode == Mode::Going);
        if !(going && self.rbp_able()) {
            return;
        }
        self.emit(self.nxt, now, out, c);
        self.nxt += 1;
        let r = self.rbp.as_deref_mut().expect("rbp");
        r.paced += 1;
        // pace_timer_.resched(rbp_inter_pace_delay_); a window of 0 (gap infinite) never
        // fires.
        if r.gap.is_finite() && r.gap >= 0.0 {
            r.pending = Some(r.gap);
            self.pace_deadline = Some(now + SimDuration::from_secs_f64(r.gap));
        } else {
            r.pending = None;
            self.pace_deadline = None;
        }
    }

    /// The pace timer's expiry (`RBP*PaceTimer::expire`).
    pub(super) fn rbp_on_timer(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if let Some(r) = self.rbp.as_deref_mut() {
            r.pending = None;
        }
        self.rbp_paced_send_one(now, out, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paced_window_rounds_and_keeps_two_segments() {
        // RBPRenoTcpAgent::send_much: int(cwnd * 0.75 + 0.5), at least RBP_MIN_SEGMENTS.
        let r = Rbp::new(Ns2Rbp::Cwnd, 0.75).unwrap();
        assert_eq!(r.paced_window(10.0, None), 8.0); // 7.5 + 0.5
        assert_eq!(r.paced_window(9.0, None), 7.0); // 6.75 + 0.5 = 7.25
        assert_eq!(r.paced_window(2.0, None), 2.0);
        assert_eq!(r.paced_window(1.0, None), 2.0);
        // RBP_VEGAS_RATE_ALGORITHM: v_actual_ (segments/s) x v_rtt_ (s) x scale.
        let v = Rbp::new(Ns2Rbp::VegasRate, 0.75).unwrap();
        assert_eq!(v.paced_window(30.0, Some((40.0, 0.25))), 8.0); // 7.5 -> 8
                                                                   // Vegas with rbp_rate_algorithm_ 2 paces the scaled cwnd.
        let w = Rbp::new(Ns2Rbp::Cwnd, 0.75).unwrap();
        assert_eq!(w.paced_window(30.0, Some((40.0, 0.25))), 23.0); // 22.5 + 0.5
        assert!(Rbp::new(Ns2Rbp::Off, 0.75).is_none());
    }
}
