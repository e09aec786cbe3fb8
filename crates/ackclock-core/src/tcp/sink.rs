//! The TCP receiver: a cumulative ACK for every arriving segment (ns-2's `TCPSink`), or
//! delayed ACKs (RFC 1122 4.2.3.2, RFC 5681 4.2; ns-2's `TCPSink/DelAck`): an in-order
//! segment that fills no hole may wait until `segs_per_ack` of them have arrived or
//! `ack_delay` has passed since the first; an out-of-order or hole-filling segment is
//! acknowledged at once (RFC 5681 4.2: "an immediate ACK ... when a segment arrives that
//! fills in all or part of a gap"). The SYN (segment 0 with `syn`) waits like data, as in
//! ns-2's DelAck sink, unless `delack_syn` is false: Linux and ns-3 acknowledge it at once (RFC
//! 9293 3.5's handshake has no delayed ACK). With `quick_acks` = N the first N data segments
//! are acknowledged at once, as a Linux receiver does at the start of a connection (its
//! quick-ACK mode, `tcp_incr_quickack`: up to 16), so slow start is not slowed by delayed
//! ACKs in its first round trips. With `adaptive_ack_delay` and `sack_compression` (the
//! `linux` profile) the delay and the duplicate ACKs follow Linux's receiver
//! (`tcp::linux_acks`).
//!
//! With `sink = "sack"` every ACK also carries SACK blocks (RFC 2018 section 4; ns-2's
//! `TCPSink/Sack1`): the first block holds the segment that triggered the ACK, the others
//! repeat the most recently reported blocks, up to three.
//!
//! Out-of-order segments are remembered in a ring bitmap spanning the advertised window:
//! the sender never sends beyond una + window and una never passes the receiver's next
//! expected segment, so every useful segment fits. The bitmap grows with the highest offset
//! held and shrinks back once the holes are filled (`seqmap.rs`), so a flow's receiver costs
//! what its losses need, not what its window allows.

use crate::ids::{FlowId, NodeId};
use crate::monitor::FlowCounters;
use crate::packet::{ecn, tcp_flags, Packet, PacketKind, SackBlocks};
use crate::packet_pool::Outgoing;
use crate::tcp::flow_control::FlowControl;
use crate::tcp::linux_acks::{LinuxAcks, SACK_BLOCKS_EXPECTED, TCP_NUM_SACKS};
use crate::tcp::seqmap::SeqMap;
use crate::tcp::TcpParams;
use crate::time::{SimDuration, SimTime};

/// The out-of-order range holding segment `x`, if any.
fn block_holding(ranges: &[(u64, u64)], x: u64) -> Option<(u64, u64)> {
    let i = ranges.partition_point(|r| r.1 <= x);
    (i < ranges.len() && ranges[i].0 <= x).then(|| ranges[i])
}

// Laid out by hand (repr(C)): what every segment touches in the first three cache lines, the
// SACK sink's ranges after them; Rust's own order put the SACK blocks in the middle.
/// The receiver (`sink`): `ack-every` (an ACK per segment, ns-2's `TCPSink`), `delack`
/// (delayed ACKs, ns-2's `DelAckSink`), `sack` (SACK blocks, ns-2's `Sack1` sink; delays its
/// ACKs with `delayed_ack`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum SinkKind {
    AckEvery,
    Delack,
    Sack,
}

impl SinkKind {
    /// The name scenarios use (`sink`).
    pub fn name(self) -> &'static str {
        match self {
            SinkKind::AckEvery => "ack-every",
            SinkKind::Delack => "delack",
            SinkKind::Sack => "sack",
        }
    }
}

