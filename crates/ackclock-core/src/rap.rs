//! RAP, the Rate Adaptation Protocol (R. Rejaie, M. Handley, D. Estrin, "RAP: An End-to-end
//! Rate-based Congestion Control Mechanism for Realtime Streams in the Internet", IEEE
//! INFOCOM 1999), as ns-2.35's `Agent/RAP` runs it (rap/rap.cc, `RapAgent`; rap/raplist.cc
//! for its transmission history). A source sends one packet per inter-packet gap (IPG),
//! every packet acknowledged by the receiving RAP agent; it decreases the gap once per
//! smoothed RTT (additive increase of the rate) and multiplies it by 1/beta on a loss
//! (multiplicative decrease), once per loss cluster. Rule by rule:
//!
//! - `start`: `RttTimeout` then `IpgTimeout`.
//! - `IpgTimeout` (the IPG timer): timer-based loss detection (`LossDetection(RAP_TIMER_BASED)`:
//!   every packet of the history sent at least `timeout_` ago is lost, counted in
//!   `sessionLossCount_` and, unless it belongs to a loss cluster already answered
//!   (`RAP_INACTIVE`), a loss; all of them leave the history); a loss calls `LossHandler`,
//!   otherwise one packet goes (`SendPacket`: seqno from 1, departure time in the history) and
//!   counts in `dctr_`. The timer is set again to the gap (with `useFineGrain_`, the gap
//!   times `frtt_ / xrtt_`) plus `Random::uniform(overhead_)`, a draw from ns-2's default
//!   generator even when `overhead_` is 0, unless the agent stopped.
//! - `RttTimeout` (the RTT timer): if at least `dpthresh_` percent of the packets the gap
//!   allowed in the last srtt went (`100 dctr_ ipg_ / srtt_ >= dpthresh_`), `DecreaseIpg`:
//!   ipg = ipg srtt / (alpha ipg + srtt); `dctr_` = 0; the timer again in srtt.
//! - `RecvAck`: the acknowledged packet leaves the history and its RTT, now less its
//!   departure, updates srtt, the variance and the timeout (`UpdateTimeValues`: gains
//!   `delta_`, timeout = mu srtt + phi variance; the very first sample of the process sets
//!   srtt, `frtt_` and `xrtt_` to itself, a function-level `static` in ns-2 shared by every
//!   RAP agent of a run; with `useFineGrain_` `frtt_` and `xrtt_` are EWMAs of gains
//!   `kfrtt_`, `kxrtt_`). The first ACK sets the gap to srtt. Then ACK-based loss detection
//!   (`AckLostPacket`) from the receiver's last hole (`lastRecv`, `lastMiss`, `prevRecv`): a
//!   packet at or below `lastRecv` above `lastMiss` or equal to `prevRecv` was received and
//!   leaves; one at least 3 below `lastRecv` is lost as above. A loss calls `LossHandler`.
//! - `LossHandler`: `IncreaseIpg` (ipg / beta), every packet in the history marked
//!   `RAP_INACTIVE` (their losses are this cluster's), the RTT timer again in srtt.
//! - The receiver (`UpdateLastHole`, `SendAck`): tracks the last hole of the sequence space
//!   and acknowledges every data packet with it, in `rap_base_hdr_size_` bytes.
//!
//! Times are ns-2's doubles (the ns2 profile's double clock): the rules compare departure
//! times plus the timeout with the clock, and ties fall as ns-2's arithmetic makes them.

use serde::{Deserialize, Serialize};

use crate::ids::{FlowId, NodeId};
use crate::rng::Uniform;
use crate::tfrc::InFlight;
use crate::time::SimTime;

/// A RAP flow's parameters, with ns-2.35's defaults (`tcl/lib/ns-default.tcl`, `Agent/RAP`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RapConfig {
    /// Bytes of a data packet on the wire (ns-2 `packetSize_`).
    pub packet_size: u32,
    /// Bytes of an ACK (the receiving agent's `rap_base_hdr_size_`).
    pub ack_size: u32,
    /// The initial inter-packet gap, seconds (ns-2 `ipg_`).
    pub ipg: f64,
    /// Additive increase (`alpha_`) and multiplicative decrease (`beta_`) factors.
    pub alpha: f64,
    pub beta: f64,
    /// The initial smoothed RTT and its variance, seconds (`srtt_`, `variance_`).
    pub srtt: f64,
    pub variance: f64,
    /// The RTT estimator's gain and the timeout's weights (`delta_`, `mu_`, `phi_`).
    pub delta: f64,
    pub mu: f64,
    pub phi: f64,
    /// The initial loss timeout, seconds (`timeout_`).
    pub timeout: f64,
    /// Each gap is lengthened by a uniform draw below this, seconds (`overhead_`).
    pub overhead: f64,
    /// Fine-grain rate adaptation: the gap scaled by a short-term over a long-term RTT
    /// (`useFineGrain_`, `kfrtt_`, `kxrtt_`).
    pub fine_grain: bool,
    pub kfrtt: f64,
    pub kxrtt: f64,
    /// Percent of the packets the gap allowed in an srtt that must have gone for the gap to
    /// decrease (`dpthresh_`).
    pub dpthresh: i32,
}

