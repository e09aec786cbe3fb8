//! Queue disciplines written outside the engine: the Python binding's
//! `ackclock.QueueDiscipline` classes (docs/custom-algorithms.md).
//!
//! A host discipline decides per packet, at either end of the queue or both:
//! - at enqueue, as the built-in enqueue-time disciplines do ([`super::QueueDiscipline::admit`]:
//!   admit, mark or drop; Linux: a qdisc's `enqueue`, ns-2: `Queue::enque`);
//! - at dequeue, on the packet at the head as the line takes it, knowing how long it waited
//!   (its sojourn time, as CoDel needs: RFC 8289 section 3.2; Linux: a qdisc's `dequeue`,
//!   ns-2: `Queue::deque`): send it, send it marked, or drop it and decide on the next one.
//!
//! One that decides at dequeue holds its packets ([`super::Service::Dequeue`]): [`External`]
//! keeps them in a FIFO with their enqueue times and drops an arrival that finds the buffer
//! full unless the host decides at enqueue too. One that decides at enqueue only leaves the
//! FIFO to the link, and may ask for periodic updates (PIE's probability update, RFC 8033
//! section 4.2) at a fixed interval, run as time passes as the built-in PIE's are
//! ([`super::QueueDiscipline::PERIODIC`]).
//!
//! A scenario names one by `queue.custom = "module:Class"`; a host (the binding) installs,
//! once, the [`Factory`] that makes one per link. [`External`] is the `AnyQueue` variant
//! that holds it, boxed and called out of line, so that the built-in disciplines' dispatch
//! stays as it was (one more arm). A verdict that is not one stops the run with one line; a
//! hook that fails (the host's code raised) returns `Err` with its message. Either is
//! recorded for the simulator, which stops the run before its next event, naming the link and
//! the simulated time (`Simulator::watch`, [`take_failure`]), through the same channel as a
//! congestion control written in Python (`tcp::cc::external`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::codel::TimedFifo;
use super::{AqmState, Arrival, Backlog, QueueSetup, Verdict};
use crate::packet::{ecn, Packet};
use crate::time::{SimDuration, SimTime};

/// What a failed hook says (one line; the host keeps the full error).
pub type Failure = String;

/// What a dequeue-time decision sees besides the packet: when it is asked, when the packet
/// arrived, and what still waits behind it.
#[derive(Clone, Copy, Debug)]
pub struct Departure {
    pub now: SimTime,
    /// When the packet entered the queue; `now - enqueued` is its sojourn time.
    pub enqueued: SimTime,
    /// Packets and bytes waiting behind it (it has left the queue).
    pub backlog: Backlog,
}

/// The hooks a host discipline defines (only those are called).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueHooks {
    /// Decides at enqueue ([`ExternalQueue::admit`]).
    pub admit: bool,
    /// Decides at dequeue ([`ExternalQueue::dequeue`]): the discipline holds its packets.
    pub dequeue: bool,
    /// Periodic work ([`ExternalQueue::update`]) every this long; enqueue-time only.
    pub update_every: Option<SimDuration>,
}

/// One link's discipline, implemented by a host.
pub trait ExternalQueue: Send {
    /// The discipline's name as errors give it.
    fn name(&self) -> &str;
    /// The hooks it defines.
    fn hooks(&self) -> QueueHooks;
    /// The decision on an arriving packet; `Err` stops the run.
    fn admit(&mut self, a: &Arrival, pkt: &Packet) -> Result<Verdict, Failure>;
    /// The decision on the packet at the head as the line takes it (Admit: send it); `Err`
    /// stops the run.
    fn dequeue(&mut self, d: &Departure, pkt: &Packet) -> Result<Verdict, Failure>;
    /// The periodic update due at `now`, with the backlog waiting at that instant.
    fn update(&mut self, now: SimTime, waiting: Backlog) -> Result<(), Failure>;
    /// State for the queue time series' own columns (what the class exposes as `avg`,
    /// `prob`, `dropping`).
    fn state(&self) -> AqmState;
    /// The state the discipline declares, for its own columns of the queue time series:
    /// `out(column, value)` for each, in the order of [`ExternalQueue::columns`].
    fn declared(&self, out: &mut dyn FnMut(&str, f64));
    /// The names of those columns.
    fn columns(&self) -> Vec<String>;
    /// An independent copy (a new instance with the same state).
    fn box_clone(&self) -> Box<dyn ExternalQueue>;
}

/// Makes the discipline `queue.custom` names, with its parameters, for one link; `flows`:
/// the scenario's flow names, by flow index.
pub type Factory = fn(
    &str,
    &BTreeMap<String, f64>,
    &QueueSetup,
    &[String],
) -> Result<Box<dyn ExternalQueue>, String>;

static FACTORY: OnceLock<Factory> = OnceLock::new();

