//! The one-way TCP sender: sequence space, windows, retransmission timer and Reno loss
//! recovery.
//!
//! - Fast retransmit / fast recovery: RFC 5681 section 3.2. On the `dupack_threshold`-th
//!   duplicate ACK: ssthresh from congestion control, retransmit the first unacknowledged
//!   segment, and let the window be the reduced window + 3 segments, inflated by one per
//!   further duplicate; the next new ACK removes the inflation and ends recovery. As in
//!   ns-2's Reno (`dupwnd_`), the inflation is kept apart from cwnd, so traced cwnd shows
//!   the clean saw tooth.
//! - Variants (`variant`): `reno` as above; `tahoe` (ns-2 `Agent/TCP`): on the third
//!   duplicate ACK, ssthresh from congestion control, cwnd = 1 and go back N, no fast
//!   recovery; `newreno` (RFC 6582): fast recovery lasts until the ACK covers `recover`; a
//!   partial ACK retransmits the next hole, deflates the window by the amount acknowledged
//!   and adds one segment back (section 3.2 step 5), and only the first partial ACK
//!   restarts the retransmission timer (the "Impatient" variant of section 4.1).
//! - Limited transmit (RFC 3042, ns-2 `singledup_`): on each of the first two duplicate ACKs
//!   one new segment goes out if the receiver window allows and no more than cwnd plus the
//!   duplicates counted so far would be outstanding, so small windows still produce the
//!   three duplicates fast retransmit needs.
//! - `sack` (RFC 2018 SACK with the loss recovery of ns-2's `Sack1`, a precursor of RFC
//!   6675): duplicates count only when their SACK blocks report something new; on the
//!   third, the window halves, `pipe` (the estimate of segments in flight) starts at the
//!   outstanding segments less three, and the first hole is resent. During recovery every
//!   ACK takes one from `pipe` (a partial ACK two), and while `pipe` < cwnd the sender
//!   resends the lowest hole below the highest SACKed segment not yet resent (RFC 6675
//!   NextSeg rule 1) or else sends new data (rule 2), adding one to `pipe` each time. The
//!   ACK covering `recover` ends recovery; every partial ACK restarts the timer.
//! - `sack` with `prr` (RFC 6937, proportional rate reduction with the slow-start reduction
//!   bound, as Linux and ns-3 recover): the same entry and NextSeg rules, but each ACK in
//!   recovery may send ceil(prr_delivered x ssthresh / RecoverFS) - prr_out segments while the
//!   pipe (RFC 6675 SetPipe, every hole below the highest SACK counted lost) exceeds ssthresh,
//!   and min(ssthresh - pipe, max(prr_delivered - prr_out, DeliveredData) + 1) below it;
//!   recovery ends with cwnd = ssthresh.
//! - `sack` with `rfc6675_recovery` (RFC 6675 section 4 and 5, as ns-3.44's `TcpTxBuffer` and
//!   `TcpClassicRecovery`): a hole is lost only once `dupack_threshold` SACKed segments lie
//!   above it (IsLost, `TcpTxBuffer::UpdateLostCount`), so only such holes are resent and the
//!   others count in the pipe; without `prr` the pipe is recomputed from the scoreboard on
//!   each ACK (SetPipe, `TcpTxBuffer::BytesInFlight`) and the sender sends while it is below
//!   cwnd, which stays at ssthresh; with `prr` the same pipe and NextSeg feed its steps. The
//!   fast retransmission leaves a running timer as it is (RFC 6298 5.1), and only the first
//!   partial ACK restarts it unless `slow_but_steady` (ns-3's `ProcessAck` calls
//!   `NewAck(ack, m_isFirstPartialAck)`): a recovery longer than the RTO ends in a timeout.
//!   Without `prr` the whole ACK processing is ns-3.44's (`sender/rfc6675.rs`): a scoreboard
//!   kept across recoveries and timeouts, sending by NextSeg under the pipe in every state.
//! - Only one fast retransmit per window of data: a new fast retransmit needs the cumulative
//!   ACK to have passed `recover`, the highest segment sent when the last loss was detected
//!   (RFC 6582 section 3.2 step 2's check, which ns-2 applies to Reno as `bug_fix_`). So
//!   Reno facing several drops in one window waits for the retransmission timeout.
//! - Retransmission timeout: RFC 6298 (see `rtt.rs`) with RFC 5681 (section 3.1, eq. 4)
//!   ssthresh, cwnd = 1 (the loss window) and go-back-N from the first unacknowledged
//!   segment, as ns-2's `Agent/TCP` does.
//! - RTT sampling: one segment timed per round trip, as BSD and ns-2 (without timestamps)
//!   do; Karn's rule: a retransmitted segment is never timed, and any retransmission
//!   cancels the measurement in progress. With `timestamps` (RFC 7323 section 4.1), every
//!   ACK for new data gives a sample from the timestamp it echoes.
//! - Window accounting (`window_unit`): `packets` as ns-2 (growth per ACK, ssthresh in whole
//!   segments); `bytes` (growth per segment acknowledged, RFC 3465; ssthresh the exact half
//!   window; windows reported in bytes). Segments are always full-sized, so a byte-counted
//!   window sends floor(cwnd / MSS) of them, as a sender avoiding silly windows does.
//! - The sendable window is min(floor(cwnd), rwnd) segments beyond the cumulative ACK; with
//!   `max_burst` (ns-2 `maxburst_`) at most that many segments leave in reply to one ACK.

use serde::{Deserialize, Serialize};

use crate::ids::{FlowId, NodeId};
use crate::monitor::FlowCounters;
use crate::packet::{ecn, tcp_flags, Packet, PacketKind, SackBlocks};
use crate::packet_pool::Outgoing;
use crate::tcp::cc::{AckEvent, AckFlags, AckSample, AnyCc, CaEvent, CaState, CcHooks, Window};
use crate::tcp::delivery_rate::DeliveryRate;
use crate::tcp::rtt::{RtoRule, RttEstimator};
use crate::tcp::scoreboard::Scoreboard;
use crate::tcp::{TcpParams, WindowUnit};
use crate::time::{SimDuration, SimTime};

