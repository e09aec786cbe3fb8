//! ns-2's packet trace line (`$ns trace-all`, trace/trace.cc `Trace::format` in ns-2.35):
//!
//! ```text
//! event time from to type size flags fid src.port dst.port seq id
//! +     0.1  0    1  tcp  1040 ------N 1  0.0      2.0      1   21
//! ```
//!
//! `event` is `+` (enqueued), `-` (starts transmission), `r` (received at `to`) or `d`
//! (dropped); `time` is rounded to the microsecond and printed like C's `%.15g`; the seven
//! flag characters are ECN-Echo `C`, priority `P`, unused, congestion action (CWR) `A`, CE
//! `E`, fast start `F` and ECN-capable `N`; TCP data carry their segment number, ACKs the
//! highest in-order segment received (ns-2's `ackno`), UDP datagrams their own count.
//!
//! Two-way connections (`tcp/full.rs`) are numbered in bytes, as ns-2's FullTcp traces
//! are: the SYN is byte 0, data start at byte 1, pure ACKs carry their sender's next
//! sequence number. With `tcp_header` (ns-2's `Trace set show_tcphdr_ 1`) each line ends
//! with `ackno 0xflags hlen sa_length`: the acknowledgement number, the TCP flags (FIN 0x01,
//! SYN 0x02, PUSH 0x08, ACK 0x10, ECE 0x40, CWR 0x80), the header bytes and the number of
//! SACK blocks; on two-way connections as ns-2.35's FullTcpAgent::foutput and ::sendpacket
//! set them (ackno -1 before the peer's SYN, PUSH on a dataless SYN and on segments that
//! empty the send buffer, CWR with the congestion-action mark).

use std::io::{self, Write};

use super::FullSeq;
use crate::packet::{ecn, tcp_flags, Packet, PacketKind};
use crate::time::SimTime;

/// What a line reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    Enqueue,
    Dequeue,
    Receive,
    Drop,
    /// Taken by the link's loss model after crossing it: a `d` line, as ns-2 writes it when
    /// the loss model's drop target is a trace, selectable apart from queue drops.
    Lost,
    /// Entering the link ahead of the loss model at its entry: a `+` line of every packet
    /// offered, as it was before the model marked or took it. A trace has it instead of
    /// [`TraceEvent::Enqueue`] on the links `TraceConfig::ahead_of_loss` names (in ns-2, a
    /// trace-queue made after the link's `errormodule`: both go to the link's head, the later
    /// first, ns-link.tcl's `add-to-head`).
    EnqueueAhead,
}

impl TraceEvent {
    /// The event a trace's `events` list names: `+`, `-`, `r`, `d` (queue drops), `lost`.
    pub fn named(name: &str) -> Option<TraceEvent> {
        Some(match name {
            "+" => TraceEvent::Enqueue,
            "-" => TraceEvent::Dequeue,
            "r" => TraceEvent::Receive,
            "d" => TraceEvent::Drop,
            "lost" => TraceEvent::Lost,
            _ => return None,
        })
    }

    pub fn symbol(self) -> u8 {
        match self {
            TraceEvent::Enqueue | TraceEvent::EnqueueAhead => b'+',
            TraceEvent::Dequeue => b'-',
            TraceEvent::Receive => b'r',
            TraceEvent::Drop | TraceEvent::Lost => b'd',
        }
    }

    /// The bit of this event in a per-link event mask.
    pub fn bit(self) -> u8 {
        match self {
            TraceEvent::Enqueue => 1,
            TraceEvent::Dequeue => 2,
            TraceEvent::Receive => 4,
            TraceEvent::Drop => 8,
            TraceEvent::Lost => 16,
            TraceEvent::EnqueueAhead => 32,
        }
    }
}