/// Installs the host's factory (the binding does, when its module loads).
pub fn install(factory: Factory) {
    let _ = FACTORY.set(factory);
}

thread_local! {
    /// The first failure since the last [`take_failure`]: (link index, message).
    static FAILED: RefCell<Option<(u32, String)>> = const { RefCell::new(None) };
}

/// The failure a discipline of this thread's simulation reported, if any (taken).
pub fn take_failure() -> Option<(u32, String)> {
    FAILED.with(|f| f.borrow_mut().take())
}

fn record(link: u32, message: String) {
    FAILED.with(|f| {
        let mut f = f.borrow_mut();
        if f.is_none() {
            *f = Some((link, message));
        }
    });
}

/// The `AnyQueue` variant of an external discipline: the host's object, the link it serves
/// (for errors) and, for one that decides at dequeue, the packets it holds.
pub struct External {
    q: Box<dyn ExternalQueue>,
    hooks: QueueHooks,
    link: u32,
    /// Set after a failure: no more calls into the host for this link.
    failed: bool,
    /// Dequeue-time: the packets waiting, with their enqueue times.
    fifo: TimedFifo,
    /// The buffer (dequeue-time disciplines without `admit` drop an arrival that finds it
    /// full).
    limit_packets: Option<u64>,
    limit_bytes: Option<u64>,
    /// Dequeue-time: ECN marks made so far.
    marks: u64,
    /// Periodic: when the next update is due (`SimTime::MAX`: never).
    next_update: SimTime,
}

impl Clone for External {
    fn clone(&self) -> External {
        External {
            q: self.q.box_clone(),
            hooks: self.hooks,
            link: self.link,
            failed: self.failed,
            fifo: self.fifo.clone(),
            limit_packets: self.limit_packets,
            limit_bytes: self.limit_bytes,
            marks: self.marks,
            next_update: self.next_update,
        }
    }
}

impl std::fmt::Debug for External {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "External({})", self.q.name())
    }
}

impl External {
    /// The discipline `name` (`module:Class`) with parameters `given`, made by the installed
    /// factory; `flows`: the scenario's flow names.
    pub fn new(
        name: &str,
        given: &BTreeMap<String, f64>,
        setup: &QueueSetup,
        flows: &[String],
    ) -> Result<External, String> {
        let Some(factory) = FACTORY.get() else {
            return Err(format!(
                "queue.custom: {name:?} names a Python class (module:Class); only the Python \
                 front end runs those"
            ));
        };
        Ok(External::with(
            factory(name, given, setup, flows)?,
            setup.limit_packets,
            setup.limit_bytes,
        ))
    }

    fn with(
        q: Box<dyn ExternalQueue>,
        limit_packets: Option<u64>,
        limit_bytes: Option<u64>,
    ) -> External {
        let hooks = q.hooks();
        External {
            q,
            hooks,
            link: u32::MAX,
            failed: false,
            fifo: TimedFifo::default(),
            limit_packets,
            limit_bytes,
            marks: 0,
            next_update: hooks
                .update_every
                .map_or(SimTime::MAX, |d| SimTime::ZERO + d),
        }
    }

    /// The link it serves (named in errors).
    pub fn set_link(&mut self, link: u32) {
        self.link = link;
    }

    pub fn name(&self) -> &str {
        self.q.name()
    }

    /// Whether it decides at dequeue, and so holds the waiting packets.
    pub fn holds(&self) -> bool {
        self.hooks.dequeue
    }

    /// Whether it has periodic updates.
    pub fn periodic(&self) -> bool {
        self.hooks.update_every.is_some()
    }

    fn fail(&mut self, e: Failure) {
        self.failed = true;
        record(self.link, e);
    }

    /// The host's verdict on an arriving packet; after a failure (recorded, the run stops
    /// before its next event) every packet is admitted.
    #[inline(never)]
    pub fn admit(&mut self, a: &Arrival) -> Verdict {
        if self.failed || !self.hooks.admit {
            return Verdict::Admit;
        }
        match self.q.admit(a, a.pkt) {
            Ok(v) => v,
            Err(e) => {
                self.fail(e);
                Verdict::Admit
            }
        }
    }

    /// When the next periodic update is due.
    #[inline]
    pub fn update_due(&self) -> SimTime {
        self.next_update
    }

    /// The periodic update at its due time, with the backlog waiting then.
    #[inline(never)]
    pub fn update(&mut self, waiting: Backlog) {
        let now = self.next_update;
        let Some(every) = self.hooks.update_every else {
            return;
        };
        self.next_update = now + every;
        if self.failed {
            return;
        }
        if let Err(e) = self.q.update(now, waiting) {
            self.fail(e);
        }
    }

