//! The simulator's side of two-way TCP connections (`tcp/full.rs`): it builds them from the
//! scenario, hands each arriving segment to its endpoint, stamps the flags and piggy-backed
//! acknowledgements on packets as they leave, and reports the connections.
//!
//! A connection is two scenario flows (one per direction of data); an endpoint is the
//! sender of one and the sink of the other; their flows have `Role::TwoWay`, whose kind
//! ([`TwoWay`]'s `Kind`) is all the per-packet glue knows of them.
//!
//! This file is a child module of `sim`, so it reads the simulator's private state without
//! widening its interface.

use super::flow::{Kind, TwoWay};
use super::report::{span_s, ConnRow};
use super::{Agent, Flow, Role, Simulator};
use crate::ids::FlowId;
use crate::monitor::FlowCounters;
use crate::packet::{ecn, tcp_flags, Packet, PacketKind};
use crate::packet_pool::PacketRef;
use crate::scenario::{AppConfig, Scenario};
use crate::tcp::full::{Endpoint, Exchange, FullConn, ACCEPTOR, INITIATOR};
use crate::time::SimTime;
use crate::trace::packets::{FullSeq, SeqBytes};

/// The connections of the scenario's two-way flows; marks their flows (the acceptor's
/// starts only when the SYN arrives).
pub(super) fn build(sc: &Scenario, flows: &mut [Flow]) -> Result<Vec<FullConn>, String> {
    let mut conns = Vec::new();
    for (i, f) in sc.flows.iter().enumerate() {
        let Some(c) = f.connection.as_ref().filter(|c| c.initiator) else {
            continue;
        };
        let j = c.peer as usize;
        let exchange = c.exchange;
        let size = |k: usize| match &sc.flows[k].app {
            AppConfig::Ftp { size_bytes, .. } => *size_bytes,
            _ => None,
        };
        let sizes = [size(i), size(j)];
        let mss = f.tcp.as_ref().map_or(1, |t| t.packet_size);
        let id = conns.len() as u32;
        flows[i].role = Role::TwoWay(id, INITIATOR as u8);
        flows[j].role = Role::TwoWay(id, ACCEPTOR as u8);
        flows[j].start = SimTime(u64::MAX);
        for (k, s) in [(i, sizes[0]), (j, sizes[1])] {
            if s == Some(0) {
                if let Agent::Tcp { sender, .. } = &mut flows[k].agent {
                    sender.clear_transfer(); // nothing but the SYN and the FIN
                }
            }
        }
        let ids = [FlowId(i as u32), FlowId(j as u32)];
        conns.push(FullConn::new(ids, exchange, sizes, mss));
    }
    Ok(conns)
}

/// How flow `i`'s packets number their bytes in packet traces, if it is a direction of a
/// two-way connection.
pub(super) fn trace_seq(sc: &Scenario, i: usize) -> Option<FullSeq> {
    let c = sc.flows[i].connection.as_ref()?;
    let numbering = |k: usize| {
        let f = &sc.flows[k];
        SeqBytes {
            mss: f.tcp.as_ref().map_or(1, |t| t.packet_size),
            bytes: match &f.app {
                AppConfig::Ftp { size_bytes, .. } => *size_bytes,
                _ => None,
            },
            iss: 0,
            msgs: Vec::new(),
        }
    };
    Some(FullSeq {
        own: numbering(i),
        peer: numbering(c.peer as usize),
    })
}

/// The endpoint made of flow `own`'s sender and flow `other`'s sink.
fn endpoint<'a>(
    flows: &'a mut [Flow],
    counters: &'a mut [FlowCounters],
    own: usize,
    other: usize,
) -> Endpoint<'a> {
    let [fo, ft] = flows
        .get_disjoint_mut([own, other])
        .expect("a connection's two flows");
    let [sent, received] = counters
        .get_disjoint_mut([own, other])
        .expect("a connection's two flows");
    let (Agent::Tcp { sender, .. }, Agent::Tcp { sink, .. }) = (&mut fo.agent, &mut ft.agent)
    else {
        unreachable!("a connection's flows are TCP");
    };
    Endpoint {
        sender,
        sink,
        sent,
        received,
    }
}

impl Kind for TwoWay {
    /// The connection's flags and piggy-backed acknowledgement first.
    #[inline(never)]
    fn send(self, sim: &mut Simulator, r: PacketRef, later: &[PacketRef]) {
        sim.full_stamp(self, r, later);
        let (src, c) = sim.enter(r);
        sim.forward_carried(src, c);
    }

    /// To the connection's endpoint.
    #[inline(never)]
    fn receive(self, sim: &mut Simulator, pkt: &Packet) {
        sim.full_receive(self, pkt);
    }

