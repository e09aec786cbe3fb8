//! Two-way ("full") TCP connections, like ns-2's `Agent/TCP/FullTcp` and ns-3's
//! `TcpSocketBase`: a three-way handshake, data in both directions with acknowledgements
//! piggy-backed on data, and a FIN from each side. RFC 9293 (TCP, which obsoletes RFC 793),
//! sections 3.3.2 (states), 3.5 (opening), 3.6 (closing), 3.8.6.3 (when to send an ACK),
//! 3.10.7 (segment arrival).
//!
//! A connection is two flows of the scenario, one per direction of data, each the usual
//! sender/sink pair (`sender.rs`, `sink.rs`: the same loss recovery and congestion control
//! as one-way flows). An endpoint is the sender of its own direction and the sink of the
//! other; this file ties the two together:
//!
//! - Handshake: the initiator's sender opens with a SYN (segment 0 of its direction, sent
//!   and retransmitted on its RTO as any segment). The SYN's arrival starts the acceptor
//!   (LISTEN -> SYN-RECEIVED), whose own SYN leaves carrying the ACK of the initiator's:
//!   the SYN-ACK. A retransmitted SYN is answered by the SYN-ACK again (Linux). The
//!   initiator acknowledges the SYN-ACK at once with a pure ACK and is ESTABLISHED (the
//!   segments of RFC 9293 3.5 figure 6); the acceptor is ESTABLISHED when its SYN is
//!   acknowledged (by that ACK or by any later segment). Data wait for the handshake: cwnd
//!   stays at one segment until the SYN is acknowledged (`syn`, as for one-way flows).
//! - Piggy-backing: every segment an endpoint sends after it has seen the peer's SYN carries
//!   the acknowledgement its receiver would send now (ACK flag, cumulative ACK, SACK blocks,
//!   echoed timestamp, ECN-Echo), which satisfies a pending delayed ACK; a pure ACK produced
//!   by the same arrival is then not sent (RFC 9293 3.8.6.3; BSD and ns-2's FullTcp send
//!   data before their pending ACK, as does Linux's `tcp_data_snd_check` before
//!   `tcp_ack_snd_check`). With nothing to send, the receiver's pure ACKs follow the sink's
//!   rules (every segment, or delayed ACKs). An ACK carried by data that acknowledges
//!   nothing new is not a duplicate ACK (RFC 5681 section 2), except that new SACK
//!   information counts (RFC 6675 section 2), see `TcpSender::on_piggyback`.
//! - Exchanges: `concurrent`: each side writes all its data as soon as it can (the
//!   initiator at its start, the acceptor on the SYN) and its FIN right after the last byte;
//!   an endless side never closes. `request-response`: the acceptor writes its reply (and
//!   its FIN) once the initiator's request has arrived in full; the initiator writes its FIN
//!   when the acceptor's FIN arrives (an HTTP/1.0-style exchange, the server closing first).
//!   `open`: as `concurrent`, but neither side closes by itself (ns-2's FullTcp agents, which
//!   send a FIN only when the script calls `close`, `app_close`; the peer then closes once its
//!   own data are acknowledged; `close_on_empty_` is false by default). Under
//!   `ns2_full_tcp` the acceptor sends only its SYN-ACK until its application gives data
//!   (`Simulator::advance_app`, ns-2's `FullTcpAgent::advance_bytes` in SYN_RECEIVED or
//!   ESTABLISHED).
//! - Closing: a FIN is a header-only segment taking one sequence number after the data
//!   (RFC 9293 3.6); its arrival is acknowledged at once. The connection is complete when
//!   both FINs are acknowledged; TIME-WAIT's 2 MSL are not simulated.
//!
//! Not modelled: RST, simultaneous open, the receive window of a finite buffer
//! (`rcv_buffer`), Nagle's algorithm (each side writes whole messages).

use crate::ids::FlowId;
use crate::monitor::FlowCounters;
use crate::packet::{ecn, tcp_flags, Packet, PacketKind};
use crate::tcp::{TcpSender, TcpSink};
use crate::time::SimTime;

