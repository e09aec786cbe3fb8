//! ns-2's FQ: fair queueing by finish times (Demers, Keshav, Shenker, "Analysis and
//! Simulation of a Fair Queueing Algorithm", SIGCOMM 1989) as ns-2.35 builds it for a
//! `duplex-link ... FQ` (tcl/lib/ns-queue.tcl `FQLink`, queue/fq.cc `FQ`).
//!
//! - `FQLink` gives each flow id (`fid_`) the first time it is seen its own queue
//!   (`new-flow`: a `Queue/DropTail` with `Queue`'s `limit_` at that time, `flow_limit`, 50
//!   by default, its drops traced as the link's); the `FQ` object holds only each flow's
//!   head-of-line packet, the flow's queue the rest. A DropTail queue of limit n refuses an
//!   arrival once it holds n - 1 (`DropTail::enque`), and its head waits in `FQ`: n packets
//!   per flow in all. The link's
//!   own queue limit (`$ns queue-limit`) is the `FQ` object's, which `FQ` never reads.
//! - A packet becomes its flow's head (`FQ::recv`) when it arrives at an empty flow or when
//!   its predecessor leaves; then the flow's finish time becomes max(now, finish time) and
//!   its `delta_` the packet's size times `secsPerByte_` (8 / the link's bandwidth).
//! - `FQ::deque`: of the flows with a head, `nactive` in number, the one of least
//!   `finishTime_ + delta_ * nactive` leaves (ties: the lowest flow id, `FQ::deque` takes the
//!   first strictly smaller); its finish time becomes that value.
//! - Flow ids are below 32 (`MAXFLOW`; ns-2 aborts on others).
//!
//! Times are seconds of ns-2's double clock under it (`set_ns2_now`), else of the run's clock.

use std::sync::Arc;

use super::codel::TimedFifo;
use super::{AqmState, Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service};
use crate::packet::Packet;
use crate::time::SimTime;

/// `FQ`'s `MAXFLOW`.
pub const MAX_FLOWS: usize = 32;

#[derive(Clone, Debug, Default)]
struct FlowState {
    /// The flow's packets, its head-of-line packet first.
    q: TimedFifo,
    finish: f64,
    delta: f64,
}

#[derive(Clone, Debug)]
pub struct Fq {
    flows: Vec<FlowState>,
    /// Each engine flow's ns-2 flow id (`fid_`).
    fids: Arc<[u32]>,
    secs_per_byte: f64,
    /// A flow's DropTail `limit_` (ns-default.tcl `Queue set limit_ 50`).
    flow_limit: usize,
    /// ns-2's time of the call that follows, under its clock.
    now2: Option<f64>,
    packets: u64,
    bytes: u64,
}

impl Fq {
    pub fn new(fids: Arc<[u32]>, rate_bps: f64, flow_limit: u32) -> Fq {
        Fq {
            flows: vec![FlowState::default(); MAX_FLOWS],
            fids,
            secs_per_byte: 8.0 / rate_bps,
            flow_limit: flow_limit as usize,
            now2: None,
            packets: 0,
            bytes: 0,
        }
    }

    fn clock(&self, now: SimTime) -> f64 {
        self.now2.unwrap_or_else(|| now.as_secs_f64())
    }

    /// `FQ::recv`: the flow's new head-of-line packet, at `t`.
    fn set_head(&mut self, i: usize, t: f64) {
        let s = &mut self.flows[i];
        let Some((_, head)) = s.q.packets.front() else {
            return;
        };
        if t > s.finish {
            s.finish = t;
        }
        s.delta = f64::from(head.size) * self.secs_per_byte;
    }
}

crate::params! {
    /// The `ns2_fq` discipline's parameters (`secsPerByte_` follows the link's rate).
    pub struct FqSettings {
        flow_limit: u32 = Param::new("flow_limit", 50.0, Range::Count,
            "each flow id's DropTail limit_ (Queue's limit_ when the flow's queue was made)"),
    }
}

