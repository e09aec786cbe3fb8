//! The packet header: a small plain value moved through the simulation by copy.

use crate::ids::{FlowId, NodeId};
use crate::time::SimTime;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// For data packets: the flow's transmission count, from 1 (retransmissions included),
    /// which `drop_list` loss models address. 0 for ACKs.
    pub nth: u64,
}
