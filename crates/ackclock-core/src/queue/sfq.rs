//! ns-2's SFQ: Stochastic Fairness Queueing (P. E. McKenney, "Stochastic Fairness Queueing",
//! IEEE INFOCOM 1990) as ns-2.35's `Queue/SFQ` implements it (queue/sfq.cc, `SFQ::enque`,
//! `SFQ::deque`, `SFQ::hash`; C. Villamizar, 1997). Not Linux's `sch_sfq`, which differs.
//!
//! - Packets hash to one of `buckets` (16) FIFOs by their source and destination node
//!   addresses: k = src + dst, h = (k + (k >> 8) + ~(k >> 4)) mod (2^20 - 1), bucket =
//!   h mod buckets (ns-2's hash, with C's remainder). Every flow between the same two nodes,
//!   and their ACKs, share a bucket.
//! - Service is packet-by-packet round robin over the non-empty buckets; a bucket that
//!   becomes non-empty joins the end of the round.
//! - Admission, with `used` the arrival's bucket's packets and `left` = maxqueue - packets
//!   held: the arrival is dropped if used >= left / 2, or left < buckets and used >
//!   maxqueue / buckets (the fair share), or left <= 0. `maxqueue` is ns-2's `maxqueue_`
//!   (40), which `$sfq limit n` (and so `queue-limit`) sets.

use std::collections::VecDeque;

use super::codel::TimedFifo;
use super::{AqmState, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service};
use crate::packet::Packet;
use crate::time::SimTime;

#[derive(Clone, Copy, Debug)]
pub struct SfqParams {
    pub maxqueue: u64,
    pub buckets: u32,
}

#[derive(Clone, Debug)]
pub struct Sfq {
    p: SfqParams,
    buckets: Vec<TimedFifo>,
    /// The round: non-empty buckets, the one to serve next first.
    active: VecDeque<u32>,
    occupied: u64,
    bytes: u64,
    pub marks: u64,
}

/// ns-2's `SFQ::hash` of two node addresses, then the bucket.
pub fn bucket(src: u32, dst: u32, buckets: u32) -> u32 {
    let k = src as i64 + dst as i64;
    let h = (k + (k >> 8) + !(k >> 4)) % ((2 << 19) - 1);
    h.rem_euclid(buckets as i64) as u32
}

impl Sfq {
    pub fn new(p: SfqParams) -> Sfq {
        Sfq {
            buckets: vec![TimedFifo::default(); p.buckets as usize],
            p,
            active: VecDeque::new(),
            occupied: 0,
            bytes: 0,
            marks: 0,
        }
    }

    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.buckets
            .iter()
            .flat_map(|b| b.packets.iter().map(|(_, p)| p))
    }
}

crate::params! {
    /// The `Sfq` discipline's parameters (`queue.params`), each with its declaration.
    pub struct SfqSettings {
        buckets: u32 = Param::new("buckets", 16.0, Range::Count, "hash buckets")
            .ns2("buckets_"),
    }
}

const SFQ_PARAMS: &[Param] = SfqSettings::PARAMS;

impl QueueDiscipline for Sfq {
    const INFO: QdiscInfo = QdiscInfo {
        params: SFQ_PARAMS,
        default_limit: Some(40),
        ..QdiscInfo::new(
            "sfq",
            Service::Dequeue,
            "ns-2.35's Queue/SFQ (stochastic fairness queueing, McKenney 1990); limit = maxqueue_",
        )
    };

    type Params = SfqSettings;

    fn new(p: &SfqSettings, setup: &QueueSetup) -> Sfq {
        Sfq::new(SfqParams {
            maxqueue: setup.packets(),
            buckets: p.buckets,
        })
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        let b = bucket(pkt.src.0, pkt.dst.0, self.p.buckets);
        let q = &mut self.buckets[b as usize];
        let used = q.packets.len() as i64;
        let left = self.p.maxqueue as i64 - self.occupied as i64;
        let fairshare = (self.p.maxqueue / self.p.buckets as u64) as i64;
        if used >= (left >> 1) || (left < self.p.buckets as i64 && used > fairshare) || left <= 0 {
            dropped.push(pkt);
            return;
        }
        q.push(now, pkt);
        self.occupied += 1;
        self.bytes += pkt.size as u64;
        if q.packets.len() == 1 {
            self.active.push_back(b);
        }
    }