/// How a flow's packets are labelled in a trace.
#[derive(Clone, Debug)]
pub struct FlowLabel {
    /// ns-2 `fid_`.
    pub fid: u32,
    /// ns-2 port numbers of the sending and receiving agents.
    pub sport: u32,
    pub dport: u32,
    /// Packet type of the data packets (`tcp`, `cbr`, `exp`, ...).
    pub data_type: &'static str,
    /// Packet type of the ACKs: `ack`, except on the reply direction of a two-way
    /// connection whose acceptor sends no data (ns-2's listening FullTcp agent): there the
    /// acceptor's own segments are `ack` and the initiator's ACKs `tcp`, as ns-2 labels them
    /// by the agent that sends them.
    pub ack_type: &'static str,
    /// Header bytes of a data packet (`hlen` with `tcp_header`).
    pub header: u32,
    /// A direction of a two-way connection: byte sequence numbers.
    pub full: Option<FullSeq>,
    /// The data's sequence number prints as 0: ns-2's trace reads it from a header the
    /// sending agent never fills (a TCP or TFRC agent's segments renamed `exp` or `pareto`
    /// by its application: `Trace::get_seqno` reads their RTP header).
    pub unnumbered: bool,
}

/// Appends the time as ns-2 prints it: microseconds, then `%.15g`.
pub fn write_time(out: &mut Vec<u8>, t: SimTime) {
    let us = (t.0 + 500_000) / 1_000_000;
    if us == 0 {
        out.push(b'0');
        return;
    }
    if us < 100 {
        // %g switches to an exponent below 1e-4: 3.2e-05.
        let digits = us.to_string();
        let exp = digits.len() as i32 - 1 - 6;
        let mantissa = digits.trim_end_matches('0');
        out.push(mantissa.as_bytes()[0]);
        if mantissa.len() > 1 {
            out.push(b'.');
            out.extend_from_slice(&mantissa.as_bytes()[1..]);
        }
        let _ = write!(out, "e-{:02}", -exp);
        return;
    }
    let (s, frac) = (us / 1_000_000, us % 1_000_000);
    let _ = write!(out, "{s}");
    if frac != 0 {
        let f = format!("{frac:06}");
        out.push(b'.');
        out.extend_from_slice(f.trim_end_matches('0').as_bytes());
    }
}

/// A line's time: exact (printed rounded to the microsecond, as ns-2.35's packet trace) or
/// ns-2's double clock (printed `%.15g`, as its nam trace).
#[derive(Clone, Copy, Debug)]
pub enum Time {
    Exact(SimTime),
    Double(f64),
}

/// Appends `x` as C's `printf("%.15g", x)` prints it (ns-2's `TIME_FORMAT`, trace/
/// basetrace.h): 15 significant digits, the exponent form below 1e-4 or from 1e15 on,
/// trailing zeros removed. Rust's `{:e}` rounds exactly as glibc does (correctly).
pub fn write_g15(out: &mut Vec<u8>, x: f64) {
    if x == 0.0 {
        out.push(b'0');
        return;
    }
    let e = format!("{x:.14e}");
    let (mant, exp) = e.split_once('e').expect("an exponent");
    let exp: i32 = exp.parse().expect("a number");
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..15).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        let _ = write!(out, "{}e{sign}{:02}", trim(mant), exp.abs());
    } else {
        let fixed = format!("{x:.*}", (14 - exp) as usize);
        out.extend_from_slice(trim(&fixed).as_bytes());
    }
}

