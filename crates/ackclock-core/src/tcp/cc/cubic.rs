//! CUBIC: RFC 9438, "CUBIC for Fast and Long-Distance Networks" (Xu, Ha, Rhee, Goel, Eggert,
//! 2023).
//!
//! - On a congestion event (section 4.6): W_max = cwnd (or, with fast convergence, section
//!   4.7, cwnd (1 + beta) / 2 when cwnd has not regained the previous W_max), and the window
//!   becomes beta cwnd (beta_cubic = 0.7).
//! - In congestion avoidance the target is W_cubic(t + RTT) = C (t + RTT - K)^3 + W_max
//!   (section 4.2), t the time since the epoch began (the first ACK after the reduction),
//!   K = cbrt((W_max - cwnd_epoch) / C), C = 0.4; cwnd grows by (target - cwnd) / cwnd per
//!   segment acknowledged (4.4, 4.5).
//! - The Reno-friendly region (4.3): W_est starts at cwnd_epoch and grows by
//!   alpha_cubic = 3 (1 - beta) / (1 + beta) segments per window acknowledged; when W_est is
//!   above W_cubic, cwnd follows W_est. `reno_friendly` = 0 turns the region off, as ns-3.44's
//!   `TcpCubic` attribute `TcpFriendliness` false (its `TcpCubic::Update` skips Linux's
//!   `bictcp_update` friendliness block; src/internet/model/tcp-cubic.cc) and Linux's
//!   `tcp_friendliness` module parameter 0.
//! - A timeout (4.8) ends the epoch and forgets W_max, so that the first congestion
//!   avoidance after it starts with K = 0 from the window it has then (as Linux does).
//! - `cnt_clamp` N > 0 (ns-3.44's `TcpCubic` attribute `CntClamp`, 20, on under
//!   `ns3_cc_defaults`; Linux's `bictcp_update` hard-codes it): until the first congestion
//!   event (no W_max yet, or none since a timeout forgot it) cwnd grows by at least 1/N segment
//!   per segment acknowledged, so a window that HyStart stopped below the path's capacity still
//!   grows by about 1/N of itself a round trip (`TcpCubic::Update` caps its `cnt` at
//!   `m_cntClamp` while `m_lastMaxCwnd` is 0); RFC 9438 has no such floor (0: none).
//! - Slow start is Reno's (`ns3_model`, 1 in the `ns3` profile: `TcpCubic::IncreaseWindow`'s,
//!   every segment acknowledged, no limit L, past ssthresh); with `hystart` (the TCP parameter, on in the `linux` profile)
//!   HyStart may end it before a loss (`hystart.rs`), as in Linux and as RFC 9438 4.10 allows.
//!
//! `beta` and `c` are settable, so seed 003's ns-2 values (beta 0.8, C 0.4) can be used.
//!
//! `max_increment` S_max > 0 is the growth cap of CUBIC's first versions (Linux 2.6.18's
//! `tcp_cubic.c` 2.0, `bictcp_update`: `min_cnt` = cwnd HZ 8 / (10 max_increment delay_min),
//! "max increment = Smax * rtt / 0.1"; module parameter `max_increment` 16; removed in later
//! kernels, absent from RFC 9438), which the ns-2 CUBIC of seed 003's study sets with
//! `cubic_max_increment_ 16`: in the cubic region cwnd grows by at most S_max segments per
//! window for each 100 ms of the minimum RTT seen (16 a round trip on a 100 ms path); the
//! Reno-friendly region is not capped (the friendliness step follows the cap there too).
//!
//! `linux_arith` = 1 follows Linux's `tcp_cubic.c` (`bictcp_update`, `bictcp_recalc_ssthresh`,
//! `cubictcp_acked`) with its integer arithmetic instead, in whole segments: the cubic target
//! at t + the minimum RTT (`delay_min`) gives `cnt` = cwnd / (target - cwnd) segments
//! acknowledged per segment of growth (100 cwnd at or above the target, at most 20 without a
//! W_max), recomputed at most once per jiffy (HZ 250) and after 1/32 s for an unchanged cwnd;
//! the Reno estimate `tcp_cwnd` grows by one per floor(cwnd x beta_scale / 8) segments
//! acknowledged (beta_scale = 15: 8 (1024 + 717) / 3 / (1024 - 717) in integers), and while
//! it leads cwnd, cnt <= cwnd / (tcp_cwnd - cwnd); cnt >= 2; growth by `tcp_cong_avoid_ai`;
//! ssthresh max(cwnd x 717 / 1024, 2), W_max (1024 + 717) cwnd / 2048 with fast convergence;
//! delay samples within a second of an epoch's start are skipped. On by default for a sender
//! that recovers as Linux does (`rack`, the `linux` profile: `CcSetup::profile`), off
//! otherwise; `linux_arith` = 0 or 1 given in `cc_params` decides either way.

