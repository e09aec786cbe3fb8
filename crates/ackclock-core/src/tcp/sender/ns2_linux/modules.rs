//! The congestion-control modules ns-2.35's TCP-Linux runs through `tcp_congestion_ops`
//! (tcp/linux/src/*.c, Linux 2.6.22's, and tcp/linux/tcp_naivereno.c), on Linux's window in
//! whole segments (`struct tcp_sock`'s `snd_cwnd`, `snd_cwnd_cnt`, `snd_ssthresh`,
//! `snd_cwnd_clamp`, `bytes_acked` counted here in segments). Each hook cites its C function:
//!
//! - `reno` (tcp_cong.c): `tcp_reno_cong_avoid` grows only while the flight before the ACK
//!   fills cwnd (`tcp_is_cwnd_limited`); at or below ssthresh `tcp_slow_start`, above it with
//!   `sysctl_tcp_abc` one segment per cwnd segments acknowledged (RFC 3465), without it one per
//!   cwnd + 1 ACKs; `tcp_reno_ssthresh` max(cwnd / 2, 2); `tcp_reno_min_cwnd` ssthresh / 2.
//! - `tcp_slow_start`: with `sysctl_tcp_abc` nothing until a whole segment is acknowledged;
//!   then `snd_cwnd_cnt` += cwnd (twice that with `sysctl_tcp_abc` > 1 and two segments
//!   acknowledged), one segment per cwnd counted: +1 per ACK (`sysctl_tcp_max_ssthresh` 0).
//! - `naive_reno` (tcp_naivereno.c, alpha 1, beta 2): +1 per ACK below ssthresh, else +1 per
//!   cwnd + 1 ACKs, up to the clamp, whatever the flight; ssthresh max(cwnd - cwnd / 2, 2);
//!   `min_cwnd` ssthresh.
//! - `scalable` (tcp_scalable.c): slow start as reno's; above ssthresh +1 once
//!   `snd_cwnd_cnt` passes min(cwnd, 50) (`TCP_SCALABLE_AI_CNT`); ssthresh max(cwnd - cwnd /
//!   8, 2); `min_cwnd` reno's.
//! - `highspeed` (tcp_highspeed.c, RFC 3649): `hstcp_init` caps the clamp at 2^32 / 128;
//!   above ssthresh the row of RFC 3649 appendix B's table (`hstcp_aimd_vals`) is moved to
//!   the one whose window bounds cwnd, and cwnd grows by (row + 1) / cwnd per ACK (in
//!   `snd_cwnd_cnt`); ssthresh max(cwnd - cwnd x md / 256, 2); `min_cwnd` reno's.
//! - `bic` (tcp_bic.c, BIC-TCP 1.1 with its defaults: fast_convergence 1, max_increment 16,
//!   low_window 14, beta 819/1024, smooth_part 20, initial_ssthresh 0): above ssthresh
//!   `bictcp_update` (at most every HZ/32 jiffies while cwnd stays) picks the ACKs per
//!   segment of growth, `cnt`, from the distance to the last maximum (binary search, max
//!   probing, linear), at most 20 before the first loss, scaled by the delayed-ACK ratio;
//!   `bictcp_acked` tracks that ratio (15/16 old + 1/16 new, in Open only, u32 arithmetic);
//!   `bictcp_recalc_ssthresh` sets the last maximum (fast convergence) and returns half the
//!   window up to `low_window`, else beta of it; the Loss state resets it all
//!   (`bictcp_state`); no `min_cwnd`: a loss leaves cwnd at ssthresh.
//! - `vegas`, `veno`, `yeah`, `cubic`, `htcp`, `hybla`, `westwood`, `illinois`, `lp`,
//!   `compound`: one
//!   file each beside this one (vegas.rs, ...), driven through the hooks below with what
//!   the agent hands Linux (`Env`: `tcp_time_stamp`, `ktime_get_real`, `snd_una`,
//!   `snd_nxt`, `srtt`, `mss_cache`).
//!
//! `u32` is `unsigned long` in ns-2.35's TCP-Linux (ns-linux-util.h): 64 bits in its x86-64
//! build, so the newer modules compute in u64 with C's wrapping, not in a kernel's 32 bits.

