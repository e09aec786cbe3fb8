//! ns-2.35's own TCP Vegas, `Agent/TCP/Vegas` (tcp/tcp-vegas.cc, `VegasTcpAgent`, Ted Kuo's
//! port of the U. Arizona code), under the Vegas congestion control's `ns2_model`. It is
//! not the Vegas of `cc/vegas.rs` (Linux's and ns-3's, after L. S. Brakmo, L. L. Peterson,
//! "TCP Vegas: End to End Congestion Avoidance on a Global Internet", IEEE JSAC 13(8),
//! 1995): `VegasTcpAgent::recv` replaces `TcpAgent::recv` whole, window growth, fast
//! retransmit and the timeout included. Rule by rule (times are `vegastime()`, seconds since
//! the first segment left, `TcpAgent::send_much`'s `firstsent_`):
//!
//! - `VegasTcpAgent::reset`: v_slowstart_ 2, v_baseRTT_ 1e9, v_inc_flag_ 1; the window is
//!   one segment while segment 0 is unacknowledged and `window_init` from the ACK after it
//!   (`TcpAgent::set_initial_window` with `syn_` and `delay_growth_`, and `recv`'s
//!   `last_ack_ == 0 && delay_growth_`; `ns2_delay_growth`), segment 0 being data
//!   (`VegasTcpAgent::output` never sends a SYN).
//! - `VegasTcpAgent::output`: each segment's send time and number of sends, in two arrays of
//!   `window` (`wnd_`) slots indexed by sequence number modulo their length, reset when
//!   segment 0 is sent.
//! - `recv`, the first ACK: v_rtt_ = v_baseRTT_ = its time, v_sa_ = 8 v_rtt_, v_sd_ = v_rtt_,
//!   v_timeout_ = (v_sa_/4 + v_sd_)/2.
//! - `recv`, a new ACK: an inflated window (more than `dupack_threshold` duplicates) falls to
//!   v_newcwnd_ with ssthresh 2; `TcpAgent::newack` (timer, RTT sample, `awnd_`; no
//!   `opencwnd`). Once per round trip (the ACK reaches v_begseq_, the next segment to send
//!   when the round began): rtt = the round's mean fine-grained sample (or the round's
//!   length), v_baseRTT_ = min(v_baseRTT_, rtt) (or rtt when at most one segment was sent in
//!   the round), actual = segments sent in the round / rtt, expect = segments outstanding /
//!   v_baseRTT_, delta = int((expect - actual) v_baseRTT_ + 0.5); in slow start (cwnd <
//!   ssthresh) every other round either grows (v_incr_ 1 per ACK) or, when delta > v_gamma_,
//!   cuts cwnd by an eighth (at least 2) with ssthresh 2; in congestion avoidance delta >
//!   v_beta_ takes one segment off (at least 2), delta < v_alpha_ grows by 1/cwnd per ACK,
//!   else nothing. An ACK grows cwnd by v_incr_ only while fewer than 3 segments of it are
//!   unused, and stops slow start's growth at ssthresh. The ACK of a segment sent once gives a
//!   fine-grained sample: v_sa_/v_sd_ (Jacobson's scaled mean and deviation) and v_timeout_ =
//!   17/16 (v_sa_/4 + v_sd_)/2. For one or two ACKs after a fast retransmit (v_worried_),
//!   the next unacknowledged segment is resent if it has waited v_timeout_.
//! - `recv`, a duplicate ACK: the next unacknowledged segment is resent when it has waited
//!   v_timeout_ (`vegas_expire`) or at the `dupack_threshold`-th duplicate, unless a timeout
//!   came last and nothing since it was acknowledged beyond `recover_` (`bug_fix_`): v_timeout_
//!   doubles if that segment was sent more than once, else grows by an eighth; if the window
//!   did not change since that segment left, it becomes 2 (window <= 3), half (segment sent
//!   more than once) or three quarters, plus the duplicates (v_newcwnd_); the coarse timer
//!   backs off and restarts (`reset_rtx_timer(1)`). Later duplicates add one segment each.
//! - `VegasTcpAgent::timeout`: ssthresh half the window (`slowdown(CLOSE_SSTHRESH_HALF)`),
//!   cwnd = v_slowstart_ (2), go back N, the timer backed off.
//!
//!   With `slow_start_restart_` false (`idle_timeout_keeps_window`) and nothing outstanding
//!   it does nothing, and the timer is not set again.
//!
//! Not modelled: ECN (`TcpAgent::ecn`), `maxcwnd_` (the front end refuses them with Vegas).

