//! TCP-LP (low priority) as ns-2.35's TCP-Linux runs it (tcp/linux/src/tcp_lp.c, Linux
//! 2.6.22's), in `unsigned long` arithmetic (see vegas.rs).
//!
//! TCP-LP infers early congestion from one-way delays, which it reads from the timestamp
//! option (`rx_opt.rcv_tsval`, `rcv_tsecr`). `LinuxTcpAgent::time_processing` sets those
//! only with `timestamps_` (which this agent refuses), so both stay 0: the remote clock
//! estimate (`tcp_lp_remote_hz_estimator`) and the one-way delay stay invalid, no sample is
//! taken (`tcp_lp_rtt_sample`), `last_drop` stays 0 and the window is never cut early.
//! What remains, rule by rule as the C has it:
//!
//! - `tcp_lp_pkts_acked`: `inference` = 3 x (now - `rcv_tsecr`) in jiffies; within
//!   inference only after an early drop; "within threshold" when sowd / 8 < owd_min + 15% of
//!   (owd_max - owd_min), in wrapping unsigned arithmetic (with owd_min 0xffffffff and
//!   owd_max 0 that holds); outside it the early cut (cwnd 1 within inference, else half).
//! - `tcp_lp_cong_avoid`: Reno's outside inference. `ssthresh` and `min_cwnd` Reno's.

use super::modules::{Env, Tp};

const LP_VALID_RHZ: u64 = 1 << 0;
const LP_VALID_OWD: u64 = 1 << 1;
const LP_WITHIN_THR: u64 = 1 << 3;
const LP_WITHIN_INF: u64 = 1 << 4;
const LP_RESOL: i64 = 1000;
/// `HZ`: jiffies are milliseconds.
const HZ: i64 = 1000;

/// `struct lp`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Lp {
    flag: u64,
    sowd: u64,
    owd_min: u64,
    owd_max: u64,
    owd_max_rsv: u64,
    remote_hz: u64,
    remote_ref_time: u64,
    local_ref_time: u64,
    last_drop: u64,
    inference: u64,
}

/// `rx_opt.rcv_tsval` and `rcv_tsecr`: without timestamps never set.
const RCV_TSVAL: u64 = 0;
const RCV_TSECR: u64 = 0;

impl Lp {
    /// `tcp_lp_init`.
    pub(crate) fn init(&mut self) {
        *self = Lp {
            owd_min: 0xffff_ffff,
            ..Lp::default()
        };
    }

    /// `tcp_lp_remote_hz_estimator`.
    fn remote_hz_estimator(&mut self) -> u64 {
        let mut rhz = (self.remote_hz << 6) as i64;
        if self.remote_ref_time != 0
            && self.local_ref_time != 0
            && RCV_TSVAL != self.remote_ref_time
            && RCV_TSECR != self.local_ref_time
        {
            let mut m = HZ.wrapping_mul(RCV_TSVAL.wrapping_sub(self.remote_ref_time) as i64)
                / (RCV_TSECR.wrapping_sub(self.local_ref_time) as i64);
            if m < 0 {
                m = -m;
            }
            if rhz > 0 {
                m -= rhz >> 6;
                rhz += m;
            } else {
                rhz = m << 6;
            }
        }
        if (rhz >> 6) > 0 {
            self.flag |= LP_VALID_RHZ;
        } else {
            self.flag &= !LP_VALID_RHZ;
        }
        self.remote_ref_time = RCV_TSVAL;
        self.local_ref_time = RCV_TSECR;
        (rhz >> 6) as u64
    }

    /// `tcp_lp_owd_calculator`.
    fn owd_calculator(&mut self) -> u64 {
        self.remote_hz = self.remote_hz_estimator();
        let mut owd: i64 = 0;
        if self.flag & LP_VALID_RHZ != 0 {
            owd = (RCV_TSVAL.wrapping_mul(LP_RESOL as u64 / self.remote_hz))
                .wrapping_sub(RCV_TSECR.wrapping_mul((LP_RESOL / HZ) as u64))
                as i64;
            if owd < 0 {
                owd = -owd;
            }
        }
        if owd > 0 {
            self.flag |= LP_VALID_OWD;
        } else {
            self.flag &= !LP_VALID_OWD;
        }
        owd as u64
    }

