//! FQ-CoDel, the Flow Queue CoDel packet scheduler: RFC 8290.
//!
//! Arriving packets are hashed by flow into one of `flows` queues (1024), each with its own
//! CoDel controller (RFC 8289, `codel::CoDelVars`). A deficit round robin with `quantum`
//! (1514 bytes) serves them, new flows (queues that just became active) ahead of old ones
//! (section 4.2): a queue that runs out of deficit gets another quantum and goes to the tail
//! of the old list; a new queue that empties moves to the old list (so a flow cannot stay
//! "new" by sending in bursts), an old one that empties leaves. When the total backlog
//! exceeds `limit_packets`, the packet at the head of the queue with the most bytes is
//! dropped (section 4.1). The hash is of the flow id, perturbed per link, as Linux perturbs
//! its 5-tuple hash, so distinct flows can collide as they do in a real router.

use super::fq_lists::{FlowLists, FlowQueues, Slot};

use super::codel::{CoDelParams, CoDelVars, TimedFifo};
use super::{
    AqmState, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service, Unit,
};
use crate::packet::Packet;
use crate::time::SimTime;

#[derive(Clone, Copy, Debug)]
pub struct FqCoDelParams {
    pub codel: CoDelParams,
    pub flows: u32,
    pub quantum: u32,
}

#[derive(Clone, Debug, Default)]
struct FlowQueue {
    q: TimedFifo,
    vars: CoDelVars,
    slot: Slot,
}

#[derive(Clone, Debug)]
pub struct FqCoDel {
    p: FqCoDelParams,
    queues: FlowQueues<FlowQueue>,
    lists: FlowLists,
    packets: u64,
    bytes: u64,
    perturbation: u64,
    pub marks: u64,
}

impl FqCoDel {
    pub fn new(p: FqCoDelParams, perturbation: u64) -> FqCoDel {
        FqCoDel {
            p,
            queues: FlowQueues::new(p.flows),
            lists: FlowLists::new(p.quantum).ns3(p.codel.ns3),
            packets: 0,
            bytes: 0,
            perturbation,
            marks: 0,
        }
    }

    /// The queue a flow hashes to (splitmix64 of the flow id and the perturbation).
    pub fn bucket(&self, flow: u32) -> u32 {
        let mut z = (flow as u64).wrapping_add(self.perturbation);
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z % self.p.flows as u64) as u32
    }

    /// Every packet waiting, queue by queue (for the invariant checker).
    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.queues
            .by_bucket()
            .flat_map(|q| q.q.packets.iter().map(|(_, p)| p))
    }
}

crate::params! {
    /// The `FqCoDel` discipline's parameters (`queue.params`): CoDel's, then its own.
    pub struct FqCoDelSettings {
        target: crate::time::SimDuration = super::codel::CODEL_PARAMS[0],
        interval: crate::time::SimDuration = super::codel::CODEL_PARAMS[1],
        mtu: u32 = super::codel::CODEL_PARAMS[2],
        ce_threshold: crate::time::SimDuration = super::codel::CODEL_PARAMS[3],
        ns3_model: bool = super::codel::CODEL_PARAMS[4],
        flows: u32 = Param::new("flows", 1024.0, Range::Count, "flow queues packets are hashed into")
            .ns3("Flows"),
        // ns-3's FqCoDelQueueDisc takes the device's MTU (1500 on a point-to-point device)
        // when no quantum is set (FqCoDelQueueDisc::CheckConfig); Linux's default is 1514.
        quantum: u32 = Param::new("quantum", 1514.0, Range::Count, "bytes a queue may send per round")
            .unit(Unit::Bytes)
            .profile_defaults(&[("ns3", 1500.0)]),
    }
}

const FQ_CODEL_PARAMS: &[Param] = FqCoDelSettings::PARAMS;

impl QueueDiscipline for FqCoDel {
    const INFO: QdiscInfo = QdiscInfo {
        params: FQ_CODEL_PARAMS,
        ecn: true,
        default_limit: Some(10240),
        ..QdiscInfo::new("fq_codel", Service::Dequeue, "Flow Queue CoDel, RFC 8290")
    };

    type Params = FqCoDelSettings;