    #[inline(always)]
    fn dropped(self, _sim: &mut Simulator, _pkt: &Packet) {}

    fn start(self, sim: &mut Simulator, _f: FlowId) {
        sim.full_app_start(self);
    }

    fn stop(self, sim: &mut Simulator, _f: FlowId) {
        sim.full_app_stop(self);
    }
}

impl Simulator {
    /// A packet of a two-way connection reaches its destination.
    fn full_receive(&mut self, k: TwoWay, pkt: &Packet) {
        let f = pkt.flow.idx();
        let (c, s) = (k.conn as usize, k.side as usize);
        let now = self.now;
        let mut out = std::mem::take(&mut self.scratch);
        let conn = &mut self.full[c];
        let sizes = conn.sizes;
        match pkt.kind {
            PacketKind::TcpData => {
                // Side 1 - s receives side s's data.
                self.packets_delivered += 1;
                let side = 1 - s;
                let own = conn.flows[side].idx();
                let accepted = conn.accepted_at.is_some();
                let ep = endpoint(&mut self.flows, &mut self.counters, own, f);
                conn.on_segment(side, now, pkt, ep, &mut out);
                if !accepted && conn.accepted_at.is_some() {
                    self.flows[own].start = now;
                }
            }
            PacketKind::TcpAck => {
                // Side s's own direction is acknowledged: its sender and its sink (of the
                // reverse flow).
                let other = conn.flows[1 - s].idx();
                let ep = endpoint(&mut self.flows, &mut self.counters, f, other);
                conn.on_ack(s, now, pkt, ep, &mut out);
            }
            PacketKind::Udp => unreachable!("a connection's flows are TCP"),
        }
        let flows = conn.flows;
        if conn.sizes != sizes {
            self.full_sizes_known(c, sizes);
        }
        self.full_events(c);
        self.send_full(out);
        self.sync_timers(flows[0]);
        self.sync_timers(flows[1]);
    }

    /// A side of connection `c` closed during the run and so has a size now (it had
    /// `before`): the packet traces number its FIN and the ACKs of it.
    #[cold]
    fn full_sizes_known(&mut self, c: usize, before: [Option<u64>; 2]) {
        let conn = &self.full[c];
        for (s, was) in before.into_iter().enumerate() {
            if let (Some(bytes), true) = (conn.sizes[s], conn.sizes[s] != was) {
                let (own, peer) = (conn.flows[s].idx(), conn.flows[1 - s].idx());
                if let Some(t) = self.traces.as_mut() {
                    t.set_full_bytes(own, peer, bytes);
                }
            }
        }
        self.full_messages_known(c);
    }

    /// The packet traces number connection `c`'s byte streams (`tcp/sender/stream.rs`) by
    /// their messages as they stand now (a FIN written at a close included).
    #[cold]
    fn full_messages_known(&mut self, c: usize) {
        let Some(t) = self.traces.as_mut() else {
            return;
        };
        let flows = self.full[c].flows;
        for s in 0..2 {
            let (own, peer) = (flows[s].idx(), flows[1 - s].idx());
            if let Agent::Tcp { sender, .. } = &self.flows[own].agent {
                let table = sender.stream_table();
                if !table.is_empty() {
                    t.set_full_messages(own, peer, &table);
                }
            }
        }
    }

    /// Side `k.side`'s application closes the connection (ns-2's `$agent close`,
    /// `FullTcpAgent::usrclosed`): its FIN follows the data it has sent.
    pub(super) fn full_close(&mut self, k: TwoWay) -> Result<(), String> {
        let (c, s) = (k.conn as usize, k.side as usize);
        let now = self.now;
        let conn = &mut self.full[c];
        let sizes = conn.sizes;
        let (own, other) = (conn.flows[s], conn.flows[1 - s]);
        let mut out = std::mem::take(&mut self.scratch);
        let ep = endpoint(&mut self.flows, &mut self.counters, own.idx(), other.idx());
        let done = conn.app_close(s, now, ep, &mut out);
        if self.full[c].sizes != sizes {
            self.full_sizes_known(c, sizes);
        }
        self.full_events(c);
        self.send_full(out);
        self.sync_timers(own);
        self.sync_timers(other);
        done
    }

    /// The congestion events connection `c`'s senders traced (ns-2's `E` lines), written
    /// before the packets the same event sends.
    #[inline]
    fn full_events(&mut self, c: usize) {
        for f in self.full[c].flows {
            self.agent_events(f);
        }
    }

