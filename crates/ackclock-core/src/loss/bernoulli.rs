//! Independent (Bernoulli) loss, drawn from the link's own random stream:
//! - per packet: each packet is lost with probability p, like ns-2's `ErrorModel` with
//!   `unit pkt` and a uniform random variable, or ns-3's `RateErrorModel` in packet mode;
//! - per byte: each byte is corrupted with probability p, so a packet of n bytes is lost with
//!   probability 1 - (1 - p)^n (ns-2 `unit byte`, ns-3 `RateErrorModel` in byte mode).
//!
//! An ns-2 script's `ErrorModel` draws from ns-2's default generator instead ([`Self::random`],
//! set by the ns-2 front end): ns-2.35's `ErrorModel::CorruptPkt` (queue/errmodel.cc) takes
//! `ranvar_->value()`, or `Random::uniform()` without one, for every packet it sees while
//! `enable_` is set, whatever its `rate_` (0 included), and drops the packet if that is below
//! `rate_`; its draws fall between the script's and the other components' in event order.

use crate::packet::Packet;
use crate::rng::{RandomStream, Uniform};

#[derive(Clone, Debug)]
pub struct Bernoulli {
    p: f64,
    per_byte: bool,
    rng: Uniform,
}

impl Bernoulli {
    pub fn new(p: f64, rng: RandomStream) -> Bernoulli {
        Bernoulli {
            p,
            per_byte: false,
            rng: Uniform::Own(rng),
        }
    }

    pub fn per_byte(p: f64, rng: RandomStream) -> Bernoulli {
        Bernoulli {
            p,
            per_byte: true,
            rng: Uniform::Own(rng),
        }
    }

    /// The probability that `pkt` is lost.
    #[inline]
    pub fn packet_probability(&self, pkt: &Packet) -> f64 {
        if self.per_byte {
            per_byte_probability(self.p, pkt.size)
        } else {
            self.p
        }
    }

    #[inline]
    pub fn drops(&mut self, pkt: &Packet) -> bool {
        // ns-2 draws u ~ U(0,1) and drops when u < rate; from its default generator it draws
        // even at rate 0 (`ErrorModel::CorruptPkt`), which moves every later draw.
        (self.p > 0.0 || self.rng.is_ns2()) && self.rng.next_f64() < self.packet_probability(pkt)
    }

    /// Where the model's numbers come from (its own stream unless replaced).
    pub fn random(&mut self) -> &mut Uniform {
        &mut self.rng
    }
}

/// 1 - (1 - p)^size. Kept out of line: inlined, the compiler evaluated the power for every
/// packet of per-packet models too, ahead of the branch (perf: 2% of seed 002's runs).
#[inline(never)]
fn per_byte_probability(p: f64, size: u32) -> f64 {
    1.0 - (1.0 - p).powi(size as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loss_fraction_matches_p() {
        let pkt = Packet {
            nth: 1,
            ..Packet::TEST
        };
        let mut m = Bernoulli::new(0.01, RandomStream::named(1, "link.a->b.loss"));
        let n = 1_000_000;
        let lost = (0..n).filter(|_| m.drops(&pkt)).count();
        // Binomial(1e6, 0.01): sd = 99.5; 5 sd either side.
        assert!((lost as i64 - 10_000).abs() < 500, "lost {lost}");
        // 100 000 packets at p = 0.01: 1% +- 0.1% (the acceptance bound; sd 0.03%).
        let mut m = Bernoulli::new(0.01, RandomStream::named(7, "link.x->y.loss"));
        let lost = (0..100_000).filter(|_| m.drops(&pkt)).count();
        assert!((lost as i64 - 1000).abs() < 100, "lost {lost}");
    }

    #[test]
    fn byte_mode_loses_a_packet_if_any_byte_is_corrupted() {
        let mut pkt = Packet {
            nth: 1,
            ..Packet::TEST
        };
        let mut m = Bernoulli::per_byte(1e-5, RandomStream::named(1, "b"));
        // Computed at run time, as the model does: a constant-folded power rounds differently.
        let expect = 1.0 - std::hint::black_box(1.0f64 - 1e-5).powi(std::hint::black_box(1000));
        assert!((m.packet_probability(&pkt) - expect).abs() < 1e-15);
        let n = 400_000;
        let lost = (0..n).filter(|_| m.drops(&pkt)).count() as f64;
        let sd = (n as f64 * expect * (1.0 - expect)).sqrt();
        assert!((lost - n as f64 * expect).abs() < 5.0 * sd, "{lost}");
        pkt.size = 40;
        assert!(m.packet_probability(&pkt) < 0.0005);
    }
}
