//! ns-2.35's `overhead_` on a one-way TCP agent (`send_overhead`): a random delay before each
//! burst of new sending, which breaks the phase effects of a deterministic simulation (Floyd
//! and Jacobson, "On Traffic Phase Effects in Packet-Switched Gateways", 1992).
//!
//! - `TcpAgent::send_much` and `Sack1TcpAgent::send_much` with `overhead_ != 0` and not
//!   forced send nothing: when their loop would send (the window and the data allow a
//!   segment; in Sack1's fast recovery, `pipe_ < cwnd_`) and the delayed-send timer is idle,
//!   they set it to `Random::uniform(overhead_)`, overhead_ times one draw from ns-2's default
//!   generator, and return. While the timer runs, every unforced `send_much` returns at once.
//! - Its expiry (`DelSndTimer::expire`, `TcpAgent::timeout_nonrtx`) calls `send_much(1, ...)`,
//!   which sends what the window allows then, with no draw.
//! - Only `send_much` waits: the fast retransmission and Sack1's partial-ACK resend
//!   (`dupack_action`, `partial_ack_action`) call `output` directly, and a timeout's resend
//!   goes through `send_much(0, ...)`, so it waits too.
//!
//! The delay is kept as ns-2's double so that under the ns2 profile the timer runs at ns-2's
//! sum, the running event's time plus the delay (`sim/ns2_clock.rs`).

use super::*;
use crate::rng::Uniform;
use crate::tcp::scoreboard::Scoreboard;

/// The delayed-send timer and what it draws from.
#[derive(Clone, Debug)]
pub(super) struct Overhead {
    /// `overhead_`, seconds.
    secs: f64,
    rng: Uniform,
    /// The delay drawn for the timer running now, seconds; None: idle.
    pending: Option<f64>,
    /// The timer's own `send_much(1, ...)` is running.
    forced: bool,
}

impl Overhead {
    pub(super) fn new(secs: f64, rng: Uniform) -> Overhead {
        Overhead {
            secs,
            rng,
            pending: None,
            forced: false,
        }
    }

    /// `cancel_timers` (`TcpAgent::reset`): the delayed-send timer stops; its generator stays.
    pub(super) fn cancel(&mut self) {
        self.pending = None;
        self.forced = false;
    }
}

impl TcpSender {
    /// Draws the delayed-send jitter from `rng` from now on (ns-2's default generator in an
    /// ns-2 script's run); no effect without `send_overhead`.
    pub fn use_overhead_random(&mut self, rng: Uniform) {
        if self.quick_start.is_some() {
            // A Quick-Start request's draw (`Random::integer(256)`) is from the same one.
            let rates = self
                .quick_start
                .as_deref()
                .map(|q| q.rates)
                .unwrap_or_default();
            self.use_quick_start(rates, Some(rng.clone()));
        }
        if let Some(o) = self.overhead.as_deref_mut() {
            o.rng = rng;
        }
    }

    /// The delay of the delayed-send timer now running (its deadline is the pace deadline),
    /// seconds as ns-2 drew it.
    pub fn delsnd_delay(&self) -> Option<f64> {
        if let Some(d) = self.quick_start.as_deref().and_then(|q| q.pending) {
            return Some(d); // Quick-Start's pacing (`sender/quick_start.rs`)
        }
        if self.rbp.is_some() {
            return self.rbp_delay(); // RBP's pace timer (`sender/rbp.rs`)
        }
        self.overhead.as_deref().and_then(|o| o.pending)
    }

    /// The delayed-send timer runs at `t` (its ns-2 time's picosecond, `sim/ns2_clock.rs`).
    pub fn retime_delsnd(&mut self, t: SimTime) {
        if self.delsnd_delay().is_some() {
            self.pace_deadline = Some(t);
        }
    }

    /// The unforced `send_much`'s test: true if the caller must send nothing now. The timer
    /// is set when `would_send` (the send loop's condition holds) and it is idle.
    #[inline(never)]
    pub(super) fn delsnd_holds(&mut self, now: SimTime, would_send: bool) -> bool {
        let Some(o) = self.overhead.as_deref_mut() else {
            return false;
        };
        if o.forced {
            return false;
        }
        if o.pending.is_none() && would_send {
            // Random::uniform(overhead_): overhead_ times one uniform draw.
            let delay = o.secs * o.rng.next_f64();
            o.pending = Some(delay);
            self.pace_deadline = Some(now + SimDuration::from_secs_f64(delay));
        }
        true
    }