    /// Sends the packets a connection's endpoints wrote into `out`, and keeps the vector.
    fn send_full(&mut self, mut out: Vec<Packet>) {
        let mut sent = std::mem::take(&mut self.sent_refs);
        sent.extend(out.drain(..).map(|p| self.pool.put(p)));
        self.scratch = out;
        self.send_pooled(sent);
    }

    /// Sets flags and piggy-backed acknowledgements on the pool's packet `r` of connection
    /// `k` about to leave (see `FullConn::stamp`); `later`: the packets of the same batch
    /// still to go.
    fn full_stamp(&mut self, k: TwoWay, r: PacketRef, later: &[PacketRef]) {
        let (c, s) = (k.conn as usize, k.side as usize);
        let conn = &self.full[c];
        let reverse = conn.flows[1 - s];
        let p = self.pool.get_mut(r);
        let mut peer_ecn = false;
        if let Agent::Tcp { sender, sink } = &mut self.flows[reverse.idx()].agent {
            conn.stamp(s, p, sender, sink);
            peer_ecn = sender.is_ecn();
        }
        // ns-2.35's FullTcpAgent::foutput sets PUSH on the segment that empties the send
        // buffer (seqno + datalen > curseq_), a pure ACK included once all is sent; the ns-2
        // trace shows it (trace/packets/ns2.rs).
        let data = p.kind == PacketKind::TcpData;
        let own = if data { p.flow } else { reverse };
        // A pure ACK leaving before new segments of its batch bears the first one's
        // sequence number (below), which is foutput's `seqno` for it.
        let first_new = if data {
            None
        } else {
            let pool = &self.pool;
            later
                .iter()
                .map(|&q| pool.get(q))
                .find(|q| q.flow == reverse && q.kind == PacketKind::TcpData && !q.retransmit)
                .map(|q| q.seq)
        };
        let p = self.pool.get_mut(r);
        if let Agent::Tcp { sender, .. } = &self.flows[own.idx()].agent {
            if sender.is_ns2_full_tcp() {
                let edge = if data {
                    p.seq + 1
                } else {
                    first_new.unwrap_or(sender.nxt)
                };
                if edge >= sender.app_limit() {
                    p.flags |= tcp_flags::PSH;
                }
                if data && p.retransmit && conn.fin_rides_on(s, p.seq) {
                    p.flags |= tcp_flags::FIN;
                }
                // FullTcpAgent::foutput with ecn_: the SYN carries ECE and CWR, the SYN-ACK
                // ECE alone (RFC 3168 6.1.1's ECN-setup segments), neither of them ECT
                // (`ecn_syn_` false); the receiving end does not read that ECE as a
                // congestion signal (`TcpSender::process_ack`).
                if data && p.seq == 0 && p.ecn & ecn::ECT != 0 {
                    p.ecn = if p.flags & tcp_flags::ACK == 0 {
                        ecn::ECE | ecn::CWR
                    } else if peer_ecn && conn.syn_ack_ect(s) {
                        // `ecn_syn_` (RFC 5562): the SYN-ACK answering an ECN-setup SYN is
                        // ECT (FullTcpAgent::sendpacket).
                        ecn::ECE | ecn::ECT
                    } else {
                        ecn::ECE
                    };
                }
            }
        }
        // A pure ACK left before the new segments that follow it in the batch: its
        // sequence number is the first of them (SND.NXT when it was sent).
        if let Some(seq) = first_new {
            p.seq = seq;
        }
    }

    /// The application of a two-way flow starts: the initiator opens the connection (the
    /// acceptor starts when the SYN arrives).
    #[inline(never)]
    fn full_app_start(&mut self, k: TwoWay) {
        let (c, s) = (k.conn, k.side);
        if s as usize != INITIATOR {
            return;
        }
        let conn = &mut self.full[c as usize];
        let [i, j] = conn.flows;
        let mut out = std::mem::take(&mut self.scratch);
        let ep = endpoint(&mut self.flows, &mut self.counters, i.idx(), j.idx());
        conn.open(self.now, ep, &mut out);
        self.full_events(c as usize);
        self.send_full(out);
        self.sync_timers(i);
        self.sync_timers(j);
    }

    /// Side `k.side`'s application gives data up to segment `limit` (not included; the SYN is
    /// segment 0): ns-2.35's `FullTcpAgent::advance_bytes` (FTP `produce`, `producemore`,
    /// `advance-bytes`). A closed initiator opens the connection first (CLOSED: `connect`);
    /// a side that has seen the peer's SYN queues the data, sent once the window allows
    /// (`send_much` when ESTABLISHED). Data for a side still listening would make it open the
    /// connection itself (a simultaneous open), not modelled.
    pub(super) fn full_advance(&mut self, k: TwoWay, limit: u64) -> Result<(), String> {
        self.full_give(k, limit, false)
    }

