//! TCP Illinois as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_illinois.c, Linux
//! 2.6.22's), win_thresh 15, theta 5, in `unsigned long` arithmetic (`u16` is `unsigned
//! int`, `u8` a byte).
//!
//! - `tcp_illinois_acked` (`pkts_acked`): the ACK's segments; with a send time, the RTT in
//!   microseconds (at most `RTT_MAX`) sets the base (min) and max RTT and adds to this
//!   round's sum and count.
//! - `tcp_illinois_cong_avoid`: once per round (an ACK beyond `end_seq`) `update_params`:
//!   below 15 segments alpha 1 and beta 1/2, else from the average queueing delay da and the
//!   maximum dm: alpha 10 while da <= dm / 100 (after 5 such rounds once it went above),
//!   else dm x 10 / (dm + da x 9.7 / 0.3) (less d1 from both); beta 1/8 up to dm / 10, 1/2
//!   from 8 dm / 10, linear between; the round restarts at `snd_nxt`. Then, when
//!   cwnd-limited, slow start as Linux's, else `snd_cwnd_cnt` += the segments acknowledged
//!   and cwnd += (cnt x alpha / 128) / cwnd once that reaches cwnd.
//! - `tcp_illinois_ssthresh`: max(cwnd x beta / 64, 2); `min_cwnd` Reno's.
//! - `tcp_illinois_state`: Loss resets alpha, beta, the low-delay count and the round.

use super::modules::{Env, State, Tp};

const ALPHA_SHIFT: u32 = 7;
const ALPHA_SCALE: u64 = 1 << ALPHA_SHIFT;
const ALPHA_MIN: u64 = (3 * ALPHA_SCALE) / 10;
const ALPHA_MAX: u64 = 10 * ALPHA_SCALE;
const ALPHA_BASE: u64 = ALPHA_SCALE;
/// `U32_MAX` = `(u32)~0U`: ~0U is a 32-bit unsigned int.
const RTT_MAX: u64 = 0xffff_ffff / ALPHA_MAX;
const BETA_SHIFT: u32 = 6;
const BETA_SCALE: u64 = 1 << BETA_SHIFT;
const BETA_MIN: u64 = BETA_SCALE / 8;
const BETA_MAX: u64 = BETA_SCALE / 2;
const BETA_BASE: u64 = BETA_MAX;
const WIN_THRESH: i64 = 15;
const THETA: u8 = 5;

/// `struct illinois`; `end_seq` in bytes as Linux's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Illinois {
    sum_rtt: u64,
    cnt_rtt: u32,
    base_rtt: u64,
    max_rtt: u64,
    end_seq: u64,
    alpha: u64,
    beta: u64,
    acked: u32,
    rtt_above: u8,
    rtt_low: u8,
}

impl Illinois {
    /// `rtt_reset`.
    fn rtt_reset(&mut self, env: &Env) {
        self.end_seq = env.snd_nxt;
        self.cnt_rtt = 0;
        self.sum_rtt = 0;
    }

    /// `tcp_illinois_init`.
    pub(crate) fn init(&mut self, env: &Env) {
        self.alpha = ALPHA_MAX;
        self.beta = BETA_BASE;
        self.base_rtt = 0x7fff_ffff;
        self.max_rtt = 0;
        self.acked = 0;
        self.rtt_low = 0;
        self.rtt_above = 0;
        self.rtt_reset(env);
    }

    /// `tcp_illinois_acked`.
    pub(crate) fn pkts_acked(&mut self, cnt: u32, last: i64, env: &Env) {
        self.acked = cnt;
        if last == 0 {
            return;
        }
        let mut rtt = env.usecs_since(last) as u64;
        if rtt > RTT_MAX {
            rtt = RTT_MAX;
        }
        if self.base_rtt > rtt {
            self.base_rtt = rtt;
        }
        if self.max_rtt < rtt {
            self.max_rtt = rtt;
        }
        self.cnt_rtt = self.cnt_rtt.wrapping_add(1);
        self.sum_rtt = self.sum_rtt.wrapping_add(rtt);
    }

    /// `alpha`.
    fn alpha(&mut self, da: u64, dm: u64) -> u64 {
        let d1 = dm / 100;
        if da <= d1 {
            if self.rtt_above == 0 {
                return ALPHA_MAX;
            }
            self.rtt_low = self.rtt_low.wrapping_add(1);
            if self.rtt_low < THETA {
                return self.alpha;
            }
            self.rtt_low = 0;
            self.rtt_above = 0;
            return ALPHA_MAX;
        }
        self.rtt_above = 1;
        let dm = dm - d1;
        let da = da - d1;
        dm.wrapping_mul(ALPHA_MAX)
            / dm.wrapping_add(da.wrapping_mul(ALPHA_MAX - ALPHA_MIN) / ALPHA_MIN)
    }