use super::compound::Compound;
use super::cubic::Cubic;
use super::htcp::Htcp;
use super::hybla::Hybla;
use super::illinois::Illinois;
use super::lp::Lp;
use super::vegas::Vegas;
use super::veno::Veno;
use super::westwood::Westwood;
use super::yeah::Yeah;

/// `icsk_ca_state` as `LinuxTcpAgent` sets it (`tcp_set_ca_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Open,
    Recovery,
    Loss,
}

/// The `tcp_ca_event`s `LinuxTcpAgent` raises: `CA_EVENT_FAST_ACK` and `CA_EVENT_SLOW_ACK`
/// on each ACK (`LinuxTcpAgent::recv`), `CA_EVENT_LOSS` on a timeout (`enter_loss`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CaEvent {
    FastAck,
    SlowAck,
    Loss,
}

/// What the agent hands Linux besides the window, at a hook.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Env {
    /// `tcp_time_stamp` (= `jiffies`): trunc(now x 1000).
    pub(crate) jiffies: u64,
    /// `ktime_get_real`: trunc(now x 10^9) ns.
    pub(crate) ktime: i64,
    /// `snd_una`, `snd_nxt` (bytes: segments x `mss_cache`).
    pub(crate) snd_una: u64,
    pub(crate) snd_nxt: u64,
    /// `srtt`: the agent's `t_srtt_` (jiffies x 8), as `rtt_update` last set it.
    pub(crate) srtt: u64,
    /// `mss_cache`: ns-2's `size_`.
    pub(crate) mss: u64,
}

impl Env {
    /// `ktime_to_us(net_timedelta(last))`.
    pub(crate) fn usecs_since(&self, last: i64) -> i64 {
        (self.ktime - last) / 1000
    }
}

/// Linux's window as `struct tcp_sock` holds it, and TCP-Linux's `sysctl_tcp_abc`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tp {
    pub(crate) snd_cwnd: i64,
    pub(crate) snd_ssthresh: i64,
    pub(crate) snd_cwnd_cnt: i64,
    pub(crate) snd_cwnd_clamp: i64,
    /// `bytes_acked` / `mss_cache`.
    pub(crate) bytes_acked: i64,
    pub(crate) abc: u8,
}

impl Tp {
    /// `tcp_slow_start`.
    pub(crate) fn slow_start(&mut self) {
        if self.abc > 0 && self.bytes_acked < 1 {
            return;
        }
        let mut cnt = self.snd_cwnd;
        if self.abc > 1 && self.bytes_acked >= 2 {
            cnt <<= 1;
        }
        self.bytes_acked = 0;
        self.snd_cwnd_cnt += cnt;
        while self.snd_cwnd_cnt >= self.snd_cwnd {
            self.snd_cwnd_cnt -= self.snd_cwnd;
            if self.snd_cwnd < self.snd_cwnd_clamp {
                self.snd_cwnd += 1;
            }
        }
    }

    /// `tcp_reno_cong_avoid`.
    pub(crate) fn reno_cong_avoid(&mut self, in_flight: i64) {
        if in_flight < self.snd_cwnd {
            return;
        }
        if self.snd_cwnd <= self.snd_ssthresh {
            self.slow_start();
        } else if self.abc > 0 {
            if self.bytes_acked >= self.snd_cwnd {
                self.bytes_acked -= self.snd_cwnd;
                if self.snd_cwnd < self.snd_cwnd_clamp {
                    self.snd_cwnd += 1;
                }
            }
        } else if self.snd_cwnd_cnt >= self.snd_cwnd {
            if self.snd_cwnd < self.snd_cwnd_clamp {
                self.snd_cwnd += 1;
            }
            self.snd_cwnd_cnt = 0;
        } else {
            self.snd_cwnd_cnt += 1;
        }
    }
}

