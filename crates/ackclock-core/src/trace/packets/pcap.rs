//! Packets as Ethernet II / IPv4 (RFC 791) / TCP (RFC 9293) or UDP (RFC 768) frames for a
//! pcap file (nanosecond timestamps), so that Wireshark and tshark can analyse a run.
//!
//! Only headers are captured: each record's captured length is its headers, its original
//! length the whole frame. TCP sequence and acknowledgement numbers are in bytes: the SYN
//! (segment 0 of a flow with `syn`) has sequence number 0 and the data of segment n start
//! at byte 1 + (n - 1) x MSS; without a SYN, segment n starts at 1 + n x MSS, as if an
//! uncaptured handshake had used sequence number 0. The acceptor's side (ACKs) starts at 0
//! too. Options follow RFC 7323 (timestamps, window scale on the SYNs), RFC 2018 (SACK
//! blocks, SACK-permitted on the SYNs) and RFC 9293 (MSS on the SYNs). The IPv4 header
//! checksum is real; TCP and UDP checksums are zero, as on a capture with checksum offload.
//! Two-way connections (`tcp/full.rs`) carry their own flags (SYN, SYN-ACK, FIN, ACK on
//! data) and number both directions in bytes (`SeqBytes`), FINs included, so that tshark
//! follows them as one stream.
//! Node n has address 10.0.0.0 + n + 1 and MAC 02:00:00:00:00:00 + n + 1.

use super::FullSeq;
use crate::packet::{ecn, tcp_flags, Packet, PacketKind};
use crate::time::SimTime;

/// What a flow's frames need beyond the packet itself.
#[derive(Clone, Debug)]
pub struct FrameInfo {
    pub tcp: bool,
    pub sport: u16,
    pub dport: u16,
    /// Payload bytes of a full segment, and the header bytes the simulation counts on data
    /// packets (so that payload = size - header).
    pub mss: u32,
    pub header: u32,
    pub syn: bool,
    pub timestamps: bool,
    pub sack: bool,
    /// The receiver's window when not advertised per ACK, in segments.
    pub window_segments: u32,
    /// Window scale shift announced on the SYNs (RFC 7323 section 2).
    pub wscale: u8,
    /// A direction of a two-way connection: flags from the packet, byte numbering.
    pub full: Option<FullSeq>,
}

impl FrameInfo {
    /// The smallest shift that fits `window_segments` x MSS in 16 bits.
    pub fn scale_for(window_bytes: u64) -> u8 {
        let mut s = 0u8;
        while (window_bytes >> s) > 0xffff && s < 14 {
            s += 1;
        }
        s
    }
}

/// Headers never exceed this: 14 + 20 + 60.
pub const MAX_HEADERS: usize = 94;

fn ip_of(node: u32) -> [u8; 4] {
    (0x0a00_0000u32 + node + 1).to_be_bytes()
}

fn put16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_be_bytes());
}

fn put32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

/// Microseconds for the timestamp option's clock (wraps after 71 minutes, as RFC 7323
/// allows).
fn ts_clock(t: SimTime) -> u32 {
    (t.0 / 1_000_000) as u32
}

/// Writes `pkt`'s headers into `buf`; returns (captured length, frame length).
pub fn frame(
    buf: &mut [u8; MAX_HEADERS],
    pkt: &Packet,
    f: &FrameInfo,
    now: SimTime,
) -> (usize, u32) {
    buf.fill(0);
    // Ethernet II.
    let mac = |n: u32| {
        let mut m = [0x02, 0, 0, 0, 0, 0];
        m[2..6].copy_from_slice(&(n + 1).to_be_bytes());
        m
    };
    buf[0..6].copy_from_slice(&mac(pkt.dst.0));
    buf[6..12].copy_from_slice(&mac(pkt.src.0));
    put16(buf, 12, 0x0800);
    let ip = 14;
    let l4 = ip + 20;
    let (l4_len, payload) = if f.tcp {
        tcp_header(&mut buf[l4..], pkt, f, now)
    } else {
        put16(&mut buf[l4..], 0, f.sport);
        put16(&mut buf[l4..], 2, f.dport);
        let payload = pkt.size.saturating_sub(f.header);
        put16(&mut buf[l4..], 4, (8 + payload).min(0xffff) as u16);
        (8, payload)
    };
    let total = 20 + l4_len as u32 + payload;
    buf[ip] = 0x45;
    // ECN field (RFC 3168 section 5): ECT(0) = 10, CE = 11.
    buf[ip + 1] = if pkt.ecn & ecn::CE != 0 {
        0b11
    } else if pkt.ecn & ecn::ECT != 0 {
        0b10
    } else {
        0
    };
    put16(buf, ip + 2, total.min(0xffff) as u16);
    put16(buf, ip + 4, pkt.id as u16);
    put16(buf, ip + 6, 0x4000); // don't fragment
    buf[ip + 8] = 64;
    buf[ip + 9] = if f.tcp { 6 } else { 17 };
    buf[ip + 12..ip + 16].copy_from_slice(&ip_of(pkt.src.0));
    buf[ip + 16..ip + 20].copy_from_slice(&ip_of(pkt.dst.0));
    let sum = checksum(&buf[ip..ip + 20]);
    put16(buf, ip + 10, sum);
    (l4 + l4_len, 14 + total)
}

