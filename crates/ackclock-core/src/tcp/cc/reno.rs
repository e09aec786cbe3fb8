//! Reno congestion control: RFC 5681, "TCP Congestion Control", section 3.1.
//!
//! - Slow start (cwnd < ssthresh): cwnd += 1 segment per ACK (3.1, "increase cwnd by at
//!   most SMSS bytes for each ACK received").
//! - Congestion avoidance: cwnd += 1/cwnd per ACK (3.1, equation 3), about one segment per RTT.
//! - On loss: the window halves, W/2 (equation 4; the sender makes ssthresh at least two
//!   segments). RFC 5681 takes W as FlightSize; ns-2's `Agent/TCP` takes min(cwnd, window),
//!   and so do we, because the two agree whenever the sender is window-limited and the
//!   `ns2` profile must reproduce ns-2.
//!
//! - Limited slow start (RFC 3742, `max_ssthresh`): above max_ssthresh segments, slow
//!   start adds 1/K per ACK with K = floor(cwnd / (max_ssthresh / 2)), at most
//!   max_ssthresh/2 segments per round trip.
//!
//! - AIMD(a, b) (Floyd, Handley, Padhye, "A Comparison of Equation-Based and AIMD Congestion
//!   Control", 2000): `increase` a segments per round trip in congestion avoidance (a/cwnd
//!   per ACK) and `decrease` b of the window kept at a loss; Reno is a = 1, b = 0.5. ns-2.35
//!   names them increase_num_ (`TcpAgent::opencwnd`, windowOption_ 1) and decrease_num_
//!   (`TcpAgent::slowdown`, whose rule that the first reduction halves anyway is the TCP
//!   parameter `ns2_first_decrease`, `tcp/sender/recovery.rs`).
//!
//! With packet-counted windows growth is per ACK, as in ns-2, RFC 5681's default and ns-3's
//! `TcpNewReno` (one segment per ACK in slow start, one increment per ACK in congestion
//! avoidance, however many segments the ACK covers). With byte-counted windows it is per
//! segment acknowledged (RFC 3465 appropriate byte counting, limit L = 2 segments per ACK in
//! slow start), as Linux (and ns-3's `TcpLinuxReno`) counts segments acknowledged: with
//! delayed ACKs the window then opens twice as fast as ns-2's. Byte-counted windows that grow
//! per ACK (`growth_per_ack`, `ns3_newreno_growth`) take one segment in slow start and 1/cwnd
//! in congestion avoidance per ACK (`reno_increase`), as IKRSimLib's `TCP_Sender::HandleACK`
//! (fCWnd += MSS; fCWnd += max(MSS * MSS / fCWnd, 1)) and ns-3's `TcpNewReno` do. Under ns-3's
//! `TcpNewReno` growth an ACK of more than one segment whose slow-start step reaches ssthresh
//! also takes one congestion-avoidance step, as `TcpNewReno::IncreaseWindow` passes what
//! `TcpNewReno::SlowStart` returns (segmentsAcked - 1) to `CongestionAvoidance`
//! ([`newreno_increase_window`]). Linux applies no limit L and stops slow start exactly at ssthresh, crediting the
//! rest of the ACK to congestion avoidance; here an ACK that crosses ssthresh is credited to
//! slow start whole, which differs only on stretch ACKs and at the crossing.
//!
//! `ns3_model` = 1 (the `ns3` profile's default): ssthresh after a loss is ns-3.44's
//! `TcpLinuxReno::GetSsThresh` (src/internet/model/tcp-linux-reno.cc), max(2, cwnd / 2)
//! segments, the receiver's window not read (as Linux's `tcp_reno_ssthresh`): under ns-3 a
//! flow the receiver's window holds keeps growing cwnd in slow start (`TcpLinuxReno::SlowStart`
//! does not check `m_isCwndLimited`), and halves that cwnd. The `TcpNewReno` class (per-ACK
//! growth in whole bytes) takes ns-3.44's `TcpNewReno::GetSsThresh` (tcp-congestion-ops.cc)
//! instead: max(2 segments, bytesInFlight / 2), the bytes in flight as the sender's scoreboard
//! counts them (`TcpTxBuffer::BytesInFlight`: the SACKed and lost segments left out, so at the
//! third duplicate ACK three SACKed and the head lost), [`Window::ns3_newreno_ssthresh`].
//! Slow start is then
//! `TcpLinuxReno::SlowStart`'s ([`ns3_slow_start`]): every segment the ACK acknowledges, with
//! no limit L (a stretch ACK after a timeout's retransmission fills a hole opens the window by
//! all it covers), up to ssthresh and no further. Congestion avoidance is then
//! `TcpLinuxReno::CongestionAvoidance`'s ([`ns3_linux_reno_increase`]): whole segments, one
//! each time a counter of the segments acknowledged reaches cwnd in whole segments (Linux's
//! `tcp_cong_avoid_ai` with `snd_cwnd_cnt`), where RFC 5681 adds 1/cwnd per segment.

