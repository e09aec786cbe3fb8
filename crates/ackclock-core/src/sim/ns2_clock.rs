//! The ns2 profile's event order: ns-2.35's double-valued clock beside ackclock's exact one.
//!
//! ns-2.35 (`common/scheduler.cc`) dispatches events by their double time, and events of
//! equal time in the order they were scheduled (`Scheduler::schedule` numbers them by uid;
//! `CalendarScheduler::insert` puts an event after those of its time, its `resize` keeps that
//! order; `Heap` compares insertion counts). Its times are sums of doubles (`LinkDelay::recv`:
//! arrival at `now + (txt + delay_)`, resume at `now + txt`, `txt = 8 * size / bandwidth_`),
//! so events that are simultaneous in exact time, such as the packets of symmetric flows
//! reaching a switch, come a rounding error apart, in an order set by the paths that summed
//! them. Under the ns2 profile the scheduler orders events of one exact time by their ns-2
//! time and then by ns-2's scheduling order (`sched::ns2_key`); links compute those times
//! with ns-2's arithmetic (`net::link::ns2_clock`), and the engine's clock follows those
//! doubles to the picosecond (`sched::ns2_ps`): ns-2's sums drift from the exact times by
//! tens of nanoseconds over a long run, so its order of events is that of its doubles, not
//! of exact time with ties broken by them. Reported times are ns-2's, to the picosecond.
//!
//! A TCP timer takes ns-2's sum for its time (the running event's double plus the delay)
//! and runs at that double's picosecond. Events without an ns-2 time of their own (pacing,
//! samples) count as at their picosecond's double, scheduled when ackclock schedules them.

use super::*;
use crate::net::Ns2Outcome;
use crate::sched::{ns2_key, ns2_ps, ns2_seconds, ns2_unkey, NS2_FIRST_UID};

/// A TCP timer as ns-2 last set it (`TimerHandler::resched`: a new event at clock + delay in
/// doubles, with a new uid): the deadline it was set for, its ns-2 time and its scheduling
/// order.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Ns2Timer {
    deadline: Option<SimTime>,
    t2: f64,
    uid: u64,
}

/// A TCP flow's timers under the ns2 profile: the sender's retransmission timer, the sink's
/// delayed-ACK timer and the sender's delayed-send timer (`overhead_`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Ns2Timers {
    rto: Ns2Timer,
    delack: Ns2Timer,
    delsnd: Ns2Timer,
}

impl Ns2Timers {
    /// The sender's timers (`sender`: retransmission, delayed send) or the sink's delayed
    /// ACK were cancelled (`TcpAgent::reset`'s `cancel_timers`, `DelAckSink::reset`): the
    /// next deadline set is a new timer, whatever its time.
    pub(super) fn cancel(&mut self, sender: bool) {
        if sender {
            self.rto = Ns2Timer::default();
            self.delsnd = Ns2Timer::default();
        } else {
            self.delack = Ns2Timer::default();
        }
    }
}

impl Ns2Timer {
    /// Records `deadline` if it is new: ns-2's time for it is the running event's double
    /// `now2` plus the delay, and it takes the next scheduling order from `q`. Returns the
    /// picosecond of that double where it is not the deadline's own (the deadline is exact
    /// time plus the delay, ns-2's sum rounds: one picosecond either way in a few percent of
    /// timers); the caller moves the agent's deadline there ([`Ns2Timer::moved`]), so that
    /// the timer runs among the events of its ns-2 time and not a picosecond off them.
    fn arm(
        &mut self,
        deadline: Option<SimTime>,
        now: SimTime,
        now2: f64,
        q: &mut EventQueue<Event>,
    ) -> Option<(SimTime, SimTime)> {
        if self.deadline == deadline {
            return None;
        }
        self.deadline = deadline;
        let d = deadline?;
        self.t2 = now2 + ns2_seconds(SimTime(d.0 - now.0));
        self.uid = q.reserve(1);
        let t = ns2_ps(self.t2).max(now);
        (t != d).then_some((d, t))
    }

