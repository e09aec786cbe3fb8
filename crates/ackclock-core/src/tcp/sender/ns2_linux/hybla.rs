//! TCP Hybla as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_hybla.c, Linux 2.6.22's),
//! rtt0 25 ms, in `unsigned long` arithmetic. `srtt` is Linux's (x 8, in jiffies): the
//! agent's `t_srtt_` (`LinuxTcpAgent::rtt_update`), which the first ACK has already set
//! when `hybla_init` runs.
//!
//! - `hybla_recalc_param`: rho x 8 = max(srtt / rtt0, 8) (srtt x 8 over rtt0: rho in
//!   eighths), rho its integer part, rho^2 x 128 and its integer part.
//! - `hybla_init`: cwnd 2, clamp 65535, rho from the first srtt, `minrtt` = srtt, then cwnd
//!   = rho.
//! - `hybla_cong_avoid`: a lower srtt recomputes rho; nothing unless cwnd-limited; outside
//!   Open Reno's rule; below ssthresh cwnd grows by 2^rho - 1 per ACK (2^int x the table's
//!   2^fraction x 128), above it by rho^2 / cwnd (x 128); the fractions accumulate in
//!   `snd_cwnd_cents`; slow start stops at ssthresh; cwnd at most the clamp.
//! - `hybla_state`: Hybla only in Open. `ssthresh` and `min_cwnd` Reno's.

use super::modules::{Env, State, Tp};

/// `rtt0` in jiffies (`msecs_to_jiffies(25)`).
const RTT0: u64 = 25;

/// `struct hybla`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hybla {
    hybla_en: bool,
    snd_cwnd_cents: u64,
    rho: u64,
    rho2: u64,
    rho_3ls: u64,
    rho2_7ls: u64,
    minrtt: u64,
}

/// `hybla_fraction`: 2^(odds / 8) x 128.
fn fraction(odds: u64) -> u64 {
    const FRACTIONS: [u64; 8] = [128, 139, 152, 165, 181, 197, 215, 234];
    FRACTIONS.get(odds as usize).copied().unwrap_or(128)
}

impl Hybla {
    /// `hybla_recalc_param`.
    fn recalc_param(&mut self, srtt: u64) {
        self.rho_3ls = (srtt / RTT0).max(8);
        self.rho = self.rho_3ls >> 3;
        self.rho2_7ls = self.rho_3ls.wrapping_mul(self.rho_3ls) << 1;
        self.rho2 = self.rho2_7ls >> 7;
    }

    /// `hybla_init`.
    pub(crate) fn init(&mut self, tp: &mut Tp, env: &Env) {
        self.rho = 0;
        self.rho2 = 0;
        self.rho_3ls = 0;
        self.rho2_7ls = 0;
        self.snd_cwnd_cents = 0;
        self.hybla_en = true;
        tp.snd_cwnd = 2;
        tp.snd_cwnd_clamp = 65535;
        self.recalc_param(env.srtt);
        self.minrtt = env.srtt;
        tp.snd_cwnd = self.rho as i64;
    }

    /// `hybla_state`.
    pub(crate) fn set_state(&mut self, state: State) {
        self.hybla_en = state == State::Open;
    }

    /// `hybla_cong_avoid`.
    pub(crate) fn cong_avoid(&mut self, tp: &mut Tp, in_flight: i64, env: &Env) {
        if env.srtt < self.minrtt {
            self.recalc_param(env.srtt);
            self.minrtt = env.srtt;
        }
        if in_flight < tp.snd_cwnd {
            return;
        }
        if !self.hybla_en {
            tp.reno_cong_avoid(in_flight);
            return;
        }
        if self.rho == 0 {
            self.recalc_param(env.srtt);
        }
        let rho_fractions = self.rho_3ls.wrapping_sub(self.rho << 3);
        let slow_start = tp.snd_cwnd < tp.snd_ssthresh;
        let increment = if slow_start {
            // `1 << rho` is an int shift.
            ((1i32.wrapping_shl(self.rho as u32) as i64 as u64)
                .wrapping_mul(fraction(rho_fractions)))
            .wrapping_sub(128)
        } else {
            let inc = self.rho2_7ls / tp.snd_cwnd as u64;
            if inc < 128 {
                tp.snd_cwnd_cnt += 1;
            }
            inc
        };
        let odd = increment % 128;
        tp.snd_cwnd = (tp.snd_cwnd as u64).wrapping_add(increment >> 7) as i64;
        self.snd_cwnd_cents += odd;
        while self.snd_cwnd_cents >= 128 {
            tp.snd_cwnd += 1;
            self.snd_cwnd_cents -= 128;
            tp.snd_cwnd_cnt = 0;
        }
        if slow_start {
            tp.snd_cwnd = tp.snd_cwnd.min(tp.snd_ssthresh);
        }
        tp.snd_cwnd = tp.snd_cwnd.min(tp.snd_cwnd_clamp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::{env, tp};

    /// An 80 ms srtt (640 in Linux's x 8 jiffies) gives rho x 8 = 25: rho 3, 1/8 over;
    /// the first window is rho = 3; slow start adds 2^3 x 139 - 128 = 984 / 128 = 7 and
    /// 88 / 128 per ACK; above ssthresh rho^2 x 128 = 1250 / cwnd per ACK.
    #[test]
    fn hybla_as_linux_2_6() {
        let mut h = Hybla::default();
        let mut t = tp(2, 100);
        let mut e = env(0, 0);
        e.srtt = 640;
        h.init(&mut t, &e);
        assert_eq!((t.snd_cwnd, t.snd_cwnd_clamp), (3, 65535));
        assert_eq!((h.rho, h.rho_3ls, h.rho2_7ls), (3, 25, 1250));
        h.cong_avoid(&mut t, 3, &e);
        assert_eq!((t.snd_cwnd, h.snd_cwnd_cents), (10, 88));
        h.cong_avoid(&mut t, 10, &e);
        assert_eq!((t.snd_cwnd, h.snd_cwnd_cents), (18, 48));
        let mut t = tp(125, 100);
        h.snd_cwnd_cents = 0;
        h.cong_avoid(&mut t, 125, &e);
        assert_eq!((t.snd_cwnd, h.snd_cwnd_cents, t.snd_cwnd_cnt), (125, 10, 1));
        // Outside Open: Reno's rule.
        h.set_state(State::Recovery);
        t.snd_cwnd_cnt = 125;
        t.bytes_acked = 125;
        h.cong_avoid(&mut t, 125, &e);
        assert_eq!(t.snd_cwnd, 126);
    }
}
