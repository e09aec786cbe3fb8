//! The packet header: a small plain value moved through the simulation by copy.

use crate::ids::{FlowId, NodeId};
use crate::time::SimTime;

// One byte beside `Packet::flags`, and a `u32` SACK count below, so that `Packet` has no
// padding bytes: a packet with padding was copied field by field on one side of a move and in
// 16-byte chunks on the other, and the chunk loads stalled on the piecewise stores (x86 store
// forwarding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum PacketKind {
    /// TCP data segment; `seq` is the segment number (ns-2 packet-counted sequence space).
    TcpData,
    /// TCP acknowledgement; `ack` is the next segment number the receiver expects.
    TcpAck,
    /// UDP datagram; `seq` counts the flow's datagrams from 0.
    Udp,
}

#[derive(Clone, Copy, Debug)]
pub struct Packet {
    /// Unique per run, in order of creation (ns-2 trace's packet id).
    pub id: u64,
    pub flow: FlowId,
    pub kind: PacketKind,
    /// TCP header flags ([`tcp_flags`], RFC 9293's bits): SYN, FIN and ACK on the segments of
    /// two-way connections (`tcp/full.rs`), PSH where the sender pushes (`psh`,
    /// `tcp/sender/psh.rs`; FullTcp under `ns2_full_tcp`, `sim/two_way.rs`); 0 otherwise.
    pub flags: u8,
    pub src: NodeId,
    pub dst: NodeId,
    /// Size on the wire in bytes, headers included.
    pub size: u32,
    pub seq: u64,
    pub ack: u64,
    /// When the sender handed the packet to the network.
    pub sent_at: SimTime,
    /// A retransmission (data) or a duplicate acknowledgement (ACK).
    pub retransmit: bool,
    /// ACKs: the timestamp echoed back (RFC 7323 TSecr), the `sent_at` of a data packet.
    pub ts_echo: SimTime,
    /// SACK blocks carried by an ACK (RFC 2018); empty otherwise.
    pub sack: SackBlocks,
    /// For data packets: the flow's transmission count, from 1 (retransmissions included),
    /// which `drop_list` loss models address; 0 for ACKs. 32 bits, so that the packet keeps
    /// its 96 bytes beside `rwnd`: the count wraps after 4 294 967 295 transmissions of one
    /// flow (a 10 Gb/s flow of 1500-byte packets sends that many in 5 154 s), and the
    /// scenario refuses a `drop_list` entry above it.
    pub nth: u32,
    /// ACKs of a receiver with flow control (`tcp.rcv_buffer`): the window it advertises, in
    /// segments (RFC 9293 SEG.WND); 0 otherwise (no window advertised).
    pub rwnd: u32,
    /// ECN bits (RFC 3168): `ecn::ECT`, `ecn::CE` on data, `ecn::ECE` on ACKs, `ecn::CWR`
    /// on data, and ns-2's `ecn::CONG_ACTION`.
    pub ecn: u8,
}

impl Packet {
    /// The DiffServ code point an edge queue marked (ns-2's `hdr_ip::prio_`, which
    /// `PolicyClassifier::mark` sets; `queue::dsred`); 0 until one does.
    #[inline]
    pub fn dscp(&self) -> u8 {
        self.sack.dscp
    }

    /// Sets the code point ([`Packet::dscp`]).
    #[inline]
    pub fn set_dscp(&mut self, cp: u8) {
        self.sack.dscp = cp;
    }

    /// The Quick-Start option the packet carries ([`ecn::QS`]), if any. Its 32 bits live in a
    /// field the packet's kind does not use otherwise, so that the packet keeps its size: a
    /// data segment's `rwnd` (it advertises no window) and an ACK's `nth` (it has no
    /// transmission count). Only one-way TCP flows use Quick-Start.
    #[inline]
    pub fn quick_start(&self) -> Option<crate::net::quick_start::QsOption> {
        if self.ecn & ecn::QS == 0 {
            return None;
        }
        let v = match self.kind {
            PacketKind::TcpAck => self.nth,
            _ => self.rwnd,
        };
        Some(crate::net::quick_start::QsOption::unpack(v))
    }

    /// Sets (or with None removes) the Quick-Start option ([`Packet::quick_start`]).
    pub fn set_quick_start(&mut self, opt: Option<crate::net::quick_start::QsOption>) {
        let v = match opt {
            Some(o) => {
                self.ecn |= ecn::QS;
                o.pack()
            }
            None => {
                self.ecn &= !ecn::QS;
                0
            }
        };
        match self.kind {
            PacketKind::TcpAck => self.nth = v,
            _ => self.rwnd = v,
        }
    }
}

// Packets are copied whole through the pool, the sinks and the traces: 96 bytes without
// padding (see `PacketKind`). A new field must fit in the spare bits or say why not.
const _: () = assert!(std::mem::size_of::<Packet>() == 96);