use super::*;

/// ns-2's `last_cwnd_action_` as `VegasTcpAgent` sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    None,
    Dupack,
    Timeout,
}

/// `VegasTcpAgent`'s own state (tcp/tcp.h), in ns-2's units: times in seconds of
/// `vegastime()`, sequence numbers as ns-2's (`last_ack_` is the engine's `una - 1`).
#[derive(Clone, Debug)]
pub(super) struct Ns2Vegas {
    alpha: f64,
    beta: f64,
    gamma: f64,
    delay_growth: bool,
    firstsent: SimTime,
    t_cwnd_changed: f64,
    firstrecv: f64,
    slowstart: f64,
    sa: f64,
    sd: f64,
    timeout: f64,
    rtt: f64,
    worried: i64,
    begseq: i64,
    begtime: f64,
    cnt_rtt: i64,
    sum_rtt: f64,
    base_rtt: f64,
    incr: f64,
    inc_flag: bool,
    /// `v_actual_`: the last round's segments per second (0 before the first round; ns-2
    /// leaves it unset).
    actual: f64,
    newcwnd: f64,
    recover: i64,
    action: Action,
    /// `v_sendtime_` and `v_transmits_`, `v_maxwnd_` slots each.
    sendtime: Vec<f64>,
    transmits: Vec<i32>,
}

impl Ns2Vegas {
    pub(super) fn new(alpha: f64, beta: f64, gamma: f64, delay_growth: bool, window: u32) -> Self {
        let slots = window.max(1) as usize;
        Ns2Vegas {
            alpha,
            beta,
            gamma,
            delay_growth,
            firstsent: SimTime::ZERO,
            t_cwnd_changed: 0.0,
            firstrecv: -1.0,
            slowstart: 2.0,
            sa: 0.0,
            sd: 0.0,
            timeout: 1000.0,
            rtt: 0.0,
            worried: 0,
            begseq: 0,
            begtime: 0.0,
            cnt_rtt: 0,
            sum_rtt: 0.0,
            base_rtt: 1_000_000_000.0,
            incr: 0.0,
            inc_flag: true,
            actual: 0.0,
            newcwnd: 0.0,
            recover: 0,
            action: Action::None,
            sendtime: vec![-1.0; slots],
            transmits: vec![0; slots],
        }
    }

    /// The initial window: one segment with `ns2_delay_growth`.
    pub(super) fn first_window(&self, window_init: f64) -> f64 {
        if self.delay_growth {
            1.0
        } else {
            window_init
        }
    }

    /// `v_actual_` (segments per second) and `v_rtt_` (seconds), which
    /// `RBPVegasTcpAgent::send_much` paces by (`sender/rbp.rs`).
    pub(super) fn actual_rate(&self) -> f64 {
        self.actual
    }

    pub(super) fn last_rtt(&self) -> f64 {
        self.rtt
    }

    fn time(&self, now: SimTime) -> f64 {
        now.as_secs_f64() - self.firstsent.as_secs_f64()
    }

    fn slot(&self, seq: i64) -> usize {
        (seq.rem_euclid(self.sendtime.len() as i64)) as usize
    }

    /// `send_much` with nothing sent yet (`t_seqno_ == 0`): `firstsent_`.
    pub(super) fn note_send_much(&mut self, now: SimTime) {
        self.firstsent = now;
    }

    /// `VegasTcpAgent::output`'s record of segment `seq` leaving at `now`.
    pub(super) fn on_output(&mut self, seq: u64, now: SimTime) {
        if seq == 0 {
            self.sendtime.fill(-1.0);
            self.transmits.fill(0);
        }
        let i = self.slot(seq as i64);
        self.sendtime[i] = self.time(now);
        self.transmits[i] += 1;
    }

