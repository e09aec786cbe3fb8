//! The time sliding window meter and its two- and three-color markers as ns-2.35's DiffServ
//! edge runs them (diffserv/dsPolicy.cc, `TSW2CMPolicy` and `TSW3CMPolicy`; the TSW of Clark
//! and Fang, "Explicit allocation of best-effort packet delivery service", IEEE/ACM ToN 1998,
//! section 3.3; the markers of RFC 2859).
//!
//! - Meter (`TSW2CMPolicy::applyMeter`, the same in `TSW3CMPolicy`): avgRate = (avgRate x
//!   winLen + size) / (now - last arrival + winLen), starting at CIR, winLen 1 s unless the
//!   policy gives one (TSW2CM).
//! - TSW2CM (`TSW2CMPolicy::applyPolicer`): above CIR a packet is downgraded with probability
//!   1 - CIR / avgRate, one `Random::uniform(0, 1)` drawn only then (C's `&&`).
//! - TSW3CM (`TSW3CMPolicy::applyPolicer`; RFC 2859 section 2): x = avgRate (1 - u), one draw
//!   per packet; red above PIR, yellow above CIR, else green.

use super::policy::{Color, PolicyState};
use crate::rng::Uniform;

/// `TSW2CMPolicy::applyMeter` / `TSW3CMPolicy::applyMeter` for a packet of `size` bytes at
/// `now`.
pub fn meter(s: &mut PolicyState, now: f64, size: f64) {
    let bytes = s.avg_rate * s.win_len + size;
    s.avg_rate = bytes / (now - s.arrival + s.win_len);
    s.arrival = now;
}

/// `TSW2CMPolicy::applyPolicer`.
pub fn police_2cm(s: &PolicyState, rng: &mut Uniform) -> Color {
    if s.avg_rate > s.cir && rng.next_f64() <= 1.0 - s.cir / s.avg_rate {
        Color::Yellow
    } else {
        Color::Green
    }
}

/// `TSW3CMPolicy::applyPolicer`.
pub fn police_3cm(s: &PolicyState, rng: &mut Uniform) -> Color {
    let x = s.avg_rate * (1.0 - rng.next_f64());
    if x > s.pir {
        Color::Red
    } else if x > s.cir {
        Color::Yellow
    } else {
        Color::Green
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::RandomStream;

    #[test]
    fn window_average() {
        let mut s = PolicyState::new(1000.0, 0.0, 0.0, 2000.0, 0.0, 1.0);
        s.avg_rate = 1000.0;
        meter(&mut s, 0.5, 500.0);
        // (1000 x 1 + 500) / (0.5 + 1)
        assert_eq!(s.avg_rate, 1000.0);
        assert_eq!(s.arrival, 0.5);
    }

    #[test]
    fn under_cir_always_green_and_2cm_draws_nothing() {
        let s = PolicyState::new(1000.0, 0.0, 0.0, 2000.0, 0.0, 1.0);
        let mut r = Uniform::Own(RandomStream::named(1, "t"));
        let before = r.clone().next_f64();
        assert_eq!(police_2cm(&s, &mut r), Color::Green);
        assert_eq!(r.next_f64(), before);
        assert_eq!(police_3cm(&s, &mut r), Color::Green);
        let mut hot = s;
        hot.avg_rate = 1e9; // far above PIR: red unless u is within 2e-6 of 1
        assert_eq!(police_3cm(&hot, &mut r), Color::Red);
    }
}
