//! TCP Vegas as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_vegas.c, Linux 2.6.22's), in
//! the agent's `unsigned long` arithmetic (`u32` is `unsigned long` in ns-linux-util.h: 64
//! bits in ns-2.35's x86-64 build). Also the parts `yeah` shares (`tcp_vegas_init`,
//! `tcp_vegas_pkts_acked`, `tcp_vegas_state`).
//!
//! - `tcp_vegas_pkts_acked`: with a send time (`last`, ns-2's `tss` of the acknowledged
//!   segment), the sample in microseconds + 1 lowers `baseRTT` (ever) and `minRTT` (this
//!   round) and counts `cntRTT`.
//! - `tcp_vegas_cong_avoid`: once per round (an ACK beyond `beg_snd_nxt`), with more than two
//!   samples: `target_cwnd` = segments sent in the last round x baseRTT / minRTT (x 2), `diff`
//!   = segments - target (x 2, unsigned); in slow start `diff` > gamma sets ssthresh 2 and
//!   cwnd min(cwnd, target + 1) before `tcp_slow_start`; above ssthresh cwnd moves one segment
//!   toward the last round's cwnd -1 (diff > beta), +1 (diff < alpha) or = (between); cwnd in
//!   [2, clamp]. With two samples or fewer, Reno's rule; between rounds `tcp_slow_start` below
//!   ssthresh. Not doing Vegas (`doing_vegas_now` 0 outside Open): Reno's rule.
//! - `tcp_vegas_state`: Open re-enables (`vegas_enable`: the round starts at `snd_nxt`, no
//!   samples), the other states disable.

use super::modules::{Env, State, Tp};

/// Vegas' alpha, beta and gamma (x 2, `V_PARAM_SHIFT` 1) at their defaults.
const V_PARAM_SHIFT: u32 = 1;
const ALPHA: u64 = 2 << V_PARAM_SHIFT;
const BETA: u64 = 4 << V_PARAM_SHIFT;
const GAMMA: u64 = 1 << V_PARAM_SHIFT;

/// `struct vegas` (tcp_vegas.h); sequence numbers in bytes as Linux's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Vegas {
    pub(crate) beg_snd_nxt: u64,
    pub(crate) beg_snd_una: u64,
    pub(crate) beg_snd_cwnd: u64,
    pub(crate) doing_vegas_now: bool,
    /// `u16` is `unsigned int` in ns-linux-util.h.
    pub(crate) cnt_rtt: u32,
    pub(crate) min_rtt: u64,
    pub(crate) base_rtt: u64,
}

