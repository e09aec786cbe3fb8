//! Nonlinear RED: K. Zhou, K. L. Yeung, V. O. K. Li, "Nonlinear RED: A simple yet efficient
//! active queue management scheme", Computer Networks 50(18), 2006; as ns-3.44's
//! `RedQueueDisc` runs it with `NLRED = true` (red-queue-disc.cc, `CalculatePNew`).
//!
//! RED (`red.rs`) whose base probability rises quadratically between the thresholds instead
//! of linearly, p_b = 1.5 max_p ((avg - min_th) / (max_th - min_th))^2, so that it is gentler
//! just above min_th and reaches 1.5 max_p at max_th. The rest (gentle region above max_th,
//! forced drops, the spreading of drops by count, ECN) is RED's.

/// p_b between the thresholds: `lin` is (avg - min_th) / (max_th - min_th).
#[inline]
pub fn base_probability(lin: f64, max_p: f64) -> f64 {
    1.5 * lin * lin * max_p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadratic_between_the_thresholds() {
        assert_eq!(base_probability(0.0, 0.1), 0.0);
        assert!((base_probability(0.5, 0.1) - 0.0375).abs() < 1e-15);
        assert!((base_probability(1.0, 0.1) - 0.15).abs() < 1e-15);
        // Below the linear curve up to lin = 2/3, above it after.
        assert!(base_probability(0.6, 0.1) < 0.06);
        assert!(base_probability(0.7, 0.1) > 0.07);
    }
}