/// RFC 3649 appendix B's HighSpeed TCP table as Linux 2.6's `hstcp_aimd_vals` holds it: the
/// window w of each row and its b(w) x 256.
const HSTCP_AIMD: [(i64, i64); 72] = [
    (38, 128),
    (118, 112),
    (221, 104),
    (347, 98),
    (495, 93),
    (663, 89),
    (851, 86),
    (1058, 83),
    (1284, 81),
    (1529, 78),
    (1793, 76),
    (2076, 74),
    (2378, 72),
    (2699, 71),
    (3039, 69),
    (3399, 68),
    (3778, 66),
    (4177, 65),
    (4596, 64),
    (5036, 62),
    (5497, 61),
    (5979, 60),
    (6483, 59),
    (7009, 58),
    (7558, 57),
    (8130, 56),
    (8726, 55),
    (9346, 54),
    (9991, 53),
    (10661, 52),
    (11358, 52),
    (12082, 51),
    (12834, 50),
    (13614, 49),
    (14424, 48),
    (15265, 48),
    (16137, 47),
    (17042, 46),
    (17981, 45),
    (18955, 45),
    (19965, 44),
    (21013, 43),
    (22101, 43),
    (23230, 42),
    (24402, 41),
    (25618, 41),
    (26881, 40),
    (28193, 39),
    (29557, 39),
    (30975, 38),
    (32450, 38),
    (33986, 37),
    (35586, 36),
    (37253, 36),
    (38992, 35),
    (40808, 35),
    (42707, 34),
    (44694, 33),
    (46776, 33),
    (48961, 32),
    (51258, 32),
    (53677, 31),
    (56230, 30),
    (58932, 30),
    (61799, 29),
    (64851, 28),
    (68113, 28),
    (71617, 27),
    (75401, 26),
    (79517, 26),
    (84035, 25),
    (89053, 24),
];

/// `struct bictcp` (tcp_bic.c), in Linux's u32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bic {
    cnt: u32,
    last_max_cwnd: u32,
    loss_cwnd: u32,
    last_cwnd: u32,
    last_time: u32,
    epoch_start: u32,
    delayed_ack: u32,
}

/// BIC's module parameters at their defaults.
const BIC_MAX_INCREMENT: u32 = 16;
const BIC_LOW_WINDOW: u32 = 14;
const BIC_BETA: u32 = 819;
const BIC_BETA_SCALE: u32 = 1024;
const BIC_SMOOTH_PART: u32 = 20;
const BICTCP_B: u32 = 4;
const ACK_RATIO_SHIFT: u32 = 4;
/// `HZ` (tcp/linux/ns-linux-c.h): jiffies are milliseconds.
const HZ: u32 = 1000;

impl Bic {
    /// `bictcp_reset`.
    fn reset(&mut self) {
        *self = Bic {
            delayed_ack: 2 << ACK_RATIO_SHIFT,
            ..Bic::default()
        };
    }

    /// `bictcp_update` at jiffy `now`.
    fn update(&mut self, cwnd: u32, now: u32) {
        if self.last_cwnd == cwnd && (now.wrapping_sub(self.last_time) as i32) <= (HZ / 32) as i32 {
            return;
        }
        self.last_cwnd = cwnd;
        self.last_time = now;
        if self.epoch_start == 0 {
            self.epoch_start = now;
        }
        if cwnd <= BIC_LOW_WINDOW {
            self.cnt = cwnd;
            return;
        }
        if cwnd < self.last_max_cwnd {
            let dist = (self.last_max_cwnd - cwnd) / BICTCP_B;
            self.cnt = if dist > BIC_MAX_INCREMENT {
                cwnd / BIC_MAX_INCREMENT
            } else if dist <= 1 {
                cwnd.wrapping_mul(BIC_SMOOTH_PART) / BICTCP_B
            } else {
                cwnd / dist
            };
        } else if cwnd < self.last_max_cwnd.wrapping_add(BICTCP_B) {
            self.cnt = cwnd.wrapping_mul(BIC_SMOOTH_PART) / BICTCP_B;
        } else if cwnd < self.last_max_cwnd + BIC_MAX_INCREMENT * (BICTCP_B - 1) {
            self.cnt = cwnd.wrapping_mul(BICTCP_B - 1) / (cwnd - self.last_max_cwnd);
        } else {
            self.cnt = cwnd / BIC_MAX_INCREMENT;
        }
        if self.loss_cwnd == 0 && self.cnt > 20 {
            self.cnt = 20;
        }
        // A ratio worn down to 0 would divide by zero in C; here the count becomes 1.
        self.cnt = (self.cnt << ACK_RATIO_SHIFT)
            .checked_div(self.delayed_ack)
            .unwrap_or(0);
        if self.cnt == 0 {
            self.cnt = 1;
        }
    }
}