    /// `vegas_expire`: the segment after `seqno` if it has waited `v_timeout_`.
    fn expire(&self, seqno: i64, now: SimTime) -> Option<i64> {
        let elapse = self.time(now) - self.sendtime[self.slot(seqno + 1)];
        (elapse >= self.timeout).then_some(seqno + 1)
    }
}

impl TcpSender {
    fn vegas(&mut self) -> &mut Ns2Vegas {
        self.ns2_vegas.as_deref_mut().expect("ns2 vegas")
    }

    /// `VegasTcpAgent::recv` for an ACK whose cumulative acknowledgement is `ack` (the next
    /// segment the receiver expects: ns-2's `seqno() + 1`).
    #[inline(never)]
    pub(super) fn on_ns2_vegas_ack(
        &mut self,
        now: SimTime,
        ack: u64,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let seqno = ack as i64 - 1;
        let last_ack = self.una as i64 - 1;
        let cur = self.vegas().time(now);
        let numdupacks = self.dupack_threshold;
        {
            let v = self.vegas();
            if v.firstrecv < 0.0 {
                v.firstrecv = cur;
                v.base_rtt = cur;
                v.rtt = cur;
                v.sa = cur * 8.0;
                v.sd = cur;
                v.timeout = (v.sa / 4.0 + v.sd) / 2.0;
            }
        }
        if seqno > last_ack && ack <= self.maxseq {
            if last_ack == 0 && self.vegas().delay_growth {
                self.w.cwnd = self.window_init;
                // A traced cwnd_ shows it before this ACK's growth.
                self.cwnd_step = Some(self.window_init);
            }
            let newcwnd = self.vegas().newcwnd;
            if self.dupacks > numdupacks && self.w.cwnd > newcwnd {
                self.w.cwnd = newcwnd;
                self.w.ssthresh = 2.0;
                self.cwnd_step = Some(newcwnd);
            }
            let oldack = last_ack;
            self.vegas_newack(now, ack, c);
            let t_seqno = self.nxt as i64;
            let (mut cwnd, mut ssthresh) = (self.w.cwnd, self.w.ssthresh);
            let v = self.ns2_vegas.as_deref_mut().expect("ns2 vegas");
            if seqno >= v.begseq {
                // Once per round trip.
                let rtt = if v.cnt_rtt > 0 {
                    v.sum_rtt / v.cnt_rtt as f64
                } else {
                    cur - v.begtime
                };
                v.sum_rtt = 0.0;
                v.cnt_rtt = 0;
                let rtt_len = t_seqno - v.begseq;
                if rtt > 0.0 {
                    if rtt < v.base_rtt || rtt_len <= 1 {
                        v.base_rtt = rtt;
                    }
                    let actual = rtt_len as f64 / rtt;
                    v.actual = actual;
                    let expect = (t_seqno - seqno) as f64 / v.base_rtt;
                    // C's int(): toward zero.
                    let delta = ((expect - actual) * v.base_rtt + 0.5).trunc();
                    if cwnd < ssthresh {
                        v.inc_flag = !v.inc_flag;
                        if !v.inc_flag {
                            v.incr = 0.0;
                        } else if delta > v.gamma {
                            ssthresh = 2.0;
                            cwnd -= cwnd / 8.0;
                            if cwnd < 2.0 {
                                cwnd = 2.0;
                            }
                            v.incr = 0.0;
                        } else {
                            v.incr = 1.0;
                        }
                    } else if delta > v.beta {
                        cwnd -= 1.0;
                        if cwnd < 2.0 {
                            cwnd = 2.0;
                        }
                        v.incr = 0.0;
                    } else if delta < v.alpha {
                        v.incr = 1.0 / cwnd;
                    } else {
                        v.incr = 0.0;
                    }
                }
                v.begseq = t_seqno;
                v.begtime = cur;
            }
            if v.incr == 1.0 && cwnd >= ssthresh {
                v.incr = 0.0;
            }
            if v.incr > 0.0 && cwnd - (t_seqno - seqno) as f64 <= 2.0 {
                cwnd += v.incr;
            }
            // The fine-grained sample, from the segment this ACK names; the slots of the
            // segments it acknowledges are cleared (ns-2's loop, which does nothing when the
            // range wraps past the end of the arrays).
            let i = v.slot(seqno);
            let (send_time, transmits) = (v.sendtime[i], v.transmits[i]);
            let m = v.sendtime.len() as i64;
            let mut range = seqno - oldack;
            let mut k = (oldack + 1).rem_euclid(m);
            while k <= seqno.rem_euclid(m) && range > 0 {
                v.sendtime[k as usize] = -1.0;
                v.transmits[k as usize] = 0;
                k = (k + 1) % m;
                range -= 1;
            }
            if send_time != 0.0 && transmits == 1 {
                let rtt = cur - send_time;
                v.sum_rtt += rtt;
                v.cnt_rtt += 1;
                if rtt > 0.0 {
                    v.rtt = rtt;
                    if v.rtt < v.base_rtt {
                        v.base_rtt = v.rtt;
                    }
                    let mut n = v.rtt - v.sa / 8.0;
                    v.sa += n;
                    n = n.abs();
                    n -= v.sd / 4.0;
                    v.sd += n;
                    v.timeout = (v.sa / 4.0 + v.sd) / 2.0;
                    v.timeout += v.timeout / 16.0;
                }
            }
            self.w.cwnd = cwnd;
            self.w.ssthresh = ssthresh;
            let v = self.vegas();
            if v.worried > 0 {
                v.worried -= 1;
                match v.expire(seqno, now) {
                    Some(e) => {
                        self.dupacks = numdupacks;
                        self.vegas_output(e, now, out, c);
                    }
                    None => v.worried = 0,
                }
            }
        } else if seqno == last_ack {
            self.dupacks += 1;
            let expired = self.vegas().expire(seqno, now);
            if expired.is_some() || self.dupacks == numdupacks {
                let v = self.ns2_vegas.as_deref().expect("ns2 vegas");
                let i = v.slot(last_ack + 1);
                let (send_time, transmits) = (v.sendtime[i], v.transmits[i]);
                let highest_ack = last_ack;
                if !self.careful || highest_ack > v.recover || v.action != Action::Timeout {
                    let mut win = self.window() as i64;
                    let t_seqno = self.nxt as i64;
                    let maxseq = self.maxseq as i64 - 1;
                    let v = self.vegas();
                    v.action = Action::Dupack;
                    v.recover = maxseq;
                    v.worried = 2.min(t_seqno - last_ack);
                    if transmits > 1 {
                        v.timeout *= 2.0;
                    } else {
                        v.timeout += v.timeout / 8.0;
                    }
                    if v.t_cwnd_changed < send_time {
                        win = if win <= 3 {
                            2
                        } else if transmits > 1 {
                            win >> 1
                        } else {
                            win - (win >> 2)
                        };
                        v.newcwnd = win as f64;
                        v.t_cwnd_changed = cur;
                        self.w.cwnd = win as f64 + self.dupacks as f64;
                    }
                    c.fast_retransmits += 1;
                    // reset_rtx_timer(1): back off, restart, no measurement running.
                    self.rtt.on_timeout();
                    self.arm_timer(now);
                    self.timed = None;
                    self.vegas_output(expired.unwrap_or(last_ack + 1), now, out, c);
                    if transmits == 1 {
                        self.dupacks = numdupacks;
                    }
                }
            } else if self.dupacks > numdupacks {
                self.w.cwnd += 1.0;
            }
        }
        if self.dupacks == 0 || self.dupacks >= numdupacks {
            self.send_much(now, out, c);
        }
    }

