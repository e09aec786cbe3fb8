//! pfifo_fast: Linux's default queue discipline before fq_codel (net/sched/sch_generic.c,
//! `pfifo_fast_enqueue` / `pfifo_fast_dequeue`) and ns-3.44's `PfifoFastQueueDisc`
//! (src/traffic-control/model/pfifo-fast-queue-disc.cc): three strict-priority FIFO bands,
//! a packet's band chosen from its priority through the default priomap
//! `1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1`, and one limit (ns-3's `MaxSize`, 1000 packets) over all
//! three: an arrival finding it reached is dropped. The bands are `prio.rs`'s.

use super::prio::{Prio, PrioParams, DEFAULT_PRIOMAP};
use super::{Backlog, QdiscInfo, QueueDiscipline, QueueSetup, Service};
use crate::packet::Packet;
use crate::time::SimTime;

/// pfifo_fast: three bands sharing one limit.
#[derive(Clone, Debug)]
pub struct PfifoFast(pub Prio);

crate::params! {
    /// The `PfifoFast` discipline has no parameters.
    pub struct PfifoFastSettings {}
}

impl QueueDiscipline for PfifoFast {
    const INFO: QdiscInfo = QdiscInfo {
        default_limit: Some(1000),
        ..QdiscInfo::new(
            "pfifo_fast",
            Service::Dequeue,
            "Three strict-priority bands sharing one limit, as Linux's pfifo_fast and ns-3's \
             PfifoFastQueueDisc",
        )
    };

    type Params = PfifoFastSettings;

    fn new(_p: &PfifoFastSettings, setup: &QueueSetup) -> PfifoFast {
        PfifoFast(Prio::new(PrioParams {
            bands: 3,
            priomap: DEFAULT_PRIOMAP,
            shared_limit: true,
            limit_packets: setup.packets(),
            flow_priority: setup.flow_priority.to_vec(),
        }))
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        self.0.enqueue(now, pkt, dropped)
    }

    #[inline]
    fn dequeue(&mut self, now: SimTime, dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        self.0.dequeue(now, dropped)
    }

    #[inline]
    fn backlog(&self) -> Backlog {
        self.0.backlog()
    }

    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.0.packets().for_each(f)
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (Some(self.0.p.limit_packets), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;
    use crate::time::SimDuration;

    #[test]
    fn three_bands_one_limit() {
        let setup = QueueSetup {
            limit_packets: Some(2),
            limit_bytes: None,
            ns2: false,
            ecn: false,
            rate_bps: 1e7,
            delay: SimDuration::from_millis(1),
            rng: RandomStream::named(1, "t"),
            flow_priority: vec![0, 7].into(),
            flow_fid: vec![].into(),
            cbq: None,
            diffserv: None,
            device: false,
        };
        let mut q = <PfifoFast as QueueDiscipline>::new(&PfifoFastSettings::default(), &setup);
        let mut dropped = Vec::new();
        q.enqueue(SimTime::ZERO, Packet::test_udp(0, 0, 100), &mut dropped);
        q.enqueue(SimTime::ZERO, Packet::test_udp(1, 1, 100), &mut dropped);
        q.enqueue(SimTime::ZERO, Packet::test_udp(2, 1, 100), &mut dropped);
        assert_eq!(dropped.len(), 1, "two held: the limit is shared");
        let (_, p) = q.dequeue(SimTime::ZERO, &mut dropped).unwrap();
        assert_eq!(p.flow.0, 1, "priority 7 is band 0");
    }
}
