//! Retransmission timer per RFC 6298, "Computing TCP's Retransmission Timer".
//!
//! - (2.2) first sample R: SRTT = R, RTTVAR = R/2.
//! - (2.3) later samples: RTTVAR = (1 - beta) RTTVAR + beta |SRTT - R|, then
//!   SRTT = (1 - alpha) SRTT + alpha R, with alpha = 1/8, beta = 1/4.
//! - RTO = SRTT + max(G, K RTTVAR), K = 4, G the clock granularity.
//! - (2.4) RTO below the floor is rounded up to it (RFC 6298 says 1 s; `min_rto` makes it
//!   settable, ns-2.35 uses 0.2 s); a maximum may be placed on it (`max_rto`, at least 60 s).
//! - (5.5) on expiry the timer backs off: RTO doubles (capped at `max_rto`).
//! - Karn's rule (section 3) is the sender's job: it never times a retransmitted segment.
//!
//! Samples are measured on a clock that ticks every G, as BSD and ns-2 (`tcpTick_`) do:
//! a sample is rounded to the nearest tick, and is at least one tick.
//!
//! With `rto_rule = "linux"` the floor applies to the variation term, not to the RTO:
//! RTO = SRTT + max(K RTTVAR, `min_rto`), as Linux computes it (its `rttvar` is never below
//! `tcp_rto_min`: `tcp_rtt_estimator` and `tcp_set_rto` in net/ipv4/tcp_input.c; P. Sarolahti
//! and A. Kuznetsov, "Congestion Control in Linux TCP", USENIX 2002). On a 100 ms path Linux waits about
//! 300 ms where RFC 6298 with a 200 ms floor waits 200 ms. Linux's per-round-trip decay of its
//! variation maximum and its lighter weight for falling samples are not modelled.
//!
//! With `rto_rule = "ikr"` the timer is IKRSimLib's (the IKR TCP Library, University of
//! Stuttgart, 2000-2004, as ported to IT++: `TCP_Sender::UpdateRTTVariables` and
//! `CalcRTOValue` in itpp/protocol/tcp.cpp): samples are not read on a ticking clock; SRTT is
//! updated first and RTTVAR from the new SRTT (RTTVAR = 3/4 RTTVAR + 1/4 |R - SRTT'|, the
//! order of Comer's textbook, not of RFC 6298 2.3); the RTO is SRTT + 4 RTTVAR rounded *up*
//! to a multiple of the timer granularity G (`TimerGranularity`, 200 ms in seed 002), with
//! no floor besides that rounding and `min_rto`.
//!
//! With `rto_rule = "pre_rfc2988"` the floor applies after the backoff, as ns-2.35's
//! `TcpAgent::rtt_timeout` computes it with `rfc2988_` false ("only of interest for backwards
//! compatibility"): timeout = max(`min_rto`, backoff x (SRTT + 4 RTTVAR)), where RFC 2988 /
//! 6298 (and `rfc2988_` true) back off the floored RTO, backoff x max(`min_rto`, SRTT + 4
//! RTTVAR). The two differ only while SRTT + 4 RTTVAR is below the floor and the timer has
//! backed off.
//!
//! With `ns2_rtt_timer` the estimator is ns-2.35's own arithmetic (tcp/tcp.cc), not RFC 6298's
//! exact one: `TcpAgent::rtt_update` counts a sample as the whole ticks of `tcpTick_` crossed
//! between the segment's send time and the ACK, on a tick grid offset by the agent's
//! `boot_time_` (a uniform draw in [0, tick), `TcpAgent::reset`; with timestamps, the sample
//! rounded to the nearest tick), at least one; keeps `t_srtt_` in ticks scaled by 8
//! (`T_SRTT_BITS` 3) and `t_rttvar_` scaled by 4 (`T_RTTVAR_BITS` 2) as integers, updated
//! by shifts that truncate (srtt += m - srtt / 8, rttvar += |m - srtt| - rttvar / 4, each kept
//! at least 1); and `t_rtxcur_` = (srtt + 4 rttvar) in whole ticks (`rttvar_exp_` 2).
//! `TcpAgent::rtt_timeout` then floors it at `minrto_` before the backoff (`rfc2988_` true,
//! the `rfc6298` rule) or after it (`pre_rfc2988`), caps it at `maxrto_` and raises it to two
//! ticks; `TcpAgent::rtt_backoff` doubles the backoff below 64, and past 64 while the
//! timeout is below `maxrto_` (`rfc2988_` true), and past a backoff of 8 moves srtt into
//! rttvar and clears srtt, so that the next sample starts the estimate afresh. Before the
//! first sample the timeout is `rtxcur_init_` (`initial_rto`), not floored.

use crate::time::{SimDuration, SimTime};

/// The RTO rule (`rto_rule`): `rfc6298`, RTO = max(min_rto, SRTT + 4 RTTVAR); `linux`,
/// SRTT + max(4 RTTVAR, min_rto); `ikr`, SRTT + 4 RTTVAR rounded up to the granularity,
/// IKRSimLib's (module docs).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum RtoRule {
    #[default]
    Rfc6298,
    Linux,
    Ikr,
    #[serde(rename = "pre_rfc2988")]
    PreRfc2988,
}

/// Backoff stops doubling here, as BSD's and ns-2's (64) do.
pub const MAX_BACKOFF: u32 = 64;

