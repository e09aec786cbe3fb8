//! ns-2's DRR: Deficit Round Robin (M. Shreedhar, G. Varghese, "Efficient Fair Queuing Using
//! Deficit Round Robin", ACM SIGCOMM 1995) as ns-2.35's `Queue/DRR` implements it
//! (queue/drr.cc, `DRR::enque`, `DRR::deque`, `DRR::hash`; S. Bajaj, 1997).
//!
//! - Packets hash to one of `buckets` (10) FIFOs by their source node address alone (with
//!   `mask`, by the address with its low 4 bits cleared): h = ((i + (i >> 8) + ~(i >> 4))
//!   mod (2^24 - 1)) + 1, bucket = h mod buckets (C's remainder).
//! - A bucket that becomes non-empty joins the end of the round with a deficit of 0.
//! - Dequeue: the current bucket, at the start of its turn, adds `quantum` (250 bytes) to its
//!   deficit; while the head packet fits in the deficit it is sent (the turn continues at the
//!   next dequeue); when it does not, the turn passes to the next bucket. A bucket that
//!   empties leaves the round and its deficit is reset.
//! - Buffer: `blimit` bytes (25000) over all buckets; while an arrival makes the total exceed
//!   it, the head packet of the bucket with the most bytes (the first such, going round from
//!   the current bucket) is dropped.

use std::collections::VecDeque;

use super::codel::TimedFifo;
use super::{
    AqmState, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service, Unit,
};
use crate::packet::Packet;
use crate::time::SimTime;

#[derive(Clone, Copy, Debug)]
pub struct DrrParams {
    pub buckets: u32,
    pub blimit: u64,
    pub quantum: u32,
    pub mask: bool,
}

#[derive(Clone, Debug, Default)]
struct Bucket {
    q: TimedFifo,
    deficit: i64,
    turn: bool,
}

#[derive(Clone, Debug)]
pub struct Drr {
    p: DrrParams,
    buckets: Vec<Bucket>,
    /// The round: non-empty buckets, the current one first.
    active: VecDeque<u32>,
    packets: u64,
    bytes: u64,
    pub marks: u64,
}

/// ns-2's `DRR::hash` of a source address, then the bucket.
pub fn bucket(src: u32, mask: bool, buckets: u32) -> u32 {
    let i = if mask { src & 0xfff0 } else { src } as i64;
    let h = (i + (i >> 8) + !(i >> 4)) % ((2 << 23) - 1) + 1;
    h.rem_euclid(buckets as i64) as u32
}

impl Drr {
    pub fn new(p: DrrParams) -> Drr {
        Drr {
            buckets: vec![Bucket::default(); p.buckets as usize],
            p,
            active: VecDeque::new(),
            packets: 0,
            bytes: 0,
            marks: 0,
        }
    }

    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.buckets
            .iter()
            .flat_map(|b| b.q.packets.iter().map(|(_, p)| p))
    }
}

crate::params! {
    /// The `Drr` discipline's parameters (`queue.params`), each with its declaration.
    pub struct DrrSettings {
        buckets: u32 = Param::new("buckets", 10.0, Range::Count, "hash buckets").ns2("buckets_"),
        blimit: f64 = Param::new("blimit", 25_000.0, Range::Count, "buffer over all buckets")
            .unit(Unit::Bytes)
            .ns2("blimit_"),
        quantum: u32 = Param::new("quantum", 250.0, Range::Count, "bytes a bucket may send per round")
            .unit(Unit::Bytes)
            .ns2("quantum_"),
        mask: bool = Param::new("mask", 0.0, Range::Flag, "hash the source address without its low 4 bits")
            .ns2("mask_"),
    }
}

const DRR_PARAMS: &[Param] = DrrSettings::PARAMS;

impl QueueDiscipline for Drr {
    const INFO: QdiscInfo = QdiscInfo {
        params: DRR_PARAMS,
        ..QdiscInfo::new(
            "drr",
            Service::Dequeue,
            "ns-2.35's Queue/DRR (deficit round robin, Shreedhar and Varghese 1995); its buffer \
             is blimit bytes, the packet limit is not used (as ns-2's)",
        )
    };

    type Params = DrrSettings;