    /// `update_params`.
    fn update_params(&mut self, tp: &Tp, env: &Env) {
        if tp.snd_cwnd < WIN_THRESH {
            self.alpha = ALPHA_BASE;
            self.beta = BETA_BASE;
        } else if self.cnt_rtt > 0 {
            let dm = self.max_rtt.wrapping_sub(self.base_rtt);
            // avg_delay: do_div by the (32-bit) count.
            let da = (self.sum_rtt / self.cnt_rtt as u64).wrapping_sub(self.base_rtt);
            self.alpha = self.alpha(da, dm);
            self.beta = beta(da, dm);
        }
        self.rtt_reset(env);
    }

    /// `tcp_illinois_state`.
    pub(crate) fn set_state(&mut self, state: State, env: &Env) {
        if state == State::Loss {
            self.alpha = ALPHA_BASE;
            self.beta = BETA_BASE;
            self.rtt_low = 0;
            self.rtt_above = 0;
            self.rtt_reset(env);
        }
    }

    /// `tcp_illinois_cong_avoid` for an ACK up to `ack` (bytes).
    pub(crate) fn cong_avoid(&mut self, tp: &mut Tp, ack: u64, in_flight: i64, env: &Env) {
        if self.end_seq < ack {
            self.update_params(tp, env);
        }
        if in_flight < tp.snd_cwnd {
            return;
        }
        if tp.snd_cwnd <= tp.snd_ssthresh {
            tp.slow_start();
        } else {
            tp.snd_cwnd_cnt += self.acked as i64;
            self.acked = 1;
            let delta = ((tp.snd_cwnd_cnt as u64).wrapping_mul(self.alpha)) >> ALPHA_SHIFT;
            if delta >= tp.snd_cwnd as u64 {
                tp.snd_cwnd =
                    (tp.snd_cwnd + (delta / tp.snd_cwnd as u64) as i64).min(tp.snd_cwnd_clamp);
                tp.snd_cwnd_cnt = 0;
            }
        }
    }

    /// `tcp_illinois_ssthresh`.
    pub(crate) fn ssthresh(&self, tp: &Tp) -> i64 {
        (((tp.snd_cwnd as u64).wrapping_mul(self.beta)) >> BETA_SHIFT).max(2) as i64
    }
}

/// `beta`.
fn beta(da: u64, dm: u64) -> u64 {
    let d2 = dm / 10;
    if da <= d2 {
        return BETA_MIN;
    }
    let d3 = (8 * dm) / 10;
    if da >= d3 || d3 <= d2 {
        return BETA_MAX;
    }
    (BETA_MIN
        .wrapping_mul(d3)
        .wrapping_sub(BETA_MAX.wrapping_mul(d2))
        .wrapping_add((BETA_MAX - BETA_MIN).wrapping_mul(da)))
        / (d3 - d2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::{env, tp};

    /// Base RTT 100 ms, max 200 ms (dm 100 ms): an average queueing delay of 50 ms gives
    /// alpha = 99 x 1280 / (99 + 49 x 1242 / 38) and beta = (8 x 80 - 32 x 10 + 24 x 50) /
    /// 70 = 21 (of 64); below 1 ms alpha 10 until the delay first rises.
    #[test]
    fn illinois_as_linux_2_6() {
        let mut il = Illinois::default();
        let e = env(0, 10_000);
        il.init(&e);
        for us in [100_000u64, 200_000, 150_000] {
            il.pkts_acked(1, 1_000_000_000 - (us * 1000) as i64, &e);
        }
        assert_eq!((il.base_rtt, il.max_rtt, il.cnt_rtt), (100_000, 200_000, 3));
        let mut t = tp(100, 50);
        il.cong_avoid(&mut t, 11_000, 100, &env(0, 20_000));
        let (dm, da) = (100_000u64, 50_000u64);
        let d1 = dm / 100;
        assert_eq!(
            il.alpha,
            (dm - d1) * 1280 / ((dm - d1) + (da - d1) * 1242 / 38)
        );
        assert_eq!(il.beta, 21);
        assert_eq!((il.end_seq, il.cnt_rtt), (20_000, 0));
        assert_eq!(il.ssthresh(&t), (100 * 21) >> 6);
        // Growth: snd_cwnd_cnt x alpha / 128 >= cwnd adds delta / cwnd.
        il.alpha = 1280;
        t.snd_cwnd_cnt = 9;
        il.cong_avoid(&mut t, 11_000, 100, &e);
        assert_eq!((t.snd_cwnd, t.snd_cwnd_cnt), (101, 0));
        // Below win_thresh: Reno's alpha and beta at the next round.
        let mut t = tp(10, 5);
        il.cong_avoid(&mut t, 30_000, 10, &env(0, 40_000));
        assert_eq!((il.alpha, il.beta), (128, 32));
        il.alpha = 5;
        il.set_state(State::Loss, &env(0, 50_000));
        assert_eq!((il.alpha, il.end_seq), (128, 50_000));
    }
}
