//! H-TCP as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_htcp.c, Linux 2.6.22's), with
//! its defaults (use_rtt_scaling 1, use_bandwidth_switch 1), in `unsigned long` arithmetic
//! (`u8` beta; `u16` is `unsigned int` in ns-linux-util.h). RTTs are Linux's `srtt` >> 3 in
//! jiffies: the agent's `t_srtt_` (`LinuxTcpAgent::rtt_update` copies it to `linux_.srtt`).
//!
//! - `measure_achieved_throughput` (`pkts_acked`): in Open the ACK's segments for the next
//!   step; outside Open the throughput count restarts; in Open, once nearly a window
//!   (cwnd - alpha) is acknowledged and at least minRTT has passed, the throughput sample
//!   `cur_Bi` (segments per second) sets Bi / maxB / minB (3/4 old + 1/4 new after the
//!   first three RTTs since the last congestion).
//! - `htcp_cong_avoid`: when cwnd-limited, slow start as Linux's; above ssthresh
//!   `measure_rtt` (min and, in Open after 3 RTTs, max RTT rising by at most 20 ms), then +1
//!   once `snd_cwnd_cnt` x alpha / 128 reaches cwnd (and alpha recomputed), else
//!   `snd_cwnd_cnt` += the segments acknowledged.
//! - `htcp_recalc_ssthresh` (`htcp_param_update`): beta = minRTT / maxRTT in [0.5, 0.8]
//!   (0.5 when the bandwidth moved by more than 20%, or before the mode switch); alpha =
//!   2 x factor x (1 - beta), the factor growing with the time since the last congestion
//!   (1 + 10 d + d^2 / 4 for d seconds beyond the first) scaled by RTT / 100 ms; maxRTT
//!   fades 5% toward minRTT; ssthresh max(cwnd x beta, 2). No `min_cwnd`.
//! - `htcp_state`: Open restarts the congestion clock (`last_cong`); Recovery and Loss save
//!   it for undo (`htcp_reset`) and restart it.

use super::modules::{Env, State, Tp};

const ALPHA_BASE: u64 = 1 << 7;
const BETA_MIN: u8 = 1 << 6;
const BETA_MAX: u8 = 102;
const HZ: u64 = 1000;

/// `struct htcp`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Htcp {
    alpha: u64,
    beta: u8,
    modeswitch: u8,
    pkts_acked: u32,
    packetcount: u64,
    min_rtt: u64,
    max_rtt: u64,
    last_cong: u64,
    undo_last_cong: u64,
    undo_max_rtt: u64,
    undo_old_max_b: u64,
    min_b: u64,
    max_b: u64,
    old_max_b: u64,
    bi: u64,
    lasttime: u64,
}

/// `between(seq1, seq2, seq3)` (ns-linux-c.h): seq1 in [seq2, seq3], unsigned.
fn between(s1: u64, s2: u64, s3: u64) -> bool {
    s3.wrapping_sub(s2) >= s1.wrapping_sub(s2)
}

impl Htcp {
    /// `htcp_cong_time`.
    fn cong_time(&self, now: u64) -> u64 {
        now.wrapping_sub(self.last_cong)
    }

    /// `htcp_ccount`: RTTs since the last congestion (minRTT is never 0 when called).
    fn ccount(&self, now: u64) -> u64 {
        self.cong_time(now).checked_div(self.min_rtt).unwrap_or(0)
    }

    /// `htcp_init`.
    pub(crate) fn init(&mut self, env: &Env) {
        *self = Htcp {
            alpha: ALPHA_BASE,
            beta: BETA_MIN,
            pkts_acked: 1,
            last_cong: env.jiffies,
            ..Htcp::default()
        };
    }

    /// `htcp_state`.
    pub(crate) fn set_state(&mut self, state: State, env: &Env) {
        match state {
            State::Open => self.last_cong = env.jiffies,
            // htcp_reset.
            State::Recovery | State::Loss => {
                self.undo_last_cong = self.last_cong;
                self.undo_max_rtt = self.max_rtt;
                self.undo_old_max_b = self.old_max_b;
                self.last_cong = env.jiffies;
            }
        }
    }

    /// `measure_achieved_throughput`.
    pub(crate) fn pkts_acked(&mut self, tp: &Tp, cnt: u32, state: State, env: &Env) {
        let now = env.jiffies;
        if state == State::Open {
            self.pkts_acked = cnt;
        }
        if state != State::Open {
            self.packetcount = 0;
            self.lasttime = now;
            return;
        }
        self.packetcount = self.packetcount.wrapping_add(cnt as u64);
        let a = self.alpha >> 7;
        let lead = if a != 0 { a } else { 1 };
        if self.packetcount >= (tp.snd_cwnd as u64).wrapping_sub(lead)
            && now.wrapping_sub(self.lasttime) >= self.min_rtt
            && self.min_rtt > 0
        {
            let cur_bi = self.packetcount.wrapping_mul(HZ) / now.wrapping_sub(self.lasttime);
            if self.ccount(now) <= 3 {
                self.min_b = cur_bi;
                self.max_b = cur_bi;
                self.bi = cur_bi;
            } else {
                self.bi = (3u64.wrapping_mul(self.bi).wrapping_add(cur_bi)) / 4;
                if self.bi > self.max_b {
                    self.max_b = self.bi;
                }
                if self.min_b > self.max_b {
                    self.min_b = self.max_b;
                }
            }
            self.packetcount = 0;
            self.lasttime = now;
        }
    }