/// ns-3.44's CA_CWR with PRR for ECN-Echo under `rfc6675_recovery` (sender/rfc6675.rs). Off
/// until 2026-11-27 (tcp-pacing's goodput was -26.6% with it, before CoDel's `ns3_model`);
/// measured then against every ns-3 example with ECN marks (docs/validation.md).
const NS3_CWR: bool = true;

mod app;
mod bugfix;
mod ca_state;
mod cwnd_use;
pub mod events;
mod fack;
mod front;
mod frto;
mod full_rules;
mod handshake;
mod linux;
mod ns2_board;
mod ns2_linux;
mod ns2_vegas;
mod overhead;
mod paced;
mod plain;
mod psh;
mod qoption;
mod quick_start;
mod rbp;
mod recovery;
mod reset;
mod rfc6675;
mod rfc793;
mod rh_board;
mod sack;
mod sack_full;
mod sack_rh;
mod samples;
mod setup;
mod stream;

pub use frto::Ns2Frto;
pub use qoption::Ns2Qoption;
pub use quick_start::QsLog;
pub use rbp::Ns2Rbp;
pub use rfc793::Rfc793;
pub use setup::{window_init_for_size, FirstLoss, Ns2Ecn, Recovery};

/// ns-2.35's `recov_maxburst_` default (tcl/lib/ns-default.tcl, `Agent/TCP/FullTcp/Newreno`):
/// the segments one ACK may release while a NewReno FullTcp agent recovers; the one-way
/// `NewRenoTcpAgent::recv` sends as many after a partial ACK (`send_much(0, 0, 2)`).
const NS2_RECOV_MAXBURST: u32 = 2;

/// ns-2's `last_cwnd_action_`: what last changed the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum LastAction {
    #[default]
    None,
    Ecn,
    Dupack,
    Timeout,
}

/// How fully the sender used its window lately (RFC 7661 section 4; Linux's
/// `tcp_cwnd_validate`): a window that was not used is not grown.
#[derive(Clone, Copy, Debug, Default)]
struct CwndUse {
    /// The sender was stopped by cwnd at some point of the current window of data.
    limited: bool,
    /// The largest flight of the current window of data.
    max_out: u64,
    /// The window of data ends when the cumulative ACK reaches this segment.
    until: u64,
}

/// RFC 6937's state for one recovery, in segments.
#[derive(Clone, Copy, Debug, Default)]
struct Prr {
    /// Data delivered to the receiver since recovery began (prr_delivered).
    delivered: u64,
    /// Segments sent since recovery began (prr_out).
    out: u64,
    /// The flight when recovery began (RecoverFS).
    recover_fs: u64,
}

