//! Constant bit rate, as ns-2's `Application/Traffic/CBR`: one payload every interval
//! (interval = packet_size x 8 / rate). With `random` (ns-2 `random_`) each gap is the
//! interval plus a uniform jitter in [-interval/2, interval/2), so the mean rate is unchanged
//! while phase effects with other periodic traffic disappear.
//!
//! Under the ns2 profile's clock a CBR without jitter may also carry ns-2's interval as its
//! double (`ns2_interval`: `CBR_Traffic::next_interval`, `interval_ = (size_ << 3) / rate_`
//! in doubles), which the next send's time adds to ns-2's clock (`timer_.resched`); the
//! whole-picosecond interval is that double's nearest, and two CBRs at unrelated rates would
//! otherwise meet in another order than in ns-2.

use crate::rng::RandomStream;

#[derive(Clone, Debug)]
pub struct Cbr {
    pub interval_ps: u64,
    pub payload: u32,
    pub random: bool,
    /// ns-2's `interval_` (seconds, its double), set by the ns-2 front end.
    pub ns2_interval: Option<f64>,
}

impl Cbr {
    #[inline]
    pub fn next_datagram(&mut self, rng: &mut RandomStream) -> (u32, Option<u64>) {
        let gap = if self.random {
            let iv = self.interval_ps as f64;
            (iv + iv * (rng.next_f64() - 0.5)).round() as u64
        } else {
            self.interval_ps
        };
        (self.payload, Some(gap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_keeps_the_mean_gap() {
        let mut rng = RandomStream::named(1, "cbr");
        let mut c = Cbr {
            interval_ps: 1_000_000,
            payload: 1000,
            random: true,
            ns2_interval: None,
        };
        let n = 100_000;
        let gaps: Vec<u64> = (0..n)
            .map(|_| c.next_datagram(&mut rng).1.unwrap())
            .collect();
        let mean = gaps.iter().sum::<u64>() as f64 / n as f64;
        assert!((mean - 1e6).abs() < 3e3, "{mean}");
        assert!(gaps.iter().all(|&g| (500_000..=1_500_000).contains(&g)));
        assert!(gaps.iter().any(|&g| g != 1_000_000));
    }
}
