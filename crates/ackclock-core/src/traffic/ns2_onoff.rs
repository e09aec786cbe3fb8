//! ns-2.35's on-off sources as ns-2 draws them: `Application/Traffic/Exponential`
//! (tools/expoo.cc, `EXPOO_Traffic`) and `/Pareto` (tools/pareto.cc, `POO_Traffic`), on ns-2's
//! default generator and ns-2's clock, so that a script's on-off traffic sends at ns-2's
//! times (the generic model is [`super::onoff`]).
//!
//! ns-2's rules, per `next_interval` (called when the source starts and after each send;
//! `TrafficGenerator::start` sends nothing at once, it schedules the first send one
//! `next_interval` later):
//! - the gap to the next send is `interval_ = (packetSize_ << 3) / rate_`, in doubles;
//! - when the burst in progress is used up (`rem_ == 0`), it first draws the next burst's
//!   length in packets, `int(draw + 0.5)` and at least 1, then the idle time before it, which
//!   the gap grows by: the silence comes before each burst, the first included;
//! - Exponential: the burst length is `ExponentialRandomVariable::value` with mean
//!   `burst_time_ / interval_` packets, the idle time one with mean `idle_time_`
//!   (`RNG::exponential(r)`: `r * -log(u)`);
//! - Pareto: `Random::pareto(scale, shape)` = `scale / u^(1/shape)` (tools/rng.h) with scales
//!   `p1 = burst_time_ / interval_ * (shape - 1) / shape` packets and
//!   `p2 = idle_time_ * (shape - 1) / shape` seconds, so the means are the given ones.
//!
//! Every `u` is the default generator's next number (`RNG::uniform`), shared in event order
//! with the script's and the run's other draws ([`crate::rng::ns2`]).

use crate::rng::ns2::Ns2Default;

/// Which of ns-2's two on-off generators, with its parameters as ns-2 derives them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ns2Bursts {
    /// `EXPOO_Traffic`: mean burst length in packets, mean idle time in seconds.
    Exponential { burst_pkts: f64, idle_s: f64 },
    /// `POO_Traffic`: the scales `p1` (packets) and `p2` (seconds) and the shape.
    Pareto { p1: f64, p2: f64, shape: f64 },
}

#[derive(Clone, Debug)]
pub struct Ns2OnOff {
    pub payload: u32,
    /// `interval_`, seconds.
    interval: f64,
    bursts: Ns2Bursts,
    /// `rem_`: sends left in the burst in progress.
    rem: u32,
    /// The gap `next_interval` returned last, seconds.
    gap: f64,
    rng: Ns2Default,
}

impl Ns2OnOff {
    pub fn new(payload: u32, interval: f64, bursts: Ns2Bursts, rng: Ns2Default) -> Ns2OnOff {
        Ns2OnOff {
            payload,
            interval,
            bursts,
            rem: 0,
            gap: interval,
            rng,
        }
    }

    /// `EXPOO_Traffic::next_interval` / `POO_Traffic::next_interval`: the gap to the next
    /// send, in seconds (ns-2's double).
    fn next_interval(&mut self) -> f64 {
        let mut t = self.interval;
        if self.rem == 0 {
            let (burst, idle) = match self.bursts {
                Ns2Bursts::Exponential { burst_pkts, idle_s } => {
                    let b = burst_pkts * -self.rng.u01().ln();
                    (b, idle_s * -self.rng.u01().ln())
                }
                Ns2Bursts::Pareto { p1, p2, shape } => {
                    let b = p1 * (1.0 / self.rng.u01().powf(1.0 / shape));
                    (b, p2 * (1.0 / self.rng.u01().powf(1.0 / shape)))
                }
            };
            // ns-2 assigns `int(x + .5)` to an unsigned int.
            self.rem = ((burst + 0.5) as i64 as u32).max(1);
            t += idle;
        }
        self.rem -= 1;
        self.gap = t;
        t
    }

    /// The source starts (`TrafficGenerator::start`, after `init` empties the burst): the
    /// delay to its first send, in picoseconds.
    pub fn start(&mut self) -> u64 {
        self.rem = 0;
        seconds_to_ps(self.next_interval())
    }

    /// One send: its payload and the delay to the next one, in picoseconds.
    #[inline]
    pub fn next_datagram(&mut self) -> (u32, Option<u64>) {
        (self.payload, Some(seconds_to_ps(self.next_interval())))
    }

    /// The last gap as ns-2's double, which ns-2's clock adds to the send's time.
    pub fn gap(&self) -> f64 {
        self.gap
    }
}

fn seconds_to_ps(s: f64) -> u64 {
    (s * 1e12).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::ns2::Mrg32k3a;

    fn rng() -> Ns2Default {
        Ns2Default::new(Mrg32k3a::from_state([1; 6]).unwrap())
    }

    #[test]
    fn the_first_gap_is_an_interval_plus_an_idle_time_drawn_after_the_burst() {
        let g = rng();
        let mut src = Ns2OnOff::new(
            200,
            0.016,
            Ns2Bursts::Exponential {
                burst_pkts: 125.0,
                idle_s: 1.0,
            },
            g.clone(),
        );
        let same = Ns2Default::new(Mrg32k3a::from_state([1; 6]).unwrap());
        let burst = 125.0 * -same.u01().ln();
        let idle = 1.0 * -same.u01().ln();
        src.start();
        assert_eq!(src.gap(), 0.016 + idle);
        let n = ((burst + 0.5) as u32).max(1);
        // The rest of the burst at the interval, then the next silence.
        for _ in 1..n {
            src.next_datagram();
            assert_eq!(src.gap(), 0.016);
        }
        src.next_datagram();
        let burst2 = 125.0 * -same.u01().ln();
        let idle2 = 1.0 * -same.u01().ln();
        assert!(burst2 > 0.0);
        assert_eq!(src.gap(), 0.016 + idle2);
        // Two numbers per burst, from the shared generator.
        assert_eq!(g.state(), same.state());
    }

    #[test]
    fn pareto_bursts_and_silences_have_the_given_means() {
        // shape 1.5: finite mean, infinite variance, so a loose check over many bursts.
        let (on, off, iv, shape) = (0.5_f64, 0.5_f64, 0.001_f64, 1.5_f64);
        let mut src = Ns2OnOff::new(
            125,
            iv,
            Ns2Bursts::Pareto {
                p1: on / iv * (shape - 1.0) / shape,
                p2: off * (shape - 1.0) / shape,
                shape,
            },
            rng(),
        );
        let (mut sends, mut total) = (0u64, src.start() as f64 / 1e12);
        while sends < 4_000_000 {
            total += src.next_datagram().1.unwrap() as f64 / 1e12;
            sends += 1;
        }
        // On half of the time at one send per ms: 500 sends per second.
        let rate = sends as f64 / total;
        assert!((rate - 500.0).abs() < 500.0 * 0.1, "{rate}");
    }
}
