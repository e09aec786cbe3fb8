//! TFRC, TCP-Friendly Rate Control (RFC 5348, which obsoletes RFC 3448; Floyd, Handley,
//! Padhye and Widmer, "Equation-Based Congestion Control for Unicast Applications", SIGCOMM
//! 2000): a sender that sends at the rate the TCP throughput equation allows
//! (`equation.rs`), and a receiver that measures the loss event rate by the average loss
//! interval method and reports it, with the rate it receives at, once per round-trip time.
//!
//! The behaviour is ns-2.35's `Agent/TFRC` (`tcp/tfrc.cc`, `TfrcAgent`) and `Agent/TFRCSink`
//! (`tcp/tfrc-sink.cc`, `TfrcSinkAgent`), the reference of the ns2 profile; each rule in
//! `sender.rs` and `sink.rs` names the function it follows. Where ns-2 differs from the RFC it
//! is said there (ns-2's slow start doubles the rate once per RTT up to twice the receive rate,
//! RFC 5348 section 4.3 caps it the same way; its no-feedback timer halves the rate as RFC
//! 5348 section 4.4 does, and keeps at least the initial rate when the sender was idle).
//!
//! The data packet's header fields (sequence number, timestamp, the sender's RTT and timeout
//! estimates, its round id) and the feedback's (echoed timestamp plus the receiver's delay,
//! loss event rate, receive rate) travel beside the packets in the flow's agent
//! ([`TfrcConn`]): the packet itself carries its sequence number and send time, and the rest
//! is looked up by sequence number when it arrives, as a real header would carry it.

pub mod equation;
pub mod sender;
pub mod sink;

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::ids::{FlowId, NodeId};
use crate::time::SimTime;

pub use sender::TfrcSender;
pub use sink::TfrcSink;

/// A TFRC flow's parameters, with ns-2.35's defaults (`tcl/lib/ns-default.tcl`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct TfrcConfig {
    /// Payload bytes per data packet (ns-2 `packetSize_`), the `s` of the equation.
    pub packet_size: u32,
    /// Header bytes added to each data packet on the wire (ns-2 `headersize_`, added when
    /// `useHeaders_` is true).
    pub header_size: u32,
    /// Bytes of a feedback packet (ns-2 `Agent/TFRCSink` `packetSize_`).
    pub feedback_size: u32,
    /// The rate before the first feedback, bytes per second (ns-2 `InitRate_`).
    pub init_rate: f64,
    /// Weight of the old value in the moving-average RTT (ns-2 `df_`).
    pub df: f64,
    /// Slow start multiplies the rate by this once per RTT (ns-2 `ssmult_`).
    pub ssmult: f64,
    /// Packets acknowledged per ACK in the equation (ns-2 `bval_`).
    pub bval: u32,
    /// Inter-packet spacing scaled by sqrt(average RTT)/sqrt(current RTT) (ns-2 `ca_`).
    pub ca: bool,
    /// Lower bound of the equation's timeout, seconds (ns-2 `minrto_`).
    pub min_rto_s: f64,
    /// TCP-style RTO estimate for the equation's t_RTO: clock tick (s) and initial values
    /// (ns-2 `tcp_tick_`, `srtt_init_`, `rttvar_init_`, `rtxcur_init_`, `rttvar_exp_`,
    /// `T_SRTT_BITS`, `T_RTTVAR_BITS`).
    pub tcp_tick_s: f64,
    pub srtt_init: i32,
    pub rttvar_init: i32,
    pub rtxcur_init_s: f64,
    pub rttvar_exp: i32,
    pub srtt_bits: i32,
    pub rttvar_bits: i32,
    /// The initial rate after the first feedback: `rate_init` packets per RTT (option 1) or
    /// RFC 3390's 4/3/2 packets by packet size (option 2) (ns-2 `rate_init_`,
    /// `rate_init_option_`).
    pub rate_init: f64,
    pub rate_init_option: u8,
    /// During slow start, raise the sending rate packet by packet over an RTT (ns-2
    /// `slow_increase_`).
    pub slow_increase: bool,
    /// Rounds the rate may stay above twice the receive rate (ns-2 `maxHeavyRounds_`).
    pub max_heavy_rounds: u32,
    /// Limit the rate to the receive rate after a loss, `scmult` times it otherwise (ns-2
    /// `conservative_`, `scmult_`).
    pub conservative: bool,
    pub scmult: f64,
    /// Each gap between packets is scaled by a uniform factor in [1 - overhead, 1 + overhead]
    /// (ns-2 `overhead_`).
    pub overhead: f64,
    /// Data packets are ECN-capable and the receiver counts marks as losses (ns-2 `ecn_`).
    pub ecn: bool,
    /// After an idle or data-limited period keep at least the initial rate (ns-2 `idleFix_`);
    /// `old_code`: ns-2's older behaviour, waiting for the timer after a data-limited period
    /// and halving the rate on no feedback regardless (ns-2 `oldCode_`).
    pub idle_fix: bool,
    pub old_code: bool,
    /// VoIP mode (RFC 4828): the equation uses `fsize` byte packets, the rate is reduced by
    /// the header overhead, at most `voip_max_pkt_rate` packets per second (ns-2 `voip_`,
    /// `fsize_`, `voip_max_pkt_rate_`).
    pub voip: bool,
    pub fsize: u32,
    pub voip_max_pkt_rate: f64,
    /// The sender sends only what its application gave it (ns-2 `SndrType_` 1, an FTP on
    /// the agent); false: it always has data.
    pub app_limited: bool,
    // The receiver (Agent/TFRCSink).
    /// Feedback packets per RTT (ns-2 `NumFeedback_`).
    pub num_feedback: f64,
    /// Packets of history the receiver keeps (ns-2 `InitHistorySize_`).
    pub history_size: u32,
    /// Loss event rate estimator: 1 the average loss interval method (RFC 5348 section 5.4),
    /// 2 an EWMA of loss intervals with weight `history` (ns-2 `algo_`, `history_`).
    pub algo: u8,
    pub history: f64,
    /// At the first loss, make up a loss interval from the rate received so far (RFC 5348
    /// section 6.3.1; ns-2 `AdjustHistoryAfterSS_`).
    pub adjust_history_after_ss: bool,
    /// A new loss event also needs a new round id from the sender (ns-2 `PreciseLoss_`).
    pub precise_loss: bool,
    /// Packets out of sequence before a gap counts as lost (ns-2 `numPkts_`).
    pub num_pkts: u32,
    /// Loss intervals averaged (ns-2 `NumSamples_`; negative: 8).
    pub num_samples: i32,
    /// History discounting (RFC 5348 section 5.5; ns-2 `discount_`, `minDiscountRatio_`).
    pub discount: bool,
    pub min_discount_ratio: f64,
    /// Shift the weights by one interval so that a new interval enters smoothly (ns-2
    /// `smooth_`).
    pub smooth: bool,
    /// Loss intervals of at most `short_rtts` RTTs count their losses (ns-2
    /// `ShortIntervals_`, `ShortRtts_`; RFC 4828 section 3).
    pub short_intervals: u32,
    pub short_rtts: u32,
}