#[cfg(test)]
impl Packet {
    /// A 1000-byte UDP datagram of flow 0, not ECN-capable, every other field zero.
    pub(crate) const TEST: Packet = Packet {
        id: 0,
        flow: FlowId(0),
        kind: PacketKind::Udp,
        flags: 0,
        src: NodeId(0),
        dst: NodeId(1),
        size: 1000,
        seq: 0,
        ack: 0,
        sent_at: SimTime::ZERO,
        retransmit: false,
        ts_echo: SimTime::ZERO,
        sack: SackBlocks::NONE,
        nth: 0,
        rwnd: 0,
        ecn: 0,
    };
    /// [`Packet::TEST`], ECN-capable.
    pub(crate) const TEST_ECT: Packet = Packet {
        ecn: ecn::ECT,
        ..Packet::TEST
    };

    /// A UDP datagram of `size` bytes from node 0 to node 1 on `flow`, numbered `id` (its
    /// `seq` too), every other field zero: what queue and link tests need.
    pub(crate) fn test_udp(id: u64, flow: u32, size: u32) -> Packet {
        Packet {
            id,
            flow: FlowId(flow),
            kind: PacketKind::Udp,
            flags: 0,
            src: NodeId(0),
            dst: NodeId(1),
            size,
            seq: id,
            ack: 0,
            sent_at: SimTime::ZERO,
            retransmit: false,
            ts_echo: SimTime::ZERO,
            sack: SackBlocks::NONE,
            nth: 0,
            rwnd: 0,
            ecn: 0,
        }
    }
}

/// The ECN bits of [`Packet::ecn`] (RFC 3168 sections 5 and 6.1).
pub mod ecn {
    /// ECN-Capable Transport: the sender reacts to marks.
    pub const ECT: u8 = 1;
    /// Congestion Experienced, set by a router instead of dropping.
    pub const CE: u8 = 2;
    /// ECN-Echo on an ACK: the receiver saw CE.
    pub const ECE: u8 = 4;
    /// Congestion Window Reduced, on data: the sender has reacted.
    pub const CWR: u8 = 8;
    /// The first segment after any window reduction, ECN or not: ns-2 marks it in its
    /// header (`cong_action`) and prints `A` in its traces. No wire bit: pcap leaves it out.
    pub const CONG_ACTION: u8 = 16;
    /// The packet carries a Quick-Start option (RFC 4782; `net/quick_start.rs`): a request on
    /// a data segment, the receiver's report on an ACK. Its value is in
    /// [`super::Packet::quick_start`]. No wire bit here: pcap leaves it out.
    pub const QS: u8 = 32;
    /// A data segment sent while the sender used an approved Quick-Start rate (ns-2's
    /// `hdr_flags::qs_`, which its queue monitors count in `qs_pkts_`). No wire bit.
    pub const QS_WINDOW: u8 = 64;
}

/// The TCP header flags of [`Packet::flags`], at their bits in the TCP header (RFC 9293
/// section 3.1), so that a pcap trace writes them as they are.
pub mod tcp_flags {
    /// The segment closes its direction (FIN); it carries no payload and takes one sequence
    /// number. Two-way connections only.
    pub const FIN: u8 = 0x01;
    /// The segment opens its direction (SYN); it is segment 0. Two-way connections only.
    pub const SYN: u8 = 0x02;
    /// PSH: the sender pushed the data up to here (the `linux` profile's `psh`,
    /// `tcp::sender`; ns-2's FullTcp, `sim/two_way.rs`); a Linux receiver acknowledges such a
    /// segment at once (`tcp::sink`).
    pub const PSH: u8 = 0x08;
    /// A data segment of a two-way connection that also acknowledges the reverse direction
    /// (ACK): its `ack`, `sack` and `ts_echo` describe the reverse direction's receiver, as a
    /// pure ACK's would (piggy-backing). (One-way flows' pure ACKs are `PacketKind::TcpAck`
    /// and do not set it.)
    pub const ACK: u8 = 0x10;
}

/// Up to three SACK blocks (RFC 2018 section 3: three fit beside the timestamp option),
/// stored as segment ranges [start, end) relative to the packet's cumulative ACK so that
/// the packet stays small.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    len: u8,
    /// The packet's DiffServ code point ([`Packet::dscp`]): kept here, in bytes the count
    /// does not need, so that the packet keeps its 96 bytes without padding.
    dscp: u8,
    spare: u16,
    blocks: [(u32, u32); SackBlocks::MAX],
}

impl SackBlocks {
    pub const MAX: usize = 3;
    pub const NONE: SackBlocks = SackBlocks {
        len: 0,
        dscp: 0,
        spare: 0,
        blocks: [(0, 0); SackBlocks::MAX],
    };

    /// Appends [start, end) (absolute segment numbers, both above `ack`); false when full.
    pub fn push(&mut self, ack: u64, start: u64, end: u64) -> bool {
        if self.len as usize == Self::MAX || start < ack || end <= start {
            return false;
        }
        let rel = |x: u64| (x - ack).min(u32::MAX as u64) as u32;
        self.blocks[self.len as usize] = (rel(start), rel(end));
        self.len += 1;
        true
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The blocks as absolute segment ranges, given the packet's cumulative ACK.
    pub fn iter(&self, ack: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.blocks[..self.len as usize]
            .iter()
            .map(move |&(a, b)| (ack + a as u64, ack + b as u64))
    }
}