/// The side that opens the connection, and the side that accepts it.
pub const INITIATOR: usize = 0;
pub const ACCEPTOR: usize = 1;

/// When each side writes its data (see the module documentation).
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
#[serde(rename_all = "kebab-case")]
pub enum Exchange {
    #[default]
    Concurrent,
    RequestResponse,
    /// Concurrent without FINs (ns-2's FullTcp).
    Open,
}

/// An endpoint's connection state (RFC 9293 section 3.3.2; TIME-WAIT ends at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Closed,
    Listen,
    SynSent,
    SynReceived,
    Established,
    FinWait1,
    FinWait2,
    CloseWait,
    Closing,
    LastAck,
    TimeWait,
}

impl State {
    /// The RFC's name.
    pub fn name(self) -> &'static str {
        match self {
            State::Closed => "CLOSED",
            State::Listen => "LISTEN",
            State::SynSent => "SYN-SENT",
            State::SynReceived => "SYN-RECEIVED",
            State::Established => "ESTABLISHED",
            State::FinWait1 => "FIN-WAIT-1",
            State::FinWait2 => "FIN-WAIT-2",
            State::CloseWait => "CLOSE-WAIT",
            State::Closing => "CLOSING",
            State::LastAck => "LAST-ACK",
            State::TimeWait => "TIME-WAIT",
        }
    }

    /// This side's FIN is written (RFC 9293 3.10.4 CLOSE). Before the handshake is done the
    /// FIN waits behind it; the state then changes when the FIN's direction opens.
    fn on_close(self) -> State {
        match self {
            State::Established => State::FinWait1,
            State::CloseWait => State::LastAck,
            s => s,
        }
    }

    /// The peer's FIN arrived (RFC 9293 3.10.7.4, eighth step).
    fn on_fin(self) -> State {
        match self {
            State::Established | State::SynReceived => State::CloseWait,
            State::FinWait1 => State::Closing,
            State::FinWait2 => State::TimeWait,
            s => s,
        }
    }

    /// This side's FIN is acknowledged.
    fn on_fin_acked(self) -> State {
        match self {
            State::FinWait1 => State::FinWait2,
            State::Closing => State::TimeWait,
            State::LastAck => State::Closed,
            s => s,
        }
    }
}

/// What an endpoint works with when a segment arrives: its sender (its own direction) and
/// its sink (the peer's direction), with their flows' counters.
pub struct Endpoint<'a> {
    pub sender: &'a mut TcpSender,
    pub sink: &'a mut TcpSink,
    pub sent: &'a mut FlowCounters,
    pub received: &'a mut FlowCounters,
}

/// One two-way connection.
#[derive(Clone, Debug)]
pub struct FullConn {
    /// `flows[s]` carries side s's data: its sender sits at side s, its sink at the other.
    pub flows: [FlowId; 2],
    pub exchange: Exchange,
    /// Payload bytes each side sends; None: endless.
    pub sizes: [Option<u64>; 2],
    /// Segment payload (both directions).
    mss: u32,
    pub state: [State; 2],
    /// Each side's FIN segment number, once written; whether each side has received its
    /// peer's FIN.
    fin_seq: [Option<u64>; 2],
    fin_received: [bool; 2],
    /// The acceptor has written its reply (request-response).
    replied: bool,
    /// The initiator sent its first SYN; the SYN-ACK arrived (the initiator then sends the
    /// handshake's ACK); the acceptor saw the first SYN.
    pub opened_at: Option<SimTime>,
    pub established_at: Option<SimTime>,
    pub accepted_at: Option<SimTime>,
    pub fin_acked_at: [Option<SimTime>; 2],
    /// Both FINs acknowledged.
    pub closed_at: Option<SimTime>,
    /// ns-2.35's `ecn_syn_` of each side, and its `ecn_syn_wait_` (see `set_ecn_syn`).
    ecn_syn: [bool; 2],
    ecn_syn_wait: [u8; 2],
    /// ns-2.35's `ecn_syn_next_`: the next SYN-ACK of that side is ECN-capable.
    ecn_syn_next: [bool; 2],
    /// ns-2.35's `TF_ACKNOW` left set by a duplicate SYN that side ignored in SYN_RECEIVED:
    /// the next segment that side sends acknowledges, a pure ACK if it has no data to send.
    acknow: [bool; 2],
}