#[derive(Clone, Debug)]
pub struct TcpSender {
    pub flow: FlowId,
    pub src: NodeId,
    pub dst: NodeId,
    payload: u32,
    wire_size: u32,
    dupack_threshold: u32,
    dupack_cwnd_fraction: u32,
    limited_transmit: bool,
    /// A third duplicate ACK for data sent before the last fast retransmission starts none
    /// (ns-2 `bugFix_`, the default; with ECN ns-2 keeps this check whatever `bugFix_` says).
    careful: bool,
    max_burst: u32,
    timestamps: bool,
    /// Byte-counted windows (`window_unit = "bytes"`).
    bytes: bool,
    /// Reductions and growth in whole segments (`integer_cwnd`).
    pub(super) integer_cwnd: bool,
    /// The timestamp echoed by the ACK being processed.
    ts_echo: SimTime,
    /// ACKs taken since made or reset: ns-2's `nackpack_` (`TcpAgent::recv`, tcp/tcp.cc);
    /// SYNs sent since the flow began (`ndatabytes_` counts none of their bytes).
    acks_received: u64,
    syns_sent: u64,
    /// The one-way delay the ACK being processed tells (its send time less the echoed
    /// timestamp), with timestamps.
    ack_owd: Option<SimDuration>,
    /// Growth counts ACKs, not segments (`TcpParams::growth_per_ack`).
    per_ack: bool,
    /// Segment 0 is a SYN still waiting for its ACK.
    syn_pending: bool,
    /// ns-2.35's `ecn_syn_` on a FullTcp acceptor (`tcp/full.rs`, `set_syn_window`): the
    /// window the ACK of its SYN-ACK sets instead of the initial one, and whether that ACK's
    /// ECN-Echo then cuts it (`FullTcpAgent::recv` in SYN_RECEIVED, then `ecn()`).
    syn_window: Option<(f64, bool)>,
    /// `TcpParams::delay_growth`: the SYN's ACK sets cwnd to the initial window; false: it
    /// opens it as any new ACK.
    delay_growth: bool,
    /// Segment 0, not a SYN, carries no headers (ns-2's `TcpAgent::output`).
    bare_first: bool,
    /// Window reductions to a whole number of segments (ns-2 `precisionReduce_ false`).
    whole_reduce: bool,
    /// NewReno partial ACKs deflate the window (`TcpParams::partial_deflation`).
    partial_deflation: bool,
    /// NewReno restarts the timer on every partial ACK (`TcpParams::slow_but_steady`).
    slow_but_steady: bool,
    /// `TcpParams::exit_recovery_fix` and `less_careful` (ns-2's NewReno).
    exit_recovery_fix: bool,
    less_careful: bool,
    /// `TcpParams::recovery_exit_growth`, `careful_after_fast_retransmit`, `ssthresh_flight`.
    recovery_exit_growth: bool,
    careful_after_fast_retransmit: bool,
    ssthresh_flight: bool,
    /// NewReno's `bugfix_ack` / `bugfix_ts` heuristics (`sender/bugfix.rs`); None: off.
    bugfix: Option<Box<bugfix::Bugfix>>,
    /// `TcpParams::dupacks_always_inflate` (ns-2's `exitFastRetrans_ false`).
    dupacks_always_inflate: bool,
    /// `TcpParams::no_fast_retransmit` on a Tahoe sender (ns-2's `noFastRetrans_`).
    no_fast_retransmit: bool,
    /// `TcpParams::old_ack_sends` (ns-2's `aggressive_maxburst_`).
    old_ack_sends: bool,
    header_size: u32,
    /// `TcpParams::syn_option_bytes`: what the SYN carries above `header_size`.
    syn_option_bytes: u32,
    /// `TcpParams::handshake_ack`: the SYN's ACK is answered with an empty ACK first.
    handshake_ack: bool,
    window_init: f64,
    /// `window_init_by_size` still holds: a timeout before any ACK ends it, and the
    /// initial window becomes `window_init_fixed` (`TcpAgent::timeout`).
    window_init_by_size: bool,
    window_init_fixed: f64,
    first_loss: FirstLoss,
    /// A value cwnd took within the last event, before its final one, that a trace shows
    /// (`take_cwnd_step`).
    cwnd_step: Option<f64>,
    recovery: Recovery,
    /// The `rfc793` variant's additions (all on for the other variants).
    rfc793: Rfc793,
    /// NewReno: no partial ACK seen yet in this recovery.
    first_partial: bool,
    /// SACK recovery as RFC 6675 and ns-3.44 (`rfc6675_recovery`): without PRR the pipe is
    /// the scoreboard's (SetPipe), not ns-2's count, and a running timer is restarted only by
    /// the first partial ACK.
    rfc6675: bool,
    /// `rfc6675_recovery` without PRR: after a timeout until the ACK passes its recovery
    /// point (ns-3's `CA_LOSS`), and whether the scoreboard holds anything above the
    /// cumulative ACK (then the pipe is the flight and NextSeg chooses what to send).
    rfc_loss: bool,
    sack_info: bool,
    /// `rfc6675_recovery`: ns-3's `CA_CWR` (an ECN-Echo's reduction until the ACK passes the
    /// recovery point), the ACK being handled carries ECN-Echo, and the highest ACK that
    /// carried one (`m_ecnEchoSeq`).
    cwr: bool,
    ns3_ece: bool,
    ecn_echo_seq: u64,
    /// SACK with proportional rate reduction (RFC 6937) instead of ns-2's pipe rule.
    prr: Option<Prr>,
    /// Linux's timeout rules (`rto_rule = "linux"`): a timeout in fast recovery keeps ssthresh.
    linux_timeouts: bool,
    /// `cwnd_validation`: cwnd grows only while it limits the sender.
    cwnd_use: Option<CwndUse>,
    /// SACK: the scoreboard and the estimate of segments in the network.
    scoreboard: Option<Box<Scoreboard>>,
    /// `ns2_full_tcp` with SACK recovery: ns-2.35's `SackFullTcpAgent` (`sack_full.rs`).
    full_sack: Option<Box<sack_full::FullSack>>,
    pub pipe: i64,
    pub w: Window,
    /// Fast-recovery window inflation, in segments (ns-2 `dupwnd_`).
    pub dupwnd: f64,
    /// ns-2.35's average window `awnd_` (see [`TcpSender::ns2_awnd`]).
    awnd: f64,
    cc: AnyCc,
    /// The optional per-segment and per-ACK hooks `cc` implements (the others not called).
    pub(super) hooks: CcHooks,
    /// First unacknowledged segment (the cumulative ACK).
    pub una: u64,
    /// Next segment to send (moves back to `una` after a timeout).
    pub nxt: u64,
    /// One past the highest segment ever sent.
    pub maxseq: u64,
    recover: Option<u64>,
    pub dupacks: u32,
    pub in_recovery: bool,
    pub rtt: RttEstimator,
    timed: Option<(u64, SimTime)>,
    rto_deadline: Option<SimTime>,
    /// Segments the application has made available (u64::MAX: endless bulk data).
    app_limit: u64,
    /// Bytes a rate-limited application has written (`write`); None for other sources.
    stream_bytes: Option<u64>,
    /// The flow opens with a SYN (segment 0), pending or not.
    syn: bool,
    /// Finite data the application has written, as messages (ADUs): one past each message's
    /// last segment and that segment's wire size. Each message starts a new segment. Empty:
    /// an endless bulk transfer.
    adus: Vec<(u64, u32)>,
    /// One past the last segment of the last message with payload (0: none yet); a FIN
    /// written after it (an empty message) does not count.
    data_end: u64,
    /// ns-2 FullTcp's byte stream, once the application gives a part of a segment
    /// (`stream.rs`); None otherwise.
    stream: Option<Box<stream::Ns2Stream>>,
    /// When the whole finite transfer was acknowledged (its last payload byte).
    pub completed_at: Option<SimTime>,
    /// The time of the event being handled, for congestion control's clock.
    clock: SimTime,
    /// The receiver advertises its window on every ACK (flow control), up to `max_window`.
    advertised: bool,
    /// The receive buffer is smaller than one segment: the window the receiver advertises is
    /// never zero, yet never holds a segment, so this sender (avoiding silly windows, as
    /// ns-3's `TcpSocketBase::SendPendingData` does) sends nothing and never probes.
    window_below_segment: bool,
    max_window: f64,
    /// The window (`TcpParams::window`) the flow was made with.
    built_window: f64,
    /// RFC 3168: ECN-capable; the highest segment sent at the last ECN reduction; CWR to
    /// be set on the next segment; the next ACK's window growth to be skipped.
    ecn: bool,
    ecn_recover: Option<u64>,
    cwr_pending: bool,
    /// ns-2.35's ECN rules ([`Ns2Ecn`]): its `ect_` (an ACK with ECN-Echo was seen),
    /// `ecn_burst_` (the last new ACK carried one) and `last_cwnd_action_`.
    ns2_ecn: Ns2Ecn,
    /// `TcpParams::rtx_timer_before_sample` (ns-2's `timerfix_ false`).
    rtx_timer_before_sample: bool,
    /// `TcpParams::sack_exit_clears_recover` (ns-2's Sack1).
    sack_exit_clears_recover: bool,
    /// ns-2's one-way Sack1 under its timer: a timeout came and no new ACK since
    /// (`Sack1TcpAgent`'s `timeout_`); duplicate ACKs meanwhile count for nothing.
    sack_rto_wait: bool,
    /// ns-2's `QOption_` (`sender/qoption.rs`); None: off.
    qoption: Option<Box<qoption::Qoption>>,
    /// ns-2's F-RTO (`sender/frto.rs`).
    frto: frto::Frto,
    /// ns-2's Sack1 `partial_ack_` (`Sack1TcpAgent::partial_ack_action`), its
    /// `firstpartial_` (a partial ACK of this series has restarted the timer) and
    /// `next_pkt_` (the next segment a partial ACK sends).
    sack_partial_ack: bool,
    /// ns-2's `ts_resetRTO_` with timestamps (`TcpParams::ts_reset_rto`).
    ts_reset_rto: bool,
    /// ns-2's `max_connects_` (`TcpParams::syn_max_sends`) and `syn_connects_`.
    syn_max_sends: u32,
    syn_sends: u32,
    sack_partial_seen: bool,
    sack_next_pkt: u64,
    /// `TcpParams::idle_rtx_timer` (ns-2's one-way agents).
    idle_rtx_timer: bool,
    /// `TcpParams::idle_timeout_keeps_window` (ns-2's `slow_start_restart_ false`).
    idle_timeout_keeps_window: bool,
    /// `TcpParams::control_increase` (ns-2's `control_increase_`).
    control_increase: bool,
    /// `TcpParams::max_cwnd` (ns-2's `maxcwnd_`), 0 = no limit.
    max_cwnd: u32,
    /// `TcpParams::ns2_first_decrease`; `first_decrease` is ns-2's `first_decrease_`.
    ns2_first_decrease: bool,
    first_decrease: bool,
    ect_seen: bool,
    ecn_burst: bool,
    /// ns-2's `ecn_backoff_`, and whether the ACK at hand keeps the timer's backoff
    /// ([`Ns2Ecn`]).
    ecn_backoff: bool,
    ecn_hold_backoff: bool,
    /// `ns2_full_tcp`: the timeout `FullTcpAgent::newack` restarts the timer with on the new
    /// ACK at hand, taken before its RTT sample and backoff reset.
    full_ack_rto: Option<SimDuration>,
    last_action: LastAction,
    /// A window reduction happened since the last segment went out (ns-2's `cong_action_`).
    cong_action_pending: bool,
    /// `ns2_full_tcp` (ns-2.35's FullTcpAgent rules, see `TcpConfig`), and whether the last
    /// window cut was a fast retransmit's (`last_cwnd_action_ == CWND_ACTION_DUPACK`).
    full_tcp: bool,
    last_cut_dupack: bool,
    /// NewReno under ns-2's rules: `max_burst` as it was before recovery's partial ACKs
    /// lowered it to ns-2's `recov_maxburst_`.
    recovery_burst: Option<u32>,
    /// `ns2_full_tcp`: when the last data segment left (`FullTcpAgent`'s `last_send_time_`).
    last_data_sent: Option<SimTime>,
    /// ns-2's event trace (`sender/events.rs`): whether to collect, and what was collected.
    event_trace: bool,
    events: Vec<events::AgentEvent>,
    /// `ns2_full_tcp`: the connection's part of `FullTcpAgent::predict_ok` holds for the pure
    /// ACK being handed over (`set_header_prediction`), and whether that ACK then takes
    /// `FullTcpAgent::recv`'s header-prediction path (see `on_new_ack`).
    header_predicted: bool,
    /// `ns2_full_tcp`: the connection has left ESTABLISHED (this side closed or the peer's
    /// FIN arrived): `FullTcpAgent::recv` opens cwnd only while `last_state_` is
    /// ESTABLISHED.
    full_past_established: bool,
    ns2_fast_ack: bool,
    skip_growth: bool,
    /// `ns3_cwnd_limited` with a class that honours it: whether the last data segment sent
    /// left less than one segment of cwnd unused (ns-3.44's `m_isCwndLimited`); None: off.
    ns3_limited: Option<bool>,
    /// With `ns3_limited`: slow start grows whatever it says (`TcpLinuxReno::SlowStart` does
    /// not read `m_isCwndLimited`; only its `CongestionAvoidance` does).
    ns3_slow_start_free: bool,
    /// `ns3_srtt_samples`: congestion control's per-ACK RTT is the smoothed RTT.
    srtt_samples: bool,
    /// Under `ns3_srtt_samples`, the smallest smoothed RTT yet (ns-3's `m_minRtt`, ps;
    /// u64::MAX before the first sample).
    min_srtt: u64,
    /// `ns3_ts_ms`: RTT samples as ns-3.44 takes them (`RttEstimator::sample_ns3`).
    ns3_ts_ms: bool,
    /// `snd_buffer`: the bytes the send buffer holds (see `write` and `stop`).
    snd_buffer_bytes: Option<u64>,
    /// Delivery-rate samples for BBR (draft-cheng-iccrg-delivery-rate-estimation).
    rate: Option<Box<DeliveryRate>>,
    /// Pacing: segments per second (0: none), when the next may leave, and the deadline
    /// the simulator wakes the sender at when pacing holds a segment back. `linux_pacing`:
    /// the rate follows cwnd / srtt as Linux's `tcp_update_pacing_rate` (2x in slow start,
    /// 1.2x after).
    pacing_rate: f64,
    next_send: SimTime,
    pace_deadline: Option<SimTime>,
    linux_pacing: bool,
    /// `psh`: new segments sent in the current TSO piece (`psh` module), and when the piece
    /// began; None: no PSH.
    psh: Option<(u32, SimTime)>,
    /// Linux's paced TSO piece (`psh`, the `linux` profile): segments sent at this instant
    /// since the pacing gate last opened (see `pace_after_send`).
    piece: u32,
    /// `rack`: Linux's loss recovery (`sender/linux.rs`) instead of the ns-2 rules.
    linux: Option<Box<linux::Linux>>,
    /// Vegas's `ns2_model`: ns-2.35's `VegasTcpAgent` (`sender/ns2_vegas.rs`) instead of the
    /// ns-2 rules above.
    ns2_vegas: Option<Box<ns2_vegas::Ns2Vegas>>,
    /// Reno's `ns2_linux`: ns-2.35's `LinuxTcpAgent` (`sender/ns2_linux.rs`) instead of the
    /// ns-2 rules above.
    ns2_linux: Option<Box<ns2_linux::Ns2Linux>>,
    /// The `fack` variant: ns-2.35's `FackTcpAgent` (`sender/fack.rs`) instead of the ns-2
    /// rules above.
    fack: Option<Box<fack::Fack>>,
    /// The `sack_rh` variant: ns-2.35's `SackRHTcpAgent` (`sender/sack_rh.rs`) instead of the
    /// ns-2 rules above.
    sack_rh: Option<Box<sack_rh::SackRh>>,
    /// `send_overhead`: ns-2's `overhead_`, the delayed-send timer (`sender/overhead.rs`);
    /// its deadline is `pace_deadline`.
    overhead: Option<Box<overhead::Overhead>>,
    /// Quick-Start (RFC 4782, `sender/quick_start.rs`); its delayed-send timer's deadline is
    /// `pace_deadline`.
    quick_start: Option<Box<quick_start::QuickStart>>,
    /// ns-2.35's RBP agents, pacing after idle (`sender/rbp.rs`); its pace timer's deadline
    /// is `pace_deadline`.
    rbp: Option<Box<rbp::Rbp>>,
    /// The sender has none of the send path's rarer parts (`TcpSender::plain_now`):
    /// `send_much` and the new segments it sends take the path compiled without their tests
    /// (`send_window::<true>`, `emit_with::<true>`), and so do its ACKs (`process_ack::<true>`,
    /// `new_ack_with::<true>`). Set by `refresh_plain` when the sender is built and wherever
    /// one of those parts appears during the run.
    plain: bool,
}