impl Default for RapConfig {
    fn default() -> Self {
        RapConfig {
            packet_size: 512,
            ack_size: 44,
            ipg: 2.0,
            alpha: 1.0,
            beta: 0.5,
            srtt: 2.0,
            variance: 0.0,
            delta: 0.5,
            mu: 1.2,
            phi: 4.0,
            timeout: 2.0,
            overhead: 0.0,
            fine_grain: false,
            kfrtt: 0.9,
            kxrtt: 0.01,
            dpthresh: 50,
        }
    }
}

impl RapConfig {
    /// Values the rules cannot run with: the field and why.
    pub fn check(&self) -> Result<(), String> {
        if self.packet_size == 0 {
            return Err("packet_size: expected a positive size".into());
        }
        for (name, v) in [("ipg", self.ipg), ("beta", self.beta), ("srtt", self.srtt)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{name}: expected a positive number, got {v}"));
            }
        }
        for (name, v) in [
            ("alpha", self.alpha),
            ("variance", self.variance),
            ("delta", self.delta),
            ("mu", self.mu),
            ("phi", self.phi),
            ("timeout", self.timeout),
            ("overhead", self.overhead),
            ("kfrtt", self.kfrtt),
            ("kxrtt", self.kxrtt),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("{name}: expected a number at least 0, got {v}"));
            }
        }
        Ok(())
    }
}

/// `RapPacketStatusType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Sent,
    Purged,
    Inactive,
}

/// A `TransHistoryEntry`.
#[derive(Clone, Copy, Debug)]
struct Entry {
    seq: i64,
    status: Status,
    departure: f64,
}

/// The header an ACK carries: the packet it acknowledges and the receiver's last hole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AckHeader {
    pub seq: i64,
    pub last_recv: i64,
    pub last_miss: i64,
    pub prev_recv: i64,
}

/// What an event asks of the simulator, in ns-2's order: the RTT timer set again (its
/// delay), one data packet sent (its seqno), then the IPG timer set again (its delay before
/// the overhead draw, which the simulator adds).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Actions {
    pub rtt_timer: Option<f64>,
    pub send: Option<i64>,
    pub ipg_timer: Option<f64>,
}

/// A RAP source (`RapAgent` as a sender).
#[derive(Clone, Debug)]
pub struct RapSender {
    pub cfg: RapConfig,
    seqno: i64,
    loss_count: i64,
    ipg: f64,
    srtt: f64,
    variance: f64,
    timeout: f64,
    frtt: f64,
    xrtt: f64,
    dctr: i64,
    anyack: bool,
    stopped: bool,
    fix_ipg: f64,
    /// ns-2's `List`, newest first (`SetInsert` prepends).
    history: Vec<Entry>,
}

impl RapSender {
    pub fn new(cfg: RapConfig) -> RapSender {
        RapSender {
            seqno: 0,
            loss_count: 0,
            ipg: cfg.ipg,
            srtt: cfg.srtt,
            variance: cfg.variance,
            timeout: cfg.timeout,
            // RapAgent::RapAgent: frtt_ = xrtt_ = srtt_.
            frtt: cfg.srtt,
            xrtt: cfg.srtt,
            dctr: 0,
            anyack: false,
            stopped: true,
            fix_ipg: 0.0,
            history: Vec::new(),
            cfg,
        }
    }