impl FullConn {
    pub fn new(flows: [FlowId; 2], exchange: Exchange, sizes: [Option<u64>; 2], mss: u32) -> Self {
        FullConn {
            flows,
            exchange,
            sizes,
            mss,
            state: [State::Closed, State::Listen],
            fin_seq: [None; 2],
            fin_received: [false; 2],
            replied: false,
            opened_at: None,
            established_at: None,
            accepted_at: None,
            fin_acked_at: [None; 2],
            closed_at: None,
            ecn_syn: [false; 2],
            ecn_syn_wait: [0; 2],
            ecn_syn_next: [false; 2],
            acknow: [false; 2],
        }
    }

    /// ns-2.35's `ecn_syn_` on side `s` (RFC 5562, ECN-capable SYN-ACK, as FullTcpAgent
    /// has it), with `ecn_syn_wait_` `wait`: side s, accepting an ECN-setup SYN, sends its
    /// SYN-ACK ECT (`FullTcpAgent::sendpacket`, while `ecn_syn_next_`). If that SYN-ACK
    /// arrives marked CE, the initiator echoes ECE on its ACK; the acceptor then, on that ACK
    /// in SYN-RECEIVED (`FullTcpAgent::recv`): wait 0 starts from a window of 2 that the ECN
    /// response halves; wait 2 sends its SYN-ACK again, not ECT, and starts from a window of
    /// one once that is acknowledged. With wait 2 the initiator also drops the marked SYN-ACK
    /// and answers it with a pure ACK carrying ECE, staying in SYN-SENT (`recv` in SYN_SENT).
    /// The initiator's `ecn_syn_wait_` counts whether or not its `ecn_syn_` is on.
    pub fn set_ecn_syn(&mut self, s: usize, on: bool, wait: u8) {
        self.ecn_syn[s] = on;
        self.ecn_syn_wait[s] = wait;
        self.ecn_syn_next[s] = on;
    }

    /// Whether side `s`'s SYN-ACK leaving now is ECN-capable (`FullTcpAgent::sendpacket`:
    /// `ecn_ && ecn_syn_ && ecn_syn_next_`, with `ect_` from the ECN-setup SYN).
    #[inline]
    pub fn syn_ack_ect(&self, s: usize) -> bool {
        self.ecn_syn[s] && self.ecn_syn_next[s]
    }

    /// ns-2.35's `FullTcpAgent::recv` in SYN_SENT with `ecn_syn_wait_` 2: a SYN-ACK that
    /// arrives CE-marked (an ECN-setup one: ECE, not CWR) is dropped and answered by a pure
    /// ACK carrying ECE, acknowledging nothing (`rcv_nxt_` unset, traced -1); the SYN's timer
    /// restarts and the side stays in SYN-SENT. Returns whether it took the segment.
    fn ecn_syn_refused(
        &mut self,
        side: usize,
        now: SimTime,
        pkt: &Packet,
        ep: &mut Endpoint,
        out: &mut Vec<Packet>,
    ) -> bool {
        let setup = ecn::ECE | ecn::CE;
        if side != INITIATOR
            || self.state[side] != State::SynSent
            || self.ecn_syn_wait[side] != 2
            || !ep.sender.is_ecn()
            || pkt.ecn & (setup | ecn::CWR) != setup
            || pkt.flags & tcp_flags::ACK == 0
        {
            return false;
        }
        ep.sender.restart_syn_timer(now);
        ep.received.acks_sent += 1;
        out.push(Packet {
            flow: pkt.flow,
            kind: PacketKind::TcpAck,
            flags: 0,
            src: pkt.dst,
            dst: pkt.src,
            size: pkt.size,
            seq: 0,
            ack: 0,
            sent_at: now,
            ts_echo: pkt.sent_at,
            retransmit: false,
            sack: Default::default(),
            nth: 0,
            rwnd: 0,
            ecn: ecn::ECE,
            id: 0,
        });
        true
    }

