//! Compound TCP as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_compound.c, the 2.6
//! module of Castellani and Hemminger), in `unsigned long` arithmetic (see vegas.rs).
//!
//! The window is a loss-based part `cwnd` (Reno's growth) plus a delay-based part `dwnd`.
//! - `tcp_compound_rtt_calc` (`rtt_sample`): `LinuxTcpAgent::rtt_update` hands it the timed
//!   segment's RTT, round(tao x 10^6) us (without timestamps ns-2 has no per-segment sample
//!   here); + 1 lowers `baseRTT` (ever) and `minRTT` (this round), counted in `cntRTT`. The
//!   agent calls it before the module's `init` on the first ACK too; `init` then wipes it.
//! - `tcp_compound_cong_avoid`: first `cwnd` is re-synchronised with the window (the agent
//!   may have cut it: `cwnd` = snd_cwnd - dwnd, or snd_cwnd and `dwnd` 0 when either part
//!   alone exceeds it); nothing more unless cwnd-limited; `cwnd` + 1 on every ACK while at or
//!   below ssthresh, else once per snd_cwnd ACKs (`snd_cwnd_cnt`). Once per round (an ACK
//!   beyond `beg_snd_nxt`) with more than two samples, Vegas' diff = segments - segments x
//!   baseRTT / minRTT (x 2): below gamma 30 `dwnd` grows by qroot(old_wnd^3) / 8 - 1 (the
//!   window^0.75 law, `qroot`: Newton's fourth root), else shrinks by diff (x beta 1) / 2, not
//!   below 0. snd_cwnd = cwnd + dwnd.
//! - `tcp_compound_state`: Open re-enables the rounds, other states disable them (the
//!   disabled flag is never read by `cong_avoid`). `ssthresh` and `min_cwnd` Reno's.

use super::modules::{Env, State, Tp};

const V_PARAM_SHIFT: u32 = 1;
const TCP_COMPOUND_ALPHA: u32 = 3;
const TCP_COMPOUND_BETA: u64 = 1;
const TCP_COMPOUND_GAMMA: u64 = 30;

/// `struct compound`; sequence numbers in bytes as Linux's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Compound {
    beg_snd_nxt: u64,
    beg_snd_una: u64,
    beg_snd_cwnd: u64,
    doing_vegas_now: bool,
    cnt_rtt: u32,
    min_rtt: u64,
    base_rtt: u64,
    cwnd: u64,
    dwnd: u64,
}