#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct TcpSink {
    /// Next in-order segment expected.
    pub rcv_nxt: u64,
    /// Segments received above `rcv_nxt`, at offsets up to the window (`seen.limit()`).
    seen: SeqMap,
    /// The segment that arrived last (it leads the next ACK's SACK blocks).
    last_seq: u64,
    /// RFC 7323 TS.Recent and Last.ACK.sent.
    ts_recent: SimTime,
    last_ack_sent: u64,
    /// One past the highest segment seen.
    maxseen: u64,
    /// A finite transfer's payload bytes not yet delivered (u64::MAX: endless).
    undelivered: u64,
    deadline: Option<SimTime>,
    /// Delayed ACKs: `None` acknowledges every segment.
    delack: Option<DelAck>,
    /// A finite receive buffer and its reader; None: the window is the configured one.
    fc: Option<Box<FlowControl>>,
    flow: FlowId,
    node: NodeId,
    peer: NodeId,
    payload: u32,
    ack_size: u32,
    /// In-order segments received since the last ACK; for ns-2's FullTcp
    /// (`DelAck::heartbeat`) their payload bytes, which it counts instead
    /// (`FullTcpAgent::need_send`: `rcv_nxt_ - last_ack_sent_` against `segs_per_ack_ *
    /// maxseg_`), so that a short segment (`tcp/sender/stream.rs`) counts for its bytes.
    pending: u32,
    /// Data segments still to be acknowledged at once despite delayed ACKs (`quick_acks`).
    quick_left: u16,
    /// Segment 0 is a SYN and carries no payload.
    syn: bool,
    /// Segment 0 is acknowledged at once even with delayed ACKs (`delack_syn` false): the SYN,
    /// or without one ns-2's bare first segment (`bare_first_segment`), as ns-2's
    /// `DelAckSink::recv` exempts `seqno() == 0` whatever it carries (`SYN_immediate_ack_`).
    syn_ack_at_once: bool,
    ts_echo_rfc7323: bool,
    /// RFC 3168 6.1.3: CE was seen; every ACK carries ECE until a CWR segment arrives.
    /// With `dctcp_echo`, the CE mark of the last segment received.
    ece: bool,
    /// ns-2.35's TCPSink `ecn_syn_` with an ECN-capable sender: the ACK of segment 0 (the
    /// sender's ECN-setup packet, ECE without ECT, `TcpAgent::output`) is ECT
    /// (`TcpSink::ack`); set by `set_ecn_syn`.
    ect_syn_ack: bool,
    /// RFC 8257 3.2: ECE echoes each segment's CE mark (DCTCP's receiver); a change of CE
    /// state first acknowledges at once what a delayed ACK holds, with the old state
    /// (ns-3's `TcpDctcp::CeState0to1` / `CeState1to0`).
    dctcp_echo: bool,
    /// The sink has none of DCTCP's echo, flow control and Linux's ACK timing (all fixed
    /// when it is built): its segments take `on_data_with::<true>`, compiled without their
    /// tests.
    plain: bool,
    /// SACK: the out-of-order segments as sorted, disjoint ranges [start, end).
    sack: bool,
    ranges: Vec<(u64, u64)>,
    /// The blocks the last ACK reported, most recent first.
    recent: [(u64, u64); SackBlocks::MAX],
    recent_len: u8,
    /// Bytes per SACK block added to an ACK's size (`sack_block_bytes`, at most 255).
    sack_block_bytes: u8,
    /// Bytes added once to an ACK that carries SACK blocks: the option's own kind and length
    /// under `ns2_full_tcp` (ns-2.35 tcp/tcp-full.cc `SackFullTcpAgent::build_options`:
    /// `sack_option_size_` 2), none otherwise.
    sack_option_bytes: u8,
    /// Bytes the SYN-ACK (the ACK of a SYN, segment 0) carries above `ack_size`: its SYN
    /// options (`syn_option_bytes`, at most 255).
    syn_option_bytes: u8,
    /// A repeat of the last in-order segment, nothing held above it, waits like a new one
    /// (`delack_repeat`): ns-2.35's `DelAckSink::recv` delays any segment that leaves the
    /// cumulative ACK at itself with none seen beyond (`seqno() == acker_->Seqno()`, not
    /// below `Maxseen()`), a retransmitted one included.
    /// (Read only for a repeat: out of the hot lines.)
    delack_repeat: bool,
    /// An in-order segment with more held above it (it filled part of a hole) waits like a
    /// new one (`delack_gap_fill`): ns-2.35's `DelAckSink::recv` with `RFC2581_immediate_ack_`
    /// false drops its `seqno() < Maxseen()` exception and delays whatever leaves the
    /// cumulative ACK at itself. RFC 5681 4.2 (the default) acknowledges it at once.
    delack_gap_fill: bool,
    /// The marks that end an ECN-Echo: CWR, and under ns-2.35's one-way ECN rules
    /// (`ns2_ecn`) any congestion action, as `TcpSink::ack` clears `ecn_unacked_` on a
    /// segment with `cong_action()` (set after every window reduction, a timeout's too).
    /// (Read only for a segment with either mark: out of the hot lines.)
    ece_clear: u8,
    /// ns-3.44's `TcpDctcp` receiver (`ns3_dctcp_ack`): the ACK a change of CE state sends
    /// covers up to `prior_rcv`, rcv_nxt when the previous segment arrived (`m_priorRcvNxt`,
    /// saved before `ReceivedData` handles that segment), so with delayed ACKs it repeats
    /// the last ACK sent; u64::MAX until a segment has arrived (`m_priorRcvNxtFlag`).
    /// (DCTCP only: out of the hot lines.)
    ns3_dctcp_ack: bool,
    prior_rcv: u64,
    /// Linux's ACK timing (`adaptive_ack_delay`, `sack_compression`); None: the fixed delay.
    linux: Option<Box<LinuxAcks>>,
    /// The Quick-Start request segment 0 carried, packed (`QsOption::pack`; 0: none), to
    /// echo in its ACK (RFC 4782 section 4.2; ns-2.35's `TcpSink::ack`: flag, rate and the
    /// TTL difference of a request on segment 0; `net/quick_start.rs`). (Read only for
    /// segment 0: out of the hot lines.)
    qs_echo: u32,
}