use super::hystart::HyStart;
use super::reno::ns3_slow_start;
use super::{
    slow_start, AckEvent, CaState, CcInfo, CcSetup, CongestionOps, Conn, Ns3Class, Param, Range,
    Window, NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Cubic {
    beta: f64,
    c: f64,
    fast_convergence: bool,
    reno_friendly: bool,
    cnt_clamp: f64,
    /// `max_increment` (S_max, segments per window per 100 ms of `delay_min`; 0: no cap).
    max_increment: f64,
    /// `ns3_model`: `TcpCubic::IncreaseWindow`'s slow start ([`ns3_slow_start`]).
    ns3: bool,
    /// The smallest RTT sample seen (s; 0 before the first), for `max_increment`.
    delay_min: f64,
    /// A congestion event set W_max (and no timeout forgot it since): `cnt_clamp` is off.
    reduced: bool,
    pub w_max: f64,
    pub k: f64,
    epoch: Option<SimTime>,
    cwnd_epoch: f64,
    w_est: f64,
    srtt: f64,
    hystart: Option<HyStart>,
    /// Linux's integer `bictcp_update` (`linux_arith`); None: RFC 9438 as above.
    linux: Option<LinuxArith>,
    /// ns-3.44's `TcpCubic` in whole segments (`ns3_arith`); None: as above.
    ns3_arith: Option<Ns3Arith>,
}

/// ns-3.44's `TcpCubic` (src/internet/model/tcp-cubic.cc), a port of Linux's `bictcp` in
/// whole segments with times in seconds: `m_cWndCnt`, `m_lastMaxCwnd`, `m_epochStart`,
/// `m_bicOriginPoint`, `m_bicK`, `m_ackCnt`, `m_tcpCwnd` and `m_delayMin`.
#[derive(Clone, Debug, Default)]
struct Ns3Arith {
    cwnd_cnt: u64,
    last_max_cwnd: u32,
    epoch: Option<SimTime>,
    origin: u32,
    k: f64,
    ack_cnt: u64,
    tcp_cwnd: u64,
    delay_min: Option<f64>,
}

/// `TcpCubic`'s `m_cubicDelta`: delay samples are discarded this long after an epoch starts.
const NS3_CUBIC_DELTA_S: f64 = 0.010;

impl Ns3Arith {
    /// `TcpCubic::Update`: the number of segments to acknowledge per segment of growth for a
    /// window of `cwnd` whole segments after `acked` more.
    #[allow(clippy::too_many_arguments)]
    fn update(
        &mut self,
        cwnd: u32,
        acked: u64,
        now: SimTime,
        c: f64,
        beta: f64,
        clamp: f64,
        friendly: bool,
    ) -> u64 {
        self.ack_cnt += acked;
        let epoch = *self.epoch.get_or_insert_with(|| {
            self.ack_cnt = acked;
            self.tcp_cwnd = u64::from(cwnd);
            if self.last_max_cwnd <= cwnd {
                self.k = 0.0;
                self.origin = cwnd;
            } else {
                self.k = (f64::from(self.last_max_cwnd - cwnd) / c).cbrt();
                self.origin = self.last_max_cwnd;
            }
            now
        });
        let t = now.since(epoch).as_secs_f64() + self.delay_min.unwrap_or(0.0);
        // `uint32_t delta = m_c * std::pow(offs, 3)`: truncated, and the target taken in
        // 32-bit unsigned arithmetic (below the origin it wraps if delta exceeds it).
        let delta = (c * (t - self.k).abs().powi(3)) as u32;
        let target = if t < self.k {
            self.origin.wrapping_sub(delta)
        } else {
            self.origin.wrapping_add(delta)
        };
        let cwnd64 = u64::from(cwnd);
        let mut cnt = if target > cwnd {
            cwnd64 / u64::from(target - cwnd)
        } else {
            100 * cwnd64
        };
        if self.last_max_cwnd == 0 && cnt as f64 > clamp {
            cnt = clamp as u64;
        }
        if friendly {
            let scale = (8.0 * (1024.0 + beta * 1024.0) / 3.0 / (1024.0 - beta * 1024.0)) as u64;
            let delta = (cwnd64 * scale) >> 3;
            while delta > 0 && self.ack_cnt > delta {
                self.ack_cnt -= delta;
                self.tcp_cwnd += 1;
            }
            if self.tcp_cwnd > cwnd64 {
                cnt = cnt.min(cwnd64 / (self.tcp_cwnd - cwnd64));
            }
        }
        cnt.max(2)
    }
}

/// Linux's `struct bictcp` and `snd_cwnd_cnt`, in whole segments and jiffies.
#[derive(Clone, Debug, Default)]
struct LinuxArith {
    cnt: u64,
    last_max_cwnd: u64,
    last_cwnd: u64,
    last_time: u64,
    /// The epoch's first jiffy + 1 (0: no epoch).
    epoch: u64,
    origin: u64,
    k: f64,
    ack_cnt: u64,
    tcp_cwnd: u64,
    delay_min: f64,
    cwnd_cnt: u64,
}

/// Linux's HZ on the machine compared against (docs/validation.md).
const HZ: f64 = 250.0;
/// `beta` 717/1024 and `beta_scale` as `tcp_cubic.c` computes them.
const LINUX_BETA: u64 = 717;
const LINUX_BETA_SCALE: u64 = 8 * (1024 + LINUX_BETA) / 3 / (1024 - LINUX_BETA);

impl LinuxArith {
    /// `bictcp_update`: sets `cnt` for a whole window `cwnd` after `acked` segments.
    fn update(&mut self, cwnd: u64, acked: u64, now: u64, c: f64) {
        self.ack_cnt += acked;
        if self.last_cwnd == cwnd && now.saturating_sub(self.last_time) <= (HZ as u64) / 32 {
            return;
        }
        if !(self.epoch != 0 && now == self.last_time) {
            self.last_cwnd = cwnd;
            self.last_time = now;
            if self.epoch == 0 {
                self.epoch = now + 1;
                self.ack_cnt = acked;
                self.tcp_cwnd = cwnd;
                if self.last_max_cwnd <= cwnd {
                    self.k = 0.0;
                    self.origin = cwnd;
                } else {
                    self.k = ((self.last_max_cwnd - cwnd) as f64 / c).cbrt();
                    self.origin = self.last_max_cwnd;
                }
            }
            let t = (now + 1 - self.epoch) as f64 / HZ + self.delay_min;
            let target = (self.origin as f64 + c * (t - self.k).powi(3)).max(0.0) as u64;
            self.cnt = if target > cwnd {
                cwnd / (target - cwnd)
            } else {
                100 * cwnd
            };
            if self.last_max_cwnd == 0 && self.cnt > 20 {
                self.cnt = 20;
            }
        }
        // tcp_friendliness
        let delta = (cwnd * LINUX_BETA_SCALE) >> 3;
        while delta > 0 && self.ack_cnt > delta {
            self.ack_cnt -= delta;
            self.tcp_cwnd += 1;
        }
        if self.tcp_cwnd > cwnd {
            let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
            self.cnt = self.cnt.min(max_cnt);
        }
        self.cnt = self.cnt.max(2);
    }
}

crate::params! {
    /// CUBIC's parameters (`cc_params`), each with its declaration.
    pub struct CubicParams {
        beta: f64 = Param::new("beta", 0.7, Range::Between(0.0, 1.0), "beta_cubic: window kept on a loss")
            .ns2("cubic_beta_")
            .ns3("Beta"),
        c: f64 = Param::new("c", 0.4, Range::Positive, "C, the cubic's scale")
            .ns2("cubic_scale_")
            .ns3("C"),
        fast_convergence: bool = Param::new("fast_convergence", 1.0, Range::Flag, "lower W_max after a shrink")
            .ns2("cubic_fast_convergence_")
            .ns3("FastConvergence"),
        reno_friendly: bool = Param::new("reno_friendly", 1.0, Range::Flag, "the Reno-friendly region (4.3)")
            .ns3("TcpFriendliness"),
        linux_arith: bool = Param::new("linux_arith", 0.0, Range::Flag, "Linux's bictcp_update in integers")
            .profile_defaults(&[("linux", 1.0)]),
        cnt_clamp: f64 = Param::new("cnt_clamp", 0.0, Range::NonNegative, "before a loss, grow 1/N per segment at least; 0: off")
            .ns3("CntClamp")
            .profile_defaults(&[("ns3", 20.0)]),
        max_increment: f64 = Param::new("max_increment", 0.0, Range::NonNegative, "S_max: grow at most this many segments a window per 100 ms of minimum RTT; 0: off")
            .ns2("cubic_max_increment_"),
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "slow start as ns-3.44's TcpCubic::IncreaseWindow: every segment acknowledged, past ssthresh")
            .profile_defaults(&[("ns3", 1.0)]),
        ns3_arith: bool = Param::new("ns3_arith", 0.0, Range::Flag, "ns-3.44's TcpCubic::Update, IncreaseWindow and GetSsThresh in whole segments (Linux's bictcp with times in seconds)")
            .profile_defaults(&[("ns3", 1.0)]),
    }
}

