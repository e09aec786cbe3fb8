//! The TCP throughput equation TFRC sends by, and its inverse.
//!
//! RFC 5348 section 3.1 (the same as RFC 3448 section 3.1):
//!
//! ```text
//!                               s
//! X_Bps = ----------------------------------------------------------
//!         R*sqrt(2*b*p/3) + (t_RTO * (3*sqrt(3*b*p/8)) * p * (1+32*p^2))
//! ```
//!
//! with s the segment size in bytes, R the round-trip time, p the loss event rate, t_RTO the
//! retransmission timeout and b the packets acknowledged per ACK. ns-2.35 (`tcp/formula.h`,
//! `p_to_b`) writes the timeout term's factor as `min(1, 3*sqrt(3*b*p/8))`, as Padhye et al.
//! (SIGCOMM 1998, eq. 30) and the TFRC paper (Floyd et al., SIGCOMM 2000) do; the two agree
//! for p < 8/27. ns-2 also caps the result at 25 MB/s (`MAXRATE`), returns that cap for a
//! negative p or RTT, and for a denominator below 1e-7 (p = 0).
//!
//! The inverse (`tcp/formula-with-inverse.h`, `b_to_p`) is ns-2's bisection: it starts at
//! p = 0.5 with step 0.25, halves the step each round, and stops when the rate is within 5% of
//! the target or after 31 rounds.

/// ns-2's cap on the equation's rate, bytes per second (`formula.h`, MAXRATE).
pub const MAX_RATE: f64 = 25_000_000.0;
const SMALL: f64 = 0.0000001;

/// The allowed rate in bytes per second for loss event rate `p`, round-trip time `rtt` and
/// timeout `tzero` (seconds), segment size `psize` bytes and `bval` packets per ACK (ns-2
/// `p_to_b`).
pub fn rate_bps(p: f64, rtt: f64, tzero: f64, psize: f64, bval: f64) -> f64 {
    if p < 0.0 || rtt < 0.0 {
        return MAX_RATE;
    }
    let loss_term = rtt * (2.0 * bval * p / 3.0).sqrt();
    let factor = (3.0 * (3.0 * bval * p / 8.0).sqrt()).min(1.0);
    let timeout_term = factor * (tzero * p * (1.0 + 32.0 * p * p));
    let denom = loss_term + timeout_term;
    if denom < SMALL {
        return MAX_RATE;
    }
    (psize / denom).min(MAX_RATE)
}

/// The loss event rate at which [`rate_bps`] gives `b` bytes per second, to within 5% (ns-2
/// `b_to_p`).
pub fn loss_rate_for(b: f64, rtt: f64, tzero: f64, psize: f64, bval: f64) -> f64 {
    let (mut p, mut step) = (0.5, 0.25);
    for _ in 0..=30 {
        let r = rate_bps(p, rtt, tzero, psize, bval);
        if r > 0.95 * b && r < 1.05 * b {
            return p;
        }
        if r > b {
            p += step;
        } else {
            p -= step;
        }
        step /= 2.0;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 5348 section 3.1 written out term by term, with t_RTO = 4R and b = 1 as its
    /// section 4.3 recommends.
    fn rfc5348(s: f64, r: f64, p: f64) -> f64 {
        let t_rto = 4.0 * r;
        s / (r * (2.0 * p / 3.0).sqrt()
            + t_rto * (3.0 * (3.0 * p / 8.0).sqrt()) * p * (1.0 + 32.0 * p * p))
    }

    #[test]
    fn matches_rfc5348_section_3_1() {
        for &(s, r, p) in &[
            (1000.0, 0.1, 0.01),
            (1460.0, 0.05, 0.001),
            (500.0, 0.3, 0.05),
            (1000.0, 0.2, 0.2),
        ] {
            let ours = rate_bps(p, r, 4.0 * r, s, 1.0);
            let want = rfc5348(s, r, p);
            assert!(
                (ours - want).abs() <= want * 1e-12,
                "{s} {r} {p}: {ours} vs {want}"
            );
        }
        // By hand: s = 1000, R = 0.1, p = 0.01: 0.1*sqrt(0.02/3) = 0.0081650, timeout term
        // 0.4 * 3*sqrt(0.00375) * 0.01 * 1.0032 = 0.00073720; X = 1000/0.0089022 = 112332.
        let x = rate_bps(0.01, 0.1, 0.4, 1000.0, 1.0);
        assert!((x - 112_332.2).abs() < 0.1, "{x}");
    }

    #[test]
    fn ns2_limits_the_timeout_factor_and_the_rate() {
        // Above p = 8/27 the factor 3*sqrt(3p/8) exceeds 1 and ns-2 holds it at 1.
        let p: f64 = 0.5;
        let want = 1000.0 / (0.1 * (2.0 * p / 3.0).sqrt() + 0.4 * p * (1.0 + 32.0 * p * p));
        assert!((rate_bps(p, 0.1, 0.4, 1000.0, 1.0) - want).abs() < 1e-9);
        assert_eq!(rate_bps(0.0, 0.1, 0.4, 1000.0, 1.0), MAX_RATE);
        assert_eq!(rate_bps(-1.0, 0.1, 0.4, 1000.0, 1.0), MAX_RATE);
        assert_eq!(rate_bps(1e-9, 0.001, 0.0, 1000.0, 1.0), MAX_RATE);
        // Rate falls as loss rises, and as the RTT rises.
        assert!(rate_bps(0.02, 0.1, 0.4, 1000.0, 1.0) < rate_bps(0.01, 0.1, 0.4, 1000.0, 1.0));
        assert!(rate_bps(0.01, 0.2, 0.4, 1000.0, 1.0) < rate_bps(0.01, 0.1, 0.4, 1000.0, 1.0));
    }

    #[test]
    fn the_inverse_lands_within_five_percent() {
        for &p in &[0.001, 0.01, 0.05, 0.1, 0.3] {
            let b = rate_bps(p, 0.1, 0.4, 1000.0, 1.0);
            let q = loss_rate_for(b, 0.1, 0.4, 1000.0, 1.0);
            let back = rate_bps(q, 0.1, 0.4, 1000.0, 1.0);
            assert!(
                back > 0.95 * b && back < 1.05 * b,
                "{p}: {q} gives {back} for {b}"
            );
        }
    }
}