    /// ns-2.35's `FullTcpAgent::recv` in SYN_RECEIVED with `ecn_syn_`: the ACK of its SYN-ACK
    /// carries ECE (the SYN-ACK was marked). With `ecn_syn_wait_` 2 the ACK is dropped and
    /// the SYN-ACK sent again at once, no longer ECT (`ecn_syn_next_` 0), the window to start
    /// from one segment (`wnd_init_` 1); otherwise the window starts from two and the ACK's
    /// ECN-Echo halves it (`ecn()`). Returns whether it took the ACK.
    fn ecn_syn_marked(
        &mut self,
        side: usize,
        now: SimTime,
        pkt: &Packet,
        ep: &mut Endpoint,
        out: &mut Vec<Packet>,
    ) -> bool {
        if side != ACCEPTOR
            || self.state[side] != State::SynReceived
            || !self.ecn_syn[side]
            || !ep.sender.is_ecn()
            || pkt.ecn & ecn::ECE == 0
        {
            return false;
        }
        if self.ecn_syn_wait[side] == 2 {
            self.ecn_syn_next[side] = false;
            ep.sender.resend_syn_now(now, out, ep.sent);
            ep.sender.set_syn_window(1.0, false);
            return true;
        }
        ep.sender.set_syn_window(2.0, true);
        false
    }

    /// The FIN segment number of side `s` (known in advance for a finite side): the SYN is
    /// segment 0, the data take `ceil(bytes / mss)` segments.
    pub fn fin_of(&self, s: usize) -> Option<u64> {
        self.sizes[s].map(|b| 1 + b.div_ceil(self.mss as u64))
    }

    /// Whether segment `seq` of side `s`'s direction is its FIN (written already).
    #[inline]
    pub fn is_fin(&self, s: usize, seq: u64) -> bool {
        self.fin_seq[s] == Some(seq)
    }

    /// Whether a retransmission of segment `seq` of side `s` empties the send buffer while
    /// side s's FIN is unacknowledged: ns-2.35's `FullTcpAgent::foutput` then sends it with
    /// FIN set too (`outflags` has FIN in FIN-WAIT-1, CLOSING and LAST-ACK, and a segment
    /// reaching `curseq_` keeps it), as BSD's `tcp_output` does.
    pub fn fin_rides_on(&self, s: usize, seq: u64) -> bool {
        self.fin_seq[s] == Some(seq + 1)
            && matches!(
                self.state[s],
                State::FinWait1 | State::Closing | State::LastAck
            )
    }

    /// Whether side `s` has written its FIN.
    pub fn has_closed(&self, s: usize) -> bool {
        self.fin_seq[s].is_some()
    }

    /// Writes side `s`'s FIN behind its data, if its data are finite.
    fn close(&mut self, s: usize, sender: &mut TcpSender) {
        if self.fin_seq[s].is_some() || self.sizes[s].is_none() {
            return;
        }
        let end = sender.push_adu(0);
        debug_assert_eq!(Some(end - 1), self.fin_of(s));
        self.fin_seq[s] = Some(end - 1);
        self.state[s] = self.state[s].on_close();
    }

    /// Writes side `s`'s FIN right after the data it has sent so far, forgetting any data
    /// given but not sent: ns-2.35's `FullTcpAgent::usrclosed` sets `curseq_` to `maxseq_ - 1`
    /// ("no more data") and stops an endless send. The data sent were whole segments, or a
    /// byte stream's messages (`tcp/sender/stream.rs`), so side `s` now has a size.
    fn close_at_sent(&mut self, s: usize, sender: &mut TcpSender) {
        if self.fin_seq[s].is_some() {
            return;
        }
        let bytes = match sender.stream_keep_sent() {
            // A byte stream (`tcp/sender/stream.rs`): its messages sent.
            Some(bytes) => bytes,
            None => {
                // Segments 1.. after the SYN (segment 0) carry the data sent.
                let segments = sender.seqs().2.saturating_sub(1);
                let bytes = segments * self.mss as u64;
                sender.clear_transfer();
                if bytes > 0 {
                    sender.push_adu(bytes);
                }
                bytes
            }
        };
        let end = sender.push_adu(0);
        self.sizes[s] = Some(bytes);
        self.fin_seq[s] = Some(end - 1);
        self.state[s] = self.state[s].on_close();
        sender.set_past_established();
    }