use super::{
    newreno_increase_window, reno_increase, slow_start, AckEvent, CcInfo, CcSetup, CongestionOps,
    Ns3Class, Window,
};
use crate::params::{Param, Range};
use crate::time::SimTime;

#[derive(Clone, Copy, Debug)]
pub struct Reno {
    increase: f64,
    decrease: f64,
    ns3: bool,
    /// `ns3_model`: `TcpLinuxReno::m_cWndCnt`, the segments acknowledged in congestion
    /// avoidance towards the next whole segment.
    ns3_cnt: u64,
    ns2_linux: Option<(u8, u8, u8)>,
}

impl Reno {
    /// Under `ns2_linux`, ns-2.35's `LinuxTcpAgent` runs in the sender
    /// (`sender/ns2_linux.rs`): its module (`ns2_module`), its `sysctl_tcp_abc` and its
    /// `tcp_max_burst`.
    pub fn ns2_linux(&self) -> Option<(u8, u8, u8)> {
        self.ns2_linux
    }
}

impl Default for Reno {
    fn default() -> Reno {
        Reno {
            increase: 1.0,
            decrease: 0.5,
            ns3: false,
            ns3_cnt: 0,
            ns2_linux: None,
        }
    }
}

crate::params! {
    /// Reno's parameters (`cc_params`): AIMD's a and b, each with its declaration.
    pub struct RenoParams {
        increase: f64 = Param::new("increase", 1.0, Range::Positive, "segments added per round trip in congestion avoidance (AIMD a)")
            .ns2("increase_num_"),
        decrease: f64 = Param::new("decrease", 0.5, Range::Between(0.0, 1.0), "fraction of the window kept on a loss (AIMD b)")
            .ns2("decrease_num_"),
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "ns-3.44's TcpLinuxReno: GetSsThresh cwnd / 2, the receiver's window not read; SlowStart every segment acknowledged, up to ssthresh; CongestionAvoidance whole segments, one per cwnd segments acknowledged")
            .profile_defaults(&[("ns3", 1.0)]),
        ns2_linux: bool = Param::new("ns2_linux", 0.0, Range::Flag, "ns-2.35's LinuxTcpAgent (Agent/TCP/Linux): its own ACK processing, ScoreBoard1 recovery and timeout (tcp/sender/ns2_linux.rs), with the module ns2_module names"),
        ns2_module: f64 = Param::new("ns2_module", 0.0, Range::Whole(0, 15), "ns2_linux: TCP-Linux's module, 0 reno, 1 naive_reno (tcp/linux/tcp_naivereno.c), 2 scalable, 3 highspeed, 4 bic, 5 vegas, 6 veno, 7 yeah, 8 cubic, 9 htcp, 10 hybla, 11 westwood, 12 illinois, 13 lp, 14 compound (tcp/linux/src/tcp_*.c; tcp/sender/ns2_linux/modules.rs and a file per module beside it), 15 none: ns-2's own window, as an agent without select_ca runs (tcp/sender/ns2_linux/no_module.rs)"),
        ns2_abc: f64 = Param::new("ns2_abc", 1.0, Range::Whole(0, 255), "ns2_linux: TCP-Linux's sysctl_tcp_abc (tcp/linux/ns-linux-param.c): 0 no byte counting, 1 growth only on an ACK of a whole segment and in congestion avoidance per cwnd segments acknowledged, 2 also two segments in slow start for an ACK of two"),
        ns2_max_burst: f64 = Param::new("ns2_max_burst", 3.0, Range::Whole(0, 255), "ns2_linux: TCP-Linux's tcp_max_burst, the segments above the flight cwnd may keep when recovery ends (tcp_moderate_cwnd)"),
    }
}

