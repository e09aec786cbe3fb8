//! The event queue: binary min-heaps keyed by (time, insertion sequence), one for packet
//! events and one for timers, and a FIFO for events of the current instant (see
//! [`EventQueue`]).
//!
//! Ties break by insertion order, which makes runs deterministic. Events are small `Copy`
//! values stored inline, so pushing and popping never allocates once the heap has grown to
//! its working size.
//!
//! The heap is written out here rather than taken from `std::collections::BinaryHeap`
//! because std's sift loops write the moving entry into the array and read it straight back
//! (its `Hole`), with a wider load than the stores that wrote it; on x86 that defeats store
//! forwarding and stalled every push and pop (the two hottest spots of `run_until` under
//! perf). Here the moving entry stays in registers and is written once, at its final slot.
//! Williams' binary heap (CACM 7(6), 1964), sift-down after a pop by Floyd's bottom-up
//! variant (CACM 7(12), 1964): walk to a leaf along the smaller children, then climb back;
//! a replaced root (a link's next head event) sifts down from the top instead.

use crate::time::SimTime;

// Compiled (and unit-tested) in every build; used only under their features.
#[cfg_attr(not(feature = "eventq-calendar"), allow(dead_code))]
mod calendar_queue;
#[cfg_attr(not(feature = "eventq-lanes"), allow(dead_code))]
mod lane_queue;
#[cfg_attr(not(feature = "eventq-quaternary"), allow(dead_code))]
mod quaternary_heap;
#[cfg_attr(not(feature = "eventq-radix"), allow(dead_code))]
mod radix_heap;

/// The structure behind both of the queue's heaps: the binary heap below unless a cargo
/// feature selects one of the other candidates measured for issue 31.
#[cfg(not(any(
    feature = "eventq-quaternary",
    feature = "eventq-calendar",
    feature = "eventq-lanes",
    feature = "eventq-radix"
)))]
type Queue<E> = Heap<E>;
#[cfg(feature = "eventq-quaternary")]
type Queue<E> = quaternary_heap::QuaternaryHeap<E>;
#[cfg(all(feature = "eventq-calendar", not(feature = "eventq-quaternary")))]
type Queue<E> = calendar_queue::CalendarQueue<E>;
#[cfg(all(
    feature = "eventq-lanes",
    not(any(feature = "eventq-quaternary", feature = "eventq-calendar"))
))]
type Queue<E> = lane_queue::LaneQueue<E>;
#[cfg(all(
    feature = "eventq-radix",
    not(any(
        feature = "eventq-quaternary",
        feature = "eventq-calendar",
        feature = "eventq-lanes"
    ))
))]
type Queue<E> = radix_heap::RadixHeap<E>;

#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> Entry<E> {
    /// The entry's (time, sequence) as one number: time in the high 64 bits, the sequence in
    /// the low 64. Both are `u64`, so `a.key() < b.key()` exactly when `(a.time, a.seq) <
    /// (b.time, b.seq)` lexicographically, for every pair of values (no range assumed).
    #[inline(always)]
    fn key(&self) -> u128 {
        (u128::from(self.time.0) << 64) | u128::from(self.seq)
    }

    /// Whether `self` runs before `other`: one 128-bit comparison (a compare and a
    /// subtract-with-borrow on x86-64) in place of the tuple's two compares and branch.
    #[inline(always)]
    fn before(&self, other: &Self) -> bool {
        self.key() < other.key()
    }
}

/// `heap[i]` without a bounds check; the caller shows `i < heap.len()`. The sifts below
/// index only slots their loop conditions have bounded, but the compiler could not see it
/// and checked each index again on every level.
#[inline(always)]
unsafe fn at<E>(heap: &[Entry<E>], i: usize) -> &Entry<E> {
    debug_assert!(i < heap.len());
    // SAFETY: the caller's: `i < heap.len()`.
    unsafe { heap.get_unchecked(i) }
}

/// `&mut heap[i]` without a bounds check; the caller shows `i < heap.len()`.
#[inline(always)]
unsafe fn at_mut<E>(heap: &mut [Entry<E>], i: usize) -> &mut Entry<E> {
    debug_assert!(i < heap.len());
    // SAFETY: the caller's: `i < heap.len()`.
    unsafe { heap.get_unchecked_mut(i) }
}

