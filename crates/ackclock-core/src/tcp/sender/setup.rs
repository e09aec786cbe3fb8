//! What a sender is made from: its loss-recovery variant (`Recovery`), ns-2.35's rules for a
//! loss among the first segments (`FirstLoss`) and for ECN on one-way agents (`Ns2Ecn`), the
//! initial window by segment size (RFC 3390's table as ns-2.35's `windowInitOption_ 2`), and
//! `TcpSender::new`, which sets the state up from `TcpParams` once per flow. Split from
//! `sender.rs` (issue 27: no engine file over 1000 lines); `sender.rs` keeps the state, what
//! leaves it and what an ACK does.

use super::*;
use crate::rng::{RandomStream, Uniform};

/// The loss-recovery variant; `rfc793` is RFC 793's TCP as ns-2.35's `RFC793eduTcpAgent`
/// (`sender/rfc793.rs`): Tahoe's rules less what the `rfc793_*` additions leave off; `fack`
/// ns-2.35's Forward Acknowledgement TCP (`FackTcpAgent`, `sender/fack.rs`); `sack_rh` ns-2.35's
/// TCP SACK with Rate-Halving (`SackRHTcpAgent`, `sender/sack_rh.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Recovery {
    Tahoe,
    Reno,
    NewReno,
    Sack,
    Rfc793,
    Fack,
    #[serde(rename = "sack_rh")]
    SackRh,
}

impl Recovery {
    /// The name scenarios use (`variant`).
    pub fn name(self) -> &'static str {
        match self {
            Recovery::Tahoe => "tahoe",
            Recovery::Reno => "reno",
            Recovery::NewReno => "newreno",
            Recovery::Sack => "sack",
            Recovery::Rfc793 => "rfc793",
            Recovery::Fack => "fack",
            Recovery::SackRh => "sack_rh",
        }
    }

    /// Tahoe's recovery: go back N from one segment, no fast recovery (`tahoe`, and
    /// `rfc793`, built on ns-2's Tahoe agent).
    #[inline]
    pub fn is_tahoe(self) -> bool {
        matches!(self, Recovery::Tahoe | Recovery::Rfc793)
    }
}

/// How a loss among a connection's first segments is handled (`ns2_first_loss`), as
/// ns-2.35 handles it (tcp/tcp.cc `TcpAgent::reset`, `TcpAgent::timeout`, and the
/// `dupack_action` of `TcpAgent`, `RenoTcpAgent`, `NewRenoTcpAgent` and `Sack1TcpAgent`):
/// with `bugfix_ss` or `plain`, the careful check of fast retransmit (`bug_fix`) starts
/// from ns-2's `recover_ = 0`, so no fast retransmit until segment 1 is acknowledged;
/// `bugfix_ss` (ns-2's `bugfix_ss_` 1, its default, from Mark Allman's bug report) allows
/// one for segment 1, the first data segment after a SYN, and a timeout before any ACK makes
/// an initial window above one segment one segment (RFC 3390 section 2: after a lost SYN
/// the initial window is one segment). `off`: neither rule, fast retransmit whenever no
/// recovery is pending. With either ns-2 value a traced cwnd shows `TcpAgent::recv`'s step
/// on the SYN's ACK (`take_cwnd_step`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum FirstLoss {
    #[default]
    Off,
    BugfixSs,
    Plain,
}