    #[inline]
    fn dequeue(&mut self, _now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        let b = self.active.pop_front()?;
        let q = &mut self.buckets[b as usize];
        let head = q.pop().expect("an active bucket holds a packet");
        if !q.packets.is_empty() {
            self.active.push_back(b);
        }
        self.occupied -= 1;
        self.bytes -= head.1.size as u64;
        Some(head)
    }

    #[inline]
    fn backlog(&self) -> Backlog {
        Backlog {
            packets: self.occupied,
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
        (Some(self.p.maxqueue), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NodeId;

    fn pkt(src: u32, dst: u32) -> Packet {
        let mut p = Packet::test_udp(0, src, 1000);
        p.src = NodeId(src);
        p.dst = NodeId(dst);
        p
    }

    #[test]
    fn the_hash_is_ns2s() {
        // k = 1: 1 + 0 + ~0 = 0; k = 3: 3 + 0 - 1 = 2; k = 20: 20 + 0 + ~1 = 18;
        // k = 300: 300 + 1 + ~18 = 282.
        assert_eq!(bucket(0, 1, 16), 0);
        assert_eq!(bucket(1, 2, 16), 2);
        assert_eq!(bucket(2, 1, 16), 2, "both directions share a bucket");
        assert_eq!(bucket(10, 10, 16), 2);
        assert_eq!(bucket(100, 200, 16), 282 % 16);
    }

    #[test]
    fn round_robin_one_packet_per_bucket() {
        let mut q = Sfq::new(SfqParams {
            maxqueue: 40,
            buckets: 16,
        });
        let mut dropped = Vec::new();
        // Buckets of (0,1) -> 0, (1,2) -> 2, (1,3) -> 3.
        for _ in 0..3 {
            q.enqueue(SimTime::ZERO, pkt(0, 1), &mut dropped);
        }
        q.enqueue(SimTime::ZERO, pkt(1, 2), &mut dropped);
        q.enqueue(SimTime::ZERO, pkt(1, 3), &mut dropped);
        let order: Vec<u32> = std::iter::from_fn(|| q.dequeue(SimTime::ZERO, &mut dropped))
            .map(|(_, p)| p.src.0 + p.dst.0)
            .collect();
        assert_eq!(order, [1, 3, 4, 1, 1]);
        assert!(dropped.is_empty());
    }

    #[test]
    fn admission_follows_the_three_rules() {
        let mut q = Sfq::new(SfqParams {
            maxqueue: 40,
            buckets: 16,
        });
        let mut dropped = Vec::new();
        // One bucket alone: used >= left / 2 stops it at 13 (13 >= 27 / 2).
        for _ in 0..20 {
            q.enqueue(SimTime::ZERO, pkt(0, 1), &mut dropped);
        }
        assert_eq!(q.backlog().packets, 13);
        assert_eq!(dropped.len(), 7);
        // Fill other buckets until fewer than 16 places are left: then a bucket with more
        // than the fair share (40 / 16 = 2) is refused even if used < left / 2.
        let mut q = Sfq::new(SfqParams {
            maxqueue: 40,
            buckets: 16,
        });
        dropped.clear();
        // Eight node pairs in eight distinct buckets, none of them (1, 2)'s.
        for s in [2, 4, 6, 8, 10, 12, 14, 16] {
            for _ in 0..3 {
                q.enqueue(SimTime::ZERO, pkt(s, s + 1), &mut dropped);
            }
        }
        assert!(dropped.is_empty(), "{}", dropped.len());
        // 24 held, 16 left: the next arrival brings left below the number of buckets.
        assert_eq!(q.backlog().packets, 24);
        let b = bucket(1, 2, 16);
        for _ in 0..3 {
            q.enqueue(SimTime::ZERO, pkt(1, 2), &mut dropped);
        }
        assert_eq!(
            q.buckets[b as usize].packets.len(),
            3,
            "3 = fairshare + 1 admitted"
        );
        q.enqueue(SimTime::ZERO, pkt(1, 2), &mut dropped);
        assert_eq!(dropped.len(), 1, "used 3 > fairshare 2 with left < buckets");
    }
}