impl TcpSender {
    /// Segments outstanding: sent beyond the cumulative ACK and not given up on (after a
    /// timeout `nxt` falls back), or SACK's `pipe` during recovery.
    /// The segments in the network, as the sender counts them for sending (the `inflight`
    /// trace).
    pub fn flight(&self) -> u64 {
        self.in_flight()
    }

    fn in_flight(&self) -> u64 {
        if self.linux.is_some() {
            return self.linux_in_flight();
        }
        if self.sack_info || (self.in_recovery && self.scoreboard.is_some()) {
            self.pipe.max(0) as u64
        } else {
            self.nxt.saturating_sub(self.una)
        }
    }

    /// When the retransmission timer expires, if it is running.
    #[inline]
    pub fn rto_deadline(&self) -> Option<SimTime> {
        self.rto_deadline
    }

    fn window(&self) -> u64 {
        if self.frto.state == 2 {
            return self.frto_window();
        }
        (self.w.cwnd + self.dupwnd).min(self.w.rwnd).max(0.0) as u64
    }

    fn send_much(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        if self.plain {
            debug_assert!(self.plain_now(), "`plain` not refreshed after a change");
            // What follows with every test `plain_now` answers left out.
            if self.sack_info {
                if let Some(mut sb) = self.scoreboard.take() {
                    self.rfc6675_send(now, &mut sb, out, c);
                    self.scoreboard = Some(sb);
                    return;
                }
            }
            self.send_window::<true>(now, out, c);
            return;
        }
        if self.linux_pacing && self.rtt.srtt > 0 {
            self.update_pacing_rate();
        }
        if self.linux.is_some() {
            self.linux_send(now, out, c);
            return;
        }
        if self.ns2_linux.is_some() {
            self.nl_send_much(now, out, c);
            return;
        }
        if self.sack_rh.is_some() {
            self.sack_rh_send(now, self.max_burst, out, c);
            return;
        }
        if self.fack.is_some() {
            self.fack_send(now, self.max_burst, out, c);
            return;
        }
        if self.nxt == 0 {
            if let Some(v) = self.ns2_vegas.as_deref_mut() {
                v.note_send_much(now);
            }
        }
        if self.sack_info {
            if let Some(mut sb) = self.scoreboard.take() {
                self.rfc6675_send(now, &mut sb, out, c);
                self.scoreboard = Some(sb);
                return;
            }
        }
        if self.full_sack.is_some() {
            self.full_sack_send(now, false, out, c);
            return;
        }
        if self.rbp.is_some() {
            self.rbp_send_much(now, out, c);
            return;
        }
        let sent = c.packets_sent;
        self.send_window::<false>(now, out, c);
        if self.rfc6675 && self.prr.is_some() {
            // ns-3.44's SendDataPacket counts every segment sent in CA_RECOVERY and CA_CWR in
            // PRR's prr_out (`UpdateBytesSent`), those the pacing timer lets out with nothing
            // SACKed included (they come here, not through `rfc6675_send`).
            self.prr_sent(c.packets_sent - sent);
        }
    }