/// Appends one trace line (with its newline) for `pkt` crossing the link `from -> to`.
#[allow(clippy::too_many_arguments)]
pub fn write_line(
    out: &mut Vec<u8>,
    ev: TraceEvent,
    t: Time,
    from: u32,
    to: u32,
    pkt: &Packet,
    label: &FlowLabel,
    tcp_header: bool,
) -> io::Result<()> {
    out.push(ev.symbol());
    out.push(b' ');
    match t {
        Time::Exact(t) => write_time(out, t),
        Time::Double(t2) => write_g15(out, t2),
    }
    let (ty, mut seq, sport, dport) = match pkt.kind {
        PacketKind::TcpData | PacketKind::Udp if label.unnumbered => {
            (label.data_type, 0, label.sport, label.dport)
        }
        PacketKind::TcpData => (label.data_type, pkt.seq as i64, label.sport, label.dport),
        PacketKind::TcpAck => (label.ack_type, pkt.ack as i64 - 1, label.dport, label.sport),
        PacketKind::Udp => (label.data_type, pkt.seq as i64, label.sport, label.dport),
    };
    // TCP header fields: acknowledgement number and flags.
    let data = pkt.kind == PacketKind::TcpData;
    let (mut ackno, mut th_flags) = match pkt.kind {
        PacketKind::TcpAck => (pkt.ack as i64, 0x10),
        _ => (0, 0),
    };
    if let Some(fs) = &label.full {
        let acking = !data || pkt.flags & tcp_flags::ACK != 0;
        seq = if data {
            fs.own.byte(pkt.seq)
        } else {
            fs.peer.byte(pkt.seq)
        } as i64;
        // ns-2.35's FullTcpAgent::foutput sends rcv_nxt_, -1 until the peer's SYN arrived.
        ackno = match (data, acking) {
            (false, _) => fs.own.byte(pkt.ack) as i64,
            (true, true) => fs.peer.byte(pkt.ack) as i64,
            (true, false) => -1,
        };
        for (bit, th) in [(tcp_flags::FIN, 0x01), (tcp_flags::SYN, 0x02)] {
            if pkt.flags & bit != 0 {
                th_flags |= th;
            }
        }
        if acking {
            th_flags |= 0x10;
        }
        // PUSH, as FullTcpAgent::foutput sets it: on a SYN without data, and on a segment
        // (pure ACKs and the FIN included) that empties the send buffer, i.e. reaches past
        // the last byte the application gave (curseq_); never while the application's
        // supply is endless (infinite_send_, an FTP started without a size). A direction
        // whose data the application gives as it runs (no size known) carries the sender's
        // own mark (`tcp_flags::PSH`, set by sim/two_way.rs under `ns2_full_tcp`).
        let sender = if data { &fs.own } else { &fs.peer };
        let syn = pkt.flags & tcp_flags::SYN != 0;
        let payload = if data && !syn {
            pkt.size.saturating_sub(label.header) as i64
        } else {
            0
        };
        let empties = match sender.bytes {
            Some(b) => seq + payload > b as i64,
            None => pkt.flags & tcp_flags::PSH != 0,
        };
        if (syn && payload == 0) || empties {
            th_flags |= 0x08;
        }
        // TH_ECE and TH_CWR; the congestion-action mark goes with TH_CWR (ns-2's header
        // holds them in one field, FullTcpAgent::sendpacket).
        if pkt.ecn & ecn::ECE != 0 {
            th_flags |= 0x40;
        }
        if pkt.ecn & (ecn::CWR | ecn::CONG_ACTION) != 0 {
            th_flags |= 0x80;
        }
    }
    let flag = |bit: u8, c: u8| if pkt.ecn & bit != 0 { c } else { b'-' };
    let flags = [
        flag(ecn::ECE, b'C'),
        b'-',
        b'-',
        flag(ecn::CWR | ecn::CONG_ACTION, b'A'),
        flag(ecn::CE, b'E'),
        b'-',
        flag(ecn::ECT, b'N'),
    ];
    write!(out, " {from} {to} {ty} {} ", pkt.size)?;
    out.extend_from_slice(&flags);
    write!(
        out,
        " {} {}.{sport} {}.{dport} {seq} {}",
        label.fid, pkt.src.0, pkt.dst.0, pkt.id
    )?;
    if tcp_header && pkt.kind != PacketKind::Udp {
        for (bit, th) in [(ecn::ECE, 0x40), (ecn::CWR, 0x80)] {
            if pkt.ecn & bit != 0 {
                th_flags |= th;
            }
        }
        let hlen = if data { label.header } else { pkt.size };
        write!(out, " {ackno} 0x{th_flags:x} {hlen} {}", pkt.sack.len())?;
    }
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::packet::SackBlocks;

    fn time(ps: u64) -> String {
        let mut v = Vec::new();
        write_time(&mut v, SimTime(ps));
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn times_print_like_ns2() {
        // Values seen in ns-2.35 traces.
        assert_eq!(time(100_000_000_000), "0.1");
        assert_eq!(time(100_032_000_000), "0.100032");
        assert_eq!(time(1_440_763_000_000), "1.440763");
        assert_eq!(time(2_000_000_000_000), "2");
        assert_eq!(time(0), "0");
        // Rounded to the microsecond, half up.
        assert_eq!(time(1_234_567_500_000), "1.234568");
        assert_eq!(time(1_234_567_499_999), "1.234567");
        // %g's exponent form below 1e-4 s.
        assert_eq!(time(32_000_000), "3.2e-05");
        assert_eq!(time(5_000_000), "5e-06");
        assert_eq!(time(10_000_000), "1e-05");
        assert_eq!(time(100_000_000), "0.0001");
        assert_eq!(time(1_500_000_000_000_000), "1500");
    }

    fn g15(x: f64) -> String {
        let mut v = Vec::new();
        write_g15(&mut v, x);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn double_times_print_like_c_g15() {
        // Against C's printf("%.15g") (glibc), values from ns-2.35 nam traces.
        assert_eq!(g15(0.1), "0.1");
        assert_eq!(g15(1.0), "1");
        assert_eq!(g15(0.0), "0");
        assert_eq!(g15(1.0 + 0.0747058823529412), "1.07470588235294");
        assert_eq!(g15(0.1 + 0.59 + 1e-15), "0.690000000000001");
        assert_eq!(g15(0.138705882352941), "0.138705882352941");
        assert_eq!(g15(3.2e-5), "3.2e-05");
        assert_eq!(g15(1e-4), "0.0001");
        assert_eq!(g15(123456789012345.0), "123456789012345");
        assert_eq!(g15(1234567890123456.0), "1.23456789012346e+15");
        assert_eq!(g15(9.999999999999999), "10");
        assert_eq!(g15(4.5), "4.5");
    }

    #[test]
    fn lines_follow_the_ns2_layout() {
        let label = FlowLabel {
            fid: 1,
            sport: 0,
            dport: 0,
            data_type: "tcp",
            unnumbered: false,
            ack_type: "ack",
            header: 40,
            full: None,
        };
        let mut pkt = Packet {
            id: 21,
            flow: FlowId(0),
            kind: PacketKind::TcpData,
            flags: 0,
            src: NodeId(0),
            dst: NodeId(2),
            size: 1040,
            seq: 1,
            ack: 0,
            sent_at: SimTime::ZERO,
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: 1,
            rwnd: 0,
            ecn: ecn::ECT,
        };
        let mut out = Vec::new();
        let t = SimTime(160_704_000_000);
        write_line(
            &mut out,
            TraceEvent::Enqueue,
            Time::Exact(t),
            0,
            1,
            &pkt,
            &label,
            false,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "+ 0.160704 0 1 tcp 1040 ------N 1 0.0 2.0 1 21\n"
        );
        // The ACK for it, as ns-2 numbers it: the highest segment received in order.
        pkt.kind = PacketKind::TcpAck;
        pkt.src = NodeId(2);
        pkt.dst = NodeId(0);
        pkt.size = 40;
        pkt.ack = 2;
        pkt.ecn = ecn::ECE;
        pkt.id = 34;
        let mut out = Vec::new();
        let t = SimTime(200_648_000_000);
        write_line(
            &mut out,
            TraceEvent::Receive,
            Time::Exact(t),
            2,
            1,
            &pkt,
            &label,
            false,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "r 0.200648 2 1 ack 40 C------ 1 2.0 0.0 1 34\n"
        );
    }
}
