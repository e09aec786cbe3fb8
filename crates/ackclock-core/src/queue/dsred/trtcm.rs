//! The two rate three color marker (RFC 2698) as ns-2.35's DiffServ edge runs it
//! (diffserv/dsPolicy.cc, `TRTCMPolicy`): a committed bucket (CBS bytes at CIR) and a peak
//! bucket (PBS bytes at PIR), color-blind.
//!
//! - Meter (`TRTCMPolicy::applyMeter`; RFC 2698 section 3): each bucket gains its rate x
//!   (now - last arrival), capped at its size.
//! - Policer (`TRTCMPolicy::applyPolicer`; RFC 2698 section 3, color-blind mode): red if the
//!   peak bucket cannot hold the packet; else yellow (taken from the peak bucket) if the
//!   committed one cannot; else green, taken from both.

use super::policy::{Color, PolicyState};

/// `TRTCMPolicy::applyMeter` at `now` (seconds).
pub fn meter(s: &mut PolicyState, now: f64) {
    let tokens = s.cir * (now - s.arrival);
    if s.c_bucket + tokens <= s.cbs {
        s.c_bucket += tokens;
    } else {
        s.c_bucket = s.cbs;
    }
    let tokens = s.pir * (now - s.arrival);
    if s.p_bucket + tokens <= s.pbs {
        s.p_bucket += tokens;
    } else {
        s.p_bucket = s.pbs;
    }
    s.arrival = now;
}

/// `TRTCMPolicy::applyPolicer` for a packet of `size` bytes.
pub fn police(s: &mut PolicyState, size: f64) -> Color {
    if s.p_bucket - size < 0.0 {
        Color::Red
    } else if s.c_bucket - size < 0.0 {
        s.p_bucket -= size;
        Color::Yellow
    } else {
        s.c_bucket -= size;
        s.p_bucket -= size;
        Color::Green
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_bucket_bounds_yellow() {
        // CBS 1000, PBS 3000.
        let mut s = PolicyState::new(1000.0, 1000.0, 0.0, 2000.0, 3000.0, 1.0);
        meter(&mut s, 0.0);
        assert_eq!(police(&mut s, 1000.0), Color::Green);
        assert_eq!(police(&mut s, 1000.0), Color::Yellow);
        assert_eq!(police(&mut s, 1000.0), Color::Yellow);
        assert_eq!(police(&mut s, 1000.0), Color::Red);
        meter(&mut s, 0.5); // +500 committed, +1000 peak
        assert_eq!((s.c_bucket, s.p_bucket), (500.0, 1000.0));
        assert_eq!(police(&mut s, 1000.0), Color::Yellow);
    }
}