    /// What `send_much` does for the ns-2 senders: new segments within the window. `PLAIN`:
    /// the sender is `plain`, so the tests for the parts it lacks are compiled out.
    #[inline(always)]
    fn send_window<const PLAIN: bool>(
        &mut self,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let win = self.window();
        let mut window_end = self.una + win;
        let mut limit = window_end.min(self.app_limit);
        if !PLAIN && self.overhead.is_some() && self.delsnd_holds(now, self.nxt < limit) {
            return; // TcpAgent::send_much with overhead_: the delayed-send timer sends
        }
        if !PLAIN && self.quick_start.is_some() && self.qs_holds() {
            return; // the delayed-send timer paces a Quick-Start window
        }
        let mut burst = 0;
        self.pace_deadline = None;
        while self.nxt < limit && (self.max_burst == 0 || burst < self.max_burst) {
            if !PLAIN && self.stream.is_some() && self.nagle_holds(self.nxt) {
                break; // FullTcpAgent::foutput: a short segment waits (Nagle)
            }
            if self.pacing_rate > 0.0 && now < self.next_send {
                self.pace_deadline = Some(self.next_send);
                break;
            }
            if PLAIN && self.nxt != 0 && self.nxt >= self.maxseq {
                // New data past the first segment: none of `emit`'s tests for a SYN, a
                // retransmission or the parts a plain sender lacks applies.
                self.emit_with::<true>(self.nxt, now, out, c);
            } else {
                self.emit(self.nxt, now, out, c);
            }
            self.nxt += 1;
            burst += 1;
            if !PLAIN && self.quick_start.is_some() && self.qs_pace(now, win) {
                return;
            }
            if !PLAIN && self.qoption.is_some() {
                // TcpAgent::send_much: process_qoption_after_send, then `win = window()`
                // again for the next segment.
                self.qoption_after_send(now, self.nxt - 1);
                window_end = self.una + self.window();
                limit = window_end.min(self.app_limit);
            }
            if !PLAIN && self.full_tcp {
                // ns2_idle_restart may have closed the window under the loop.
                window_end = self.una + self.window();
                limit = window_end.min(self.app_limit);
            }
        }
        if self.cwnd_use.is_some() {
            self.note_cwnd_use(burst > 0);
        }
        if self.nxt >= self.app_limit && self.app_limit < window_end {
            // The window is open but the application has nothing more to send.
            let inflight = self.in_flight();
            if let Some(r) = self.rate.as_mut() {
                r.on_app_limited(inflight);
            }
        }
    }