    /// `TcpAgent::newack` as `VegasTcpAgent::recv_newack_helper` calls it: the timer
    /// (`newtimer`, before the sample without `timerfix_`), the duplicate count, the RTT
    /// sample of the timed segment (which ends a backoff) and `awnd_`; no window growth.
    fn vegas_newack(&mut self, now: SimTime, ack: u64, c: &mut FlowCounters) {
        let early_rto = self.rtx_timer_before_sample.then(|| self.rtt.rto());
        self.dupacks = 0;
        self.una = ack;
        if self.nxt < self.una {
            self.nxt = self.una;
        }
        self.sample_rtt(now, ack, c);
        self.note_completion(now);
        self.rto_deadline = Some(now + early_rto.unwrap_or_else(|| self.rtt.rto()));
        self.note_ns2_newack();
    }

    /// `output(seqno, TCP_REASON_DUPACK)`: segment `seq` again (or, when it was never sent,
    /// for the first time: `t_seqno_` stays, as in ns-2).
    fn vegas_output(
        &mut self,
        seq: i64,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        self.emit(seq.max(0) as u64, now, out, c);
    }

    /// `VegasTcpAgent::timeout` (the retransmission timer, `TCP_TIMER_RTX`): ssthresh half
    /// the window, cwnd v_slowstart_, go back N; with nothing outstanding and
    /// `slow_start_restart_` false, nothing.
    #[inline(never)]
    pub(super) fn on_ns2_vegas_timeout(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if self.idle_timeout_keeps_window && self.una >= self.maxseq {
            // `highest_ack_ == maxseq_ && !slow_start_restart_`: nothing at all, and the
            // timer is not set again.
            return;
        }
        c.timeouts += 1;
        self.dupacks = 0;
        let maxseq = self.maxseq as i64 - 1;
        let cur = self.vegas().time(now);
        {
            let v = self.vegas();
            v.recover = maxseq;
            v.action = Action::Timeout;
        }
        // reset_rtx_timer(0): back off, restart, t_seqno_ = highest_ack_ + 1.
        self.rtt.on_timeout();
        self.arm_timer(now);
        self.nxt = self.una;
        self.timed = None;
        // slowdown(CLOSE_CWND_RESTART | CLOSE_SSTHRESH_HALF) after a timeout: ssthresh_ =
        // (int) halfwin, at least 2; cwnd_ = wnd_restart_ (then v_slowstart_).
        let half = if self.whole_reduce {
            (self.window() / 2) as f64
        } else {
            self.w.cwnd.min(self.w.rwnd) / 2.0
        };
        self.w.ssthresh = half.floor().max(2.0);
        // slowdown sets cong_action_, which VegasTcpAgent::output never copies into a
        // segment: no segment of it is marked.
        self.first_decrease = false;
        // A traced cwnd_ shows wnd_restart_ before v_slowstart_.
        self.cwnd_step = Some(1.0);
        let v = self.ns2_vegas.as_deref_mut().expect("ns2 vegas");
        self.w.cwnd = v.slowstart;
        v.newcwnd = 0.0;
        v.t_cwnd_changed = cur;
        self.send_much(now, out, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000_000;

    #[test]
    fn first_window_and_send_records() {
        let mut v = Ns2Vegas::new(1.0, 3.0, 1.0, true, 4);
        assert_eq!(v.first_window(2.0), 1.0);
        assert_eq!(
            Ns2Vegas::new(1.0, 3.0, 1.0, false, 4).first_window(2.0),
            2.0
        );
        v.note_send_much(SimTime(100 * MS));
        v.on_output(0, SimTime(100 * MS));
        v.on_output(5, SimTime(150 * MS)); // slot 5 mod 4 = 1
        assert_eq!(v.sendtime[0], 0.0); // vegastime() counts from firstsent_
        assert!((v.sendtime[1] - 0.05).abs() < 1e-12);
        assert_eq!(v.transmits[1], 1);
        v.on_output(5, SimTime(160 * MS));
        assert_eq!(v.transmits[1], 2);
        // Segment 0 again resets both arrays (VegasTcpAgent::output).
        v.on_output(0, SimTime(170 * MS));
        assert_eq!((v.transmits[1], v.sendtime[1]), (0, -1.0));
    }

    #[test]
    fn expire_after_v_timeout() {
        let mut v = Ns2Vegas::new(1.0, 3.0, 1.0, true, 8);
        v.note_send_much(SimTime::ZERO);
        v.on_output(3, SimTime(10 * MS));
        v.timeout = 0.05;
        // vegas_expire(seqno 2): segment 3 has waited 0.04 s, then 0.051 s.
        assert_eq!(v.expire(2, SimTime(50 * MS)), None);
        assert_eq!(v.expire(2, SimTime(61 * MS)), Some(3));
    }
}