#[derive(Clone, Copy, Debug)]
pub struct DelAck {
    pub segs_per_ack: u32,
    pub delay: SimDuration,
    /// ns-2.35's FullTcpAgent (`ns2_full_tcp`): the held ACK leaves at the next tick of a
    /// timer that fires at every multiple of the delay (`interval_`) from time 0 on
    /// (`FullTcpAgent::recv` starts `delack_timer_` at `interval_ * (int(now / interval_) +
    /// 1)`, `FullTcpAgent::timeout(TCP_TIMER_DELACK)` sends a held ACK and reschedules it
    /// `interval_` later), not the delay after the segment.
    pub heartbeat: bool,
    /// Header bytes of a data segment (its payload: the size less these), for FullTcp's
    /// count of bytes (`TcpSink::pending`); 16 bits keep `DelAck` in 16 bytes.
    pub header: u16,
    /// With `delack_gap_fill`, a duplicate is still acknowledged at once
    /// (`TcpParams::delack_dup_at_once`, IKRSimLib's receiver).
    pub dup_at_once: bool,
}

impl DelAck {
    /// When an ACK held at `now` leaves.
    #[inline]
    fn due(&self, now: SimTime) -> SimTime {
        if self.heartbeat && self.delay.0 > 0 {
            SimTime((now.0 / self.delay.0 + 1) * self.delay.0)
        } else {
            now + self.delay
        }
    }
}

impl TcpSink {
    /// Whether a delaying sink acknowledges segment 0 at once when it is data, not a SYN
    /// (ns-2.35's `DelAckSink::recv` with `SYN_immediate_ack_` for `VegasTcpAgent`'s data
    /// segment 0).
    pub fn set_first_ack_at_once(&mut self, at_once: bool) {
        self.syn_ack_at_once = at_once;
    }

    /// Whether segment `seq` is acknowledged at once although ACKs are delayed: the SYN
    /// without `delack_syn`, or one of the first `quick_acks` data segments.
    #[cold]
    fn ack_at_once(&mut self, seq: u64) -> bool {
        if seq == 0 && (self.syn || self.syn_ack_at_once) {
            return self.syn_ack_at_once;
        }
        if self.quick_left > 0 {
            self.quick_left -= 1;
            if self.quick_left == 0 {
                // tcp_dec_quickack_mode: leaving quick-ACK mode deflates the timeout.
                if let Some(l) = self.linux.as_deref_mut() {
                    l.deflate();
                }
            }
            return true;
        }
        false
    }

