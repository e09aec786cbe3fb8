//! A TCP connection's parameters as the sender and the sink take them: typed, with what
//! depends on the congestion control's name (its registry entry) already resolved. Built once
//! from the scenario's `TcpConfig` (`scenario::TcpConfig::params`, which documents each
//! rule); TCP code never reads the scenario.

use crate::tcp::rtt::RtoRule;
use crate::tcp::sink::SinkKind;
use crate::tcp::WindowUnit;
use crate::time::SimDuration;

#[derive(Clone, Debug, PartialEq)]
pub struct TcpParams {
    /// Payload bytes per segment, header bytes on each, and an ACK's wire size.
    pub packet_size: u32,
    pub header_size: u32,
    pub ack_size: u32,
    /// Receiver's advertised window, in segments; the initial window and ssthresh.
    pub window: u32,
    pub window_init: u32,
    /// `window_init` came from the segment size (ns-2's `windowInitOption_ 2`); a timeout
    /// before any ACK then falls back to `window_init_fixed`.
    pub window_init_by_size: bool,
    pub window_init_fixed: u32,
    /// ns-2.35's rules for a loss among the first segments (`tcp::sender::FirstLoss`).
    pub first_loss: crate::tcp::sender::FirstLoss,
    /// ns-2.35's ECN rules for one-way agents (`tcp::sender::Ns2Ecn`).
    pub ns2_ecn: crate::tcp::sender::Ns2Ecn,
    /// A new ACK restarts the retransmission timer with the timeout from before its RTT
    /// sample and backoff reset (ns-2.35's `timerfix_ false`, `TcpAgent::newack`).
    pub rtx_timer_before_sample: bool,
    /// SACK recovery's end forgets its recovery point (ns-2.35's `Sack1TcpAgent::recv`
    /// sets `recover_` to 0): duplicate ACKs may start a fast retransmit at once, and an
    /// ECN-Echo reduce the window at once.
    pub sack_exit_clears_recover: bool,
    /// The retransmission timer runs on while all is acknowledged; its expiry then closes
    /// cwnd to one segment (ns-2.35's `TcpAgent::newtimer` and `timeout`).
    pub idle_rtx_timer: bool,
    /// With `idle_rtx_timer`, that expiry leaves the window (ns-2.35's
    /// `slow_start_restart_ false`).
    pub idle_timeout_keeps_window: bool,
    /// ns-2.35's `QOption_` (with `EnblRTTCtr_`: `rtt_count`), `sender/qoption.rs`.
    pub ns2_qoption: crate::tcp::sender::Ns2Qoption,
    /// ns-2.35's RBP agents' pacing after idle and its `rbp_scale_` (`sender/rbp.rs`).
    pub ns2_rbp: crate::tcp::sender::Ns2Rbp,
    pub ns2_rbp_scale: f64,
    /// ns-2.35's F-RTO (`sender/frto.rs`).
    pub ns2_frto: crate::tcp::sender::Ns2Frto,
    /// ns-2.35's Sack1 `partial_ack_` (`Sack1TcpAgent::partial_ack_action`).
    pub sack_partial_ack: bool,
    /// ns-2.35's `ts_resetRTO_` (`TcpConfig::ts_reset_rto`).
    pub ts_reset_rto: bool,
    /// ns-2.35's `max_connects_` (`TcpConfig::syn_max_sends`), 0: no limit.
    pub syn_max_sends: u32,
    /// cwnd grows only on ACKs that come while the sender is window-limited (ns-2.35's
    /// `control_increase_`).
    pub control_increase: bool,
    /// cwnd's growth stops at this many segments (ns-2.35's `maxcwnd_`; 0 = no limit).
    pub max_cwnd: u32,
    /// ns-2.35's `TcpAgent::slowdown` rule for a congestion control that keeps other than
    /// half the window (Reno's `decrease`, ns-2's decrease_num_): the first reduction, one in
    /// slow start and one after a timeout halve the window anyway.
    pub ns2_first_decrease: bool,
    /// The `rfc793` variant's additions (`tcp::sender::Rfc793`).
    pub rfc793: crate::tcp::sender::Rfc793,
    pub initial_ssthresh: Option<u32>,
    /// RFC 3742 limited slow start above this many segments (0 = off).
    pub max_ssthresh: u32,
    pub dupack_threshold: u32,
    /// `TcpConfig::dupack_cwnd_fraction` (ns-2's `numdupacksFrac_`).
    pub dupack_cwnd_fraction: u32,
    /// The retransmission timer's bounds, initial value and clock granularity.
    pub min_rto: SimDuration,
    pub max_rto: SimDuration,
    pub initial_rto: SimDuration,
    pub timer_granularity: SimDuration,
    pub rto_rule: RtoRule,
    /// ns-2.35's fixed-point retransmission timer, and its `boot_time_`.
    pub ns2_rtt_timer: bool,
    pub ns2_boot_time: SimDuration,
    /// `TcpConfig::ns2_srtt_bits`, `ns2_rttvar_bits`, `ns2_rttvar_exp`.
    pub ns2_rtt_bits: (u32, u32, u32),
    pub limited_transmit: bool,
    pub syn: bool,
    /// `TcpConfig::delay_growth` (ns-2's `delay_growth_`), read with `syn`.
    pub delay_growth: bool,
    pub max_burst: u32,
    pub bug_fix: bool,
    /// `TcpConfig::ns2_full_tcp`: ns-2.35's FullTcpAgent rules.
    pub ns2_full_tcp: bool,
    pub bare_first_segment: bool,
    pub precision_reduce: bool,
    pub partial_deflation: bool,
    pub slow_but_steady: bool,
    pub exit_recovery_fix: bool,
    /// `TcpConfig::recovery_exit_growth`, `careful_after_fast_retransmit`, `ssthresh_flight`.
    pub recovery_exit_growth: bool,
    pub careful_after_fast_retransmit: bool,
    pub ssthresh_flight: bool,
    pub less_careful: bool,
    /// `TcpConfig::bugfix_ack` and `bugfix_ts` (ns-2's `bugFix_ack_`, `bugFix_ts_`).
    pub bugfix_ack: bool,
    pub bugfix_ts: bool,
    /// `TcpConfig::dupacks_always_inflate` (ns-2's `exitFastRetrans_ false`).
    pub dupacks_always_inflate: bool,
    /// `TcpConfig::no_fast_retransmit` (ns-2's `noFastRetrans_`).
    pub no_fast_retransmit: bool,
    /// `TcpConfig::old_ack_sends` (ns-2's `aggressive_maxburst_`).
    pub old_ack_sends: bool,
    /// `TcpConfig::send_overhead` (ns-2's `overhead_`); zero: none.
    pub send_overhead: SimDuration,
    /// `TcpConfig::quick_start` and its companions; None: no Quick-Start.
    pub quick_start: Option<QuickStartParams>,
    pub timestamps: bool,
    pub window_unit: WindowUnit,
    pub integer_cwnd: bool,
    /// RFC 3168 ECN asked for (`ecn`), and the congestion control's need of every segment's
    /// CE mark echoed (DCTCP, RFC 8257 3.2), which turns ECN on too.
    pub ecn: bool,
    pub ecn_per_segment: bool,
    /// With `ecn_per_segment`, ns-3.44's `TcpDctcp` receiver (the `ns3` profile's
    /// `ns3_cc_defaults`): a change of CE state acknowledges at once up to where the previous
    /// segment began (`m_priorRcvNxt`), not what the delayed ACK holds (see `TcpSink`).
    pub ns3_dctcp_ack: bool,
    /// Congestion control grows once per ACK (`growth_per_ack`, or ns-3's `TcpNewReno`
    /// family under `ns3_newreno_growth`).
    pub growth_per_ack: bool,
    /// That growth is ns-3's `TcpNewReno::CongestionAvoidance`, in whole bytes
    /// (`ns3_newreno_growth` with a `TcpNewReno` class and byte-counted windows).
    pub ns3_newreno_bytes: bool,
    /// cwnd grows only while ns-3's `m_isCwndLimited` holds (`ns3_cwnd_limited` with a class
    /// whose `IncreaseWindow` checks it).
    pub ns3_cwnd_limited: bool,
    /// With `ns3_cwnd_limited`: slow start is held back too (`TcpCubic`, not `TcpLinuxReno`).
    pub ns3_cwnd_limited_slow_start: bool,
    pub ns3_srtt_samples: bool,
    pub ns3_ts_ms: bool,
    /// Delivery-rate samples as ns-3.44's `TcpRateLinux` (`ns3_rate_sample`).
    pub ns3_rate_sample: bool,
    pub rcv_buffer_bytes: Option<u64>,
    pub snd_buffer_bytes: Option<u64>,
    pub app_read_rate_bps: Option<f64>,
    pub pacing: bool,
    /// PSH on the segments as Linux's sender sets it, and a Linux sink's immediate ACK of
    /// one (`psh`, `tcp::sender::psh`).
    pub psh: bool,
    pub cwnd_validation: bool,
    pub prr: bool,
    /// RFC 6675's IsLost and SetPipe in SACK recovery (`rfc6675_recovery`).
    pub rfc6675_recovery: bool,
    pub rack: bool,
    /// The sink: its kind, delayed ACKs for `sack`, every `segs_per_ack` segments or after
    /// `ack_delay`, whether the SYN's ACK may be delayed, quick ACKs at the start, Linux's
    /// adaptive delay and SACK compression, RFC 7323's TS.Recent echo.
    pub sink: SinkKind,
    pub delayed_ack: bool,
    pub segs_per_ack: u32,
    pub ack_delay: SimDuration,
    pub delack_syn: bool,
    /// A repeat of the last in-order segment waits like a new one (ns-2's DelAckSink).
    pub delack_repeat: bool,
    /// An in-order segment filling part of a hole waits like a new one (ns-2's
    /// `RFC2581_immediate_ack_` false).
    pub delack_gap_fill: bool,
    /// `TcpConfig::delack_dup_at_once`.
    pub delack_dup_at_once: bool,
    pub quick_acks: u32,
    /// Bytes an ACK grows by per SACK block it carries (ns-2's Sacker::append_ack: 8).
    pub sack_block_bytes: u32,
    /// Bytes a SYN and its SYN-ACK carry above `header_size` and `ack_size`
    /// (`syn_option_bytes`).
    pub syn_option_bytes: u32,
    /// The sender sends the handshake's empty third segment (`handshake_ack`).
    pub handshake_ack: bool,
    pub adaptive_ack_delay: bool,
    pub sack_compression: bool,
    pub ts_echo_rfc7323: bool,
}

/// A sender's Quick-Start (`TcpConfig::quick_start`, `tcp/sender/quick_start.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuickStartParams {
    /// ns-2's `rate_request_`, KB/s.
    pub rate_kbytes: u32,
    /// ns-2's `qs_rtt_`, ms; 0: `qs_request_mode_ 0`.
    pub rtt_ms: u32,
    /// ns-2's `qs_thresh_`.
    pub thresh: u32,
    /// ns-2's `tcp_qs_recovery_`.
    pub recovery: bool,
}
