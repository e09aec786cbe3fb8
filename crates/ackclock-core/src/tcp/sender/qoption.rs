//! ns-2.35's `QOption_` (tcp/tcp.cc): a one-way agent that stops sending for a while, or
//! sends less than its window allows, lowers its window after each data segment it sends
//! (`TcpAgent::process_qoption_after_send`, called by `send_much` and `send_one`), in the
//! manner of RFC 2861's congestion window validation:
//!
//! - Idle for at least one RTO (`t_rtxcur_` in whole ticks, since the last segment sent):
//!   ssthresh at least 3/4 of cwnd, then cwnd halved once per RTO idle, never below one
//!   segment (`slowdown(THREE_QUARTER_SSTHRESH)`, `slowdown(CWND_HALF_WITH_MIN)`).
//! - Application-limited (the segment just sent is the last the application gave) for an RTO
//!   since the window was last full: ssthresh at least 3/4 of cwnd, and cwnd half way between
//!   the largest flight used (`W_used`) and itself (`slowdown(CLOSE_CWND_HALF_WAY)`).
//! - With every data acknowledged (`curseq_ == highest_ack_ + 1`) the retransmission timer is
//!   cancelled (`TcpAgent::recv_newack_helper`) instead of running on.
//!
//! With `EnblRTTCtr_` (`rtt_count`) time is counted in round trips, not RTOs, for a coarse
//! timer (`TcpAgent::rtt_counting`): the round trips since the last send are estimated from
//! the smoothed RTT and the round trips counted per two smoothed RTTs (`RTT_goodcount`),
//! and the round trips counted by ACKs (`TcpAgent::process_qoption_after_ack`, called by
//! `TcpAgent::recv`, Tahoe's) decide when an application-limited sender is reduced.
//! Time is ns-2's: ticks of `tcpTick_` (`RttEstimator::ns2_qoption_clock`).

use super::*;

/// `QOption_` and `EnblRTTCtr_` (ns-2.35 `Agent/TCP`): off, on, or on with round trips
/// counted.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Ns2Qoption {
    #[default]
    Off,
    Rto,
    RttCount,
}

/// The agent's `QOption_` state (tcp/tcp.h), times in ticks.
#[derive(Clone, Debug)]
pub(super) struct Qoption {
    pub(super) rtt_count_mode: bool,
    pub(super) t_last: i64,
    pub(super) t_prev: i64,
    pub(super) w_used: i64,
    pub(super) t_start: i64,
    pub(super) rtt_count: i64,
    pub(super) rtt_prev: i64,
    pub(super) rtt_goodcount: i64,
    pub(super) f_counting: bool,
    pub(super) w_timed: i64,
    pub(super) f_full: bool,
    pub(super) backoffs: i64,
}

impl Qoption {
    /// `TcpAgent::reset` at the run's start (time 0) and `reset_qoption`.
    pub(super) fn new(mode: Ns2Qoption) -> Option<Box<Qoption>> {
        (mode != Ns2Qoption::Off).then(|| {
            Box::new(Qoption {
                rtt_count_mode: mode == Ns2Qoption::RttCount,
                t_last: 0,
                t_prev: 0,
                w_used: 0,
                t_start: 0,
                rtt_count: 0,
                rtt_prev: 0,
                rtt_goodcount: 1,
                f_counting: false,
                w_timed: -1,
                f_full: false,
                backoffs: 0,
            })
        })
    }
}

/// The window reductions `process_qoption_after_send` and `rtt_counting` make.
enum Cut {
    /// Idle: ssthresh to 3/4 of cwnd, then cwnd halved `halvings` times (at least one).
    Idle { halvings: i64 },
    /// Application-limited: ssthresh to 3/4 of cwnd, cwnd half way down to `w_used`.
    HalfWay { w_used: i64 },
}

impl TcpSender {
    /// `TcpAgent::process_qoption_after_send` for the data segment `seq` just sent.
    #[cold]
    #[inline(never)]
    pub(super) fn qoption_after_send(&mut self, now: SimTime, seq: u64) {
        let Some(mut q) = self.qoption.take() else {
            return;
        };
        if let Some((tcp_now, rto, srtt)) = self.rtt.ns2_qoption_clock(now) {
            let highest_ack = self.una as i64 - 1;
            let last = self.app_limit.min(i64::MAX as u64) as i64 - 1;
            let seq = seq as i64;
            if q.rtt_count_mode {
                self.rtt_counting(&mut q, tcp_now, srtt.max(1), seq, highest_ack, last);
            } else {
                let rto = rto.max(1);
                if tcp_now - q.t_last >= rto {
                    // The sender has been idle.
                    self.qoption_cut(Cut::Idle {
                        halvings: (tcp_now - q.t_last) / rto,
                    });
                    q.t_prev = tcp_now;
                    q.w_used = 0;
                }
                q.t_last = tcp_now;
                if seq == highest_ack + self.window() as i64 {
                    q.t_prev = tcp_now;
                    q.w_used = 0;
                } else if seq == last {
                    // The sender has no more data to send.
                    q.w_used = q.w_used.max(seq - highest_ack);
                    if tcp_now - q.t_prev >= rto {
                        // ... and has been application-limited for an RTO.
                        self.qoption_cut(Cut::HalfWay { w_used: q.w_used });
                        q.t_prev = tcp_now;
                        q.w_used = 0;
                    }
                }
            }
        }
        self.qoption = Some(q);
    }

