//! CUBIC 2.1 as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_cubic.c, Linux 2.6.22's),
//! with its defaults (fast_convergence 1, max_increment 16, beta 819/1024, initial_ssthresh
//! 0, bic_scale 41, tcp_friendliness 1), in `unsigned long` arithmetic (64 bits in
//! ns-2.35's x86-64 build: nothing is cut to 32 bits as in a 32-bit kernel).
//!
//! - `bictcp_update` (at most every HZ/32 jiffies while cwnd stays): an epoch starts at the
//!   first update after a loss, with K = cbrt(cube_factor x (Wmax - cwnd)) (`cubic_root`:
//!   table + one Newton step) or 0 from above Wmax; the target is origin +- 410 x |t - K|^3
//!   / 2^40 (t in 1/1024 s since the epoch); `cnt` = cwnd / (target - cwnd), or 100 x cwnd
//!   at or above it; 50 before the first loss; TCP friendliness follows a Reno window grown
//!   by one per cwnd x 23 / 8 ACKs and caps `cnt` at cwnd / (its lead); scaled by the
//!   delayed-ACK ratio (`bictcp_acked`, as BIC's). `delay_min` stays 0: `measure_delay` needs
//!   timestamps (`rx_opt.saw_tstamp`), which this agent does not have.
//! - `bictcp_cong_avoid`: when cwnd-limited, slow start as Linux's, else +1 after `cnt` ACKs.
//! - `bictcp_recalc_ssthresh`: the epoch ends; Wmax = cwnd (or cwnd x 1843 / 2048 below the
//!   last Wmax: fast convergence); ssthresh max(cwnd x 819 / 1024, 2). No `min_cwnd`.
//! - `bictcp_state`: the Loss state resets everything (`bictcp_reset`).

/// Module parameters at their defaults and `cubictcp_register`'s precomputed factors.
const BICTCP_BETA_SCALE: u64 = 1024;
const BICTCP_HZ: u32 = 10;
const MAX_INCREMENT: u64 = 16;
const BETA: u64 = 819;
const BIC_SCALE: u64 = 41;
/// `beta_scale` = 8 x (1024 + 819) / 3 / (1024 - 819).
const BETA_SCALE: u64 = 8 * (BICTCP_BETA_SCALE + BETA) / 3 / (BICTCP_BETA_SCALE - BETA);
/// `cube_rtt_scale` = bic_scale x 10.
const CUBE_RTT_SCALE: u64 = BIC_SCALE * 10;
/// `cube_factor` = 2^40 / (bic_scale x 10).
const CUBE_FACTOR: u64 = (1u64 << (10 + 3 * BICTCP_HZ)) / (BIC_SCALE * 10);
const ACK_RATIO_SHIFT: u32 = 4;
const HZ: u64 = 1000;

/// `struct bictcp` (tcp_cubic.c).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cubic {
    pub(crate) cnt: u64,
    last_max_cwnd: u64,
    loss_cwnd: u64,
    last_cwnd: u64,
    last_time: u64,
    bic_origin_point: u64,
    bic_k: u64,
    delay_min: u64,
    epoch_start: u64,
    ack_cnt: u64,
    tcp_cwnd: u64,
    delayed_ack: u64,
}

/// `fls` (ns-linux-c.c): the highest set bit of an `int`, 1-based.
fn fls(x: i32) -> u32 {
    if x == 0 {
        0
    } else {
        32 - (x as u32).leading_zeros()
    }
}

/// `fls64`.
fn fls64(x: u64) -> u32 {
    let h = x >> 32;
    if h != 0 {
        fls(h as i32) + 32
    } else {
        fls(x as i32)
    }
}

/// `div64_64` (ns-linux-c.c): a 64-bit division through a 32-bit divisor.
fn div64_64(mut dividend: u64, divisor: u64) -> u64 {
    let high = (divisor >> 32) as u32;
    let d = if high != 0 {
        let shift = fls(high as i32);
        dividend >>= shift;
        (divisor >> shift) as u32
    } else {
        divisor as u32
    };
    dividend / d as u64
}