/// RFC 1071 one's-complement sum.
fn checksum(b: &[u8]) -> u16 {
    let mut s: u32 = 0;
    for c in b.chunks(2) {
        s += u32::from(u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]));
    }
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    !(s as u16)
}

/// Writes the TCP header with options; returns (header length, payload length).
fn tcp_header(b: &mut [u8], pkt: &Packet, f: &FrameInfo, now: SimTime) -> (usize, u32) {
    const FIN: u8 = 0x01;
    const SYN: u8 = 0x02;
    const PSH: u8 = 0x08;
    const ACK: u8 = 0x10;
    const ECE: u8 = 0x40;
    const CWR: u8 = 0x80;
    let mss = f.mss as u64;
    // Byte offset of segment n's first byte.
    let byte = |n: u64| -> u32 {
        let k = if f.syn { n.saturating_sub(1) } else { n };
        (1 + k * mss) as u32
    };
    let data = pkt.kind == PacketKind::TcpData;
    let is_syn = f.syn && pkt.seq == 0 && data;
    let is_synack = f.syn && !data && pkt.ack == 1;
    let (sport, dport) = if data {
        (f.sport, f.dport)
    } else {
        (f.dport, f.sport)
    };
    put16(b, 0, sport);
    put16(b, 2, dport);
    let mut flags = ACK;
    let payload;
    // What the options below need: a SYN (MSS...), the echoed timestamp, the numbering of
    // the SACK blocks.
    let mut full_options = None;
    if let Some(fs) = &f.full {
        // A two-way connection: every segment after the first SYN acknowledges.
        let acking = !data || pkt.flags & tcp_flags::ACK != 0;
        let syn = data && pkt.flags & tcp_flags::SYN != 0;
        flags = if acking { ACK } else { 0 };
        if syn {
            flags |= SYN;
        }
        if data && pkt.flags & tcp_flags::FIN != 0 {
            flags |= FIN;
        }
        if data && pkt.flags & tcp_flags::PSH != 0 {
            flags |= PSH;
        }
        if data && pkt.ecn & ecn::CWR != 0 {
            flags |= CWR;
        }
        if pkt.ecn & ecn::ECE != 0 {
            flags |= ECE;
        }
        let (seq, ack) = if data {
            (fs.own.byte(pkt.seq), fs.peer.byte(pkt.ack))
        } else {
            (fs.peer.byte(pkt.seq), fs.own.byte(pkt.ack))
        };
        put32(b, 4, seq);
        put32(b, 8, if acking { ack } else { 0 });
        let shift = if syn { 0 } else { f.wscale };
        let window = f.window_segments as u64 * mss;
        put16(b, 14, (window >> shift).min(0xffff) as u16);
        payload = if data {
            pkt.size.saturating_sub(f.header)
        } else {
            0
        };
        let echo = if acking { ts_clock(pkt.ts_echo) } else { 0 };
        full_options = Some((syn, echo, if data { &fs.peer } else { &fs.own }));
    } else if data {
        put32(b, 4, if is_syn { 0 } else { byte(pkt.seq) });
        if is_syn {
            flags = SYN;
            payload = 0;
        } else {
            put32(b, 8, 1);
            payload = pkt.size.saturating_sub(f.header);
        }
        if pkt.ecn & ecn::CWR != 0 {
            flags |= CWR;
        }
        if pkt.flags & tcp_flags::PSH != 0 {
            flags |= PSH;
        }
        put16(b, 14, 0xffff);
    } else {
        put32(b, 4, if is_synack { 0 } else { 1 });
        put32(b, 8, byte(pkt.ack));
        if is_synack {
            flags |= SYN;
        }
        if pkt.ecn & ecn::ECE != 0 {
            flags |= ECE;
        }
        let segs = if pkt.rwnd > 0 {
            pkt.rwnd as u64
        } else {
            f.window_segments as u64
        };
        let shift = if is_synack { 0 } else { f.wscale };
        put16(b, 14, ((segs * mss) >> shift).min(0xffff) as u16);
        payload = 0;
    }
    let one_way = super::SeqBytes {
        mss: f.mss,
        bytes: None,
        iss: 0,
        msgs: Vec::new(),
    };
    let (syn_like, echo, sack_space) = full_options.unwrap_or((
        is_syn || is_synack,
        if data { 0 } else { ts_clock(pkt.ts_echo) },
        &one_way,
    ));
    b[13] = flags;
    // Options, padded with NOPs to a multiple of four bytes.
    let mut o = 20;
    if syn_like {
        b[o..o + 4].copy_from_slice(&[2, 4, (f.mss >> 8) as u8, f.mss as u8]);
        o += 4;
        b[o..o + 4].copy_from_slice(&[1, 3, 3, f.wscale]);
        o += 4;
        if f.sack {
            b[o..o + 4].copy_from_slice(&[1, 1, 4, 2]);
            o += 4;
        }
    }
    if f.timestamps {
        b[o..o + 4].copy_from_slice(&[1, 1, 8, 10]);
        put32(b, o + 4, ts_clock(if data { pkt.sent_at } else { now }));
        put32(b, o + 8, echo);
        o += 12;
    }
    if (!data || f.full.is_some()) && !pkt.sack.is_empty() {
        let n = pkt.sack.len();
        b[o..o + 4].copy_from_slice(&[1, 1, 5, (2 + 8 * n) as u8]);
        o += 4;
        for (s, e) in pkt.sack.iter(pkt.ack) {
            let (s, e) = if f.full.is_some() {
                (sack_space.byte(s), sack_space.byte(e))
            } else {
                (byte(s), byte(e))
            };
            put32(b, o, s);
            put32(b, o + 4, e);
            o += 8;
        }
    }
    b[12] = ((o / 4) as u8) << 4;
    (o, payload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::packet::SackBlocks;

    fn info() -> FrameInfo {
        FrameInfo {
            tcp: true,
            sport: 1024,
            dport: 1025,
            mss: 1000,
            header: 40,
            syn: true,
            timestamps: true,
            sack: true,
            window_segments: 100,
            wscale: FrameInfo::scale_for(100_000),
            full: None,
        }
    }

    fn data(seq: u64) -> Packet {
        Packet {
            id: 7,
            flow: FlowId(0),
            kind: PacketKind::TcpData,
            flags: 0,
            src: NodeId(0),
            dst: NodeId(3),
            size: if seq == 0 { 40 } else { 1040 },
            seq,
            ack: 0,
            sent_at: SimTime(2_000_000_000),
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: 1,
            rwnd: 0,
            ecn: ecn::ECT,
        }
    }

    #[test]
    fn data_segments_number_bytes_after_the_syn() {
        let mut b = [0u8; MAX_HEADERS];
        let (cap, len) = frame(&mut b, &data(3), &info(), SimTime::ZERO);
        // 14 + 20 + 20 + 12 (timestamps), payload 1000.
        assert_eq!(cap, 66);
        assert_eq!(len, 66 + 1000);
        assert_eq!(&b[26..30], &[10, 0, 0, 1]);
        assert_eq!(&b[30..34], &[10, 0, 0, 4]);
        assert_eq!(u32::from_be_bytes(b[38..42].try_into().unwrap()), 2001);
        assert_eq!(b[15] & 3, 0b10, "ECT(0)");
        assert_eq!(checksum(&b[14..34]), 0, "the IPv4 checksum verifies");
        let (cap, _) = frame(&mut b, &data(0), &info(), SimTime::ZERO);
        assert_eq!(b[47], 0x02, "SYN");
        // MSS, window scale, SACK permitted, timestamps.
        assert_eq!(cap, 14 + 20 + 20 + 4 + 4 + 4 + 12);
    }

    #[test]
    fn acks_carry_sack_blocks_in_bytes() {
        let mut p = data(0);
        p.kind = PacketKind::TcpAck;
        p.src = NodeId(3);
        p.dst = NodeId(0);
        p.size = 40;
        p.ack = 5;
        p.rwnd = 0;
        p.sack.push(5, 7, 9);
        let mut b = [0u8; MAX_HEADERS];
        let (cap, len) = frame(&mut b, &p, &info(), SimTime::ZERO);
        assert_eq!(cap as u32, len, "an ACK has no payload");
        assert_eq!(u32::from_be_bytes(b[42..46].try_into().unwrap()), 4001);
        let opts = &b[54..cap];
        let sack = opts
            .windows(2)
            .position(|w| w == [5, 10])
            .expect("SACK option");
        let left = u32::from_be_bytes(opts[sack + 2..sack + 6].try_into().unwrap());
        let right = u32::from_be_bytes(opts[sack + 6..sack + 10].try_into().unwrap());
        assert_eq!((left, right), (6001, 8001));
    }
}