#[derive(Clone, Debug)]
pub struct RttEstimator {
    /// Smoothed RTT and its variation, in picoseconds; zero until the first sample.
    pub srtt: u64,
    pub rttvar: u64,
    /// RTO before backoff.
    rto: u64,
    pub backoff: u32,
    pub last_sample: u64,
    has_sample: bool,
    min_rto: u64,
    max_rto: u64,
    granularity: u64,
    /// Where the floor and the granularity enter (`rto_rule`).
    rule: RtoRule,
    /// ns-2.35's fixed-point timer (`ns2_rtt_timer`, module docs); boxed: most flows do not
    /// use it.
    ns2: Option<Box<Ns2Timer>>,
    /// RFC 793's rules (`with_rfc793`): RTO = 2 SRTT, and whether the timer backs off.
    rfc793: Option<Rfc793Timer>,
    /// The `ikr` rule's delayed backoff reset (IKRSimLib's `fPendingBackoffReset`).
    ikr_pending_reset: bool,
}

/// The `rfc793` variant's timer (`RttEstimator::with_rfc793`).
#[derive(Clone, Copy, Debug)]
struct Rfc793Timer {
    two_srtt: bool,
    backoff: bool,
}

/// ns-2.35's timer state (`TcpAgent`'s `t_srtt_`, `t_rttvar_`, `t_rtxcur_`, `boot_time_`).
#[derive(Clone, Debug)]
struct Ns2Timer {
    /// `tcpTick_` and `boot_time_`, in picoseconds.
    tick: u64,
    boot: u64,
    /// `t_srtt_`: ticks x 2^`srtt_bits` (8); 0 before the first sample and after a
    /// clobbering backoff.
    t_srtt: i64,
    /// `t_rttvar_`: ticks x 2^`rttvar_bits` (4).
    t_rttvar: i64,
    /// `T_SRTT_BITS` (3), `T_RTTVAR_BITS` (2) and `rttvar_exp_` (2): the estimator's gains
    /// 1/2^bits and the RTO's srtt + 2^rttvar_exp_ rttvar (`with_ns2_bits`).
    srtt_bits: u32,
    rttvar_bits: u32,
    rttvar_exp: u32,
    /// `t_rtxcur_`, in picoseconds.
    rtxcur: u64,
}

impl RttEstimator {
    pub fn new(
        initial_rto: SimDuration,
        min_rto: SimDuration,
        max_rto: SimDuration,
        granularity: SimDuration,
    ) -> Self {
        RttEstimator {
            srtt: 0,
            rttvar: 0,
            rto: initial_rto.0.clamp(min_rto.0, max_rto.0),
            backoff: 1,
            last_sample: 0,
            has_sample: false,
            min_rto: min_rto.0,
            max_rto: max_rto.0,
            granularity: granularity.0,
            rule: RtoRule::Rfc6298,
            ns2: None,
            rfc793: None,
            ikr_pending_reset: false,
        }
    }

    /// ns-2.35's `RFC793eduTcpAgent` timer (`tcp::sender::rfc793`): with `two_srtt` the RTO
    /// is RFC 793 section 3.7's BETA x SRTT, BETA 2 (`rtt_update`: `t_srtt_ >>
    /// (T_SRTT_BITS - 1)` whole ticks under the ns-2 timer), else SRTT + 4 RTTVAR; with
    /// `backoff` each expiry doubles the timeout while the backoff is below 64 (and past 8
    /// the ns-2 timer moves SRTT into RTTVAR), whatever `rto_rule` says (`rtt_backoff`, which
    /// has no `rfc2988_` branch); without it the backoff stays 1.
    pub fn with_rfc793(mut self, two_srtt: bool, backoff: bool) -> Self {
        self.rfc793 = Some(Rfc793Timer { two_srtt, backoff });
        self
    }

    /// ns-2.35's fixed-point timer (module docs): ticks of the granularity, the sample grid
    /// offset by `boot_time`; the timeout before the first sample is `initial_rto`.
    pub fn with_ns2_timer(mut self, initial_rto: SimDuration, boot_time: SimDuration) -> Self {
        let tick = self.granularity.max(1);
        self.rto = initial_rto.0;
        self.ns2 = Some(Box::new(Ns2Timer {
            tick,
            boot: boot_time.0 % tick,
            t_srtt: 0,
            t_rttvar: 0,
            srtt_bits: 3,
            rttvar_bits: 2,
            rttvar_exp: 2,
            rtxcur: initial_rto.0,
        }));
        self
    }

    /// ns-2.35's `T_SRTT_BITS`, `T_RTTVAR_BITS` and `rttvar_exp_` for the fixed-point timer
    /// (nothing without it): `TcpAgent::rtt_update` keeps srtt scaled by 2^srtt_bits and
    /// rttvar by 2^rttvar_bits, so each sample moves them by 1/2^bits of the error, and the
    /// timeout is srtt + 2^rttvar_exp rttvar. `srtt_bits` is at least `rttvar_bits` (ns-2
    /// shifts by their difference).
    pub fn with_ns2_bits(mut self, srtt_bits: u32, rttvar_bits: u32, rttvar_exp: u32) -> Self {
        if let Some(n) = self.ns2.as_deref_mut() {
            n.srtt_bits = srtt_bits;
            n.rttvar_bits = rttvar_bits.min(srtt_bits);
            n.rttvar_exp = rttvar_exp;
        }
        self
    }

    /// A new `boot_time_` for ns-2's timer (nothing without it): `TcpAgent::reset` draws one
    /// when a FullTcp agent connects (`FullTcpAgent::advance_bytes` in CLOSED).
    pub fn set_ns2_boot_time(&mut self, boot_time: SimDuration) {
        if let Some(n) = self.ns2.as_mut() {
            n.boot = boot_time.0 % n.tick;
        }
    }

