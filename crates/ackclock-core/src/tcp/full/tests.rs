use super::*;
use crate::fixtures::ns2_tcp;
use crate::ids::NodeId;
use crate::tcp::sender::Recovery;

/// Both endpoints of a connection between nodes 0 and 1, wired by hand: packets are
/// handed over instantly (an event loop without a network).
struct Pair {
    conn: FullConn,
    senders: [TcpSender; 2],
    sinks: [TcpSink; 2],
    counters: [FlowCounters; 2],
    wire: Vec<Packet>,
}

impl Pair {
    fn new(exchange: Exchange, sizes: [Option<u64>; 2], sink: &str) -> Pair {
        Pair::with(exchange, sizes, sink, |_| {})
    }

    /// As `new`, with the configuration changed by `edit`.
    fn with(
        exchange: Exchange,
        sizes: [Option<u64>; 2],
        sink: &str,
        edit: impl Fn(&mut crate::scenario::TcpConfig),
    ) -> Pair {
        let mut cfg = ns2_tcp();
        cfg.syn = true;
        cfg.window = 64;
        cfg.sink = sink.parse().unwrap();
        edit(&mut cfg);
        let mk = |i: u32| {
            let (a, b) = (NodeId(i), NodeId(1 - i));
            let f = FlowId(i);
            let cc = cfg.congestion_control().unwrap();
            let mut s = TcpSender::new(f, a, b, &cfg.params(), Recovery::NewReno, cc);
            let mut k = TcpSink::new(f, b, a, &cfg.params());
            if let Some(n) = sizes[i as usize] {
                s.set_transfer(n);
                k.set_transfer(n);
                if n == 0 {
                    s.clear_transfer();
                }
            }
            (s, k)
        };
        let (s0, k0) = mk(0);
        let (s1, k1) = mk(1);
        Pair {
            conn: FullConn::new([FlowId(0), FlowId(1)], exchange, sizes, cfg.packet_size),
            senders: [s0, s1],
            sinks: [k0, k1],
            counters: [FlowCounters::default(); 2],
            wire: Vec::new(),
        }
    }

    fn stamp_all(&mut self, mut out: Vec<Packet>) {
        for p in out.iter_mut() {
            let s = p.flow.idx();
            let other = 1 - s;
            self.conn
                .stamp(s, p, &self.senders[other], &mut self.sinks[other]);
        }
        self.wire.extend(out);
    }

    fn open(&mut self, now: SimTime) {
        let mut out = Vec::new();
        let [c0, c1] = &mut self.counters;
        let ep = Endpoint {
            sender: &mut self.senders[0],
            sink: &mut self.sinks[1],
            sent: c0,
            received: c1,
        };
        self.conn.open(now, ep, &mut out);
        self.stamp_all(out);
    }

    /// Delivers the oldest packet on the wire.
    fn step(&mut self, now: SimTime) -> Option<Packet> {
        if self.wire.is_empty() {
            return None;
        }
        let pkt = self.wire.remove(0);
        let mut out = Vec::new();
        let f = pkt.flow.idx();
        match pkt.kind {
            PacketKind::TcpData => {
                let side = 1 - f;
                let [a, b] = &mut self.counters;
                let (cs, cr) = if side == 0 { (a, b) } else { (b, a) };
                let ep = Endpoint {
                    sender: &mut self.senders[side],
                    sink: &mut self.sinks[f],
                    sent: cs,
                    received: cr,
                };
                self.conn.on_segment(side, now, &pkt, ep, &mut out);
            }
            _ => {
                // Side f's sender, and its sink: the one receiving flow 1 - f's data.
                let [a, b] = &mut self.counters;
                let (cs, cr) = if f == 0 { (a, b) } else { (b, a) };
                let ep = Endpoint {
                    sender: &mut self.senders[f],
                    sink: &mut self.sinks[1 - f],
                    sent: cs,
                    received: cr,
                };
                self.conn.on_ack(f, now, &pkt, ep, &mut out);
            }
        }
        self.stamp_all(out);
        Some(pkt)
    }
}

fn flags(p: &Packet) -> u8 {
    p.flags
}

/// ns-2's FullTcp with ECN (`ecn_ 1`) on both sides and `ecn_syn_` with `wait`: the
/// pair after the SYN reached the acceptor, its SYN-ACK on the wire marked CE (as
/// `sim/two_way.rs` stamps it, ECE and ECT, and a loss model marks it).
fn marked_syn_ack(wait: u8) -> Pair {
    let mut p = Pair::with(Exchange::Open, [None, None], "ack-every", |c| {
        c.ns2_full_tcp = true;
        c.ecn = true;
    });
    p.conn.set_ecn_syn(INITIATOR, true, wait);
    p.conn.set_ecn_syn(ACCEPTOR, true, wait);
    p.open(SimTime(0));
    p.step(SimTime(1)).expect("the SYN");
    let syn_ack = p.wire.first_mut().expect("the SYN-ACK");
    assert_eq!((syn_ack.flow, syn_ack.seq), (FlowId(1), 0));
    syn_ack.ecn = ecn::ECE | ecn::ECT | ecn::CE;
    p
}