    fn new(p: &FqCoDelSettings, setup: &QueueSetup) -> FqCoDel {
        let perturbation = setup.rng.clone().next_u64();
        FqCoDel::new(
            FqCoDelParams {
                codel: super::codel::codel_params!(p, setup),
                flows: p.flows,
                quantum: p.quantum,
            },
            perturbation,
        )
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        let (b, _) = self.queues.find_or_make(self.bucket(pkt.flow.0));
        let fq = &mut self.queues[b];
        fq.q.push(now, pkt);
        self.packets += 1;
        self.bytes += pkt.size as u64;
        self.lists.activate(b, &mut fq.slot);
        if self.packets > self.p.codel.limit_packets {
            // The most bytes, ties to the lowest bucket (queues not yet made hold none).
            let queues = &self.queues;
            let fattest = (0..queues.all().len() as u32)
                .max_by_key(|&i| (queues[i].q.bytes, std::cmp::Reverse(queues.bucket(i))))
                .expect("at least one queue");
            let fq = &mut self.queues[fattest];
            if let Some((_, victim)) = fq.q.pop() {
                self.packets -= 1;
                self.bytes -= victim.size as u64;
                dropped.push(victim);
            }
        }
    }

    #[inline]
    fn dequeue(&mut self, now: SimTime, dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        loop {
            let (b, from_new) = self.lists.next(self.queues.all_mut(), |q| &mut q.slot)?;
            let fq = &mut self.queues[b];
            let before = dropped.len();
            let (head, marks) = fq.vars.dequeue(now, &mut fq.q, &self.p.codel, dropped);
            self.marks += marks;
            for d in &dropped[before..] {
                self.packets -= 1;
                self.bytes -= d.size as u64;
            }
            let Some((at, pkt)) = head else {
                self.lists.emptied(b, from_new, &mut fq.slot);
                continue;
            };
            fq.slot.spend(pkt.size);
            self.packets -= 1;
            self.bytes -= pkt.size as u64;
            return Some((at, pkt));
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
        let dropping = self.queues.all().iter().filter(|q| q.vars.dropping).count();
        AqmState {
            avg: f64::NAN,
            prob: f64::NAN,
            dropping: dropping as f64,
        }
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (Some(self.p.codel.limit_packets), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn pkt(flow: u32, size: u32) -> Packet {
        Packet::test_udp(0, flow, size)
    }

    fn fq(limit: u64) -> FqCoDel {
        FqCoDel::new(
            FqCoDelParams {
                codel: CoDelParams {
                    limit_packets: limit,
                    target: SimDuration::from_millis(5),
                    interval: SimDuration::from_millis(100),
                    mtu: 1514,
                    ecn: false,
                    ce_threshold: None,
                    ns3: false,
                },
                flows: 1024,
                quantum: 1514,
            },
            7,
        )
    }

    #[test]
    fn round_robin_shares_bytes_between_backlogged_flows() {
        let mut q = fq(10_000);
        let mut dropped = Vec::new();
        // Flow 1 sends 1500-byte packets, flow 2 500-byte ones; both stay backlogged.
        for _ in 0..300 {
            q.enqueue(SimTime::ZERO, pkt(1, 1500), &mut dropped);
            q.enqueue(SimTime::ZERO, pkt(2, 500), &mut dropped);
            q.enqueue(SimTime::ZERO, pkt(2, 500), &mut dropped);
            q.enqueue(SimTime::ZERO, pkt(2, 500), &mut dropped);
        }
        assert_ne!(q.bucket(1), q.bucket(2), "test flows must not collide");
        let mut bytes = [0u64; 3];
        // Dequeue at time zero: no sojourn, so no CoDel drops.
        for _ in 0..400 {
            let (_, p) = q.dequeue(SimTime::ZERO, &mut dropped).unwrap();
            bytes[p.flow.0 as usize] += p.size as u64;
        }
        let share = bytes[1] as f64 / (bytes[1] + bytes[2]) as f64;
        assert!((share - 0.5).abs() < 0.02, "{bytes:?}");
        assert!(dropped.is_empty());
    }

    #[test]
    fn a_new_sparse_flow_goes_first() {
        let mut q = fq(10_000);
        let mut dropped = Vec::new();
        for _ in 0..100 {
            q.enqueue(SimTime::ZERO, pkt(1, 1500), &mut dropped);
        }
        q.dequeue(SimTime::ZERO, &mut dropped);
        q.dequeue(SimTime::ZERO, &mut dropped);
        q.enqueue(SimTime::ZERO, pkt(5, 100), &mut dropped);
        let (_, p) = q.dequeue(SimTime::ZERO, &mut dropped).unwrap();
        assert_eq!(p.flow.0, 5);
    }

    #[test]
    fn overflow_drops_from_the_fattest_queue() {
        let mut q = fq(10);
        let mut dropped = Vec::new();
        for _ in 0..8 {
            q.enqueue(SimTime::ZERO, pkt(1, 1500), &mut dropped);
        }
        for _ in 0..3 {
            q.enqueue(SimTime::ZERO, pkt(2, 100), &mut dropped);
        }
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].flow.0, 1);
        assert_eq!(q.backlog().packets, 10);
    }
}