impl CongestionOps for Cubic {
    const INFO: CcInfo = CcInfo {
        name: "cubic",
        ns3: &[Ns3Class::segments("TcpCubic").cwnd_gated()],
        ecn_per_segment: false,
        params: CubicParams::PARAMS,
    };

    type Params = CubicParams;

    fn new(p: &CubicParams, setup: &CcSetup) -> Cubic {
        Cubic {
            beta: p.beta,
            c: p.c,
            fast_convergence: p.fast_convergence,
            reno_friendly: p.reno_friendly,
            cnt_clamp: p.cnt_clamp,
            max_increment: p.max_increment,
            ns3: p.ns3_model,
            delay_min: 0.0,
            reduced: false,
            w_max: 0.0,
            k: 0.0,
            epoch: None,
            cwnd_epoch: 0.0,
            w_est: 0.0,
            srtt: 0.0,
            hystart: setup.hystart.map(HyStart::new),
            linux: (p.linux_arith).then(LinuxArith::default),
            ns3_arith: (p.ns3_arith && !p.linux_arith).then(Ns3Arith::default),
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if self.linux.is_some() {
            self.linux_cong_avoid(w, ev);
            return;
        }
        if self.ns3_arith.is_some() {
            self.ns3_cong_avoid(w, ev);
            return;
        }
        if let Some(sample) = ev.delay.or(ev.rtt) {
            let r = sample.as_secs_f64();
            if r > 0.0 && (self.delay_min == 0.0 || r < self.delay_min) {
                self.delay_min = r;
            }
            self.srtt = if self.srtt == 0.0 {
                r
            } else {
                0.875 * self.srtt + 0.125 * r
            };
            if let Some(h) = self.hystart.as_mut() {
                // HyStart's delay samples are skipped early in an epoch (Linux: its first
                // second): they still carry the queue that the reduction is draining.
                let settle = h.rules().settle();
                if self.epoch.is_none_or(|e| ev.now.since(e) >= settle) {
                    h.on_sample(w, &ev, sample);
                }
            }
        }
        if w.cwnd < w.ssthresh {
            if self.ns3 {
                ns3_slow_start(w, &ev, false);
            } else {
                slow_start(w, &ev);
            }
            return;
        }
        let start = *self.epoch.get_or_insert_with(|| {
            // A new epoch: from the window after the reduction (or, with no loss yet, from
            // the window slow start ended with).
            self.cwnd_epoch = w.cwnd;
            self.w_est = w.cwnd;
            if self.w_max < w.cwnd {
                self.w_max = w.cwnd;
            }
            self.k = ((self.w_max - w.cwnd).max(0.0) / self.c).cbrt();
            ev.now
        });
        let t = ev.now.since(start).as_secs_f64();
        let target = self.w_cubic(t + self.srtt);
        let alpha = 3.0 * (1.0 - self.beta) / (1.0 + self.beta);
        self.w_est += alpha * ev.credit / w.cwnd;
        // ns-3's `CntClamp` before any congestion event (0 with the clamp off).
        let floor = if self.cnt_clamp > 0.0 && !self.reduced {
            ev.credit / self.cnt_clamp
        } else {
            0.0
        };
        if self.reno_friendly && self.w_cubic(t) < self.w_est {
            // Reno-friendly region.
            w.cwnd = (w.cwnd + floor).max(self.w_est);
        } else if target > w.cwnd {
            let mut grow = (target - w.cwnd) / w.cwnd;
            if self.max_increment > 0.0 && self.delay_min > 0.0 {
                // CUBIC 2.0's min_cnt: at most S_max x delay_min / 0.1 s segments a window.
                grow = grow.min(self.max_increment * self.delay_min / 0.1 / w.cwnd);
            }
            w.cwnd += (grow * ev.credit).max(floor);
        } else {
            // At or above the target: grow very slowly (RFC 9438 4.4 allows up to 1/(100 cwnd)).
            w.cwnd += (0.01 * ev.credit / w.cwnd).max(floor);
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        if let Some(n) = self.ns3_arith.as_mut() {
            // TcpCubic::GetSsThresh: W_max in whole segments of cwnd (not the receiver's
            // window), fast convergence's (1 + beta) / 2 truncated; the epoch ends.
            let cwnd = w.cwnd.max(0.0) as u32;
            n.last_max_cwnd = if self.fast_convergence && cwnd < n.last_max_cwnd {
                (f64::from(cwnd) * (1.0 + self.beta) / 2.0) as u32
            } else {
                cwnd
            };
            n.epoch = None;
            self.w_max = f64::from(n.last_max_cwnd);
            return ((f64::from(cwnd) * self.beta) as u32).max(2) as f64;
        }
        if let Some(la) = self.linux.as_mut() {
            // bictcp_recalc_ssthresh
            let cwnd = w.cwnd.min(w.rwnd).max(0.0) as u64;
            la.epoch = 0;
            la.cwnd_cnt = 0; // tcp_init_cwnd_reduction
            la.last_max_cwnd = if self.fast_convergence && cwnd < la.last_max_cwnd {
                cwnd * (1024 + LINUX_BETA) / 2048
            } else {
                cwnd
            };
            self.w_max = la.last_max_cwnd as f64;
            return (cwnd * LINUX_BETA / 1024).max(2) as f64;
        }
        let cwnd = w.cwnd.min(w.rwnd);
        self.reduced = true;
        self.w_max = if self.fast_convergence && cwnd < self.w_max {
            cwnd * (1.0 + self.beta) / 2.0
        } else {
            cwnd
        };
        self.epoch = None;
        cwnd * self.beta
    }

    fn set_state(&mut self, _w: &mut Window, state: CaState, _conn: &Conn) {
        if state == CaState::Loss {
            self.on_timeout();
        }
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [
            ("cubic_wmax", self.w_max),
            ("cubic_k", self.k),
            NO_TRACE,
            NO_TRACE,
        ]
    }
}

impl Cubic {
    /// W_cubic(t) for t seconds into the epoch.
    pub fn w_cubic(&self, t: f64) -> f64 {
        self.c * (t - self.k).powi(3) + self.w_max
    }

    /// Linux's `tcp_cubic.c` (`linux_arith`): `cubictcp_acked`'s minimum delay, slow start
    /// (`tcp_slow_start`: up to ssthresh, the rest of the ACK in congestion avoidance),
    /// `bictcp_update` and `tcp_cong_avoid_ai`, in whole segments.
    fn linux_cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        let c = self.c;
        let now = (ev.now.0 as f64 * 1e-12 * HZ) as u64;
        let Some(la) = self.linux.as_mut() else {
            return;
        };
        if let Some(d) = ev.delay {
            let d = d.as_secs_f64();
            let settling = la.epoch != 0 && now + 1 < la.epoch + HZ as u64;
            if d > 0.0 && !settling && (la.delay_min == 0.0 || d < la.delay_min) {
                la.delay_min = d;
            }
        }
        if w.cwnd < w.ssthresh {
            if let Some(h) = self.hystart.as_mut() {
                if let Some(sample) = ev.delay.or(ev.rtt) {
                    h.on_sample(w, &ev, sample);
                }
            }
        }
        let mut cwnd = w.cwnd.max(1.0) as u64;
        let mut acked = ev.acked;
        if (cwnd as f64) < w.ssthresh {
            let cap = if w.ssthresh.is_finite() {
                w.ssthresh as u64
            } else {
                u64::MAX
            };
            let grown = (cwnd + acked).min(cap.max(cwnd));
            acked -= grown - cwnd;
            cwnd = grown;
            w.cwnd = cwnd as f64;
            if acked == 0 {
                return;
            }
        }
        la.update(cwnd, acked, now, c);
        let cnt = la.cnt.max(1);
        if la.cwnd_cnt >= cnt {
            la.cwnd_cnt = 0;
            cwnd += 1;
        }
        la.cwnd_cnt += acked;
        if la.cwnd_cnt >= cnt {
            let d = la.cwnd_cnt / cnt;
            la.cwnd_cnt -= d * cnt;
            cwnd += d;
        }
        w.cwnd = cwnd as f64;
    }

    /// ns-3.44's `TcpCubic` (`ns3_arith`): `PktsAcked`'s minimum delay (not within
    /// `m_cubicDelta` of an epoch's start) and HyStart, then `IncreaseWindow`: slow start
    /// by every segment acknowledged (past ssthresh, the whole ACK), else one segment once
    /// `m_cWndCnt` reaches `Update`'s count.
    fn ns3_cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        let (c, beta, clamp, friendly) = (self.c, self.beta, self.cnt_clamp, self.reno_friendly);
        let Some(n) = self.ns3_arith.as_mut() else {
            return;
        };
        if let Some(sample) = ev.delay.or(ev.rtt) {
            let r = sample.as_secs_f64();
            let settling = n
                .epoch
                .is_some_and(|e| ev.now.since(e).as_secs_f64() < NS3_CUBIC_DELTA_S);
            if !settling {
                if n.delay_min.is_none_or(|d| r < d) {
                    n.delay_min = Some(r);
                }
                if let Some(h) = self.hystart.as_mut() {
                    h.on_sample(w, &ev, sample);
                }
            }
        }
        if w.cwnd < w.ssthresh {
            if self.ns3 {
                ns3_slow_start(w, &ev, false);
            } else {
                slow_start(w, &ev);
            }
            return;
        }
        if ev.acked == 0 {
            return;
        }
        n.cwnd_cnt += ev.acked;
        let cnt = n.update(
            w.cwnd.max(0.0) as u32,
            ev.acked,
            ev.now,
            c,
            beta,
            clamp,
            friendly,
        );
        if n.cwnd_cnt >= cnt {
            w.cwnd += 1.0; // m_cWnd += m_segmentSize
            n.cwnd_cnt -= cnt;
        }
        self.k = n.k;
    }