/// A binary min-heap of entries.
#[derive(Debug)]
#[cfg_attr(
    any(
        feature = "eventq-quaternary",
        feature = "eventq-calendar",
        feature = "eventq-lanes",
        feature = "eventq-radix"
    ),
    allow(dead_code)
)]
struct Heap<E> {
    entries: Vec<Entry<E>>,
}

#[cfg_attr(
    any(
        feature = "eventq-quaternary",
        feature = "eventq-calendar",
        feature = "eventq-lanes",
        feature = "eventq-radix"
    ),
    allow(dead_code)
)]
impl<E: Copy> Heap<E> {
    fn with_capacity(n: usize) -> Self {
        Heap {
            entries: Vec::with_capacity(n),
        }
    }

    #[inline]
    fn push(&mut self, e: Entry<E>) {
        let mut i = self.entries.len();
        self.entries.push(e);
        // Sift up: parents move down into the hole until `e` fits.
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.entries[parent];
            if !e.before(&p) {
                break;
            }
            self.entries[i] = p;
            i = parent;
        }
        self.entries[i] = e;
    }

    #[inline]
    fn pop(&mut self) -> Option<Entry<E>> {
        let last = self.entries.pop()?;
        let n = self.entries.len();
        if n == 0 {
            return Some(last);
        }
        let heap = self.entries.as_mut_slice();
        let top = heap[0];
        // Bottom-up: move the smaller child up until a leaf is reached...
        let mut i = 0;
        let mut child = 1;
        while child + 1 < n {
            // SAFETY: `child + 1 < n == heap.len()` (the loop's condition), and `i < child`.
            unsafe {
                if at(heap, child + 1).before(at(heap, child)) {
                    child += 1;
                }
                *at_mut(heap, i) = *at(heap, child);
            }
            i = child;
            child = 2 * i + 1;
        }
        if child < n {
            // SAFETY: `i < child < n`.
            unsafe { *at_mut(heap, i) = *at(heap, child) };
            i = child;
        }
        // ...then `last` climbs back from that leaf to its place.
        while i > 0 {
            let parent = (i - 1) / 2;
            // SAFETY: `parent < i < n`: `i` is a slot reached above, in bounds.
            let p = unsafe { *at(heap, parent) };
            if !last.before(&p) {
                break;
            }
            // SAFETY: as above, `i < n`.
            unsafe { *at_mut(heap, i) = p };
            i = parent;
        }
        // SAFETY: `i < n`, as above.
        unsafe { *at_mut(heap, i) = last };
        Some(top)
    }

    /// Replaces the root (the heap is not empty) with `e`, sifting it down from the top with
    /// an early stop: unlike a pop's last entry, which belongs near the bottom (hence the
    /// bottom-up walk above), a link's next head event is due soon and usually stays near the
    /// top.
    #[inline]
    fn replace_root(&mut self, e: Entry<E>) {
        let heap = self.entries.as_mut_slice();
        let n = heap.len();
        let mut i = 0;
        let mut child = 1;
        while child < n {
            // SAFETY: `child < n == heap.len()` (the loop's condition), `child + 1` is read
            // only if it is below `n` too, and `i < child`.
            let c = unsafe {
                if child + 1 < n && at(heap, child + 1).before(at(heap, child)) {
                    child += 1;
                }
                *at(heap, child)
            };
            if !c.before(&e) {
                break;
            }
            // SAFETY: `i < child < n`.
            unsafe { *at_mut(heap, i) = c };
            i = child;
            child = 2 * i + 1;
        }
        heap[i] = e; // checked: `replace_root` on an empty heap must panic, not write
    }

    #[inline]
    fn first(&self) -> Option<&Entry<E>> {
        self.entries.first()
    }

    fn len(&self) -> usize {
        self.entries.len()
    }
}

/// Where [`EventQueue::peek_due`] found the earliest event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Now,
    Packets,
    Timers,
}

