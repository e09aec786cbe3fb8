//! Periodic loss, as ns-2's `ErrorModel/Periodic` (period_, offset_, burstlen_): of every
//! `period` packets crossing the link, numbered from 0, the `burst` packets starting at
//! `offset` are lost. Deterministic, for tests and for the "one drop every N packets" model
//! behind the square-root law (Mathis et al. 1997).

use crate::packet::Packet;

#[derive(Clone, Debug)]
pub struct Periodic {
    period: u64,
    offset: u64,
    burst: u64,
    seen: u64,
}

impl Periodic {
    pub fn new(period: u64, offset: u64, burst: u64) -> Periodic {
        Periodic {
            period,
            offset,
            burst,
            seen: 0,
        }
    }

    #[inline]
    pub fn drops(&mut self, _pkt: &Packet) -> bool {
        let i = self.seen % self.period;
        self.seen += 1;
        i >= self.offset && i < self.offset + self.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::packet::{PacketKind, SackBlocks};
    use crate::time::SimTime;

    #[test]
    fn drops_the_burst_at_the_offset_of_every_period() {
        let pkt = Packet {
            id: 0,
            flow: FlowId(0),
            kind: PacketKind::Udp,
            src: NodeId(0),
            dst: NodeId(1),
            size: 1000,
            seq: 0,
            ack: 0,
            sent_at: SimTime::ZERO,
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: SackBlocks::NONE,
            nth: 1,
            ecn: 0,
        };
        let mut m = Periodic::new(10, 3, 2);
        let lost: Vec<usize> = (0..30).filter(|_| m.drops(&pkt)).collect();
        assert_eq!(lost, vec![3, 4, 13, 14, 23, 24]);
    }
}