    /// Records the timer just set for `delay` seconds (a double as ns-2 computed it, not a
    /// picosecond count), if `deadline` is new: its ns-2 time is `now2 + delay` and it takes
    /// the next scheduling order. Returns that time's picosecond, where the timer runs.
    fn arm_delay(
        &mut self,
        deadline: Option<SimTime>,
        delay: f64,
        now: SimTime,
        now2: f64,
        q: &mut EventQueue<Event>,
    ) -> Option<SimTime> {
        if deadline.is_none() || self.deadline == deadline {
            return None;
        }
        self.t2 = now2 + delay;
        self.uid = q.reserve(1);
        let t = ns2_ps(self.t2).max(now);
        self.deadline = Some(t);
        Some(t)
    }

    /// The agent's deadline now stands at `t`, its ns-2 time's picosecond.
    fn moved(&mut self, t: SimTime) {
        self.deadline = Some(t);
    }
}

impl Simulator {
    /// [`Simulator::sync_timers`] under the ns2 profile: a retransmission or delayed-ACK
    /// deadline just set gets ns-2's time for it (the running event's double plus the
    /// delay) and the next scheduling order, and its event carries them, so the timeout and
    /// what it sends run at ns-2's time and in ns-2's order: `TcpAgent::set_rtx_timer`
    /// (`rtx_timer_.resched(rtt_timeout())`) and `DelAckSink::recv`
    /// (`delay_timer_.resched(interval_)`, tcp-sink.cc). Pacing as in `sync_timers`. Out of
    /// line: the other profiles' hot path only tests the flag.
    #[inline(never)]
    pub(super) fn ns2_sync_timers(&mut self, f: FlowId) {
        let Agent::Tcp { sender, sink } = &mut self.flows[f.idx()].agent else {
            return;
        };
        let (now, now2) = (self.now, self.pool.ns2_now.0);
        let armed = &mut self.ns2_timers[f.idx()];
        // A timer runs at its ns-2 time's picosecond: where exact time plus the delay rounds
        // to another, its deadline moves there (a delayed ACK due with a data segment's
        // arrival at one ns-2 time ran a picosecond after it: seed 002's model, N = 5,
        // p = 0.1, 154.048179 s).
        if let Some((d, t)) = armed
            .rto
            .arm(sender.rto_deadline(), now, now2, &mut self.queue)
        {
            if sender.retime_rto(d, t) {
                armed.rto.moved(t);
            }
        }
        if let Some((d, t)) = armed
            .delack
            .arm(sink.deadline(), now, now2, &mut self.queue)
        {
            if sink.retime_delack(d, t) {
                armed.delack.moved(t);
            }
        }
        // TcpAgent::send_much's `delsnd_timer_.resched(Random::uniform(overhead_))`.
        let delsnd = sender.delsnd_delay();
        if let Some(delay) = delsnd {
            if let Some(t) =
                armed
                    .delsnd
                    .arm_delay(sender.pace_deadline(), delay, now, now2, &mut self.queue)
            {
                sender.retime_delsnd(t);
            }
        }
        let (delack, pace) = (sink.deadline(), sender.pace_deadline());
        let deadline = sender.rto_deadline();
        let armed = *armed;
        let flow = &mut self.flows[f.idx()];
        if let Some(t) = flow.rto_event.needs_event(deadline) {
            let seq = ns2_key(t, armed.rto.t2, armed.rto.uid);
            self.queue
                .push_keyed(t, seq, Event::Rto(f, self.tmix_slots.generation(f)));
        }
        if let Some(t) = flow.delack_event.needs_event(delack) {
            let seq = ns2_key(t, armed.delack.t2, armed.delack.uid);
            self.queue
                .push_keyed(t, seq, Event::DelAck(f, self.tmix_slots.generation(f)));
        }
        if let Some(t) = flow.pace_event.needs_event(pace) {
            if delsnd.is_some() {
                let seq = ns2_key(t, armed.delsnd.t2, armed.delsnd.uid);
                self.queue
                    .push_keyed(t, seq, Event::Pace(f, self.tmix_slots.generation(f)));
            } else {
                self.queue
                    .push(t, Event::Pace(f, self.tmix_slots.generation(f)));
            }
        }
    }