impl CongestionOps for Reno {
    const INFO: CcInfo = CcInfo {
        name: "reno",
        ns3: &[
            Ns3Class::segments("TcpLinuxReno").ca_gated(),
            Ns3Class::newreno("TcpNewReno"),
        ],
        ecn_per_segment: false,
        params: RenoParams::PARAMS,
    };

    type Params = RenoParams;

    fn new(p: &RenoParams, _setup: &CcSetup) -> Reno {
        Reno {
            increase: p.increase,
            decrease: p.decrease,
            ns3: p.ns3_model,
            ns3_cnt: 0,
            ns2_linux: p.ns2_linux.then_some((
                p.ns2_module as u8,
                p.ns2_abc as u8,
                p.ns2_max_burst as u8,
            )),
        }
    }

    // Inlined into the sender's ACK path (`AnyCc::cong_avoid`'s arm): the default algorithm's
    // few instructions per ACK cost less than a call passing the `AckEvent` on the stack.
    #[inline(always)]
    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            if ev.per_ack && self.increase == 1.0 {
                // Per-ACK growth: TcpNewReno::IncreaseWindow's under ns-3's whole bytes.
                newreno_increase_window(w, &ev);
            } else if self.ns3 {
                ns3_slow_start(w, &ev, true);
            } else {
                slow_start(w, &ev);
            }
        } else if self.increase == 1.0 {
            if self.ns3 && !ev.per_ack {
                ns3_linux_reno_increase(w, &mut self.ns3_cnt, ev.acked);
            } else {
                reno_increase(w, &ev);
            }
        } else {
            // ns-2.35 TcpAgent::opencwnd, windowOption_ 1: increase_num_ / cwnd_ per ACK.
            let credit = if ev.per_ack { 1.0 } else { ev.credit };
            w.cwnd += self.increase * credit / w.cwnd;
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        if self.ns3 && w.ns3_mss > 0.0 && self.decrease == 0.5 {
            // The TcpNewReno class (per-ACK growth in whole bytes): TcpNewReno::GetSsThresh,
            // max(2 segments, bytesInFlight / 2).
            w.ns3_newreno_ssthresh()
        } else if self.ns3 {
            // TcpLinuxReno::GetSsThresh: max(2 segments, cwnd / 2).
            (self.decrease * w.cwnd).max(2.0)
        } else if self.decrease == 0.5 {
            w.cwnd.min(w.rwnd) / 2.0
        } else {
            // ns-2.35 TcpAgent::slowdown: decreasewin = decrease_num_ * windowd().
            self.decrease * w.cwnd.min(w.rwnd)
        }
    }
}

/// Slow start as ns-3.44's segment-counting classes have it: every segment the ACK
/// acknowledges (`segmentsAcked`, no limit L), `capped` at ssthresh as
/// `TcpLinuxReno::SlowStart` (src/internet/model/tcp-linux-reno.cc; `TcpDctcp` inherits it),
/// whose `IncreaseWindow` credits nothing of the ACK to congestion avoidance; uncapped as
/// `TcpCubic::IncreaseWindow`'s slow start (tcp-cubic.cc: m_cWnd += segmentsAcked x segment
/// size, then segmentsAcked = 0). A class growing per ACK (`TcpNewReno`'s), or RFC 3742's
/// limited slow start, takes [`slow_start`].
#[inline]
pub fn ns3_slow_start(w: &mut Window, ev: &AckEvent, capped: bool) {
    if ev.per_ack || w.max_ssthresh > 0.0 {
        slow_start(w, ev);
    } else if capped {
        w.cwnd = (w.cwnd + ev.credit).min(w.ssthresh);
    } else {
        w.cwnd += ev.credit;
    }
}

