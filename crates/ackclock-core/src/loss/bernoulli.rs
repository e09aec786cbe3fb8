//! Independent (Bernoulli) packet loss: each packet is lost with probability p, drawn from
//! the link's own random stream, like ns-2's `ErrorModel` with `unit pkt` and a uniform
//! random variable, or ns-3's `RateErrorModel` in packet mode.

use crate::packet::Packet;
use crate::rng::RandomStream;

#[derive(Clone, Debug)]
pub struct Bernoulli {
    p: f64,
    rng: RandomStream,
}

impl Bernoulli {
    pub fn new(p: f64, rng: RandomStream) -> Bernoulli {
        Bernoulli { p, rng }
    }

    #[inline]
    pub fn drops(&mut self, _pkt: &Packet) -> bool {
        // ns-2 draws u ~ U(0,1) and drops when u < rate.
        self.p > 0.0 && self.rng.next_f64() < self.p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{FlowId, NodeId};
    use crate::packet::{PacketKind, SackBlocks};
    use crate::time::SimTime;

    #[test]
    fn loss_fraction_matches_p() {
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
        };
        let mut m = Bernoulli::new(0.01, RandomStream::named(1, "link.a->b.loss"));
        let n = 1_000_000;
        let lost = (0..n).filter(|_| m.drops(&pkt)).count();
        // Binomial(1e6, 0.01): sd = 99.5; 5 sd either side.
        assert!((lost as i64 - 10_000).abs() < 500, "lost {lost}");
    }
}
