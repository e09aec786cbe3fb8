//! Prio and pfifo_fast: strict-priority bands, each a FIFO.
//!
//! Definitions: Linux's `sch_prio` (net/sched/sch_prio.c) and `pfifo_fast`
//! (net/sched/sch_generic.c, `pfifo_fast_enqueue` / `pfifo_fast_dequeue`); ns-3.44's
//! `PrioQueueDisc` and `PfifoFastQueueDisc` (src/traffic-control/model/prio-queue-disc.cc,
//! pfifo-fast-queue-disc.cc).
//!
//! - Classification: a packet's priority (0..15) selects its band through the priority map,
//!   `band = priomap[priority & 15]`. Linux's and ns-3's default map is
//!   `1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1` (`sch_generic.c` `sch_default_prio2band`, ns-3's
//!   `Priomap` attribute), so priority 0 (best effort) goes to band 1 and 6 or 7 to band 0.
//!   Packets do not carry a priority here: the discipline holds one per flow (given by the
//!   scenario), and an ACK has its flow's priority.
//! - Dequeue: the lowest-numbered band with a packet, strictly (a busy band 0 starves the
//!   others).
//! - Limits: pfifo_fast (`PfifoFastQueueDisc::DoEnqueue`) drops an arrival when the whole
//!   discipline holds `limit` packets (ns-3's default 1000p, Linux's txqueuelen); prio's bands
//!   are ns-3's default children, a `FifoQueueDisc` of `limit` packets each, so there a band
//!   that is full drops its own arrivals.

use super::codel::TimedFifo;
use super::{AqmState, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service};
use crate::packet::Packet;
use crate::time::SimTime;

/// Linux's and ns-3's default priority-to-band map.
pub const DEFAULT_PRIOMAP: [u8; 16] = [1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1];

#[derive(Clone, Debug)]
pub struct PrioParams {
    /// Number of bands (pfifo_fast: 3; prio: 2 to 16).
    pub bands: usize,
    pub priomap: [u8; 16],
    /// pfifo_fast: `limit` counts every band together; prio: each band has its own.
    pub shared_limit: bool,
    pub limit_packets: u64,
    /// Per flow (by index): its priority, 0..15; flows beyond the table have priority 0.
    pub flow_priority: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct Prio {
    pub(super) p: PrioParams,
    bands: Vec<TimedFifo>,
    packets: u64,
    bytes: u64,
    pub marks: u64,
}

impl Prio {
    pub fn new(p: PrioParams) -> Prio {
        Prio {
            bands: vec![TimedFifo::default(); p.bands],
            p,
            packets: 0,
            bytes: 0,
            marks: 0,
        }
    }

    /// The band of a packet of flow `flow`.
    #[inline]
    pub fn band(&self, flow: u32) -> usize {
        let prio = self
            .p
            .flow_priority
            .get(flow as usize)
            .copied()
            .unwrap_or(0);
        let band = self.p.priomap[(prio & 15) as usize] as usize;
        band.min(self.p.bands - 1)
    }

    /// Packets waiting in band `b`.
    pub fn band_len(&self, b: usize) -> usize {
        self.bands[b].packets.len()
    }

    pub fn packets(&self) -> impl Iterator<Item = &Packet> {
        self.bands
            .iter()
            .flat_map(|b| b.packets.iter().map(|(_, p)| p))
    }
}

crate::params! {
    /// The `Prio` discipline's parameters (`queue.params`), each with its declaration.
    pub struct PrioSettings {
        bands: u32 = Param::new("bands", 3.0, Range::Whole(2, 16), "bands")
            .ns3("Bands"),
    }
}

const PRIO_PARAMS: &[Param] = PrioSettings::PARAMS;

impl QueueDiscipline for Prio {
    const INFO: QdiscInfo = QdiscInfo {
        params: PRIO_PARAMS,
        default_limit: Some(1000),
        ..QdiscInfo::new(
            "prio",
            Service::Dequeue,
            "Strict-priority bands chosen by the flow's priority through Linux's priomap, as \
             sch_prio and ns-3's PrioQueueDisc (a FIFO of limit packets per band)",
        )
    };

