//! Deterministic drops of chosen packets of one flow, for forcing the classic loss patterns
//! (Fall & Floyd 1996: one to four drops in a window). Packets are numbered from 1 in the
//! order the flow sends its data packets, retransmissions included.

use crate::ids::FlowId;
use crate::packet::{Packet, PacketKind};

#[derive(Clone, Debug)]
pub struct DropList {
    flow: FlowId,
    /// Sorted, deduplicated transmission numbers to drop.
    packets: Vec<u64>,
}

impl DropList {
    pub fn new(flow: FlowId, mut packets: Vec<u64>) -> DropList {
        packets.sort_unstable();
        packets.dedup();
        DropList { flow, packets }
    }

    #[inline]
    pub fn drops(&mut self, pkt: &Packet) -> bool {
        pkt.flow == self.flow
            && pkt.kind != PacketKind::TcpAck
            && self.packets.binary_search(&(pkt.nth as u64)).is_ok()
    }
}
