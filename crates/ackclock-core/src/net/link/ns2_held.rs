//! ns-2's clock on a link whose discipline holds its packets and chooses the next one when
//! the line frees up (SFQ, DRR, FQ-CoDel, ...: `Service::Dequeue`), under `run.ties = "ns2"`.
//!
//! ns-2.35's `Queue::recv` (queue/queue.cc) enqueues the arrival and, on a free line
//! (`blocked_` 0), dequeues at once and hands that packet to `LinkDelay::recv`, which
//! schedules its arrival at the far node at `now + (txt + delay_)` and the queue's resume at
//! `now + txt`, in that order. `Queue::resume` dequeues the next packet and does the same, or
//! with nothing to send frees the line. Unlike a FIFO link's (`ns2_clock.rs`), whose packets'
//! times are known when they arrive, the packet that starts is known only when the
//! discipline is asked, so its ns-2 times are computed then, from the time of the event
//! that asked (the arrival on a free line, or the resume). CBQ does not dequeue at the
//! arrival: `CBQClass::recv` schedules a resume of delay 0 (`CBQueue::sched`), which dequeues
//! when it runs (`QueueDiscipline::DEQUEUE_EVENT`). A discipline that answers nothing
//! while it holds packets (TBF without tokens) is asked again at its wake-up (`wake_at`). A
//! discipline written in Python, one with periodic updates and a device queue below the
//! discipline do not keep ns-2's clock (`Link::keep_ns2_clock`).

use super::ns2_clock::{ns2_before, UNSTARTED};
use super::{Carried, Link};
use crate::net::Ns2Outcome;
use crate::packet::Packet;
use crate::packet_pool::{PacketPool, PacketRef};
use crate::time::SimTime;

impl Link {
    /// The pending resume's time, ns-2 time and scheduling order, one reserved by `reserve`
    /// for a discipline's wake-up (scheduled with no packet starting).
    pub fn ns2_resume_keyed(&mut self, reserve: impl FnOnce() -> u64) -> (SimTime, f64, u64) {
        if self.holds() {
            let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
            if ns2.resume.1 == UNSTARTED {
                ns2.resume.1 = reserve();
            }
        }
        self.ns2_resume()
    }

    /// The arrival of the pool's packet `r` at `now` (ns-2 time and scheduling order
    /// `pool.ns2_now`) on a link whose discipline holds its packets: the discipline takes it
    /// (and may drop it or others, appended to `drops`), and if the line is free (by ns-2's
    /// order of this arrival and the last resume) the packet the discipline chooses starts.
    pub fn enqueue_ns2_held(
        &mut self,
        now: SimTime,
        r: PacketRef,
        pool: &mut PacketPool,
        drops: &mut Vec<Packet>,
    ) -> Ns2Outcome {
        let (now2, uid) = pool.ns2_now;
        let ns2 = self.ns2.as_ref().expect("an ns-2 clock");
        let line_free = !ns2.resume_pending
            && (self.busy_until < now
                || (self.busy_until == now && ns2_before(ns2.resume, (now2, uid))));
        self.integrate_to(now);
        let pkt = pool.take(r);
        self.count_arrival(pkt.size);
        if let Some(m) = self.flow_monitor.as_mut() {
            m[pkt.flow.idx()].arrive(now.0, pkt.size, true);
        }
        let before = drops.len();
        self.queue.set_ns2_now(now2);
        self.queue.enqueue(now, pkt, drops);
        self.count_held_drops(&drops[before..], now);
        let q = self.backlog().packets;
        if q > self.counters.max_queue_packets {
            self.counters.max_queue_packets = q;
        }
        let out = if line_free && self.queue.dequeue_event() {
            // CBQ: `CBQClass::recv` schedules the dequeue as a resume of delay 0
            // (`CBQueue::sched`), which runs after the events this instant already holds.
            let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
            ns2.resume = (now2, UNSTARTED);
            ns2.resume_pending = true;
            self.busy_until = now;
            Ns2Outcome {
                started: false,
                head: false,
                resume: true,
            }
        } else if line_free {
            self.start_ns2_held(now, now2, pool, drops)
        } else {
            let more = self.queue.backlog().packets > 0;
            let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
            let resume = more && !ns2.resume_pending;
            ns2.resume_pending |= more;
            Ns2Outcome {
                started: false,
                head: false,
                resume,
            }
        };
        self.ns2_point(now2); // QueueMonitor::in (drop, out)
        out
    }