/// `fls` (ns-linux-c.c) on an `int`.
fn fls(x: i32) -> u32 {
    32 - (x as u32).leading_zeros()
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

/// `cdiv64_64`: a 64-bit division through a divisor cut to 32 bits.
fn cdiv64_64(mut dividend: u64, divisor: u64) -> u64 {
    let mut d = divisor;
    if divisor > 0xffff_ffff {
        let shift = fls((divisor >> 32) as i32);
        d = divisor >> shift;
        dividend >>= shift;
    }
    if dividend >> 32 != 0 {
        dividend / (d as u32 as u64)
    } else {
        dividend / d
    }
}

/// `qroot`: the fourth root by Newton-Raphson from 2^(bits / 4), until two steps differ by
/// at most 1 (`abs` of the `int` difference).
pub(crate) fn qroot(a: u64) -> u64 {
    let mut x: u64 = 1u32.wrapping_shl(fls64(a) >> 2) as u64;
    loop {
        let x1 = x;
        let x3 = x.wrapping_mul(x).wrapping_mul(x);
        x = (3u64.wrapping_mul(x).wrapping_add(cdiv64_64(a, x3))) / 4;
        if (x1.wrapping_sub(x) as i32).wrapping_abs() <= 1 {
            return x;
        }
    }
}

impl Compound {
    /// `cvegas_enable`.
    fn enable(&mut self, env: &Env) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = env.snd_nxt;
        self.cnt_rtt = 0;
        self.min_rtt = 0x7fff_ffff;
    }

    /// `tcp_compound_init`.
    pub(crate) fn init(&mut self, tp: &Tp, env: &Env) {
        self.base_rtt = 0x7fff_ffff;
        self.enable(env);
        self.dwnd = 0;
        self.cwnd = tp.snd_cwnd as u64;
    }

    /// `tcp_compound_rtt_calc`: `usrtt` microseconds.
    pub(crate) fn rtt_sample(&mut self, usrtt: u64) {
        let vrtt = usrtt.wrapping_add(1);
        if vrtt < self.base_rtt {
            self.base_rtt = vrtt;
        }
        self.min_rtt = self.min_rtt.min(vrtt);
        self.cnt_rtt = self.cnt_rtt.wrapping_add(1);
    }

    /// `tcp_compound_state`.
    pub(crate) fn set_state(&mut self, state: State, env: &Env) {
        if state == State::Open {
            self.enable(env);
        } else {
            self.doing_vegas_now = false;
        }
    }

    /// `tcp_compound_cong_avoid` for an ACK up to `ack` (bytes).
    pub(crate) fn cong_avoid(&mut self, tp: &mut Tp, ack: u64, in_flight: i64, env: &Env) {
        let snd_cwnd = tp.snd_cwnd as u64;
        if self.cwnd.wrapping_add(self.dwnd) > snd_cwnd {
            if self.cwnd > snd_cwnd || self.dwnd > snd_cwnd {
                self.cwnd = snd_cwnd;
                self.dwnd = 0;
            } else {
                self.cwnd = snd_cwnd - self.dwnd;
            }
        }
        if in_flight < tp.snd_cwnd {
            return;
        }
        let mut inc = false;
        if self.cwnd <= tp.snd_ssthresh as u64 {
            inc = true;
        } else if tp.snd_cwnd_cnt < tp.snd_cwnd {
            tp.snd_cwnd_cnt += 1;
        }
        if tp.snd_cwnd_cnt >= tp.snd_cwnd {
            inc = true;
            tp.snd_cwnd_cnt = 0;
        }
        if inc && tp.snd_cwnd < tp.snd_cwnd_clamp {
            self.cwnd += 1;
        }
        if self.beg_snd_nxt < ack {
            if env.mss == 0 {
                return;
            }
            let old_wnd = self.beg_snd_nxt.wrapping_sub(self.beg_snd_una) / env.mss;
            self.beg_snd_una = self.beg_snd_nxt;
            self.beg_snd_nxt = env.snd_nxt;
            self.beg_snd_cwnd = tp.snd_cwnd as u64;
            if self.cnt_rtt > 2 {
                let rtt = self.min_rtt;
                if rtt == 0 {
                    return;
                }
                let target = (old_wnd.wrapping_mul(self.base_rtt) << V_PARAM_SHIFT) / rtt;
                let diff = (old_wnd << V_PARAM_SHIFT).wrapping_sub(target);
                let mut dwnd = self.dwnd;
                if diff < TCP_COMPOUND_GAMMA << V_PARAM_SHIFT {
                    let win3 = old_wnd.wrapping_mul(old_wnd).wrapping_mul(old_wnd);
                    let x = qroot(win3) >> TCP_COMPOUND_ALPHA;
                    dwnd = x.saturating_sub(1);
                    dwnd = dwnd.wrapping_add(self.dwnd);
                } else if (dwnd << V_PARAM_SHIFT) < diff.wrapping_mul(TCP_COMPOUND_BETA) {
                    dwnd = 0;
                } else {
                    dwnd = ((dwnd << V_PARAM_SHIFT) - diff.wrapping_mul(TCP_COMPOUND_BETA))
                        >> V_PARAM_SHIFT;
                }
                self.dwnd = dwnd;
            }
            self.cnt_rtt = 0;
            self.min_rtt = 0x7fff_ffff;
        }
        tp.snd_cwnd = self.cwnd.wrapping_add(self.dwnd) as i64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::{env, tp};

    /// qroot within one of the fourth root; a round of 100 segments without queueing (diff
    /// 0 < gamma) adds qroot(100^3) / 8 - 1 = 31 / 8 - 1 = 2 to dwnd; one with diff above
    /// gamma takes diff / 2 away; a window cut by the agent re-synchronises cwnd.
    #[test]
    fn compound_as_linux_2_6() {
        for a in [16u64, 10_000, 1_000_000, 1 << 40, 123_456_789_012_345] {
            let want = (a as f64).powf(0.25);
            assert!((qroot(a) as f64 - want).abs() <= 1.0, "{a}: {}", qroot(a));
        }
        let mut c = Compound::default();
        let mut t = tp(100, 50);
        c.init(&t, &env(0, 100_000));
        for _ in 0..3 {
            c.rtt_sample(99_999);
        }
        assert_eq!((c.base_rtt, c.min_rtt, c.cnt_rtt), (100_000, 100_000, 3));
        c.cong_avoid(&mut t, 101_000, 100, &env(0, 200_000));
        assert_eq!((c.cwnd, c.dwnd, t.snd_cwnd), (100, 2, 102));
        assert_eq!((c.beg_snd_una, c.beg_snd_nxt), (100_000, 200_000));
        // The agent takes one segment: cwnd = 101 - dwnd; it halves it: cwnd = 51, dwnd 0.
        t.snd_cwnd = 101;
        c.cong_avoid(&mut t, 150_000, 0, &env(0, 200_000));
        assert_eq!((c.cwnd, c.dwnd), (99, 2));
        let mut h = c;
        t.snd_cwnd = 51;
        h.cong_avoid(&mut t, 150_000, 0, &env(0, 200_000));
        assert_eq!((h.cwnd, h.dwnd), (51, 0));
        // A round of 100 segments at 2 x baseRTT: diff 50 x 2 >= 60: dwnd 60 - 50 = 10.
        c.dwnd = 60;
        t.snd_cwnd = 159;
        c.cnt_rtt = 3;
        c.min_rtt = 200_000;
        c.cong_avoid(&mut t, 201_000, 159, &env(0, 300_000));
        assert_eq!((c.cwnd, c.dwnd, t.snd_cwnd), (99, 10, 109));
    }
}