impl QueueDiscipline for Fq {
    const INFO: QdiscInfo = QdiscInfo {
        params: FqSettings::PARAMS,
        ..QdiscInfo::new(
            "ns2_fq",
            Service::Dequeue,
            "ns-2.35's FQ link (queue/fq.cc, FQLink): fair queueing by finish times over a \
             DropTail queue of 50 packets per flow id; the link's limit is not used (as ns-2's)",
        )
    };

    type Params = FqSettings;

    fn new(p: &FqSettings, setup: &QueueSetup) -> Fq {
        Fq::new(setup.flow_fid.clone(), setup.rate_bps, p.flow_limit)
    }

    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        let fid = self.fids.get(pkt.flow.idx()).copied().unwrap_or(0) as usize;
        let i = fid.min(MAX_FLOWS - 1);
        if self.flows[i].q.packets.len() >= self.flow_limit {
            dropped.push(pkt);
            return;
        }
        let t = self.clock(now);
        self.flows[i].q.push(now, pkt);
        self.packets += 1;
        self.bytes += u64::from(pkt.size);
        if self.flows[i].q.packets.len() == 1 {
            self.set_head(i, t);
        }
    }

    fn dequeue(&mut self, now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        let nactive = self
            .flows
            .iter()
            .filter(|s| !s.q.packets.is_empty())
            .count() as f64;
        let mut best: Option<(usize, f64)> = None;
        for (i, s) in self.flows.iter().enumerate() {
            if s.q.packets.is_empty() {
                continue;
            }
            let f = s.finish + s.delta * nactive;
            if best.is_none_or(|(_, b)| f < b) {
                best = Some((i, f));
            }
        }
        let (i, f) = best?;
        let t = self.clock(now);
        let s = &mut self.flows[i];
        s.finish = f;
        let head = s.q.pop().expect("a flow with a head");
        self.packets -= 1;
        self.bytes -= u64::from(head.1.size);
        // The flow's queue, unblocked, hands FQ its next packet at once (Queue::resume).
        self.set_head(i, t);
        Some(head)
    }

    fn backlog(&self) -> Backlog {
        Backlog {
            packets: self.packets,
            bytes: self.bytes,
        }
    }

    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        for s in &self.flows {
            s.q.packets.iter().for_each(|(_, p)| f(p));
        }
    }

    fn state(&self) -> AqmState {
        AqmState::NONE
    }

    fn set_ns2_now(&mut self, now2: f64) {
        self.now2 = Some(now2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::FlowId;

    fn pkt(flow: u32, size: u32) -> Packet {
        let mut p = Packet::test_udp(0, 0, size);
        p.flow = FlowId(flow);
        p
    }

    #[test]
    fn finish_times_share_the_link_by_bytes() {
        // 8000 b/s: a byte takes 1 ms. Flow 0 sends 1000-byte packets, flow 1 500-byte ones.
        let mut q = Fq::new(vec![0, 1].into(), 8000.0, 50);
        let mut dropped = Vec::new();
        for _ in 0..10 {
            q.enqueue(SimTime::ZERO, pkt(0, 1000), &mut dropped);
            q.enqueue(SimTime::ZERO, pkt(1, 500), &mut dropped);
            q.enqueue(SimTime::ZERO, pkt(1, 500), &mut dropped);
        }
        let order: Vec<u32> = (0..9)
            .map(|_| q.dequeue(SimTime::ZERO, &mut dropped).unwrap().1.flow.0)
            .collect();
        // Finish times with 2 active: flow 1 at 1, 2, 3 ..., flow 0 at 2, 4, 6 ... (ties to
        // the lower id).
        assert_eq!(order, vec![1, 0, 1, 1, 0, 1, 1, 0, 1]);
    }

    #[test]
    fn a_flow_holds_fifty_packets() {
        let mut q = Fq::new(vec![3].into(), 1e6, 50);
        let mut dropped = Vec::new();
        for _ in 0..51 {
            q.enqueue(SimTime::ZERO, pkt(0, 100), &mut dropped);
        }
        assert_eq!((q.backlog().packets, dropped.len()), (50, 1));
    }
}
