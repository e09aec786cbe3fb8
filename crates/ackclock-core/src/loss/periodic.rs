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

    #[test]
    fn drops_the_burst_at_the_offset_of_every_period() {
        let pkt = Packet {
            nth: 1,
            ..Packet::TEST
        };
        let mut m = Periodic::new(10, 3, 2);
        let lost: Vec<usize> = (0..30).filter(|_| m.drops(&pkt)).collect();
        assert_eq!(lost, vec![3, 4, 13, 14, 23, 24]);
    }
}