/// The simulator's future events, in two heaps (and the FIFO below) that share one insertion
/// sequence: packet
/// events (a link's head packet arriving, a transmission ending, pacing, CBR ticks, a Tmix
/// delay line's release) and timers (retransmission, delayed ACK, sampling, application
/// starts and stops, Tmix wake-ups). A large run holds one mostly far-off timer per
/// flow; in one heap those timers deepened the heap that every packet-hop goes through twice
/// (with 50 flows, 81 entries, of which 50 timers). Popping takes the earliest of the two
/// roots and the FIFO's front by (time, sequence), so the order is exactly that of a single
/// heap.
///
/// Events scheduled for the current instant (a packet crossing a link of infinite rate and
/// zero delay, such as seed 002's sink links: a third of that model's packet-hops) skip the
/// heaps: they wait in a FIFO (`now`), already in sequence order, since their sequence numbers
/// grow as they are pushed. Each would otherwise climb to the root of the packet heap and be
/// sifted out again. A pop takes the FIFO's front unless a heap root is due at the same
/// instant with a smaller sequence, so the order is still exactly that of a single heap.
#[derive(Debug)]
pub struct EventQueue<E> {
    packets: Queue<E>,
    timers: Queue<E>,
    /// Events at `last_popped`, in sequence order; the live ones from `now_head` on.
    now: Vec<Entry<E>>,
    now_head: usize,
    next_seq: u64,
    last_popped: SimTime,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            packets: Queue::with_capacity(1024),
            timers: Queue::with_capacity(64),
            now: Vec::with_capacity(64),
            now_head: 0,
            next_seq: 0,
            last_popped: SimTime::ZERO,
        }
    }

    #[inline]
    fn entry(&mut self, time: SimTime, event: E) -> Entry<E> {
        debug_assert!(time >= self.last_popped, "event scheduled in the past");
        let e = Entry {
            time,
            seq: self.next_seq,
            event,
        };
        self.next_seq += 1;
        e
    }

    /// Schedules a packet event at `time`. Scheduling into the past is a logic error.
    #[inline]
    pub fn push(&mut self, time: SimTime, event: E) {
        let e = self.entry(time, event);
        if time == self.last_popped {
            self.now.push(e);
        } else {
            self.packets.push(e);
        }
    }

    /// Schedules a timer at `time`; ordered with packet events as if pushed with [`push`].
    ///
    /// [`push`]: EventQueue::push
    #[inline]
    pub fn push_timer(&mut self, time: SimTime, event: E) {
        let e = self.entry(time, event);
        if time == self.last_popped {
            self.now.push(e);
        } else {
            self.timers.push(e);
        }
    }

    /// Reserves `n` consecutive sequence numbers and returns the first: events pushed later
    /// with [`push_timer_reserved`] are ordered as if they had all been pushed now.
    ///
    /// [`push_timer_reserved`]: EventQueue::push_timer_reserved
    pub fn reserve(&mut self, n: u64) -> u64 {
        let first = self.next_seq;
        self.next_seq += n;
        first
    }

    /// Schedules a timer at `time` with a sequence number from [`reserve`]. Each reserved
    /// number is used at most once, and before the queue has popped past its (time, seq).
    ///
    /// [`reserve`]: EventQueue::reserve
    pub fn push_timer_reserved(&mut self, time: SimTime, seq: u64, event: E) {
        debug_assert!(time >= self.last_popped, "event scheduled in the past");
        debug_assert!(seq < self.next_seq, "sequence number not reserved");
        self.timers.push(Entry { time, seq, event });
    }

    /// Orders events of equal time as ns-2.35 does (see [`ns2_key`]): from here on, events
    /// pushed without a key sort as if their ns-2 time were exactly their time, and their
    /// insertion sequence is ns-2's scheduling order (`Scheduler::schedule`'s uid). Called
    /// before anything is pushed.
    pub fn order_as_ns2(&mut self) {
        debug_assert!(self.is_empty() && self.next_seq == 0);
        self.next_seq = NS2_NEUTRAL << NS2_UID_BITS | NS2_FIRST_UID;
    }

    /// Schedules a packet event with a sequence number made by [`ns2_key`] (never into the
    /// current instant's FIFO, whose entries must be in sequence order).
    #[inline]
    pub fn push_keyed(&mut self, time: SimTime, seq: u64, event: E) {
        debug_assert!(time >= self.last_popped, "event scheduled in the past");
        self.packets.push(Entry { time, seq, event });
    }

    /// [`replace_packet_top`] with a sequence number made by [`ns2_key`].
    ///
    /// [`replace_packet_top`]: EventQueue::replace_packet_top
    #[inline]
    pub fn replace_packet_top_keyed(&mut self, time: SimTime, seq: u64, event: E) {
        self.advance_to_packet_root();
        debug_assert!(time > self.last_popped);
        self.packets.replace_root(Entry { time, seq, event });
    }

    /// [`peek_due`] with the event's sequence number (under [`order_as_ns2`], its ns-2 key).
    ///
    /// [`peek_due`]: EventQueue::peek_due
    /// [`order_as_ns2`]: EventQueue::order_as_ns2
    #[inline]
    pub fn peek_due_seq(&self, until: SimTime) -> Option<(SimTime, E, Source, u64)> {
        if let Some(e) = self.now.get(self.now_head) {
            if !self.heap_before(e) {
                return (e.time <= until).then_some((e.time, e.event, Source::Now, e.seq));
            }
        }
        let (top, src) = self.first_root()?;
        (top.time <= until).then_some((top.time, top.event, src, top.seq))
    }

    /// Whether the next event is a timer.
    #[inline(always)]
    fn timer_first(&self) -> bool {
        match (self.packets.first(), self.timers.first()) {
            (Some(p), Some(t)) => t.before(p),
            (None, t) => t.is_some(),
            (Some(_), None) => false,
        }
    }

    /// The earlier of the two heaps' roots, and which heap holds it.
    #[inline(always)]
    fn first_root(&self) -> Option<(&Entry<E>, Source)> {
        if self.timer_first() {
            self.timers.first().map(|e| (e, Source::Timers))
        } else {
            self.packets.first().map(|e| (e, Source::Packets))
        }
    }

    /// Time of the earliest event, if any.
    #[inline]
    pub fn peek_time(&self) -> Option<SimTime> {
        if let Some(e) = self.now.get(self.now_head) {
            return Some(e.time);
        }
        self.first_root().map(|(e, _)| e.time)
    }

    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        self.pop_due(SimTime::MAX)
    }

    /// Pops the earliest event if it is due by `until`.
    #[inline]
    pub fn pop_due(&mut self, until: SimTime) -> Option<(SimTime, E)> {
        let (time, event, src) = self.peek_due(until)?;
        self.remove(src);
        Some((time, event))
    }

    /// The earliest event if it is due by `until`, left in the queue, with where it is: the
    /// caller removes it with [`remove`] or, when it is a packet event from the heap, may
    /// replace it with [`replace_packet_top`].
    ///
    /// [`remove`]: EventQueue::remove
    /// [`replace_packet_top`]: EventQueue::replace_packet_top
    #[inline]
    pub fn peek_due(&self, until: SimTime) -> Option<(SimTime, E, Source)> {
        if let Some(e) = self.now.get(self.now_head) {
            if !self.heap_before(e) {
                return (e.time <= until).then_some((e.time, e.event, Source::Now));
            }
        }
        let (top, src) = self.first_root()?;
        (top.time <= until).then_some((top.time, top.event, src))
    }

    /// Removes the event [`peek_due`] returned, from `src`, where it said it is. Nothing may
    /// be pushed in between: a new earlier event would be removed instead.
    ///
    /// [`peek_due`]: EventQueue::peek_due
    #[inline]
    pub fn remove(&mut self, src: Source) {
        match src {
            Source::Now => {
                self.now_head += 1;
                if self.now_head == self.now.len() {
                    self.now.clear();
                    self.now_head = 0;
                }
            }
            Source::Packets => self.pop_packet_root(),
            Source::Timers => {
                if let Some(top) = self.timers.pop() {
                    debug_assert!(top.time >= self.last_popped, "time went backwards");
                    self.last_popped = top.time;
                }
            }
        }
    }

    /// Removes the packet heap's root, which [`peek_due`] returned at `now` (its time; nothing
    /// pushed since), and schedules the packet event `event` at `time` (later than `now`) in
    /// its place, ordered as if pushed now: a link that delivers its head and schedules its
    /// next packet sifts the heap once, not twice. The caller passes the root's time it was
    /// given, so that the current instant is set without reading the root again.
    ///
    /// [`peek_due`]: EventQueue::peek_due
    #[inline(always)]
    pub fn replace_packet_top(&mut self, now: SimTime, time: SimTime, event: E) {
        debug_assert_eq!(
            self.packets.first().map(|e| e.time),
            Some(now),
            "`now` is not the packet root's time"
        );
        debug_assert!(now >= self.last_popped, "time went backwards");
        self.last_popped = now;
        debug_assert!(time > now, "a replacement for the current instant");
        let e = self.entry(time, event);
        self.packets.replace_root(e);
    }

    /// Removes the packet heap's root; the current instant becomes its time.
    #[inline]
    fn pop_packet_root(&mut self) {
        if let Some(top) = self.packets.pop() {
            debug_assert!(top.time >= self.last_popped, "time went backwards");
            self.last_popped = top.time;
        }
    }

    /// The current instant becomes the packet heap root's time.
    #[inline(always)]
    fn advance_to_packet_root(&mut self) {
        if let Some(top) = self.packets.first() {
            debug_assert!(top.time >= self.last_popped, "time went backwards");
            self.last_popped = top.time;
        }
    }

    /// Whether a heap root comes before `e` (an event of the current instant: only a root at
    /// the same instant with a smaller sequence can).
    #[inline(always)]
    fn heap_before(&self, e: &Entry<E>) -> bool {
        self.first_root().is_some_and(|(h, _)| h.before(e))
    }

    pub fn len(&self) -> usize {
        self.packets.len() + self.timers.len() + self.now.len() - self.now_head
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// ns-2's clock in a sequence number (the ns2 profile, [`EventQueue::order_as_ns2`]).
///
/// ns-2.35 keeps time in doubles (`Scheduler::schedule`: `time_ = clock_ + delay`) and
/// orders equal times by uid, the order in which events were scheduled (`Scheduler/Calendar`
/// inserts an event after those of the same time, `Scheduler/Heap` compares its insertion
/// count). ackclock's time stays the exact integer; among events of the same integer time the
/// sequence number carries, in its high bits, how far the event's ns-2 time lies from that
/// integer's own double (in units of the last place: positive doubles order as their bits),
/// and in its low bits the ns-2 scheduling order. Events of one integer time lie within a
/// few hundred units of each other (the rounding of sums along different paths), far inside
/// the field; a farther one is clamped, still deterministic.
pub const NS2_UID_BITS: u32 = 40;
const NS2_UID_MASK: u64 = (1 << NS2_UID_BITS) - 1;
const NS2_OFFSET_BITS: u32 = 64 - NS2_UID_BITS;
/// The offset of an event whose ns-2 time is its integer time's own double.
const NS2_NEUTRAL: u64 = 1 << (NS2_OFFSET_BITS - 1);
/// Scheduling orders below this one go to what a front end's script does (see
/// `Simulator::run_until_before`): ns-2 runs it inside the script, before the events of the
/// same time scheduled by the simulation.
pub const NS2_FIRST_UID: u64 = 1 << (NS2_UID_BITS - 1);

/// The double ns-2 would hold for the integer time `t` (picoseconds).
#[inline]
pub fn ns2_seconds(t: SimTime) -> f64 {
    t.0 as f64 / 1e12
}

/// The integer time (picoseconds) of an event whose ns-2 time is `t2`: the double's exact
/// value in picoseconds, rounded to the nearest (half to even, as the ns-2 front end's
/// `sim_seconds_to_ps` rounds a script's times). Monotone, so that events ordered by it and
/// then, within a picosecond, by [`ns2_key`] run in ns-2's order of doubles: under the ns2
/// profile the engine's clock is ns-2's, to the picosecond. ns-2's sums drift from exact
/// time (at 10 Gb/s, `8 * 1040 / 1e10` added to a clock of some 700 s rounds the same way
/// each time: 24 ns after 200 s of back-to-back packets in seed 000's topology 2), far more
/// than the 32 ns between two of its exact instants could absorb.
#[inline]
pub fn ns2_ps(t2: f64) -> SimTime {
    if t2 <= 0.0 {
        return SimTime::ZERO;
    }
    let bits = t2.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mant = if exp == 0 {
        (bits & ((1 << 52) - 1)) as u128
    } else {
        ((bits & ((1 << 52) - 1)) | (1 << 52)) as u128
    };
    // t2 = mant * 2^shift exactly.
    let shift = exp.max(1) - 1075;
    let scaled = mant * 1_000_000_000_000u128;
    if shift >= 0 {
        return SimTime(u64::try_from(scaled << shift.min(64)).unwrap_or(u64::MAX));
    }
    let s = (-shift) as u32;
    if s >= 128 {
        return SimTime::ZERO;
    }
    let q = scaled >> s;
    let rem = scaled - (q << s);
    let half = 1u128 << (s - 1);
    let q = if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    };
    SimTime(u64::try_from(q).unwrap_or(u64::MAX))
}

