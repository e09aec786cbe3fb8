//! What the application and a two-way connection ask of the sender: a transfer's size and
//! ADUs, the SYN and its retransmission, piggy-backed acknowledgements, writes, start, resume
//! and stop.

use super::*;

impl TcpSender {
    /// Makes the application a finite transfer of `bytes` payload bytes (at least 1): whole
    /// segments and a last one with the remainder, after the SYN if there is one.
    pub fn set_transfer(&mut self, bytes: u64) {
        self.clear_transfer();
        self.push_adu(bytes);
    }

    /// Forgets the messages written (before the application starts): nothing to send yet.
    pub fn clear_transfer(&mut self) {
        self.adus.clear();
        self.data_end = 0;
        if let Some(s) = self.stream.as_deref_mut() {
            s.seq_ends.clear();
        }
    }

    /// Appends a message of `bytes` payload bytes (0: a header-only segment, such as a FIN)
    /// and returns one past its last segment. The application sends it with `resume`.
    pub fn push_adu(&mut self, bytes: u64) -> u64 {
        let payload = self.payload as u64;
        // Segment 0 is the SYN, acknowledged or not, when the flow opens with one.
        let first = self
            .adus
            .last()
            .map_or(u64::from(self.syn), |&(end, _)| end);
        let segments = bytes.div_ceil(payload).max(1);
        let last = bytes - (segments - 1).min(bytes / payload) * payload;
        let end = first + segments;
        self.adus.push((end, self.header_size + last as u32));
        if bytes > 0 {
            self.data_end = end;
        }
        self.stream_pushed(bytes);
        end
    }

    /// Opens the connection with nothing written yet: only the SYN may leave (the passive
    /// side of a two-way connection before its application writes, `tcp/full.rs`).
    pub fn open(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.app_limit = u64::from(self.syn);
        self.send_much(now, out, c);
        if self.rto_deadline.is_none() && self.una < self.maxseq {
            self.arm_timer(now);
        }
    }

    /// Sends the SYN again while it is unacknowledged: a passive opener answers a
    /// retransmitted SYN with its SYN-ACK again, as Linux's `tcp_check_req` does
    /// (`inet_rtx_syn_ack`), so that a lost SYN-ACK costs the initiator's SYN timeout only.
    pub fn resend_syn(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        if self.syn_pending && self.una == 0 && self.maxseq > 0 {
            self.emit(0, now, out, c);
        }
    }

    /// Restarts the timer of the SYN still unacknowledged (ns-2.35's `set_rtx_timer` in
    /// `FullTcpAgent::recv`, SYN_SENT, on a CE-marked SYN-ACK with `ecn_syn_wait_` 2).
    pub fn restart_syn_timer(&mut self, now: SimTime) {
        if self.syn_pending && self.una == 0 && self.maxseq > 0 {
            self.arm_timer(now);
        }
    }

    /// Sends the SYN-ACK again now, its timer restarted (ns-2.35's `FullTcpAgent::recv` in
    /// SYN_RECEIVED with `ecn_syn_wait_` 2: `cancel_rtx_timer`, then `foutput(iss_)`).
    pub fn resend_syn_now(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        if self.syn_pending && self.una == 0 && self.maxseq > 0 {
            self.emit(0, now, out, c);
            self.arm_timer(now);
        }
    }

    /// An acknowledgement carried by a data segment of the reverse direction (a two-way
    /// connection, `tcp/full.rs`). When it acknowledges new data it is an ACK like any
    /// other. Otherwise it is no duplicate ACK: RFC 5681 section 2 counts only segments that
    /// carry no data (BSD and Linux's `FLAG_NOT_DUP` agree), so Reno and NewReno ignore it;
    /// with SACK it counts when its blocks report data not SACKed before, "even if it
    /// carries new data" (RFC 6675 section 2, DupAck).
    pub fn on_piggyback(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        if pkt.ack > self.una && pkt.ack <= self.maxseq {
            self.on_ack(now, pkt, out, c);
            return;
        }
        if pkt.ack != self.una || self.una >= self.maxseq || pkt.sack.is_empty() {
            return;
        }
        let new = self
            .scoreboard
            .as_ref()
            .is_some_and(|sb| sb.reports_new(pkt.ack, pkt.sack.iter(pkt.ack)));
        if new {
            self.on_ack(now, pkt, out, c);
        }
    }

    /// Sends what the window allows of the messages written so far.
    pub fn resume(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.app_limit = match self.stream_bytes {
            // A byte stream goes out in full segments only, as Nagle's algorithm holds a
            // partial one back while data are outstanding.
            Some(b) => u64::from(self.syn) + b / self.payload as u64,
            None => self.adus.last().map_or(u64::MAX, |&(end, _)| end),
        };
        self.send_much(now, out, c);
        if self.rto_deadline.is_none() && self.una < self.maxseq {
            self.arm_timer(now);
        }
    }

    /// As `resume`, but the next new segment leaves first whatever the window: ns-2.35's
    /// `FullTcpAgent::send_much` with `force` set, as `usrclosed` calls it, so that a FIN
    /// leaves at the close even when the window is full (`send_allowed` would never let it
    /// go: `curseq_` stops below it).
    pub fn resume_forced(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.app_limit = self.adus.last().map_or(u64::MAX, |&(end, _)| end);
        if self.nxt == self.maxseq && self.nxt < self.app_limit {
            self.emit(self.nxt, now, out, c);
            self.nxt += 1;
        }
        self.resume(now, out, c);
    }

