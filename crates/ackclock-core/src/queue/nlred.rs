//! Nonlinear RED: K. Zhou, K. L. Yeung, V. O. K. Li, "Nonlinear RED: A simple yet efficient
//! active queue management scheme", Computer Networks 50(18), 2006; as ns-3.44's
//! `RedQueueDisc` runs it with `NLRED = true` (red-queue-disc.cc, `CalculatePNew`).
//!
//! RED (`red.rs`) whose base probability rises quadratically between the thresholds instead
//! of linearly, p_b = 1.5 max_p ((avg - min_th) / (max_th - min_th))^2, so that it is gentler
//! just above min_th and reaches 1.5 max_p at max_th. The rest (gentle region above max_th,
//! forced drops, the spreading of drops by count, ECN) is RED's.

use super::ared::red_params;
use super::red::Red;
use super::{
    AqmState, Arrival, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service, Unit, Verdict,
};

/// p_b between the thresholds: `lin` is (avg - min_th) / (max_th - min_th).
#[inline]
pub fn base_probability(lin: f64, max_p: f64) -> f64 {
    1.5 * lin * lin * max_p
}

/// RED with Nonlinear RED's quadratic p_b: the `nlred` queue kind.
#[derive(Clone, Debug)]
pub struct NonlinearRed(pub Red);

crate::params! {
    /// The `NonlinearRed` discipline's parameters (`queue.params`), each with its declaration.
    pub struct NonlinearRedSettings {
        min_thresh: f64 = Param::new("min_thresh", 5.0, Range::NonNegative, "min_th in packets (0: automatic)")
            .unit(Unit::Packets)
            .ns3("MinTh"),
        max_thresh: f64 = Param::new("max_thresh", 15.0, Range::NonNegative, "max_th in packets (0: automatic)")
            .unit(Unit::Packets)
            .ns3("MaxTh"),
        q_weight: f64 = Param::new("q_weight", 0.002, Range::Weight, "EWMA weight (0, -1, -2: automatic)").ns3("QW"),
        max_p: f64 = Param::new("max_p", 0.02, Range::Fraction, "max_p (p_b at max_th is 1.5 max_p)")
            .ns3("LInterm")
            .inverse_aliases(&["linterm"]),
        gentle: bool = Param::new("gentle", 1.0, Range::Flag, "p_b from max_p to 1 between max_th and 2 max_th")
            .ns3("Gentle"),
        wait: bool = Param::new("wait", 1.0, Range::Flag, "wait between early drops").ns3("Wait"),
        mean_pktsize: u32 = Param::new("mean_pktsize", 500.0, Range::Count, "mean packet size for idle decay")
            .unit(Unit::Bytes)
            .ns3("MeanPktSize"),
        target_delay: crate::time::SimDuration = Param::new("target_delay", 5e9, Range::Positive, "target delay of automatic thresholds")
            .unit(Unit::Time)
            .ns3("TargetDelay"),
    }
}

const NLRED_PARAMS: &[Param] = NonlinearRedSettings::PARAMS;

impl QueueDiscipline for NonlinearRed {
    const INFO: QdiscInfo = QdiscInfo {
        params: NLRED_PARAMS,
        ecn: true,
        ..QdiscInfo::new(
            "nlred",
            Service::Enqueue,
            "Nonlinear RED (Zhou, Yeung, Li 2006), as ns-3's RedQueueDisc with NLRED",
        )
    };

    type Params = NonlinearRedSettings;

    fn new(p: &NonlinearRedSettings, setup: &QueueSetup) -> NonlinearRed {
        let mut red = Red::new(
            red_params!(p, setup),
            setup.rate_bps,
            setup.delay.as_secs_f64(),
            setup.rng.clone(),
        );
        red.set_nonlinear(true);
        NonlinearRed(red)
    }

    #[inline]
    fn admit(&mut self, a: &Arrival) -> Verdict {
        self.0.admit(a)
    }

    fn var_trace(&mut self) -> Option<&mut Option<Box<super::VarTrace>>> {
        <Red as QueueDiscipline>::var_trace(&mut self.0)
    }

    fn state(&self) -> AqmState {
        self.0.state()
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        <Red as QueueDiscipline>::limits(&self.0)
    }
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