#[test]
fn ecn_syn_wait_2_refuses_a_marked_syn_ack_and_starts_from_one_segment() {
    let mut p = marked_syn_ack(2);
    // The initiator drops the SYN-ACK and answers with ECE, acknowledging nothing.
    p.step(SimTime(2));
    assert_eq!(p.conn.state[INITIATOR], State::SynSent);
    let ack = *p.wire.first().expect("the ACK with ECE");
    assert_eq!(
        (ack.kind, ack.ack, ack.ecn),
        (PacketKind::TcpAck, 0, ecn::ECE)
    );
    // The acceptor drops that ACK and sends its SYN-ACK again, no longer ECT.
    p.step(SimTime(3));
    assert_eq!(p.conn.state[ACCEPTOR], State::SynReceived);
    assert!(!p.conn.syn_ack_ect(ACCEPTOR));
    let again = p.wire.first().expect("the SYN-ACK again");
    assert_eq!((again.flow, again.seq), (FlowId(1), 0));
    // Unmarked, it opens the connection; the acceptor starts from one segment.
    p.wire[0].ecn = ecn::ECE;
    let mut t = 4;
    while p.conn.state[ACCEPTOR] != State::Established {
        p.step(SimTime(t)).expect("the handshake ends");
        t += 1;
    }
    assert_eq!(p.senders[ACCEPTOR].w.cwnd, 1.0);
}

#[test]
fn ecn_syn_wait_0_takes_a_marked_syn_ack_and_halves_a_window_of_two() {
    let mut p = marked_syn_ack(0);
    p.step(SimTime(2));
    assert_eq!(p.conn.state[INITIATOR], State::Established);
    // The handshake's ACK echoes the mark (ns-2's recent_ce_).
    let ack = p.wire.first().expect("the handshake's ACK");
    assert_eq!(ack.kind, PacketKind::TcpAck);
    assert_ne!(ack.ecn & ecn::ECE, 0);
    p.step(SimTime(3));
    assert_eq!(p.conn.state[ACCEPTOR], State::Established);
    // cwnd_ = 2, then ecn(): slowdown(CLOSE_CWND_HALF | CLOSE_SSTHRESH_HALF).
    assert_eq!(p.senders[ACCEPTOR].w.cwnd, 1.0);
    assert_eq!(p.counters[ACCEPTOR].ecn_reductions, 1);
}

#[test]
fn handshake_data_both_ways_and_close() {
    let mut p = Pair::new(
        Exchange::RequestResponse,
        [Some(1500), Some(4000)],
        "ack-every",
    );
    p.open(SimTime(0));
    let mut seen = Vec::new();
    let mut t = 1;
    while let Some(pkt) = p.step(SimTime(t)) {
        seen.push((pkt.flow.idx(), pkt.kind, pkt.seq, flags(&pkt)));
        t += 1;
        assert!(t < 1000, "the exchange does not end");
    }
    use tcp_flags::{ACK, FIN, SYN};
    // SYN, SYN-ACK, then the handshake's pure ACK.
    assert_eq!(seen[0], (0, PacketKind::TcpData, 0, SYN));
    assert_eq!(seen[1], (1, PacketKind::TcpData, 0, SYN | ACK));
    assert_eq!(seen[2].1, PacketKind::TcpAck);
    assert_eq!(seen[2].0, 1, "the ACK of the acceptor's SYN");
    // Each FIN once, carrying an ACK.
    let fins: Vec<_> = seen.iter().filter(|s| s.3 & FIN != 0).collect();
    assert_eq!(fins.len(), 2);
    assert!(fins.iter().all(|s| s.3 & ACK != 0));
    // The acceptor closed first (TIME-WAIT), the initiator followed (LAST-ACK, CLOSED).
    assert_eq!(p.conn.state, [State::Closed, State::TimeWait]);
    assert!(p.conn.closed_at.is_some());
    assert_eq!(p.counters[0].bytes_delivered, 1500);
    assert_eq!(p.counters[1].bytes_delivered, 4000);
    assert!(p.conn.established_at.unwrap() < p.conn.closed_at.unwrap());
}

#[test]
fn concurrent_data_carry_the_acknowledgements() {
    let mut p = Pair::new(
        Exchange::Concurrent,
        [Some(50_000), Some(50_000)],
        "ack-every",
    );
    p.open(SimTime(0));
    let mut t = 1;
    let (mut data, mut piggy) = (0, 0);
    while let Some(pkt) = p.step(SimTime(t)) {
        if pkt.kind == PacketKind::TcpData {
            data += 1;
            piggy += u32::from(pkt.flags & tcp_flags::ACK != 0);
        }
        t += 1;
    }
    assert_eq!(p.counters[0].bytes_delivered, 50_000);
    assert_eq!(p.counters[1].bytes_delivered, 50_000);
    assert!(p.conn.closed_at.is_some());
    // Every segment but the initiator's SYN acknowledges the other direction.
    assert_eq!(piggy, data - 1);
}

