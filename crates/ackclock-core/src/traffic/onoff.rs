//! On-off sources, as ns-2's `Application/Traffic/Exponential` and `/Pareto` and ns-3's
//! `OnOffApplication`: during an on period datagrams leave every `interval` (the source's
//! rate); an on period of length `on` (drawn from its distribution) carries
//! max(1, round(on / interval)) datagrams, then the source is silent for an `off` draw.
//! With exponential or Pareto on and off times this is ns-2's model, where the burst length
//! in packets is drawn with mean burst_time / interval and the idle time follows the burst.
//! The long-run rate is rate x E[on] / (E[on] + E[off]) when on periods are long compared to
//! the interval.

use crate::rng::RandomStream;
use crate::scenario::Distribution;

#[derive(Clone, Debug)]
pub struct OnOff {
    pub interval_ps: u64,
    pub payload: u32,
    pub on: Distribution,
    pub off: Distribution,
    /// Datagrams left in the current burst.
    left: u64,
}

impl OnOff {
    pub fn new(interval_ps: u64, payload: u32, on: Distribution, off: Distribution) -> OnOff {
        OnOff {
            interval_ps,
            payload,
            on,
            off,
            left: 0,
        }
    }

    #[inline]
    pub fn next_datagram(&mut self, rng: &mut RandomStream) -> (u32, Option<u64>) {
        if self.left == 0 {
            let on = self.on.sample(rng) as f64;
            self.left = ((on / self.interval_ps as f64).round() as u64).max(1);
        }
        self.left -= 1;
        let mut gap = self.interval_ps;
        if self.left == 0 {
            gap = gap.saturating_add(self.off.sample(rng));
        }
        (self.payload, Some(gap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_run_rate_is_rate_times_on_fraction() {
        let mut rng = RandomStream::named(9, "onoff");
        // 1 ms interval, on 500 ms, off 1500 ms on average: a quarter of the peak rate.
        let mut g = OnOff::new(
            1_000_000_000,
            1000,
            Distribution::Exponential(500_000_000_000),
            Distribution::Exponential(1_500_000_000_000),
        );
        let (mut t, mut sent) = (0u64, 0u64);
        while t < 20_000 * 1_000_000_000_000 {
            t += g.next_datagram(&mut rng).1.unwrap();
            sent += 1;
        }
        let rate = sent as f64 / (t as f64 / 1e9); // datagrams per ms
        assert!((rate - 0.25).abs() < 0.25 * 0.02, "{rate}");
    }
}