    /// `seqno_`, `sessionLossCount_`, `ipg_`, `srtt_`, `timeout_`, as ns-2's variables.
    pub fn vars(&self) -> [f64; 5] {
        [
            self.seqno as f64,
            self.loss_count as f64,
            self.ipg,
            self.srtt,
            self.timeout,
        ]
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// `RapAgent::start` at `t`.
    pub fn start(&mut self, t: f64) -> Actions {
        self.stopped = false;
        let mut a = Actions::default();
        self.rtt_timeout(&mut a);
        self.ipg_timeout(t, &mut a);
        a
    }

    /// `RapAgent::stop`: both timers cancelled (the simulator forgets their deadlines).
    pub fn stop(&mut self) {
        self.stopped = true;
    }

    /// The IPG timer's expiry (`IpgTimeout`).
    pub fn on_ipg_timer(&mut self, t: f64) -> Actions {
        let mut a = Actions::default();
        self.ipg_timeout(t, &mut a);
        a
    }

    /// The RTT timer's expiry (`RttTimeout`).
    pub fn on_rtt_timer(&mut self) -> Actions {
        let mut a = Actions::default();
        self.rtt_timeout(&mut a);
        a
    }

    /// An ACK arrives at `t` (`RecvAck`); `first_sample`: no RAP agent of the run has taken
    /// an RTT sample yet (ns-2's `static int initial` in `UpdateTimeValues`).
    pub fn on_ack(&mut self, t: f64, ack: &AckHeader, first_sample: &mut bool) -> Actions {
        let mut a = Actions::default();
        // SetRemove by seqno; the sample is now less its departure.
        if let Some(i) = self.history.iter().position(|e| e.seq == ack.seq) {
            let old = self.history.remove(i);
            self.update_time_values(t - old.departure, first_sample);
        }
        if !self.anyack {
            self.anyack = true;
            self.ipg = self.srtt;
        }
        if self.loss_detection(|e, lost| ack_lost(e, ack, lost)) {
            self.loss_handler(&mut a);
        }
        a
    }

    fn ipg_timeout(&mut self, t: f64, a: &mut Actions) {
        let timeout = self.timeout;
        if self.loss_detection(|e, lost| timer_lost(e, t, timeout, lost)) {
            self.loss_handler(a);
        } else {
            // No application: SendPacket(size_).
            self.seqno += 1;
            let seq = self.seqno;
            if !self.history.iter().any(|e| e.seq == seq) {
                self.history.insert(
                    0,
                    Entry {
                        seq,
                        status: Status::Sent,
                        departure: t,
                    },
                );
            }
            a.send = Some(seq);
            self.dctr += 1;
        }
        if self.fix_ipg != 0.0 {
            self.ipg = self.fix_ipg;
        }
        let wait = if self.cfg.fine_grain {
            self.frtt / self.xrtt * self.ipg
        } else {
            self.ipg
        };
        if !self.stopped {
            a.ipg_timer = Some(wait);
        }
    }

    fn rtt_timeout(&mut self, a: &mut Actions) {
        // 100*dctr_*(ipg_/srtt_) >= dpthresh_: the int product, then the double.
        if (100 * self.dctr) as f64 * (self.ipg / self.srtt) >= self.cfg.dpthresh as f64 {
            self.decrease_ipg();
        }
        self.dctr = 0;
        a.rtt_timer = Some(self.srtt);
    }

    /// `DecreaseIpg`: additive increase of the rate.
    fn decrease_ipg(&mut self) {
        if self.fix_ipg != 0.0 {
            self.ipg = self.fix_ipg;
        } else {
            self.ipg *= self.srtt / (self.cfg.alpha * self.ipg + self.srtt);
        }
    }

    /// `LossHandler`: multiplicative decrease (`IncreaseIpg`), the history's packets one
    /// cluster, the RTT timer again.
    fn loss_handler(&mut self, a: &mut Actions) {
        self.fix_ipg = 0.0;
        self.ipg /= self.cfg.beta;
        for e in &mut self.history {
            e.status = Status::Inactive;
        }
        a.rtt_timer = Some(self.srtt);
    }

    /// `UpdateTimeValues` (Jacobson/Karels with gain `delta_`).
    fn update_time_values(&mut self, sample: f64, first: &mut bool) {
        if *first {
            self.srtt = sample;
            self.frtt = sample;
            self.xrtt = sample;
            self.variance = 0.0;
            *first = false;
        }
        let mut diff = sample - self.srtt;
        self.srtt += self.cfg.delta * diff;
        diff = diff.abs();
        self.variance += self.cfg.delta * (diff - self.variance);
        self.timeout = self.cfg.mu * self.srtt + self.cfg.phi * self.variance;
        if self.cfg.fine_grain {
            self.frtt = (1.0 - self.cfg.kfrtt) * self.frtt + self.cfg.kfrtt * sample;
            self.xrtt = (1.0 - self.cfg.kxrtt) * self.xrtt + self.cfg.kxrtt * sample;
        }
    }

    /// `LossDetection`: `mark` decides each entry (true: a loss counted), then the purged
    /// entries leave; true if a loss outside a cluster already answered was found.
    fn loss_detection(&mut self, mark: impl Fn(&mut Entry, &mut bool) -> bool) -> bool {
        let mut losses = 0;
        for e in &mut self.history {
            let mut lost = false;
            if mark(e, &mut lost) {
                self.loss_count += 1; // sessionLossCount_
                if lost {
                    losses += 1;
                }
            }
        }
        self.history.retain(|e| e.status != Status::Purged);
        losses > 0
    }
}

/// `TimerLostPacket`: sent `timeout` or more before `now`: lost (true), a new loss unless
/// inactive (`lost`), purged.
fn timer_lost(e: &mut Entry, now: f64, timeout: f64, lost: &mut bool) -> bool {
    if e.departure + timeout <= now {
        *lost = e.status != Status::Inactive;
        e.status = Status::Purged;
        return true;
    }
    false
}

/// `AckLostPacket`.
fn ack_lost(e: &mut Entry, ack: &AckHeader, lost: &mut bool) -> bool {
    if e.seq <= ack.last_recv {
        if e.seq > ack.last_miss || e.seq == ack.prev_recv {
            e.status = Status::Purged; // received
        } else if ack.last_recv - e.seq >= 3 {
            *lost = e.status != Status::Inactive;
            e.status = Status::Purged;
            return true;
        }
    }
    false
}

/// A RAP receiver (`RapAgent` receiving data): the last hole of the sequence space.
#[derive(Clone, Debug, Default)]
pub struct RapSink {
    last_recv: i64,
    last_miss: i64,
    prev_recv: i64,
}

impl RapSink {
    /// Data packet `seq` arrives (`UpdateLastHole`); the ACK to send (`SendAck`).
    pub fn on_data(&mut self, seq: i64) -> AckHeader {
        self.update_last_hole(seq);
        AckHeader {
            seq,
            last_recv: self.last_recv,
            last_miss: self.last_miss,
            prev_recv: self.prev_recv,
        }
    }