    /// Whether this is ns-2's fixed-point timer (`with_ns2_timer`).
    pub fn is_ns2(&self) -> bool {
        self.ns2.is_some()
    }

    /// The `ikr` rule: the backoff ends by its own rules (`ikr_new_ack`, `ikr_idle_reset`),
    /// not on an RTT sample.
    pub fn is_ikr(&self) -> bool {
        self.rule == RtoRule::Ikr
    }

    /// IKRSimLib's `TCP_Sender::HandleACK` on a new ACK (Karn's delayed backoff reset, "on
    /// the next new ACK"): a reset pending since the last new ACK happens now; else a backoff
    /// above one is marked to be reset on the next.
    pub fn ikr_new_ack(&mut self) {
        if self.ikr_pending_reset {
            self.backoff = 1;
            self.ikr_pending_reset = false;
        } else if self.backoff > 1 {
            self.ikr_pending_reset = true;
        }
    }

    /// The end of IKRSimLib's `TCP_Sender::SendNewData`: the timer is to be set with data
    /// outstanding and no new data could go, so a pending reset happens now (so that a Reno
    /// recovery's series of timeouts does not grow the timeout); true if it did.
    pub fn ikr_idle_reset(&mut self) -> bool {
        let pending = std::mem::take(&mut self.ikr_pending_reset);
        if pending {
            self.backoff = 1;
        }
        pending
    }

    /// ns-2.35's `TcpAgent::rtt_update` for a segment sent at `sent` and acknowledged at
    /// `now` (`timestamps`: the echoed timestamp's, rounded to the nearest tick; otherwise
    /// the tick boundaries crossed, offset by `boot_time_`). Without the ns-2 timer, the
    /// RFC 6298 sample of `now - sent`.
    pub fn sample_between(&mut self, sent: SimTime, now: SimTime, timestamps: bool) {
        let Some(n) = self.ns2.as_deref_mut() else {
            self.sample(now.since(sent));
            return;
        };
        let tao = now.since(sent).0;
        let tick = n.tick;
        let t_rtt = if timestamps {
            // int(tao / tcp_tick_ + 0.5)
            (tao + tick / 2) / tick
        } else {
            // int((tao + fmod(sendtime + boot_time_, tcp_tick_)) / tcp_tick_)
            let tickoff = (sent.0 + n.boot) % tick;
            (tao + tickoff) / tick
        }
        .max(1) as i64;
        if n.t_srtt != 0 {
            let mut delta = t_rtt - (n.t_srtt >> n.srtt_bits);
            n.t_srtt += delta;
            if n.t_srtt <= 0 {
                n.t_srtt = 1;
            }
            delta = delta.abs() - (n.t_rttvar >> n.rttvar_bits);
            n.t_rttvar += delta;
            if n.t_rttvar <= 0 {
                n.t_rttvar = 1;
            }
        } else {
            n.t_srtt = t_rtt << n.srtt_bits;
            n.t_rttvar = (t_rtt << n.rttvar_bits) >> 1; // t_rtt << (T_RTTVAR_BITS - 1)
        }
        // t_rtxcur_ = ((t_rttvar_ << (rttvar_exp_ + T_SRTT_BITS - T_RTTVAR_BITS)) + t_srtt_)
        //             >> T_SRTT_BITS, in ticks
        n.rtxcur = if self.rfc793.is_some_and(|r| r.two_srtt) {
            // RFC793eduTcpAgent::rtt_update: rto_ = t_srtt_ >> (T_SRTT_BITS - 1).
            (n.t_srtt >> n.srtt_bits.saturating_sub(1)) as u64 * tick
        } else {
            let shift = n.rttvar_exp + n.srtt_bits - n.rttvar_bits;
            (((n.t_rttvar << shift) + n.t_srtt) >> n.srtt_bits) as u64 * tick
        };
        self.last_sample = t_rtt as u64 * tick;
        self.has_sample = true;
        self.publish();
    }

    /// ns-2's `(double) t_rtt_ * tcp_tick_`: the last sample in seconds, its whole ticks times
    /// the tick (the exact sample without the ns-2 timer).
    pub fn ns2_t_rtt_secs(&self) -> f64 {
        match self.ns2.as_deref() {
            Some(n) => (self.last_sample / n.tick) as f64 * (n.tick as f64 / 1e12),
            None => self.last_sample as f64 / 1e12,
        }
    }

    /// ns-2's smoothed RTT in seconds as `RBPRenoTcpAgent::send_much` computes it,
    /// `t_srtt_ * 2^-T_SRTT_BITS * tcp_tick_` in that order of doubles (the exact srtt without
    /// the ns-2 timer).
    pub fn ns2_srtt_secs(&self) -> f64 {
        match self.ns2.as_deref() {
            Some(n) => {
                let scale = 0.5f64.powi(n.srtt_bits as i32);
                n.t_srtt as f64 * scale * (n.tick as f64 / 1e12)
            }
            None => self.srtt as f64 / 1e12,
        }
    }

    /// srtt, rttvar and the RTO before backoff as ns-2 holds them (t_srtt_ / 8 and
    /// t_rttvar_ / 4 ticks, exactly; t_rtxcur_).
    fn publish(&mut self) {
        if let Some(n) = self.ns2.as_deref() {
            self.srtt = (n.t_srtt as u64 * n.tick) >> n.srtt_bits;
            self.rttvar = (n.t_rttvar as u64 * n.tick) >> n.rttvar_bits;
            self.rto = n.rtxcur;
        }
    }

    /// ns-2.35's `TcpAgent::rtt_timeout`.
    fn ns2_timeout(&self, n: &Ns2Timer) -> u64 {
        self.ns2_timeout_at(n, self.backoff as u64)
    }