    /// `htcp_beta_update`.
    fn beta_update(&mut self, min_rtt: u64, max_rtt: u64) {
        let max_b = self.max_b;
        let old_max_b = self.old_max_b;
        self.old_max_b = self.max_b;
        if !between(
            5u64.wrapping_mul(max_b),
            4u64.wrapping_mul(old_max_b),
            6u64.wrapping_mul(old_max_b),
        ) {
            self.beta = BETA_MIN;
            self.modeswitch = 0;
            return;
        }
        if self.modeswitch != 0 && min_rtt > 10 && max_rtt != 0 {
            // `ca->beta` is a u8: the quotient is cut to its low byte before the clamps.
            self.beta = (((min_rtt << 7) / max_rtt) as u8).clamp(BETA_MIN, BETA_MAX);
        } else {
            self.beta = BETA_MIN;
            self.modeswitch = 1;
        }
    }

    /// `htcp_alpha_update`.
    fn alpha_update(&mut self, now: u64) {
        let min_rtt = self.min_rtt;
        let mut factor: u64 = 1;
        let mut diff = self.cong_time(now);
        if diff > HZ {
            diff -= HZ;
            factor = 1 + (10 * diff + ((diff / 2) * (diff / 2) / HZ)) / HZ;
        }
        if min_rtt != 0 {
            let scale = ((HZ << 3) / (10 * min_rtt)).clamp(1 << 2, 10 << 3);
            factor = (factor << 3) / scale;
            if factor == 0 {
                factor = 1;
            }
        }
        self.alpha = 2u64
            .wrapping_mul(factor)
            .wrapping_mul((1u64 << 7).wrapping_sub(self.beta as u64));
        if self.alpha == 0 {
            self.alpha = ALPHA_BASE;
        }
    }

    /// `htcp_recalc_ssthresh` (`htcp_param_update` first).
    pub(crate) fn ssthresh(&mut self, tp: &Tp, env: &Env) -> i64 {
        let (min_rtt, max_rtt) = (self.min_rtt, self.max_rtt);
        self.beta_update(min_rtt, max_rtt);
        self.alpha_update(env.jiffies);
        if min_rtt > 0 && max_rtt > min_rtt {
            self.max_rtt = min_rtt + ((max_rtt - min_rtt) * 95) / 100;
        }
        (((tp.snd_cwnd as u64) * self.beta as u64) >> 7).max(2) as i64
    }

    /// `measure_rtt`.
    fn measure_rtt(&mut self, tp: &Tp, state: State, env: &Env) {
        let srtt = env.srtt >> 3;
        if self.min_rtt > srtt || self.min_rtt == 0 {
            self.min_rtt = srtt;
        }
        if state == State::Open && tp.snd_ssthresh < 0xffff && self.ccount(env.jiffies) > 3 {
            if self.max_rtt < self.min_rtt {
                self.max_rtt = self.min_rtt;
            }
            if self.max_rtt < srtt && srtt <= self.max_rtt + 20 {
                self.max_rtt = srtt;
            }
        }
    }

    /// `htcp_cong_avoid`.
    pub(crate) fn cong_avoid(&mut self, tp: &mut Tp, in_flight: i64, state: State, env: &Env) {
        if in_flight < tp.snd_cwnd {
            return;
        }
        if tp.snd_cwnd <= tp.snd_ssthresh {
            tp.slow_start();
            return;
        }
        self.measure_rtt(tp, state, env);
        if ((tp.snd_cwnd_cnt as u64).wrapping_mul(self.alpha) >> 7) >= tp.snd_cwnd as u64 {
            if tp.snd_cwnd < tp.snd_cwnd_clamp {
                tp.snd_cwnd += 1;
            }
            tp.snd_cwnd_cnt = 0;
            self.alpha_update(env.jiffies);
        } else {
            tp.snd_cwnd_cnt += self.pkts_acked as i64;
        }
        self.pkts_acked = 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::{env, tp};

    /// alpha = 2 x factor x (1 - beta): 2 s after congestion (d = 1000 jiffies beyond the
    /// first second: factor 1 + (10000 + 250) / 1000 = 11), at minRTT 100 ms the RTT scale
    /// is 8 / 8: alpha = 2 x 11 x 64 = 1408; beta = minRTT / maxRTT = 80 / 100 =
    /// 0.8 x 128 = 102 after the mode switch; ssthresh cwnd x 102 / 128.
    #[test]
    fn htcp_as_linux_2_6() {
        let mut h = Htcp::default();
        let mut e = env(0, 0);
        e.jiffies = 10_000;
        e.srtt = 800;
        h.init(&e);
        h.min_rtt = 100;
        e.jiffies = 12_000;
        h.alpha_update(e.jiffies);
        assert_eq!(h.alpha, 2 * 11 * 64);
        // First congestion: beta 0.5 and the mode switch armed.
        h.max_rtt = 125;
        let t = tp(100, 50);
        assert_eq!(h.ssthresh(&t, &e), 50);
        assert_eq!((h.beta, h.modeswitch, h.max_rtt), (64, 1, 123));
        h.max_rtt = 125;
        assert_eq!(h.ssthresh(&t, &e), 100 * 102 / 128);
        assert_eq!(h.beta, 102);
        // Growth: +1 once snd_cwnd_cnt x alpha / 128 reaches cwnd.
        let mut t = tp(100, 50);
        h.alpha = 256;
        t.snd_cwnd_cnt = 49;
        h.cong_avoid(&mut t, 100, State::Open, &e);
        assert_eq!((t.snd_cwnd, t.snd_cwnd_cnt), (100, 50));
        h.cong_avoid(&mut t, 100, State::Open, &e);
        assert_eq!((t.snd_cwnd, t.snd_cwnd_cnt), (101, 0));
    }
}