    /// Dequeue-time: the packets waiting.
    pub fn backlog(&self) -> Backlog {
        Backlog {
            packets: self.fifo.packets.len() as u64,
            bytes: self.fifo.bytes,
        }
    }

    /// Dequeue-time: an arriving packet, decided on by `admit` if the host defines it, else
    /// dropped when the buffer is full (as the built-in CoDel's enqueue).
    #[inline(never)]
    pub fn enqueue(&mut self, now: SimTime, mut pkt: Packet, dropped: &mut Vec<Packet>) {
        let backlog = self.backlog();
        let verdict = if self.hooks.admit {
            let a = Arrival {
                now,
                backlog,
                size: pkt.size,
                pkt: &pkt,
                idle_since: None,
                busy_until: now,
                idle_ns2: None,
            };
            self.admit(&a)
        } else if self.limit_packets.is_some_and(|l| backlog.packets >= l)
            || self
                .limit_bytes
                .is_some_and(|l| backlog.bytes + pkt.size as u64 > l)
        {
            Verdict::Drop
        } else {
            Verdict::Admit
        };
        match verdict {
            Verdict::Drop | Verdict::EarlyDrop => dropped.push(pkt),
            Verdict::Mark => {
                pkt.ecn |= ecn::CE;
                self.marks += 1;
                self.fifo.push(now, pkt);
            }
            Verdict::Admit => self.fifo.push(now, pkt),
        }
    }

    /// Dequeue-time: the next packet to send, the host deciding on each head in turn;
    /// packets it drops go to `dropped`. After a failure every head is sent.
    #[inline(never)]
    pub fn dequeue(
        &mut self,
        now: SimTime,
        dropped: &mut Vec<Packet>,
    ) -> Option<(SimTime, Packet)> {
        loop {
            let (at, mut pkt) = self.fifo.pop()?;
            if self.failed {
                return Some((at, pkt));
            }
            let d = Departure {
                now,
                enqueued: at,
                backlog: self.backlog(),
            };
            match self.q.dequeue(&d, &pkt) {
                Ok(Verdict::Admit) => return Some((at, pkt)),
                Ok(Verdict::Mark) => {
                    pkt.ecn |= ecn::CE;
                    self.marks += 1;
                    return Some((at, pkt));
                }
                Ok(Verdict::Drop | Verdict::EarlyDrop) => dropped.push(pkt),
                Err(e) => {
                    self.fail(e);
                    return Some((at, pkt));
                }
            }
        }
    }

