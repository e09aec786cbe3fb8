//! UDP with a constant-bit-rate source (ns-2 `Application/Traffic/CBR` over `Agent/UDP`)
//! and a null sink that only counts.

use crate::ids::{FlowId, NodeId};
use crate::monitor::FlowCounters;
use crate::packet::{Packet, PacketKind, SackBlocks};
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Debug)]
pub struct CbrSource {
    pub flow: FlowId,
    pub src: NodeId,
    pub dst: NodeId,
    pub interval: SimDuration,
    pub payload: u32,
    pub wire_size: u32,
    next_seq: u64,
    stopped: bool,
}

impl CbrSource {
    pub fn new(
        flow: FlowId,
        src: NodeId,
        dst: NodeId,
        interval: SimDuration,
        payload: u32,
        header: u32,
    ) -> Self {
        CbrSource {
            flow,
            src,
            dst,
            interval,
            payload,
            wire_size: payload + header,
            next_seq: 0,
            stopped: false,
        }
    }

    /// Sends one datagram and returns when the next one is due, unless stopped.
    pub fn tick(
        &mut self,
        now: SimTime,
        out: &mut Vec<Packet>,
        c: &mut FlowCounters,
    ) -> Option<SimTime> {
        if self.stopped {
            return None;
        }
        c.packets_sent += 1;
        c.bytes_sent += self.wire_size as u64;
        out.push(Packet {
            id: 0,
            flow: self.flow,
            kind: PacketKind::Udp,
            src: self.src,
            dst: self.dst,
            size: self.wire_size,
            seq: self.next_seq,
            ack: 0,
            sent_at: now,
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: c.packets_sent,
            ecn: 0,
        });
        self.next_seq += 1;
        Some(now + self.interval)
    }

    pub fn stop(&mut self) {
        self.stopped = true;
    }
}

/// Counts what arrives (ns-2 `Agent/Null` with a loss monitor's counters).
pub fn null_sink_receive(pkt: &Packet, payload: u32, c: &mut FlowCounters) {
    c.packets_received += 1;
    c.bytes_received += pkt.size as u64;
    c.bytes_delivered += payload as u64;
}
