//! Poisson arrivals: independent exponential gaps with the mean interval
//! (packet_size x 8 / rate), as seed 001's "exponentially distributed interarrival times"
//! of its UDP source.

use crate::rng::RandomStream;

#[derive(Clone, Debug)]
pub struct Poisson {
    pub mean_interval_ps: u64,
    pub payload: u32,
}

impl Poisson {
    #[inline]
    pub fn next_datagram(&mut self, rng: &mut RandomStream) -> (u32, Option<u64>) {
        let gap = rng.exponential(self.mean_interval_ps as f64).round() as u64;
        (self.payload, Some(gap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kolmogorov-Smirnov test of the gaps against the exponential distribution.
    #[test]
    fn gaps_pass_a_kolmogorov_smirnov_test() {
        let mut rng = RandomStream::named(4, "poisson");
        let mut g = Poisson {
            mean_interval_ps: 1_000_000,
            payload: 100,
        };
        let n = 20_000;
        let mut gaps: Vec<f64> = (0..n)
            .map(|_| g.next_datagram(&mut rng).1.unwrap() as f64 / 1e6)
            .collect();
        gaps.sort_by(f64::total_cmp);
        let d = gaps
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let cdf = 1.0 - (-x).exp();
                let lo = i as f64 / n as f64;
                let hi = (i + 1) as f64 / n as f64;
                (cdf - lo).abs().max((hi - cdf).abs())
            })
            .fold(0.0, f64::max);
        // Critical value at the 1% level: 1.63 / sqrt(n).
        assert!(d < 1.63 / (n as f64).sqrt(), "D = {d}");
    }
}