    /// Sends segment `seq` (`emit_with`'s general form, for every caller).
    #[inline(never)]
    fn emit(&mut self, seq: u64, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.emit_with::<false>(seq, now, out, c);
    }

    /// Sends segment `seq`. `PLAIN`: the sender is `plain` and `seq` is new data past the
    /// first segment (`send_window::<true>`), so the tests that cannot hold then are
    /// compiled out.
    #[inline(always)]
    fn emit_with<const PLAIN: bool>(
        &mut self,
        seq: u64,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        debug_assert!(!PLAIN || (self.plain_now() && seq != 0 && seq >= self.maxseq));
        if !PLAIN
            && seq == 0
            && self.syn_pending
            && self.syn_max_sends > 0
            && self.syn_abandoned(now)
        {
            return;
        }
        let retransmit = !PLAIN && seq < self.maxseq;
        // FullTcpAgent::foutput restarts an idle connection only with slow_start_restart_
        // (`idle_timeout_keeps_window` is its `false`).
        if !PLAIN && self.full_tcp && seq > 0 && !self.idle_timeout_keeps_window {
            self.ns2_idle_restart(now, retransmit);
        }
        if self.hooks.cwnd_event && !retransmit && self.una >= self.maxseq {
            // Linux's tcp_event_data_sent: new data leaves with nothing in flight.
            self.cc.cwnd_event(&mut self.w, CaEvent::TxStart);
        }
        let size = if !PLAIN && seq == 0 && self.syn_pending {
            self.syn_size()
        } else {
            let size = if self.adus.is_empty() {
                self.wire_size
            } else {
                self.message_segment_size(seq)
            };
            if !PLAIN && seq == 0 && self.bare_first {
                size - self.header_size
            } else {
                size
            }
        };
        if !PLAIN {
            if let Some(b) = self.bugfix.as_deref_mut() {
                b.on_send(seq, now, self.una); // TcpAgent::output's `tss`
            }
        }
        c.packets_sent += 1;
        c.bytes_sent += size as u64;
        if self.ns3_limited.is_some() {
            self.note_ns3_cwnd_limited(seq);
        }
        if self.pacing_rate > 0.0 {
            self.pace_after_send(now, c.packets_sent);
        }
        if self.rate.is_some() {
            let (inflight, una) = (self.in_flight(), self.una);
            if let Some(r) = self.rate.as_mut() {
                r.on_send(seq, una, now, inflight);
            }
        }
        let mut ecn_bits = 0;
        if self.ecn {
            ecn_bits = ecn::ECT;
            if std::mem::take(&mut self.cwr_pending) {
                ecn_bits |= ecn::CWR;
            }
        }
        // ns-2.35's TcpAgent::output marks the next segment, whatever it is; FullTcpAgent's
        // foutput only new data, a FIN without data not (`datalen > 0`; with ECN any
        // segment, SetCWRonRetransmit_ being true).
        let bare = size <= self.header_size;
        // FullTcpAgent::foutput: a SYN or SYN-ACK takes its own ECN flags and leaves
        // cong_action_ set (a retransmitted SYN after its timeout's slowdown included).
        let syn = !PLAIN && self.full_tcp && seq == 0;
        if self.cong_action_pending
            && !syn
            && !(!PLAIN && self.full_tcp && (retransmit || bare) && !self.ecn)
        {
            self.cong_action_pending = false;
            ecn_bits |= ecn::CONG_ACTION;
        }
        if !PLAIN {
            if let Some(l) = self.linux.as_mut() {
                l.board.on_send(seq, now, retransmit);
            }
            if let Some(v) = self.ns2_vegas.as_deref_mut() {
                v.on_output(seq, now);
            }
        }
        let flags = if !PLAIN && self.psh.is_some() && !retransmit {
            self.psh_flag(now)
        } else {
            0
        };
        if retransmit {
            c.packets_retransmitted += 1;
            // Karn: the measurement in progress may now be ambiguous. ns-2's timer keeps it
            // (`TcpAgent::output` leaves `rtt_active_`; the timed segment is a new one, and
            // a timeout or fast retransmit ends the measurement).
            if !self.rtt.is_ns2() {
                self.timed = None;
            }
            if !self.rfc793.karn {
                // RFC793eduTcpAgent::output without add793karnrtt_: the retransmission is
                // timed (rtt_active_, rtt_seq_ = seqno, rtt_ts_ = now).
                self.timed = Some((seq, now));
            }
        } else {
            self.maxseq = seq + 1;
            if self.timed.is_none() {
                self.timed = Some((seq, now));
            }
        }
        // TcpAgent::output (and RFC793eduTcpAgent's) sets the timer again for a segment sent
        // with nothing outstanding (`force_set_rtx_timer`): a timer `newtimer` restarted
        // before the RTT sample (`rtx_timer_before_sample`) takes the new timeout then, and
        // so does the one an idle one-way agent keeps running (`idle_rtx_timer`: newtimer
        // restarts it on the last ACK, its expiry with nothing outstanding again), which
        // would otherwise fire at its old deadline soon after an application starts anew.
        let idle = (self.rtx_timer_before_sample || self.idle_rtx_timer)
            && !retransmit
            && self.una + 1 >= self.maxseq;
        if self.rto_deadline.is_none() || idle {
            self.arm_timer(now);
        }
        let mut qs = None;
        if !PLAIN && self.quick_start.is_some() {
            if self.quick_start.as_deref().is_some_and(|q| q.approved) {
                ecn_bits |= ecn::QS_WINDOW; // TcpAgent::output: hf->qs() = 1
            }
            if seq == 0 {
                qs = self.qs_request(now);
            }
        }
        let pkt = out.place();
        *pkt = Packet {
            id: 0,
            flow: self.flow,
            kind: PacketKind::TcpData,
            flags,
            src: self.src,
            dst: self.dst,
            size,
            seq,
            ack: 0,
            sent_at: now,
            ts_echo: SimTime::ZERO,
            retransmit,
            sack: SackBlocks::NONE,
            nth: c.packets_sent as u32,
            rwnd: 0,
            ecn: ecn_bits,
        };
        if qs.is_some() {
            pkt.set_quick_start(qs);
        }
    }