impl Default for TfrcConfig {
    fn default() -> Self {
        TfrcConfig {
            packet_size: 1000,
            header_size: 32,
            feedback_size: 40,
            init_rate: 300.0,
            df: 0.95,
            ssmult: 2.0,
            bval: 1,
            ca: true,
            min_rto_s: 0.0,
            tcp_tick_s: 0.1,
            srtt_init: 0,
            rttvar_init: 12,
            rtxcur_init_s: 6.0,
            rttvar_exp: 2,
            srtt_bits: 3,
            rttvar_bits: 2,
            rate_init: 2.0,
            rate_init_option: 2,
            slow_increase: true,
            max_heavy_rounds: 0,
            conservative: false,
            scmult: 1.5,
            overhead: 0.0,
            ecn: false,
            idle_fix: true,
            old_code: false,
            voip: false,
            fsize: 1460,
            voip_max_pkt_rate: 100.0,
            app_limited: false,
            num_feedback: 1.0,
            history_size: 100_000,
            algo: 1,
            history: 0.75,
            adjust_history_after_ss: true,
            precise_loss: true,
            num_pkts: 1,
            num_samples: -1,
            discount: true,
            min_discount_ratio: 0.5,
            smooth: true,
            short_intervals: 0,
            short_rtts: 2,
        }
    }
}

impl TfrcConfig {
    /// What is wrong with these parameters, if anything (field name and what was expected).
    pub fn check(&self) -> Result<(), String> {
        let positive = [
            ("packet_size", self.packet_size as f64),
            ("init_rate", self.init_rate),
            ("ssmult", self.ssmult),
            ("bval", self.bval as f64),
            ("tcp_tick_s", self.tcp_tick_s),
            ("num_feedback", self.num_feedback),
            ("history_size", self.history_size as f64),
            ("num_pkts", self.num_pkts as f64),
            ("feedback_size", self.feedback_size as f64),
        ];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{name}: expected a positive number, got {v}"));
            }
        }
        if !(0.0..1.0).contains(&self.df) {
            return Err(format!("df: expected 0 <= df < 1, got {}", self.df));
        }
        if !(0.0..1.0).contains(&self.overhead) {
            return Err(format!(
                "overhead: expected 0 <= overhead < 1, got {}",
                self.overhead
            ));
        }
        if !(0.0..1.0).contains(&self.history) {
            return Err(format!(
                "history: expected 0 <= history < 1, got {}",
                self.history
            ));
        }
        if !matches!(self.rate_init_option, 1 | 2) {
            return Err(format!(
                "rate_init_option: expected 1 (rate_init) or 2 (RFC 3390), got {}",
                self.rate_init_option
            ));
        }
        if !matches!(self.algo, 1 | 2) {
            return Err(format!(
                "algo: expected 1 (average loss interval) or 2 (EWMA), got {}",
                self.algo
            ));
        }
        if !matches!(self.short_intervals % 10, 0 | 1 | 3) {
            return Err(format!(
                "short_intervals: expected 0, 1, 3, 10, 11 or 13, got {}",
                self.short_intervals
            ));
        }
        if self.voip && !(self.voip_max_pkt_rate > 0.0 && self.fsize > 0) {
            return Err("voip: needs voip_max_pkt_rate > 0 and fsize > 0".into());
        }
        if self.num_samples == 0 || self.num_samples > 64 {
            return Err(format!(
                "num_samples: expected 1..64 or negative (8), got {}",
                self.num_samples
            ));
        }
        Ok(())
    }

    /// Wire bytes of a data packet.
    pub fn data_bytes(&self) -> u32 {
        self.packet_size + self.header_size
    }
}