    /// The delayed-send timer's expiry (`TcpAgent::timeout_nonrtx`): `send_much(1,
    /// TCP_REASON_TIMEOUT, maxburst_)`, Sack1's in fast recovery (`pipe_ < cwnd_`, holes
    /// first), else TcpAgent's.
    pub(super) fn on_delsnd(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if let Some(o) = self.overhead.as_deref_mut() {
            o.pending = None;
            o.forced = true;
        }
        // The timer's send_much has the agent's own maxburst_, not the two segments that
        // NewRenoTcpAgent::recv's send_much(0, 0, 2) allows after a partial ACK.
        let capped = self.max_burst;
        if let Some(own) = self.recovery_burst {
            self.max_burst = own;
        }
        if self.in_recovery
            && self.recovery == Recovery::Sack
            && !self.rfc6675
            && self.prr.is_none()
        {
            if let Some(mut sb) = self.scoreboard.take() {
                self.sack_send(now, &mut sb, out, c);
                self.scoreboard = Some(sb);
            }
        } else if self.recovery == Recovery::Sack
            && !self.rfc6675
            && self.prr.is_none()
            && self
                .scoreboard
                .as_mut()
                .is_some_and(|sb| sb.next_retransmission().is_some())
        {
            if let Some(mut sb) = self.scoreboard.take() {
                self.sack1_send_with_holes(now, &mut sb, out, c);
                self.scoreboard = Some(sb);
            }
        } else {
            self.send_much(now, out, c);
        }
        if self.recovery_burst.is_some() {
            self.max_burst = capped;
        }
        if let Some(o) = self.overhead.as_deref_mut() {
            o.forced = false;
        }
    }
}

