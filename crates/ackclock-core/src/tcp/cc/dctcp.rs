//! DCTCP: RFC 8257, "Data Center TCP (DCTCP): TCP Congestion Control for Data Centers"
//! (S. Bensley et al., 2017), after M. Alizadeh et al., "Data Center TCP (DCTCP)", ACM
//! SIGCOMM 2010. ns-3.44: `TcpDctcp` (src/internet/model/tcp-dctcp.cc: `PktsAcked`,
//! `GetSsThresh`, `CeState0to1`, `CeState1to0`, `Init`); Linux: net/ipv4/tcp_dctcp.c.
//!
//! The sender estimates the fraction of its data the network marks and reduces in
//! proportion (RFC 8257 section 3.3):
//!
//! - per ACK of new data: bytes_acked += what it acknowledges; if it carries ECN-Echo,
//!   bytes_marked += the same (steps 1-2; `in_ack_event`, Linux's `dctcp_update_alpha`);
//! - once per window of data (the ACK reaches WindowEnd, the highest segment sent when the
//!   window began): M = bytes_marked / bytes_acked, alpha = (1 - g) alpha + g M (steps 3-8),
//!   g = 1/16, alpha starting at 1 (`DctcpAlphaOnInit`);
//! - an ECN-Echo (at most once per window, RFC 3168's rule, which the sender applies)
//!   leaves cwnd (1 - alpha / 2) (step 9). ns-3 and Linux take ssthresh the same way on a
//!   loss too (`GetSsThresh`, `dctcp_ssthresh`); RFC 8257 section 3.5 asks for Reno's
//!   halving on loss, which `loss_halves` = 1 gives (0 under `ns3_cc_defaults`).
//! - ns-3 measures from the first ACK of data (`PktsAcked`, which the SYN's ACK does not
//!   reach), Linux from the SYN's ACK (`count_syn_ack`, 0 under `ns3_cc_defaults`).
//! - growth is Reno's (ns-3's `TcpLinuxReno`, counting segments acknowledged); `ns3_model`
//!   (1 in the `ns3` profile) slow-starts as `TcpLinuxReno::SlowStart`: every segment
//!   acknowledged, no limit L, up to ssthresh, and grows in congestion avoidance as
//!   `TcpLinuxReno::CongestionAvoidance`: a whole segment per cwnd segments acknowledged
//!   (`reno::ns3_linux_reno_increase`).
//!
//! The receiver echoes each segment's CE mark instead of latching it until CWR (section 3.2:
//! a change of CE state first acknowledges at once what a delayed ACK holds, with the old
//! state): the sink does this for any algorithm whose registry entry says
//! `ecn_per_segment`, and such an algorithm turns ECN on by itself, as `TcpDctcp::Init` does.
//! The marking is the queue's: RED with min_th = max_th = K on the instantaneous queue
//! (weight 1) marks every ECN-capable packet that finds K or more waiting, as ns-3's
//! tcp-validation example and the DCTCP paper configure it.

use super::reno::{ns3_linux_reno_increase, ns3_slow_start};
use super::{
    reno_increase, slow_start, AckEvent, AckFlags, CcInfo, CcSetup, CongestionOps, Ns3Class, Param,
    Range, Window, NO_TRACE,
};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct Dctcp {
    g: f64,
    loss_halves: bool,
    /// The estimate of the fraction of data marked.
    pub alpha: f64,
    acked: u64,
    marked: u64,
    /// The window being measured ends when the cumulative ACK reaches this segment.
    window_end: Option<u64>,
    /// The ACK being handled carries ECN-Echo (its reduction, if any, is the ECN one).
    ece_now: bool,
    /// The SYN's ACK ends the first observation window (Linux); else the first window
    /// starts with the first ACK of data (ns-3).
    count_syn_ack: bool,
    /// `ns3_model`: `TcpLinuxReno::SlowStart`'s growth ([`ns3_slow_start`]) and
    /// `CongestionAvoidance`'s ([`ns3_linux_reno_increase`], its counter `m_cWndCnt`).
    ns3: bool,
    ns3_cnt: u64,
}

crate::params! {
    /// DCTCP's parameters (`cc_params`), each with its declaration.
    pub struct DctcpParams {
        g: f64 = Param::new("g", 0.0625, Range::Fraction, "weight of the newest window in alpha")
            .ns3("DctcpShiftG"),
        alpha_init: f64 = Param::new("alpha_init", 1.0, Range::Fraction, "alpha before any measurement (0 < alpha <= 1)")
            .ns3("DctcpAlphaOnInit"),
        loss_halves: bool = Param::new("loss_halves", 1.0, Range::Flag, "a loss halves the window (RFC 8257 3.5); 0: (1 - alpha/2)")
            .profile_defaults(&[("ns3", 0.0)]),
        count_syn_ack: bool = Param::new("count_syn_ack", 1.0, Range::Flag, "the SYN's ACK ends the first window of alpha (Linux); 0: the first ACK of data starts it (ns-3)")
            .profile_defaults(&[("ns3", 0.0)]),
        ns3_model: bool = Param::new("ns3_model", 0.0, Range::Flag, "growth as ns-3.44's TcpLinuxReno: SlowStart every segment acknowledged, up to ssthresh; CongestionAvoidance whole segments, one per cwnd segments acknowledged")
            .profile_defaults(&[("ns3", 1.0)]),
    }
}