    /// As `full_advance`, with the application's data counted in bytes: `total` payload bytes
    /// given in all, a part of a segment allowed (ns-2.35's `FullTcpAgent::advance_bytes`,
    /// `sendmsg`; `tcp/sender/stream.rs`).
    pub(super) fn full_advance_bytes(&mut self, k: TwoWay, total: u64) -> Result<(), String> {
        self.full_give(k, total, true)
    }

    fn full_give(&mut self, k: TwoWay, amount: u64, bytes: bool) -> Result<(), String> {
        let (c, s) = (k.conn as usize, k.side as usize);
        let now = self.now;
        let conn = &mut self.full[c];
        if s == ACCEPTOR && conn.accepted_at.is_none() {
            return Err(
                "data for a listening side before the peer's SYN arrived (ns-2 then \
                        opens from both sides at once)"
                    .into(),
            );
        }
        if conn.has_closed(s) {
            return Err("data for a FullTcp agent after its close".into());
        }
        let (own, other) = (conn.flows[s], conn.flows[1 - s]);
        if bytes {
            // Written before a closed initiator opens: the opening sends what was given.
            let ep = endpoint(&mut self.flows, &mut self.counters, own.idx(), other.idx());
            ep.sender.write_stream(amount)?;
        }
        let mut out = std::mem::take(&mut self.scratch);
        if s == INITIATOR && conn.state[INITIATOR] == crate::tcp::full::State::Closed {
            if self.flows[own.idx()].start > now {
                self.flows[own.idx()].start = now;
            }
            let ep = endpoint(&mut self.flows, &mut self.counters, own.idx(), other.idx());
            conn.open(now, ep, &mut out);
        }
        let ep = endpoint(&mut self.flows, &mut self.counters, own.idx(), other.idx());
        if bytes {
            ep.sender.resume(now, &mut out, ep.sent);
            let table = ep.sender.stream_table();
            if let Some(t) = self.traces.as_mut() {
                t.set_full_messages(own.idx(), other.idx(), &table);
            }
        } else {
            ep.sender.advance_to(amount, now, &mut out, ep.sent);
        }
        self.full_events(c);
        self.send_full(out);
        self.sync_timers(own);
        self.sync_timers(other);
        Ok(())
    }

    /// The application stops: neither side writes new data (what was sent is recovered).
    fn full_app_stop(&mut self, k: TwoWay) {
        let c = k.conn;
        for g in self.full[c as usize].flows {
            if let Agent::Tcp { sender, .. } = &mut self.flows[g.idx()].agent {
                sender.stop();
            }
        }
    }

    /// The two-way connections' rows of the connections table (`sim/report.rs`).
    pub(super) fn full_connection_rows(&self) -> impl Iterator<Item = ConnRow> + '_ {
        let secs = |t: Option<SimTime>| t.map_or(f64::NAN, |t| t.as_secs_f64());
        let delivered = |c: &FullConn, s: usize| self.counters[c.flows[s].idx()].bytes_delivered;
        self.full.iter().map(move |c| ConnRow {
            flow: self.scenario.flows[c.flows[0].idx()].name.clone(),
            connection: 0,
            kind: match c.exchange {
                Exchange::RequestResponse => "seq",
                Exchange::Concurrent => "conc",
                Exchange::Open => "open",
            },
            start_s: secs(c.opened_at),
            finish_s: secs(c.closed_at),
            duration_s: span_s(c.opened_at, c.closed_at),
            min_rtt_s: f64::NAN,
            adus: c.sizes.iter().filter(|s| **s != Some(0)).count() as u64,
            adus_delivered: (0..2)
                .filter(|&s| c.sizes[s].is_some_and(|b| b > 0 && delivered(c, s) == b))
                .count() as u64,
            bytes: [c.sizes[0].unwrap_or(0), c.sizes[1].unwrap_or(0)],
            delivered: [delivered(c, 0), delivered(c, 1)],
            setup_s: span_s(c.opened_at, c.established_at),
            states: c.state_names(),
        })
    }

    /// The highest segment of flow `f`'s reverse direction ever sent, if `f` is a
    /// connection's direction (the invariant checker bounds piggy-backed ACKs by it).
    pub(super) fn full_reverse_maxseq(&self, f: usize) -> Option<u64> {
        let (c, s) = self.flows.get(f)?.full()?;
        let reverse = self.full[c as usize].flows[1 - s as usize].idx();
        match &self.flows[reverse].agent {
            Agent::Tcp { sender, .. } => Some(sender.maxseq),
            _ => None,
        }
    }
}
