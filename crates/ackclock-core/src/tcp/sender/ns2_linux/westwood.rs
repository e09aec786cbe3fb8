//! TCP Westwood+ as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_westwood.c, Linux
//! 2.6.22's), in `unsigned long` arithmetic. Bytes are Linux's (`snd_una` = segments x
//! `mss_cache`, ns-2's `size_`); RTTs are `srtt` >> 3 in jiffies (the agent's `t_srtt_`).
//!
//! - `tcp_westwood_init`: no estimate, RTT and minimum 20 s, the window starts now at
//!   `snd_una`.
//! - `tcp_westwood_pkts_acked`: the RTT is the latest srtt.
//! - `tcp_westwood_event`: a "fast" ACK (`CA_EVENT_FAST_ACK`: Open, new data, no SACK)
//!   counts the bytes `snd_una` moved; a "slow" one (`CA_EVENT_SLOW_ACK`) counts
//!   `westwood_acked_count`'s estimate (a duplicate ACK one segment, a cumulative ACK what
//!   the duplicates did not already count); both first close the sample window once an RTT
//!   (at least 50 ms) has passed (`westwood_update_window`: bandwidth = bytes / jiffies,
//!   filtered 7/8 + 1/8 twice) and then track the minimum RTT.
//! - `tcp_westwood_bw_rttmin` (`min_cwnd`): cwnd after a loss = bandwidth x minimum RTT /
//!   mss, at least 2. `ssthresh` Reno's, `cong_avoid` Reno's.

use super::modules::{CaEvent, Env, Tp};

/// `TCP_WESTWOOD_RTT_MIN` (HZ / 20) and `TCP_WESTWOOD_INIT_RTT` (20 x HZ), in jiffies.
const RTT_MIN: u64 = 1000 / 20;
const INIT_RTT: u64 = 20 * 1000;

/// `struct westwood`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Westwood {
    bw_ns_est: u64,
    bw_est: u64,
    rtt_win_sx: u64,
    bk: u64,
    snd_una: u64,
    cumul_ack: u64,
    accounted: u64,
    rtt: u64,
    rtt_min: u64,
    first_ack: bool,
    reset_rtt_min: bool,
}

impl Westwood {
    /// `tcp_westwood_init`.
    pub(crate) fn init(&mut self, env: &Env) {
        self.bk = 0;
        self.bw_ns_est = 0;
        self.bw_est = 0;
        self.accounted = 0;
        self.cumul_ack = 0;
        self.reset_rtt_min = true;
        self.rtt_min = INIT_RTT;
        self.rtt = INIT_RTT;
        self.rtt_win_sx = env.jiffies;
        self.snd_una = env.snd_una;
        self.first_ack = true;
    }

    /// `westwood_filter`.
    fn filter(&mut self, delta: u64) {
        if self.bw_ns_est == 0 && self.bw_est == 0 {
            self.bw_ns_est = self.bk / delta;
            self.bw_est = self.bw_ns_est;
        } else {
            self.bw_ns_est = (7u64
                .wrapping_mul(self.bw_ns_est)
                .wrapping_add(self.bk / delta))
                >> 3;
            self.bw_est = (7u64.wrapping_mul(self.bw_est).wrapping_add(self.bw_ns_est)) >> 3;
        }
    }

    /// `tcp_westwood_pkts_acked`.
    pub(crate) fn pkts_acked(&mut self, cnt: u32, env: &Env) {
        if cnt > 0 {
            self.rtt = env.srtt >> 3;
        }
    }

    /// `westwood_update_window`.
    fn update_window(&mut self, env: &Env) {
        // `s32 delta`: a signed long, compared as an unsigned one below.
        let delta = env.jiffies.wrapping_sub(self.rtt_win_sx);
        if self.first_ack {
            self.snd_una = env.snd_una;
            self.first_ack = false;
        }
        if self.rtt != 0 && (delta as i64) > self.rtt.max(RTT_MIN) as i64 {
            self.filter(delta);
            self.bk = 0;
            self.rtt_win_sx = env.jiffies;
        }
    }

    /// `update_rtt_min`.
    fn update_rtt_min(&mut self) {
        if self.reset_rtt_min {
            self.rtt_min = self.rtt;
            self.reset_rtt_min = false;
        } else {
            self.rtt_min = self.rtt.min(self.rtt_min);
        }
    }

    /// `westwood_acked_count`.
    fn acked_count(&mut self, env: &Env) -> u64 {
        self.cumul_ack = env.snd_una.wrapping_sub(self.snd_una);
        if self.cumul_ack == 0 {
            self.accounted = self.accounted.wrapping_add(env.mss);
            self.cumul_ack = env.mss;
        }
        if self.cumul_ack > env.mss {
            if self.accounted >= self.cumul_ack {
                self.accounted -= self.cumul_ack;
                self.cumul_ack = env.mss;
            } else {
                self.cumul_ack -= self.accounted;
                self.accounted = 0;
            }
        }
        self.snd_una = env.snd_una;
        self.cumul_ack
    }

    /// `tcp_westwood_bw_rttmin`.
    pub(crate) fn bw_rttmin(&self, env: &Env) -> i64 {
        (self.bw_est.wrapping_mul(self.rtt_min) / env.mss).max(2) as i64
    }

    /// `tcp_westwood_event` (the agent raises only FAST_ACK, SLOW_ACK and LOSS).
    pub(crate) fn cwnd_event(&mut self, _tp: &mut Tp, event: CaEvent, env: &Env) {
        match event {
            CaEvent::FastAck => {
                self.update_window(env);
                self.bk = self.bk.wrapping_add(env.snd_una.wrapping_sub(self.snd_una));
                self.snd_una = env.snd_una;
                self.update_rtt_min();
            }
            CaEvent::SlowAck => {
                self.update_window(env);
                let n = self.acked_count(env);
                self.bk = self.bk.wrapping_add(n);
                self.update_rtt_min();
            }
            CaEvent::Loss => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::{env, tp};

    /// 100 segments of 1000 bytes acknowledged one per jiffy with an srtt of 100 ms: the
    /// first ACK only sets the left edge, the window closes after 101 jiffies with 99 000
    /// bytes: 980 bytes per jiffy; after a loss cwnd = 980 x 100 / 1000 = 98 segments. A
    /// duplicate ACK counts one segment, and the cumulative ACK after it only the rest.
    #[test]
    fn westwood_as_linux_2_6() {
        let mut w = Westwood::default();
        let mut t = tp(10, 100);
        let mut e = env(0, 0);
        e.srtt = 800;
        w.init(&e);
        w.pkts_acked(1, &e);
        assert_eq!(w.rtt, 100);
        for i in 1..=100u64 {
            e.jiffies = 1000 + i;
            e.snd_una = i * 1000;
            w.cwnd_event(&mut t, CaEvent::FastAck, &e);
        }
        assert_eq!((w.bk, w.rtt_min), (99_000, 100));
        e.jiffies = 1101;
        w.cwnd_event(&mut t, CaEvent::FastAck, &e);
        assert_eq!((w.bw_est, w.bk), (980, 0));
        assert_eq!(w.bw_rttmin(&e), 98);
        // A duplicate ACK: one segment; the cumulative ACK of 3 after it: 2 more.
        w.cwnd_event(&mut t, CaEvent::SlowAck, &e);
        assert_eq!((w.bk, w.accounted), (1000, 1000));
        e.snd_una = 103_000;
        w.cwnd_event(&mut t, CaEvent::SlowAck, &e);
        assert_eq!((w.bk, w.accounted), (3000, 0));
    }
}
