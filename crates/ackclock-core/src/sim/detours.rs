//! The paths a packet takes into a link only when the run has what needs them: a Quick-Start
//! request at a router (RFC 4782), a loss model at the link's entry that drops or delays
//! (ns-2.35's `ErrorModel::recv`), and the traced forwarding of a run that writes packet
//! traces. Kept apart from the loop in `mod.rs`, whose per-hop path only branches here.

use super::{Event, Simulator};
use crate::ids::LinkId;
use crate::net::{Carried, Enqueued};
use crate::packet::{Packet, PacketKind};
use crate::time::SimDuration;
use crate::trace::packets::TraceEvent;

impl Simulator {
    /// A Quick-Start request enters link `l` ([`Enqueued::QuickStart`]): the agent of the
    /// link's node sees it, then the link takes it.
    #[inline(never)]
    pub(super) fn quick_start_hop(&mut self, l: LinkId, c: Carried) {
        self.quick_start_router(l, c);
        let out = self.links[l.idx()].pass_quick_start(self.now, c, &mut self.pool);
        self.settle_passed(l, c, out);
    }

    /// What becomes of packet `c` offered to link `l` past its node's Quick-Start agent (a
    /// request it passed, or a packet a loss model delayed): the untraced outcomes of
    /// `enter_link`, whose own copy stays inline on the per-hop path.
    fn settle_passed(&mut self, l: LinkId, c: Carried, out: Enqueued) {
        match out {
            Enqueued::ScheduleHead(t) => {
                self.queue.push(t, Event::LinkHead(self.links.hop_of(l)));
            }
            Enqueued::Queued => {}
            Enqueued::Dropped => {
                let pkt = self.pool.take(c.r);
                self.count_drop(&pkt);
            }
            Enqueued::Lost => self.lost_at_entry(l, c),
            Enqueued::Held => self.enqueue_held(l, c.r),
            Enqueued::QuickStart => unreachable!("passed"),
        }
    }

    /// ns-2.35's `QSAgent::recv` at the node link `l` leaves from, for the pool's packet `c`
    /// if it carries a Quick-Start request (`net/quick_start.rs`): a node without an agent
    /// forwards it untouched, which breaks it (RFC 4782 section 4.3).
    #[inline(never)]
    pub(super) fn quick_start_router(&mut self, l: LinkId, c: Carried) {
        let now2 = self.now2();
        let now = self.now;
        let Some(qs) = self.quick_start.as_deref_mut() else {
            return;
        };
        let pkt = self.pool.get_mut(c.r);
        if pkt.kind != PacketKind::TcpData {
            return;
        }
        let Some(opt) = pkt.quick_start() else {
            return;
        };
        let link = &mut self.links[l.idx()];
        let out = match qs.routers[link.from.idx()].as_mut() {
            None => Some(crate::net::quick_start::QsOption {
                intact: false,
                ..opt
            }),
            Some(r) => r.on_request(
                now2,
                |r| link.quick_start_load(now, now2, r.reads_util(), r.reads_peak()),
                opt,
                qs.rates,
            ),
        };
        pkt.set_quick_start(out);
    }

    /// The loss model at link `l`'s entry took the pool's packet `c`: it is dropped, or
    /// delayed if the model delays what it takes.
    #[inline(never)]
    pub(super) fn lost_at_entry(&mut self, l: LinkId, c: Carried) {
        let pkt = self.pool.take(c.r);
        match self.links[l.idx()].take_loss_delay() {
            Some((stage, d)) => self.delay_at_entry(l, pkt, stage, d),
            None => self.count_drop(&pkt),
        }
    }

    /// ns-2.35's `ErrorModel::recv` with `delay_pkt_`: `schedule(target_, p, delay_)`, an
    /// event `delay_` after the running one (in ns-2's doubles and scheduling order under the
    /// ns2 profile), at which the packet goes on to the model after it (`stage`), or into
    /// the link's queue past the last.
    pub(super) fn delay_at_entry(&mut self, l: LinkId, pkt: Packet, stage: u8, d: SimDuration) {
        if self.loss_delayed.len() < self.links.len() {
            self.loss_delayed
                .resize_with(self.links.len(), Default::default);
        }
        let per_model = &mut self.loss_delayed[l.idx()];
        if per_model.len() < stage as usize {
            per_model.resize_with(stage as usize, Default::default);
        }
        per_model[stage as usize - 1].push_back(pkt);
        let t = self.now + d;
        if self.ns2_clock {
            let (at, key) = self.ns2_scheduled(t, false);
            self.queue.push_keyed(at, key, Event::LossDelayed(l, stage));
        } else {
            self.queue.push(t, Event::LossDelayed(l, stage));
        }
    }