#[test]
fn an_empty_reply_still_closes_both_sides() {
    let mut p = Pair::new(Exchange::RequestResponse, [Some(10), Some(0)], "delack");
    p.open(SimTime(0));
    let mut t = 1;
    while p.step(SimTime(t)).is_some() {
        t += 1;
    }
    assert!(p.conn.closed_at.is_some(), "{:?}", p.conn.state);
    assert_eq!(p.counters[0].bytes_delivered, 10);
    assert_eq!(p.counters[1].bytes_delivered, 0);
}

#[test]
fn an_open_exchange_never_closes() {
    // ns-2's FullTcp: the listener only acknowledges, and neither side sends a FIN.
    let mut p = Pair::new(Exchange::Open, [Some(3000), Some(0)], "ack-every");
    p.open(SimTime(0));
    let mut t = 1;
    let mut fins = 0;
    while let Some(pkt) = p.step(SimTime(t)) {
        fins += u32::from(pkt.flags & tcp_flags::FIN != 0);
        t += 1;
        assert!(t < 1000, "the exchange does not settle");
    }
    assert_eq!(fins, 0);
    assert_eq!(p.counters[0].bytes_delivered, 3000);
    assert_eq!(p.conn.state, [State::Established, State::Established]);
    assert!(p.conn.closed_at.is_none());
}

#[test]
fn a_close_in_an_open_exchange_closes_both_sides() {
    // ns-2's FullTcp `close` (usrclosed): the FIN after the data sent, the peer's FIN once
    // its own data are acknowledged (halfclose_ false).
    let mut p = Pair::new(Exchange::Open, [Some(3000), Some(0)], "ack-every");
    p.open(SimTime(0));
    let mut t = 1;
    while p.step(SimTime(t)).is_some() {
        t += 1;
    }
    let mut out = Vec::new();
    let [c0, _] = &mut p.counters;
    let ep = Endpoint {
        sender: &mut p.senders[0],
        sink: &mut p.sinks[1],
        sent: c0,
        received: &mut FlowCounters::default(),
    };
    p.conn
        .app_close(INITIATOR, SimTime(t), ep, &mut out)
        .unwrap();
    assert_eq!(out.len(), 1, "the FIN alone");
    p.stamp_all(out);
    let mut fins = Vec::new();
    while let Some(pkt) = p.step(SimTime(t)) {
        if pkt.flags & tcp_flags::FIN != 0 {
            fins.push((pkt.flow.idx(), pkt.seq, pkt.size));
        }
        t += 1;
        assert!(t < 1000, "the close does not settle");
    }
    // 3000 bytes are 3 segments of 1000 after the SYN: the initiator's FIN is segment 4,
    // the listener's (it sent only its SYN-ACK) segment 1.
    let header = ns2_tcp().header_size;
    assert_eq!(fins, [(0, 4, header), (1, 1, header)]);
    assert_eq!(p.conn.sizes, [Some(3000), Some(0)]);
    assert_eq!(p.conn.state, [State::TimeWait, State::Closed]);
    assert!(p.conn.closed_at.is_some());
}

#[test]
fn ns2_full_tcp_cwnd_stops_at_the_window() {
    // ns-2.35's FullTcpAgent::recv, header prediction: a pure ACK of new data, short of
    // maxseq_, while cwnd_ >= wnd_ and nothing special (no retransmission under way, no
    // ECN-Echo, no SACK blocks) only updates the timers and sends: cwnd_ stops at the
    // first value at or above window_. Without ns2_full_tcp every new ACK opens cwnd.
    for full in [false, true] {
        let mut p = Pair::with(Exchange::Open, [Some(300_000), Some(0)], "ack-every", |c| {
            c.window = 8;
            c.ns2_full_tcp = full;
        });
        p.open(SimTime(0));
        let mut t = 1;
        // The largest cwnd while data are outstanding (the ACK of everything sent takes
        // FullTcpAgent::recv's full path, which opens cwnd_ once more).
        let mut peak: f64 = 0.0;
        while p.step(SimTime(t)).is_some() {
            t += 1;
            assert!(t < 100_000, "the transfer does not end");
            let s = &p.senders[0];
            if s.una < s.maxseq {
                peak = peak.max(s.w.cwnd);
            }
        }
        assert_eq!(p.counters[0].bytes_delivered, 300_000);
        if full {
            assert_eq!(peak, 8.0, "cwnd_ held at window_");
        } else {
            assert!(peak > 9.0, "cwnd {peak} kept opening");
        }
    }
}

#[test]
fn fin_numbers_follow_the_data() {
    let c = FullConn::new(
        [FlowId(0), FlowId(1)],
        Exchange::Concurrent,
        [Some(1000), Some(0)],
        1000,
    );
    assert_eq!(c.fin_of(0), Some(2));
    assert_eq!(c.fin_of(1), Some(1));
    let e = FullConn::new(
        [FlowId(0), FlowId(1)],
        Exchange::Concurrent,
        [None; 2],
        1000,
    );
    assert_eq!(e.fin_of(0), None);
}
