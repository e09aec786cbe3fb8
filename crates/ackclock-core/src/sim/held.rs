//! Links whose service is not the plain FIFO one: a dequeue-time discipline's (CoDel,
//! FQ-CoDel, PIE, a queue above a device queue) and a FIFO link under ns-2's clock
//! (`ns2_clock.rs`). The loop hands their packets here and schedules what they ask for.

use super::{Event, Simulator};
use crate::ids::LinkId;
use crate::net::HeldOutcome;
use crate::packet::Packet;
use crate::packet_pool::PacketRef;
use crate::trace::packets::TraceEvent;

impl Simulator {
    /// The pool's packet `r` enters link `l`, whose service is not the FIFO one
    /// ([`Enqueued::Held`]): a dequeue-time discipline's, or a FIFO link's under ns-2's
    /// clock (`sim/ns2_clock.rs`).
    #[inline(never)]
    pub(super) fn enqueue_held(&mut self, l: LinkId, r: PacketRef) {
        let link = &mut self.links[l.idx()];
        if link.is_down() {
            // ns-2's DynamicLink at the head of a link that is down drops it, untraced.
            let pkt = self.pool.take(r);
            self.count_drop(&pkt);
            return;
        }
        if link.has_ns2_clock() && link.holds() {
            let mut drops = std::mem::take(&mut self.held_drops);
            let out = link.enqueue_ns2_held(self.now, r, &mut self.pool, &mut drops);
            self.count_ns2_held_drops(l, drops);
            self.collect_ns2(l, out);
            return;
        }
        if link.has_ns2_clock() {
            match link.enqueue_ns2(self.now, r, &mut self.pool) {
                Some(out) => self.collect_ns2(l, out),
                None => {
                    let pkt = self.pool.take(r);
                    self.count_drop(&pkt);
                    if self.tracing {
                        self.trace(l, TraceEvent::Drop, &pkt);
                    }
                }
            }
            return;
        }
        let mut drops = std::mem::take(&mut self.held_drops);
        let out = link.enqueue_held(self.now, r, &mut self.pool, &mut drops);
        self.collect_held(l, out, drops);
    }

    /// The transmission-done event of link `l` (a dequeue-time discipline's).
    #[inline(never)]
    pub(super) fn on_tx_done(&mut self, l: LinkId) {
        let mut drops = std::mem::take(&mut self.held_drops);
        let out = self.links[l.idx()].on_tx_done(self.now, &mut self.pool, &mut drops);
        self.collect_held(l, out, drops);
    }

    /// After a call on a dequeue-time discipline's link `l`: counts the packets it dropped
    /// (`dropped`, whose memory is kept for the next call), traces the transmissions it
    /// started, and schedules the events it needs (`out`).
    pub(super) fn collect_held(&mut self, l: LinkId, out: HeldOutcome, mut dropped: Vec<Packet>) {
        for p in dropped.drain(..) {
            self.count_drop(&p);
            if self.tracing {
                self.trace(l, TraceEvent::Drop, &p);
            }
        }
        self.held_drops = dropped;
        if self.tracing {
            let started = self.links[l.idx()].take_started();
            let now2 = self.now2();
            if let Some(t) = self.traces.as_mut() {
                for (at, p) in &started {
                    t.dequeue(self.now, now2, *at, l.idx(), p);
                }
            }
            self.links[l.idx()].return_started(started);
        }
        if let Some(t) = out.head {
            self.queue.push(t, Event::LinkHead(self.links.hop_of(l)));
        }
        if let Some(t) = out.tx_done {
            self.queue.push(t, Event::TxDone(l));
        }
    }
}
