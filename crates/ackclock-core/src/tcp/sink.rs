//! The TCP receiver: cumulative ACK for every arriving segment (ns-2's `TCPSink`).
//!
//! Out-of-order segments are remembered in a ring bitmap sized to the advertised window:
//! the sender never sends beyond una + window and una never passes the receiver's next
//! expected segment, so every useful segment fits.

use crate::ids::{FlowId, NodeId};
use crate::monitor::FlowCounters;
use crate::packet::{Packet, PacketKind};
use crate::time::SimTime;

#[derive(Clone, Debug)]
pub struct TcpSink {
    flow: FlowId,
    node: NodeId,
    peer: NodeId,
    /// Next in-order segment expected.
    pub rcv_nxt: u64,
    seen: Vec<bool>,
    mask: u64,
    payload: u32,
    ack_size: u32,
}

impl TcpSink {
    pub fn new(
        flow: FlowId,
        node: NodeId,
        peer: NodeId,
        window: u32,
        payload: u32,
        ack_size: u32,
    ) -> TcpSink {
        let cap = (window as u64).next_power_of_two().max(1);
        TcpSink {
            flow,
            node,
            peer,
            rcv_nxt: 0,
            seen: vec![false; cap as usize],
            mask: cap - 1,
            payload,
            ack_size,
        }
    }

    pub fn on_data(
        &mut self,
        now: SimTime,
        pkt: &Packet,
        out: &mut Vec<Packet>,
        c: &mut FlowCounters,
    ) {
        c.packets_received += 1;
        c.bytes_received += pkt.size as u64;
        let seq = pkt.seq;
        if seq == self.rcv_nxt {
            let before = self.rcv_nxt;
            self.rcv_nxt += 1;
            loop {
                let slot = &mut self.seen[(self.rcv_nxt & self.mask) as usize];
                if !*slot {
                    break;
                }
                *slot = false;
                self.rcv_nxt += 1;
            }
            c.bytes_delivered += (self.rcv_nxt - before) * self.payload as u64;
        } else if seq > self.rcv_nxt && seq - self.rcv_nxt <= self.mask {
            self.seen[(seq & self.mask) as usize] = true;
        }
        c.acks_sent += 1;
        out.push(Packet {
            id: 0,
            flow: self.flow,
            kind: PacketKind::TcpAck,
            src: self.node,
            dst: self.peer,
            size: self.ack_size,
            seq,
            ack: self.rcv_nxt,
            sent_at: now,
            retransmit: false,
        });
    }
}
