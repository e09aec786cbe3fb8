//! ns-2.35's default random-number generator, shared by the engine's components that draw from
//! it in ns-2 (`Random::uniform()`, tools/random.h), so that an ns-2 script's random early
//! drops and randomised send times take ns-2's numbers in ns-2's order.
//!
//! The generator is L'Ecuyer's MRG32k3a (P. L'Ecuyer, "Good Parameters and Implementations for
//! Combined Multiple Recursive Random Number Generators", Operations Research 47(1), 1999), as
//! ns-2.35's tools/rng.cc computes one number (`RNG::U01`, reached through `Random::uniform` ->
//! `RNG::uniform_double` -> `RNG::next_double` -> `RNG::rand_u01` without increased precision
//! or antithetic draws, ns-2's defaults). Every intermediate of `RNG::U01`'s double arithmetic
//! is an integer below 2^53, so integer arithmetic gives its values exactly.
//!
//! ns-2 has one default generator (`RNG::defaultrng()`, the `$defaultRNG` of
//! tcl/lib/ns-random.tcl): the script's own draws and every agent's and queue's come from it
//! in the order they happen. The ns-2 front end keeps the script's draws and hands the
//! generator's state to the engine for the run ([`Ns2Default::state`] and
//! [`Ns2Default::set_state`] between the script's events); the engine's components that
//! share it hold an [`Ns2Default`] (through [`super::Uniform`]) and draw in event order, which
//! under `run.ties = "ns2"` is ns-2's.

use std::sync::{Arc, Mutex, MutexGuard};

// tools/rng.cc's moduli and multipliers.
const M1: i64 = 4_294_967_087;
const M2: i64 = 4_294_944_443;
const A12: i64 = 1_403_580;
const A13N: i64 = 810_728;
const A21: i64 = 527_612;
const A23N: i64 = 1_370_589;
/// `norm` = 1 / (m1 + 1).
const NORM: f64 = 1.0 / (M1 as f64 + 1.0);

/// One MRG32k3a state: ns-2's `Cg_`, the two components' last three values each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mrg32k3a {
    s: [i64; 6],
}

impl Mrg32k3a {
    /// The state `s` (each of the first three below m1, the last three below m2, as ns-2's
    /// seeds and states are); None if a value is out of range.
    pub fn from_state(s: [u64; 6]) -> Option<Mrg32k3a> {
        let ok = s[..3].iter().all(|&x| (x as i64) < M1) && s[3..].iter().all(|&x| (x as i64) < M2);
        ok.then(|| Mrg32k3a {
            s: s.map(|x| x as i64),
        })
    }

    pub fn state(&self) -> [u64; 6] {
        self.s.map(|x| x as u64)
    }

    /// `RNG::U01`: the next number, uniform on (0, 1).
    #[inline]
    pub fn u01(&mut self) -> f64 {
        let s = &mut self.s;
        let p1 = (A12 * s[1] - A13N * s[0]).rem_euclid(M1);
        *s = [s[1], s[2], p1, s[3], s[4], s[5]];
        let p2 = (A21 * s[5] - A23N * s[3]).rem_euclid(M2);
        *s = [s[0], s[1], s[2], s[4], s[5], p2];
        if p1 > p2 {
            (p1 - p2) as f64 * NORM
        } else {
            (p1 - p2 + M1) as f64 * NORM
        }
    }
}

/// The one default generator of a run, shared by the components drawing from it (a run may
/// move between threads: the binding releases Python's lock while it runs).
#[derive(Clone, Debug)]
pub struct Ns2Default(Arc<Mutex<Mrg32k3a>>);

impl Ns2Default {
    pub fn new(g: Mrg32k3a) -> Ns2Default {
        Ns2Default(Arc::new(Mutex::new(g)))
    }

    fn get(&self) -> MutexGuard<'_, Mrg32k3a> {
        // Nothing can panic while holding it, so it is never poisoned.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `Random::uniform()`.
    #[inline]
    pub fn u01(&self) -> f64 {
        self.get().u01()
    }

    pub fn state(&self) -> [u64; 6] {
        self.get().state()
    }

    pub fn set_state(&self, g: Mrg32k3a) {
        *self.get() = g;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_numbers_are_mrg32k3a_s() {
        // L'Ecuyer's reference seed (12345 six times, ns-2's package seed): 0.1270111...
        let mut g = Mrg32k3a::from_state([12345; 6]).unwrap();
        let u: Vec<f64> = (0..3).map(|_| g.u01()).collect();
        assert_eq!(
            u,
            [0.12701112204657714, 0.3185275653967945, 0.3091860155832701]
        );
        for _ in 0..1000 {
            g.u01();
        }
        assert_eq!(g.u01(), 0.7021215721129643);
        assert_eq!(
            g.state(),
            [950183335, 1276071426, 1469805452, 3769572125, 883407828, 2749183495]
        );
        // $defaultRNG after ns-random.tcl's `seed 1`.
        let mut d = Mrg32k3a::from_state([1; 6]).unwrap();
        assert_eq!(d.u01(), 0.0003395772237870988);
    }

    #[test]
    fn shared_copies_draw_one_sequence() {
        let g = Mrg32k3a::from_state([12345; 6]).unwrap();
        let a = Ns2Default::new(g);
        let b = a.clone();
        let mut alone = g;
        assert_eq!(a.u01(), alone.u01());
        assert_eq!(b.u01(), alone.u01());
        assert_eq!(a.state(), alone.state());
        assert!(Mrg32k3a::from_state([M1 as u64, 1, 1, 1, 1, 1]).is_none());
    }
}