    type Params = PrioSettings;

    fn new(p: &PrioSettings, setup: &QueueSetup) -> Prio {
        Prio::new(PrioParams {
            bands: p.bands as usize,
            priomap: DEFAULT_PRIOMAP,
            shared_limit: false,
            limit_packets: setup.packets(),
            flow_priority: setup.flow_priority.to_vec(),
        })
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        let b = self.band(pkt.flow.0);
        let full = if self.p.shared_limit {
            self.packets >= self.p.limit_packets
        } else {
            self.bands[b].packets.len() as u64 >= self.p.limit_packets
        };
        if full {
            dropped.push(pkt);
            return;
        }
        self.packets += 1;
        self.bytes += pkt.size as u64;
        self.bands[b].push(now, pkt);
    }

    #[inline]
    fn dequeue(&mut self, _now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        for band in &mut self.bands {
            if let Some((at, pkt)) = band.pop() {
                self.packets -= 1;
                self.bytes -= pkt.size as u64;
                return Some((at, pkt));
            }
        }
        None
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
        (Some(self.p.limit_packets * self.p.bands as u64), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(flow: u32) -> Packet {
        Packet::test_udp(0, flow, 1000)
    }

    fn pfifo_fast(limit: u64, prios: &[u8]) -> Prio {
        Prio::new(PrioParams {
            bands: 3,
            priomap: DEFAULT_PRIOMAP,
            shared_limit: true,
            limit_packets: limit,
            flow_priority: prios.to_vec(),
        })
    }

    #[test]
    fn the_default_map_sends_best_effort_to_band_1_and_control_to_band_0() {
        // Flow 0: priority 0 (best effort); 1: 6 (TC_PRIO_INTERACTIVE); 2: 2 (TC_PRIO_BULK);
        // 3: 7 (TC_PRIO_CONTROL).
        let q = pfifo_fast(10, &[0, 6, 2, 7]);
        assert_eq!(q.band(0), 1);
        assert_eq!(q.band(1), 0);
        assert_eq!(q.band(2), 2);
        assert_eq!(q.band(3), 0);
        // A flow without an entry has priority 0.
        assert_eq!(q.band(99), 1);
        // Priorities wrap at 16, as `priority & TC_PRIO_MAX`.
        let q = pfifo_fast(10, &[16 + 7]);
        assert_eq!(q.band(0), 0);
    }

    #[test]
    fn lower_bands_are_served_first_and_fifo_within_a_band() {
        let mut q = pfifo_fast(100, &[2, 0, 7]);
        let mut dropped = Vec::new();
        let mut id = 0;
        for flow in [0, 1, 0, 2, 1, 2] {
            let mut p = pkt(flow);
            p.id = id;
            id += 1;
            q.enqueue(SimTime(id), p, &mut dropped);
        }
        let order: Vec<(u32, u64)> = std::iter::from_fn(|| q.dequeue(SimTime::ZERO, &mut dropped))
            .map(|(_, p)| (p.flow.0, p.id))
            .collect();
        assert_eq!(order, [(2, 3), (2, 5), (1, 1), (1, 4), (0, 0), (0, 2)]);
        assert_eq!(q.backlog().packets, 0);
    }

    #[test]
    fn pfifo_fast_limit_is_shared_prio_limit_is_per_band() {
        let mut q = pfifo_fast(3, &[0, 7]);
        let mut dropped = Vec::new();
        for _ in 0..3 {
            q.enqueue(SimTime::ZERO, pkt(0), &mut dropped);
        }
        q.enqueue(SimTime::ZERO, pkt(1), &mut dropped);
        assert_eq!(dropped.len(), 1, "the shared limit is reached");
        let mut q = Prio::new(PrioParams {
            shared_limit: false,
            ..q.p.clone()
        });
        dropped.clear();
        for _ in 0..4 {
            q.enqueue(SimTime::ZERO, pkt(0), &mut dropped);
        }
        q.enqueue(SimTime::ZERO, pkt(1), &mut dropped);
        assert_eq!(dropped.len(), 1, "band 1 full, band 0 not");
        assert_eq!((q.band_len(0), q.band_len(1)), (1, 3));
    }
}