    fn arm_timer(&mut self, now: SimTime) {
        self.rto_deadline = Some(now + self.rtt.rto());
    }

    /// Processes an ACK: its cumulative acknowledgement (the next segment the receiver
    /// expects), its SACK blocks, its echoed timestamp and, with flow control, its window.
    /// Always inlined, as `TcpSink::on_data`.
    #[inline(always)]
    pub fn on_ack(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        self.acks_received += 1;
        if self.advertised {
            self.w.rwnd = (pkt.rwnd as f64).min(self.max_window);
        }
        if self.rate.is_some() && self.linux.is_none() {
            self.model_ack(now, pkt);
        }
        let was_in_recovery = self.in_recovery;
        if self.plain {
            debug_assert!(self.plain_now(), "`plain` not refreshed after a change");
            self.process_ack::<true>(now, pkt, out, c);
        } else {
            self.process_ack::<false>(now, pkt, out, c);
        }
        if self.in_recovery != was_in_recovery && self.linux.is_none() {
            let state = if self.in_recovery {
                CaState::Recovery
            } else {
                CaState::Open
            };
            self.set_ca_state(now, state);
        }
        if self.advertised {
            self.persist(now);
        }
    }

    /// RFC 9293 3.8.6.1: stopped by a zero window with nothing in flight, the sender keeps a
    /// timer running so that a lost window update cannot stall it for ever.
    fn persist(&mut self, now: SimTime) {
        let blocked = self.w.rwnd < 1.0
            && self.una >= self.maxseq
            && self.nxt < self.app_limit
            && !self.window_below_segment;
        if blocked && self.rto_deadline.is_none() {
            self.arm_timer(now);
        }
    }