    /// The oldest packet the loss model before `stage` delayed at link `l`'s entry goes on
    /// to the next model, or into the link (its `+` trace line now).
    #[inline(never)]
    pub(super) fn on_loss_delayed(&mut self, l: LinkId, stage: u8) {
        let Some(pkt) = self.loss_delayed[l.idx()][stage as usize - 1].pop_front() else {
            return;
        };
        let c = Carried::put(&mut self.pool, pkt);
        self.links[l.idx()].resume_loss_at(stage);
        // A request the model delayed has passed the node's Quick-Start agent already.
        self.links[l.idx()].set_quick_start_passed(true);
        if self.tracing {
            self.forward_traced(l, c);
        } else {
            let out = self.links[l.idx()].enqueue(self.now, c, &mut self.pool);
            self.settle_passed(l, c, out);
        }
        self.links[l.idx()].set_quick_start_passed(false);
        self.links[l.idx()].end_pass();
    }

    /// [`Simulator::forward_carried`] on a traced run: the packet as it was offered is
    /// traced entering the link (`+`) unless the loss model at the link's entry took it.
    /// Cold: an untraced run's send path (`enter_link`) is laid out without it.
    #[cold]
    #[inline(never)]
    pub(super) fn forward_traced(&mut self, l: LinkId, c: Carried) {
        let passed =
            self.links[l.idx()].quick_starts() && !self.links[l.idx()].quick_start_passed();
        if passed {
            self.quick_start_router(l, c);
            self.links[l.idx()].set_quick_start_passed(true);
        }
        let mut offered = *self.pool.get(c.r);
        if self.links[l.idx()].loses_at_entry() && !self.links[l.idx()].passes_loss() {
            // Traces ahead of the loss model see the packet before it is marked or taken.
            self.trace(l, TraceEvent::EnqueueAhead, &offered);
        }
        let outcome = self.links[l.idx()].enqueue(self.now, c, &mut self.pool);
        if passed {
            self.links[l.idx()].set_quick_start_passed(false);
        }
        if self.links[l.idx()].take_loss_mark() {
            offered.ecn |= crate::packet::ecn::CE; // a marking loss model at the entry
        }
        // Neither a loss model at the link's entry nor a link that is down lets the packet
        // reach the enqueue trace.
        if outcome != Enqueued::Lost
            && !(outcome == Enqueued::Held && self.links[l.idx()].is_down())
        {
            self.trace(l, TraceEvent::Enqueue, &offered);
        }
        match outcome {
            Enqueued::ScheduleHead(t) => {
                self.queue.push(t, Event::LinkHead(self.links.hop_of(l)));
                self.trace_start(l);
            }
            Enqueued::Queued => self.trace_start(l),
            Enqueued::Lost if self.links[l.idx()].took_to_delay() => {
                let pkt = self.pool.take(c.r);
                if let Some((stage, d)) = self.links[l.idx()].take_loss_delay() {
                    self.delay_at_entry(l, pkt, stage, d);
                }
            }
            Enqueued::Dropped | Enqueued::Lost => {
                let pkt = self.pool.take(c.r);
                self.count_drop(&pkt);
                let ev = if outcome == Enqueued::Lost {
                    TraceEvent::Lost
                } else {
                    TraceEvent::Drop
                };
                self.trace(l, ev, &pkt);
            }
            Enqueued::Held => self.enqueue_held(l, c.r),
            Enqueued::QuickStart => unreachable!("passed"),
        }
    }

    #[inline(never)]
    pub(super) fn trace(&mut self, l: LinkId, ev: TraceEvent, pkt: &Packet) {
        let now2 = self.now2();
        if let Some(t) = self.traces.as_mut() {
            t.record(self.now, now2, l.idx(), ev, pkt);
        }
    }

    /// Traces the transmission start of the packet a FIFO link just accepted.
    #[inline(never)]
    pub(super) fn trace_start(&mut self, l: LinkId) {
        let now2 = self.now2();
        if let (Some(t), Some((at, pkt))) = (
            self.traces.as_mut(),
            self.links[l.idx()].last_accepted(&self.pool),
        ) {
            t.dequeue(self.now, now2, at, l.idx(), pkt);
        }
    }
}
