//! Named random streams.
//!
//! Every random source draws from its own stream, derived from (run seed, component name),
//! so adding a flow never changes another flow's random numbers. The generator is
//! xoshiro256++ (Blackman & Vigna, "Scrambled linear pseudorandom number generators",
//! ACM TOMS 2021), seeded through SplitMix64 as its authors recommend; the name is hashed
//! with 64-bit FNV-1a, which is stable across platforms and Rust versions.
//!
//! An ns-2 script's components that draw from ns-2's one default generator take ns-2's
//! numbers instead ([`ns2`], through [`Uniform`]).

pub mod ns2;

#[derive(Clone, Debug)]
pub struct RandomStream {
    s: [u64; 4],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

impl RandomStream {
    /// The stream named `name` in the run seeded with `seed`.
    pub fn named(seed: u64, name: &str) -> RandomStream {
        let mut state = splitmix64(&mut seed.clone()) ^ fnv1a64(name.as_bytes());
        let s = [
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
        ];
        RandomStream { s }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = (s[0].wrapping_add(s[3])).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform on [0, 1), 53 bits of precision.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Exponential with the given mean, by inversion: -mean ln(1 - U).
    #[inline]
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.next_f64()).ln()
    }

    /// Pareto with the given mean and shape (> 1), by inversion: scale / U^(1/shape) with
    /// scale = mean (shape - 1) / shape, as ns-2's `RandomVariable/Pareto` parameterises it.
    #[inline]
    pub fn pareto(&mut self, mean: f64, shape: f64) -> f64 {
        let scale = mean * (shape - 1.0) / shape;
        // 1 - U lies in (0, 1], so the power never divides by zero.
        scale / (1.0 - self.next_f64()).powf(1.0 / shape)
    }

    /// Uniform integer on [lo, hi] (inclusive), without modulo bias worth caring about
    /// for simulation inputs (128-bit multiply-shift, Lemire 2019).
    pub fn uniform_u64(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo) as u128 + 1;
        lo + ((self.next_u64() as u128 * span) >> 64) as u64
    }
}

/// Where a component's uniform numbers come from: its own stream, or ns-2's default
/// generator shared with the run's other ns-2 components ([`ns2::Ns2Default`]).
#[derive(Clone, Debug)]
pub enum Uniform {
    Own(RandomStream),
    Ns2(ns2::Ns2Default),
}

impl Uniform {
    /// Uniform on [0, 1) (ns-2's: on (0, 1)).
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        match self {
            Uniform::Own(r) => r.next_f64(),
            Uniform::Ns2(g) => g.u01(),
        }
    }

    pub fn is_ns2(&self) -> bool {
        matches!(self, Uniform::Ns2(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_and_pareto_have_their_means() {
        let mut r = RandomStream::named(5, "d");
        let n = 400_000;
        let e: f64 = (0..n).map(|_| r.exponential(2.0)).sum::<f64>() / n as f64;
        assert!((e - 2.0).abs() < 0.02, "{e}");
        // Shape 2.5 has a finite variance, so the sample mean settles.
        let p: f64 = (0..n).map(|_| r.pareto(3.0, 2.5)).sum::<f64>() / n as f64;
        assert!((p - 3.0).abs() < 0.1, "{p}");
        let min = (0..1000)
            .map(|_| r.pareto(3.0, 2.5))
            .fold(f64::INFINITY, f64::min);
        assert!(min >= 3.0 * 1.5 / 2.5, "no value below the scale");
    }

    #[test]
    fn streams_are_reproducible_and_independent_by_name() {
        let mut a1 = RandomStream::named(1, "flow.tcp1.start");
        let mut a2 = RandomStream::named(1, "flow.tcp1.start");
        let mut b = RandomStream::named(1, "flow.tcp2.start");
        let mut c = RandomStream::named(2, "flow.tcp1.start");
        let x1: Vec<u64> = (0..8).map(|_| a1.next_u64()).collect();
        let x2: Vec<u64> = (0..8).map(|_| a2.next_u64()).collect();
        let y: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        let z: Vec<u64> = (0..8).map(|_| c.next_u64()).collect();
        assert_eq!(x1, x2);
        assert_ne!(x1, y);
        assert_ne!(x1, z);
    }

    #[test]
    fn uniform_mean_is_about_half() {
        let mut r = RandomStream::named(7, "test");
        let n = 100_000;
        let mean: f64 = (0..n).map(|_| r.next_f64()).sum::<f64>() / n as f64;
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
        for _ in 0..1000 {
            let v = r.uniform_u64(10, 20);
            assert!((10..=20).contains(&v));
        }
    }
}