    /// `TcpAgent::rtt_timeout` with a backoff of `b`.
    fn ns2_timeout_at(&self, n: &Ns2Timer, b: u64) -> u64 {
        let timeout = if self.rule == RtoRule::PreRfc2988 {
            n.rtxcur.saturating_mul(b).max(self.min_rto)
        } else if n.rtxcur < self.min_rto {
            self.min_rto.saturating_mul(b)
        } else {
            n.rtxcur.saturating_mul(b)
        };
        timeout.min(self.max_rto).max(2 * n.tick)
    }

    /// The RTO rule (module docs): Linux's RTO = SRTT + max(K RTTVAR, min_rto), IKRSimLib's
    /// ceil((SRTT + K RTTVAR) / G) G.
    pub fn with_rule(mut self, rule: RtoRule) -> Self {
        self.rule = rule;
        self
    }

    /// The measured round trip of `raw`, as the granular clock would read it.
    pub fn quantize(&self, raw: SimDuration) -> u64 {
        let g = self.granularity;
        if g == 0 || self.rule == RtoRule::Ikr {
            return raw.0;
        }
        let ticks = (raw.0 + g / 2) / g;
        ticks.max(1) * g
    }

    /// Feeds one RTT measurement (equations 2.2 / 2.3) and recomputes the RTO.
    pub fn sample(&mut self, raw: SimDuration) {
        let r = self.quantize(raw);
        self.feed(r);
    }

    /// ns-3.44's RTT sample (the TCP parameter `ns3_ts_ms`): with timestamps the difference
    /// of two whole-millisecond clock readings, the echoed send time's and now's
    /// (`TcpOptionTS::NowToTsValue`, `ElapsedTimeFromTsValue`; a zero difference becomes
    /// 1 us, `TcpSocketBase::CalculateRttSample`), without them the exact elapsed time;
    /// never rounded to the timer granularity. Fed as [`RttEstimator::sample`] feeds.
    pub fn sample_ns3(&mut self, now: SimTime, sent: SimTime, timestamps: bool) {
        const MS: u64 = 1_000_000_000;
        let r = if timestamps {
            (now.0 / MS).saturating_sub(sent.0 / MS) * MS
        } else {
            now.since(sent).0
        };
        self.feed(if r == 0 { 1_000_000 } else { r });
    }

    fn feed(&mut self, r: u64) {
        self.last_sample = r;
        if !self.has_sample {
            self.srtt = r;
            self.rttvar = r / 2;
            self.has_sample = true;
        } else if self.rule == RtoRule::Ikr {
            // TCP_Sender::UpdateRTTVariables: SRTT first, RTTVAR from the new SRTT.
            self.srtt = (7 * self.srtt + r) / 8;
            let err = self.srtt.abs_diff(r);
            self.rttvar = (3 * self.rttvar + err) / 4;
        } else {
            let err = self.srtt.abs_diff(r);
            self.rttvar = (3 * self.rttvar + err) / 4;
            self.srtt = (7 * self.srtt + r) / 8;
        }
        if self.rfc793.is_some_and(|r| r.two_srtt) {
            // RFC 793 section 3.7: RTO = min(UBOUND, max(LBOUND, BETA x SRTT)), BETA 2.
            self.rto = (2 * self.srtt).clamp(self.min_rto, self.max_rto);
            return;
        }
        self.rto = match self.rule {
            RtoRule::Linux => {
                let variation = self.granularity.max(4 * self.rttvar);
                (self.srtt + variation.max(self.min_rto)).min(self.max_rto)
            }
            RtoRule::Rfc6298 => {
                let variation = self.granularity.max(4 * self.rttvar);
                (self.srtt + variation).clamp(self.min_rto, self.max_rto)
            }
            // The floor comes after the backoff (`rto`).
            RtoRule::PreRfc2988 => {
                let variation = self.granularity.max(4 * self.rttvar);
                (self.srtt + variation).min(self.max_rto)
            }
            RtoRule::Ikr => {
                // round(): the next multiple of the granularity at or above the estimate.
                let g = self.granularity.max(1);
                (self.srtt + 4 * self.rttvar)
                    .div_ceil(g)
                    .saturating_mul(g)
                    .clamp(self.min_rto, self.max_rto)
            }
        };
    }

    /// The timeout to arm now: the RTO times the backoff, capped at `max_rto`.
    pub fn rto(&self) -> SimDuration {
        if let Some(n) = self.ns2.as_deref() {
            return SimDuration(self.ns2_timeout(n));
        }
        let backed_off = self.rto.saturating_mul(self.backoff as u64);
        let floored = if self.rule == RtoRule::PreRfc2988 {
            backed_off.max(self.min_rto)
        } else {
            backed_off
        };
        SimDuration(floored.min(self.max_rto))
    }

    /// The RTO before backoff (with the ns-2 timer: what it waits at a backoff of 1,
    /// `t_rtxcur_` floored; [`RttEstimator::ns2_rtxcur`] is `t_rtxcur_` itself).
    pub fn base_rto(&self) -> SimDuration {
        match self.ns2.as_deref() {
            Some(n) => SimDuration(self.ns2_timeout_at(n, 1)),
            None => SimDuration(self.rto),
        }
    }

    /// ns-2's `t_rtxcur_` (srtt + 4 rttvar in whole ticks, not floored) with the ns-2 timer.
    pub fn ns2_rtxcur(&self) -> Option<SimDuration> {
        self.ns2.as_deref().map(|n| SimDuration(n.rtxcur))
    }