impl CongestionOps for Dctcp {
    const INFO: CcInfo = CcInfo {
        name: "dctcp",
        ns3: &[Ns3Class::segments("TcpDctcp")],
        ecn_per_segment: true,
        params: DctcpParams::PARAMS,
    };

    type Params = DctcpParams;
    const IN_ACK_EVENT: bool = true;

    fn new(p: &DctcpParams, _setup: &CcSetup) -> Dctcp {
        Dctcp {
            g: p.g,
            loss_halves: p.loss_halves,
            alpha: p.alpha_init,
            acked: 0,
            marked: 0,
            window_end: None,
            ece_now: false,
            count_syn_ack: p.count_syn_ack,
            ns3: p.ns3_model,
            ns3_cnt: 0,
        }
    }

    fn in_ack_event(&mut self, _w: &mut Window, ack: &AckFlags) {
        if !self.count_syn_ack && ack.sent <= 1 {
            // ns-3.44's TcpDctcp::PktsAcked runs for ACKs of data only (ProcessAck); its
            // first call sets the window's end (m_nextSeqFlag).
            return;
        }
        self.ece_now = ack.ece;
        self.acked += ack.acked;
        if ack.ece {
            self.marked += ack.acked;
        }
        let end = *self.window_end.get_or_insert(ack.sent);
        if ack.una >= end && ack.acked > 0 {
            let m = if self.acked > 0 {
                self.marked as f64 / self.acked as f64
            } else {
                0.0
            };
            self.alpha = (1.0 - self.g) * self.alpha + self.g * m;
            self.window_end = Some(ack.sent);
            self.acked = 0;
            self.marked = 0;
        }
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
        if w.cwnd < w.ssthresh {
            if self.ns3 {
                ns3_slow_start(w, &ev, true);
            } else {
                slow_start(w, &ev);
            }
        } else if self.ns3 && !ev.per_ack {
            ns3_linux_reno_increase(w, &mut self.ns3_cnt, ev.acked);
        } else {
            reno_increase(w, &ev);
        }
    }

    fn ssthresh(&mut self, w: &Window, _now: SimTime) -> f64 {
        let cwnd = w.cwnd.min(w.rwnd);
        if self.loss_halves && !std::mem::take(&mut self.ece_now) {
            cwnd / 2.0
        } else {
            cwnd * (1.0 - self.alpha / 2.0)
        }
    }

    fn trace(&self) -> [(&'static str, f64); 4] {
        [("dctcp_alpha", self.alpha), NO_TRACE, NO_TRACE, NO_TRACE]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(acked: u64, ece: bool, una: u64, sent: u64) -> AckFlags {
        AckFlags {
            now: SimTime::ZERO,
            acked,
            ece,
            una,
            sent,
        }
    }

    /// RFC 8257 3.3: alpha = (1 - g) alpha + g M once per window, M the fraction of bytes
    /// acknowledged with ECN-Echo; an ECN-Echo leaves cwnd (1 - alpha / 2).
    #[test]
    fn alpha_follows_the_marked_fraction() {
        let mut d = Dctcp::new(&DctcpParams::default(), &CcSetup::default());
        let mut w = Window::new(40.0, 20.0, 1e9);
        assert_eq!(d.alpha, 1.0);
        d.in_ack_event(&mut w, &flags(0, false, 0, 10)); // the first window ends at 10
                                                         // A window of 10 segments, 4 of them marked.
        for i in 1..=10 {
            d.in_ack_event(&mut w, &flags(1, i <= 4, i, 20));
        }
        let alpha = 15.0 / 16.0 + 0.4 / 16.0;
        assert!((d.alpha - alpha).abs() < 1e-12, "{}", d.alpha);
        // The next window (to 20) unmarked: alpha decays by 15/16.
        for i in 11..=20 {
            d.in_ack_event(&mut w, &flags(1, false, i, 30));
        }
        assert!((d.alpha - alpha * 15.0 / 16.0).abs() < 1e-12);
        // An ECN-Echo: cwnd (1 - alpha / 2); a loss: half (RFC 8257 3.5).
        d.in_ack_event(&mut w, &flags(1, true, 21, 30));
        let a = d.alpha;
        assert!((d.ssthresh(&w, SimTime::ZERO) - 40.0 * (1.0 - a / 2.0)).abs() < 1e-12);
        assert_eq!(d.ssthresh(&w, SimTime::ZERO), 20.0);
        // ns-3's TcpDctcp::GetSsThresh takes (1 - alpha / 2) on a loss too.
        let mut ns3 = Dctcp::new(&DctcpParams::for_profile(Some("ns3")), &CcSetup::default());
        assert_eq!(ns3.ssthresh(&w, SimTime::ZERO), 20.0); // alpha 1: half
        ns3.alpha = 0.5;
        assert_eq!(ns3.ssthresh(&w, SimTime::ZERO), 30.0);
    }
}