    pub fn on_timeout(&mut self) {
        if let Some(n) = self.ns3_arith.as_mut() {
            // TcpCubic::CongestionStateSet(CA_LOSS): CubicReset and HystartReset; W_max,
            // the epoch and m_cWndCnt stay.
            n.origin = 0;
            n.k = 0.0;
            n.ack_cnt = 0;
            n.tcp_cwnd = 0;
            n.delay_min = None;
            if let Some(h) = self.hystart.as_mut() {
                h.reset();
            }
            return;
        }
        if let Some(la) = self.linux.as_mut() {
            // cubictcp_state(TCP_CA_Loss): bictcp_reset (delay_min too); tcp_enter_loss
            // clears snd_cwnd_cnt.
            *la = LinuxArith::default();
        }
        self.epoch = None;
        self.w_max = 0.0;
        self.reduced = false;
        if let Some(h) = self.hystart.as_mut() {
            h.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;
    use std::collections::BTreeMap;

    fn ack(now: SimTime) -> AckEvent {
        AckEvent::one_segment(now, Some(SimDuration::from_millis(100)))
    }

    /// Just after a loss from a small W_max the cubic function is nearly flat and the
    /// Reno-friendly estimate (alpha = 3 (1 - beta) / (1 + beta) = 0.53 segment per window)
    /// leads: with `reno_friendly` cwnd follows W_est, without it only W_cubic.
    #[test]
    fn reno_friendly_region_can_be_turned_off() {
        let grown = |friendly: f64| {
            let given = BTreeMap::from([("reno_friendly".to_string(), friendly)]);
            let mut c = Cubic::new(&CubicParams::given(&given).unwrap(), &CcSetup::default());
            let mut w = Window::new(20.0, 1e9, 1e9);
            let reduced = c.ssthresh(&w, SimTime::ZERO);
            w.cwnd = reduced;
            w.ssthresh = reduced;
            let mut now = SimTime::ZERO;
            // Ten windows of ACKs in 98 ms (a 10 ms path): W_cubic has hardly moved.
            for _ in 0..140 {
                now += SimDuration(700_000_000);
                c.cong_avoid(&mut w, ack(now));
            }
            (w.cwnd, c.w_cubic(now.as_secs_f64() + 0.1), c.w_est)
        };
        let (on, _, w_est) = grown(1.0);
        let (off, cubic, _) = grown(0.0);
        assert!((on - w_est).abs() < 1e-9, "{on} vs W_est {w_est}");
        assert!(off < on - 0.3, "{off} vs {on}");
        assert!(off <= cubic + 1e-9, "{off} above W_cubic {cubic}");
    }

    /// CUBIC 2.0's S_max (`max_increment`): far below W_max after a loss the cubic would
    /// grow cwnd by hundreds of segments a round trip; with S_max 16 and 100 ms samples it
    /// grows 16 a window (one window of ACKs: cwnd ACKs of one segment each).
    #[test]
    fn max_increment_caps_growth_per_window() {
        let grown = |smax: f64| {
            let given = BTreeMap::from([
                ("max_increment".to_string(), smax),
                ("reno_friendly".to_string(), 0.0),
                ("c".to_string(), 40.0), // K = cbrt(3000 / 40) = 4.2 s: a steep start
            ]);
            let mut c = Cubic::new(&CubicParams::given(&given).unwrap(), &CcSetup::default());
            let mut w = Window::new(10_000.0, 1e9, 1e9);
            w.cwnd = c.ssthresh(&w, SimTime::ZERO);
            w.ssthresh = w.cwnd;
            let mut now = SimTime::ZERO;
            c.cong_avoid(&mut w, ack(now)); // the epoch starts
            let before = w.cwnd;
            for _ in 0..before as usize {
                now += SimDuration((0.1 / before * 1e12) as u64);
                c.cong_avoid(&mut w, ack(now));
            }
            w.cwnd - before
        };
        let capped = grown(16.0);
        assert!(capped > 15.9 && capped <= 16.0 + 1e-9, "{capped}");
        assert!(grown(0.0) > 100.0, "{}", grown(0.0));
    }

    /// ns-3's `CntClamp` (20): after slow start ended without a loss (HyStart), cwnd grows
    /// by 1/20 segment per segment acknowledged, one segment per 20: 56 segments of ACKs move
    /// a 56-segment window to 58.8. The cubic alone (K = 0 from that window, one 100 ms round)
    /// adds C x 0.2^3 segments in all; once a loss set W_max the floor is gone.
    #[test]
    fn cnt_clamp_grows_the_window_before_the_first_loss() {
        let run = |clamp: f64, lost: bool| {
            let given = BTreeMap::from([
                ("cnt_clamp".to_string(), clamp),
                ("reno_friendly".to_string(), 0.0),
            ]);
            let mut c = Cubic::new(&CubicParams::given(&given).unwrap(), &CcSetup::default());
            let mut w = Window::new(56.0, 56.0, 1e9);
            if lost {
                // A loss at 56 segments: W_max 56, K = 0, the same cubic as without one.
                c.ssthresh(&Window::new(56.0, 1e9, 1e9), SimTime::ZERO);
            }
            let mut now = SimTime::ZERO;
            for _ in 0..56 {
                now += SimDuration(100_000_000_000 / 56);
                c.cong_avoid(&mut w, ack(now));
            }
            w.cwnd
        };
        assert!(
            (run(20.0, false) - 58.8).abs() < 1e-9,
            "{}",
            run(20.0, false)
        );
        let off = run(0.0, false);
        assert!(off > 56.0 && off < 56.1, "{off}");
        assert!(run(20.0, true) < 56.1, "{}", run(20.0, true));
    }

    #[test]
    fn window_follows_the_cubic_function_after_a_loss() {
        let given = BTreeMap::new();
        let mut c = Cubic::new(&CubicParams::given(&given).unwrap(), &CcSetup::default());
        let mut w = Window::new(1000.0, 1e9, 1e9);
        let reduced = c.ssthresh(&w, SimTime::ZERO);
        assert!((reduced - 700.0).abs() < 1e-9);
        w.cwnd = reduced;
        w.ssthresh = reduced;
        // K = cbrt(1000 x 0.3 / 0.4) = 9.09 s: W(t) is back at W_max after K.
        let mut now = SimTime::ZERO;
        c.cong_avoid(&mut w, ack(now));
        assert!((c.k - (300.0f64 / 0.4).cbrt()).abs() < 1e-9, "{}", c.k);
        // One ACK per 1/cwnd of an RTT: run 12 s of ACK clock.
        let mut samples = Vec::new();
        while now.as_secs_f64() < 12.0 {
            let gap = SimDuration((0.1 / w.cwnd * 1e12) as u64);
            now += gap;
            c.cong_avoid(&mut w, ack(now));
            samples.push((now.as_secs_f64(), w.cwnd));
        }
        for &(t, cwnd) in samples.iter().filter(|s| s.0 > 1.0).step_by(500) {
            let expect = c.w_cubic(t + 0.1).max(700.0);
            assert!(
                (cwnd - expect).abs() / expect < 0.02,
                "t {t}: {cwnd} vs {expect}"
            );
        }
        let near_k = samples.iter().find(|s| s.0 >= c.k).unwrap();
        assert!((near_k.1 - 1000.0).abs() < 10.0, "{near_k:?}");
    }

    #[test]
    fn fast_convergence_lowers_w_max_when_the_window_shrank() {
        let given = BTreeMap::from([("beta".to_string(), 0.8)]);
        let mut c = Cubic::new(&CubicParams::given(&given).unwrap(), &CcSetup::default());
        let w = |cwnd| Window::new(cwnd, 1.0, 1e9);
        c.ssthresh(&w(1000.0), SimTime::ZERO);
        assert_eq!(c.w_max, 1000.0);
        let r = c.ssthresh(&w(900.0), SimTime::ZERO);
        assert!((c.w_max - 900.0 * 1.8 / 2.0).abs() < 1e-9);
        assert!((r - 720.0).abs() < 1e-9);
    }

    #[test]
    fn after_a_timeout_the_cubic_function_starts_at_the_current_window() {
        // RFC 9438 4.8: K = 0 and W_max the window at the start of congestion avoidance.
        let given = BTreeMap::new();
        let mut c = Cubic::new(&CubicParams::given(&given).unwrap(), &CcSetup::default());
        let mut w = Window::new(1000.0, 1e9, 1e9);
        w.ssthresh = c.ssthresh(&w, SimTime::ZERO);
        c.on_timeout();
        w.cwnd = 300.0;
        w.ssthresh = 300.0;
        c.cong_avoid(&mut w, ack(SimTime(1_000_000_000_000)));
        assert_eq!(c.k, 0.0);
        assert_eq!(c.w_max, 300.0);
    }

    #[test]
    fn hystart_ends_slow_start_before_a_loss_only_when_asked() {
        for on in [false, true] {
            let given = BTreeMap::new();
            let mut c = Cubic::new(
                &CubicParams::given(&given).unwrap(),
                &CcSetup {
                    hystart: on.then_some(super::super::hystart::Rules::Linux),
                    ..CcSetup::default()
                },
            );
            let mut w = Window::new(32.0, f64::INFINITY, 1e9);
            // A 100 ms path whose ACKs come 0.5 ms apart: a train of half the delay after
            // 100 ACKs.
            for i in 0..200u64 {
                let mut ev = ack(SimTime(i * 500_000_000));
                ev.una = i + 1;
                ev.sent = 400;
                c.cong_avoid(&mut w, ev);
            }
            assert_eq!(w.ssthresh.is_finite(), on, "hystart {on}");
        }
    }

    #[test]
    fn linux_arith_follows_bictcp_update_in_integers() {
        // bictcp_update: a new epoch without W_max has K = 0 and its target at cwnd, so cnt is
        // 100 cwnd capped at 20. With cwnd unchanged, ACKs within 1/32 s (8 jiffies) only
        // count; after it, the Reno estimate gains one segment per floor(4 x 15 / 8) = 7
        // acknowledged (8 counted so far pass it), and cnt <= cwnd / (tcp_cwnd - cwnd) = 4.
        let mut la = LinuxArith::default();
        assert_eq!(LINUX_BETA_SCALE, 15);
        for j in 0..8u64 {
            la.update(4, 1, 10 + j, 0.4);
        }
        assert_eq!((la.cnt, la.tcp_cwnd, la.ack_cnt), (20, 4, 8));
        la.update(4, 1, 18, 0.4);
        assert_eq!((la.cnt, la.tcp_cwnd), (4, 5));
        // cnt is at least 2: at most one segment of growth per two acknowledged.
        la.tcp_cwnd = 10;
        la.update(4, 1, 30, 0.4);
        assert_eq!(la.cnt, 2);
    }

    #[test]
    fn linux_arith_is_the_linux_senders_default() {
        // Linux's CUBIC is tcp_cubic.c's integer bictcp_update: a sender that recovers as
        // Linux does (`rack`, the `linux` profile; CcSetup::linux) runs it unless
        // cc_params.linux_arith = 0 turns it off; every other sender runs RFC 9438's form
        // unless linux_arith = 1 asks for Linux's.
        let arith = |linux: bool, given: &[(&str, f64)]| {
            let given: BTreeMap<String, f64> =
                given.iter().map(|&(k, v)| (k.to_string(), v)).collect();
            let setup = CcSetup {
                linux,
                ..CcSetup::default()
            };
            match super::super::CcConfig::parse("cubic", &given)
                .unwrap()
                .build(&setup)
                .unwrap()
            {
                super::super::AnyCc::Cubic(c) => c.linux.is_some(),
                other => panic!("{}", other.name()),
            }
        };
        assert!(arith(true, &[]));
        assert!(!arith(true, &[("linux_arith", 0.0)]));
        assert!(!arith(false, &[]));
        assert!(arith(false, &[("linux_arith", 1.0)]));
        // ns-3's attribute defaults win where both are asked for (the ns3 profile has no rack).
        let ns3 = CcSetup {
            linux: true,
            ns3_defaults: true,
            ..CcSetup::default()
        };
        match "cubic"
            .parse::<super::super::CcConfig>()
            .unwrap()
            .build(&ns3)
            .unwrap()
        {
            super::super::AnyCc::Cubic(c) => assert!(c.linux.is_none()),
            other => panic!("{}", other.name()),
        }
    }

    #[test]
    fn linux_arith_reduces_in_whole_segments() {
        // bictcp_recalc_ssthresh: max(cwnd x 717 / 1024, 2); W_max (1024 + 717) cwnd / 2048
        // below the previous W_max (fast convergence).
        let given = BTreeMap::from([("linux_arith".to_string(), 1.0)]);
        let p = CubicParams::given(&given).unwrap();
        let mut c = Cubic::new(&p, &CcSetup::default());
        let mut w = Window::new(5.0, f64::INFINITY, 1e9);
        assert_eq!(c.ssthresh(&w, SimTime::ZERO), 3.0);
        assert_eq!(c.linux.as_ref().unwrap().last_max_cwnd, 5);
        w.cwnd = 4.0;
        assert_eq!(c.ssthresh(&w, SimTime::ZERO), 2.0);
        assert_eq!(c.linux.as_ref().unwrap().last_max_cwnd, 4 * 1741 / 2048);
    }

    /// `ns3_arith`: ns-3.44's `TcpCubic` on the ACK that ends a recovery, as its log shows
    /// it in queue-discs-benchmark (CoDel with BQL, 1.1018 s): cwnd 95 -> ssthresh 66 and
    /// W_max 95; the ACK of 97 segments starts the epoch with K = ((95 - 66) / 0.4)^(1/3)
    /// = 4.16978, delta 28 (truncated), target 67, cnt 66: one segment more; the next ACK
    /// (2 segments, 43.2 us later) finds target 67 = cwnd, cnt 6700, and no growth.
    #[test]
    fn ns3_arith_follows_tcp_cubic_update() {
        let p = CubicParams::for_profile(Some("ns3"));
        assert!(p.ns3_arith);
        let mut c = Cubic::new(&p, &CcSetup::default());
        let mut w = Window::new(95.0, 1e9, 1e9);
        let ss = c.ssthresh(&w, SimTime::ZERO);
        assert_eq!(ss, 66.0, "max(uint32(95 x 0.7), 2)");
        assert_eq!(c.w_max, 95.0);
        w.cwnd = ss;
        w.ssthresh = ss;
        let t0 = SimTime(1_101_842_721_000);
        let mut ev = AckEvent::one_segment(t0, Some(SimDuration::from_secs_f64(0.0105)));
        ev.acked = 97;
        ev.credit = 97.0;
        c.cong_avoid(&mut w, ev);
        assert_eq!(w.cwnd, 67.0);
        assert!((c.k - 4.16978).abs() < 1e-5, "{}", c.k);
        let n = c.ns3_arith.as_ref().unwrap();
        assert_eq!((n.origin, n.cwnd_cnt), (95, 97 - 66));
        let mut ev = AckEvent::one_segment(
            SimTime(t0.0 + 43_200_000),
            Some(SimDuration::from_millis(9)),
        );
        ev.acked = 2;
        ev.credit = 2.0;
        c.cong_avoid(&mut w, ev);
        assert_eq!(w.cwnd, 67.0, "cnt 100 x 67: no growth yet");
        let n = c.ns3_arith.as_ref().unwrap();
        assert_eq!(n.cwnd_cnt, 33);
        assert_eq!(
            n.delay_min,
            Some(0.0105),
            "a sample within 10 ms of the epoch is skipped"
        );
        // A second reduction below W_max: fast convergence's (1 + beta) / 2, truncated.
        w.cwnd = 80.0;
        assert_eq!(c.ssthresh(&w, SimTime::ZERO), 56.0);
        assert_eq!(c.w_max, 68.0, "uint32(80 x 1.7 / 2)");
    }
}