    /// `tcp_lp_rtt_sample`.
    fn rtt_sample(&mut self) {
        let mut mowd = self.owd_calculator() as i64;
        if self.flag & LP_VALID_RHZ == 0 || self.flag & LP_VALID_OWD == 0 {
            return;
        }
        if mowd < self.owd_min as i64 {
            self.owd_min = mowd as u64;
        }
        if mowd > self.owd_max as i64 {
            if mowd > self.owd_max_rsv as i64 {
                self.owd_max = if self.owd_max_rsv == 0 {
                    mowd as u64
                } else {
                    self.owd_max_rsv
                };
                self.owd_max_rsv = mowd as u64;
            } else {
                self.owd_max = mowd as u64;
            }
        }
        if self.sowd != 0 {
            mowd -= (self.sowd >> 3) as i64;
            self.sowd = self.sowd.wrapping_add(mowd as u64);
        } else {
            self.sowd = (mowd << 3) as u64;
        }
    }

    /// `tcp_lp_pkts_acked`.
    pub(crate) fn pkts_acked(&mut self, tp: &mut Tp, last: i64, env: &Env) {
        if last != 0 {
            self.rtt_sample();
        }
        let now = env.jiffies;
        if now > RCV_TSECR {
            self.inference = 3 * (now - RCV_TSECR);
        }
        if self.last_drop != 0 && now.wrapping_sub(self.last_drop) < self.inference {
            self.flag |= LP_WITHIN_INF;
        } else {
            self.flag &= !LP_WITHIN_INF;
        }
        let spread = self.owd_max.wrapping_sub(self.owd_min).wrapping_mul(15) / 100;
        if self.sowd >> 3 < self.owd_min.wrapping_add(spread) {
            self.flag |= LP_WITHIN_THR;
            return;
        }
        self.flag &= !LP_WITHIN_THR;
        self.owd_min = self.sowd >> 3;
        self.owd_max = self.sowd >> 2;
        self.owd_max_rsv = self.sowd >> 2;
        if self.flag & LP_WITHIN_INF != 0 {
            tp.snd_cwnd = 1;
        } else {
            tp.snd_cwnd = (tp.snd_cwnd >> 1).max(1);
        }
        self.last_drop = now;
    }

    /// `tcp_lp_cong_avoid`.
    pub(crate) fn cong_avoid(&self, tp: &mut Tp, in_flight: i64) {
        if self.flag & LP_WITHIN_INF == 0 {
            tp.reno_cong_avoid(in_flight);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::sender::ns2_linux::modules::tests::{env, tp};

    /// Without timestamps no delay is ever valid: every ACK is within threshold (the
    /// unsigned spread from owd_min 0xffffffff to owd_max 0 is huge), the window is never
    /// cut and grows as Reno's; a state with a smoothed delay above the threshold cuts it.
    #[test]
    fn lp_without_timestamps_is_reno() {
        let mut l = Lp::default();
        l.init();
        let mut t = tp(10, 100);
        for _ in 0..5 {
            l.pkts_acked(&mut t, 999_000_000, &env(0, 0));
        }
        assert_eq!(t.snd_cwnd, 10);
        assert_eq!(l.flag & (LP_WITHIN_THR | LP_VALID_OWD), LP_WITHIN_THR);
        t.bytes_acked = 1;
        l.cong_avoid(&mut t, 10);
        assert_eq!(t.snd_cwnd, 11);
        // sowd / 8 = 100 with owd_min = owd_max = 50: outside the threshold, cut to half.
        l.sowd = 800;
        l.owd_min = 50;
        l.owd_max = 50;
        l.pkts_acked(&mut t, 0, &env(0, 0));
        assert_eq!(
            (t.snd_cwnd, l.owd_min, l.owd_max, l.last_drop),
            (5, 100, 200, 1000)
        );
    }
}