impl TcpSender {
    /// `Sack1TcpAgent::send_much` outside fast recovery with a hole in the scoreboard (the
    /// duplicate ACKs before the threshold filled it; without `overhead_` only a new ACK, which
    /// clears it, calls send_much there): while `t_seqno_ <= last_ack_ + win`, the next hole
    /// (`GetNextRetran`) is resent only if `recover_ > 0` (ns-2's highest segment sent at the
    /// last recovery or timeout; the engine's `recover` is one past it, ns-2's initial 0 its
    /// `Some(1)`) and it lies within `wnd_`; otherwise
    /// nothing is sent (`found` stays 0), new data included.
    fn sack1_send_with_holes(
        &mut self,
        now: SimTime,
        sb: &mut Scoreboard,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let mut burst = 0;
        while self.nxt < self.una + self.window() && self.una < self.app_limit {
            match sb.next_retransmission() {
                Some(seq)
                    if self.recover.is_some_and(|r| r > 1)
                        && seq < self.una + self.w.rwnd as u64 =>
                {
                    sb.mark_retransmitted(seq);
                    self.emit(seq, now, out, c);
                    self.nxt = self.nxt.max(seq + 1);
                    if self.quick_start.is_some() && self.qs_pace(now, 0) {
                        return; // Sack1TcpAgent::send_much with qs_approved_
                    }
                }
                Some(_) => break,
                None if self.nxt < self.app_limit => {
                    self.emit(self.nxt, now, out, c);
                    self.nxt += 1;
                    if self.quick_start.is_some() && self.qs_pace(now, 0) {
                        return;
                    }
                }
                None => break,
            }
            burst += 1;
            if self.max_burst != 0 && burst >= self.max_burst {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ackp, sender_with};
    use super::*;
    use crate::fixtures::ns2_tcp;
    use crate::rng::ns2::{Mrg32k3a, Ns2Default};

    const OVERHEAD: f64 = 0.01;

    /// A sender with `overhead_` 0.01 s drawing from ns-2's generator, and a copy of that
    /// generator to predict its draws.
    fn overhead_sender(variant: Recovery) -> (TcpSender, Mrg32k3a, Vec<Packet>, FlowCounters) {
        let mut cfg = ns2_tcp();
        cfg.window = 20;
        cfg.limited_transmit = false;
        cfg.send_overhead_ps = (OVERHEAD * 1e12) as u64;
        let (mut s, out, c) = sender_with(&cfg, variant);
        let g = Mrg32k3a::from_state([12345; 6]).unwrap();
        s.use_overhead_random(Uniform::Ns2(Ns2Default::new(g)));
        (s, g, out, c)
    }

    #[test]
    fn new_data_waits_for_one_draw_of_the_delayed_send_timer() {
        let (mut s, mut alone, mut out, mut c) = overhead_sender(Recovery::Reno);
        s.start(SimTime(0), &mut out, &mut c);
        assert!(out.is_empty(), "send_much sends nothing itself");
        let delay = OVERHEAD * alone.u01();
        assert_eq!(s.delsnd_delay(), Some(delay));
        let at = SimTime::ZERO + SimDuration::from_secs_f64(delay);
        assert_eq!(s.pace_deadline(), Some(at));
        // Another send_much while the timer runs returns at once, drawing nothing.
        s.on_pace(SimTime(at.0 - 1), &mut out, &mut c);
        assert!(out.is_empty());
        s.on_pace(at, &mut out, &mut c);
        let seqs: Vec<u64> = out.iter().map(|p| p.seq).collect();
        assert_eq!(seqs, [0, 1], "the expiry sends the whole window, forced");
        assert_eq!((s.delsnd_delay(), s.pace_deadline()), (None, None));
        // The ACK of segment 0 opens the window: a new draw, the next in the generator.
        out.clear();
        let t = SimTime(at.0 + 1000);
        s.on_ack(t, &ackp(1), &mut out, &mut c);
        assert!(out.is_empty());
        assert_eq!(s.delsnd_delay(), Some(OVERHEAD * alone.u01()));
    }

    #[test]
    fn an_ack_that_opens_nothing_draws_nothing() {
        let (mut s, mut alone, mut out, mut c) = overhead_sender(Recovery::Reno);
        s.start(SimTime(0), &mut out, &mut c);
        let at = s.pace_deadline().unwrap();
        s.on_pace(at, &mut out, &mut c);
        out.clear();
        alone.u01();
        // A duplicate ACK below the threshold: the window is full, the loop would not run.
        s.on_ack(SimTime(at.0 + 5), &ackp(0), &mut out, &mut c);
        assert_eq!((s.delsnd_delay(), s.pace_deadline()), (None, None));
        // The generator was not touched: the next draw is the copy's next.
        s.on_ack(SimTime(at.0 + 6), &ackp(2), &mut out, &mut c);
        assert_eq!(s.delsnd_delay(), Some(OVERHEAD * alone.u01()));
    }

    #[test]
    fn sack1_recovery_waits_for_the_timer_but_not_its_fast_retransmission() {
        let (mut s, _, mut out, mut c) = overhead_sender(Recovery::Sack);
        s.w.cwnd = 20.0;
        s.w.rwnd = 100.0;
        s.start(SimTime(0), &mut out, &mut c);
        let at = s.pace_deadline().unwrap();
        s.on_pace(at, &mut out, &mut c);
        assert_eq!(out.len(), 20);
        out.clear();
        // Segment 0 lost: a duplicate SACKing one more segment per arrival.
        let mut t = at.0 + 10;
        let mut i = 1;
        while s.delsnd_delay().is_none() {
            let mut a = ackp(0);
            a.sack.push(0, 1, 1 + i);
            s.on_ack(SimTime(t), &a, &mut out, &mut c);
            if i == 3 {
                // Sack1TcpAgent::dupack_action's output, not send_much: at once.
                assert_eq!(c.fast_retransmits, 1);
                assert_eq!(out.iter().map(|p| p.seq).collect::<Vec<_>>(), [0]);
            }
            t += 1;
            i += 1;
        }
        // The pipe fell below cwnd: send_much set the timer and sent nothing.
        assert!(s.in_recovery);
        assert_eq!(out.len(), 1);
        assert!(s.pipe < s.w.cwnd as i64);
        let room = s.w.cwnd as i64 - s.pipe;
        let at = s.pace_deadline().unwrap();
        s.on_pace(at, &mut out, &mut c);
        assert_eq!(out.len() as i64, 1 + room, "the expiry fills the pipe");
        assert_eq!(
            out[1].seq, 20,
            "new data: no hole below the highest SACK is unsent"
        );
    }

    #[test]
    fn sack1_timer_sends_nothing_over_a_hole_outside_recovery() {
        let (mut s, _, mut out, mut c) = overhead_sender(Recovery::Sack);
        s.w.cwnd = 8.0;
        s.start(SimTime(0), &mut out, &mut c);
        let at = s.pace_deadline().unwrap();
        s.on_pace(at, &mut out, &mut c);
        assert_eq!(out.len(), 8);
        out.clear();
        // The ACK of segment 0 opens the window: the timer is set.
        s.on_ack(SimTime(at.0 + 10), &ackp(1), &mut out, &mut c);
        assert!(out.is_empty() && s.delsnd_delay().is_some());
        // A duplicate SACKing segment 2 (1 lost) comes before the timer runs.
        let mut a = ackp(1);
        a.sack.push(1, 2, 3);
        s.on_ack(SimTime(at.0 + 11), &a, &mut out, &mut c);
        assert!(out.is_empty() && !s.in_recovery);
        // GetNextRetran finds the hole, recover_ is 0: Sack1TcpAgent::send_much sends
        // nothing, new data included.
        let t = s.pace_deadline().unwrap();
        s.on_pace(t, &mut out, &mut c);
        assert!(
            out.is_empty(),
            "{:?}",
            out.iter().map(|p| p.seq).collect::<Vec<_>>()
        );
    }
}