/// A module and its private state (`icsk_ca_priv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Module {
    Reno,
    NaiveReno,
    Scalable,
    /// `struct hstcp`: the table row.
    HighSpeed {
        ai: usize,
    },
    Bic(Bic),
    Vegas(Vegas),
    Veno(Veno),
    Yeah(Yeah),
    Cubic(Cubic),
    Htcp(Htcp),
    Hybla(Hybla),
    Westwood(Westwood),
    Illinois(Illinois),
    Lp(Lp),
    Compound(Compound),
}

impl Module {
    /// Reno's `ns2_module` number.
    pub(crate) fn from_number(n: u8) -> Module {
        match n {
            1 => Module::NaiveReno,
            2 => Module::Scalable,
            3 => Module::HighSpeed { ai: 0 },
            4 => Module::Bic(Bic::default()),
            5 => Module::Vegas(Vegas::default()),
            6 => Module::Veno(Veno::default()),
            7 => Module::Yeah(Yeah::default()),
            8 => Module::Cubic(Cubic::default()),
            9 => Module::Htcp(Htcp::default()),
            10 => Module::Hybla(Hybla::default()),
            11 => Module::Westwood(Westwood::default()),
            12 => Module::Illinois(Illinois::default()),
            13 => Module::Lp(Lp::default()),
            14 => Module::Compound(Compound::default()),
            _ => Module::Reno,
        }
    }

    /// The module's `flags` carry `TCP_CONG_RTT_STAMP`: `install_congestion_control` turns
    /// on ns-2's `bugfix_ts_`, so `TcpAgent::output` keeps each segment's send time (`tss`)
    /// and `pkts_acked` gets the acknowledged segment's (`last_ackt`); otherwise 0.
    pub(crate) fn rtt_stamp(&self) -> bool {
        matches!(
            self,
            Module::Vegas(_)
                | Module::Veno(_)
                | Module::Yeah(_)
                | Module::Illinois(_)
                | Module::Lp(_)
                | Module::Compound(_)
        )
    }

    /// `rtt_sample` (`LinuxTcpAgent::rtt_update`): `usrtt` microseconds; only compound's.
    pub(crate) fn rtt_sample(&mut self, usrtt: u64) {
        if let Module::Compound(c) = self {
            c.rtt_sample(usrtt);
        }
    }

    /// `init`, on the first ACK (`LinuxTcpAgent::recv`, `initialized_`).
    pub(crate) fn init(&mut self, tp: &mut Tp, env: &Env) {
        match self {
            Module::HighSpeed { ai } => {
                // hstcp_init.
                *ai = 0;
                tp.snd_cwnd_clamp = tp.snd_cwnd_clamp.min(0xffff_ffff / 128);
            }
            // bictcp_init (initial_ssthresh 0).
            Module::Bic(b) => b.reset(),
            Module::Vegas(v) => v.init(env),
            Module::Veno(v) => v.init(),
            Module::Yeah(y) => y.init(tp, env),
            Module::Cubic(c) => c.init(),
            Module::Htcp(h) => h.init(env),
            Module::Hybla(h) => h.init(tp, env),
            Module::Westwood(w) => w.init(env),
            Module::Illinois(i) => i.init(env),
            Module::Lp(l) => l.init(),
            Module::Compound(c) => c.init(tp, env),
            Module::Reno | Module::NaiveReno | Module::Scalable => {}
        }
    }

