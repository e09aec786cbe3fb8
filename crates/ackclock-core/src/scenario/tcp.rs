//! A flow's TCP configuration: as the document gives it ([`TcpDocument`]), as the engine takes
//! it ([`TcpConfig`]: the congestion control typed, `tcp::cc::CcConfig`, read from `cc` and
//! `cc_params` when the document is), and resolved into what the engine runs: its congestion
//! control (`CcConfig::build`) and TCP's own parameters (`tcp::TcpParams`), with what depends
//! on the algorithm decided here, once per flow as the simulator is built. TCP code reads
//! only `TcpParams`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Recovery, SinkKind};
use crate::tcp::cc::CcConfig;
use crate::time::SimDuration;

/// Declares a flow's TCP configuration twice from one field list: [`TcpDocument`], the
/// document's form (the congestion control as `cc`, a name, and `cc_params`, a table), which
/// serde reads and writes, and [`TcpConfig`], what the engine takes, with the congestion
/// control typed ([`CcConfig`]: an unknown name or parameter fails when the document is
/// read, naming the flow and key). A new TCP key is one field in the list.
///
/// Each field also says how a scenario file writes it (`as KIND`, and `(KEY)` where the
/// file's key is not the field's name): the list is the one owner of TCP's keys, their order
/// and their kinds. It reaches the front end as the JSON Schema's `x-ackclock-keys` on
/// `TcpDocument` (`[key, field, kind]` in order), from which python/ackclock/profiles.py
/// makes `TCP_PARAMS` and the scenario file's schema its TCP properties (the names a `name`
/// field takes are its enum's, in the same schema). KIND is the front end's unit
/// conversion: `size` (bytes, "1KB"), `count` (a whole number >= 1), `count_or_zero`,
/// `count_or_unbounded` (or "unbounded" / "window"), `time` (to ps), `bool` (or 0/1),
/// `name` (an enum's), `size_or_none`, `rate_or_none` (to bit/s).
macro_rules! tcp_config {
    (@key $f:ident) => { stringify!($f) };
    (@key $f:ident $k:ident) => { stringify!($k) };
    ($($(#[$m:meta])* pub $f:ident : $t:ty as $kind:ident $(($key:ident))?,)*) => {
        /// TCP's keys as a scenario file writes them, in order: `[key, field, kind]` (see
        /// `tcp_config!`); `cc` and `cc_params` are the document's own.
        pub const TCP_KEYS: &[[&str; 3]] = &[
            $([tcp_config!(@key $f $($key)?), stringify!($f), stringify!($kind)],)*
        ];

        /// A flow's TCP configuration as the document gives it (see [`TcpConfig`]).
        #[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        #[schemars(extend("x-ackclock-keys" = TCP_KEYS))]
        pub struct TcpDocument {
            /// The congestion control: a name of the registry (`tcp::cc::REGISTRY`, or one
            /// of an algorithm's ns-3 classes), or `module:Class` for one written in Python.
            pub cc: String,
            /// Parameters of the congestion-control algorithm (`tcp::cc`), by the names of
            /// its definition; missing ones take its defaults.
            #[serde(default)]
            pub cc_params: BTreeMap<String, f64>,
            $($(#[$m])* pub $f: $t,)*
        }

        /// A flow's TCP configuration as the engine takes it: the document's
        /// ([`TcpDocument`]) with `cc` and `cc_params` read into one [`CcConfig`].
        #[derive(Clone, Debug, Serialize, Deserialize)]
        #[serde(try_from = "TcpDocument", into = "TcpDocument")]
        pub struct TcpConfig {
            pub cc: CcConfig,
            $($(#[$m])* pub $f: $t,)*
        }

        impl schemars::JsonSchema for TcpConfig {
            /// The document's form: [`TcpDocument`]'s.
            fn schema_name() -> std::borrow::Cow<'static, str> {
                TcpDocument::schema_name()
            }

            fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
                TcpDocument::json_schema(g)
            }
        }

        impl TryFrom<TcpDocument> for TcpConfig {
            type Error = String;

            fn try_from(d: TcpDocument) -> Result<TcpConfig, String> {
                Ok(TcpConfig {
                    cc: CcConfig::parse(&d.cc, &d.cc_params)?,
                    $($f: d.$f,)*
                })
            }
        }

        impl From<TcpConfig> for TcpDocument {
            fn from(t: TcpConfig) -> TcpDocument {
                TcpDocument {
                    cc: t.cc.name().to_string(),
                    cc_params: t.cc.given(),
                    $($f: t.$f,)*
                }
            }
        }
    };
}

tcp_config! {
    pub variant: Recovery as name,
    pub sink: SinkKind as name,
    /// Payload bytes per segment.
    pub packet_size: u32 as size,
    pub header_size: u32 as size,
    pub ack_size: u32 as size,
    /// Receiver's advertised window, in segments.
    pub window: u32 as count,
    pub window_init: u32 as count,
    /// The initial window follows the segment size (`tcp::sender::window_init_for_size`:
    /// RFC 3390's table, ns-2.35's `windowInitOption_ 2`) instead of `window_init`, which it
    /// falls back to after a timeout before any ACK (ns-2's `TcpAgent::timeout`).
    #[serde(default)]
    pub window_init_by_size: bool as bool,
    /// How a loss among the first segments is handled (`tcp::sender::FirstLoss`): `off`,
    /// `bugfix_ss` (ns-2.35 with `bugfix_ss_`, its default) or `plain` (without).
    #[serde(default)]
    pub ns2_first_loss: crate::tcp::sender::FirstLoss as name,
    /// ECN-Echo handled by RFC 3168 (`off`) or by ns-2.35's one-way agents (`ns2`, or
    /// `old_ecn` for ns-2's `old_ecn_ 1`; `tcp::sender::Ns2Ecn`).
    #[serde(default)]
    pub ns2_ecn: crate::tcp::sender::Ns2Ecn as name,
    /// A new ACK restarts the retransmission timer with the timeout from before its RTT
    /// sample and backoff reset (ns-2.35's `timerfix_ false`, `TcpAgent::newack`).
    #[serde(default)]
    pub rtx_timer_before_sample: bool as bool,
    /// SACK recovery's end forgets its recovery point (ns-2.35's `Sack1TcpAgent::recv`
    /// sets `recover_` to 0): duplicate ACKs may start a fast retransmit at once, and an
    /// ECN-Echo reduce the window at once.
    #[serde(default)]
    pub sack_exit_clears_recover: bool as bool,
    /// The retransmission timer keeps running once all is acknowledged, and its expiry on an
    /// idle connection closes cwnd to one segment, ssthresh kept, without backing the timer
    /// off (ns-2.35's one-way agents: `TcpAgent::newtimer`, `TcpAgent::timeout` with
    /// `restart_bugfix_`).
    #[serde(default)]
    pub idle_rtx_timer: bool as bool,
    /// With `idle_rtx_timer`, the timer's expiry on an idle connection leaves cwnd (at least
    /// one segment) and ssthresh as they are (ns-2.35's `slow_start_restart_ false`,
    /// `TcpAgent::timeout`); under `ns2_full_tcp`, no restart from the initial window after
    /// an idle period (`FullTcpAgent::foutput` reads `slow_start_restart_`).
    #[serde(default)]
    pub idle_timeout_keeps_window: bool as bool,
    /// ns-2.35's `QOption_` (`tcp::sender::Ns2Qoption`): after each data segment sent, a
    /// sender idle or application-limited for an RTO lowers its window
    /// (`TcpAgent::process_qoption_after_send`); `rtt_count` counts round trips instead
    /// (`EnblRTTCtr_`); `off` (the default) neither.
    #[serde(default)]
    pub ns2_qoption: crate::tcp::sender::Ns2Qoption as name,
    /// ns-2.35's RBP agents (`tcp::sender::Ns2Rbp`, tcp/tcp-rbp.cc): a connection whose
    /// retransmission timer expired with nothing outstanding paces its next window over one
    /// round trip, until the first ACK: `cwnd` paces `ns2_rbp_scale` times cwnd
    /// (`Agent/TCP/Reno/RBP`; Vegas's `rbp_rate_algorithm_ 2`), `vegas_rate` that times
    /// ns-2.35 Vegas's measured rate times its RTT (`Agent/TCP/Vegas/RBP`'s default); `off`
    /// (the default) neither.
    #[serde(default)]
    pub ns2_rbp: crate::tcp::sender::Ns2Rbp as name,
    /// With `ns2_rbp`: the paced window's share of the window it is computed from (ns-2's
    /// `rbp_scale_`, 0.75 by default).
    #[serde(default = "default_rbp_scale")]
    pub ns2_rbp_scale: f64 as number,
    /// ns-2.35's F-RTO (`tcp::sender::Ns2Frto`, Sarolahti's detection of spurious
    /// retransmission timeouts, RFC 5682, as `TcpAgent::timeout`, `recv_newack_helper`,
    /// `recv_frto_helper` and `spurious_timeout` run it): after a timeout the first new ACK
    /// sends two new segments instead of going back, and a second new ACK declares the
    /// timeout spurious and restores the window; `sfrto` also reads the SACK blocks of a
    /// duplicate ACK (`Sack1TcpAgent::recv`, `sfrto_enabled_`); `off` (the default) neither.
    #[serde(default)]
    pub ns2_frto: crate::tcp::sender::Ns2Frto as name,
    /// ns-2.35's SACK recovery answers each partial ACK with two segments, the holes first
    /// (`Sack1TcpAgent::partial_ack_action`, `partial_ack_`), and restarts the timer only on
    /// the first partial ACK of a series; false: one segment leaves the pipe estimate and
    /// every partial ACK restarts the timer.
    #[serde(default)]
    pub sack_partial_ack: bool as bool,
    /// cwnd grows only on ACKs that come while the sender is window-limited (ns-2.35's
    /// `control_increase_`, `TcpAgent::network_limited`).
    #[serde(default)]
    pub control_increase: bool as bool,
    /// cwnd never grows past this many segments: the growth on a new ACK stops at it
    /// (ns-2.35's `maxcwnd_`, `TcpAgent::opencwnd`; 0 = no limit).
    #[serde(default)]
    pub max_cwnd: u32 as count_or_zero,
    /// ns-2.35's `TcpAgent::slowdown` with a `decrease` other than one half (Reno's AIMD b,
    /// ns-2's decrease_num_): the connection's first window reduction, one in slow start and
    /// the ssthresh of one after a timeout take half the window instead.
    #[serde(default)]
    pub ns2_first_decrease: bool as bool,
    /// The `rfc793` variant's additions to RFC 793's TCP (ns-2.35's `RFC793eduTcpAgent`,
    /// tcp/tcp-rfc793edu.cc, `add793fastrtx_` and the rest; `tcp::sender::rfc793`), each only
    /// with that variant: the third duplicate ACK starts Tahoe's fast retransmit
    /// (`rfc793_fast_retransmit`); new ACKs open cwnd by slow start and congestion avoidance,
    /// instead of to the whole `window` at once (`rfc793_slow_start`); the RTO is Jacobson's
    /// SRTT + 4 RTTVAR instead of RFC 793 section 3.7's 2 x SRTT (`rfc793_jacobson_rto`); a
    /// retransmitted segment is never timed (Karn's rule, `rfc793_karn`); the timer backs
    /// off exponentially on each expiry (`rfc793_backoff`).
    #[serde(default)]
    pub rfc793_fast_retransmit: bool as bool,
    #[serde(default)]
    pub rfc793_slow_start: bool as bool,
    #[serde(default)]
    pub rfc793_jacobson_rto: bool as bool,
    #[serde(default = "default_true")]
    pub rfc793_karn: bool as bool,
    #[serde(default = "default_true")]
    pub rfc793_backoff: bool as bool,
    #[serde(default)]
    pub initial_ssthresh: Option<u32> as count_or_unbounded,
    pub dupack_threshold: u32 as count,
    pub min_rto_ps: u64 as time(min_rto),
    pub max_rto_ps: u64 as time(max_rto),
    pub initial_rto_ps: u64 as time(initial_rto),
    pub timer_granularity_ps: u64 as time(timer_granularity),
    /// Delayed-ACK sink: ACK every `segs_per_ack` in-order segments or after `ack_delay_ps`.
    #[serde(default = "default_segs_per_ack")]
    pub segs_per_ack: u32 as count,
    #[serde(default = "default_ack_delay")]
    pub ack_delay_ps: u64 as time(ack_delay),
    /// RFC 3042 limited transmit: a new segment on each of the first two duplicate ACKs.
    #[serde(default)]
    pub limited_transmit: bool as bool,
    /// ns-2 `bugFix_` (Floyd's "bugfix", RFC 6582's careful variant): a third duplicate ACK
    /// starts fast retransmit only for data sent after the last one (`recover`); false: every
    /// third duplicate ACK does, several times in one window (ns-2.35 tcp/tcp.cc
    /// `TcpAgent::dupack_action`, and the Reno, NewReno and Sack1 versions: `recovered ||
    /// (!bug_fix_ && !ecn_)`; with `ecn` on, the check holds whatever this says).
    #[serde(default = "default_true")]
    pub bug_fix: bool as bool,
    /// The sender follows ns-2.35's FullTcpAgent (tcp/tcp-full.cc) where it departs from the
    /// one-way TcpAgent: with Reno or NewReno recovery a third duplicate ACK starts fast
    /// retransmit, recovered or not, when the last window cut was a fast retransmit's
    /// (`FullTcpAgent::dupack_action`: `last_cwnd_action_ == CWND_ACTION_DUPACK`); leaving
    /// Reno's recovery sets cwnd to ssthresh (`pack_action` with `reno_fastrecov_`); the
    /// congestion-action mark waits for new data, a retransmission does not carry it unless
    /// ECN-capable (`foutput`); a pure ACK of new data while cwnd is at least `window` opens
    /// no window (`recv`'s header prediction); no ACK with ECN-Echo opens it; the receiver
    /// stops echoing ECN at the congestion-action mark; with `ecn` the SYN carries ECE and
    /// CWR, the SYN-ACK ECE, neither ECT; with `ns2_ecn`, a third duplicate ACK after an ECN
    /// cut takes FullTcp's own branch (`dupack_action`'s `ecn_` case: Tahoe closes cwnd to one
    /// and sends at the next duplicate, Reno and NewReno halve cwnd again, ssthresh kept, and
    /// retransmit). Set by the ns-2 front end on FullTcp agents.
    #[serde(default)]
    pub ns2_full_tcp: bool as bool,
    /// Without a SYN, segment 0 goes out without headers (`packet_size` bytes on the wire):
    /// ns-2.35 tcp/tcp.cc `TcpAgent::output` adds `headersize()` to every segment but
    /// seqno 0, which it treats apart as the SYN whether `syn_` is on or not.
    #[serde(default)]
    pub bare_first_segment: bool as bool,
    /// A window reduction keeps the fractional half (ns-2 `precisionReduce_`, true since
    /// 2006); false: cwnd becomes a whole number of segments, ns-2.35 tcp/tcp.cc
    /// `TcpAgent::slowdown` without precision_reduce_ (`(int)(window() / 2)`).
    #[serde(default = "default_true")]
    pub precision_reduce: bool as bool,
    /// NewReno: a partial ACK deflates the window by the data it acknowledged and adds one
    /// segment back (RFC 6582 3.2 step 5); false: fast recovery's extra window is dropped at
    /// once, ns-2.35's `partial_window_deflation_ 0` (`NewRenoTcpAgent::recv`).
    #[serde(default = "default_true")]
    pub partial_deflation: bool as bool,
    /// NewReno: restart the retransmission timer on every partial ACK, RFC 6582 section 4's
    /// Slow-but-Steady variant (ns-2.35's `newreno_changes1_ 0`); false: on the first only,
    /// the Impatient variant (`newreno_changes1_ 1`, `partialnewack_helper`).
    #[serde(default)]
    pub slow_but_steady: bool as bool,
    /// NewReno: the full ACK that ends fast recovery sets cwnd to min(ssthresh, FlightSize +
    /// one segment), RFC 6582 3.2 step 3's first option (ns-2.35's `exit_recovery_fix_ 1`,
    /// `NewRenoTcpAgent::recv`); false: cwnd stays ssthresh, the second option.
    #[serde(default)]
    pub exit_recovery_fix: bool as bool,
    /// Reno and NewReno: the ACK that ends fast recovery also opens cwnd like any new ACK
    /// (ns-2.35's `RenoTcpAgent::recv`, `recv_newack_helper` -> `opencwnd`); false: cwnd is
    /// set to ssthresh and this ACK opens nothing (IKRSimLib's `TCP_Sender::HandleACK`, whose
    /// `FinishFastRecovery` takes the place of the growth).
    #[serde(default = "default_true")]
    pub recovery_exit_growth: bool as bool,
    /// With `bug_fix`, the recovery point a fast retransmit sets also holds back the next
    /// fast retransmit (RFC 6582 3.2 step 2; ns-2's `recover_`); false (Reno recovery only):
    /// only a timeout's does
    /// (IKRSimLib's `IgnoreDupACKOnTORecovery`: `fRecoveryTO` is set by `HandleRtxTimeout`
    /// alone, so a second fast retransmit may follow the first within one window).
    #[serde(default = "default_true")]
    pub careful_after_fast_retransmit: bool as bool,
    /// A loss reduces min(cwnd, FlightSize), the segments sent and not yet acknowledged
    /// (RFC 5681 eq. 4 names FlightSize; IKRSimLib's `TCP_Sender::ReduceSSThresh` with
    /// `CarefulSSThreshReduction`, for fast retransmits and timeouts); false: cwnd, as ns-2's
    /// `TcpAgent::slowdown` (the two agree whenever the sender is window-limited).
    #[serde(default)]
    pub ssthresh_flight: bool as bool,
    /// NewReno with `bug_fix`: three duplicate ACKs of exactly the last recovery point also
    /// start a fast retransmit, RFC 2582 section 6's Less Careful variant (ns-2.35's
    /// `lessCareful_`, `NewRenoTcpAgent::dupack_action`).
    #[serde(default)]
    pub less_careful: bool as bool,
    /// NewReno with `bug_fix`, after a timeout: three duplicates of data sent before the
    /// last recovery point still start a fast retransmit when the last new ACK (not a
    /// partial one) advanced the cumulative ACK by at most `dupack_threshold` segments and
    /// cwnd is above one segment, the ACK heuristic of RFC 6582 section 4.2 (ns-2.35's
    /// `bugFix_ack_`, `NewRenoTcpAgent::dupack_action`).
    #[serde(default)]
    pub bugfix_ack: bool as bool,
    /// NewReno with `bug_fix` and `timestamps`: the same when the last new ACK echoed the
    /// timestamp of the latest transmission of the segment just below the cumulative ACK,
    /// the timestamp heuristic of RFC 6582 section 4.2 (ns-2.35's `bugFix_ts_`,
    /// `NewRenoTcpAgent::dupack_action`).
    #[serde(default)]
    pub bugfix_ts: bool as bool,
    /// Reno, NewReno (one-way agents): duplicate ACKs inflate the window from the threshold
    /// on even when no fast retransmit began (the `bug_fix` check held it back), the
    /// threshold's by the threshold and each later one by one segment, and the next new ACK
    /// takes the inflation back: ns-2.35's `exitFastRetrans_ false` (`RenoTcpAgent::recv`,
    /// `NewRenoTcpAgent::recv`); false: only in fast recovery.
    #[serde(default)]
    pub dupacks_always_inflate: bool as bool,
    /// Tahoe (ns-2's one-way Agent/TCP): the `dupack_threshold`-th duplicate ACK starts no
    /// fast retransmit, so only the retransmission timeout recovers a loss: ns-2.35's
    /// `noFastRetrans_` (`TcpAgent::recv`: `++dupacks_ == numdupacks_ && !noFastRetrans_`).
    /// The other variants have their own receive path and ignore it.
    #[serde(default)]
    pub no_fast_retransmit: bool as bool,
    /// ns-2's one-way agents (Tahoe, Reno, NewReno, Sack1 outside recovery): an ACK below the
    /// highest one acknowledged (reordered) still lets the sender send, as a valid ACK does,
    /// at most `max_burst` segments: ns-2.35's `aggressive_maxburst_` (`TcpAgent::recv`'s
    /// `valid_ack || aggressive_maxburst_`; Reno while `dupacks_` is 0 or at the threshold,
    /// NewReno and Sack1 while it is 0). False: such an ACK does nothing.
    #[serde(default)]
    pub old_ack_sends: bool as bool,
    /// ns-2's one-way agents (Tahoe, Reno, NewReno, Sack1): each burst of new sending waits
    /// a random delay, uniform on [0, `send_overhead`), drawn when the window first allows
    /// it: ns-2.35's `overhead_` (`TcpAgent::send_much`'s delayed-send timer, against phase
    /// effects). Fast retransmissions go at once. Zero: none.
    #[serde(default)]
    pub send_overhead_ps: u64 as time(send_overhead),
    /// Quick-Start (RFC 4782; ns-2's one-way agents, `tcp/sender/quick_start.rs`): the rate
    /// the sender asks the routers for in its first segment, KB/s (1024 bytes per second;
    /// ns-2.35's `rate_request_` with `qs_enabled_`); the receiver echoes the answer and an
    /// approved rate sets the initial window, the segments paced over one RTT. 0: none.
    #[serde(default)]
    pub quick_start: u32 as count_or_zero,
    /// Quick-Start: the round-trip time the sender assumes to size its request by the data it
    /// has (ns-2's `qs_request_mode_ 1`, `qs_rtt_`, whole ms): at most that data per this
    /// time. Zero: the request is `quick_start` whatever the data (`qs_request_mode_ 0`).
    #[serde(default)]
    pub quick_start_rtt_ps: u64 as time(quick_start_rtt),
    /// Quick-Start with `quick_start_rtt`: no request with fewer segments than this to send
    /// (ns-2's `qs_thresh_`).
    #[serde(default)]
    pub quick_start_thresh: u32 as count_or_zero,
    /// Quick-Start: a loss among the segments sent at the approved rate starts slow start from
    /// the initial window instead of fast recovery (ns-2's `tcp_qs_recovery_`,
    /// `TcpAgent::lossQuickStart`; RFC 4782 section 4.6.2).
    #[serde(default)]
    pub quick_start_recovery: bool as bool,
    /// The retransmission timer in ns-2.35's fixed-point arithmetic (`tcp::rtt`'s module
    /// docs: `TcpAgent::rtt_update`, `rtt_timeout`, `rtt_backoff`) and its timing of one
    /// segment at a time (`rtt_active_`: a retransmission does not stop the measurement, a
    /// timeout or a fast retransmit does, a NewReno partial ACK ends it without a sample).
    #[serde(default)]
    pub ns2_rtt_timer: bool as bool,
    /// ns-2's `boot_time_` (with `ns2_rtt_timer`): where in a tick of `timer_granularity`
    /// the agent's clock started; samples count the tick boundaries crossed on that grid.
    #[serde(default)]
    pub ns2_boot_time_ps: u64 as time(ns2_boot_time),
    /// With `ns2_rtt_timer`: srtt and rttvar kept scaled by 2^`ns2_srtt_bits` and
    /// 2^`ns2_rttvar_bits`, so each sample moves them by that fraction of the error (1/8 and
    /// 1/4, RFC 6298's gains), and the timeout srtt + 2^`ns2_rttvar_exp` rttvar: ns-2.35's
    /// `T_SRTT_BITS`, `T_RTTVAR_BITS` and `rttvar_exp_` (`TcpAgent::rtt_update`).
    /// `ns2_rttvar_bits` at most `ns2_srtt_bits`.
    #[serde(default = "ns2_srtt_bits")]
    pub ns2_srtt_bits: u32 as count_or_zero,
    #[serde(default = "ns2_rttvar_bits")]
    pub ns2_rttvar_bits: u32 as count_or_zero,
    #[serde(default = "ns2_rttvar_bits")]
    pub ns2_rttvar_exp: u32 as count_or_zero,
    /// ns-2 `syn_`: segment 0 is a SYN (headers only) and cwnd stays at one segment until it
    /// is acknowledged, then starts at `window_init` (ns-2 `delay_growth_`): the one-RTT
    /// connection set-up of a real TCP.
    #[serde(default)]
    pub syn: bool as bool,
    /// With `syn`: cwnd is one segment until the SYN's ACK, which sets it to `window_init`
    /// (ns-2's `delay_growth_`, its default); false: cwnd starts at `window_init`, the SYN
    /// is only a header-only segment 0 within it, and its ACK opens the window as any new
    /// ACK does (ns-2.35 `TcpAgent::set_initial_window` and `TcpAgent::recv` with
    /// `delay_growth_ false`).
    #[serde(default = "default_true")]
    pub delay_growth: bool as bool,
    /// At most this many segments sent in reply to one ACK (ns-2 `maxburst_`; 0 = no limit).
    #[serde(default)]
    pub max_burst: u32 as count_or_zero,
    /// RFC 3742 limited slow start above this many segments (ns-2 `max_ssthresh_`; 0 = off).
    #[serde(default)]
    pub max_ssthresh: u32 as count_or_zero,
    /// SACK recovery: with N > 0 the duplicate-ACK threshold is at least floor(cwnd) / N
    /// (ns-2.35's `numdupacksFrac_`, `TcpAgent::numdupacks`, read by `Sack1TcpAgent`); 0: off.
    #[serde(default)]
    pub dupack_cwnd_fraction: u32 as count_or_zero,
    /// A `sack` sink delays its ACKs as `delack` does.
    #[serde(default)]
    pub delayed_ack: bool as bool,
    /// A delaying sink may delay the SYN's acknowledgement too (ns-2's DelAck); false: it
    /// acknowledges the SYN at once (Linux, ns-3).
    #[serde(default = "default_true")]
    pub delack_syn: bool as bool,
    /// A delaying sink delays the ACK of a repeat of its last in-order segment (nothing held
    /// above it) as it would a new one (ns-2.35's `DelAckSink::recv`); false: at once.
    #[serde(default)]
    pub delack_repeat: bool as bool,
    /// A delaying sink delays the ACK of an in-order segment that fills part of a hole (more is
    /// held above it) as it would a new one (ns-2.35's `DelAckSink::recv` with
    /// `RFC2581_immediate_ack_` false); false: at once (RFC 5681 4.2).
    #[serde(default)]
    pub delack_gap_fill: bool as bool,
    /// With `delack_gap_fill`, a duplicate segment (one below the cumulative ACK it arrives
    /// at) is still acknowledged at once: IKRSimLib's `TCP_Receiver::ReceiveDataPacket`
    /// counts a segment ending at or below the next expected byte as out of order and sends
    /// `SendACK(true)`; false: it waits like the rest (ns-2.35's `DelAckSink::recv`).
    #[serde(default)]
    pub delack_dup_at_once: bool as bool,
    /// A delaying sink acknowledges this many first data segments at once (Linux's quick
    /// ACKs at the start of a connection).
    #[serde(default)]
    pub quick_acks: u32 as count_or_zero,
    /// A `sack` sink's ACK grows by this many bytes per SACK block it carries (ns-2.35's
    /// `Sacker::append_ack`: 2 four-byte words per block; 0: the ACK keeps `ack_size`).
    #[serde(default)]
    pub sack_block_bytes: u32 as count_or_zero,
    /// Bytes a SYN and the ACK of it (the SYN-ACK) carry above `header_size` and `ack_size`:
    /// the options only SYNs have (ns-3.44's `TcpSocketBase::SendEmptyPacket` adds window
    /// scale, 3 bytes, and SACK-permitted, 2, beside the 10-byte timestamp every segment
    /// carries, padded to a 36-byte TCP header, `TcpHeader::CalculateHeaderLength`, where a
    /// segment's is 32); 0: a SYN is `header_size` bytes, its ACK `ack_size`.
    #[serde(default)]
    pub syn_option_bytes: u32 as count_or_zero,
    /// With `syn`, the sender answers the SYN-ACK with an empty ACK of `header_size` bytes
    /// before its first data, the handshake's third segment (ns-3.44's
    /// `TcpSocketBase::ProcessSynSent` sends `SendEmptyPacket(ACK)`, then `SendPendingData`);
    /// the receiver takes it and answers nothing. false: the first data segment follows the
    /// SYN-ACK alone (ns-2's one-way agents).
    #[serde(default)]
    pub handshake_ack: bool as bool,
    /// A delaying sink times its delayed ACKs as Linux's receiver does (`tcp::sink`'s
    /// `LinuxAcks`): the timeout follows the segments' inter-arrival time and doubles when it
    /// expires, bounded by the handshake's RTT and 200 ms; a long gap or a duplicate segment
    /// re-enters quick-ACK mode.
    #[serde(default)]
    pub adaptive_ack_delay: bool as bool,
    /// A `sack` sink holding out-of-order data sends the first three duplicate ACKs for each
    /// cumulative ACK at once and compresses later ones into one per min(1 ms, RTT/20), as
    /// Linux's `__tcp_ack_snd_check` does.
    #[serde(default)]
    pub sack_compression: bool as bool,
    /// RFC 7323 timestamps: RTT measured on every new ACK from the echoed timestamp, instead
    /// of one timed segment per round trip (ns-2 `timestamps_`).
    #[serde(default)]
    pub timestamps: bool as bool,
    /// With `timestamps` under ns-2's timer: every new ACK's timestamp sample ends the
    /// timer's backoff, not only the timed segment's ACK (ns-2.35's `ts_resetRTO_`,
    /// `TcpAgent::newack`, Andrei Gurtov's rule); while an ECN-Echo burst holds the window
    /// at one segment it does not.
    #[serde(default)]
    pub ts_reset_rto: bool as bool,
    /// With `syn`: the SYN goes at most this many times; the next time it would go the
    /// connection is abandoned (nothing more to send, the timer put 10000 s away), as
    /// ns-2.35's `max_connects_` (`TcpAgent::output`); 0: no limit.
    #[serde(default)]
    pub syn_max_sends: u32 as count_or_zero,
    /// The sink echoes RFC 7323's TS.Recent (the segment at the edge last acknowledged);
    /// otherwise the timestamp of the latest arrival, as ns-2's sink does by default
    /// (`ts_echo_rfc1323_ false`).
    #[serde(default)]
    pub ts_echo_rfc7323: bool as bool,
    /// `packets` (ns-2: windows in segments, growth per ACK, ssthresh in whole segments) or
    /// `bytes` (growth per byte acknowledged, ssthresh exact; windows reported in bytes).
    #[serde(default)]
    pub window_unit: crate::tcp::WindowUnit as name,
    /// A loss reduces cwnd and ssthresh in whole segments, as Linux's `snd_cwnd` counts them
    /// (`tcp_reno_ssthresh`: max(cwnd >> 1, 2); CUBIC's cwnd * beta >> 10): cwnd 5 leaves
    /// ssthresh 2, not 2.5.
    #[serde(default)]
    pub integer_cwnd: bool as bool,
    /// RFC 3168 ECN: segments are ECN-capable and the sender halves its window on ECN-Echo
    /// (ns-2 `ecn_`).
    #[serde(default)]
    pub ecn: bool as bool,
    /// Pace segments at 2x (slow start) or 1.2x cwnd / srtt, as Linux does with the fq
    /// qdisc; BBR always paces at its own rate.
    #[serde(default)]
    pub pacing: bool as bool,
    /// PSH as Linux's sender sets it and a Linux receiver honours it (`tcp::sender::psh`):
    /// the last segment of each whole TSO piece (`tcp_tso_autosize`: the segments of about
    /// 1 ms at the pacing rate, at least 2) sent at one instant carries PSH, and a sink
    /// timing its ACKs as Linux does (`adaptive_ack_delay`) acknowledges an in-order PSH
    /// segment at once instead of delaying it. A paced sender releases each piece whole, at
    /// one instant, and holds the next back by the piece's length at the pacing rate
    /// (`tcp_write_xmit`, `tcp_update_skb_after_send`); a piece cut short by cwnd, data or the
    /// receiver's window ends with what was sent.
    #[serde(default)]
    pub psh: bool as bool,
    /// CUBIC leaves slow start by HyStart (`tcp::cc::hystart`): `off`, `linux` (Linux's
    /// `tcp_cubic`) or `ns3` (ns-3's `TcpCubic`).
    #[serde(default)]
    pub hystart: crate::tcp::cc::hystart::HyStartRule as name,
    /// The `sack` variant reduces its window in recovery by proportional rate reduction
    /// (RFC 6937), as Linux and ns-3 do, instead of ns-2's pipe rule.
    #[serde(default)]
    pub prr: bool as bool,
    /// The `sack` variant's losses and pipe as RFC 6675 (section 4's IsLost and SetPipe, as
    /// ns-3.44's `TcpTxBuffer` keeps them): a hole is lost once `dupack_threshold` SACKed
    /// segments lie above it, and without `prr` the sender sends while that pipe is below
    /// cwnd (ns-3's `TcpClassicRecovery`), instead of ns-2's Sack1 (every hole below the
    /// highest SACK lost, the pipe decremented per ACK). On in the `ns3` profile.
    #[serde(default)]
    pub rfc6675_recovery: bool as bool,
    /// The `sack` variant detects losses and recovers as Linux does (`tcp::rack` and the
    /// sender's `linux` module): RACK-TLP (RFC 8985), SACK tags kept across recovery and
    /// timeouts, Linux's recovery states, paced retransmissions, delivery-rate samples from
    /// SACKs.
    #[serde(default)]
    pub rack: bool as bool,
    /// cwnd grows only while it limits the sender (RFC 7661; Linux's `tcp_is_cwnd_limited`).
    #[serde(default)]
    pub cwnd_validation: bool as bool,
    /// `rfc6298` (RTO = max(min_rto, SRTT + 4 RTTVAR)) or `linux` (SRTT + max(4 RTTVAR,
    /// min_rto)); see `tcp::rtt`.
    #[serde(default)]
    pub rto_rule: crate::tcp::rtt::RtoRule as name,
    /// Receiver flow control: a receive buffer of this many bytes, advertised as the window
    /// (see `tcp::flow_control`); None: the window is `window`.
    #[serde(default)]
    pub rcv_buffer_bytes: Option<u64> as size_or_none(rcv_buffer),
    /// The sender's buffer in bytes (ns-3's `SndBufSize`): a bulk application keeps it full,
    /// so when it stops, the data the buffer holds, up to this many bytes past the first
    /// unacknowledged one, still go out (ns-3's `BulkSendApplication::StopApplication`
    /// closes the socket, and `TcpSocketBase::Close` sends what its buffer holds before the
    /// FIN). None: the sender sends nothing new after the stop.
    #[serde(default)]
    pub snd_buffer_bytes: Option<u64> as size_or_none(snd_buffer),
    /// The rate the receiving application reads at; None: as fast as data arrives.
    #[serde(default)]
    pub app_read_rate_bps: Option<f64> as rate_or_none(read_rate),
    /// ns-3.44's `TcpNewReno::SlowStart` and `TcpNewReno::CongestionAvoidance` (src/internet/
    /// model/tcp-congestion-ops.cc): with an ns-3 class derived from `TcpNewReno`, slow start
    /// adds one segment per ACK and congestion avoidance 1/cwnd per ACK, however many
    /// segments the ACK acknowledges (byte-counted windows otherwise count segments); with
    /// byte-counted windows that 1/cwnd is max(1, MSS^2 / cwnd) whole bytes, as ns-3's
    /// `uint32_t` cwnd takes it. On in the `ns3` profile.
    #[serde(default)]
    pub ns3_newreno_growth: bool as bool,
    /// Congestion-control parameters not given take ns-3.44's attribute defaults where they
    /// differ from the definition's (their `profile_defaults` for `"ns3"`). On in the `ns3`
    /// profile.
    #[serde(default)]
    pub ns3_cc_defaults: bool as bool,
    /// ns-3.44's `m_isCwndLimited` (src/internet/model/tcp-socket-base.cc, SendDataPacket):
    /// with a class that honours it (`TcpCubic`, `TcpLinuxReno`), cwnd grows only while the
    /// last data segment sent left less than one segment of it unused. On in the `ns3`
    /// profile.
    #[serde(default)]
    pub ns3_cwnd_limited: bool as bool,
    /// ns-3.44's `TcpSocketBase::ProcessAck` passes the smoothed RTT (`m_tcb->m_srtt`), not
    /// the ACK's own sample, to `PktsAcked` (src/internet/model/tcp-socket-base.cc): every
    /// congestion control's per-ACK RTT and delay signal is then the smoothed RTT (Vegas's
    /// BaseRTT, CUBIC's HyStart delay, Westwood's and Hybla's minimum RTT, ...). On in the
    /// `ns3` profile.
    #[serde(default)]
    pub ns3_srtt_samples: bool as bool,
    /// RTT samples as ns-3.44 takes them: with timestamps, whose values are whole
    /// milliseconds (`TcpOptionTS::NowToTsValue`), the difference of the two clock readings
    /// (`ElapsedTimeFromTsValue`; zero becomes 1 us), without them the exact time; never
    /// rounded to `timer_granularity` (src/internet/model/tcp-option-ts.cc,
    /// tcp-socket-base.cc `CalculateRttSample`). On in the `ns3` profile.
    #[serde(default)]
    pub ns3_ts_ms: bool as bool,
    /// Delivery-rate samples as ns-3.44's `TcpRateLinux` takes them (src/internet/model/
    /// tcp-rate-ops.cc): one sample kept across ACKs, whose prior a delivered segment replaces
    /// only if it was sent with more delivered than that prior, the ACK phase measured then
    /// (`tcp::delivery_rate`). On in the `ns3` profile.
    #[serde(default)]
    pub ns3_rate_sample: bool as bool,
    /// Congestion control grows once per ACK, however many segments the ACK covers: slow
    /// start one segment, congestion avoidance 1/cwnd (IKRSimLib's `TCP_Sender::HandleACK`;
    /// packet-counted windows always grow so). On in the `ikr` profile.
    #[serde(default)]
    pub growth_per_ack: bool as bool,
}

fn default_true() -> bool {
    true
}

/// ns-2.35's `rbp_scale_` (tcl/lib/ns-default.tcl, `Agent/TCP/Reno/RBP` and `/Vegas/RBP`).
fn default_rbp_scale() -> f64 {
    0.75
}

fn default_segs_per_ack() -> u32 {
    2
}

fn default_ack_delay() -> u64 {
    100_000_000_000 // 100 ms, ns-2 DelAckSink interval_
}

impl TcpConfig {
    /// The initial window in segments: `window_init`, or with `window_init_by_size` the one
    /// the segment size gives (`tcp::sender::window_init_for_size`).
    pub fn initial_window(&self) -> u32 {
        if self.window_init_by_size {
            crate::tcp::sender::window_init_for_size(self.packet_size)
        } else {
            self.window_init
        }
    }

    /// The congestion control `cc` chose, its parameters not given at their defaults for
    /// this flow's profile; an error (only from one written in Python) names what is wrong.
    pub fn congestion_control(&self) -> Result<crate::tcp::cc::AnyCc, String> {
        let setup = crate::tcp::cc::CcSetup {
            initial_window: self.initial_window() as f64,
            hystart: self.hystart.rules(),
            linux: self.rack && self.variant == Recovery::Sack,
            mss: self.packet_size as f64,
            ns3_defaults: self.ns3_cc_defaults,
        };
        self.cc.build(&setup)
    }

    /// The congestion control needs the receiver to echo every segment's CE mark (DCTCP,
    /// RFC 8257 3.2), and so turns ECN on whatever `ecn` says.
    pub fn ecn_per_segment(&self) -> bool {
        self.cc.ecn_per_segment()
    }

    /// cwnd grows only while ns-3's `m_isCwndLimited` holds (`ns3_cwnd_limited` with a class
    /// whose `IncreaseWindow` checks it).
    pub fn ns3_cwnd_limited(&self) -> bool {
        self.ns3_cwnd_limited && self.cc.ns3_cwnd_gated()
    }

    /// With [`Self::ns3_cwnd_limited`], whether slow start is held back too (`TcpCubic`; not
    /// `TcpLinuxReno`, whose `SlowStart` does not check `m_isCwndLimited`).
    pub fn ns3_cwnd_limited_slow_start(&self) -> bool {
        self.ns3_cwnd_limited() && self.cc.ns3_gates_slow_start()
    }

    /// Growth counts ACKs, not segments (`growth_per_ack`, or `ns3_newreno_growth` with a
    /// class derived from ns-3's `TcpNewReno`).
    pub fn growth_per_ack(&self) -> bool {
        self.growth_per_ack || (self.ns3_newreno_growth && self.cc.ns3_per_ack())
    }

    /// The parameters TCP's sender and sink take, with what depends on `cc`'s registry entry
    /// resolved: built once, when the flow is.
    pub fn params(&self) -> crate::tcp::params::TcpParams {
        crate::tcp::params::TcpParams {
            packet_size: self.packet_size,
            header_size: self.header_size,
            ack_size: self.ack_size,
            window: self.window,
            window_init: self.initial_window(),
            window_init_by_size: self.window_init_by_size,
            window_init_fixed: self.window_init,
            first_loss: self.ns2_first_loss,
            ns2_ecn: self.ns2_ecn,
            rtx_timer_before_sample: self.rtx_timer_before_sample,
            sack_exit_clears_recover: self.sack_exit_clears_recover,
            idle_rtx_timer: self.idle_rtx_timer,
            idle_timeout_keeps_window: self.idle_timeout_keeps_window,
            ns2_qoption: self.ns2_qoption,
            ns2_rbp: self.ns2_rbp,
            ns2_rbp_scale: self.ns2_rbp_scale,
            ns2_frto: self.ns2_frto,
            sack_partial_ack: self.sack_partial_ack,
            control_increase: self.control_increase,
            max_cwnd: self.max_cwnd,
            ns2_first_decrease: self.ns2_first_decrease,
            rfc793: crate::tcp::sender::Rfc793 {
                fast_retransmit: self.rfc793_fast_retransmit,
                slow_start: self.rfc793_slow_start,
                jacobson_rto: self.rfc793_jacobson_rto,
                karn: self.rfc793_karn,
                backoff: self.rfc793_backoff,
            },
            initial_ssthresh: self.initial_ssthresh,
            max_ssthresh: self.max_ssthresh,
            dupack_threshold: self.dupack_threshold,
            dupack_cwnd_fraction: self.dupack_cwnd_fraction,
            min_rto: SimDuration(self.min_rto_ps),
            max_rto: SimDuration(self.max_rto_ps),
            initial_rto: SimDuration(self.initial_rto_ps),
            timer_granularity: SimDuration(self.timer_granularity_ps),
            rto_rule: self.rto_rule,
            ns2_rtt_timer: self.ns2_rtt_timer,
            ns2_boot_time: SimDuration(self.ns2_boot_time_ps),
            ns2_rtt_bits: (
                self.ns2_srtt_bits,
                self.ns2_rttvar_bits,
                self.ns2_rttvar_exp,
            ),
            limited_transmit: self.limited_transmit,
            syn: self.syn,
            delay_growth: self.delay_growth,
            max_burst: self.max_burst,
            bug_fix: self.bug_fix,
            ns2_full_tcp: self.ns2_full_tcp,
            bare_first_segment: self.bare_first_segment,
            precision_reduce: self.precision_reduce,
            partial_deflation: self.partial_deflation,
            slow_but_steady: self.slow_but_steady,
            exit_recovery_fix: self.exit_recovery_fix,
            recovery_exit_growth: self.recovery_exit_growth,
            careful_after_fast_retransmit: self.careful_after_fast_retransmit,
            ssthresh_flight: self.ssthresh_flight,
            less_careful: self.less_careful,
            bugfix_ack: self.bugfix_ack,
            bugfix_ts: self.bugfix_ts,
            dupacks_always_inflate: self.dupacks_always_inflate,
            no_fast_retransmit: self.no_fast_retransmit,
            old_ack_sends: self.old_ack_sends,
            send_overhead: SimDuration(self.send_overhead_ps),
            quick_start: (self.quick_start > 0).then(|| crate::tcp::params::QuickStartParams {
                rate_kbytes: self.quick_start,
                rtt_ms: ((self.quick_start_rtt_ps + 500_000_000) / 1_000_000_000) as u32,
                thresh: self.quick_start_thresh,
                recovery: self.quick_start_recovery,
            }),
            timestamps: self.timestamps,
            ts_reset_rto: self.ts_reset_rto,
            syn_max_sends: self.syn_max_sends,
            window_unit: self.window_unit,
            integer_cwnd: self.integer_cwnd,
            ecn: self.ecn,
            ecn_per_segment: self.ecn_per_segment(),
            ns3_dctcp_ack: self.ecn_per_segment() && self.ns3_cc_defaults,
            growth_per_ack: self.growth_per_ack(),
            ns3_newreno_bytes: self.ns3_newreno_growth
                && self.cc.ns3_per_ack()
                && self.window_unit == crate::tcp::WindowUnit::Bytes,
            ns3_cwnd_limited: self.ns3_cwnd_limited(),
            ns3_cwnd_limited_slow_start: self.ns3_cwnd_limited_slow_start(),
            ns3_srtt_samples: self.ns3_srtt_samples,
            ns3_ts_ms: self.ns3_ts_ms,
            ns3_rate_sample: self.ns3_rate_sample,
            rcv_buffer_bytes: self.rcv_buffer_bytes,
            snd_buffer_bytes: self.snd_buffer_bytes,
            app_read_rate_bps: self.app_read_rate_bps,
            pacing: self.pacing,
            psh: self.psh,
            cwnd_validation: self.cwnd_validation,
            prr: self.prr,
            rfc6675_recovery: self.rfc6675_recovery,
            rack: self.rack,
            sink: self.sink,
            delayed_ack: self.delayed_ack,
            segs_per_ack: self.segs_per_ack,
            ack_delay: SimDuration(self.ack_delay_ps),
            delack_syn: self.delack_syn,
            delack_repeat: self.delack_repeat,
            delack_gap_fill: self.delack_gap_fill,
            delack_dup_at_once: self.delack_dup_at_once,
            quick_acks: self.quick_acks,
            sack_block_bytes: self.sack_block_bytes,
            syn_option_bytes: self.syn_option_bytes,
            handshake_ack: self.handshake_ack,
            adaptive_ack_delay: self.adaptive_ack_delay,
            sack_compression: self.sack_compression,
            ts_echo_rfc7323: self.ts_echo_rfc7323,
        }
    }
}

/// ns-2.35's `T_SRTT_BITS` (tcp.h), the `ns2_srtt_bits` default.
fn ns2_srtt_bits() -> u32 {
    3
}

/// ns-2.35's `T_RTTVAR_BITS` and `rttvar_exp_`, the `ns2_rttvar_bits` and `ns2_rttvar_exp`
/// default.
fn ns2_rttvar_bits() -> u32 {
    2
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;
    use crate::tcp::cc::CcConfig;

    /// `cc` and `cc_params` are read into one typed value, written back as given (an ns-3
    /// class name stays one, parameters not given stay absent); a wrong name or parameter
    /// fails when the document is read, naming the flow and the key.
    #[test]
    fn the_congestion_control_is_read_typed_and_written_back_as_given() {
        let sc = crate::fixtures::dumbbell(2, 1e8, 1, 1e7, 10, 50, crate::fixtures::ns2_tcp(), 1);
        let mut doc = serde_json::to_value(&sc).unwrap();
        doc["flows"][1]["tcp"]["cc"] = "TcpCubic".into();
        doc["flows"][1]["tcp"]["cc_params"] = serde_json::json!({"beta": 0.8});
        let read = Scenario::from_json(&doc.to_string()).unwrap();
        let cc = &read.flows[1].tcp.as_ref().unwrap().cc;
        assert!(matches!(cc, CcConfig::Cubic(c) if c.alias == 1));
        assert_eq!(serde_json::to_value(&read).unwrap(), doc);
        doc["flows"][1]["tcp"]["cc_params"] = serde_json::json!({"gamma": 1.0});
        let err = Scenario::from_json(&doc.to_string()).unwrap_err();
        assert!(
            err.starts_with(
                "resolved scenario: flow[1].cc_params.gamma: not a parameter of cubic; expected \
                 beta, c,"
            ),
            "{err}"
        );
        assert!(!err.contains('\n'));
        doc["flows"][1]["tcp"]["cc"] = "tahoe".into();
        let err = Scenario::from_json(&doc.to_string()).unwrap_err();
        assert!(
            err.starts_with(
                "resolved scenario: flow[1].cc: unsupported congestion control \"tahoe\"; \
                 expected one of reno,"
            ),
            "{err}"
        );
        // Other reading errors name the flow too.
        doc["flows"][1]["tcp"]["cc"] = "reno".into();
        doc["flows"][1]["tcp"]["cc_params"] = serde_json::json!({});
        doc["flows"][1]["tcp"]["windw"] = 3.into();
        let err = Scenario::from_json(&doc.to_string()).unwrap_err();
        assert!(
            err.starts_with("resolved scenario: flow[1]: unknown field `windw`"),
            "{err}"
        );
    }

    /// Flows that name a table of `tcp_tables` (`tcp_table`) read as if each carried it as
    /// `tcp`; a wrong index, both forms at once, or a mistake in a table are named.
    #[test]
    fn flows_naming_a_shared_tcp_table_read_as_if_they_carried_it() {
        let sc = crate::fixtures::dumbbell(3, 1e8, 1, 1e7, 10, 50, crate::fixtures::ns2_tcp(), 1);
        let mut inline = serde_json::to_value(&sc).unwrap();
        inline["flows"][1]["tcp"]["window"] = 7.into();
        let mut shared = inline.clone();
        shared["tcp_tables"] = serde_json::json!([
            inline["flows"][0]["tcp"].clone(),
            inline["flows"][1]["tcp"].clone()
        ]);
        for (i, k) in [(0, 0), (1, 1), (2, 0)] {
            let f = shared["flows"][i].as_object_mut().unwrap();
            f.remove("tcp");
            f.insert("tcp_table".into(), k.into());
        }
        let read = Scenario::from_json(&shared.to_string()).unwrap();
        assert!(read.tcp_tables.is_empty());
        assert_eq!(read.flows[1].tcp.as_ref().unwrap().window, 7);
        assert_eq!(
            read.flows[2].tcp.as_ref().unwrap().window,
            sc.flows[2].tcp.as_ref().unwrap().window
        );
        assert_eq!(serde_json::to_value(&read).unwrap(), inline);
        let wrong = |edit: &dyn Fn(&mut serde_json::Value)| {
            let mut doc = shared.clone();
            edit(&mut doc);
            Scenario::from_json(&doc.to_string()).unwrap_err()
        };
        assert_eq!(
            wrong(&|d| d["flows"][2]["tcp_table"] = 2.into()),
            "flow[2].tcp_table: expected an index below 2 (the tcp_tables), got 2"
        );
        assert_eq!(
            wrong(&|d| d["flows"][1]["tcp"] = inline["flows"][1]["tcp"].clone()),
            "flow[1].tcp_table: a flow gives its tcp parameters or a tcp_table, not both"
        );
        let err = wrong(&|d| d["tcp_tables"][1]["windw"] = 3.into());
        assert!(
            err.starts_with("resolved scenario: tcp_table[1]: unknown field `windw`"),
            "{err}"
        );
        let err = wrong(&|d| {
            d["flows"][0].as_object_mut().unwrap().remove("tcp_table");
        });
        assert_eq!(err, "flow[0].tcp: missing");
    }

    /// A flow's own `ns2_boot_time_ps` replaces its table's, whether it names a shared table
    /// or carries its own: flows alike but for their ns-2 boot times read as if each carried
    /// its table with its time; a flow without TCP parameters is told it has none.
    #[test]
    fn a_flows_own_boot_time_replaces_its_tables() {
        let sc = crate::fixtures::dumbbell(3, 1e8, 1, 1e7, 10, 50, crate::fixtures::ns2_tcp(), 1);
        let mut inline = serde_json::to_value(&sc).unwrap();
        for (i, boot) in [(0, 7_000_000_000u64), (1, 0), (2, 123)] {
            inline["flows"][i]["tcp"]["ns2_boot_time_ps"] = boot.into();
        }
        let mut shared = inline.clone();
        shared["tcp_tables"] = serde_json::json!([inline["flows"][1]["tcp"].clone()]);
        for i in 0..3 {
            let f = shared["flows"][i].as_object_mut().unwrap();
            let boot = f["tcp"]["ns2_boot_time_ps"].clone();
            f.remove("tcp");
            f.insert("tcp_table".into(), 0.into());
            if i != 1 {
                f.insert("ns2_boot_time_ps".into(), boot);
            }
        }
        // Beside its own tcp too (a document whose tables are not shared).
        let mut own = shared["flows"][2].as_object().unwrap().clone();
        own.remove("tcp_table");
        own.insert("tcp".into(), shared["tcp_tables"][0].clone());
        shared["flows"][2] = own.into();
        let read = Scenario::from_json(&shared.to_string()).unwrap();
        let boots: Vec<u64> = read
            .flows
            .iter()
            .map(|f| f.tcp.as_ref().unwrap().ns2_boot_time_ps)
            .collect();
        assert_eq!(boots, [7_000_000_000, 0, 123]);
        assert_eq!(serde_json::to_value(&read).unwrap(), inline);
        let mut udp = serde_json::to_value(&sc).unwrap();
        let f = udp["flows"][0].as_object_mut().unwrap();
        f.remove("tcp");
        f.insert("ns2_boot_time_ps".into(), 5.into());
        assert_eq!(
            Scenario::from_json(&udp.to_string()).unwrap_err(),
            "flow[0].ns2_boot_time_ps: a TCP flow's, beside its tcp or tcp_table"
        );
    }

    /// ns-3's whole-byte growth (`TcpNewReno::CongestionAvoidance`) belongs to the classes
    /// derived from `TcpNewReno` under `ns3_newreno_growth` with byte-counted windows; the
    /// per-ACK growth of `growth_per_ack` (IKRSimLib) stays exact.
    #[test]
    fn whole_byte_growth_is_ns3s_newreno_family_only() {
        use crate::tcp::WindowUnit;
        let mut t = crate::fixtures::ns2_tcp();
        t.window_unit = WindowUnit::Bytes;
        t.ns3_newreno_growth = true;
        for (cc, whole) in [
            ("TcpNewReno", true),
            ("TcpVeno", true),
            ("TcpLinuxReno", false),
        ] {
            t.cc = cc.parse().unwrap();
            assert_eq!(t.params().ns3_newreno_bytes, whole, "{cc}");
            assert!(t.params().growth_per_ack == whole, "{cc}");
        }
        t.cc = "TcpNewReno".parse().unwrap();
        t.window_unit = WindowUnit::Packets;
        assert!(!t.params().ns3_newreno_bytes);
        t.window_unit = WindowUnit::Bytes;
        t.ns3_newreno_growth = false;
        t.growth_per_ack = true;
        assert!(t.params().growth_per_ack && !t.params().ns3_newreno_bytes);
    }
}
