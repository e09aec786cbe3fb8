//! Queue disciplines that decide at enqueue time.
//!
//! A FIFO, work-conserving link knows each packet's departure time when it accepts it, so
//! disciplines that only decide whether to admit a packet (DropTail, later RED) need no
//! dequeue event. They see the backlog of packets waiting (not the one being serialised).

pub mod droptail;

pub use droptail::DropTail;

/// The waiting backlog a discipline decides on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Backlog {
    pub packets: u64,
    pub bytes: u64,
}

#[derive(Clone, Debug)]
pub enum AnyQueue {
    DropTail(DropTail),
}

impl AnyQueue {
    #[inline]
    pub fn admit(&mut self, backlog: Backlog, size: u32) -> bool {
        match self {
            AnyQueue::DropTail(q) => q.admit(backlog, size),
        }
    }
}
