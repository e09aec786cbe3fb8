//! Deterministic drops of chosen packets of one flow, for forcing the classic loss patterns
//! (Fall & Floyd 1996: one to four drops in a window). Data packets are numbered from 1 in
//! the order the flow sends them, retransmissions included. With `acks`, the model takes the
//! flow's acknowledgements instead, numbered from 1 in the order they reach this model: ns-2's
//! `ErrorModule` classifies by `fid_`, which a sink copies into its ACKs (ns-2.35
//! `TcpSink::ack`), and `ListErrorModel::corrupt` counts the packets it is offered. A list
//! built with `DropList::counting` numbers the flow's data the same way, as they reach it:
//! ns-2's model sees neither what a model ahead of it dropped nor, until later, what it delayed.

use crate::ids::FlowId;
use crate::packet::{Packet, PacketKind};

#[derive(Clone, Debug)]
pub struct DropList {
    flow: FlowId,
    /// Sorted, deduplicated transmission numbers to drop.
    packets: Vec<u64>,
    /// Take the flow's ACKs (counted in `acks_seen`) instead of its data.
    acks: bool,
    acks_seen: u64,
    /// With `of_connection`: the connection's other flow; every packet of either flow is
    /// counted (in `acks_seen`) and numbered.
    peer: Option<FlowId>,
    /// Number the flow's data packets as they reach this model (in `data_seen`), not by the
    /// sender's transmission number.
    counting: bool,
    data_seen: u64,
}

impl DropList {
    pub fn new(flow: FlowId, packets: Vec<u64>) -> DropList {
        DropList::with_acks(flow, packets, false)
    }

    /// A list of the flow's ACKs (`acks`) or of its data transmissions.
    pub fn with_acks(flow: FlowId, mut packets: Vec<u64>, acks: bool) -> DropList {
        packets.sort_unstable();
        packets.dedup();
        DropList {
            flow,
            packets,
            acks,
            acks_seen: 0,
            peer: None,
            counting: false,
            data_seen: 0,
        }
    }

    /// A list that numbers what it is offered of the flow (its data, or its ACKs with
    /// `acks`) from 1 as it arrives: ns-2.35's `ListErrorModel::corrupt` counting `cnt_`
    /// (a model behind another on the link, or `counted`).
    pub fn counting(flow: FlowId, packets: Vec<u64>, acks: bool) -> DropList {
        DropList {
            counting: true,
            ..DropList::with_acks(flow, packets, acks)
        }
    }

    /// Numbers every packet of a two-way connection, `peer` being its other direction's
    /// flow: data and pure ACKs of both flows, in the order they reach the model (ns-2.35's
    /// `ErrorModule` classifies by `fid_`, which both ends of a FullTcp connection share).
    pub fn of_connection(mut self, peer: FlowId) -> DropList {
        self.peer = Some(peer);
        self
    }

    #[inline]
    pub fn drops(&mut self, pkt: &Packet) -> bool {
        if let Some(peer) = self.peer {
            if pkt.flow != self.flow && pkt.flow != peer {
                return false;
            }
            self.acks_seen += 1;
            return self.packets.binary_search(&self.acks_seen).is_ok();
        }
        if pkt.flow != self.flow {
            return false;
        }
        if self.acks {
            if pkt.kind != PacketKind::TcpAck {
                return false;
            }
            self.acks_seen += 1;
            return self.packets.binary_search(&self.acks_seen).is_ok();
        }
        if pkt.kind == PacketKind::TcpAck {
            return false;
        }
        let n = if self.counting {
            self.data_seen += 1;
            self.data_seen
        } else {
            pkt.nth as u64
        };
        self.packets.binary_search(&n).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(flow: FlowId, kind: PacketKind) -> Packet {
        Packet {
            kind,
            ..Packet::test_udp(0, flow.0, 40)
        }
    }

    #[test]
    fn an_ack_list_counts_the_flows_acks_it_is_offered() {
        let mut m = DropList::with_acks(FlowId(0), vec![2, 3], true);
        let ack = packet(FlowId(0), PacketKind::TcpAck);
        let data = packet(FlowId(0), PacketKind::TcpData);
        let other = packet(FlowId(1), PacketKind::TcpAck);
        // data and other flows' ACKs neither count nor drop
        assert!(!m.drops(&data));
        assert!(!m.drops(&other));
        let got: Vec<bool> = (0..4).map(|_| m.drops(&ack)).collect();
        assert_eq!(got, [false, true, true, false]);
    }

    #[test]
    fn a_connection_list_numbers_both_flows_data_and_acks() {
        let mut m = DropList::new(FlowId(0), vec![1, 3]).of_connection(FlowId(1));
        let syn_ack = packet(FlowId(1), PacketKind::TcpData);
        let ack = packet(FlowId(0), PacketKind::TcpAck);
        let other = packet(FlowId(2), PacketKind::TcpData);
        assert!(m.drops(&syn_ack)); // 1
        assert!(!m.drops(&other)); // not counted
        assert!(!m.drops(&ack)); // 2
        assert!(m.drops(&syn_ack)); // 3
        assert!(!m.drops(&ack)); // 4
    }

    #[test]
    fn a_data_list_takes_transmission_numbers_and_never_acks() {
        let mut m = DropList::new(FlowId(0), vec![2]);
        let mut data = packet(FlowId(0), PacketKind::TcpData);
        data.nth = 2;
        assert!(m.drops(&data));
        let ack = packet(FlowId(0), PacketKind::TcpAck);
        assert!(!m.drops(&ack));
    }

    #[test]
    fn a_counting_list_numbers_the_data_it_is_offered_not_the_senders_count() {
        let mut m = DropList::counting(FlowId(0), vec![2], false);
        let mut data = packet(FlowId(0), PacketKind::TcpData);
        // The sender's 1st and 3rd transmissions reach it (the 2nd was dropped ahead of it):
        // the 3rd is the second it sees.
        data.nth = 1;
        assert!(!m.drops(&data));
        assert!(!m.drops(&packet(FlowId(0), PacketKind::TcpAck)));
        assert!(!m.drops(&packet(FlowId(1), PacketKind::TcpData)));
        data.nth = 3;
        assert!(m.drops(&data));
        data.nth = 2;
        assert!(!m.drops(&data));
    }
}