    /// [`Simulator::run_until`] under the ns2 profile: the events due by `until`, and of
    /// those at `until` only the ones whose ns-2 time lies before `until2`, and those of
    /// `until2` that earlier scripts of that time started (the front end's `$ns at` script
    /// of that time runs next, as in ns-2 where it was scheduled before the simulation's
    /// events of the same time).
    // Never inlined: `run_until`'s own loop (the other profiles' hot path) compiles as if
    // this one did not exist, and calls nothing it did not call before.
    #[inline(never)]
    pub(super) fn run_until_ns2(&mut self, until: SimTime, until2: f64) {
        loop {
            if self.events >= self.watch_at {
                if self.host_pause() {
                    return; // the host takes a datagram's arrival first
                }
                if let Some(t) = self.queue.peek_time().filter(|&t| t <= until) {
                    if !self.watch(t) {
                        return;
                    }
                }
            }
            let Some((t, ev, src, seq)) = self.queue.peek_due_seq(until) else {
                break;
            };
            let key = ns2_unkey(t, seq);
            if t == until && (key.0 > until2 || (key.0 == until2 && key.1 >= NS2_FIRST_UID)) {
                break;
            }
            self.now = t;
            self.events += 1;
            match ev {
                Event::LinkHead(l) if self.links.at(l).has_ns2_clock() => {
                    self.on_link_head_ns2(l, src);
                }
                Event::LinkHead(l) => {
                    self.pool.ns2_now = key;
                    self.on_link_head(l, src);
                }
                _ => {
                    self.pool.ns2_now = key;
                    self.queue.remove(src);
                    self.dispatch(ev);
                }
            }
        }
        if until > self.now {
            self.now = until;
        }
        // The front end's script runs now, at its own ns-2 time, before the events of that
        // time it was scheduled before.
        let now2 = if until2.is_finite() {
            until2
        } else {
            ns2_seconds(self.now)
        };
        self.pool.ns2_now = (now2, 0);
        if self.now >= self.duration && !self.finished {
            self.finish();
        }
    }

    /// Runs the events due by `until` whose ns-2 time lies before `until2` (see
    /// [`Simulator::run_until_ns2`]); without the ns2 profile, [`Simulator::run_until`].
    pub fn run_until_before(&mut self, until: SimTime, until2: f64) {
        if self.stop.is_some() {
            return;
        }
        if !self.ns2_clock {
            self.run_until(until);
            return;
        }
        self.run_until_ns2(until.min(self.duration), until2);
    }

    /// [`Simulator::on_link_head`] on a link with ns-2's clock: the packet's ns-2 time and
    /// scheduling order become the running event's, and the next head is keyed by its own.
    fn on_link_head_ns2(&mut self, l: HopLink, src: Source) {
        let link = self.links.at(l);
        if link.ns2_stale_head(self.now) {
            // Its packet was dropped when the link went down (`sim/ns2_front.rs`).
            self.queue.remove(src);
            return;
        }
        let (at, loses_after) = (link.to, link.loses_after());
        let (c, key) = link.deliver_head_ns2();
        self.pool.ns2_now = key;
        let q = &mut self.queue;
        match link.ns2_head(|| q.reserve(1)) {
            Some((t, t2, seq)) if src == Source::Packets && t > self.now => {
                q.replace_packet_top_keyed(t, ns2_key(t, t2, seq), Event::LinkHead(l));
            }
            Some((t, t2, seq)) => {
                q.remove(src);
                q.push_keyed(t, ns2_key(t, t2, seq), Event::LinkHead(l));
            }
            None => q.remove(src),
        }
        self.arrive(l.id(), at, c, loses_after);
    }

    /// ns-2's `Queue::resume` on link `l`: the next waiting packet starts.
    pub(super) fn on_ns2_resume(&mut self, l: LinkId) {
        let link = &mut self.links[l.idx()];
        if link.ns2_resume_finds_nothing(self.now) {
            return; // the link went down while packets waited (`sim/ns2_front.rs`)
        }
        let (_, t2, seq) = link.ns2_resume();
        self.pool.ns2_now = (t2, seq);
        if link.holds() {
            let mut drops = std::mem::take(&mut self.held_drops);
            let out = link.on_ns2_resume_held(self.now, &mut self.pool, &mut drops);
            self.count_ns2_held_drops(l, drops);
            self.collect_ns2(l, out);
            return;
        }
        let out = link.on_ns2_resume(self.now, &self.pool);
        self.collect_ns2(l, out);
    }

    /// The packets a holding discipline on link `l` dropped (`dropped`, whose memory is
    /// kept for the next call): counted and traced (`d`), before what started is traced.
    pub(super) fn count_ns2_held_drops(&mut self, l: LinkId, mut dropped: Vec<Packet>) {
        for p in dropped.drain(..) {
            self.count_drop(&p);
            if self.tracing {
                self.trace(l, TraceEvent::Drop, &p);
            }
        }
        self.held_drops = dropped;
    }

