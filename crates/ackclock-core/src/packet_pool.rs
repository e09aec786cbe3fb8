//! Storage for the packets crossing links, addressed by a small handle.
//!
//! A packet is written here once when it enters the network and stays put until it reaches
//! its destination or is dropped; a link's ring holds its handle with the few header fields
//! routing and queueing need (`net::link::Carried`, 24 bytes) instead of the whole 96-byte
//! packet copied from ring to ring at every hop. Freed slots are reused last-in first-out, so
//! the slot a delivered packet left is still cached when the next packet is written into it.
//! On scenario 2 (`dumbbell_bench`) this halved the first-level cache misses (cachegrind: 3.3
//! to 1.6 per hop) and made a hop 6-9% faster. htsim's packet database works the same way.

use crate::packet::Packet;

/// Where an agent puts the packets it sends: a `Vec` (tests, and the simulator's less
/// frequent paths) or straight into the pool ([`PoolOut`]).
pub trait Outgoing {
    fn push(&mut self, pkt: Packet);

    /// The place of the next packet sent, for the agent to write whole
    /// (`let p = out.place(); *p = Packet { .. }`): in the pool, the packet's slot itself, so
    /// that the packet is not built on the agent's stack and then copied in.
    fn place(&mut self) -> &mut Packet;
}

impl Outgoing for Vec<Packet> {
    #[inline(always)]
    fn push(&mut self, pkt: Packet) {
        Vec::push(self, pkt);
    }

    #[inline(always)]
    fn place(&mut self) -> &mut Packet {
        Vec::push(self, NO_PACKET);
        self.last_mut().expect("a packet was just pushed")
    }
}

/// Writes the packets an agent sends into their pool slots as the agent builds them, and
/// keeps their handles in order for the simulator to send. Built in a scratch vector
/// instead, every packet was read back (in 16-byte pieces) right after the agent had written
/// it (field by field), and such a read waits until those stores have reached the cache:
/// x86 cannot forward several narrow stores to one wider load.
pub struct PoolOut<'a> {
    pub pool: &'a mut PacketPool,
    pub sent: &'a mut Vec<PacketRef>,
}

impl Outgoing for PoolOut<'_> {
    #[inline(always)]
    fn push(&mut self, pkt: Packet) {
        let r = self.pool.put(pkt);
        self.sent.push(r);
    }

    #[inline(always)]
    fn place(&mut self) -> &mut Packet {
        let r = self.pool.alloc();
        self.sent.push(r);
        self.pool.at_mut(r)
    }
}

/// A packet's place in a [`PacketPool`]; valid until the packet is taken. (The default
/// handle only fills unused ring slots: it names the pool's slot 0, which holds no packet.)
/// Made only by [`PacketPool::put`], as the index of a slot that exists: the proof that lets
/// the pool skip the bounds check at every later use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketRef(u32);

impl PacketRef {
    /// Its slot in the pool, for state kept beside the packet (ns-2's hop count, `sim`).
    #[inline]
    pub fn slot(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug)]
pub struct PacketPool {
    /// Never shorter than one (slot 0, the default handle's, holds no packet and is never
    /// free) and never shrunk: every [`PacketRef`] names a slot that exists.
    slots: Vec<Packet>,
    free: Vec<u32>,
    /// Under the ns2 profile, the ns-2 time and scheduling order of the event now running
    /// (`sched::ns2_key`): a link with ns-2's clock reads them when a packet reaches it
    /// (`Link::enqueue`), and every hop already hands it the pool, so no other profile pays
    /// for passing them.
    pub ns2_now: (f64, u64),
}

/// What slot 0 holds: no packet of the run.
const NO_PACKET: Packet = Packet {
    id: u64::MAX,
    flow: crate::ids::FlowId(u32::MAX),
    kind: crate::packet::PacketKind::Udp,
    flags: 0,
    src: crate::ids::NodeId(u32::MAX),
    dst: crate::ids::NodeId(u32::MAX),
    size: 0,
    seq: 0,
    ack: 0,
    sent_at: crate::time::SimTime::ZERO,
    retransmit: false,
    ts_echo: crate::time::SimTime::ZERO,
    sack: crate::packet::SackBlocks::NONE,
    nth: 0,
    rwnd: 0,
    ecn: 0,
};