    /// Dequeue-time: every packet waiting (for the invariant checker).
    pub fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.fifo.packets.iter().for_each(|(_, p)| f(p));
    }

    /// Dequeue-time: ECN marks made so far.
    pub fn marks(&self) -> u64 {
        self.marks
    }

    /// Dequeue-time without `admit`: the buffer it keeps (for the invariant checker).
    pub fn limits(&self) -> (Option<u64>, Option<u64>) {
        if self.hooks.dequeue && !self.hooks.admit {
            (self.limit_packets, self.limit_bytes)
        } else {
            (None, None)
        }
    }

    pub fn state(&self) -> AqmState {
        self.q.state()
    }

    /// The declared state, for the queue time series' own columns.
    pub fn declared(&self, out: &mut dyn FnMut(&str, f64)) {
        self.q.declared(out)
    }

    /// The names of the declared state's columns.
    pub fn columns(&self) -> Vec<String> {
        self.q.columns()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Admits odd arrivals, drops even ones; at dequeue drops packets that waited 10 ps or
    /// more and marks ECN-capable ones; fails on a packet of size 0.
    #[derive(Clone)]
    struct Every(u32, QueueHooks);

    impl ExternalQueue for Every {
        fn name(&self) -> &str {
            "test:Every"
        }
        fn hooks(&self) -> QueueHooks {
            self.1
        }
        fn admit(&mut self, a: &Arrival, _pkt: &Packet) -> Result<Verdict, Failure> {
            if a.size == 0 {
                return Err("test:Every.admit raised ValueError".into());
            }
            self.0 += 1;
            Ok(if self.0.is_multiple_of(2) {
                Verdict::Drop
            } else {
                Verdict::Admit
            })
        }
        fn dequeue(&mut self, d: &Departure, pkt: &Packet) -> Result<Verdict, Failure> {
            if pkt.size == 0 {
                return Err("test:Every.dequeue raised ValueError".into());
            }
            Ok(if d.now.0 - d.enqueued.0 >= 10 {
                Verdict::Drop
            } else if pkt.ecn & ecn::ECT != 0 {
                Verdict::Mark
            } else {
                Verdict::Admit
            })
        }
        fn update(&mut self, _now: SimTime, waiting: Backlog) -> Result<(), Failure> {
            self.0 += waiting.packets as u32;
            Ok(())
        }
        fn state(&self) -> AqmState {
            AqmState::NONE
        }
        fn declared(&self, out: &mut dyn FnMut(&str, f64)) {
            out("seen", self.0 as f64)
        }
        fn columns(&self) -> Vec<String> {
            vec!["seen".into()]
        }
        fn box_clone(&self) -> Box<dyn ExternalQueue> {
            Box::new(self.clone())
        }
    }

    fn arrival(size: u32, pkt: &Packet) -> Arrival<'_> {
        Arrival {
            now: SimTime(5),
            backlog: Backlog::default(),
            size,
            pkt,
            idle_since: None,
            busy_until: SimTime(0),
            idle_ns2: None,
        }
    }

    fn external(hooks: QueueHooks, limit: Option<u64>) -> External {
        let mut q = External::with(Box::new(Every(0, hooks)), limit, None);
        q.set_link(3);
        q
    }

    /// Verdicts pass through; a failure is recorded once, with the link, and the host is not
    /// called again.
    #[test]
    fn verdicts_and_failures() {
        let admit = QueueHooks {
            admit: true,
            ..QueueHooks::default()
        };
        let mut q = external(admit, None);
        let p = Packet::test_udp(0, 0, 100);
        assert!(!q.holds() && !q.periodic());
        assert!(take_failure().is_none());
        assert_eq!(q.admit(&arrival(100, &p)), Verdict::Admit);
        assert_eq!(q.admit(&arrival(100, &p)), Verdict::Drop);
        let copy = q.clone();
        assert_eq!(q.admit(&arrival(0, &p)), Verdict::Admit);
        assert_eq!(
            take_failure(),
            Some((3, "test:Every.admit raised ValueError".to_string()))
        );
        assert_eq!(q.admit(&arrival(100, &p)), Verdict::Admit);
        assert!(take_failure().is_none());
        let mut copy = copy;
        assert_eq!(copy.admit(&arrival(100, &p)), Verdict::Admit);
    }

    /// At dequeue: the head's sojourn decides; a drop asks about the next head; a mark sets
    /// CE and counts; without `admit`, the buffer's limit drops arrivals.
    #[test]
    fn dequeue_time_verdicts() {
        let hooks = QueueHooks {
            dequeue: true,
            ..QueueHooks::default()
        };
        let mut q = external(hooks, Some(3));
        assert!(q.holds());
        let mut dropped = Vec::new();
        for id in 0..4 {
            q.enqueue(SimTime(id), Packet::test_udp(id, 0, 100), &mut dropped);
        }
        // The fourth found three waiting.
        assert_eq!(dropped.len(), 1);
        assert_eq!(q.backlog().packets, 3);
        assert_eq!(q.limits(), (Some(3), None));
        // At 11 ps packets 0 and 1 (enqueued at 0 and 1) have waited 10 ps or more.
        let (at, p) = q.dequeue(SimTime(11), &mut dropped).unwrap();
        assert_eq!((at, p.id), (SimTime(2), 2));
        assert_eq!(dropped.len(), 3);
        let mut ect = Packet::test_udp(9, 0, 100);
        ect.ecn = ecn::ECT;
        q.enqueue(SimTime(20), ect, &mut dropped);
        let (_, p) = q.dequeue(SimTime(21), &mut dropped).unwrap();
        assert_eq!(p.ecn & ecn::CE, ecn::CE);
        assert_eq!(q.marks(), 1);
        assert!(q.dequeue(SimTime(22), &mut dropped).is_none());
        // A failure sends the head and every later one.
        q.enqueue(SimTime(30), Packet::test_udp(10, 0, 0), &mut dropped);
        q.enqueue(SimTime(30), Packet::test_udp(11, 0, 100), &mut dropped);
        assert_eq!(q.dequeue(SimTime(90), &mut dropped).unwrap().1.id, 10);
        assert_eq!(
            take_failure(),
            Some((3, "test:Every.dequeue raised ValueError".to_string()))
        );
        assert_eq!(q.dequeue(SimTime(90), &mut dropped).unwrap().1.id, 11);
        assert_eq!(dropped.len(), 3);
    }

    /// Periodic updates fall due every interval from the interval on.
    #[test]
    fn periodic_updates() {
        let hooks = QueueHooks {
            admit: true,
            update_every: Some(SimDuration(15)),
            ..QueueHooks::default()
        };
        let mut q = external(hooks, None);
        assert!(q.periodic());
        assert_eq!(q.update_due(), SimTime(15));
        q.update(Backlog {
            packets: 4,
            bytes: 400,
        });
        assert_eq!(q.update_due(), SimTime(30));
        let mut seen = Vec::new();
        q.declared(&mut |c, v| seen.push((c.to_string(), v)));
        assert_eq!(seen, vec![("seen".to_string(), 4.0)]);
        assert!(take_failure().is_none());
    }
}