    /// `pkts_acked`: `cnt` segments newly acknowledged in `state`; `last` the send time in
    /// ns of the segment the ACK names (`last_ackt`), 0 when unknown.
    pub(crate) fn pkts_acked(&mut self, tp: &mut Tp, cnt: u32, last: i64, state: State, env: &Env) {
        let open = state == State::Open;
        match self {
            // bictcp_acked.
            Module::Bic(b) if cnt > 0 && open => {
                let cnt = cnt.wrapping_sub(b.delayed_ack >> ACK_RATIO_SHIFT);
                b.delayed_ack = b.delayed_ack.wrapping_add(cnt);
            }
            Module::Vegas(v) => v.pkts_acked(last, env),
            Module::Veno(v) => v.pkts_acked(last, env),
            Module::Yeah(y) => y.pkts_acked(cnt, last, state, env),
            Module::Cubic(c) if open => c.pkts_acked(cnt),
            Module::Htcp(h) => h.pkts_acked(tp, cnt, state, env),
            Module::Westwood(w) => w.pkts_acked(cnt, env),
            Module::Illinois(i) => i.pkts_acked(cnt, last, env),
            Module::Lp(l) => l.pkts_acked(tp, last, env),
            _ => {}
        }
    }

    /// `cwnd_event`.
    pub(crate) fn cwnd_event(&mut self, tp: &mut Tp, event: CaEvent, env: &Env) {
        // Vegas', Veno's and YeAH's react only to CA_EVENT_CWND_RESTART and TX_START, which
        // the agent never raises.
        if let Module::Westwood(w) = self {
            w.cwnd_event(tp, event, env);
        }
    }

    /// `set_state` (`tcp_set_ca_state`), before the agent's state changes.
    pub(crate) fn set_state(&mut self, state: State, env: &Env) {
        match self {
            // bictcp_state.
            Module::Bic(b) if state == State::Loss => b.reset(),
            Module::Vegas(v) => v.set_state(state, env),
            Module::Veno(v) => v.set_state(state),
            Module::Yeah(y) => y.vegas.set_state(state, env),
            Module::Cubic(c) if state == State::Loss => c.enter_loss(),
            Module::Htcp(h) => h.set_state(state, env),
            Module::Hybla(h) => h.set_state(state),
            Module::Illinois(i) => i.set_state(state, env),
            Module::Compound(c) => c.set_state(state, env),
            _ => {}
        }
    }

    /// `ssthresh`.
    pub(crate) fn ssthresh(&mut self, tp: &Tp, env: &Env) -> i64 {
        let w = tp.snd_cwnd;
        match self {
            Module::NaiveReno => (w - w / 2).max(2),
            Module::Scalable => (w - (w >> 3)).max(2),
            Module::HighSpeed { ai } => (w - ((w * HSTCP_AIMD[*ai].1) >> 8)).max(2),
            Module::Bic(b) => {
                // bictcp_recalc_ssthresh (fast_convergence 1).
                let w = w as u32;
                b.epoch_start = 0;
                b.last_max_cwnd = if w < b.last_max_cwnd {
                    w.wrapping_mul(BIC_BETA_SCALE + BIC_BETA) / (2 * BIC_BETA_SCALE)
                } else {
                    w
                };
                b.loss_cwnd = w;
                let s = if w <= BIC_LOW_WINDOW {
                    w >> 1
                } else {
                    w.wrapping_mul(BIC_BETA) / BIC_BETA_SCALE
                };
                s.max(2) as i64
            }
            Module::Veno(v) => v.ssthresh(tp),
            Module::Yeah(y) => y.ssthresh(tp),
            Module::Cubic(c) => c.ssthresh(w),
            Module::Htcp(h) => h.ssthresh(tp, env),
            Module::Illinois(i) => i.ssthresh(tp),
            // tcp_reno_ssthresh: reno, vegas, hybla, westwood, lp, compound.
            _ => (w >> 1).max(2),
        }
    }