impl Default for PacketPool {
    fn default() -> Self {
        PacketPool {
            slots: vec![NO_PACKET],
            free: Vec::new(),
            ns2_now: (0.0, 0),
        }
    }
}

impl PacketPool {
    /// The slot of `r`, without a bounds check.
    #[inline(always)]
    fn at(&self, r: PacketRef) -> &Packet {
        debug_assert!((r.0 as usize) < self.slots.len());
        // SAFETY: `r.0 < self.slots.len()`: a `PacketRef` is made only by `put`, as the index
        // of a slot it has just written (its field is private to this module), or by
        // `Default`, as slot 0, which every pool has from its start; `slots` never shrinks
        // (no method here removes a slot). The simulator keeps one pool per run and its
        // handles never leave it, so a handle is only ever used with the pool that made it.
        unsafe { self.slots.get_unchecked(r.0 as usize) }
    }

    /// The slot of `r`, to change, without a bounds check.
    #[inline(always)]
    fn at_mut(&mut self, r: PacketRef) -> &mut Packet {
        debug_assert!((r.0 as usize) < self.slots.len());
        // SAFETY: as in `at`: `r.0 < self.slots.len()`.
        unsafe { self.slots.get_unchecked_mut(r.0 as usize) }
    }

    /// Stores `pkt` and returns its handle.
    #[inline(always)]
    pub fn put(&mut self, pkt: Packet) -> PacketRef {
        let r = self.alloc();
        *self.at_mut(r) = pkt;
        r
    }

    /// A slot for a packet the caller writes next (it holds a stale or blank packet until
    /// then), and its handle: the last freed, or a new one.
    #[inline(always)]
    fn alloc(&mut self) -> PacketRef {
        match self.free.pop() {
            // `free` holds only slots `take` released, which exist.
            Some(i) => PacketRef(i),
            None => {
                let i = u32::try_from(self.slots.len()).expect("over 4 billion packets in flight");
                self.slots.push(NO_PACKET);
                PacketRef(i)
            }
        }
    }

    #[inline]
    pub fn get(&self, r: PacketRef) -> &Packet {
        self.at(r)
    }

    #[inline]
    pub fn get_mut(&mut self, r: PacketRef) -> &mut Packet {
        self.at_mut(r)
    }

    /// Removes the packet and returns it; the handle is dead afterwards.
    #[inline]
    pub fn take(&mut self, r: PacketRef) -> Packet {
        debug_assert!(r.0 != 0, "the default handle holds no packet");
        self.free.push(r.0);
        *self.at(r)
    }

    /// Packets stored now.
    pub fn len(&self) -> usize {
        self.slots.len() - 1 - self.free.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(id: u64) -> Packet {
        Packet::test_udp(id, 0, 100)
    }

    #[test]
    fn handles_stay_valid_until_taken_and_slots_are_reused_last_freed_first() {
        let mut pool = PacketPool::default();
        let a = pool.put(pkt(1));
        let b = pool.put(pkt(2));
        let c = pool.put(pkt(3));
        assert_eq!(pool.len(), 3);
        assert_eq!(pool.take(b).id, 2);
        assert_eq!(pool.get(a).id, 1);
        assert_eq!(pool.get(c).id, 3);
        pool.get_mut(c).ecn = 2;
        assert_eq!(pool.take(c).ecn, 2);
        // The last freed slot (c's) comes back first, then b's; then the pool grows.
        assert_eq!(pool.put(pkt(4)), c);
        assert_eq!(pool.put(pkt(5)), b);
        let d = pool.put(pkt(6));
        assert_ne!(d, a);
        assert_eq!(pool.len(), 4);
        assert_eq!(pool.slots.len(), 5, "slot 0 and the four packets'");
        assert_ne!(
            a,
            PacketRef::default(),
            "no packet in the default handle's slot"
        );
        assert_eq!([a, b, c, d].map(|r| pool.get(r).id), [1, 5, 4, 6]);
    }
}