    fn update_last_hole(&mut self, seq: i64) {
        if seq > self.last_recv + 1 {
            self.prev_recv = self.last_recv;
            self.last_recv = seq;
            self.last_miss = seq - 1;
        } else if seq == self.last_recv + 1 {
            self.last_recv = seq;
        } else if self.last_miss < seq && seq <= self.last_recv {
            // a duplicate
        } else if seq == self.last_miss {
            if self.prev_recv + 1 == seq {
                self.prev_recv = 0; // the hole filled
                self.last_miss = 0;
            } else {
                self.last_miss -= 1;
            }
        } else if self.prev_recv < seq && seq < self.last_miss {
            self.prev_recv = seq;
        }
    }
}

/// The two timers of a RAP source, in `RapConn::deadlines` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RapTimer {
    Ipg = 0,
    Rtt = 1,
}

/// Both ends of a RAP flow and the ACK headers travelling back.
#[derive(Debug)]
pub struct RapConn {
    pub sender: RapSender,
    pub sink: RapSink,
    pub acks: InFlight<AckHeader>,
    /// When each timer ([`RapTimer`] order) expires, if it is set.
    pub deadlines: [Option<SimTime>; 2],
    /// Under the ns2 profile, each timer's ns-2 scheduling order (only the latest fires).
    pub ns2_uids: [u64; 2],
    /// `Random::uniform(overhead_)`'s generator (ns-2's default one in an ns-2 script).
    pub rng: Uniform,
    pub flow: FlowId,
    pub src: NodeId,
    pub dst: NodeId,
}

impl RapConn {
    pub fn new(cfg: RapConfig, rng: Uniform, flow: FlowId, src: NodeId, dst: NodeId) -> Self {
        RapConn {
            sender: RapSender::new(cfg),
            sink: RapSink::default(),
            acks: InFlight::default(),
            deadlines: [None; 2],
            ns2_uids: [0; 2],
            rng,
            flow,
            src,
            dst,
        }
    }