    /// `min_cwnd`: the window a loss leaves (`tcp_fastretrans_alert`); without one, ssthresh.
    pub(crate) fn min_cwnd(&self, tp: &Tp, env: &Env) -> i64 {
        match self {
            Module::NaiveReno
            | Module::Bic(_)
            | Module::Veno(_)
            | Module::Cubic(_)
            | Module::Htcp(_) => tp.snd_ssthresh,
            Module::Westwood(w) => w.bw_rttmin(env),
            // tcp_reno_min_cwnd.
            _ => tp.snd_ssthresh / 2,
        }
    }

    /// `cong_avoid` for an ACK up to `ack` (bytes) with `in_flight` segments out before it,
    /// in `state`.
    pub(crate) fn cong_avoid(
        &mut self,
        tp: &mut Tp,
        ack: u64,
        in_flight: i64,
        state: State,
        env: &Env,
    ) {
        let now = env.jiffies as u32;
        match self {
            Module::Reno | Module::Westwood(_) => tp.reno_cong_avoid(in_flight),
            Module::NaiveReno => {
                // tcp_naive_reno_cong_avoid.
                if tp.snd_cwnd < tp.snd_ssthresh {
                    tp.snd_cwnd += 1;
                } else if tp.snd_cwnd_cnt >= tp.snd_cwnd {
                    tp.snd_cwnd = (tp.snd_cwnd + 1).min(tp.snd_cwnd_clamp);
                    tp.snd_cwnd_cnt = 0;
                } else {
                    tp.snd_cwnd_cnt += 1;
                }
            }
            Module::Scalable => {
                // tcp_scalable_cong_avoid.
                if in_flight < tp.snd_cwnd {
                    return;
                }
                if tp.snd_cwnd <= tp.snd_ssthresh {
                    tp.slow_start();
                } else {
                    tp.snd_cwnd_cnt += 1;
                    if tp.snd_cwnd_cnt > tp.snd_cwnd.min(50) {
                        if tp.snd_cwnd < tp.snd_cwnd_clamp {
                            tp.snd_cwnd += 1;
                        }
                        tp.snd_cwnd_cnt = 0;
                    }
                }
            }
            Module::HighSpeed { ai } => {
                // hstcp_cong_avoid.
                if in_flight < tp.snd_cwnd {
                    return;
                }
                if tp.snd_cwnd <= tp.snd_ssthresh {
                    tp.slow_start();
                    return;
                }
                let w = tp.snd_cwnd;
                if w > HSTCP_AIMD[*ai].0 {
                    while w > HSTCP_AIMD[*ai].0 && *ai < HSTCP_AIMD.len() - 1 {
                        *ai += 1;
                    }
                } else {
                    while *ai > 0 && w <= HSTCP_AIMD[*ai - 1].0 {
                        *ai -= 1;
                    }
                }
                if tp.snd_cwnd < tp.snd_cwnd_clamp {
                    tp.snd_cwnd_cnt += *ai as i64 + 1;
                    if tp.snd_cwnd_cnt >= tp.snd_cwnd {
                        tp.snd_cwnd_cnt -= tp.snd_cwnd;
                        tp.snd_cwnd += 1;
                    }
                }
            }
            Module::Bic(b) => {
                // bictcp_cong_avoid.
                if in_flight < tp.snd_cwnd {
                    return;
                }
                if tp.snd_cwnd <= tp.snd_ssthresh {
                    tp.slow_start();
                    return;
                }
                b.update(tp.snd_cwnd as u32, now);
                if tp.snd_cwnd_cnt >= b.cnt as i64 {
                    if tp.snd_cwnd < tp.snd_cwnd_clamp {
                        tp.snd_cwnd += 1;
                    }
                    tp.snd_cwnd_cnt = 0;
                } else {
                    tp.snd_cwnd_cnt += 1;
                }
            }
            Module::Vegas(v) => v.cong_avoid(tp, ack, in_flight, env),
            Module::Veno(v) => v.cong_avoid(tp, in_flight),
            Module::Yeah(y) => y.cong_avoid(tp, ack, in_flight, env),
            Module::Cubic(c) => c.cong_avoid(tp, in_flight, env.jiffies),
            Module::Htcp(h) => h.cong_avoid(tp, in_flight, state, env),
            Module::Hybla(h) => h.cong_avoid(tp, in_flight, env),
            Module::Illinois(i) => i.cong_avoid(tp, ack, in_flight, env),
            Module::Lp(l) => l.cong_avoid(tp, in_flight),
            Module::Compound(c) => c.cong_avoid(tp, ack, in_flight, env),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn tp(cwnd: i64, ssthresh: i64) -> Tp {
        Tp {
            snd_cwnd: cwnd,
            snd_ssthresh: ssthresh,
            snd_cwnd_cnt: 0,
            snd_cwnd_clamp: 1000,
            bytes_acked: 0,
            abc: 1,
        }
    }

    /// What the agent hands a hook at 1 s (jiffy 1000), with 1000-byte segments.
    pub(crate) fn env(snd_una: u64, snd_nxt: u64) -> Env {
        Env {
            jiffies: 1000,
            ktime: 1_000_000_000,
            snd_una,
            snd_nxt,
            srtt: 0,
            mss: 1000,
        }
    }

    fn jenv(jiffies: u64) -> Env {
        Env {
            jiffies,
            ..env(0, 0)
        }
    }

    /// tcp_reno_cong_avoid (sysctl_tcp_abc 1): +1 per ACK in slow start however much it
    /// acknowledges; in congestion avoidance +1 once cwnd segments are acknowledged; nothing
    /// while the flight does not fill cwnd. Without abc: +1 per cwnd + 1 ACKs.
    #[test]
    fn reno_grows_as_linux_2_6() {
        let mut m = Module::Reno;
        let mut t = tp(4, 100);
        t.bytes_acked = 2;
        m.cong_avoid(&mut t, 0, 4, State::Open, &jenv(0));
        assert_eq!(t.snd_cwnd, 5);
        t.bytes_acked = 2;
        m.cong_avoid(&mut t, 0, 3, State::Open, &jenv(0));
        assert_eq!(t.snd_cwnd, 5);
        let mut t = tp(10, 5);
        t.bytes_acked = 9;
        m.cong_avoid(&mut t, 0, 10, State::Open, &jenv(0));
        assert_eq!(t.snd_cwnd, 10);
        t.bytes_acked += 2;
        m.cong_avoid(&mut t, 0, 10, State::Open, &jenv(0));
        assert_eq!((t.snd_cwnd, t.bytes_acked), (11, 1));
        let mut t = tp(3, 2);
        t.abc = 0;
        for _ in 0..3 {
            m.cong_avoid(&mut t, 0, 3, State::Open, &jenv(0));
        }
        assert_eq!(t.snd_cwnd, 3);
        m.cong_avoid(&mut t, 0, 3, State::Open, &jenv(0));
        assert_eq!((t.snd_cwnd, t.snd_cwnd_cnt), (4, 0));
        let mut t = tp(11, 5);
        assert_eq!(m.ssthresh(&t, &env(0, 0)), 5);
        t.snd_ssthresh = 5;
        assert_eq!(m.min_cwnd(&t, &env(0, 0)), 2);
    }

    /// tcp_naive_reno: +1 per ACK below ssthresh, +1 after cwnd + 1 ACKs above it;
    /// ssthresh max(cwnd - cwnd / 2, 2), cwnd after a loss = ssthresh.
    #[test]
    fn naive_reno_grows_as_ns2() {
        let mut m = Module::NaiveReno;
        let mut t = tp(3, 10);
        m.cong_avoid(&mut t, 0, 0, State::Open, &jenv(0));
        assert_eq!(t.snd_cwnd, 4);
        let mut t = tp(4, 4);
        for _ in 0..4 {
            m.cong_avoid(&mut t, 0, 0, State::Open, &jenv(0));
        }
        assert_eq!(t.snd_cwnd, 4);
        m.cong_avoid(&mut t, 0, 0, State::Open, &jenv(0));
        assert_eq!((t.snd_cwnd, t.snd_cwnd_cnt), (5, 0));
        let mut t = tp(11, 4);
        assert_eq!(m.ssthresh(&t, &env(0, 0)), 6);
        t.snd_ssthresh = 6;
        assert_eq!(m.min_cwnd(&t, &env(0, 0)), 6);
    }

    /// tcp_scalable: +1 per min(cwnd, 50) + 1 ACKs above ssthresh; a loss keeps 7/8.
    #[test]
    fn scalable_as_linux_2_6() {
        let mut m = Module::Scalable;
        let mut t = tp(100, 10);
        for _ in 0..50 {
            m.cong_avoid(&mut t, 0, 100, State::Open, &jenv(0));
        }
        assert_eq!(t.snd_cwnd, 100);
        m.cong_avoid(&mut t, 0, 100, State::Open, &jenv(0));
        assert_eq!((t.snd_cwnd, t.snd_cwnd_cnt), (101, 0));
        assert_eq!(m.ssthresh(&tp(100, 10), &env(0, 0)), 88);
    }

    /// hstcp: at w 100 (row 1: a 2 segments per window), cwnd + 1 after cwnd / 2 ACKs; a loss
    /// keeps 1 - 112 / 256 of it.
    #[test]
    fn highspeed_as_linux_2_6() {
        let mut m = Module::HighSpeed { ai: 0 };
        let mut t = tp(100, 10);
        m.init(&mut t, &env(0, 0));
        for _ in 0..49 {
            m.cong_avoid(&mut t, 0, 100, State::Open, &jenv(0));
        }
        assert_eq!(m, Module::HighSpeed { ai: 1 });
        assert_eq!(t.snd_cwnd, 100);
        m.cong_avoid(&mut t, 0, 100, State::Open, &jenv(0));
        assert_eq!((t.snd_cwnd, t.snd_cwnd_cnt), (101, 0));
        assert_eq!(m.ssthresh(&t, &env(0, 0)), 101 - ((101 * 112) >> 8));
    }

    /// bictcp: cwnd 100 with no maximum yet is max probing's linear cwnd / 16 = 6 ACKs per
    /// segment, divided by the delayed-ACK ratio 2 (32 >> 4): 3; a loss at 100 above no
    /// earlier maximum takes ssthresh to 819/1024 of it and remembers 100; with a last maximum
    /// 200 the binary search's distance 25 > 16 gives the linear 6 again, 3 with the ratio.
    #[test]
    fn bic_as_linux_2_6() {
        let mut m = Module::Bic(Bic::default());
        let mut t = tp(100, 10);
        m.init(&mut t, &env(0, 0));
        m.cong_avoid(&mut t, 0, 100, State::Open, &jenv(5));
        let Module::Bic(b) = m else { unreachable!() };
        assert_eq!((b.cnt, b.epoch_start), (3, 5));
        assert_eq!(m.ssthresh(&t, &env(0, 0)), 79);
        let Module::Bic(b) = m else { unreachable!() };
        assert_eq!((b.last_max_cwnd, b.loss_cwnd), (100, 100));
        let Module::Bic(mut b) = m else {
            unreachable!()
        };
        b.last_max_cwnd = 200;
        b.update(100, 100);
        assert_eq!(b.cnt, 3);
        // bictcp_acked: 2 segments acknowledged keep the ratio 2.
        let mut m = Module::Bic(Bic::default());
        m.init(&mut t, &env(0, 0));
        m.pkts_acked(&mut t, 2, 0, State::Open, &env(0, 0));
        let Module::Bic(b) = m else { unreachable!() };
        assert_eq!(b.delayed_ack, 32);
        m.pkts_acked(&mut t, 1, 0, State::Open, &env(0, 0));
        let Module::Bic(b) = m else { unreachable!() };
        assert_eq!(b.delayed_ack, 31);
    }
}
