//! Simulated time: integer picoseconds, never floating point in the scheduler.
//!
//! A `u64` of picoseconds spans 213 days, plenty for 1500 s runs, and resolves the
//! serialisation time of one byte on a 100 Gb/s link (80 ps) exactly.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

pub const PS_PER_S: u64 = 1_000_000_000_000;

/// An instant of simulated time, in picoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A span of simulated time, in picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimDuration(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_S as f64
    }

    /// Time elapsed since `earlier`, zero if `earlier` is later.
    pub fn since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    pub const ZERO: SimDuration = SimDuration(0);

    pub fn from_secs_f64(s: f64) -> SimDuration {
        SimDuration((s * PS_PER_S as f64).round() as u64)
    }

    pub const fn from_millis(ms: u64) -> SimDuration {
        SimDuration(ms * 1_000_000_000)
    }

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_S as f64
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}

impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        self.0 = self.0.saturating_add(d.0);
    }
}

impl Sub for SimTime {
    type Output = SimDuration;
    fn sub(self, other: SimTime) -> SimDuration {
        SimDuration(self.0 - other.0)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9}s", self.as_secs_f64())
    }
}

/// A link rate in bit/s. Rates beyond `u64` (ns-2 scripts use `1e25Mb` for "infinite")
/// saturate, which makes their serialisation time zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    bps: u64,
    /// Picoseconds per byte when that is a whole number that fits (every round rate from 2
    /// kb/s to 8 Tb/s): serialisation is then one multiplication instead of a 128-bit
    /// division per packet. 32 bits, so that the rate stays 16 bytes in the link's hot lines.
    ps_per_byte: u32,
    /// Non-zero: serialisation times are rounded to the nearest multiple of this many
    /// picoseconds (halves up), as a simulator with a coarser clock has them.
    round_ps: u32,
}

impl Rate {
    /// `None` for a rate that is not a positive finite number.
    pub fn from_bps_f64(bps: f64) -> Option<Rate> {
        if !(bps.is_finite() && bps > 0.0) {
            return None;
        }
        let bps = if bps >= u64::MAX as f64 {
            u64::MAX
        } else {
            bps.round().max(1.0) as u64
        };
        let bits_ps = 8 * PS_PER_S;
        let ps_per_byte = if bps != u64::MAX && bits_ps.is_multiple_of(bps) {
            u32::try_from(bits_ps / bps).unwrap_or(0)
        } else {
            0
        };
        Some(Rate {
            bps,
            ps_per_byte,
            round_ps: 0,
        })
    }

    pub fn bps(self) -> u64 {
        self.bps
    }

    /// This rate with serialisation times rounded to whole nanoseconds, as ns-3 has them:
    /// `DataRate::CalculateBytesTxTime` gives `Seconds(bits / rate)`, a `Time` of whole units
    /// of the default 1 ns resolution, rounded to the nearest (`Time(int64x64_t)` takes
    /// `Round()`), so 1502 bytes take 1202 ns at 10 Gb/s (1201.6 exactly) and 300 ns at 40
    /// Gb/s (300.4).
    pub fn in_whole_ns(self) -> Rate {
        Rate {
            round_ps: 1000,
            ..self
        }
    }

    /// Serialisation time of `bytes` at this rate, rounded up to the next picosecond so that
    /// a link never carries more than its rate (or to the nearest nanosecond,
    /// [`Rate::in_whole_ns`]).
    pub fn tx_time(self, bytes: u32) -> SimDuration {
        let t = self.exact_tx_time(bytes);
        if self.round_ps == 0 {
            return t;
        }
        let r = u64::from(self.round_ps);
        SimDuration((t.0 / r + u64::from(t.0 % r >= r.div_ceil(2))).saturating_mul(r))
    }

    fn exact_tx_time(self, bytes: u32) -> SimDuration {
        if self.ps_per_byte != 0 {
            if let Some(t) = (bytes as u64).checked_mul(u64::from(self.ps_per_byte)) {
                return SimDuration(t);
            }
        }
        if self.bps == u64::MAX {
            return SimDuration::ZERO; // an "infinite" rate
        }
        let bits = bytes as u128 * 8 * PS_PER_S as u128;
        SimDuration(bits.div_ceil(self.bps as u128).min(u64::MAX as u128) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tx_time_is_exact_on_round_rates() {
        let r = Rate::from_bps_f64(10e6).unwrap();
        // 1040 B at 10 Mb/s = 832 us.
        assert_eq!(r.tx_time(1040), SimDuration(832_000_000));
        let g = Rate::from_bps_f64(1e9).unwrap();
        assert_eq!(g.tx_time(1500), SimDuration(12_000_000));
    }

    #[test]
    fn ns3_serialisation_times_are_whole_nanoseconds_rounded_to_the_nearest() {
        // DataRate::CalculateBytesTxTime: 1502 B is 1201.6 ns at 10 Gb/s, 300.4 ns at 40 Gb/s,
        // 54 B 43.2 and 10.8 ns; ns-3.44 schedules 1202, 300, 43 and 11 ns.
        let ten = Rate::from_bps_f64(10e9).unwrap().in_whole_ns();
        let forty = Rate::from_bps_f64(40e9).unwrap().in_whole_ns();
        assert_eq!(ten.tx_time(1502), SimDuration(1_202_000));
        assert_eq!(forty.tx_time(1502), SimDuration(300_000));
        assert_eq!(ten.tx_time(54), SimDuration(43_000));
        assert_eq!(forty.tx_time(54), SimDuration(11_000));
        // Rates whose times are whole nanoseconds already are unchanged.
        let slow = Rate::from_bps_f64(10e6).unwrap();
        assert_eq!(slow.in_whole_ns().tx_time(1502), slow.tx_time(1502));
        // Without it: the exact time, to the picosecond.
        assert_eq!(
            Rate::from_bps_f64(10e9).unwrap().tx_time(1502),
            SimDuration(1_201_600)
        );
    }

    #[test]
    fn the_multiplication_shortcut_agrees_with_the_division() {
        for bps in [
            1e3, 64e3, 1.5e6, 10e6, 622e6, 1e9, 2.5e9, 10e9, 3e12, 8e12, 9e12,
        ] {
            let r = Rate::from_bps_f64(bps).unwrap();
            for bytes in [0u32, 1, 40, 1040, 1500, 65535, u32::MAX] {
                let exact = (bytes as u128 * 8 * PS_PER_S as u128).div_ceil(bps as u128);
                let exact = exact.min(u64::MAX as u128);
                assert_eq!(r.tx_time(bytes).0 as u128, exact, "{bps} b/s, {bytes} B");
            }
        }
    }

    #[test]
    fn huge_rates_saturate_to_zero_time() {
        let r = Rate::from_bps_f64(1e31).unwrap();
        assert_eq!(r.tx_time(1500), SimDuration(0));
        assert!(Rate::from_bps_f64(0.0).is_none());
        assert!(Rate::from_bps_f64(-1.0).is_none());
        assert!(Rate::from_bps_f64(f64::NAN).is_none());
    }
}