/// ns-2.35's own ECN rules for one-way agents (`ns2_ecn`; tcp/tcp.cc `TcpAgent::ecn`,
/// `TcpAgent::recv_newack_helper`, `TcpAgent::timeout` and the `dupack_action` of
/// `TcpAgent`, `RenoTcpAgent`, `NewRenoTcpAgent` and `Sack1TcpAgent`), where `off` is RFC
/// 3168 section 6.1.2 as the engine reads it:
///
/// - An ECN-Echo reduces the window when its ACK is beyond `recover_`, which loss recovery
///   and timeouts set too (one variable for both), or when the last window action was a
///   timeout; the reduction sets `recover_` to the highest segment sent.
/// - A new ACK carrying ECN-Echo opens no window (RFC 3168: "SHOULD NOT increase"), except
///   the first one the agent ever sees (`ect_` is set after the window decision) and, with
///   `old_ecn` (ns-2's `old_ecn_ 1`), one that follows another (`ecn_burst_`).
/// - A third duplicate ACK after an ECN reduction, before recovery could start again,
///   retransmits without a second reduction: Tahoe with the window closed to one segment
///   (go-back-N), the others entering fast recovery with the window the ECN left.
/// - A timeout while the last action was an ECN reduction not yet recovered closes the
///   window to one segment without halving ssthresh again.
/// - A window of one segment is halved to half a segment (`TcpAgent::slowdown` has no floor
///   of one): nothing is sent until the timer fires (`TcpAgent::timeout` raises cwnd to one).
/// - `ecn_backoff_`: from the second reduction of a window of one segment in a row on, the
///   timer is backed off (`TcpAgent::ecn`), and no RTT sample ends that backoff while ACKs
///   still carry ECN-Echo (`TcpAgent::newack`); a new ACK without one clears it
///   (`TcpAgent::recv_newack_helper`).
/// - Reno and NewReno halve cwnd + their fast-recovery inflation (`RenoTcpAgent::windowd`).
/// - The sink stops echoing on any segment with the congestion-action mark, which every
///   window reduction sets, not only on CWR (`TcpSink::ack`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Ns2Ecn {
    #[default]
    Off,
    Ns2,
    OldEcn,
}

/// The initial window ns-2.35 takes from the segment size with `windowInitOption_ 2`
/// (tcp/tcp.cc `TcpAgent::initial_window`): RFC 3390 section 1's table in whole segments,
/// 4 up to 1095 payload bytes, 3 below 2190 (the table's 4380 bytes), else 2.
pub fn window_init_for_size(packet_size: u32) -> u32 {
    if packet_size <= 1095 {
        4
    } else if packet_size < 2190 {
        3
    } else {
        2
    }
}

