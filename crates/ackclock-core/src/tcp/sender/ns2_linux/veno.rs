//! TCP Veno as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_veno.c, Linux 2.6.22's), in
//! `unsigned long` arithmetic (see vegas.rs).
//!
//! - `tcp_veno_pkts_acked`: Vegas' samples (`basertt` ever, `minrtt` since the last ACK that
//!   grew the window, `cntrtt` never reset: the C leaves `cntrtt = 0` commented out).
//! - `tcp_veno_cong_avoid`: outside Open Reno's rule; nothing unless cwnd-limited; with two
//!   samples or fewer Reno's rule; else `diff` = cwnd - cwnd x basertt / minrtt (x 2,
//!   unsigned): slow start as Linux's, above ssthresh +1 per cwnd ACKs while `diff` < beta
//!   (3 x 2), every other such round otherwise (`inc`); cwnd in [2, clamp]; `minrtt` then
//!   restarts.
//! - `tcp_veno_ssthresh`: 4/5 of cwnd while `diff` < beta (random loss), else half, at
//!   least 2. No `min_cwnd`: a loss leaves cwnd at ssthresh.
//! - `tcp_veno_state`: Open re-enables (`minrtt` restarts), others disable.

use super::modules::{Env, State, Tp};

const V_PARAM_SHIFT: u32 = 1;
const BETA: u64 = 3 << V_PARAM_SHIFT;

/// `struct veno`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Veno {
    doing_veno_now: bool,
    cntrtt: u32,
    minrtt: u64,
    basertt: u64,
    inc: u64,
    /// Never set before the first computation: zero, as the agent's fresh `icsk_ca_priv`.
    diff: u64,
}

impl Veno {
    /// `veno_enable`.
    fn enable(&mut self) {
        self.doing_veno_now = true;
        self.minrtt = 0x7fff_ffff;
    }

    /// `tcp_veno_init`.
    pub(crate) fn init(&mut self) {
        self.basertt = 0x7fff_ffff;
        self.inc = 1;
        self.enable();
    }

    /// `tcp_veno_pkts_acked`.
    pub(crate) fn pkts_acked(&mut self, last: i64, env: &Env) {
        if last == 0 {
            return;
        }
        let vrtt = (env.usecs_since(last) as u64).wrapping_add(1);
        if vrtt < self.basertt {
            self.basertt = vrtt;
        }
        self.minrtt = self.minrtt.min(vrtt);
        self.cntrtt = self.cntrtt.wrapping_add(1);
    }

    /// `tcp_veno_state`.
    pub(crate) fn set_state(&mut self, state: State) {
        if state == State::Open {
            self.enable();
        } else {
            self.doing_veno_now = false;
        }
    }

    /// `tcp_veno_cong_avoid`.
    pub(crate) fn cong_avoid(&mut self, tp: &mut Tp, in_flight: i64) {
        if !self.doing_veno_now {
            tp.reno_cong_avoid(in_flight);
            return;
        }
        if in_flight < tp.snd_cwnd {
            return;
        }
        if self.cntrtt <= 2 {
            tp.reno_cong_avoid(in_flight);
        } else {
            let cwnd = tp.snd_cwnd as u64;
            let target = (cwnd.wrapping_mul(self.basertt) << V_PARAM_SHIFT) / self.minrtt;
            self.diff = (cwnd << V_PARAM_SHIFT).wrapping_sub(target);
            if tp.snd_cwnd <= tp.snd_ssthresh {
                tp.slow_start();
            } else if tp.snd_cwnd_cnt >= tp.snd_cwnd {
                if self.diff < BETA {
                    // Non-congestive: +1 every round.
                    if tp.snd_cwnd < tp.snd_cwnd_clamp {
                        tp.snd_cwnd += 1;
                    }
                } else if self.inc != 0 && tp.snd_cwnd < tp.snd_cwnd_clamp {
                    // Congestive: +1 every other round.
                    tp.snd_cwnd += 1;
                    self.inc = 0;
                } else {
                    self.inc = 1;
                }
                tp.snd_cwnd_cnt = 0;
            } else {
                tp.snd_cwnd_cnt += 1;
            }
            if tp.snd_cwnd < 2 {
                tp.snd_cwnd = 2;
            } else if tp.snd_cwnd > tp.snd_cwnd_clamp {
                tp.snd_cwnd = tp.snd_cwnd_clamp;
            }
        }
        self.minrtt = 0x7fff_ffff;
    }

    /// `tcp_veno_ssthresh`.
    pub(crate) fn ssthresh(&self, tp: &Tp) -> i64 {
        let w = tp.snd_cwnd as u64;
        if self.diff < BETA {
            (w * 4 / 5).max(2) as i64
        } else {
            (w >> 1).max(2) as i64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::{env, tp};

    /// diff = 20 - 20 x 100 / 150 = 7 (x 2: 14) >= beta: congestive, +1 every other round
    /// and a loss halves; with minrtt = basertt, diff 0: +1 each round and a loss keeps 4/5.
    #[test]
    fn veno_as_linux_2_6() {
        let mut v = Veno::default();
        v.init();
        let e = env(0, 0);
        for us in [100_000, 150_000, 150_000] {
            v.pkts_acked(1_000_000_000 - us * 1000, &e);
        }
        let mut t = tp(20, 10);
        t.snd_cwnd_cnt = 20;
        v.minrtt = 150_001;
        v.cong_avoid(&mut t, 20);
        assert_eq!((t.snd_cwnd, v.inc, v.diff), (21, 0, 14));
        assert_eq!(v.minrtt, 0x7fff_ffff);
        t.snd_cwnd_cnt = 21;
        v.minrtt = 150_001;
        v.cong_avoid(&mut t, 21);
        assert_eq!((t.snd_cwnd, v.inc), (21, 1));
        assert_eq!(v.ssthresh(&t), 10);
        v.minrtt = 100_001;
        t.snd_cwnd_cnt = 21;
        v.cong_avoid(&mut t, 21);
        assert_eq!((t.snd_cwnd, v.diff), (22, 0));
        assert_eq!(v.ssthresh(&t), 17);
        // Not cwnd-limited: nothing.
        v.cong_avoid(&mut t, 5);
        assert_eq!((t.snd_cwnd, t.snd_cwnd_cnt), (22, 0));
    }
}