    /// Side `s`'s application closes the connection during the run (ns-2's `$agent close`,
    /// `FullTcpAgent::usrclosed`): from SYN-RECEIVED, ESTABLISHED or CLOSE-WAIT its FIN
    /// leaves after the data sent (FIN-WAIT-1 or LAST-ACK); a side that has closed already
    /// ignores it (usrclosed's "close in bad state"). Before the handshake ns-2 drops the
    /// connection or sends a FIN from CLOSED: not modelled.
    pub fn app_close(
        &mut self,
        s: usize,
        now: SimTime,
        ep: Endpoint,
        out: &mut Vec<Packet>,
    ) -> Result<(), String> {
        if self.fin_seq[s].is_some() {
            return Ok(());
        }
        match self.state[s] {
            State::SynReceived | State::Established | State::CloseWait => {}
            st => {
                return Err(format!(
                    "closing a FullTcp connection in state {} (before its handshake)",
                    st.name()
                ))
            }
        }
        self.close_at_sent(s, ep.sender);
        ep.sender.resume_forced(now, out, ep.sent);
        Ok(())
    }

    /// ns-2.35's `FullTcpAgent::recv`, at its end: without `halfclose_`, a side in
    /// CLOSE-WAIT whose data are all acknowledged closes as its application would
    /// (usrclosed): its FIN follows the ACK of the peer's FIN. Open exchanges only (the
    /// others close by their own rules).
    fn close_when_acked(
        &mut self,
        side: usize,
        now: SimTime,
        sender: &mut TcpSender,
        sent: &mut FlowCounters,
        out: &mut Vec<Packet>,
    ) {
        let (una, _, maxseq) = sender.seqs();
        if self.exchange == Exchange::Open
            && self.state[side] == State::CloseWait
            && self.fin_seq[side].is_none()
            && una >= maxseq
        {
            self.close_at_sent(side, sender);
            sender.resume_forced(now, out, sent);
        }
    }

    /// The initiator's application starts at `now`: the SYN leaves, with the data written
    /// behind it.
    pub fn open(&mut self, now: SimTime, ep: Endpoint, out: &mut Vec<Packet>) {
        if self.state[INITIATOR] != State::Closed {
            return;
        }
        self.state[INITIATOR] = State::SynSent;
        self.opened_at = Some(now);
        if self.exchange == Exchange::Concurrent {
            self.close(INITIATOR, ep.sender);
        }
        ep.sender.resume(now, out, ep.sent);
    }

