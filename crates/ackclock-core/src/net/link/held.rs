//! The dequeue-time service of a link (`Service::Dequeue`: CoDel, FQ-CoDel, the schedulers):
//! the discipline holds the waiting packets and is asked for the next one whenever the line
//! frees up, which takes a transmission-done event while packets wait; below it, optionally,
//! a device queue (`net::device`, the traffic-control layer), whose packets wait in the
//! link's FIFO rings as a FIFO link's do.

use super::super::device::{DeviceParams, DeviceQueue};
use super::{Carried, Link};
use crate::packet::Packet;
use crate::packet_pool::{PacketPool, PacketRef};
use crate::queue::Backlog;
use crate::time::SimTime;

/// What the simulator must do after a call on a dequeue-time discipline's link
/// ([`Link::enqueue_held`], [`Link::on_tx_done`]): schedule the link's head event at `head`
/// (its ring was empty and a packet started), and its transmission-done event at `tx_done`
/// (packets wait). The packets the discipline dropped meanwhile were appended to the vector
/// the caller passed, for it to count.
#[must_use]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeldOutcome {
    pub head: Option<SimTime>,
    pub tx_done: Option<SimTime>,
}

impl Link {
    /// Puts a device queue below the link's dequeue-time discipline (the traffic-control
    /// layer: `net::device`).
    pub fn set_device(&mut self, p: DeviceParams) {
        self.device = Some(Box::new(DeviceQueue::new(p)));
    }

    /// The device queue's byte queue limit, if the link has one with BQL.
    pub fn bql_limit(&self) -> Option<u32> {
        self.device.as_ref().and_then(|d| d.bql_limit())
    }

    #[inline]
    pub(super) fn held_backlog(&self) -> Backlog {
        let b = self.queue.backlog();
        if self.device.is_none() {
            return b;
        }
        Backlog {
            packets: b.packets + self.waiting.len() as u64,
            bytes: b.bytes + self.waiting_bytes,
        }
    }

    /// Offers the pool's packet `r` to the link's dequeue-time discipline at `now` (after
    /// [`Link::enqueue`] answered [`Enqueued::Held`](super::Enqueued::Held)); the packet leaves
    /// the pool. Returns the events the link needs; the packets the discipline dropped (this
    /// one or others) are appended to `drops`.
    pub fn enqueue_held(
        &mut self,
        now: SimTime,
        r: PacketRef,
        pool: &mut PacketPool,
        drops: &mut Vec<Packet>,
    ) -> HeldOutcome {
        if self.device.is_some() {
            // Packets the device started sending while the link had no event leave its queue
            // at their start, before the time since is integrated.
            self.pop_device(now);
            self.empty_run(now, drops);
        }
        self.integrate_to(now);
        let pkt = pool.take(r);
        self.count_arrival(pkt.size);
        let mut out = HeldOutcome::default();
        let before = drops.len();
        if let Some(m) = self.flow_monitor.as_mut() {
            m[pkt.flow.idx()].arrive(now.0, pkt.size, true);
        }
        // Marks made at arrival (RED's and FQ-PIE's early decisions) count here, those made
        // at departure in `dequeue_held` and `fill_device`.
        let marks = self.queue.marks();
        self.queue.enqueue(now, pkt, drops);
        self.counters.marked_packets += self.queue.marks() - marks;
        self.count_held_drops(&drops[before..], now);
        let q = self.backlog().packets;
        if q > self.counters.max_queue_packets {
            self.counters.max_queue_packets = q;
        }
        if self.device.is_some() {
            self.fill_device(now, pool, drops, &mut out);
            return out;
        }
        if !self.tx_event_pending {
            if self.busy_until <= now {
                self.start_next(now, pool, drops, &mut out);
            } else {
                self.tx_event_pending = true;
                out.tx_done = Some(self.busy_until);
            }
        }
        out
    }

    pub(super) fn count_held_drops(&mut self, dropped: &[Packet], now: SimTime) {
        for p in dropped {
            self.counters.dropped_packets += 1;
            self.counters.dropped_bytes += p.size as u64;
            if let Some(m) = self.flow_monitor.as_mut() {
                m[p.flow.idx()].drop(now.0, p.size, true);
            }
        }
    }

    /// The discipline's next packet at `now`, counted as the line takes it (the discipline's
    /// drops and marks meanwhile, its sojourn, its flow's departure), and whether packets
    /// remain held. Shared by the dequeue-time service and its ns-2 clock (`ns2_held.rs`).
    pub(super) fn dequeue_held(
        &mut self,
        now: SimTime,
        drops: &mut Vec<Packet>,
    ) -> (Option<Packet>, bool) {
        let marks = self.queue.marks();
        let before = drops.len();
        let next = self.queue.dequeue(now, drops);
        self.counters.marked_packets += self.queue.marks() - marks;
        let more = self.queue.backlog().packets > 0;
        self.count_held_drops(&drops[before..], now);
        let Some((at, pkt)) = next else {
            return (None, more);
        };
        self.record_sojourn(now.0 - at.0);
        if let Some(m) = self.flow_monitor.as_mut() {
            let f = &mut m[pkt.flow.idx()];
            f.depart(now.0, pkt.size, true);
            f.waited_ps += (now.0 - at.0) as u128;
            f.waited_packets += 1;
        }
        (Some(pkt), more)
    }

