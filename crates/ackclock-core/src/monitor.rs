//! Always-on counters for flows and queues.
//!
//! Counters are plain `Copy` structs that only ever grow; the measurement window
//! [warmup, duration] is the difference of two snapshots, so counting costs one add and
//! never a branch on the clock.

use std::ops::Sub;

/// Per-flow counters. Data counts are the flow's data packets (TCP segments or UDP datagrams).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowCounters {
    pub packets_sent: u64,
    /// Bytes on the wire (headers included) of the data packets sent.
    pub bytes_sent: u64,
    pub packets_retransmitted: u64,
    /// Data packets of this flow dropped anywhere in the network.
    pub packets_dropped: u64,
    /// Data packets arriving at the receiver, duplicates included.
    pub packets_received: u64,
    /// Wire bytes of those packets: the basis of throughput.
    pub bytes_received: u64,
    /// Application payload delivered in order: the basis of goodput.
    pub bytes_delivered: u64,
    pub acks_sent: u64,
    pub acks_dropped: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    pub rtt_samples: u64,
    pub rtt_sum_ps: u128,
}

impl Sub for FlowCounters {
    type Output = FlowCounters;
    fn sub(self, o: FlowCounters) -> FlowCounters {
        FlowCounters {
            packets_sent: self.packets_sent - o.packets_sent,
            bytes_sent: self.bytes_sent - o.bytes_sent,
            packets_retransmitted: self.packets_retransmitted - o.packets_retransmitted,
            packets_dropped: self.packets_dropped - o.packets_dropped,
            packets_received: self.packets_received - o.packets_received,
            bytes_received: self.bytes_received - o.bytes_received,
            bytes_delivered: self.bytes_delivered - o.bytes_delivered,
            acks_sent: self.acks_sent - o.acks_sent,
            acks_dropped: self.acks_dropped - o.acks_dropped,
            timeouts: self.timeouts - o.timeouts,
            fast_retransmits: self.fast_retransmits - o.fast_retransmits,
            rtt_samples: self.rtt_samples - o.rtt_samples,
            rtt_sum_ps: self.rtt_sum_ps - o.rtt_sum_ps,
        }
    }
}

/// Per-link-direction queue counters, as ns-2's queue monitor keeps them: an arrival when a
/// packet reaches the queue, a departure when its transmission starts, a drop when the
/// discipline refuses it. The areas are time integrals of the waiting backlog in
/// packet-picoseconds and byte-picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueCounters {
    pub arrived_packets: u64,
    pub arrived_bytes: u64,
    pub departed_packets: u64,
    pub departed_bytes: u64,
    pub dropped_packets: u64,
    pub dropped_bytes: u64,
    pub area_packets: u128,
    pub area_bytes: u128,
    /// Packets lost by the link's loss model (not the queue's drops).
    pub lost_packets: u64,
    pub lost_bytes: u64,
    /// Largest backlog since the last reset (not a difference: see `Sub`).
    pub max_queue_packets: u64,
    /// Packets that crossed the link (reached its far end): packet-hops.
    pub delivered_packets: u64,
}

impl Sub for QueueCounters {
    type Output = QueueCounters;
    fn sub(self, o: QueueCounters) -> QueueCounters {
        QueueCounters {
            arrived_packets: self.arrived_packets - o.arrived_packets,
            arrived_bytes: self.arrived_bytes - o.arrived_bytes,
            departed_packets: self.departed_packets - o.departed_packets,
            departed_bytes: self.departed_bytes - o.departed_bytes,
            dropped_packets: self.dropped_packets - o.dropped_packets,
            dropped_bytes: self.dropped_bytes - o.dropped_bytes,
            area_packets: self.area_packets - o.area_packets,
            area_bytes: self.area_bytes - o.area_bytes,
            lost_packets: self.lost_packets - o.lost_packets,
            lost_bytes: self.lost_bytes - o.lost_bytes,
            max_queue_packets: self.max_queue_packets,
            delivered_packets: self.delivered_packets - o.delivered_packets,
        }
    }
}