/// `cubic_root`'s table: cbrt(x << 18) - 1 for x in 0..64.
const CBRT_V: [u8; 64] = [
    0, 54, 54, 54, 118, 118, 118, 118, 123, 129, 134, 138, 143, 147, 151, 156, 157, 161, 164, 168,
    170, 173, 176, 179, 181, 185, 187, 190, 192, 194, 197, 199, 200, 202, 204, 206, 209, 211, 213,
    215, 217, 219, 221, 222, 224, 225, 227, 229, 231, 232, 234, 236, 237, 239, 240, 242, 244, 245,
    246, 248, 250, 251, 252, 254,
];

/// `cubic_root`: table lookup and one Newton-Raphson step.
pub(crate) fn cubic_root(a: u64) -> u64 {
    let b = fls64(a) as u64;
    if b < 7 {
        return (CBRT_V[a as usize] as u64 + 35) >> 6;
    }
    let b = ((b * 84) >> 8) - 1;
    let shift = (a >> (b * 3)) as usize;
    let mut x = ((CBRT_V[shift] as u64 + 10) << b) >> 6;
    x = 2 * x + div64_64(a, x * (x - 1));
    (x * 341) >> 10
}

impl Cubic {
    /// `bictcp_reset`.
    fn reset(&mut self) {
        *self = Cubic {
            delayed_ack: 2 << ACK_RATIO_SHIFT,
            ..Cubic::default()
        };
    }

    /// `bictcp_init` (initial_ssthresh 0).
    pub(crate) fn init(&mut self) {
        self.reset();
    }

    /// `bictcp_update` at jiffy `now`.
    fn update(&mut self, cwnd: u64, now: u64) {
        self.ack_cnt = self.ack_cnt.wrapping_add(1);
        if self.last_cwnd == cwnd && (now.wrapping_sub(self.last_time) as i64) <= (HZ / 32) as i64 {
            return;
        }
        self.last_cwnd = cwnd;
        self.last_time = now;
        if self.epoch_start == 0 {
            self.epoch_start = now;
            self.ack_cnt = 1;
            self.tcp_cwnd = cwnd;
            if self.last_max_cwnd <= cwnd {
                self.bic_k = 0;
                self.bic_origin_point = cwnd;
            } else {
                self.bic_k = cubic_root(CUBE_FACTOR.wrapping_mul(self.last_max_cwnd - cwnd));
                self.bic_origin_point = self.last_max_cwnd;
            }
        }
        let t = (now
            .wrapping_add(self.delay_min >> 3)
            .wrapping_sub(self.epoch_start)
            << BICTCP_HZ)
            / HZ;
        let offs = t.abs_diff(self.bic_k);
        let delta = CUBE_RTT_SCALE
            .wrapping_mul(offs)
            .wrapping_mul(offs)
            .wrapping_mul(offs)
            >> (10 + 3 * BICTCP_HZ);
        let bic_target = if t < self.bic_k {
            self.bic_origin_point.wrapping_sub(delta)
        } else {
            self.bic_origin_point.wrapping_add(delta)
        };
        self.cnt = if bic_target > cwnd {
            cwnd / (bic_target - cwnd)
        } else {
            100u64.wrapping_mul(cwnd)
        };
        if self.delay_min > 0 {
            let min_cnt = (cwnd * HZ * 8) / (10 * MAX_INCREMENT * self.delay_min);
            if self.cnt < min_cnt && t >= self.bic_k {
                self.cnt = min_cnt;
            }
        }
        if self.loss_cwnd == 0 {
            self.cnt = 50;
        }
        // TCP friendliness.
        let delta = cwnd.wrapping_mul(BETA_SCALE) >> 3;
        while self.ack_cnt > delta {
            self.ack_cnt -= delta;
            self.tcp_cwnd += 1;
        }
        if self.tcp_cwnd > cwnd {
            let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
            if self.cnt > max_cnt {
                self.cnt = max_cnt;
            }
        }
        // A ratio worn down to 0 would divide by zero in C; here the count becomes 1.
        self.cnt = (self.cnt << ACK_RATIO_SHIFT)
            .checked_div(self.delayed_ack)
            .unwrap_or(0);
        if self.cnt == 0 {
            self.cnt = 1;
        }
    }