/// Congestion avoidance as ns-3.44's `TcpLinuxReno::CongestionAvoidance`
/// (src/internet/model/tcp-linux-reno.cc), which `TcpDctcp` inherits: Linux's
/// `tcp_cong_avoid_ai` with w = cwnd in whole segments (`m_cWnd / m_segmentSize`, at least
/// 1). A counter (`m_cWndCnt`, kept across losses) that already reached w, as after a
/// reduction, first gives one segment and restarts; then it takes the `acked` segments and
/// every w of them add a whole segment. cwnd grows in steps of one segment, not by 1/cwnd
/// per segment (RFC 5681 3.1).
#[inline]
pub fn ns3_linux_reno_increase(w: &mut Window, cnt: &mut u64, acked: u64) {
    // cwnd / segment size in ns-3's unsigned bytes: whole segments, at least one.
    let segs = ((w.cwnd + 1e-9).floor() as u64).max(1);
    if *cnt >= segs {
        *cnt = 0;
        w.cwnd += 1.0;
    }
    *cnt += acked;
    if *cnt >= segs {
        let delta = *cnt / segs;
        *cnt -= delta * segs;
        w.cwnd += delta as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack() -> AckEvent {
        AckEvent::one_segment(SimTime::ZERO, None)
    }

    #[test]
    fn slow_start_adds_one_per_ack() {
        let mut w = Window::new(2.0, 10.0, 100.0);
        Reno::default().cong_avoid(&mut w, ack());
        assert_eq!(w.cwnd, 3.0);
    }

    #[test]
    fn congestion_avoidance_adds_one_per_window() {
        let mut w = Window::new(10.0, 5.0, 100.0);
        for _ in 0..10 {
            Reno::default().cong_avoid(&mut w, ack());
        }
        // Ten ACKs of 1/cwnd each grow a 10-segment window by just under one segment.
        assert!(w.cwnd > 10.95 && w.cwnd < 11.0, "{}", w.cwnd);
    }

    #[test]
    fn loss_halves_the_usable_window() {
        let w = Window::new(17.6, 0.0, 100.0);
        assert_eq!(Reno::default().ssthresh(&w, SimTime::ZERO), 8.8);
        let limited = Window::new(60.0, 0.0, 20.0);
        assert_eq!(Reno::default().ssthresh(&limited, SimTime::ZERO), 10.0);
        // ns-3's TcpLinuxReno halves cwnd whatever the receiver's window, at least 2.
        let mut ns3 = Reno {
            ns3: true,
            ..Reno::default()
        };
        assert_eq!(ns3.ssthresh(&limited, SimTime::ZERO), 30.0);
        assert_eq!(
            ns3.ssthresh(&Window::new(3.0, 0.0, 20.0), SimTime::ZERO),
            2.0
        );
    }

    #[test]
    fn aimd_parameters_scale_growth_and_reduction() {
        // AIMD(a, b): a/cwnd per ACK in congestion avoidance, b of min(cwnd, rwnd) kept.
        let p = RenoParams {
            increase: 0.41,
            decrease: 0.75,
            ns3_model: false,
            ns2_linux: false,
            ns2_module: 0.0,
            ns2_abc: 1.0,
            ns2_max_burst: 3.0,
        };
        let mut reno = Reno::new(&p, &CcSetup::default());
        let mut w = Window::new(10.0, 5.0, 100.0);
        reno.cong_avoid(&mut w, ack());
        assert_eq!(w.cwnd, 10.0 + 0.41 / 10.0);
        let mut ss = Window::new(3.0, 5.0, 100.0);
        reno.cong_avoid(&mut ss, ack());
        assert_eq!(ss.cwnd, 4.0, "slow start is Reno's");
        assert_eq!(
            reno.ssthresh(&Window::new(20.0, 0.0, 100.0), SimTime::ZERO),
            15.0
        );
        assert_eq!(
            reno.ssthresh(&Window::new(60.0, 0.0, 20.0), SimTime::ZERO),
            15.0
        );
    }

    #[test]
    fn limited_slow_start_adds_at_most_half_max_ssthresh_per_round_trip() {
        let mut reno = Reno::default();
        let mut w = Window::new(400.0, f64::INFINITY, 1e9);
        w.max_ssthresh = 100.0;
        // One round trip: one ACK per segment of the window.
        let start = w.cwnd;
        for _ in 0..400 {
            reno.cong_avoid(&mut w, ack());
        }
        // K = 8 at cwnd 400: about 400/8 = 50 = max_ssthresh/2 segments added.
        assert!((w.cwnd - start - 50.0).abs() < 2.0, "{}", w.cwnd);
        let mut below = Window::new(50.0, f64::INFINITY, 1e9);
        below.max_ssthresh = 100.0;
        reno.cong_avoid(&mut below, ack());
        assert_eq!(below.cwnd, 51.0);
    }

    #[test]
    fn growth_per_ack_ignores_how_many_segments_the_ack_covers() {
        // IKRSimLib's TCP_Sender::HandleACK and ns-3's TcpNewReno: a delayed ACK of two
        // segments adds one segment in slow start and 1/cwnd in congestion avoidance.
        let two = AckEvent::segments(2, true);
        let mut ca = Window::new(10.0, 5.0, 100.0);
        Reno::default().cong_avoid(&mut ca, two);
        assert_eq!(ca.cwnd, 10.1);
        let mut ss = Window::new(4.0, 50.0, 100.0);
        Reno::default().cong_avoid(&mut ss, two);
        assert_eq!(ss.cwnd, 5.0);
    }

    /// ns-3.44's TcpNewReno::CongestionAvoidance adds max(1, MSS^2 / cwnd) bytes per ACK as a
    /// uint32_t: whole bytes, one from a window of MSS segments on.
    #[test]
    fn ns3_newreno_grows_in_whole_bytes() {
        let two = AckEvent::segments(2, true);
        let grow = |cwnd_bytes: f64| {
            let mut w = Window::new(cwnd_bytes / 340.0, 1.0, 1e9);
            w.ns3_mss = 340.0;
            Reno::default().cong_avoid(&mut w, two);
            (w.cwnd * 340.0 - cwnd_bytes).round()
        };
        // 340^2 / 40 800 = 2.83 -> 2 bytes; 340^2 / 68 000 = 1.7 -> 1 byte; 340^2 / 200 000
        // = 0.58 -> at least 1 byte.
        assert_eq!(grow(40_800.0), 2.0);
        assert_eq!(grow(68_000.0), 1.0);
        assert_eq!(grow(200_000.0), 1.0);
        // Exactly 340 segments: 340 bytes^2 / 115 600 bytes = 1 byte.
        assert_eq!(grow(115_600.0), 1.0);
        // Slow start still adds one whole segment per ACK.
        let mut ss = Window::new(4.0, 50.0, 100.0);
        ss.ns3_mss = 340.0;
        Reno::default().cong_avoid(&mut ss, two);
        assert_eq!(ss.cwnd, 5.0);
    }

    /// ns-3.44's TcpNewReno::IncreaseWindow: an ACK of two segments whose slow-start step
    /// reaches ssthresh (2 -> 3 segments of 1200 bytes against 3123 bytes) also takes one
    /// congestion-avoidance step, 1200^2 / 3600 = 400 bytes; an ACK of one segment, or one that
    /// leaves cwnd below ssthresh, does not; nor does Reno without ns-3's whole-byte growth.
    #[test]
    fn ns3_newreno_slow_start_passes_the_rest_of_the_ack_to_congestion_avoidance() {
        let acked = |n: u64| AckEvent {
            acked: n,
            credit: n as f64,
            per_ack: true,
            ..ack()
        };
        let grow = |cwnd: f64, ssthresh: f64, n: u64, mss: f64| {
            let mut w = Window::new(cwnd, ssthresh, 1e9);
            w.ns3_mss = mss;
            // The ns3 profile's TcpNewReno: Reno's ns3_model with per-ACK growth.
            let mut newreno = Reno {
                ns3: true,
                ..Reno::default()
            };
            newreno.cong_avoid(&mut w, acked(n));
            (w.cwnd * 1200.0).round()
        };
        assert_eq!(grow(2.0, 3123.0 / 1200.0, 2, 1200.0), 3600.0 + 400.0);
        assert_eq!(grow(2.0, 3123.0 / 1200.0, 1, 1200.0), 3600.0);
        assert_eq!(grow(2.0, 5.0, 2, 1200.0), 3600.0);
        assert_eq!(grow(2.0, 3123.0 / 1200.0, 2, 0.0), 3600.0);
        // TcpLinuxReno's IncreaseWindow takes slow start or congestion avoidance, not both.
        let mut w = Window::new(2.0, 3123.0 / 1200.0, 1e9);
        let mut linux = Reno {
            ns3: true,
            ..Reno::default()
        };
        linux.cong_avoid(
            &mut w,
            AckEvent {
                per_ack: false,
                ..acked(2)
            },
        );
        assert!(w.cwnd * 1200.0 <= 3600.0 + 1e-6);
    }

    #[test]
    fn byte_counting_credits_every_segment_acknowledged() {
        let mut reno = Reno::default();
        let two = AckEvent::segments(2, false);
        let mut ca = Window::new(10.0, 5.0, 100.0);
        reno.cong_avoid(&mut ca, two);
        assert_eq!(ca.cwnd, 10.2);
        let mut ss = Window::new(4.0, 50.0, 100.0);
        let stretch = AckEvent::segments(5, false);
        reno.cong_avoid(&mut ss, stretch);
        assert_eq!(
            ss.cwnd, 6.0,
            "slow start takes at most two segments per ACK"
        );
        // ns-3.44's TcpLinuxReno::SlowStart: min(cwnd + segmentsAcked, ssthresh), no L.
        let mut ns3 = Reno {
            ns3: true,
            ..Reno::default()
        };
        let mut ss = Window::new(4.0, 50.0, 100.0);
        ns3.cong_avoid(&mut ss, stretch);
        assert_eq!(ss.cwnd, 9.0, "every segment acknowledged");
        let mut near = Window::new(47.0, 50.0, 100.0);
        ns3.cong_avoid(&mut near, stretch);
        assert_eq!(near.cwnd, 50.0, "not past ssthresh, the rest not credited");
        // TcpCubic's slow start: every segment acknowledged, past ssthresh.
        let mut cubic = Window::new(47.0, 50.0, 100.0);
        ns3_slow_start(&mut cubic, &stretch, false);
        assert_eq!(cubic.cwnd, 52.0);
        // Per ACK (TcpNewReno's classes) stays one segment.
        let mut per_ack = Window::new(4.0, 50.0, 100.0);
        ns3_slow_start(
            &mut per_ack,
            &AckEvent {
                per_ack: true,
                ..stretch
            },
            true,
        );
        assert_eq!(per_ack.cwnd, 5.0);
    }

    /// ns-3.44's `TcpLinuxReno::CongestionAvoidance`: whole segments, one per w = floor(cwnd)
    /// segments acknowledged, the counter kept across a reduction; RFC 5681's 1/cwnd per
    /// segment would have moved cwnd on every ACK.
    #[test]
    fn ns3_linux_reno_congestion_avoidance_adds_whole_segments() {
        let mut reno = Reno {
            ns3: true,
            ..Reno::default()
        };
        let two = AckEvent {
            acked: 2,
            credit: 2.0,
            ..ack()
        };
        let mut w = Window::new(10.5, 5.0, 100.0);
        for _ in 0..4 {
            reno.cong_avoid(&mut w, two);
            assert_eq!(w.cwnd, 10.5, "8 of w = 10 segments counted, no growth yet");
        }
        reno.cong_avoid(&mut w, two);
        assert_eq!(w.cwnd, 11.5, "the tenth segment adds one");
        assert_eq!(reno.ns3_cnt, 0);
        // A stretch ACK of 25 segments with w = 11: two segments, 3 left in the counter.
        reno.cong_avoid(
            &mut w,
            AckEvent {
                acked: 25,
                credit: 25.0,
                ..ack()
            },
        );
        assert_eq!((w.cwnd, reno.ns3_cnt), (13.5, 3));
        // After a reduction to w = 2 the counter (3 >= 2) first gives one segment and
        // restarts, then counts the ACK's segments.
        let mut cut = Window::new(2.0, 2.0, 100.0);
        reno.cong_avoid(&mut cut, two);
        assert_eq!((cut.cwnd, reno.ns3_cnt), (4.0, 0));
        // Outside `ns3_model` Reno adds 1/cwnd per segment.
        let mut rfc = Window::new(10.0, 5.0, 100.0);
        Reno::default().cong_avoid(&mut rfc, two);
        assert_eq!(rfc.cwnd, 10.2);
    }
}
