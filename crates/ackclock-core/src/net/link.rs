//! A simplex link direction: a FIFO queue in front of a serialiser and a propagation delay.
//!
//! ns-2 semantics: a packet occupies the line for its transmission time (size / rate) and
//! reaches the far node when its last bit does, one propagation delay after it finished
//! transmitting. The link is work-conserving and FIFO, so a packet's transmission start is
//! known when it is accepted: `start = max(arrival, previous finish)`. Packets waiting, on
//! the wire and propagating all sit in one in-flight ring in arrival order; only its head
//! has an event in the global queue. The waiting backlog is the accepted packets whose start
//! lies in the future, kept in a second small ring, so no dequeue event is ever needed.

use std::collections::VecDeque;

use crate::ids::NodeId;
use crate::loss::AnyLoss;
use crate::monitor::QueueCounters;
use crate::packet::Packet;
use crate::queue::{AnyQueue, Backlog};
use crate::time::{Rate, SimDuration, SimTime};

#[derive(Debug)]
pub struct Link {
    pub from: NodeId,
    pub to: NodeId,
    pub rate: Rate,
    pub delay: SimDuration,
    queue: AnyQueue,
    loss: Option<AnyLoss>,
    /// When the line finishes serialising the last accepted packet.
    busy_until: SimTime,
    /// Accepted packets not yet started: (transmission start, size).
    waiting: VecDeque<(SimTime, u32)>,
    waiting_bytes: u64,
    /// Every accepted packet not yet delivered, with its arrival time at `to`.
    in_flight: VecDeque<(SimTime, Packet)>,
    /// Counters and time integrals of the waiting backlog, up to `counted_until`.
    pub counters: QueueCounters,
    counted_until: SimTime,
}

/// What happened to a packet offered to a link.
#[derive(Debug, PartialEq, Eq)]
pub enum Enqueued {
    /// Accepted; the link was empty, so its head event must be scheduled at this time.
    ScheduleHead(SimTime),
    /// Accepted behind other packets; the head event already exists.
    Queued,
    Dropped,
}

impl Link {
    pub fn new(from: NodeId, to: NodeId, rate: Rate, delay: SimDuration, queue: AnyQueue) -> Link {
        Link {
            from,
            to,
            rate,
            delay,
            queue,
            loss: None,
            busy_until: SimTime::ZERO,
            waiting: VecDeque::with_capacity(64),
            waiting_bytes: 0,
            in_flight: VecDeque::with_capacity(64),
            counters: QueueCounters::default(),
            counted_until: SimTime::ZERO,
        }
    }

    /// Packets waiting for the line at the last `advance`.
    pub fn backlog(&self) -> Backlog {
        Backlog {
            packets: self.waiting.len() as u64,
            bytes: self.waiting_bytes,
        }
    }

    /// Brings the backlog and its time integrals up to `now`: packets whose transmission has
    /// started by then leave the queue (a departure, as ns-2's queue monitor counts it).
    #[inline]
    pub fn advance(&mut self, now: SimTime) {
        while let Some(&(start, size)) = self.waiting.front() {
            if start > now {
                break;
            }
            self.integrate_to(start);
            self.waiting.pop_front();
            self.waiting_bytes -= size as u64;
            self.counters.departed_packets += 1;
            self.counters.departed_bytes += size as u64;
        }
        self.integrate_to(now);
    }

    #[inline]
    fn integrate_to(&mut self, t: SimTime) {
        if t > self.counted_until {
            let dt = (t.0 - self.counted_until.0) as u128;
            self.counters.area_packets += dt * self.waiting.len() as u128;
            self.counters.area_bytes += dt * self.waiting_bytes as u128;
            self.counted_until = t;
        }
    }