    /// What an ACK does to the sender. `PLAIN`: the sender is `plain` (`plain_now`), so the
    /// tests for the parts it lacks (RBP, Quick-Start, FullTcp and its SACK, Linux's sender,
    /// ns-2's Vegas and TCP-Linux, SACK-RH, FACK, the RFC 6675 sender, `QOption_`,
    /// `bugFix_ack_`) are compiled out, here and in `new_ack_with`.
    #[inline(always)]
    fn process_ack<const PLAIN: bool>(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let ack = pkt.ack;
        if !PLAIN && self.rbp.is_some() {
            self.rbp_recv(ack); // RBP*TcpAgent::recv, before the agent's own
        }
        if !PLAIN && self.quick_start.is_some() {
            self.qs_on_ack(now, pkt);
        }
        self.ts_echo = pkt.ts_echo;
        self.clock = now;
        self.skip_growth = false;
        self.full_ack_rto = None;
        // An ECE on a SYN-ACK is ECN's set-up (RFC 3168 6.1.1; FullTcpAgent::recv reacts
        // only to ACKs without SYN), not a congestion signal.
        let ece = self.ecn && pkt.ecn & ecn::ECE != 0 && pkt.flags & tcp_flags::SYN == 0;
        // ns-2.35's FullTcpAgent::recv, header prediction (`predict_ok`: not a retransmitting
        // sender, `t_seqno_ == maxseq_`; no ECN-Echo; no SACK blocks) for a pure ACK of new
        // data short of `maxseq_` while `cwnd_ >= wnd_` and not in fast recovery. Only a
        // FullTcp sender predicts (`header_predicted`), and a plain sender is none.
        self.ns2_fast_ack = !PLAIN
            && std::mem::take(&mut self.header_predicted)
            && !ece
            && pkt.sack.is_empty()
            && self.nxt == self.maxseq
            && !self.in_recovery
            && ack > self.una
            && ack < self.maxseq
            && self.w.cwnd >= self.max_window;
        if self.hooks.pkts_acked {
            self.ack_owd =
                (self.timestamps && pkt.ts_echo > SimTime::ZERO && pkt.sent_at >= pkt.ts_echo)
                    .then(|| {
                        if self.ns3_ts_ms {
                            // ns-3's TSval and TSecr are whole milliseconds of each end's clock
                            // (`TcpOptionTS::NowToTsValue`).
                            const MS: u64 = crate::time::PS_PER_S / 1000;
                            SimDuration((pkt.sent_at.0 / MS - pkt.ts_echo.0 / MS) * MS)
                        } else {
                            pkt.sent_at.since(pkt.ts_echo)
                        }
                    });
        }
        if self.hooks.in_ack_event && ack >= self.una && ack <= self.maxseq {
            // Linux's tcp_in_ack_event: before the sender reacts to the ACK's ECN-Echo.
            let flags = AckFlags {
                now,
                acked: ack - self.una,
                ece,
                una: ack,
                sent: self.maxseq,
            };
            self.cc.in_ack_event(&mut self.w, &flags);
        }
        if !PLAIN && self.full_tcp && self.rtt.is_ns2() && ack > self.una && ack <= self.maxseq {
            self.full_newack_backoff(ece);
        }
        // The ECN-Echo of a marked SYN-ACK's ACK acts once the window is set (`on_new_ack`).
        let ece = ece && !(self.syn_pending && self.syn_window.is_some_and(|(_, cut)| cut));
        if ece {
            if NS3_CWR && !PLAIN && self.rfc6675 && self.scoreboard.is_some() {
                // ns-3.44's CA_CWR, in `on_rfc6675_ack`.
                self.ns3_ece = true;
            } else {
                self.on_ecn_echo(ack, c);
            }
        } else if self.ecn && self.ns2_ecn != Ns2Ecn::Off {
            self.ecn_hold_backoff = false;
            let new = ack > self.una && ack <= self.maxseq;
            if new && self.una == 0 && self.last_action == LastAction::Timeout && !self.full_tcp {
                // That ACK carries ECN-Echo, so TcpAgent::recv calls ecn() for it, which reacts
                // only after a timeout of segment 0 (`last_cwnd_action_ == CWND_ACTION_TIMEOUT`;
                // `seqno > recover_` never holds for it): the window cut marks the next
                // segment (cong_action_), and `ect_` is set as below.
                self.on_ecn_echo_ns2(ack, c);
            } else if new && self.una == 0 {
                // ns-2.35's agents send segment 0 with ECN-Echo and without ECT (the ECN
                // negotiation, TcpAgent::output) and its sink echoes it (TcpSink::ack): that
                // ACK sets `ect_` (after opening the window as usual).
                self.ect_seen = true;
            } else if new && self.ect_seen {
                // TcpAgent::recv_newack_helper: a new ACK without ECN-Echo ends a burst and
                // `ecn_backoff_`.
                self.ecn_burst = false;
                self.ecn_backoff = false;
            }
        }
        if !PLAIN {
            if self.linux.is_some() {
                self.on_linux_ack(now, pkt, out, c);
                return;
            }
            if self.ns2_vegas.is_some() {
                self.on_ns2_vegas_ack(now, ack, out, c);
                return;
            }
            if self.ns2_linux.is_some() {
                self.on_ns2_linux_ack(now, pkt, out, c);
                return;
            }
            if self.sack_rh.is_some() {
                self.on_sack_rh_ack(now, pkt, out, c);
                return;
            }
            if self.fack.is_some() {
                self.on_fack_ack(now, pkt, out, c);
                return;
            }
        }
        let new = ack > self.una && ack <= self.maxseq;
        if !PLAIN && self.qoption.is_some() {
            // TcpAgent::recv counts the duplicate (or resets the count on a new ACK) first.
            let dupacks = if new {
                0
            } else if ack == self.una && self.una < self.maxseq {
                self.dupacks + 1
            } else {
                self.dupacks
            };
            self.qoption_after_ack(ack, dupacks);
        }
        if let Some(sb) = self.scoreboard.take() {
            if !PLAIN && self.full_sack.is_some() {
                self.on_full_sack_ack(now, pkt, sb, out, c);
            } else {
                self.on_sack_ack(now, ack, &pkt.sack, sb, out, c);
            }
        } else if new {
            self.new_ack_with::<PLAIN>(now, ack, out, c);
        } else if ack == self.una && self.una < self.maxseq {
            if self.recovery == Recovery::Rfc793 {
                self.on_rfc793_dupack(now, out, c);
            } else {
                self.on_dupack(now, out, c);
            }
        } else if ack < self.una && self.old_ack_sends {
            self.on_old_ack(now, out, c);
        }
        if !PLAIN && self.full_tcp && new && ece && self.w.cwnd < 1.0 {
            // FullTcpAgent::recv after ecn() on a new ACK ("set_rtx_timer();" from T.
            // Kelly): a window cut below one segment sends nothing, so the timer is set even
            // when this ACK acknowledged everything; its expiry sends the next segment.
            self.arm_timer(now);
        }
    }

    /// Records when a finite transfer's last payload byte is acknowledged.
    #[inline]
    fn note_completion(&mut self, now: SimTime) {
        if self.data_end > 0 && self.una >= self.data_end && self.completed_at.is_none() {
            self.completed_at = Some(now);
        }
    }
}

#[cfg(test)]
mod tests;
