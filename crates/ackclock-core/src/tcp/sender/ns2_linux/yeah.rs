//! YeAH-TCP as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_yeah.c, Linux 2.6.22's), on
//! Vegas' samples (vegas.rs), in `unsigned long` arithmetic.
//!
//! - `tcp_yeah_init`: Vegas' init, Reno mode off, `reno_count` 2, the clamp at most 2^32 /
//!   128.
//! - `tcp_yeah_pkts_acked`: in Open the ACK's segments for the next Scalable step; Vegas'
//!   sample.
//! - `tcp_yeah_cong_avoid`: when cwnd-limited, slow start as Linux's; above ssthresh
//!   Scalable's +1 per min(cwnd, 100) segments acknowledged ("fast" mode) or Reno's +1 per
//!   cwnd ACKs ("slow" mode: `doing_reno_now`). Once per round (an ACK beyond
//!   `beg_snd_nxt`), with more than two samples: `queue` = cwnd x (minRTT - baseRTT) /
//!   minRTT; above 80 segments (or RTT above baseRTT x 9/8) slow mode, and above 80 with cwnd
//!   above `reno_count` cwnd falls by min(queue, cwnd / 2) (not below `reno_count`) and
//!   ssthresh follows ("precautionary decongestion"); else fast mode, `reno_count` back to 2
//!   after 50 fast rounds. The round restarts at `snd_nxt`.
//! - `tcp_yeah_ssthresh`: cwnd less min(last queue, max(cwnd / 2, 2)), at least cwnd / 8,
//!   while fewer than 16 slow rounds; else Reno's half. `min_cwnd` Reno's; `set_state`
//!   Vegas'.

use super::modules::{Env, State, Tp};
use super::vegas::Vegas;

const TCP_YEAH_ALPHA: u64 = 80;
const TCP_YEAH_GAMMA: u64 = 1;
const TCP_YEAH_DELTA: u32 = 3;
const TCP_YEAH_EPSILON: u32 = 1;
const TCP_YEAH_PHY: u64 = 8;
const TCP_YEAH_RHO: u64 = 16;
const TCP_YEAH_ZETA: u64 = 50;
const TCP_SCALABLE_AI_CNT: i64 = 100;

/// `struct yeah`; the fields the C never initialises start at zero, as the agent's fresh
/// `icsk_ca_priv`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Yeah {
    pub(crate) vegas: Vegas,
    last_q: u64,
    doing_reno_now: u64,
    reno_count: u64,
    fast_count: u64,
    pkts_acked: u64,
}

impl Yeah {
    /// `tcp_yeah_init`.
    pub(crate) fn init(&mut self, tp: &mut Tp, env: &Env) {
        self.vegas.init(env);
        self.doing_reno_now = 0;
        self.last_q = 0;
        self.reno_count = 2;
        tp.snd_cwnd_clamp = tp.snd_cwnd_clamp.min(0xffff_ffff / 128);
    }

    /// `tcp_yeah_pkts_acked`.
    pub(crate) fn pkts_acked(&mut self, cnt: u32, last: i64, state: State, env: &Env) {
        if state == State::Open {
            self.pkts_acked = cnt as u64;
        }
        self.vegas.pkts_acked(last, env);
    }