/// The header fields of a data packet that are not in [`crate::packet::Packet`]
/// (`hdr_tfrc`, tfrc.h).
#[derive(Clone, Copy, Debug)]
pub struct DataHeader {
    pub seq: u64,
    /// When it was sent, seconds (ns-2's double clock under the ns2 profile).
    pub timestamp: f64,
    pub rtt: f64,
    pub tzero: f64,
    pub rate: f64,
    pub urgent: bool,
    pub round_id: i64,
    /// The packet size the equation uses (ns-2 `fsize`: `fsize_` before the first feedback,
    /// then the packet size unless in VoIP mode).
    pub fsize: f64,
}

/// A feedback packet's fields (`hdr_tfrc_ack`, tfrc.h).
#[derive(Clone, Copy, Debug)]
pub struct Feedback {
    pub seq: u64,
    /// The highest data packet received (ns-2 traces it as the feedback's number).
    pub maxseq: i64,
    /// The echoed timestamp plus the time the receiver held it, seconds.
    pub echo: f64,
    pub flost: f64,
    /// Packets per second received since the last report.
    pub rate_since_last_report: f64,
    pub losses: u32,
    pub true_loss: f64,
}

/// Headers in flight, looked up by sequence number on arrival. Packets of a flow arrive in
/// order (or not at all), so the ones before an arriving packet were lost and are dropped.
#[derive(Debug)]
pub struct InFlight<T> {
    q: VecDeque<T>,
}

impl<T> Default for InFlight<T> {
    fn default() -> Self {
        InFlight { q: VecDeque::new() }
    }
}

/// At most this many headers are kept: a flow whose every packet is lost does not grow.
const IN_FLIGHT_CAP: usize = 1 << 16;

impl<T: Copy> InFlight<T> {
    pub fn push(&mut self, h: T) {
        if self.q.len() == IN_FLIGHT_CAP {
            self.q.pop_front();
        }
        self.q.push_back(h);
    }

    /// The header of packet `seq`, forgetting it and every older one.
    pub fn take(&mut self, seq: u64, seq_of: impl Fn(&T) -> u64) -> Option<T> {
        while let Some(h) = self.q.front() {
            let s = seq_of(h);
            if s < seq {
                self.q.pop_front();
            } else if s == seq {
                return self.q.pop_front();
            } else {
                return None;
            }
        }
        None
    }
}

/// Both ends of a TFRC flow and the headers travelling between them.
#[derive(Debug)]
pub struct TfrcConn {
    pub sender: TfrcSender,
    pub sink: TfrcSink,
    pub data: InFlight<DataHeader>,
    pub feedback: InFlight<Feedback>,
    /// When each timer ([`TfrcTimer`] order) expires, if it is set.
    pub deadlines: [Option<SimTime>; 3],
    /// Under the ns2 profile, each timer's ns-2 scheduling order: ns-2 reschedules a timer
    /// as a new event (`TimerHandler::resched`), so only the latest may fire, even when an
    /// earlier one falls in the same picosecond.
    pub ns2_uids: [u64; 3],
    /// Bytes the application writes at its start (None: endless).
    pub limit: Option<i64>,
}

impl TfrcConn {
    /// `limit`: the application writes this many bytes at its start (None: it writes
    /// without end, or, with `app_limited`, as the front end hands data over).
    pub fn new(
        cfg: TfrcConfig,
        rng: crate::rng::RandomStream,
        flow: FlowId,
        src: NodeId,
        dst: NodeId,
        limit: Option<i64>,
    ) -> TfrcConn {
        TfrcConn {
            sink: TfrcSink::new(&cfg),
            sender: TfrcSender::new(cfg, crate::rng::Uniform::Own(rng), flow, src, dst),
            data: InFlight::default(),
            feedback: InFlight::default(),
            deadlines: [None; 3],
            ns2_uids: [0; 3],
            limit,
        }
    }
}

/// The timers of a TFRC flow (one pending deadline each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TfrcTimer {
    /// The sender's next packet (`TfrcSendTimer`).
    Send = 0,
    /// No feedback for a while (`TfrcNoFeedbackTimer`).
    NoFeedback = 1,
    /// The receiver's next report (`TfrcNackTimer`).
    Report = 2,
}

impl TfrcTimer {
    pub fn from_u8(v: u8) -> TfrcTimer {
        match v {
            0 => TfrcTimer::Send,
            1 => TfrcTimer::NoFeedback,
            _ => TfrcTimer::Report,
        }
    }
}