    pub fn new(flow: FlowId, node: NodeId, peer: NodeId, cfg: &TcpParams) -> TcpSink {
        let delays =
            cfg.sink == SinkKind::Delack || (cfg.sink == SinkKind::Sack && cfg.delayed_ack);
        let delack = delays.then_some(DelAck {
            segs_per_ack: cfg.segs_per_ack,
            delay: cfg.ack_delay,
            heartbeat: cfg.ns2_full_tcp,
            header: cfg.header_size.min(u32::from(u16::MAX)) as u16,
            dup_at_once: cfg.delack_dup_at_once,
        });
        TcpSink {
            flow,
            node,
            peer,
            rcv_nxt: 0,
            seen: SeqMap::new(cfg.window),
            payload: cfg.packet_size,
            ack_size: cfg.ack_size,
            syn: cfg.syn,
            syn_ack_at_once: (cfg.syn || cfg.bare_first_segment) && !cfg.delack_syn,
            delack_repeat: cfg.delack_repeat,
            delack_gap_fill: cfg.delack_gap_fill,
            quick_left: cfg.quick_acks.min(u16::MAX as u32) as u16,
            sack_block_bytes: cfg.sack_block_bytes.min(u8::MAX as u32) as u8,
            sack_option_bytes: if cfg.ns2_full_tcp { 2 } else { 0 },
            syn_option_bytes: if cfg.syn {
                cfg.syn_option_bytes.min(u8::MAX as u32) as u8
            } else {
                0
            },
            sack: cfg.sink == SinkKind::Sack,
            // Grown at the first out-of-order arrival: most of a Tmix replay's hundreds of
            // thousands of short connections never see one.
            ranges: Vec::new(),
            recent: [(0, 0); SackBlocks::MAX],
            recent_len: 0,
            last_seq: 0,
            ts_echo_rfc7323: cfg.ts_echo_rfc7323,
            ts_recent: SimTime::ZERO,
            last_ack_sent: 0,
            maxseen: 0,
            delack,
            pending: 0,
            deadline: None,
            ece: false,
            ect_syn_ack: false,
            qs_echo: 0,
            dctcp_echo: cfg.ecn_per_segment,
            ns3_dctcp_ack: cfg.ecn_per_segment && cfg.ns3_dctcp_ack,
            prior_rcv: u64::MAX,
            // FullTcp agents too (`ns2_full_tcp`, whose `ns2_ecn` is off): FullTcpAgent::recv
            // clears `recent_ce_` on `cwr()`, which is ns-2's `cong_action_`.
            ece_clear: if cfg.ns2_ecn == crate::tcp::sender::Ns2Ecn::Off && !cfg.ns2_full_tcp {
                ecn::CWR
            } else {
                ecn::CWR | ecn::CONG_ACTION
            },
            undelivered: u64::MAX,
            plain: !cfg.ecn_per_segment
                && cfg.rcv_buffer_bytes.is_none()
                && !(delays && (cfg.adaptive_ack_delay || cfg.sack_compression)),
            fc: cfg
                .rcv_buffer_bytes
                .map(|b| Box::new(FlowControl::new(b, cfg.app_read_rate_bps, cfg.packet_size))),
            linux: (delays && (cfg.adaptive_ack_delay || cfg.sack_compression)).then(|| {
                Box::new(LinuxAcks::new(
                    cfg.adaptive_ack_delay,
                    cfg.sack_compression && cfg.sink == SinkKind::Sack,
                    cfg.ack_delay,
                    cfg.quick_acks.clamp(1, u16::MAX as u32) as u16,
                ))
            }),
        }
    }