impl Vegas {
    /// `vegas_enable`.
    pub(crate) fn enable(&mut self, env: &Env) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = env.snd_nxt;
        self.cnt_rtt = 0;
        self.min_rtt = 0x7fff_ffff;
    }

    /// `tcp_vegas_init`.
    pub(crate) fn init(&mut self, env: &Env) {
        self.base_rtt = 0x7fff_ffff;
        self.enable(env);
    }

    /// `tcp_vegas_pkts_acked`: `last` the acknowledged segment's send time in ns (0: none).
    pub(crate) fn pkts_acked(&mut self, last: i64, env: &Env) {
        if last == 0 {
            return;
        }
        let vrtt = (env.usecs_since(last) as u64).wrapping_add(1);
        if vrtt < self.base_rtt {
            self.base_rtt = vrtt;
        }
        self.min_rtt = self.min_rtt.min(vrtt);
        self.cnt_rtt = self.cnt_rtt.wrapping_add(1);
    }

    /// `tcp_vegas_state`.
    pub(crate) fn set_state(&mut self, state: State, env: &Env) {
        if state == State::Open {
            self.enable(env);
        } else {
            self.doing_vegas_now = false;
        }
    }

    /// `tcp_vegas_cong_avoid` for an ACK up to `ack` (bytes).
    pub(crate) fn cong_avoid(&mut self, tp: &mut Tp, ack: u64, in_flight: i64, env: &Env) {
        if !self.doing_vegas_now {
            tp.reno_cong_avoid(in_flight);
            return;
        }
        if self.beg_snd_nxt < ack {
            let old_wnd = self.beg_snd_nxt.wrapping_sub(self.beg_snd_una) / env.mss;
            let old_snd_cwnd = self.beg_snd_cwnd;
            self.beg_snd_una = self.beg_snd_nxt;
            self.beg_snd_nxt = env.snd_nxt;
            self.beg_snd_cwnd = tp.snd_cwnd as u64;
            if self.cnt_rtt <= 2 {
                tp.reno_cong_avoid(in_flight);
            } else {
                let rtt = self.min_rtt;
                let target_cwnd = (old_wnd.wrapping_mul(self.base_rtt) << V_PARAM_SHIFT) / rtt;
                let diff = (old_wnd << V_PARAM_SHIFT).wrapping_sub(target_cwnd);
                let cwnd = tp.snd_cwnd as u64;
                if tp.snd_cwnd <= tp.snd_ssthresh {
                    if diff > GAMMA {
                        // Going too fast: congestion avoidance at the actual rate.
                        tp.snd_ssthresh = 2;
                        tp.snd_cwnd = cwnd.min((target_cwnd >> V_PARAM_SHIFT) + 1) as i64;
                    }
                    tp.slow_start();
                } else {
                    let next = if diff > BETA {
                        old_snd_cwnd.wrapping_sub(1)
                    } else if diff < ALPHA {
                        old_snd_cwnd.wrapping_add(1)
                    } else {
                        old_snd_cwnd
                    };
                    if next > cwnd {
                        tp.snd_cwnd += 1;
                    } else if next < cwnd {
                        tp.snd_cwnd -= 1;
                    }
                }
                if tp.snd_cwnd < 2 {
                    tp.snd_cwnd = 2;
                } else if tp.snd_cwnd > tp.snd_cwnd_clamp {
                    tp.snd_cwnd = tp.snd_cwnd_clamp;
                }
            }
            self.cnt_rtt = 0;
            self.min_rtt = 0x7fff_ffff;
        } else if tp.snd_cwnd <= tp.snd_ssthresh {
            tp.slow_start();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::{env, tp};

    /// A round of 20 segments whose fastest sample took 1.25 x baseRTT: target 16, diff 4
    /// (x 2: 8) <= beta 8 and >= alpha 4: cwnd stays; slower (diff above beta): one less.
    #[test]
    fn vegas_once_per_round() {
        let mut v = Vegas::default();
        let e = env(0, 20_000);
        v.init(&e);
        v.beg_snd_cwnd = 20;
        for us in [100_000, 125_000, 130_000] {
            v.pkts_acked(1_000_000_000 - us * 1000, &env(0, 20_000));
        }
        assert_eq!((v.base_rtt, v.min_rtt, v.cnt_rtt), (100_001, 100_001, 3));
        v.min_rtt = 125_001;
        let mut t = tp(20, 10);
        v.cong_avoid(&mut t, 21_000, 20, &env(20_000, 40_000));
        assert_eq!(t.snd_cwnd, 20);
        assert_eq!(
            (v.beg_snd_una, v.beg_snd_nxt, v.cnt_rtt),
            (20_000, 40_000, 0)
        );
        // Next round: 20 segments at 2 x baseRTT: target 10, diff 10 x 2 > beta.
        v.cnt_rtt = 3;
        v.min_rtt = 200_002;
        v.cong_avoid(&mut t, 41_000, 20, &env(40_000, 60_000));
        assert_eq!(t.snd_cwnd, 19);
        // In slow start, diff above gamma: ssthresh 2, cwnd to the target + 1, then +1.
        let mut t = tp(30, 100);
        t.bytes_acked = 1;
        v.cnt_rtt = 3;
        v.min_rtt = 200_002;
        v.cong_avoid(&mut t, 61_000, 30, &env(60_000, 80_000));
        assert_eq!((t.snd_ssthresh, t.snd_cwnd), (2, 12));
        // Outside Open: Reno's rule.
        v.set_state(State::Recovery, &e);
        assert!(!v.doing_vegas_now);
        v.set_state(State::Open, &env(0, 90_000));
        assert_eq!(
            (v.beg_snd_nxt, v.cnt_rtt, v.min_rtt),
            (90_000, 0, 0x7fff_ffff)
        );
    }
}
