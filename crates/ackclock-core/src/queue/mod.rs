//! Queue disciplines.
//!
//! Two kinds, by when they decide:
//! - Enqueue-time disciplines (DropTail, RED, PIE) only decide whether to admit an arriving
//!   packet. A FIFO, work-conserving link then knows each packet's departure time when it
//!   accepts it, so these need no dequeue event. They see the backlog of packets waiting
//!   (not the one being serialised), as ns-2's queues do.
//! - Dequeue-time disciplines (CoDel, FQ-CoDel) hold the packets themselves and decide when
//!   the line asks for the next one; a link running one schedules an event whenever the line
//!   frees up with packets waiting (see `net::link`).

pub mod ared;
pub mod bql;
pub mod cobalt;
pub mod codel;
pub mod droptail;
pub mod drr;
pub mod fq_codel;
pub mod fq_pie;
pub mod nlred;
pub mod pie;
pub mod prio;
pub mod red;
pub mod sfq;
pub mod tbf;

pub use codel::CoDel;
pub use droptail::DropTail;
pub use fq_codel::FqCoDel;
pub use pie::Pie;
pub use red::Red;

use crate::packet::Packet;
use crate::time::SimTime;

/// The waiting backlog a discipline decides on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Backlog {
    pub packets: u64,
    pub bytes: u64,
}

/// What an enqueue-time discipline sees of an arriving packet.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    pub now: SimTime,
    pub backlog: Backlog,
    pub size: u32,
    /// The packet's sender understands ECN (RFC 3168 ECT).
    pub ect: bool,
    /// When the line last went idle, if it is idle now (nothing waiting or transmitting).
    pub idle_since: Option<SimTime>,
    /// When the line will have sent everything already accepted: an arrival now waits
    /// until then.
    pub busy_until: SimTime,
}

/// An enqueue-time decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Admit,
    /// Admit with Congestion Experienced set (RFC 3168).
    Mark,
    Drop,
}

/// AQM state for the queue time series; NaN where a discipline has no such notion.
#[derive(Clone, Copy, Debug)]
pub struct AqmState {
    /// RED's average queue (packets, or bytes when it measures the queue in bytes).
    pub avg: f64,
    /// The current drop/mark probability (RED's p_b, PIE's drop_prob).
    pub prob: f64,
    /// CoDel's dropping state (1 while dropping), FQ-CoDel: queues in dropping state.
    pub dropping: f64,
}

impl AqmState {
    pub const NONE: AqmState = AqmState {
        avg: f64::NAN,
        prob: f64::NAN,
        dropping: f64::NAN,
    };
}

/// Enqueue-time disciplines.
#[derive(Clone, Debug)]
pub enum AnyQueue {
    DropTail(DropTail),
    Red(Box<Red>),
    Pie(Box<Pie>),
}

impl AnyQueue {
    #[inline]
    pub fn admit(&mut self, a: &Arrival) -> Verdict {
        match self {
            AnyQueue::DropTail(q) => {
                if q.admit(a.backlog, a.size) {
                    Verdict::Admit
                } else {
                    Verdict::Drop
                }
            }
            AnyQueue::Red(q) => q.admit(a),
            AnyQueue::Pie(q) => q.admit(a),
        }
    }

    pub fn state(&self) -> AqmState {
        match self {
            AnyQueue::DropTail(_) => AqmState::NONE,
            AnyQueue::Red(q) => q.state(),
            AnyQueue::Pie(q) => q.state(),
        }
    }
}

/// Dequeue-time disciplines, which hold the waiting packets.
#[derive(Clone, Debug)]
pub enum HeldQueue {
    CoDel(Box<CoDel>),
    FqCoDel(Box<FqCoDel>),
}

impl HeldQueue {
    /// Takes an arriving packet; packets it drops to make room go to `dropped`.
    #[inline]
    pub fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        match self {
            HeldQueue::CoDel(q) => q.enqueue(now, pkt, dropped),
            HeldQueue::FqCoDel(q) => q.enqueue(now, pkt, dropped),
        }
    }

    /// The next packet to transmit with its enqueue time; packets dropped on the way go to
    /// `dropped`, and a packet marked instead of dropped has `ce` set.
    #[inline]
    pub fn dequeue(
        &mut self,
        now: SimTime,
        dropped: &mut Vec<Packet>,
    ) -> Option<(SimTime, Packet)> {
        match self {
            HeldQueue::CoDel(q) => q.dequeue(now, dropped),
            HeldQueue::FqCoDel(q) => q.dequeue(now, dropped),
        }
    }

    pub fn backlog(&self) -> Backlog {
        match self {
            HeldQueue::CoDel(q) => q.backlog(),
            HeldQueue::FqCoDel(q) => q.backlog(),
        }
    }

    pub fn state(&self) -> AqmState {
        match self {
            HeldQueue::CoDel(q) => q.state(),
            HeldQueue::FqCoDel(q) => q.state(),
        }
    }

    /// Calls `f` on every packet the discipline holds (for the invariant checker).
    pub fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        match self {
            HeldQueue::CoDel(q) => q.packets().for_each(f),
            HeldQueue::FqCoDel(q) => q.packets().for_each(f),
        }
    }

    /// ECN marks made so far.
    pub fn marks(&self) -> u64 {
        match self {
            HeldQueue::CoDel(q) => q.marks,
            HeldQueue::FqCoDel(q) => q.marks,
        }
    }
}