    /// Lets the application's data go up to segment `limit` (not included), segments counted
    /// as the sender numbers them (a SYN is segment 0), and sends what the window allows now:
    /// ns-2's one-way `TcpAgent` (tcp.cc), whose `advanceby`, `advance` and `sendmsg` (FTP
    /// `producemore`, `produce`, `send`) set `curseq_` and call `send_much`, which sends the
    /// segments below it. `u64::MAX` is an endless transfer, as `send -1` (FTP `start`).
    pub fn advance_to(
        &mut self,
        limit: u64,
        now: SimTime,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) {
        self.app_limit = limit;
        self.send_much(now, out, c);
        if self.rto_deadline.is_none() && self.una < self.maxseq {
            self.arm_timer(now);
        }
    }

    /// One past the last segment the application has given (`u64::MAX`: endless).
    pub fn app_limit(&self) -> u64 {
        self.app_limit
    }

    /// `ns2_full_tcp`: whether the pure ACK about to be handed to `on_ack` passes the
    /// connection's part of ns-2.35's `FullTcpAgent::predict_ok` (ESTABLISHED, no FIN to
    /// send, only ACK among SYN/FIN/ACK, its sequence number the next one expected); the
    /// sender checks the rest.
    pub fn set_header_prediction(&mut self, ok: bool) {
        self.header_predicted = ok && self.full_tcp;
    }

    /// `ns2_full_tcp`: the connection has left ESTABLISHED (FIN-WAIT-1, CLOSE-WAIT and
    /// later), so new ACKs open no window: ns-2.35's `FullTcpAgent::recv` calls `opencwnd`
    /// only when the state at the segment's arrival (`last_state_`) was ESTABLISHED.
    pub fn set_past_established(&mut self) {
        self.full_past_established = self.full_tcp;
    }

    /// The ACK of this FullTcp acceptor's SYN-ACK sets cwnd to `window` segments instead of
    /// the initial window, and with `cut` its ECN-Echo then halves it (ns-2.35's
    /// `FullTcpAgent::recv` in SYN_RECEIVED with `ecn_syn_`, `tcp/full.rs`).
    pub fn set_syn_window(&mut self, window: f64, cut: bool) {
        self.syn_window = Some((window, cut));
    }

    /// Whether the sender is ECN-capable (`TcpConfig::ecn`).
    #[inline]
    pub fn is_ecn(&self) -> bool {
        self.ecn
    }

    /// Whether the connection opens with a handshake (`syn`).
    #[inline]
    pub fn has_syn(&self) -> bool {
        self.syn
    }

    /// Whether this sender follows ns-2.35's FullTcpAgent (`ns2_full_tcp`).
    pub fn is_ns2_full_tcp(&self) -> bool {
        self.full_tcp
    }

    /// The first unacknowledged segment, the next to send and one past the highest sent:
    /// ns-2's `highest_ack_` + 1, `t_seqno_` and `maxseq_` + 1.
    pub fn seqs(&self) -> (u64, u64, u64) {
        (self.una, self.nxt, self.maxseq)
    }

    /// The application starts: an endless bulk transfer, or the finite one set.
    pub fn start(&mut self, now: SimTime, out: &mut impl Outgoing, c: &mut FlowCounters) {
        self.resume(now, out, c);
    }

    /// A rate-limited application (ns-3's `MyApp`, CBR over TCP) writes `bytes` more into
    /// the byte stream; full segments leave as the window allows. With a send buffer
    /// (`snd_buffer`) a write that does not fit in what the buffer has left fails and is
    /// lost to the stream (returns false): ns-3's `TcpSocketBase::Send` refuses a packet
    /// larger than `TcpTxBuffer::Available` (the buffer's size less the bytes from SND.UNA
    /// to the last written), and `OnOffApplication::SendPacket` tries the same packet again
    /// at its next tick, `MyApp` writes the next one (the same bytes either way).
    pub fn write(
        &mut self,
        now: SimTime,
        bytes: u64,
        out: &mut impl Outgoing,
        c: &mut FlowCounters,
    ) -> bool {
        let written = self.stream_bytes.unwrap_or(0);
        if let Some(buffer) = self.snd_buffer_bytes {
            let acked = self.una.saturating_sub(u64::from(self.syn)) * u64::from(self.payload);
            if written.saturating_sub(acked) + bytes > buffer {
                return false;
            }
        }
        self.stream_bytes = Some(written + bytes);
        self.resume(now, out, c);
        true
    }

    /// The wire size of segment `seq` (after the SYN) when the data are messages.
    pub(super) fn message_segment_size(&self, seq: u64) -> u32 {
        let i = self.adus.partition_point(|&(end, _)| end <= seq);
        match self.adus.get(i) {
            Some(&(end, last)) if seq + 1 == end => last,
            _ => self.wire_size,
        }
    }

    /// The application stops: no new data, but what was sent is still recovered. With a send
    /// buffer (`snd_buffer`, ns-3's `SndBufSize`) the data it holds still go out: a bulk
    /// application keeps it full, so it holds everything up to the buffer's size past the
    /// first unacknowledged segment (ns-3: `BulkSendApplication::StopApplication` closes the
    /// socket, and `TcpSocketBase::Close` sends the buffer before the FIN), in whole
    /// segments.
    pub fn stop(&mut self) {
        let segs = self
            .snd_buffer_bytes
            .map(|b| b / u64::from(self.payload.max(1)));
        let buffered = segs.map_or(0, |b| self.una + b);
        self.app_limit = self.maxseq.max(buffered.min(self.app_limit));
    }
}