    /// The IPG timer's delay: the gap plus `Random::uniform(overhead_)` (one draw, even of
    /// a zero overhead).
    pub fn ipg_delay(&mut self, gap: f64) -> f64 {
        gap + self.sender.cfg.overhead * self.rng.next_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_sends_one_packet_and_sets_both_timers() {
        let mut s = RapSender::new(RapConfig::default());
        let a = s.start(1.0);
        // RttTimeout with dctr_ 0 keeps ipg_; the RTT timer in srtt_, the IPG timer in ipg_.
        assert_eq!(
            a,
            Actions {
                rtt_timer: Some(2.0),
                send: Some(1),
                ipg_timer: Some(2.0)
            }
        );
    }

    #[test]
    fn the_first_ack_sets_srtt_and_the_gap() {
        let mut s = RapSender::new(RapConfig::default());
        s.start(1.0);
        let mut first = true;
        let ack = AckHeader {
            seq: 1,
            last_recv: 1,
            ..AckHeader::default()
        };
        let a = s.on_ack(1.25, &ack, &mut first);
        assert!(!first);
        assert_eq!(a, Actions::default());
        // The first sample of the run: srtt = 0.25, variance 0, timeout = mu srtt; ipg_ =
        // srtt_ on the first ACK.
        assert_eq!(s.vars(), [1.0, 0.0, 0.25, 0.25, 1.2 * 0.25]);
        // Another agent's first sample is not the run's first: srtt moves by delta.
        let mut t = RapSender::new(RapConfig::default());
        t.start(1.0);
        t.on_ack(1.25, &ack, &mut first);
        assert_eq!(t.vars()[3], 2.0 + 0.5 * (0.25 - 2.0));
    }

    #[test]
    fn the_gap_shrinks_once_per_srtt_when_enough_was_sent() {
        let mut s = RapSender::new(RapConfig::default());
        s.start(0.0);
        // dctr_ 1 with ipg_ = srtt_: 100 >= 50, ipg *= srtt / (alpha ipg + srtt) = 1/2.
        let a = s.on_rtt_timer();
        assert_eq!(a.rtt_timer, Some(2.0));
        assert_eq!(s.vars()[2], 1.0);
        // Nothing sent since: dctr_ 0, no decrease.
        s.on_rtt_timer();
        assert_eq!(s.vars()[2], 1.0);
    }

    #[test]
    fn a_hole_three_below_the_last_received_is_one_loss_per_cluster() {
        let cfg = RapConfig {
            timeout: 100.0,
            ..RapConfig::default()
        };
        let mut s = RapSender::new(cfg);
        let mut sink = RapSink::default();
        s.start(0.0);
        for k in 1..6 {
            s.on_ipg_timer(k as f64 * 0.1);
        }
        // Packets 1..=6 sent; 2 and 3 lost.
        let mut first = true;
        let mut acts = Vec::new();
        for seq in [1, 4, 5, 6] {
            let ack = sink.on_data(seq);
            acts.push(s.on_ack(1.0, &ack, &mut first));
        }
        assert_eq!(
            sink.on_data(7),
            AckHeader {
                seq: 7,
                last_recv: 7,
                last_miss: 3,
                prev_recv: 1
            }
        );
        // At ACK 5 (lastRecv 5), packet 2 is 3 below: a loss, ipg / beta, the RTT timer again;
        // at ACK 6 packet 3 is 3 below, but inactive: counted, no new loss.
        assert_eq!(acts[1].rtt_timer, None);
        assert!(acts[2].rtt_timer.is_some());
        assert_eq!(acts[3].rtt_timer, None);
        assert_eq!(s.vars()[1], 2.0);
    }

    #[test]
    fn the_sink_tracks_its_last_hole() {
        let mut k = RapSink::default();
        k.on_data(1);
        assert_eq!(
            k.on_data(4),
            AckHeader {
                seq: 4,
                last_recv: 4,
                last_miss: 3,
                prev_recv: 1
            }
        );
        // The hole's top filled: it shrinks; then its last packet: it closes.
        assert_eq!(k.on_data(3).last_miss, 2);
        assert_eq!(
            k.on_data(2),
            AckHeader {
                seq: 2,
                last_recv: 4,
                last_miss: 0,
                prev_recv: 0
            }
        );
    }

    #[test]
    fn timer_based_detection_after_the_timeout() {
        let mut s = RapSender::new(RapConfig::default());
        s.start(0.0); // packet 1 at 0, timeout_ 2
        let a = s.on_ipg_timer(1.0);
        assert_eq!(a.send, Some(2));
        let a = s.on_ipg_timer(2.0);
        // Packet 1 is timeout_ old: a loss, no packet this time, ipg 2 / 0.5.
        assert_eq!(a.send, None);
        assert_eq!(a.rtt_timer, Some(2.0));
        assert_eq!(a.ipg_timer, Some(4.0));
    }
}