    /// ns-2.35's `QOption_` clock (`TcpAgent::process_qoption_after_send`): the tick
    /// `now` is in, `int(now / tcp_tick_ + 0.5)`; the RTO in whole ticks,
    /// `int(t_rtxcur_ / tcp_tick_)`, with t_rtxcur_ the double ns-2 holds (`rtxcur_init_`
    /// before the first sample, whole ticks times `tcp_tick_` after); and `t_srtt_ >>
    /// T_SRTT_BITS` (`TcpAgent::rtt_counting`). All in double arithmetic as ns-2's, whose
    /// truncations they repeat (0.3 / 0.1 is 2.999...: 2 ticks). None without the ns-2 timer.
    pub fn ns2_qoption_clock(&self, now: SimTime) -> Option<(i64, i64, i64)> {
        let n = self.ns2.as_deref()?;
        let tick_s = n.tick as f64 / 1e12;
        let tcp_now = (now.0 as f64 / 1e12 / tick_s + 0.5) as i64;
        let rtxcur_s = if self.has_sample {
            (n.rtxcur / n.tick) as f64 * tick_s
        } else {
            n.rtxcur as f64 / 1e12
        };
        Some((tcp_now, (rtxcur_s / tick_s) as i64, n.t_srtt >> n.srtt_bits))
    }

    /// How long ns-2.35's `FullTcpAgent::idle_restart` counts the time since `last` (a data
    /// segment's send time) at `now`: whole ticks of `tcpTick_` on the grid offset by
    /// `boot_time_`, `int((tao + fmod(last + boot_time_, tick)) / tick) * tick`; the exact
    /// time without the ns-2 timer.
    pub fn ns2_idle(&self, last: SimTime, now: SimTime) -> SimDuration {
        let tao = now.0.saturating_sub(last.0);
        match self.ns2.as_deref() {
            Some(n) => {
                let off = (last.0 + n.boot) % n.tick;
                SimDuration((tao + off) / n.tick * n.tick)
            }
            None => SimDuration(tao),
        }
    }

    pub fn has_sample(&self) -> bool {
        self.has_sample
    }

    /// (5.5) the timer expired: back off.
    pub fn on_timeout(&mut self) {
        if let Some(r) = self.rfc793 {
            self.rfc793_backoff(r);
            return;
        }
        if self.ns2.is_some() {
            self.ns2_backoff();
            return;
        }
        self.backoff = (self.backoff * 2).min(MAX_BACKOFF);
        self.ikr_pending_reset = false; // HandleRtxTimeout
    }

    /// ns-2.35's `TcpAgent::rtt_backoff`: doubles below 64, and beyond while the timeout is
    /// below `maxrto_` with `rfc2988_` (the `rfc6298` rule); past 8, srtt moves into rttvar
    /// and is cleared.
    #[inline(never)]
    fn ns2_backoff(&mut self) {
        let Some(n) = self.ns2.as_deref() else {
            return;
        };
        if self.backoff < MAX_BACKOFF
            || (self.rule != RtoRule::PreRfc2988 && self.ns2_timeout(n) < self.max_rto)
        {
            self.backoff = self.backoff.saturating_mul(2);
        }
        if self.backoff > 8 {
            let n = self.ns2.as_deref_mut().expect("ns-2 timer");
            n.t_rttvar += n.t_srtt >> n.srtt_bits;
            n.t_srtt = 0;
            self.publish();
        }
    }

    /// `RFC793eduTcpAgent::rtt_backoff` (`with_rfc793`).
    #[cold]
    fn rfc793_backoff(&mut self, r: Rfc793Timer) {
        if !r.backoff {
            self.backoff = 1;
            return;
        }
        if self.backoff < MAX_BACKOFF {
            self.backoff *= 2;
        }
        if self.backoff > 8 {
            if let Some(n) = self.ns2.as_deref_mut() {
                n.t_rttvar += n.t_srtt >> n.srtt_bits;
                n.t_srtt = 0;
                self.publish();
            }
        }
    }