    /// `TcpAgent::rtt_counting`: `process_qoption_after_send` with `EnblRTTCtr_`.
    fn rtt_counting(
        &mut self,
        q: &mut Qoption,
        tcp_now: i64,
        rtt: i64,
        seq: i64,
        highest_ack: i64,
        last: i64,
    ) {
        if tcp_now - q.t_last >= 2 * rtt {
            // Idle: the round trips it lasted, as counted per two smoothed RTTs, less those
            // already cut for while application-limited.
            let rtts = (tcp_now - q.t_last) * q.rtt_goodcount / (rtt * 2) - q.backoffs;
            q.backoffs = 0;
            if rtts > 0 {
                self.qoption_cut(Cut::Idle { halvings: rtts });
                q.rtt_prev = q.rtt_count;
                q.w_used = 0;
            }
        }
        q.t_last = tcp_now;
        if tcp_now - q.t_start >= 2 * rtt {
            if q.rtt_count > q.rtt_goodcount || q.f_full {
                q.rtt_goodcount = q.rtt_count.max(1);
            }
            q.rtt_prev -= q.rtt_count;
            q.rtt_count = 0;
            q.t_start = tcp_now;
            q.f_full = false;
        }
        if seq == highest_ack + self.window() as i64 {
            q.w_used = 0;
            q.f_full = true;
            q.rtt_prev = q.rtt_count;
        } else if seq == last {
            q.w_used = q.w_used.max(seq - highest_ack);
            if q.rtt_count - q.rtt_prev >= 2 {
                self.qoption_cut(Cut::HalfWay { w_used: q.w_used });
                q.rtt_prev = q.rtt_count;
                q.backoffs += 1;
                q.w_used = 0;
            }
        }
        if !q.f_counting {
            q.w_timed = seq;
            q.f_counting = true;
        }
    }

    /// `TcpAgent::process_qoption_after_ack` (`EnblRTTCtr_`), for an ACK of `ack` (the next
    /// segment expected: ns-2's seqno + 1) that leaves `dupacks` duplicates counted: a
    /// round trip ends with the ACK of the segment timed for it, or with the duplicate that
    /// starts a fast retransmit. Called before the ACK's sending, as `TcpAgent::recv` does.
    #[cold]
    #[inline(never)]
    pub(super) fn qoption_after_ack(&mut self, ack: u64, dupacks: u32) {
        let thresh = self.dupack_threshold;
        if let Some(q) = self.qoption.as_deref_mut() {
            if q.rtt_count_mode && q.f_counting {
                // ns-2's seqno (ack - 1) at or beyond W_timed.
                if ack as i64 > q.w_timed {
                    q.rtt_count += 1;
                    q.f_counting = false;
                } else if dupacks == thresh {
                    q.rtt_count += 1;
                }
            }
        }
    }

    /// `TcpAgent::slowdown` with `THREE_QUARTER_SSTHRESH`, then `CWND_HALF_WITH_MIN` or
    /// `CLOSE_CWND_HALF_WAY` (each with `TCP_IDLE`, which marks no congestion action), at
    /// `decrease_num_` 0.5: window() and windowd() are min(cwnd_, wnd_), whole with
    /// `precisionReduce_ false`; ssthresh_ at least 2, cwnd_ at least one segment.
    fn qoption_cut(&mut self, cut: Cut) {
        let three_quarter = (3.0 * self.w.cwnd / 4.0).floor();
        if self.w.ssthresh < three_quarter {
            self.w.ssthresh = three_quarter;
        }
        self.w.ssthresh = self.w.ssthresh.max(2.0);
        self.w.cwnd = self.w.cwnd.max(1.0);
        let mut halvings = match cut {
            Cut::Idle { halvings } => halvings,
            Cut::HalfWay { .. } => 1,
        };
        while halvings > 0 {
            halvings -= 1;
            let win = if self.whole_reduce {
                self.window() as f64
            } else {
                self.w.cwnd.min(self.w.rwnd)
            };
            self.w.cwnd = match cut {
                Cut::Idle { .. } if self.whole_reduce => (0.5 * win).floor(),
                Cut::Idle { .. } => 0.5 * win,
                Cut::HalfWay { w_used } => w_used as f64 + 0.5 * (win - w_used as f64),
            }
            .max(1.0);
            self.w.ssthresh = self.w.ssthresh.max(2.0);
            if self.w.cwnd <= 1.0 {
                break; // halving one segment leaves one segment
            }
        }
        self.first_decrease = false; // every slowdown() clears first_decrease_
    }
}
