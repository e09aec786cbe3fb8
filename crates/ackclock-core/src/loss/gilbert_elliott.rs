//! Gilbert-Elliott bursty loss: E. N. Gilbert, "Capacity of a burst-noise channel", Bell
//! System Technical Journal 39, 1960, and E. O. Elliott, "Estimates of error rates for codes
//! on burst-noise channels", BSTJ 42, 1963.
//!
//! A two-state Markov chain advanced once per packet: from Good to Bad with probability
//! `p_good_bad` (Gilbert's P), from Bad to Good with `p_bad_good` (r). A packet is lost
//! with probability `loss_good` (1 - k) in Good and `loss_bad` (1 - h) in Bad. The stationary
//! loss rate is (r loss_good + P loss_bad) / (P + r), and bursts in Bad last 1 / r packets on
//! average. The chain starts in Good.

use crate::packet::Packet;
use crate::rng::RandomStream;

#[derive(Clone, Debug)]
pub struct GilbertElliott {
    p_good_bad: f64,
    p_bad_good: f64,
    loss_good: f64,
    loss_bad: f64,
    bad: bool,
    rng: RandomStream,
}

impl GilbertElliott {
    pub fn new(
        p_good_bad: f64,
        p_bad_good: f64,
        loss_good: f64,
        loss_bad: f64,
        rng: RandomStream,
    ) -> GilbertElliott {
        GilbertElliott {
            p_good_bad,
            p_bad_good,
            loss_good,
            loss_bad,
            bad: false,
            rng,
        }
    }

    /// The long-run fraction of packets lost.
    pub fn stationary_loss(&self) -> f64 {
        let s = self.p_good_bad + self.p_bad_good;
        if s == 0.0 {
            return self.loss_good;
        }
        (self.p_bad_good * self.loss_good + self.p_good_bad * self.loss_bad) / s
    }

    #[inline]
    pub fn drops(&mut self, _pkt: &Packet) -> bool {
        let u = self.rng.next_f64();
        self.bad = if self.bad {
            u >= self.p_bad_good
        } else {
            u < self.p_good_bad
        };
        let p = if self.bad {
            self.loss_bad
        } else {
            self.loss_good
        };
        p > 0.0 && self.rng.next_f64() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt() -> Packet {
        Packet {
            nth: 1,
            ..Packet::TEST
        }
    }

    #[test]
    fn loss_rate_and_burst_length_follow_the_chain() {
        // P = 0.01, r = 0.25, no loss in Good, all lost in Bad: rate 0.01/0.26, bursts of 4.
        let mut m = GilbertElliott::new(0.01, 0.25, 0.0, 1.0, RandomStream::named(3, "ge"));
        let expect = m.stationary_loss();
        assert!((expect - 0.01 / 0.26).abs() < 1e-15);
        let n = 2_000_000;
        let mut lost = 0u64;
        let mut bursts = 0u64;
        let mut prev = false;
        for _ in 0..n {
            let l = m.drops(&pkt());
            lost += l as u64;
            if l && !prev {
                bursts += 1;
            }
            prev = l;
        }
        let rate = lost as f64 / n as f64;
        assert!((rate - expect).abs() / expect < 0.03, "{rate} vs {expect}");
        let mean_burst = lost as f64 / bursts as f64;
        assert!((mean_burst - 4.0).abs() < 0.15, "{mean_burst}");
    }
}