    /// `tcp_yeah_cong_avoid` for an ACK up to `ack` (bytes).
    pub(crate) fn cong_avoid(&mut self, tp: &mut Tp, ack: u64, in_flight: i64, env: &Env) {
        if in_flight < tp.snd_cwnd {
            return;
        }
        if tp.snd_cwnd <= tp.snd_ssthresh {
            tp.slow_start();
        } else if self.doing_reno_now == 0 {
            // Scalable.
            tp.snd_cwnd_cnt += self.pkts_acked as i64;
            if tp.snd_cwnd_cnt > tp.snd_cwnd.min(TCP_SCALABLE_AI_CNT) {
                if tp.snd_cwnd < tp.snd_cwnd_clamp {
                    tp.snd_cwnd += 1;
                }
                tp.snd_cwnd_cnt = 0;
            }
            self.pkts_acked = 1;
        } else {
            // Reno.
            if tp.snd_cwnd_cnt < tp.snd_cwnd {
                tp.snd_cwnd_cnt += 1;
            }
            if tp.snd_cwnd_cnt >= tp.snd_cwnd {
                tp.snd_cwnd += 1;
                tp.snd_cwnd_cnt = 0;
            }
        }
        let v = &mut self.vegas;
        if v.beg_snd_nxt < ack {
            if v.cnt_rtt > 2 {
                let rtt = v.min_rtt;
                let cwnd = tp.snd_cwnd as u64;
                // do_div: a 32-bit divisor.
                let queue = cwnd.wrapping_mul(rtt.wrapping_sub(v.base_rtt)) / (rtt as u32 as u64);
                if queue > TCP_YEAH_ALPHA
                    || rtt.wrapping_sub(v.base_rtt) > v.base_rtt / TCP_YEAH_PHY
                {
                    if queue > TCP_YEAH_ALPHA && cwnd > self.reno_count {
                        let reduction = (queue / TCP_YEAH_GAMMA).min(cwnd >> TCP_YEAH_EPSILON);
                        let w = (cwnd - reduction).max(self.reno_count);
                        tp.snd_cwnd = w as i64;
                        tp.snd_ssthresh = w as i64;
                    }
                    if self.reno_count <= 2 {
                        self.reno_count = ((tp.snd_cwnd as u64) >> 1).max(2);
                    } else {
                        self.reno_count += 1;
                    }
                    self.doing_reno_now = (self.doing_reno_now + 1).min(0xff_ffff);
                } else {
                    self.fast_count = self.fast_count.wrapping_add(1);
                    if self.fast_count > TCP_YEAH_ZETA {
                        self.reno_count = 2;
                        self.fast_count = 0;
                    }
                    self.doing_reno_now = 0;
                }
                self.last_q = queue;
            }
            let v = &mut self.vegas;
            v.beg_snd_una = v.beg_snd_nxt;
            v.beg_snd_nxt = env.snd_nxt;
            v.beg_snd_cwnd = tp.snd_cwnd as u64;
            v.cnt_rtt = 0;
            v.min_rtt = 0x7fff_ffff;
        }
    }

    /// `tcp_yeah_ssthresh`.
    pub(crate) fn ssthresh(&mut self, tp: &Tp) -> i64 {
        let w = tp.snd_cwnd as u64;
        let reduction = if self.doing_reno_now < TCP_YEAH_RHO {
            self.last_q.min((w >> 1).max(2)).max(w >> TCP_YEAH_DELTA)
        } else {
            (w >> 1).max(2)
        };
        self.fast_count = 0;
        self.reno_count = (self.reno_count >> 1).max(2);
        w.wrapping_sub(reduction) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::{env, tp};

    /// A round at cwnd 200 whose fastest sample took 2 x baseRTT: queue 100 > 80: cwnd
    /// falls by 100 to 100, ssthresh follows, `reno_count` 50, slow mode; a loss then takes
    /// away min(queue 100, 50) = 50. Fast mode grows +1 per 100 segments acknowledged.
    #[test]
    fn yeah_as_linux_2_6() {
        let mut y = Yeah::default();
        let mut t = tp(200, 10);
        y.init(&mut t, &env(0, 1_000));
        y.pkts_acked(2, 0, State::Open, &env(0, 0));
        t.snd_cwnd_cnt = 99;
        y.cong_avoid(&mut t, 500, 200, &env(0, 0));
        assert_eq!((t.snd_cwnd, t.snd_cwnd_cnt, y.pkts_acked), (201, 0, 1));
        let mut t = tp(200, 10);
        y.vegas.cnt_rtt = 3;
        y.vegas.base_rtt = 100_000;
        y.vegas.min_rtt = 200_000;
        y.cong_avoid(&mut t, 2_000, 200, &env(0, 300_000));
        assert_eq!((t.snd_cwnd, t.snd_ssthresh), (100, 100));
        assert_eq!((y.reno_count, y.doing_reno_now, y.last_q), (50, 1, 100));
        assert_eq!(y.vegas.beg_snd_nxt, 300_000);
        assert_eq!(y.ssthresh(&t), 50);
        assert_eq!(y.reno_count, 25);
    }
}