    /// The line is free at `now`: asks the dequeue-time discipline for the next packet.
    fn start_next(
        &mut self,
        now: SimTime,
        pool: &mut PacketPool,
        drops: &mut Vec<Packet>,
        out: &mut HeldOutcome,
    ) {
        let (next, more) = self.dequeue_held(now, drops);
        let Some(pkt) = next else {
            // A shaper holding its packets until it has the tokens: ask again then.
            if more {
                if let Some(t) = self.queue.wake_at() {
                    self.tx_event_pending = true;
                    out.tx_done = Some(t);
                }
            }
            return;
        };
        self.busy_until = now + self.rate.tx_time(pkt.size);
        let arrival = self.busy_until + self.delay;
        if let Some(v) = self.started.as_mut() {
            v.push((now, pkt));
        }
        self.in_flight.push_back((arrival, Carried::put(pool, pkt)));
        if self.in_flight.len() == 1 {
            out.head = Some(arrival);
        }
        if more {
            self.tx_event_pending = true;
            out.tx_done = Some(self.busy_until);
        }
    }

    /// The transmission-done event of a dequeue-time discipline's link: returns the events
    /// the link needs next; the discipline's drops are appended to `drops`.
    pub fn on_tx_done(
        &mut self,
        now: SimTime,
        pool: &mut PacketPool,
        drops: &mut Vec<Packet>,
    ) -> HeldOutcome {
        self.tx_event_pending = false;
        let mut out = HeldOutcome::default();
        if self.device.is_some() {
            self.fill_device(now, pool, drops, &mut out);
        } else {
            self.integrate_to(now);
            self.start_next(now, pool, drops, &mut out);
        }
        out
    }

    /// With `ns3_run` (`net::device`): the run of a device queue that woke before `now` with
    /// the discipline empty, a dequeue that finds nothing (made before a packet arriving at
    /// `now` is enqueued; at the instant of the wake itself the arrival comes first, as
    /// ns-3's wake is scheduled behind it, and its own run is the wake's).
    fn empty_run(&mut self, now: SimTime, drops: &mut Vec<Packet>) {
        let d = self.device.as_mut().expect("a device queue");
        let Some(at) = d.empty_wake.take() else {
            return;
        };
        if at < now && d.open() {
            let got = self.queue.dequeue(at, drops);
            debug_assert!(got.is_none(), "the discipline was empty");
        }
    }

    /// The device queue takes the packets that started transmission by `now` (a departure
    /// from the link's backlog), each counted as completed by BQL at its start.
    pub(super) fn pop_device(&mut self, now: SimTime) {
        while let Some(&(start, size, flow)) = self.waiting.front() {
            if start > now {
                break;
            }
            self.integrate_to(start);
            self.waiting.pop_front();
            self.waiting_bytes -= size as u64;
            if let Some(m) = self.flow_monitor.as_mut() {
                m[flow as usize].depart(start.0, size, true);
            }
            let d = self.device.as_mut().expect("a device queue");
            if d.taken(size, start) && d.ns3_run() && self.queue.backlog().packets == 0 {
                d.empty_wake = Some(start);
            }
        }
    }

    /// The traffic-control layer's transmit loop (ns-3's `QueueDisc::Run`): while the device
    /// queue is not stopped, the discipline hands it its next packet, which leaves at line
    /// rate behind those already there. Then the link needs an event when the device next
    /// takes a packet (and may wake), or when a shaper will have tokens.
    fn fill_device(
        &mut self,
        now: SimTime,
        pool: &mut PacketPool,
        drops: &mut Vec<Packet>,
        out: &mut HeldOutcome,
    ) {
        loop {
            self.pop_device(now);
            self.integrate_to(now);
            if !self.device.as_ref().expect("a device queue").open() {
                break;
            }
            let marks = self.queue.marks();
            let before = drops.len();
            let next = self.queue.dequeue(now, drops);
            self.counters.marked_packets += self.queue.marks() - marks;
            self.count_held_drops(&drops[before..], now);
            let Some((at, pkt)) = next else {
                break;
            };
            let start = now.max(self.busy_until);
            self.record_sojourn(start.0 - at.0);
            self.busy_until = start + self.rate.tx_time(pkt.size);
            let arrival = self.busy_until + self.delay;
            // Traced when it leaves the discipline (in time order), not at its start.
            if let Some(v) = self.started.as_mut() {
                v.push((now, pkt));
            }
            self.waiting.push_back((start, pkt.size, pkt.flow.0));
            self.waiting_bytes += pkt.size as u64;
            self.device
                .as_mut()
                .expect("a device queue")
                .queued(pkt.size);
            self.in_flight.push_back((arrival, Carried::put(pool, pkt)));
            if self.in_flight.len() == 1 {
                out.head = Some(arrival);
            }
            if self.queue.backlog().packets == 0
                && self.device.as_ref().expect("a device queue").ns3_run()
            {
                // ns-3.44's QueueDisc::Transmit: the disc is empty, the run ends.
                break;
            }
        }
        let q = self.held_backlog().packets;
        if q > self.counters.max_queue_packets {
            self.counters.max_queue_packets = q;
        }
        if self.tx_event_pending || self.queue.backlog().packets == 0 {
            return;
        }
        let next_start = self.waiting.front().map(|&(t, _, _)| t);
        let wake = if self.device.as_ref().expect("a device queue").open() {
            self.queue.wake_at()
        } else {
            next_start
        };
        if let Some(t) = wake {
            self.tx_event_pending = true;
            out.tx_done = Some(t);
        }
    }
}