    /// A data segment of the peer's direction arrives at side `side` (`ep` is that side's
    /// endpoint). Pure ACKs the arrival makes redundant are taken back out of `out`.
    pub fn on_segment(
        &mut self,
        side: usize,
        now: SimTime,
        pkt: &Packet,
        ep: Endpoint,
        out: &mut Vec<Packet>,
    ) {
        let peer = 1 - side;
        let mut ep = ep;
        if pkt.seq == 0 && self.ecn_syn_refused(side, now, pkt, &mut ep, out) {
            return;
        }
        let first_syn = pkt.seq == 0 && !ep.sink.has_received();
        let acks_before = ep.received.acks_sent;
        let start = out.len();
        ep.sink.on_data(now, pkt, out, ep.received);
        // The handshake's third segment stays a pure ACK (RFC 9293 figure 6, line 4).
        let mut keep = None;
        if side == ACCEPTOR && pkt.seq == 0 {
            if first_syn && self.state[ACCEPTOR] == State::Listen {
                self.state[ACCEPTOR] = State::SynReceived;
                self.accepted_at = Some(now);
                if self.exchange == Exchange::Concurrent {
                    self.close(ACCEPTOR, ep.sender);
                    ep.sender.resume(now, out, ep.sent);
                } else if self.exchange == Exchange::Open
                    && self.sizes[ACCEPTOR] != Some(0)
                    && !ep.sender.is_ns2_full_tcp()
                {
                    ep.sender.resume(now, out, ep.sent);
                } else {
                    ep.sender.open(now, out, ep.sent);
                }
            } else if self.state[ACCEPTOR] == State::SynReceived && ep.sender.is_ns2_full_tcp() {
                // ns-2.35's FullTcpAgent::recv ignores a duplicate SYN in SYN_RECEIVED (it
                // trims the SYN, sets TF_ACKNOW, then drops a segment without ACK, sending
                // nothing): its own timer resends the SYN-ACK; its next output acknowledges.
                let before = out.len();
                out.truncate(start);
                ep.received.acks_sent -= (before - start) as u64;
                self.acknow[ACCEPTOR] = true;
                return;
            } else if self.state[ACCEPTOR] == State::SynReceived {
                ep.sender.resend_syn(now, out, ep.sent);
            }
        } else if side == INITIATOR && first_syn {
            ep.sink.ack_now(now, out, ep.received);
            keep = out[start..]
                .iter()
                .rposition(|p| p.kind == PacketKind::TcpAck)
                .map(|i| start + i);
            if self.established_at.is_none() {
                self.established_at = Some(now);
                self.state[INITIATOR] = State::Established;
                if self.fin_seq[INITIATOR].is_some() {
                    self.state[INITIATOR] = State::FinWait1;
                }
            }
        }
        // The acknowledgement it carries, for this side's direction.
        if pkt.flags & tcp_flags::ACK != 0 {
            ep.sender.on_piggyback(now, pkt, out, ep.sent);
        }
        // The peer's FIN: acknowledged at once (BSD, ns-2 FullTcp: TF_ACKNOW).
        if let Some(fin) = self.fin_seq[peer] {
            if ep.sink.rcv_nxt > fin && !self.fin_received[side] {
                self.fin_received[side] = true;
                self.state[side] = self.state[side].on_fin();
                ep.sender.set_past_established();
                ep.sink.ack_now(now, out, ep.received);
                if side == INITIATOR && self.exchange == Exchange::RequestResponse {
                    self.close(INITIATOR, ep.sender);
                    ep.sender.resume(now, out, ep.sent);
                }
            }
        }
        // Request-response: the request is in, the reply and the FIN go out.
        if side == ACCEPTOR && self.exchange == Exchange::RequestResponse && !self.replied {
            let request_end = self.fin_of(INITIATOR).unwrap_or(u64::MAX);
            if ep.sink.rcv_nxt >= request_end {
                self.replied = true;
                self.close(ACCEPTOR, ep.sender);
                ep.sender.resume(now, out, ep.sent);
            }
        }
        // Data leaving now carry the acknowledgement: drop the pure ACKs made redundant.
        let data_out = out[start..]
            .iter()
            .any(|p| p.kind == PacketKind::TcpData && p.flow == self.flows[side]);
        if data_out && ep.sink.has_received() {
            let mut i = start;
            let mut removed = 0;
            out.retain(|p| {
                let k = i;
                i += 1;
                let redundant = k >= start
                    && Some(k) != keep
                    && p.kind == PacketKind::TcpAck
                    && p.flow == self.flows[peer];
                removed += u64::from(redundant);
                !redundant
            });
            debug_assert!(ep.received.acks_sent - acks_before >= removed);
            ep.received.acks_sent -= removed;
        }
        self.after_ack(side, now, ep.sender);
        self.close_when_acked(side, now, ep.sender, ep.sent, out);
        self.flush_acknow(side, start, now, &mut ep, out);
    }