    /// After a packet reached link `l` or its resume ran: the scheduling orders of a packet
    /// that started (its arrival, then the next resume, as `LinkDelay::recv` schedules them),
    /// its `-` trace line, and the head and resume events the link needs.
    pub(super) fn collect_ns2(&mut self, l: LinkId, out: Ns2Outcome) {
        let Ns2Outcome {
            started,
            head,
            resume,
        } = out;
        let link = &mut self.links[l.idx()];
        if started {
            let seq = self.queue.reserve(2);
            link.ns2_started(seq);
        }
        if self.tracing {
            let started = self.links[l.idx()].take_started();
            let now2 = self.pool.ns2_now.0;
            if let Some(t) = self.traces.as_mut() {
                for (at, p) in &started {
                    t.dequeue(self.now, now2, *at, l.idx(), p);
                }
            }
            self.links[l.idx()].return_started(started);
        }
        let hop = self.links.hop_of(l);
        let link = self.links.at(hop);
        if head {
            let q = &mut self.queue;
            if let Some((t, t2, seq)) = link.ns2_head(|| q.reserve(1)) {
                q.push_keyed(t, ns2_key(t, t2, seq), Event::LinkHead(hop));
            }
        }
        if resume {
            let q = &mut self.queue;
            let (t, t2, seq) = link.ns2_resume_keyed(|| q.reserve(1));
            self.queue
                .push_keyed(t, ns2_key(t, t2, seq), Event::Resume(l));
        }
    }

    /// The sequence number of an event at `t` scheduled by the running event (ns-2:
    /// `Scheduler::schedule`, time = clock + delay in doubles, the next uid), or with
    /// `script` by the front end's running `$ns at` script: what ns-2 does inside that script
    /// (an application it starts sends at once) goes before the simulation's events of the
    /// same time, in the order the scripts did it.
    /// Returns the event's time on the engine's clock, which under the ns2 profile is
    /// ns-2's double to the picosecond (`sched::ns2_ps`), and its sequence number.
    pub(super) fn ns2_scheduled(&mut self, t: SimTime, script: bool) -> (SimTime, u64) {
        let (now2, _) = self.pool.ns2_now;
        self.ns2_scheduled_at(now2 + ns2_seconds(SimTime(t.0 - self.now.0)), script)
    }

    /// [`Simulator::ns2_scheduled`] for an event whose ns-2 time `t2` is known.
    pub(super) fn ns2_scheduled_at(&mut self, t2: f64, script: bool) -> (SimTime, u64) {
        let uid = if script {
            self.ns2_script_uid += 1;
            debug_assert!(self.ns2_script_uid < NS2_FIRST_UID);
            self.ns2_script_uid
        } else {
            self.queue.reserve(1)
        };
        let at = ns2_ps(t2).max(self.now);
        (at, ns2_key(at, t2, uid))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TimerHandler::resched(delay)` sets the timer at clock + delay in doubles: a clock of
    /// 34.0089795000005 s is 34 008 979 500 000.4997 ps, so exact time plus 100 ms is
    /// ...500 000 ps where ns-2's sum is 34.10897950000050116 s, ...500 001 ps. The timer
    /// moves to the sum's picosecond, and stays there until the deadline changes.
    #[test]
    fn a_timer_moves_to_its_ns2_sums_picosecond() {
        let mut q: EventQueue<Event> = EventQueue::new();
        q.order_as_ns2();
        let now2 = 34.008_979_500_000_5;
        let now = ns2_ps(now2);
        assert_eq!(now, SimTime(34_008_979_500_000));
        let d = SimTime(now.0 + 100_000_000_000);
        let mut timer = Ns2Timer::default();
        let moved = timer.arm(Some(d), now, now2, &mut q);
        assert_eq!(moved, Some((d, SimTime(d.0 + 1))));
        assert_eq!(timer.t2, now2 + 0.1);
        timer.moved(SimTime(d.0 + 1));
        assert_eq!(timer.arm(Some(SimTime(d.0 + 1)), now, now2, &mut q), None);
        // Where the sum's picosecond is the deadline's, nothing moves.
        let now2 = 34.008_979_500_000_49;
        let now = ns2_ps(now2);
        let d = SimTime(now.0 + 100_000_000_000);
        assert_eq!(Ns2Timer::default().arm(Some(d), now, now2, &mut q), None);
    }
}