    /// When the delayed-ACK timer (or a window update) is due, if either is pending.
    #[inline]
    pub fn deadline(&self) -> Option<SimTime> {
        if self.plain {
            return self.deadline; // no window update, no compressed ACK
        }
        let update_at = self.fc.as_deref().and_then(|f| f.update_at);
        let d = match (self.deadline, update_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let Some(l) = self.linux.as_deref() else {
            return d;
        };
        match (d, l.comp_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Moves a delayed-ACK deadline at `from` to `to` (the ns2 profile's clock: the
    /// picosecond of ns-2's double for it, `sim/ns2_clock.rs`); false if `from` is not the
    /// delayed ACK's (a window update or Linux's compressed ACK stays where it is).
    pub fn retime_delack(&mut self, from: SimTime, to: SimTime) -> bool {
        let at = self.deadline == Some(from) && self.deadline() == Some(from);
        if at {
            self.deadline = Some(to);
        }
        at
    }

    /// The delayed-ACK timer or the window-update time came at `now`.
    pub fn on_timer(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        let fc_update = self.fc.as_deref_mut().map(|f| &mut f.update_at);
        let update = match fc_update {
            Some(at) if at.is_some_and(|t| t <= now) => {
                *at = None;
                true
            }
            _ => false,
        };
        if let Some(l) = self.linux.as_deref_mut() {
            if l.comp_at.is_some_and(|t| t <= now) {
                // tcp_compressed_ack_kick: one ACK for the compressed ones.
                l.comp_at = None;
                self.ack_cold(now, self.last_seq, out, c);
                return;
            }
        }
        if self.deadline.is_some_and(|t| t <= now) {
            self.deadline = None;
            if self.pending > 0 {
                if let Some(l) = self.linux.as_deref_mut() {
                    l.on_delack_timer();
                }
                self.ack(now, self.rcv_nxt.saturating_sub(1), out, c);
                return;
            }
        }
        if update {
            self.ack(now, self.rcv_nxt.saturating_sub(1), out, c);
        }
    }

    /// Keeps the out-of-order ranges in step with an arrival of `seq`.
    fn track_ranges(&mut self, seq: u64) {
        self.last_seq = seq;
        if seq > self.rcv_nxt {
            let i = self.ranges.partition_point(|r| r.1 < seq);
            if i < self.ranges.len() && self.ranges[i].0 <= seq && seq < self.ranges[i].1 {
                return; // a duplicate
            }
            let joins_prev = i < self.ranges.len() && self.ranges[i].1 == seq;
            let next = if joins_prev { i + 1 } else { i };
            let joins_next = next < self.ranges.len() && self.ranges[next].0 == seq + 1;
            match (joins_prev, joins_next) {
                (true, true) => {
                    self.ranges[i].1 = self.ranges[next].1;
                    self.ranges.remove(next);
                }
                (true, false) => self.ranges[i].1 = seq + 1,
                (false, true) => self.ranges[next].0 = seq,
                (false, false) => self.ranges.insert(i, (seq, seq + 1)),
            }
        }
        let below = self.ranges.partition_point(|r| r.1 <= self.rcv_nxt);
        self.ranges.drain(..below);
    }

    /// SACK blocks for an ACK now: the range holding the latest arrival, then the most
    /// recently reported ranges still out of order (RFC 2018 section 4); with Linux's ACK
    /// timing, Linux's list of blocks in the order they last grew.
    fn sack_blocks(&mut self) -> SackBlocks {
        let mut blocks = SackBlocks::NONE;
        let mut chosen: [(u64, u64); SackBlocks::MAX] = [(0, 0); SackBlocks::MAX];
        let mut n = 0;
        const N: usize = if TCP_NUM_SACKS > SackBlocks::MAX {
            TCP_NUM_SACKS
        } else {
            SackBlocks::MAX + 1
        };
        let mut candidates = [self.last_seq; N];
        let mut len = self.recent_len as usize + 1;
        if let Some(l) = self.linux.as_deref().filter(|l| l.order_len > 0) {
            candidates[..l.order_len].copy_from_slice(&l.order[..l.order_len]);
            len = l.order_len;
        } else {
            for (k, r) in self.recent[..self.recent_len as usize].iter().enumerate() {
                candidates[k + 1] = r.0;
            }
        }
        for &x in &candidates[..len] {
            if n == SackBlocks::MAX {
                break;
            }
            if let Some(r) = block_holding(&self.ranges, x) {
                if !chosen[..n].contains(&r) {
                    chosen[n] = r;
                    n += 1;
                    blocks.push(self.rcv_nxt, r.0, r.1);
                }
            }
        }
        self.recent = chosen;
        self.recent_len = n as u8;
        blocks
    }

    /// The SACK blocks of the acknowledgement about to leave, which satisfies any ACK held
    /// back (delayed ACKs).
    fn acknowledged(&mut self) -> SackBlocks {
        self.acknowledged_with::<false>()
    }

    /// [`TcpSink::acknowledged`]; `PLAIN`: the sink is `plain`, without Linux's ACK timing.
    #[inline(always)]
    fn acknowledged_with<const PLAIN: bool>(&mut self) -> SackBlocks {
        self.pending = 0;
        self.deadline = None;
        self.last_ack_sent = self.rcv_nxt;
        if !PLAIN {
            if let Some(l) = self.linux.as_deref_mut() {
                l.on_ack_sent();
            }
        }
        if self.sack {
            self.sack_blocks()
        } else {
            SackBlocks::NONE
        }
    }

    /// [`TcpSink::ack`] for the rarer callers (timers, flow control, DCTCP, Linux's ACK
    /// compression), out of line so that the per-segment path keeps its own copy inline.
    #[inline(never)]
    fn ack_cold(&mut self, now: SimTime, seq: u64, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.ack(now, seq, out, c);
    }

    /// Sends the acknowledgement of segment `seq` now.
    #[inline(always)]
    fn ack(&mut self, now: SimTime, seq: u64, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.ack_with::<false>(now, seq, out, c);
    }

    /// [`TcpSink::ack`]; `PLAIN`: the sink is `plain`, without flow control or Linux's ACK
    /// timing.
    #[inline(always)]
    fn ack_with<const PLAIN: bool>(
        &mut self,
        now: SimTime,
        seq: u64,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let sack = self.acknowledged_with::<PLAIN>();
        c.acks_sent += 1;
        // With flow control the ACK carries the advertised window in segments.
        let mut window = 0;
        if let Some(fc) = self.fc.as_mut().filter(|_| !PLAIN) {
            window = fc.advertise(now);
            fc.update_at = fc.update_due(now);
        }
        let ackp = out.place();
        *ackp = Packet {
            id: 0,
            flow: self.flow,
            kind: PacketKind::TcpAck,
            flags: 0,
            src: self.node,
            dst: self.peer,
            size: self.ack_size
                + if sack.is_empty() {
                    0
                } else {
                    self.sack_option_bytes as u32 + self.sack_block_bytes as u32 * sack.len() as u32
                }
                + if seq == 0 {
                    self.syn_option_bytes as u32
                } else {
                    0
                },
            seq,
            ack: self.rcv_nxt,
            sent_at: now,
            ts_echo: self.ts_recent,
            retransmit: false,
            sack,
            nth: 0,
            rwnd: window,
            ecn: if self.ece { ecn::ECE } else { 0 }
                | if seq == 0 && self.ect_syn_ack {
                    ecn::ECT
                } else {
                    0
                },
        };
        if seq == 0 && self.qs_echo != 0 {
            let echo = crate::net::quick_start::QsOption::unpack(std::mem::take(&mut self.qs_echo));
            ackp.set_quick_start(Some(echo));
        }
    }

    /// ns-2.35's TCPSink `ecn_syn_` (RFC 5562 as `TcpSink::ack` has it): the ACK of segment
    /// 0, the ECN-setup packet of an ECN-capable sender, is itself ECN-capable (ECT).
    pub fn set_ecn_syn(&mut self) {
        self.ect_syn_ack = true;
    }

    /// Acknowledges at once the in-order segments a delayed ACK is holding (a two-way
    /// connection acknowledges the peer's SYN and FIN without delay, as BSD and ns-2's
    /// FullTcp do with `TF_ACKNOW`).
    pub fn ack_now(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        if self.pending > 0 {
            self.ack_cold(now, self.rcv_nxt.saturating_sub(1), out, c);
        }
    }

    /// Acknowledges now whatever it holds, a delayed ACK pending or not (ns-2.35's FullTcp
    /// with `TF_ACKNOW` set, `tcp/full.rs`).
    pub fn ack_force(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.ack_cold(now, self.rcv_nxt.saturating_sub(1), out, c);
    }

    /// Whether any segment has arrived (a two-way connection's endpoint acknowledges the
    /// reverse direction once it has seen the peer's SYN).
    #[inline]
    pub fn has_received(&self) -> bool {
        self.maxseen > 0
    }

    /// Writes into the data segment `pkt` the acknowledgement a pure ACK sent now would
    /// carry (cumulative ACK, SACK blocks, echoed timestamp, ECN-Echo), and counts it as
    /// sent: a delayed ACK is satisfied by data carrying it (RFC 1122 4.2.3.2, RFC 9293
    /// 3.8.6.3). Used by two-way connections (`tcp/full.rs`); no finite receive buffer.
    pub fn piggyback(&mut self, pkt: &mut Packet) {
        pkt.sack = self.acknowledged();
        pkt.ack = self.rcv_nxt;
        pkt.ts_echo = self.ts_recent;
        if self.ece {
            pkt.ecn |= ecn::ECE;
        }
    }

    /// `$sink reset` during the run: ns-2.35's `TcpSink::reset` (tcp/tcp-sink.cc) starts the
    /// receiver over, `Acker::reset` forgetting what arrived (`next_`, `maxseen_`, `seen_`),
    /// `Sacker::reset` its SACK blocks, `DelAckSink::reset` cancelling the delayed ACK and
    /// the segment it held (`save_`). The timestamp to echo, the last ACK sent and the
    /// ECN-Echo state (`ts_to_echo_`, `last_ack_sent_`, `ecn_unacked_`) stay. None: reset;
    /// otherwise why this sink cannot be (flow control's buffer, Linux's ACK timing).
    pub fn ns2_reset(&mut self) -> Option<&'static str> {
        if self.fc.is_some() || self.linux.is_some() {
            return Some("a sink with flow control or Linux's ACK timing");
        }
        self.rcv_nxt = 0;
        self.seen.clear();
        self.maxseen = 0;
        self.last_seq = 0;
        self.ranges.clear();
        self.recent_len = 0;
        self.deadline = None;
        self.pending = 0;
        None
    }

    /// The sender transfers `bytes` payload bytes in all.
    pub fn set_transfer(&mut self, bytes: u64) {
        self.undelivered = bytes;
    }

    // Always inlined: the simulator's loop has it inlined, and `run.ties = "ns2"` gives it a
    // second caller (sim/ns2_clock.rs), which must not change how the loop compiles.
    #[inline(always)]
    pub fn on_data(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if self.plain {
            debug_assert!(!self.dctcp_echo && self.fc.is_none() && self.linux.is_none());
            self.on_data_with::<true>(now, pkt, out, c);
        } else {
            self.on_data_with::<false>(now, pkt, out, c);
        }
    }

    /// A data segment arrives. `PLAIN`: the sink is `plain`, so the tests for DCTCP's echo,
    /// flow control and Linux's ACK timing are compiled out.
    #[inline(always)]
    fn on_data_with<const PLAIN: bool>(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        c.packets_received += 1;
        c.bytes_received += pkt.size as u64;
        if !PLAIN && self.dctcp_echo {
            let ce = pkt.ecn & ecn::CE != 0;
            if ce != self.ece && self.pending > 0 {
                if !self.ns3_dctcp_ack {
                    self.ack_cold(now, self.rcv_nxt.saturating_sub(1), out, c);
                } else if self.prior_rcv != u64::MAX {
                    let prior = self.prior_rcv;
                    // TcpDctcp::CeState0to1 / CeState1to0: the receive buffer's next
                    // sequence set back to m_priorRcvNxt for that ACK, then restored.
                    let rcv = self.rcv_nxt;
                    self.rcv_nxt = prior;
                    self.ack_cold(now, prior.saturating_sub(1), out, c);
                    self.rcv_nxt = rcv;
                }
            }
            self.ece = ce;
            self.prior_rcv = self.rcv_nxt;
        } else {
            if pkt.ecn & (ecn::CWR | ecn::CONG_ACTION) != 0 && pkt.ecn & self.ece_clear != 0 {
                self.ece = false;
            }
            if pkt.ecn & ecn::CE != 0 {
                self.ece = true;
            }
        }
        let seq = pkt.seq;
        if pkt.ecn & ecn::QS != 0 && seq == 0 {
            self.qs_echo = pkt.quick_start().map_or(0, |o| o.pack());
        }
        let rcv_before = self.rcv_nxt;
        if let Some(fc) = self.fc.as_mut().filter(|_| !PLAIN) {
            let new = seq >= self.rcv_nxt
                && (seq - self.rcv_nxt > self.seen.limit()
                    || !self.seen.contains(seq, self.rcv_nxt));
            if new && !fc.fits(now, seq - self.rcv_nxt) {
                // Past the window: discard it, and say how much room there is.
                self.ack_cold(now, seq, out, c);
                return;
            }
        }
        // RFC 7323 4.3: remember the timestamp of the segment at the edge last acknowledged,
        // so that a delayed or a loss-repairing ACK reports the longer, true round trip.
        // ns-2's sink echoes the latest arrival instead.
        if !self.ts_echo_rfc7323 || (seq <= self.last_ack_sent && pkt.sent_at >= self.ts_recent) {
            self.ts_recent = pkt.sent_at;
        }
        if seq == self.rcv_nxt {
            let before = self.rcv_nxt;
            self.rcv_nxt += 1;
            // Segments above are held only below `maxseen`.
            if self.rcv_nxt < self.maxseen {
                while self.seen.take(self.rcv_nxt, before) {
                    self.rcv_nxt += 1;
                }
                if self.rcv_nxt >= self.maxseen {
                    self.seen.emptied();
                }
            }
            let mut delivered = (self.rcv_nxt - before) * self.payload as u64;
            if before == 0 && self.syn {
                delivered -= self.payload as u64; // segment 0 was a SYN, without payload
            }
            // A finite transfer's last segment carries only the remainder.
            let delivered = delivered.min(self.undelivered);
            self.undelivered -= delivered;
            c.bytes_delivered += delivered;
            if let Some(fc) = self.fc.as_mut().filter(|_| !PLAIN) {
                fc.delivered(now, delivered);
            }
        } else if seq > self.rcv_nxt && seq - self.rcv_nxt <= self.seen.limit() {
            self.seen.insert(seq, self.rcv_nxt);
        }
        if self.sack {
            self.track_ranges(seq);
        }
        // In order with nothing seen above it; with `delack_repeat` also the repeat of the
        // last in-order segment (ns-2's test, made after the segment is recorded); with
        // `delack_gap_fill` any segment the cumulative ACK stops at.
        let in_sequence = self.rcv_nxt == seq + 1
            && (seq >= self.maxseen
                || (self.delack_repeat && seq + 1 == self.maxseen)
                || (self.delack_gap_fill
                    && !(seq < rcv_before && self.delack.is_some_and(|d| d.dup_at_once))));
        self.maxseen = self.maxseen.max(seq + 1);
        if !PLAIN && self.linux.is_some() {
            self.linux_arrival(now, seq, rcv_before);
            if self.sack && seq > self.rcv_nxt {
                self.linux_sack_list(now, seq, out, c);
            }
        }
        if let Some(d) = self.delack {
            // Asked only of a segment that would wait: the SYN and quick ACKs are rare.
            // A Linux receiver acknowledges a pushed segment as soon as the application has
            // read it (`tcp_measure_rcv_mss` marks it ICSK_ACK_PUSHED, `tcp_cleanup_rbuf`
            // sends the ACK; the application here reads at once): PSH, `tcp::sender::psh`.
            let pushed = !PLAIN && pkt.flags & tcp_flags::PSH != 0 && self.linux.is_some();
            // FullTcp counts bytes: a full segment is `payload` of them, the same count.
            let count = if d.heartbeat {
                pkt.size
                    .saturating_sub(u32::from(d.header))
                    .clamp(1, self.payload)
            } else {
                1
            };
            let below = if d.heartbeat {
                u64::from(self.pending + count)
                    < u64::from(d.segs_per_ack) * u64::from(self.payload)
            } else {
                self.pending + 1 < d.segs_per_ack
            };
            if in_sequence
                && !pushed
                && below
                && !((seq == 0 || self.quick_left > 0) && self.ack_at_once(seq))
            {
                self.pending += count;
                if self.deadline.is_none() {
                    self.deadline = Some(match self.linux.as_deref().filter(|_| !PLAIN) {
                        Some(l) => now + l.delay(d.delay),
                        None => d.due(now),
                    });
                }
                return;
            }
            // Out of order, rcv_nxt unmoved: Linux may compress the duplicate ACK.
            if !PLAIN && seq > self.rcv_nxt && self.quick_left == 0 {
                let rcv_nxt = self.rcv_nxt;
                if let Some(l) = self.linux.as_deref_mut() {
                    if l.compresses(now, rcv_nxt) {
                        return;
                    }
                }
            }
        }
        self.ack_with::<PLAIN>(now, seq, out, c);
    }

    /// `tcp_sack_new_ofo_skb`: the block now holding out-of-order `seq` goes to the front of
    /// Linux's list. If it was third or later there, or is new with two or more listed, the
    /// ACKs compressed so far leave first (`tcp_sack_compress_send_ack`): they report the
    /// blocks as they were, which a later ACK (three blocks) might not.
    fn linux_sack_list(
        &mut self,
        now: SimTime,
        seq: u64,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        let Some(l) = self.linux.as_deref() else {
            return;
        };
        let Some(block) = block_holding(&self.ranges, seq) else {
            return;
        };
        // The list as Linux keeps it: blocks filled in (`tcp_sack_remove`) or merged
        // (`tcp_sack_maybe_coalesce`) are gone.
        let mut kept = [(0u64, (0u64, 0u64)); TCP_NUM_SACKS];
        let mut n = 0;
        for &x in &l.order[..l.order_len] {
            if let Some(b) = block_holding(&self.ranges, x) {
                if !kept[..n].iter().any(|k| k.1 == b) {
                    kept[n] = (x, b);
                    n += 1;
                }
            }
        }
        let at = kept[..n].iter().position(|k| k.1 == block);
        let flush = match at {
            Some(i) => i >= SACK_BLOCKS_EXPECTED,
            None => n >= SACK_BLOCKS_EXPECTED,
        };
        if flush && l.compressed() > 0 {
            self.ack_cold(now, self.last_seq, out, c);
        }
        let Some(l) = self.linux.as_deref_mut() else {
            return;
        };
        l.order[0] = seq;
        let mut m = 1;
        for (k, &(x, _)) in kept[..n].iter().enumerate() {
            if Some(k) != at && m < TCP_NUM_SACKS {
                l.order[m] = x;
                m += 1;
            }
        }
        l.order_len = m;
    }

    /// What Linux's receiver learns from an arrival of `seq` (rcv_nxt was `rcv_before`):
    /// the handshake's time, the gap since the last in-order segment (`tcp_event_data_recv`),
    /// quick-ACK mode for a segment it already holds (`tcp_data_queue`).
    fn linux_arrival(&mut self, now: SimTime, seq: u64, rcv_before: u64) {
        let Some(l) = self.linux.as_deref_mut() else {
            return;
        };
        if seq == 0 && self.syn {
            l.on_syn(now);
        } else if seq == rcv_before {
            let grant = l.on_in_order(now);
            self.quick_left = self.quick_left.max(grant);
        } else if seq < rcv_before {
            // tcp_enter_quickack_mode(sk, TCP_MAX_QUICKACKS)
            self.quick_left = self.quick_left.max(l.quick_max);
            l.deflate();
        }
    }
}

#[cfg(test)]
mod tests;