    /// A valid sample after a backoff ends it (RFC 6298 section 5, note on 5.7).
    pub fn reset_backoff(&mut self) {
        self.backoff = 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000_000;

    fn est(g_ms: u64) -> RttEstimator {
        RttEstimator::new(
            SimDuration(3000 * MS),
            SimDuration(200 * MS),
            SimDuration(60_000 * MS),
            SimDuration(g_ms * MS),
        )
    }

    /// ns-3.44's timestamps count whole milliseconds: a 90.577 ms handshake sent at 0 is a
    /// 90 ms sample; 0.9 ms that crosses a millisecond boundary is 1 ms, one that does not is
    /// 1 us; without timestamps the sample is exact, never rounded to the granularity.
    #[test]
    fn ns3_samples_difference_whole_millisecond_clocks() {
        let us = MS / 1000;
        let mut e = est(1);
        e.sample_ns3(SimTime(90_577 * us), SimTime(0), true);
        assert_eq!(e.last_sample, 90 * MS);
        e.sample_ns3(SimTime(5_100 * us), SimTime(4_200 * us), true);
        assert_eq!(e.last_sample, MS);
        e.sample_ns3(SimTime(4_900 * us), SimTime(4_100 * us), true);
        assert_eq!(e.last_sample, us);
        e.sample_ns3(SimTime(93_456 * us), SimTime(1_000 * us), false);
        assert_eq!(e.last_sample, 92_456 * us);
        // The usual rule rounds to the nearest tick.
        e.sample(SimDuration(90_577 * us));
        assert_eq!(e.last_sample, 91 * MS);
    }

    #[test]
    fn first_sample_sets_srtt_and_half_rttvar() {
        let mut e = RttEstimator::new(
            SimDuration(1000 * MS),
            SimDuration(0),
            SimDuration(60_000 * MS),
            SimDuration(0),
        );
        assert_eq!(e.rto().0, 1000 * MS);
        e.sample(SimDuration(100 * MS));
        assert_eq!(e.srtt, 100 * MS);
        assert_eq!(e.rttvar, 50 * MS);
        // RTO = SRTT + 4 RTTVAR = 300 ms.
        assert_eq!(e.rto().0, 300 * MS);
    }

    #[test]
    fn later_samples_follow_equation_2_3() {
        let mut e = RttEstimator::new(
            SimDuration(1000 * MS),
            SimDuration(0),
            SimDuration(60_000 * MS),
            SimDuration(0),
        );
        e.sample(SimDuration(100 * MS));
        e.sample(SimDuration(200 * MS));
        // RTTVAR = 3/4 * 50 + 1/4 * |100 - 200| = 62.5 ms; SRTT = 7/8 * 100 + 1/8 * 200 = 112.5 ms.
        assert_eq!(e.rttvar, 62_500_000_000);
        assert_eq!(e.srtt, 112_500_000_000);
        assert_eq!(e.rto().0, 112_500_000_000 + 4 * 62_500_000_000);
    }

    #[test]
    fn floor_granularity_and_ceiling() {
        let mut e = est(10);
        e.sample(SimDuration(20 * MS));
        // 20 + max(10, 40) = 60 ms, raised to the 200 ms floor.
        assert_eq!(e.rto().0, 200 * MS);
        // A sample of 3 ms reads as one 10 ms tick.
        assert_eq!(e.quantize(SimDuration(3 * MS)), 10 * MS);
        assert_eq!(e.quantize(SimDuration(16 * MS)), 20 * MS);
        let mut big = est(10);
        big.sample(SimDuration(50_000 * MS));
        assert_eq!(big.rto().0, 60_000 * MS);
    }

    #[test]
    fn ikr_rule_rounds_the_rto_up_and_updates_srtt_first() {
        // IKRSimLib's TCP_Sender::UpdateRTTVariables / CalcRTOValue, G = 200 ms.
        let mut e = RttEstimator::new(
            SimDuration(1000 * MS),
            SimDuration(0),
            SimDuration(10_000 * MS),
            SimDuration(200 * MS),
        )
        .with_rule(RtoRule::Ikr);
        assert_eq!(e.rto().0, 1000 * MS, "InitialRTT before a sample");
        // Samples are not read on a ticking clock.
        assert_eq!(e.quantize(SimDuration(107 * MS)), 107 * MS);
        e.sample(SimDuration(107 * MS));
        // 107 + 4 * 53.5 = 321 ms, rounded up to 400.
        assert_eq!(e.rto().0, 400 * MS);
        let mut f = RttEstimator::new(
            SimDuration(1000 * MS),
            SimDuration(0),
            SimDuration(10_000 * MS),
            SimDuration(10 * MS),
        )
        .with_rule(RtoRule::Ikr);
        f.sample(SimDuration(100 * MS));
        f.sample(SimDuration(200 * MS));
        // SRTT = 112.5 first, then RTTVAR = 3/4 * 50 + 1/4 * |200 - 112.5| = 59.375:
        // RTO = 112.5 + 237.5 = 350 ms (RFC 6298's order would give 362.5, rounded to 370).
        assert_eq!(f.srtt, 112_500 * MS / 1000);
        assert_eq!(f.rttvar, 59_375 * MS / 1000);
        assert_eq!(f.rto().0, 350 * MS);
        f.on_timeout();
        assert_eq!(f.rto().0, 700 * MS);
    }

    #[test]
    fn granularity_bounds_the_variance_term() {
        let mut e = RttEstimator::new(
            SimDuration(1000 * MS),
            SimDuration(0),
            SimDuration(60_000 * MS),
            SimDuration(500 * MS),
        );
        for _ in 0..50 {
            e.sample(SimDuration(1000 * MS));
        }
        // RTTVAR decays towards 0; G = 500 ms keeps RTO >= SRTT + G.
        assert_eq!(e.rto().0, 1500 * MS);
    }

    #[test]
    fn backoff_doubles_caps_and_resets() {
        let mut e = est(10);
        e.sample(SimDuration(500 * MS));
        let base = e.rto().0;
        e.on_timeout();
        assert_eq!(e.rto().0, 2 * base);
        e.on_timeout();
        assert_eq!(e.rto().0, 4 * base);
        for _ in 0..20 {
            e.on_timeout();
        }
        assert_eq!(e.backoff, MAX_BACKOFF);
        assert_eq!(e.rto().0, 60_000 * MS);
        e.reset_backoff();
        assert_eq!(e.rto().0, base);
    }

    #[test]
    fn the_pre_rfc2988_rule_floors_after_the_backoff() {
        // ns-2.35 TcpAgent::rtt_timeout: rfc2988_ true backs off max(minrto_, t_rtxcur_);
        // false floors t_rtxcur_ x backoff. A 20 ms path under a 200 ms floor, G = 10 ms.
        let mut rfc = est(10);
        let mut old = est(10).with_rule(RtoRule::PreRfc2988);
        for _ in 0..50 {
            rfc.sample(SimDuration(20 * MS));
            old.sample(SimDuration(20 * MS));
        }
        // SRTT + max(G, 4 RTTVAR) = 30 ms: below the floor.
        assert_eq!(old.base_rto(), SimDuration(30 * MS));
        assert_eq!(
            (rfc.rto(), old.rto()),
            (SimDuration(200 * MS), SimDuration(200 * MS))
        );
        let mut seen = Vec::new();
        for _ in 0..5 {
            rfc.on_timeout();
            old.on_timeout();
            seen.push((rfc.rto().0 / MS, old.rto().0 / MS));
        }
        // 200 x 2^n against max(200, 30 x 2^n).
        assert_eq!(
            seen,
            [
                (400, 200),
                (800, 200),
                (1600, 240),
                (3200, 480),
                (6400, 960)
            ]
        );
    }

    fn ns2_timer(boot_us: u64) -> RttEstimator {
        // ns-2.35's defaults: tcpTick_ 0.01, minrto_ 0.2, maxrto_ 60, rtxcur_init_ 3.
        est(10).with_ns2_timer(SimDuration(3000 * MS), SimDuration(boot_us * MS / 1000))
    }

    fn at_us(us: u64) -> SimTime {
        SimTime(us * MS / 1000)
    }

    #[test]
    fn the_ns2_timer_bits_set_gains_and_timeout() {
        // T_SRTT_BITS 5, T_RTTVAR_BITS 4, rttvar_exp_ 3 (test-suite-tcp.tcl timersA3's bits).
        let mut e = ns2_timer(0).with_ns2_bits(5, 4, 3);
        // A sample of 10 ticks: t_srtt_ = 10 << 5, t_rttvar_ = 10 << 3: srtt 100 ms, rttvar
        // 50 ms; t_rtxcur_ = ((80 << (3 + 5 - 4)) + 320) >> 5 = 50 ticks.
        e.sample_between(at_us(0), at_us(100_000), true);
        assert_eq!(
            (e.srtt, e.rttvar, e.ns2_rtxcur().unwrap().0),
            (100 * MS, 50 * MS, 500 * MS)
        );
        // 20 ticks: delta = 20 - 10 = 10, t_srtt_ 330 (srtt + 10/32); t_rttvar_ += 10 - 80 >> 4
        // = 85; t_rtxcur_ = ((85 << 4) + 330) >> 5 = 52 ticks.
        e.sample_between(at_us(0), at_us(200_000), true);
        assert_eq!(e.srtt, 330 * 10 * MS / 32);
        assert_eq!(e.ns2_rtxcur().unwrap().0, 520 * MS);
    }

    #[test]
    fn the_ns2_timer_counts_tick_boundaries_from_boot_time() {
        // TcpAgent::rtt_update without timestamps: int((tao + fmod(sent + boot, tick)) / tick).
        let mut e = ns2_timer(5559);
        assert_eq!(e.rto().0, 3000 * MS, "rtxcur_init_ before a sample");
        // 84.7 ms sent at 0.1 s: 5.559 ms into a tick, so the ACK is 9 boundaries later.
        e.sample_between(at_us(100_000), at_us(184_700), false);
        assert_eq!(e.last_sample, 90 * MS);
        // t_srtt_ = 9 << 3, t_rttvar_ = 9 << 1: srtt 90 ms, rttvar 45 ms; t_rtxcur_ =
        // ((18 << 3) + 72) >> 3 = 27 ticks.
        assert_eq!(
            (e.srtt, e.rttvar, e.ns2_rtxcur().unwrap().0),
            (90 * MS, 45 * MS, 270 * MS)
        );
        // The same round trip from a tick's start crosses 8 boundaries.
        let mut f = ns2_timer(0);
        f.sample_between(at_us(100_000), at_us(184_700), false);
        assert_eq!(f.last_sample, 80 * MS);
        // With timestamps: rounded to the nearest tick, the boot time not involved.
        let mut g = ns2_timer(5559);
        g.sample_between(at_us(100_000), at_us(184_700), true);
        assert_eq!(g.last_sample, 80 * MS);
        // At least one tick.
        let mut h = ns2_timer(0);
        h.sample_between(at_us(100_000), at_us(100_500), false);
        assert_eq!(h.last_sample, 10 * MS);
    }

    #[test]
    fn the_ns2_timer_truncates_in_fixed_point() {
        // srtt += m - srtt >> 3; rttvar += |m - srtt >> 3| - rttvar >> 2 (each shift
        // truncating); the exact estimator would decay rttvar 45 -> 33.75 -> 25.3 ms.
        let mut e = ns2_timer(5559);
        e.sample_between(at_us(100_000), at_us(184_700), false);
        let mut seen = Vec::new();
        for k in 1..=3u64 {
            let sent = 184_700 + (k - 1) * 93_500;
            e.sample_between(at_us(sent), at_us(sent + 93_500), false);
            seen.push((
                e.last_sample / MS,
                e.srtt * 8 / (10 * MS),
                e.rttvar * 4 / (10 * MS),
            ));
        }
        // (ticks x 8, ticks x 4): 72/18 -> 72/14 -> 72/11, then a sample of 10 ticks:
        // srtt 72 + (10 - 9) = 73, rttvar 11 + (1 - 2) = 10.
        assert_eq!(seen, [(90, 72, 14), (90, 72, 11), (100, 73, 10)]);
        // t_rtxcur_ = ((10 << 3) + 73) >> 3 = 19 ticks: below minrto_, so the floor.
        assert_eq!(e.ns2_rtxcur().unwrap().0, 190 * MS);
        assert_eq!((e.base_rto().0, e.rto().0), (200 * MS, 200 * MS));
    }

    #[test]
    fn the_ns2_timer_backs_off_and_clobbers_srtt_past_eight() {
        // TcpAgent::rtt_timeout (rfc2988_ true: max(minrto_, t_rtxcur_) x backoff, at most
        // maxrto_) and rtt_backoff (past 8, srtt moves into rttvar; the next sample starts
        // the estimate afresh).
        let mut e = ns2_timer(0);
        e.sample_between(at_us(0), at_us(300_000), false);
        // 30 ticks: t_srtt_ 240, t_rttvar_ 60, t_rtxcur_ 90 ticks.
        assert_eq!(e.rto().0, 900 * MS);
        let mut seen = Vec::new();
        for _ in 0..8 {
            e.on_timeout();
            seen.push((
                e.backoff,
                e.rto().0 / MS,
                e.srtt / MS,
                e.rttvar * 4 / (10 * MS),
            ));
        }
        assert_eq!(
            seen,
            [
                (2, 1800, 300, 60),
                (4, 3600, 300, 60),
                (8, 7200, 300, 60),
                (16, 14400, 0, 90),
                (32, 28800, 0, 90),
                (64, 57600, 0, 90),
                (128, 60000, 0, 90),
                (128, 60000, 0, 90)
            ]
        );
        // After the clobber a sample restarts the estimate.
        e.reset_backoff();
        e.sample_between(at_us(0), at_us(100_000), false);
        assert_eq!(
            (e.srtt, e.rttvar, e.base_rto().0),
            (100 * MS, 50 * MS, 300 * MS)
        );
        // rfc2988_ false: the floor after the backoff, and no doubling past 64.
        let mut old = est(10)
            .with_rule(RtoRule::PreRfc2988)
            .with_ns2_timer(SimDuration(3000 * MS), SimDuration(0));
        old.sample_between(at_us(0), at_us(20_000), false);
        // 2 ticks: t_rtxcur_ = ((4 << 3) + 16) >> 3 = 6 ticks = 60 ms.
        assert_eq!(old.rto().0, 200 * MS);
        old.on_timeout();
        old.on_timeout();
        assert_eq!(old.rto().0, 240 * MS);
        for _ in 0..10 {
            old.on_timeout();
        }
        assert_eq!(old.backoff, 64);
    }

    #[test]
    fn the_rfc793_timer_waits_twice_srtt_and_may_not_back_off() {
        // RFC793eduTcpAgent::rtt_update: rto_ = t_srtt_ >> 2 ticks (2 x SRTT), no RTTVAR
        // term; rtt_backoff without add793expbackoff_ keeps the backoff at 1. tcpTick_
        // 100 ms, no floor (the suite's minrto_ 0), rfc2988_ false.
        let new = |backoff| {
            RttEstimator::new(
                SimDuration(6000 * MS),
                SimDuration(0),
                SimDuration(60_000 * MS),
                SimDuration(100 * MS),
            )
            .with_rule(RtoRule::PreRfc2988)
            .with_rfc793(true, backoff)
            .with_ns2_timer(SimDuration(6000 * MS), SimDuration(0))
        };
        let mut e = new(true);
        assert_eq!(e.rto().0, 6000 * MS);
        // A 4-tick sample: t_srtt_ 32, t_rttvar_ 8; Jacobson's t_rtxcur_ would be 12 ticks.
        e.sample_between(at_us(0), at_us(400_000), false);
        assert_eq!(e.rto().0, 800 * MS);
        // A 12-tick sample: t_srtt_ 32 + 12 - 4 = 40, rto_ 10 ticks.
        e.sample_between(at_us(400_000), at_us(1_600_000), false);
        assert_eq!(e.rto().0, 1000 * MS);
        let mut seen = Vec::new();
        for _ in 0..8 {
            e.on_timeout();
            seen.push((e.backoff, e.srtt / MS));
        }
        // Doubles below 64 only, and past 8 SRTT moves into RTTVAR (t_srtt_ 0).
        assert_eq!(
            seen,
            [
                (2, 500),
                (4, 500),
                (8, 500),
                (16, 0),
                (32, 0),
                (64, 0),
                (64, 0),
                (64, 0)
            ]
        );
        let mut f = new(false);
        f.sample_between(at_us(0), at_us(400_000), false);
        for _ in 0..3 {
            f.on_timeout();
        }
        assert_eq!((f.backoff, f.rto().0), (1, 800 * MS));
        // Jacobson's RTO with the same timer: (t_srtt_ + 4 t_rttvar_ ... ) = 12 ticks.
        let mut g = RttEstimator::new(
            SimDuration(6000 * MS),
            SimDuration(0),
            SimDuration(60_000 * MS),
            SimDuration(100 * MS),
        )
        .with_rfc793(false, true)
        .with_ns2_timer(SimDuration(6000 * MS), SimDuration(0));
        g.sample_between(at_us(0), at_us(400_000), false);
        assert_eq!(g.rto().0, 1200 * MS);
    }

    #[test]
    fn the_linux_rule_floors_the_variation_not_the_rto() {
        let mut rfc = est(1);
        let mut linux = est(1).with_rule(RtoRule::Linux);
        for _ in 0..50 {
            rfc.sample(SimDuration(100 * MS));
            linux.sample(SimDuration(100 * MS));
        }
        // A steady 100 ms path: RTTVAR decays toward 0.
        assert_eq!(rfc.base_rto(), SimDuration(200 * MS));
        assert_eq!(linux.base_rto(), SimDuration(300 * MS));
        // A variable path, K RTTVAR above the floor: both are SRTT + 4 RTTVAR.
        for r in [100, 400, 100, 400] {
            rfc.sample(SimDuration(r * MS));
            linux.sample(SimDuration(r * MS));
        }
        assert!(4 * linux.rttvar > 200 * MS);
        assert_eq!(rfc.base_rto(), linux.base_rto());
        assert_eq!(linux.base_rto().0, linux.srtt + 4 * linux.rttvar);
    }
}