    /// ns-2's `Queue::resume` at `now` on a link whose discipline holds its packets: the
    /// discipline's next packet starts (its drops appended to `drops`), or the line goes idle.
    pub fn on_ns2_resume_held(
        &mut self,
        now: SimTime,
        pool: &mut PacketPool,
        drops: &mut Vec<Packet>,
    ) -> Ns2Outcome {
        self.integrate_to(now);
        let start2 = self.ns2.as_ref().expect("an ns-2 clock").resume.0;
        let out = self.start_ns2_held(now, start2, pool, drops);
        self.ns2_point(start2); // QueueMonitor::out
        out
    }

    /// The line is free at `now` (ns-2 time `start2`): `deque()`, and the packet it gives
    /// goes to `LinkDelay::recv` (its arrival at the far node, then the next resume).
    fn start_ns2_held(
        &mut self,
        now: SimTime,
        start2: f64,
        pool: &mut PacketPool,
        drops: &mut Vec<Packet>,
    ) -> Ns2Outcome {
        self.queue.set_ns2_now(start2);
        let (next, more) = self.dequeue_held(now, drops);
        let Some(pkt) = next else {
            let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
            return match self.queue.wake_at().filter(|_| more) {
                // Packets it may not send yet (a class over its limit): the discipline is
                // asked again at its wake-up, an event with no ns-2 time of its own, so at
                // that picosecond's double and ordered when it is scheduled (`sim/ns2_clock.rs`).
                Some(t) => {
                    ns2.resume = (crate::sched::ns2_seconds(t), UNSTARTED);
                    ns2.resume_pending = true;
                    self.busy_until = t.max(now);
                    Ns2Outcome {
                        started: false,
                        head: false,
                        resume: true,
                    }
                }
                None => {
                    // Nothing to send: `blocked_ = 0`, the line is idle.
                    ns2.resume_pending = false;
                    Ns2Outcome::default()
                }
            };
        };
        self.count_ce_departure(&pkt, pkt.flow.idx());
        let ns2 = self.ns2.as_mut().expect("an ns-2 clock");
        // ns-2's `LinkDelay::txtime`: 8 * size / bandwidth_, in that order.
        let txt = 8.0 * pkt.size as f64 / ns2.bw;
        ns2.busy = start2 + txt;
        let arrival2 = start2 + (txt + ns2.delay);
        ns2.resume = (ns2.busy, UNSTARTED);
        ns2.resume_pending = more;
        ns2.keys.push_back((arrival2, UNSTARTED));
        self.busy_until = crate::sched::ns2_ps(ns2.busy);
        let arrival = crate::sched::ns2_ps(arrival2);
        if let Some(v) = self.started.as_mut() {
            v.push((now, pkt));
        }
        self.in_flight.push_back((arrival, Carried::put(pool, pkt)));
        Ns2Outcome {
            started: true,
            head: self.in_flight.len() == 1,
            resume: more,
        }
    }

    /// ns-2.35's `Queue::reset` on a link going down: `while ((p = deque()) != 0) drop(p)`,
    /// the discipline's packets in the order it would have sent them, appended to
    /// `dropped`.
    pub(super) fn ns2_drain_held(&mut self, now: SimTime, dropped: &mut Vec<Packet>) {
        loop {
            let before = dropped.len();
            let next = self.queue.dequeue(now, dropped);
            // What the discipline itself dropped on the way is dropped all the same.
            let n = dropped.len() - before;
            let Some((_, pkt)) = next else {
                self.count_drained(&dropped[dropped.len() - n..], now);
                break;
            };
            dropped.push(pkt);
            let n = n + 1;
            self.count_drained(&dropped[dropped.len() - n..], now);
        }
    }

    fn count_drained(&mut self, dropped: &[Packet], now: SimTime) {
        for p in dropped {
            if let Some(m) = self.flow_monitor.as_mut() {
                m[p.flow.idx()].drop(now.0, p.size, true);
            }
        }
    }
}