    /// Offers `pkt` to the link at `now`.
    #[inline]
    pub fn enqueue(&mut self, now: SimTime, pkt: Packet) -> Enqueued {
        self.advance(now);
        let size = pkt.size;
        self.counters.arrived_packets += 1;
        self.counters.arrived_bytes += size as u64;
        if !self.queue.admit(self.backlog(), size) {
            self.counters.dropped_packets += 1;
            self.counters.dropped_bytes += size as u64;
            return Enqueued::Dropped;
        }
        let start = now.max(self.busy_until);
        self.busy_until = start + self.rate.tx_time(size);
        let arrival = self.busy_until + self.delay;
        if start > now {
            self.waiting.push_back((start, size));
            self.waiting_bytes += size as u64;
            let q = self.waiting.len() as u64;
            if q > self.counters.max_queue_packets {
                self.counters.max_queue_packets = q;
            }
        } else {
            self.counters.departed_packets += 1;
            self.counters.departed_bytes += size as u64;
        }
        self.in_flight.push_back((arrival, pkt));
        if self.in_flight.len() == 1 {
            Enqueued::ScheduleHead(arrival)
        } else {
            Enqueued::Queued
        }
    }

    /// Removes the head packet, which arrives at `to` now, and returns it with the arrival
    /// time of the next packet, if any, for which the caller schedules the next head event.
    #[inline]
    pub fn deliver_head(&mut self) -> (Packet, Option<SimTime>) {
        let (_, pkt) = self
            .in_flight
            .pop_front()
            .expect("link head event without a packet");
        self.counters.delivered_packets += 1;
        (pkt, self.in_flight.front().map(|&(t, _)| t))
    }

    pub fn set_loss(&mut self, loss: AnyLoss) {
        self.loss = Some(loss);
    }

    /// Whether the loss model takes the packet that has just crossed the link.
    #[inline]
    pub fn loses(&mut self, pkt: &Packet) -> bool {
        let Some(m) = self.loss.as_mut() else {
            return false;
        };
        let lost = m.drops(pkt);
        if lost {
            self.counters.lost_packets += 1;
            self.counters.lost_bytes += pkt.size as u64;
        }
        lost
    }

    /// Packets accepted but not yet delivered (waiting, on the wire or propagating).
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Restarts the running maximum of the backlog (at the start of the measurement window).
    pub fn reset_max_queue(&mut self) {
        self.counters.max_queue_packets = self.waiting.len() as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::FlowId;
    use crate::packet::{PacketKind, SackBlocks};
    use crate::queue::DropTail;

    fn pkt(size: u32) -> Packet {
        Packet {
            id: 0,
            flow: FlowId(0),
            kind: PacketKind::Udp,
            src: NodeId(0),
            dst: NodeId(1),
            size,
            seq: 0,
            ack: 0,
            sent_at: SimTime::ZERO,
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: 0,
        }
    }

    fn link(limit: u64) -> Link {
        let q = AnyQueue::DropTail(DropTail {
            limit_packets: Some(limit),
            limit_bytes: None,
            ns2: false,
        });
        Link::new(
            NodeId(0),
            NodeId(1),
            Rate::from_bps_f64(8e6).unwrap(),
            SimDuration(5_000),
            q,
        )
    }

    #[test]
    fn arrival_is_transmission_plus_propagation() {
        let mut l = link(10);
        // 1000 B at 8 Mb/s = 1 ms = 1e9 ps.
        assert_eq!(
            l.enqueue(SimTime(0), pkt(1000)),
            Enqueued::ScheduleHead(SimTime(1_000_005_000))
        );
        assert_eq!(l.enqueue(SimTime(0), pkt(1000)), Enqueued::Queued);
        let (_, next) = l.deliver_head();
        assert_eq!(next, Some(SimTime(2_000_005_000)));
    }

    #[test]
    fn backlog_drains_at_line_rate_and_integrates() {
        let mut l = link(2);
        for _ in 0..4 {
            l.enqueue(SimTime(0), pkt(1000));
        }
        // One on the wire, two waiting, one dropped.
        assert_eq!(l.counters.dropped_packets, 1);
        assert_eq!(l.backlog().packets, 2);
        l.advance(SimTime(1_000_000_000));
        assert_eq!(l.backlog().packets, 1);
        l.advance(SimTime(3_000_000_000));
        assert_eq!(l.backlog().packets, 0);
        let c = l.counters;
        assert_eq!(c.arrived_packets, c.departed_packets + c.dropped_packets);
        // Two packets waited 1 ms and 2 ms: 3 packet-ms.
        assert_eq!(c.area_packets, 3_000_000_000);
    }
}