impl TcpSender {
    pub fn new(
        flow: FlowId,
        src: NodeId,
        dst: NodeId,
        cfg: &TcpParams,
        recovery: Recovery,
        mut cc: AnyCc,
    ) -> TcpSender {
        if let AnyCc::External(e) = &mut cc {
            e.set_flow(flow.0);
        }
        let ns2_vegas = match &cc {
            AnyCc::Vegas(v) => v.ns2_model().map(|(alpha, beta, gamma, delay_growth)| {
                Box::new(ns2_vegas::Ns2Vegas::new(
                    alpha,
                    beta,
                    gamma,
                    delay_growth,
                    cfg.window,
                ))
            }),
            _ => None,
        };
        let ns2_linux = match &cc {
            AnyCc::Reno(r) => r.ns2_linux().map(|(module, abc, burst)| {
                Box::new(ns2_linux::Ns2Linux::new(module, abc, burst, cfg))
            }),
            _ => None,
        };
        let mut s = TcpSender {
            // RFC793eduTcpAgent::recv never calls send_one.
            limited_transmit: cfg.limited_transmit && recovery != Recovery::Rfc793,
            rfc793: if recovery == Recovery::Rfc793 {
                cfg.rfc793
            } else {
                Rfc793::default()
            },
            careful: cfg.bug_fix || cfg.ecn,
            full_tcp: cfg.ns2_full_tcp,
            last_cut_dupack: false,
            recovery_burst: None,
            last_data_sent: None,
            event_trace: false,
            events: Vec::new(),
            max_burst: cfg.max_burst,
            timestamps: cfg.timestamps,
            bytes: cfg.window_unit == WindowUnit::Bytes,
            integer_cwnd: cfg.integer_cwnd,
            ts_echo: SimTime::ZERO,
            acks_received: 0,
            ack_owd: None,
            per_ack: cfg.growth_per_ack,
            syn_pending: cfg.syn,
            syn_window: None,
            delay_growth: cfg.delay_growth,
            bare_first: cfg.bare_first_segment && !cfg.syn,
            whole_reduce: !cfg.precision_reduce,
            partial_deflation: cfg.partial_deflation,
            slow_but_steady: cfg.slow_but_steady,
            exit_recovery_fix: cfg.exit_recovery_fix,
            less_careful: cfg.less_careful,
            recovery_exit_growth: cfg.recovery_exit_growth,
            careful_after_fast_retransmit: cfg.careful_after_fast_retransmit,
            ssthresh_flight: cfg.ssthresh_flight,
            bugfix: bugfix::Bugfix::new(cfg.bugfix_ack, cfg.bugfix_ts),
            dupacks_always_inflate: cfg.dupacks_always_inflate,
            no_fast_retransmit: cfg.no_fast_retransmit && recovery == Recovery::Tahoe,
            old_ack_sends: cfg.old_ack_sends,
            header_size: cfg.header_size,
            syn_option_bytes: cfg.syn_option_bytes,
            handshake_ack: cfg.handshake_ack && cfg.syn,
            window_init: cfg.window_init as f64,
            window_init_by_size: cfg.window_init_by_size,
            window_init_fixed: cfg.window_init_fixed as f64,
            first_loss: cfg.first_loss,
            cwnd_step: None,
            recovery,
            first_partial: false,
            prr: (cfg.prr && recovery == Recovery::Sack).then_some(Prr::default()),
            linux_timeouts: cfg.rto_rule == RtoRule::Linux,
            cwnd_use: cfg.cwnd_validation.then_some(CwndUse::default()),
            scoreboard: (recovery == Recovery::Sack).then(|| {
                let sb = Scoreboard::new(cfg.window);
                Box::new(if cfg.rfc6675_recovery {
                    sb.lost_after(cfg.dupack_threshold)
                        .sacked_retransmissions_in_pipe()
                } else {
                    sb
                })
            }),
            full_sack: (cfg.ns2_full_tcp
                && recovery == Recovery::Sack
                && !cfg.rfc6675_recovery
                && !cfg.prr)
                .then(Box::default),
            rfc6675: cfg.rfc6675_recovery,
            rfc_loss: false,
            sack_info: false,
            cwr: false,
            ns3_ece: false,
            ecn_echo_seq: 0,
            pipe: 0,
            flow,
            src,
            dst,
            payload: cfg.packet_size,
            wire_size: cfg.packet_size + cfg.header_size,
            dupack_threshold: cfg.dupack_threshold,
            dupack_cwnd_fraction: cfg.dupack_cwnd_fraction,
            w: Window {
                cwnd: if cfg.syn && cfg.delay_growth {
                    1.0
                } else {
                    cfg.window_init as f64
                },
                ssthresh: cfg.initial_ssthresh.map_or(f64::INFINITY, |s| s as f64),
                // With flow control, the window the receiver's empty buffer offers (what the
                // handshake would tell the sender).
                rwnd: cfg.rcv_buffer_bytes.map_or(cfg.window as f64, |b| {
                    ((b / cfg.packet_size as u64) as f64).min(cfg.window as f64)
                }),
                max_ssthresh: cfg.max_ssthresh as f64,
                pacing_rate: 0.0,
                app_limited: false,
                ns3_mss: if cfg.ns3_newreno_bytes {
                    cfg.packet_size as f64
                } else {
                    0.0
                },
                flight: None,
            },
            dupwnd: 0.0,
            awnd: cfg.window_init_fixed as f64 / 2.0,
            una: 0,
            nxt: 0,
            maxseq: 0,
            // ns-2's recover_ = 0 (TcpAgent::reset): segment 0 is the highest "sent".
            recover: (cfg.first_loss != FirstLoss::Off).then_some(1),
            dupacks: 0,
            in_recovery: false,
            rtt: {
                let rtt = RttEstimator::new(
                    cfg.initial_rto,
                    cfg.min_rto,
                    cfg.max_rto,
                    cfg.timer_granularity,
                )
                .with_rule(cfg.rto_rule);
                let rtt = if recovery == Recovery::Rfc793 {
                    rtt.with_rfc793(!cfg.rfc793.jacobson_rto, cfg.rfc793.backoff)
                } else {
                    rtt
                };
                if cfg.ns2_rtt_timer {
                    let (srtt_bits, rttvar_bits, rttvar_exp) = cfg.ns2_rtt_bits;
                    rtt.with_ns2_timer(cfg.initial_rto, cfg.ns2_boot_time)
                        .with_ns2_bits(srtt_bits, rttvar_bits, rttvar_exp)
                } else {
                    rtt
                }
            },
            timed: None,
            rto_deadline: None,
            app_limit: 0,
            stream_bytes: None,
            syn: cfg.syn,
            adus: Vec::new(),
            data_end: 0,
            stream: None,
            completed_at: None,
            clock: SimTime::ZERO,
            advertised: cfg.rcv_buffer_bytes.is_some(),
            window_below_segment: cfg
                .rcv_buffer_bytes
                .is_some_and(|b| b < cfg.packet_size as u64),
            max_window: cfg.window as f64,
            built_window: cfg.window as f64,
            ecn: cfg.ecn || cfg.ecn_per_segment,
            ecn_recover: None,
            cwr_pending: false,
            ns2_ecn: cfg.ns2_ecn,
            // RFC793eduTcpAgent::newack calls newtimer() before rtt_update(), whatever
            // timerfix_ says.
            rtx_timer_before_sample: cfg.rtx_timer_before_sample || recovery == Recovery::Rfc793,
            sack_exit_clears_recover: cfg.sack_exit_clears_recover,
            sack_rto_wait: false,
            qoption: super::qoption::Qoption::new(cfg.ns2_qoption),
            frto: super::frto::Frto::new(cfg.ns2_frto),
            sack_partial_ack: cfg.sack_partial_ack,
            ts_reset_rto: cfg.ts_reset_rto && cfg.timestamps,
            syn_max_sends: cfg.syn_max_sends,
            syn_sends: 0,
            syns_sent: 0,
            sack_partial_seen: false,
            sack_next_pkt: 0,
            idle_rtx_timer: cfg.idle_rtx_timer,
            idle_timeout_keeps_window: cfg.idle_timeout_keeps_window,
            control_increase: cfg.control_increase,
            max_cwnd: cfg.max_cwnd,
            ns2_first_decrease: cfg.ns2_first_decrease,
            first_decrease: true,
            ect_seen: false,
            ecn_burst: false,
            ecn_backoff: false,
            ecn_hold_backoff: false,
            full_ack_rto: None,
            last_action: LastAction::None,
            cong_action_pending: false,
            header_predicted: false,
            full_past_established: false,
            ns2_fast_ack: false,
            skip_growth: false,
            ns3_limited: cfg.ns3_cwnd_limited.then_some(false),
            ns3_slow_start_free: cfg.ns3_cwnd_limited && !cfg.ns3_cwnd_limited_slow_start,
            srtt_samples: cfg.ns3_srtt_samples,
            min_srtt: u64::MAX,
            ns3_ts_ms: cfg.ns3_ts_ms,
            snd_buffer_bytes: cfg.snd_buffer_bytes,
            rate: cc.has_cong_control().then(|| {
                let r = DeliveryRate::new(cfg.window.max(cfg.window_init));
                Box::new(if cfg.ns3_rate_sample {
                    r.ns3_rate_sample()
                } else {
                    r
                })
            }),
            hooks: cc.hooks(),
            cc,
            pacing_rate: 0.0,
            next_send: SimTime::ZERO,
            pace_deadline: None,
            linux_pacing: cfg.pacing,
            psh: cfg.psh.then_some((0, SimTime::ZERO)),
            piece: 0,
            linux: (cfg.rack && recovery == Recovery::Sack)
                .then(|| Box::new(linux::Linux::new(cfg.window.max(cfg.window_init)))),
            ns2_vegas,
            ns2_linux,
            fack: (recovery == Recovery::Fack).then(fack::Fack::new),
            quick_start: cfg
                .quick_start
                .map(|p| Box::new(super::quick_start::QuickStart::new(p))),
            sack_rh: (recovery == Recovery::SackRh)
                .then(|| sack_rh::SackRh::new(cfg.dupack_threshold)),
            rbp: rbp::Rbp::new(cfg.ns2_rbp, cfg.ns2_rbp_scale),
            overhead: (cfg.send_overhead > SimDuration::ZERO).then(|| {
                Box::new(overhead::Overhead::new(
                    cfg.send_overhead.as_secs_f64(),
                    Uniform::Own(RandomStream::named(0, "tcp.overhead")),
                ))
            }),
            plain: false,
        };
        s.refresh_plain();
        if s.ns2_linux.is_some() {
            // LinuxTcpAgent after select_ca: cwnd_ windowInit_, ssthresh_ window_.
            s.nl_save();
        }
        if let Some(v) = s.ns2_vegas.as_deref() {
            // VegasTcpAgent::output sends no SYN: segment 0 is data.
            s.syn_pending = false;
            s.w.cwnd = v.first_window(s.window_init);
        }
        s
    }
}
