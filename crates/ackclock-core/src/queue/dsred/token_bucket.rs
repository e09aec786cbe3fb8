//! The Token Bucket policer of ns-2.35's DiffServ edge (diffserv/dsPolicy.cc, `TBPolicy`):
//! one bucket of CBS bytes filled at CIR.
//!
//! - Meter (`TBPolicy::applyMeter`): the bucket gains CIR x (now - last arrival) bytes,
//!   capped at CBS (a fill that would pass CBS sets it to CBS).
//! - Policer (`TBPolicy::applyPolicer`): a packet that fits (bucket - size >= 0) takes its
//!   size from the bucket and keeps the initial code point; otherwise it is downgraded.

use super::policy::{Color, PolicyState};

/// `TBPolicy::applyMeter` at `now` (seconds).
pub fn meter(s: &mut PolicyState, now: f64) {
    let tokens = s.cir * (now - s.arrival);
    if s.c_bucket + tokens <= s.cbs {
        s.c_bucket += tokens;
    } else {
        s.c_bucket = s.cbs;
    }
    s.arrival = now;
}

/// `TBPolicy::applyPolicer` for a packet of `size` bytes.
pub fn police(s: &mut PolicyState, size: f64) -> Color {
    if s.c_bucket - size >= 0.0 {
        s.c_bucket -= size;
        Color::Green
    } else {
        Color::Yellow
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_fills_at_cir_up_to_cbs() {
        // CIR 1 Mb/s = 125000 B/s, CBS 3000 B.
        let mut s = PolicyState::new(125_000.0, 3000.0, 0.0, 0.0, 0.0, 1.0);
        meter(&mut s, 0.0);
        assert_eq!(police(&mut s, 1000.0), Color::Green);
        assert_eq!(police(&mut s, 1000.0), Color::Green);
        assert_eq!(police(&mut s, 1000.0), Color::Green);
        assert_eq!(police(&mut s, 1000.0), Color::Yellow); // empty
        meter(&mut s, 0.004); // +500 B
        assert_eq!(s.c_bucket, 500.0);
        assert_eq!(police(&mut s, 1000.0), Color::Yellow);
        meter(&mut s, 1.0); // long idle: capped at CBS
        assert_eq!(s.c_bucket, 3000.0);
    }
}
