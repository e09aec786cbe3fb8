//! The single rate three color marker (RFC 2697) as ns-2.35's DiffServ edge runs it
//! (diffserv/dsPolicy.cc, `SRTCMPolicy`): a committed bucket of CBS bytes and an excess bucket
//! of EBS bytes, both fed at CIR, color-blind.
//!
//! - Meter (`SRTCMPolicy::applyMeter`; RFC 2697 section 3): CIR x (now - last arrival) bytes
//!   go to the committed bucket; what would pass CBS fills it to CBS and the rest goes to the
//!   excess bucket, capped at EBS.
//! - Policer (`SRTCMPolicy::applyPolicer`; RFC 2697 section 3, color-blind mode): green if the
//!   committed bucket holds the packet (taken from it), else yellow if the excess bucket does
//!   (taken from that), else red.

use super::policy::{Color, PolicyState};

/// `SRTCMPolicy::applyMeter` at `now` (seconds).
pub fn meter(s: &mut PolicyState, now: f64) {
    let mut tokens = s.cir * (now - s.arrival);
    if s.c_bucket + tokens <= s.cbs {
        s.c_bucket += tokens;
    } else {
        tokens -= s.cbs - s.c_bucket;
        s.c_bucket = s.cbs;
        if s.e_bucket + tokens <= s.ebs {
            s.e_bucket += tokens;
        } else {
            s.e_bucket = s.ebs;
        }
    }
    s.arrival = now;
}

/// `SRTCMPolicy::applyPolicer` for a packet of `size` bytes.
pub fn police(s: &mut PolicyState, size: f64) -> Color {
    if s.c_bucket - size >= 0.0 {
        s.c_bucket -= size;
        Color::Green
    } else if s.e_bucket - size >= 0.0 {
        s.e_bucket -= size;
        Color::Yellow
    } else {
        Color::Red
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_then_excess_then_red() {
        // CIR 8000 B/s, CBS 1000, EBS 2000, both full at the start.
        let mut s = PolicyState::new(8000.0, 1000.0, 2000.0, 0.0, 0.0, 1.0);
        meter(&mut s, 0.0);
        assert_eq!(police(&mut s, 1000.0), Color::Green);
        assert_eq!(police(&mut s, 1000.0), Color::Yellow);
        assert_eq!(police(&mut s, 1000.0), Color::Yellow);
        assert_eq!(police(&mut s, 1000.0), Color::Red);
        // 0.25 s: 2000 B, 1000 fill the committed bucket, 1000 go to the excess one.
        meter(&mut s, 0.25);
        assert_eq!((s.c_bucket, s.e_bucket), (1000.0, 1000.0));
    }
}
