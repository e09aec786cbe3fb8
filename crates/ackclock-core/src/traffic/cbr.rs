//! Constant bit rate, as ns-2's `Application/Traffic/CBR`: one payload every interval
//! (interval = packet_size x 8 / rate). With `random` (ns-2 `random_`) each gap is the
//! interval plus a uniform jitter in [-interval/2, interval/2), so the mean rate is unchanged
//! while phase effects with other periodic traffic disappear.
//!
//! Under the ns2 profile's clock a CBR without jitter may also carry ns-2's interval as its
//! double (`ns2_interval`: `CBR_Traffic::next_interval`, `interval_ = (size_ << 3) / rate_`
//! in doubles), which the next send's time adds to ns-2's clock (`timer_.resched`); the
//! whole-picosecond interval is that double's nearest, and two CBRs at unrelated rates would
//! otherwise meet in another order than in ns-2. A CBR with jitter there draws it from ns-2's
//! default generator instead of its own stream (`ns2_jitter`): `next_interval` adds
//! `interval_ * Random::uniform(-0.5, 0.5)` to `interval_`, one draw per send, in doubles
//! (ns-2.35 tools/cbr_traffic.cc; `RNG::uniform(a, b)` is `a + (b - a) * u`).

use crate::rng::ns2::Ns2Default;
use crate::rng::RandomStream;

#[derive(Clone, Debug)]
pub struct Cbr {
    pub interval_ps: u64,
    pub payload: u32,
    pub random: bool,
    /// ns-2's `interval_` (seconds, its double), set by the ns-2 front end.
    pub ns2_interval: Option<f64>,
    /// With `random` under the ns-2 front end: ns-2's default generator, and the last gap
    /// drawn from it (seconds, ns-2's double, which ns-2's clock adds to the send's time).
    pub ns2_jitter: Option<(Ns2Default, f64)>,
}

impl Cbr {
    #[inline]
    pub fn next_datagram(&mut self, rng: &mut RandomStream) -> (u32, Option<u64>) {
        if let (Some((ns2, last)), Some(iv)) = (self.ns2_jitter.as_mut(), self.ns2_interval) {
            let t = iv + iv * (-0.5 + ns2.u01());
            *last = t;
            return (self.payload, Some((t * 1e12).round() as u64));
        }
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
            ns2_jitter: None,
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

    #[test]
    fn ns2_jitter_is_the_interval_plus_a_uniform_share_of_it_from_ns2s_generator() {
        use crate::rng::ns2::Mrg32k3a;
        let g = || Ns2Default::new(Mrg32k3a::from_state([12345; 6]).unwrap());
        let mut c = Cbr {
            interval_ps: 2_500_000_000,
            payload: 250,
            random: true,
            ns2_interval: Some(0.0025),
            ns2_jitter: Some((g(), 0.0)),
        };
        let same = g();
        let mut rng = RandomStream::named(1, "cbr");
        for _ in 0..100 {
            let want = 0.0025 + 0.0025 * (-0.5 + same.u01());
            let (size, gap) = c.next_datagram(&mut rng);
            assert_eq!(size, 250);
            assert_eq!(gap, Some((want * 1e12).round() as u64));
            assert_eq!(c.ns2_jitter.as_ref().unwrap().1, want);
        }
    }
}
