//! The device queue below a root queue discipline: ns-3's traffic-control layer
//! (src/traffic-control/model/traffic-control-layer.cc, queue-disc.cc `QueueDisc::Run` /
//! `Restart` / `Transmit`) above a point-to-point device's own queue
//! (src/point-to-point/model/point-to-point-net-device.cc, a `DropTailQueue` of 100 packets),
//! with the device queue's flow control (src/network/utils/net-device-queue-interface.h,
//! `NetDeviceQueue::PacketEnqueued` / `PacketDequeued`) and optional byte queue limits
//! (`queue::bql`, Linux's and ns-3's dynamic queue limits); Linux's qdisc layer above a
//! driver ring with BQL is the same structure.
//!
//! The root discipline hands packets to the device queue while the device queue is not
//! stopped; the device sends them in order at line rate. The device queue stops when, after
//! a packet entered it, it could not take another (it holds `limit` packets), or when BQL's
//! available bytes fell below zero; it wakes when the device takes a packet from it to
//! transmit (BQL counts that packet completed then, as ns-3 does) and it has room again, or
//! BQL's available bytes are back at zero or more. Packets in the device queue have known
//! transmission starts (a FIFO at line rate), so the link keeps them in its FIFO rings; this
//! file keeps the count, the byte limits and the stop state.
//!
//! With `ns3_run` (the `ns3` profile), the transmit loop is ns-3.44's to the dequeue: it
//! stops once a packet it hands over leaves the queue disc empty (`QueueDisc::Transmit`
//! returns false when `GetNPackets() == 0`), so it does not ask an empty disc for another;
//! and a device queue that wakes (`NetDeviceQueue::Wake` or `NotifyTransmittedBytes` after
//! `PacketDequeued`'s `ScheduleNow`, when it had been stopped) runs it even when the disc is
//! empty (`QueueDisc::Run` -> `Restart` -> `DequeuePacket` -> `Dequeue`), a dequeue that
//! finds nothing but ends CoDel's dropping state (`CoDelQueueDisc::DoDequeue`) and retires
//! FqCoDel's empty flows (`FqCoDelQueueDisc::DoDequeue`). Without it the loop asks until the
//! discipline has nothing (Linux's `__qdisc_run` ends on an empty dequeue too) and a wake
//! with nothing waiting does nothing.

use crate::queue::bql::{Dql, DqlParams};
use crate::time::SimTime;

#[derive(Clone, Copy, Debug)]
pub struct DeviceParams {
    /// Packets the device queue holds (ns-3's point-to-point default: 100).
    pub limit_packets: u64,
    /// Byte queue limits; None: off (ns-3's default).
    pub bql: Option<DqlParams>,
    /// ns-3.44's transmit loop (module docs).
    pub ns3_run: bool,
}

#[derive(Clone, Debug)]
pub struct DeviceQueue {
    p: DeviceParams,
    dql: Option<Dql>,
    /// Packets in the device queue, not yet taken by the device.
    len: u64,
    stopped_by_device: bool,
    stopped_by_limits: bool,
    /// With `ns3_run`: the instant the device queue woke with the discipline empty, whose
    /// run (a dequeue of nothing) is still to be made.
    pub empty_wake: Option<SimTime>,
}

impl DeviceQueue {
    pub fn new(p: DeviceParams) -> DeviceQueue {
        DeviceQueue {
            p,
            dql: p.bql.map(Dql::new),
            len: 0,
            stopped_by_device: false,
            stopped_by_limits: false,
            empty_wake: None,
        }
    }

    /// Whether the root discipline may hand over a packet.
    #[inline]
    pub fn open(&self) -> bool {
        !self.stopped_by_device && !self.stopped_by_limits
    }

    /// A packet of `size` bytes entered the device queue (`PacketEnqueued`).
    pub fn queued(&mut self, size: u32) {
        self.len += 1;
        if let Some(d) = self.dql.as_mut() {
            d.queued(size);
            if d.avail() < 0 {
                self.stopped_by_limits = true;
            }
        }
        if self.len + 1 > self.p.limit_packets {
            self.stopped_by_device = true;
        }
    }

    /// The device took a packet of `size` bytes from its queue at `now` to transmit it
    /// (`PacketDequeued` and the deferred `NotifyTransmittedBytes`). Returns whether the
    /// queue woke: it had been stopped and is open now (ns-3 runs the queue disc then).
    pub fn taken(&mut self, size: u32, now: SimTime) -> bool {
        let was_open = self.open();
        self.len -= 1;
        if let Some(d) = self.dql.as_mut() {
            d.completed(size, now);
            if d.avail() >= 0 {
                self.stopped_by_limits = false;
            }
        }
        if self.len < self.p.limit_packets {
            self.stopped_by_device = false;
        }
        !was_open && self.open()
    }

    /// Whether the transmit loop is ns-3.44's (`ns3_run`).
    #[inline]
    pub fn ns3_run(&self) -> bool {
        self.p.ns3_run
    }

    pub fn limit_packets(&self) -> u64 {
        self.p.limit_packets
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// BQL's limit in bytes, if on.
    pub fn bql_limit(&self) -> Option<u32> {
        self.dql.as_ref().map(Dql::limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_when_full_and_wakes_with_room() {
        let mut d = DeviceQueue::new(DeviceParams {
            limit_packets: 3,
            bql: None,
            ns3_run: false,
        });
        d.queued(1500);
        d.queued(1500);
        assert!(d.open());
        d.queued(1500);
        assert!(!d.open(), "three held: no room for another");
        assert!(d.taken(1500, SimTime(1)), "woke");
        assert!(d.open());
        assert_eq!(d.len(), 2);
        assert!(!d.taken(1500, SimTime(2)), "open already: no wake");
    }

    #[test]
    fn bql_stops_the_queue_at_its_limit() {
        let mut d = DeviceQueue::new(DeviceParams {
            limit_packets: 100,
            bql: Some(DqlParams::default()),
            ns3_run: false,
        });
        // Limit 0 at first: the first packet stops the queue until it is taken.
        d.queued(1500);
        assert!(!d.open());
        assert!(d.taken(1500, SimTime(1)));
        assert!(d.open());
        assert_eq!(d.bql_limit(), Some(1500));
        d.queued(1500);
        assert!(d.open(), "avail 0 is not below 0");
        d.queued(1500);
        assert!(!d.open());
    }
}