    fn new(p: &DrrSettings, _setup: &QueueSetup) -> Drr {
        Drr::new(DrrParams {
            buckets: p.buckets,
            blimit: p.blimit as u64,
            quantum: p.quantum,
            mask: p.mask,
        })
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        let b = bucket(pkt.src.0, self.p.mask, self.p.buckets);
        let q = &mut self.buckets[b as usize];
        q.q.push(now, pkt);
        self.packets += 1;
        self.bytes += pkt.size as u64;
        if q.q.packets.len() == 1 {
            q.deficit = 0;
            self.active.push_back(b);
        }
        while self.bytes > self.p.blimit {
            // The fullest bucket, the first of equals going round from the current one.
            let mut max_at = 0;
            for (k, &i) in self.active.iter().enumerate() {
                let cur = self.buckets[self.active[max_at] as usize].q.bytes;
                if self.buckets[i as usize].q.bytes > cur {
                    max_at = k;
                }
            }
            let i = self.active[max_at];
            let q = &mut self.buckets[i as usize];
            let (_, victim) = q.q.pop().expect("an active bucket holds a packet");
            self.packets -= 1;
            self.bytes -= victim.size as u64;
            dropped.push(victim);
            if q.q.packets.is_empty() {
                self.active.remove(max_at);
            }
        }
    }

    #[inline]
    fn dequeue(&mut self, _now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        loop {
            let &b = self.active.front()?;
            let q = &mut self.buckets[b as usize];
            if !q.turn {
                q.deficit += self.p.quantum as i64;
                q.turn = true;
            }
            let size =
                q.q.packets
                    .front()
                    .expect("an active bucket holds a packet")
                    .1
                    .size;
            if q.deficit >= size as i64 {
                q.deficit -= size as i64;
                let head = q.q.pop().expect("checked");
                if q.q.packets.is_empty() {
                    q.turn = false;
                    q.deficit = 0;
                    self.active.pop_front();
                }
                self.packets -= 1;
                self.bytes -= size as u64;
                return Some(head);
            }
            q.turn = false;
            self.active.rotate_left(1);
        }
    }

    #[inline]
    fn backlog(&self) -> Backlog {
        Backlog {
            packets: self.packets,
            bytes: self.bytes,
        }
    }

    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.packets().for_each(f)
    }

    #[inline]
    fn marks(&self) -> u64 {
        self.marks
    }

    fn state(&self) -> AqmState {
        AqmState::NONE
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (None, Some(self.p.blimit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NodeId;

    fn pkt(src: u32, size: u32) -> Packet {
        let mut p = Packet::test_udp(0, src, size);
        p.src = NodeId(src);
        p
    }

    fn drr(blimit: u64) -> Drr {
        Drr::new(DrrParams {
            buckets: 10,
            blimit,
            quantum: 250,
            mask: false,
        })
    }

    #[test]
    fn the_hash_is_ns2s() {
        // i = 0: -1 + 1 = 0; 1: 0 + 1 = 1; 16: 16 + ~1 + 1 = 15; 17: 16; 300: 300 + 1 + ~18 + 1.
        assert_eq!(bucket(0, false, 10), 0);
        assert_eq!(bucket(1, false, 10), 1);
        assert_eq!(bucket(16, false, 10), 5);
        assert_eq!(bucket(17, false, 10), 6);
        assert_eq!(bucket(300, false, 10), 283 % 10);
        assert_eq!(bucket(17, true, 10), bucket(16, false, 10));
    }

    #[test]
    fn bytes_are_shared_by_quantum() {
        let mut q = drr(1_000_000);
        let mut dropped = Vec::new();
        // Source 1 sends 1000-byte packets, source 2 250-byte ones; both stay backlogged.
        for _ in 0..200 {
            q.enqueue(SimTime::ZERO, pkt(1, 1000), &mut dropped);
            for _ in 0..4 {
                q.enqueue(SimTime::ZERO, pkt(2, 250), &mut dropped);
            }
        }
        let mut bytes = [0u64; 3];
        let mut order = Vec::new();
        for _ in 0..250 {
            let (_, p) = q.dequeue(SimTime::ZERO, &mut dropped).unwrap();
            bytes[p.src.0 as usize] += p.size as u64;
            order.push(p.src.0);
        }
        // The 1000-byte flow sends once per four rounds, the other once per round.
        assert_eq!(&order[..6], &[2, 2, 2, 1, 2, 2]);
        let share = bytes[1] as f64 / (bytes[1] + bytes[2]) as f64;
        assert!((share - 0.5).abs() < 0.01, "{bytes:?}");
    }

    #[test]
    fn overflow_drops_the_head_of_the_fullest_bucket() {
        let mut q = drr(5000);
        let mut dropped = Vec::new();
        for _ in 0..4 {
            q.enqueue(SimTime::ZERO, pkt(1, 1000), &mut dropped);
        }
        q.enqueue(SimTime::ZERO, pkt(2, 500), &mut dropped);
        q.enqueue(SimTime::ZERO, pkt(2, 500), &mut dropped);
        assert!(dropped.is_empty(), "5000 bytes: at the limit, not over it");
        q.enqueue(SimTime::ZERO, pkt(2, 500), &mut dropped);
        assert_eq!(dropped.len(), 1);
        assert_eq!(
            dropped[0].src.0, 1,
            "source 1 holds 4000 bytes, source 2 1500"
        );
        assert_eq!(q.backlog().bytes, 4500);
    }
}