    /// `TF_ACKNOW` left by an ignored duplicate SYN (`acknow`): if side `side` sent nothing
    /// since `out[start]`, a pure ACK now (FullTcpAgent::send_much, `foutput`).
    fn flush_acknow(
        &mut self,
        side: usize,
        start: usize,
        now: SimTime,
        ep: &mut Endpoint,
        out: &mut Vec<Packet>,
    ) {
        if !std::mem::take(&mut self.acknow[side]) {
            return;
        }
        let (own, peer) = (self.flows[side], self.flows[1 - side]);
        let sent = out[start..].iter().any(|p| {
            (p.kind == PacketKind::TcpData && p.flow == own)
                || (p.kind == PacketKind::TcpAck && p.flow == peer)
        });
        if !sent {
            ep.sink.ack_force(now, out, ep.received);
        }
    }

    /// A pure ACK for side `side`'s direction arrives at that side (`ep`: that side's
    /// endpoint).
    pub fn on_ack(
        &mut self,
        side: usize,
        now: SimTime,
        pkt: &Packet,
        ep: Endpoint,
        out: &mut Vec<Packet>,
    ) {
        // ns-2.35's FullTcpAgent::predict_ok, the connection's part: ESTABLISHED with no FIN
        // to send (a side that has written its FIN is FIN-WAIT-1 here), SYN/FIN/ACK flags just
        // ACK, and the segment's sequence number the next one expected (`rcv_nxt_`).
        // Timestamps (`ts() >= recent_`) always hold here: a pure ACK echoes the newest.
        let mut ep = ep;
        let start = out.len();
        if self.ecn_syn_marked(side, now, pkt, &mut ep, out) {
            return;
        }
        ep.sender.set_header_prediction(
            self.state[side] == State::Established
                && pkt.flags & (tcp_flags::SYN | tcp_flags::FIN) == 0
                && pkt.seq == ep.sink.rcv_nxt,
        );
        ep.sender.on_ack(now, pkt, out, ep.sent);
        self.after_ack(side, now, ep.sender);
        self.close_when_acked(side, now, ep.sender, ep.sent, out);
        self.flush_acknow(side, start, now, &mut ep, out);
    }

    /// State changes after side `side`'s sender processed an acknowledgement.
    fn after_ack(&mut self, side: usize, now: SimTime, sender: &TcpSender) {
        if self.state[side] == State::SynReceived && sender.una >= 1 {
            // The acceptor's SYN is acknowledged.
            self.state[side] = if self.fin_seq[side].is_some() {
                State::FinWait1
            } else {
                State::Established
            };
        }
        if let Some(fin) = self.fin_seq[side] {
            if sender.una > fin && self.fin_acked_at[side].is_none() {
                self.fin_acked_at[side] = Some(now);
                self.state[side] = self.state[side].on_fin_acked();
                if self.fin_acked_at[1 - side].is_some() {
                    self.closed_at = Some(now);
                }
            }
        }
    }

    /// Sets the control flags and the piggy-backed acknowledgement of a packet of side `s`'s
    /// direction as it leaves: a data segment from side s (`sink`: the receiver at side s),
    /// or a pure ACK from the other side (`sender`: the sender there, whose next sequence
    /// number the ACK carries, as RFC 9293's SEG.SEQ = SND.NXT).
    #[inline]
    pub fn stamp(&self, s: usize, pkt: &mut Packet, sender: &TcpSender, sink: &mut TcpSink) {
        match pkt.kind {
            PacketKind::TcpData => {
                if pkt.seq == 0 {
                    pkt.flags |= tcp_flags::SYN;
                } else if self.is_fin(s, pkt.seq) {
                    pkt.flags |= tcp_flags::FIN;
                }
                if sink.has_received() {
                    pkt.flags |= tcp_flags::ACK;
                    sink.piggyback(pkt);
                }
            }
            PacketKind::TcpAck => pkt.seq = sender.nxt,
            PacketKind::Udp => {}
        }
    }

    /// The final state of each side, by name.
    pub fn state_names(&self) -> [&'static str; 2] {
        [self.state[0].name(), self.state[1].name()]
    }
}

#[cfg(test)]
mod tests;