/// The sequence number of an event at integer time `t` whose ns-2 time is `t2` and whose
/// ns-2 scheduling order is the sequence number `uid` (from [`EventQueue::reserve`]).
#[inline]
pub fn ns2_key(t: SimTime, t2: f64, uid: u64) -> u64 {
    let d = t2.max(0.0).to_bits() as i64 - ns2_seconds(t).to_bits() as i64;
    let lim = NS2_NEUTRAL as i64 - 1;
    let off = (d.clamp(-lim, lim) + NS2_NEUTRAL as i64) as u64;
    (off << NS2_UID_BITS) | (uid & NS2_UID_MASK)
}

/// The ns-2 time and scheduling order [`ns2_key`] put into a sequence number.
#[inline]
pub fn ns2_unkey(t: SimTime, seq: u64) -> (f64, u64) {
    let off = (seq >> NS2_UID_BITS) as i64 - NS2_NEUTRAL as i64;
    let t2 = f64::from_bits((ns2_seconds(t).to_bits() as i64 + off) as u64);
    (t2, seq & NS2_UID_MASK)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A double's exact value in picoseconds, rounded half to even (Python's
    /// `round(Fraction(t) * 10**12)`, the front end's conversion).
    #[test]
    fn ns2_ps_rounds_the_doubles_exact_value() {
        assert_eq!(ns2_ps(0.0), SimTime::ZERO);
        assert_eq!(ns2_ps(711.0), SimTime(711_000_000_000_000));
        // 0.1 is 0.1000000000000000055511151231257827 s: 100 000 000 000.0000055 ps.
        assert_eq!(ns2_ps(0.1), SimTime(100_000_000_000));
        // seed 000's drift: 710.9999902162527 s (ns-2's sum) is not the exact 710.99999024.
        assert_eq!(ns2_ps(710.9999902162527), SimTime(710_999_990_216_253));
        // Half a picosecond rounds to even: 0.5 ps and 1.5 ps are not doubles of seconds,
        // but 2^-41 s = 0.4547... ps rounds down and 3 * 2^-41 s = 1.364 ps down to 1.
        assert_eq!(ns2_ps(2f64.powi(-41)), SimTime(0));
        assert_eq!(ns2_ps(3.0 * 2f64.powi(-41)), SimTime(1));
        // Monotone and the inverse of ns2_seconds on whole picoseconds.
        let mut last = SimTime::ZERO;
        for k in 0..2000u64 {
            let t = SimTime(709_500_000_000_000 + k * 16_001);
            assert_eq!(ns2_ps(ns2_seconds(t)), t);
            let x = ns2_seconds(t);
            let up = f64::from_bits(x.to_bits() + 1);
            assert!(ns2_ps(up) >= ns2_ps(x) && ns2_ps(x) >= last);
            last = ns2_ps(x);
        }
    }

    #[test]
    fn the_one_number_key_orders_as_time_then_sequence_at_the_extremes() {
        // ns-2 keys fill a sequence's high bits (`ns2_key`), so sequences near `u64::MAX`
        // occur; the key must still put a later time after any sequence of an earlier one.
        let e = |t: u64, s: u64| Entry {
            time: SimTime(t),
            seq: s,
            event: (),
        };
        let values = [
            0,
            1,
            2,
            1 << 32,
            (1 << 63) - 1,
            1 << 63,
            u64::MAX - 1,
            u64::MAX,
        ];
        for &t1 in &values {
            for &s1 in &values {
                for &t2 in &values {
                    for &s2 in &values {
                        let (a, b) = (e(t1, s1), e(t2, s2));
                        assert_eq!(a.before(&b), (t1, s1) < (t2, s2), "{t1} {s1} {t2} {s2}");
                    }
                }
            }
        }
    }

    #[test]
    fn pops_in_time_then_insertion_order() {
        let mut q = EventQueue::new();
        q.push(SimTime(5), 'a');
        q.push(SimTime(1), 'b');
        q.push(SimTime(5), 'c');
        q.push(SimTime(3), 'd');
        q.push(SimTime(5), 'e');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['b', 'd', 'a', 'c', 'e']);
    }

    #[test]
    fn timers_and_packet_events_interleave_by_time_then_insertion() {
        let mut q = EventQueue::new();
        q.push(SimTime(5), 'a');
        q.push_timer(SimTime(5), 'b');
        q.push(SimTime(5), 'c');
        q.push_timer(SimTime(1), 'd');
        q.push(SimTime(9), 'e');
        q.push_timer(SimTime(7), 'f');
        assert_eq!(q.peek_time(), Some(SimTime(1)));
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['d', 'a', 'b', 'c', 'f', 'e']);
    }

    #[test]
    fn reserved_timers_keep_the_order_of_their_reservation() {
        // Two starts reserved at once (x before y, both at 5), pushed one at a time, the
        // second only when the first fires, after other events at 5 were scheduled.
        let mut q = EventQueue::new();
        let base = q.reserve(2);
        q.push(SimTime(5), 'a');
        q.push_timer_reserved(SimTime(5), base, 'x');
        q.push_timer(SimTime(5), 'b');
        let mut order = Vec::new();
        while let Some((_, e)) = q.pop() {
            if e == 'x' {
                q.push_timer_reserved(SimTime(5), base + 1, 'y');
            }
            order.push(e);
        }
        assert_eq!(order, vec!['x', 'y', 'a', 'b']);
    }

    #[test]
    fn events_for_the_current_instant_keep_their_place_among_earlier_ones() {
        // After 'a' pops at 5, 'x' and 'y' are scheduled for 5 too (the FIFO): 'b' and 'c',
        // pushed at 5 before them, still come first, and 'z', pushed later, after them.
        let mut q = EventQueue::new();
        q.push(SimTime(5), 'a');
        q.push(SimTime(5), 'b');
        q.push_timer(SimTime(5), 'c');
        q.push(SimTime(8), 'd');
        assert_eq!(q.pop(), Some((SimTime(5), 'a')));
        q.push(SimTime(5), 'x');
        q.push_timer(SimTime(5), 'y');
        assert_eq!(q.len(), 5);
        assert_eq!(q.peek_time(), Some(SimTime(5)));
        assert_eq!(q.pop(), Some((SimTime(5), 'b')));
        q.push(SimTime(5), 'z');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['c', 'x', 'y', 'z', 'd']);
        assert!(q.is_empty());
    }

    #[test]
    fn the_current_instant_is_seen_by_peeks_and_follows_replacements() {
        let mut q = EventQueue::new();
        q.push(SimTime(3), 'a');
        q.push(SimTime(9), 'b');
        assert_eq!(q.pop(), Some((SimTime(3), 'a')));
        // Only the FIFO holds an event at 3: peeks must see it before the heap's 9.
        q.push(SimTime(3), 'x');
        assert_eq!(q.now.len() - q.now_head, 1);
        assert_eq!(q.peek_time(), Some(SimTime(3)));
        assert_eq!(q.peek_due(SimTime(3)), Some((SimTime(3), 'x', Source::Now)));
        q.remove(Source::Now);
        // Replacing the root at 9 moves the current instant to 9: a push at 9 is the FIFO's.
        assert_eq!(
            q.peek_due(SimTime(9)),
            Some((SimTime(9), 'b', Source::Packets))
        );
        q.replace_packet_top(SimTime(9), SimTime(12), 'c');
        q.push(SimTime(9), 'y');
        assert_eq!(q.now.len() - q.now_head, 1);
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['y', 'c']);
    }

    #[test]
    fn reserved_timers_of_the_current_instant_go_before_the_fifo() {
        // Two starts reserved before 'a' pops; the second is pushed at 5 after 'x' entered
        // the FIFO at 5, and still comes first: its sequence number is the smaller.
        let mut q = EventQueue::new();
        let base = q.reserve(2);
        q.push(SimTime(5), 'a');
        q.push_timer_reserved(SimTime(5), base, 'r');
        assert_eq!(q.pop(), Some((SimTime(5), 'r')));
        q.push(SimTime(5), 'x');
        q.push_timer_reserved(SimTime(5), base + 1, 's');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['s', 'a', 'x']);
    }

    /// Random pushes, with peeks that remove the earliest event or, for a packet event from
    /// the heap, replace it with a later one (a link scheduling its next head), against a
    /// sorted model.
    #[test]
    fn peek_remove_and_replace_match_a_sorted_model() {
        use crate::rng::RandomStream;
        let mut rng = RandomStream::named(11, "sched-replace");
        let mut q = EventQueue::new();
        let mut model = std::collections::BTreeSet::new();
        let mut id = 0u32;
        let mut now = 0;
        for _ in 0..20_000 {
            if rng.uniform_u64(0, 2) > 0 || model.is_empty() {
                let t = now + rng.uniform_u64(0, 20);
                if rng.uniform_u64(0, 2) == 0 {
                    q.push(SimTime(t), id);
                } else {
                    q.push_timer(SimTime(t), id);
                }
                model.insert((t, id));
                id += 1;
                continue;
            }
            let (t, e, src) = q.peek_due(SimTime::MAX).expect("not empty");
            let first = *model.iter().next().expect("not empty");
            assert_eq!((t.0, e), first);
            model.remove(&first);
            now = t.0;
            if src == Source::Packets && rng.uniform_u64(0, 2) == 0 {
                let later = t.0 + 1 + rng.uniform_u64(0, 20);
                q.replace_packet_top(t, SimTime(later), id);
                model.insert((later, id));
                id += 1;
            } else {
                q.remove(src);
            }
            assert_eq!(q.len(), model.len());
        }
        while let Some((t, e)) = q.pop() {
            let first = *model.iter().next().expect("not empty");
            assert_eq!((t.0, e), first);
            model.remove(&first);
        }
        assert!(model.is_empty());
    }

    #[test]
    fn pop_due_stops_at_the_horizon() {
        let mut q = EventQueue::new();
        q.push(SimTime(4), 'a');
        q.push_timer(SimTime(2), 'b');
        q.push(SimTime(6), 'c');
        assert_eq!(q.pop_due(SimTime(4)), Some((SimTime(2), 'b')));
        assert_eq!(q.pop_due(SimTime(4)), Some((SimTime(4), 'a')));
        assert_eq!(q.pop_due(SimTime(4)), None);
        assert_eq!(q.len(), 1);
        assert_eq!(q.pop_due(SimTime(6)), Some((SimTime(6), 'c')));
        assert_eq!(q.pop_due(SimTime(9)), None);
    }

    /// Random interleavings of pushes (to either heap) and pops, many ties included, against
    /// a sorted model: the order is that of one heap keyed by (time, insertion sequence).
    #[test]
    fn matches_a_sorted_model() {
        use crate::rng::RandomStream;
        let mut rng = RandomStream::named(7, "sched");
        let mut q = EventQueue::new();
        let mut model = std::collections::BTreeSet::new();
        let mut now = 0;
        for id in 0..20_000u32 {
            if rng.uniform_u64(0, 3) > 0 || model.is_empty() {
                let t = now + rng.uniform_u64(0, 50);
                if rng.uniform_u64(0, 2) == 0 {
                    q.push(SimTime(t), id);
                } else {
                    q.push_timer(SimTime(t), id);
                }
                model.insert((t, id));
            } else {
                let (t, id) = q.pop().expect("not empty");
                let first = *model.iter().next().expect("not empty");
                assert_eq!((t.0, id), first);
                model.remove(&first);
                now = t.0;
            }
            assert_eq!(q.len(), model.len());
        }
        while let Some((t, id)) = q.pop() {
            let first = *model.iter().next().expect("not empty");
            assert_eq!((t.0, id), first);
            model.remove(&first);
        }
        assert!(model.is_empty());
    }

    #[test]
    fn ns2_keys_order_equal_times_by_their_double_then_by_uid() {
        let t = SimTime(515_740_000_000_000);
        let x = ns2_seconds(t);
        let up = f64::from_bits(x.to_bits() + 3);
        let down = f64::from_bits(x.to_bits() - 2);
        let mut q = EventQueue::new();
        q.order_as_ns2();
        let u = q.reserve(3);
        q.push_keyed(t, ns2_key(t, up, u), 'c');
        q.push_keyed(t, ns2_key(t, x, u + 2), 'b');
        q.push(t, 'u'); // no key: exactly `x`, scheduled after the other two
        q.push_keyed(t, ns2_key(t, down, u + 1), 'a');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['a', 'b', 'u', 'c']);
        assert_eq!(ns2_unkey(t, ns2_key(t, up, 7)), (up, 7));
        assert_eq!(ns2_unkey(t, ns2_key(t, down, 9)), (down, 9));
    }
}