    /// `bictcp_cong_avoid` at jiffy `now`.
    pub(crate) fn cong_avoid(&mut self, tp: &mut super::modules::Tp, in_flight: i64, now: u64) {
        if in_flight < tp.snd_cwnd {
            return;
        }
        if tp.snd_cwnd <= tp.snd_ssthresh {
            tp.slow_start();
            return;
        }
        self.update(tp.snd_cwnd as u64, now);
        if tp.snd_cwnd_cnt as u64 >= self.cnt {
            if tp.snd_cwnd < tp.snd_cwnd_clamp {
                tp.snd_cwnd += 1;
            }
            tp.snd_cwnd_cnt = 0;
        } else {
            tp.snd_cwnd_cnt += 1;
        }
    }

    /// `bictcp_recalc_ssthresh` (fast_convergence 1).
    pub(crate) fn ssthresh(&mut self, cwnd: i64) -> i64 {
        let w = cwnd as u64;
        self.epoch_start = 0;
        self.last_max_cwnd = if w < self.last_max_cwnd {
            w * (BICTCP_BETA_SCALE + BETA) / (2 * BICTCP_BETA_SCALE)
        } else {
            w
        };
        self.loss_cwnd = w;
        ((w * BETA) / BICTCP_BETA_SCALE).max(2) as i64
    }

    /// `bictcp_state`.
    pub(crate) fn enter_loss(&mut self) {
        self.reset();
    }

    /// `bictcp_acked`: in the Open state only.
    pub(crate) fn pkts_acked(&mut self, cnt: u32) {
        if cnt > 0 {
            let cnt = (cnt as u64).wrapping_sub(self.delayed_ack >> ACK_RATIO_SHIFT);
            self.delayed_ack = self.delayed_ack.wrapping_add(cnt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::tp;

    /// cube_factor 2^40 / 410; beta_scale 23; cubic_root within 1% of cbrt; after a loss at
    /// 100 (ssthresh 79, Wmax 100) the epoch at cwnd 79 has K = cbrt(21 / 0.4) s x 1024 and
    /// the target at t = 0 is Wmax - 0.4 x K^3 ~ 79: cnt = 100 x cwnd, capped by TCP
    /// friendliness once the Reno estimate passes cwnd.
    #[test]
    fn cubic_as_linux_2_6() {
        assert_eq!(CUBE_FACTOR, 2_681_735_677);
        assert_eq!(BETA_SCALE, 23);
        for a in [1u64, 27, 1000, 1 << 30, 123_456_789_012] {
            let want = (a as f64).cbrt();
            let got = cubic_root(a) as f64;
            assert!(
                (got - want).abs() <= want * 0.01 + 1.0,
                "{a}: {got} vs {want}"
            );
        }
        let mut c = Cubic::default();
        c.init();
        assert_eq!(c.ssthresh(100), 79);
        let mut t = tp(80, 79);
        c.cong_avoid(&mut t, 80, 5000);
        // K = cbrt(cube_factor x (Wmax - cwnd)), in 1/1024 s.
        let k = (20.0 * CUBE_FACTOR as f64).cbrt() as u64;
        assert!(c.bic_k.abs_diff(k) <= k / 100, "{} vs {k}", c.bic_k);
        assert_eq!(
            (c.bic_origin_point, c.epoch_start, c.tcp_cwnd),
            (100, 5000, 80)
        );
        // At t = 0 the target is Wmax - 410 x K^3 / 2^40 = cwnd (to within one): at most a
        // very small increment, 100 x cwnd, halved by the delayed-ACK ratio 2.
        let target = 100 - ((CUBE_RTT_SCALE * c.bic_k.pow(3)) >> 40);
        let want = if target > 80 {
            80 / (target - 80)
        } else {
            8000
        };
        assert_eq!(c.cnt, (want * 16 / 32).max(1));
        // 5 s later (K is 3.7 s) the target is above Wmax: cnt = cwnd / (target - cwnd) / 2.
        c.cong_avoid(&mut t, 80, 10_000);
        let tt = (5000u64 << 10) / 1000;
        let target = 100 + ((CUBE_RTT_SCALE * (tt - c.bic_k).pow(3)) >> 40);
        assert_eq!(c.cnt, (80 / (target - 80) * 16 / 32).max(1));
        // Before any loss: 50 ACKs per segment (25 with the delayed-ACK ratio).
        let mut c = Cubic::default();
        c.init();
        let mut t = tp(100, 10);
        c.cong_avoid(&mut t, 100, 5000);
        assert_eq!(c.cnt, 25);
    }
}
