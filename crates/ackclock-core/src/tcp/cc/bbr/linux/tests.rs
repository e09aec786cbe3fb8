//! Tests of Linux's BBR (`super`): each rule against tcp_bbr.c's, the draws from the flow's
//! stream, recovery's packet conservation, ProbeRTT's application-limited mark and the
//! long-term (policer) estimate.

use super::*;
use crate::tcp::cc::{bbr::BbrParams, CcSetup, CongestionOps, Conn, Given};
use std::collections::BTreeMap;

fn linux_bbr() -> (Bbr, Window) {
    let mut b = Bbr::with(&BbrParams::default(), 10.0);
    b.set_linux(1448.0);
    let w = Window::new(10.0, f64::INFINITY, 1e9);
    (b, w)
}

#[test]
fn probe_bw_starts_in_a_random_phase_never_the_drain_one() {
    // bbr_reset_probe_bw_mode: cycle_idx = 8 - 1 - random(7), then advanced: phases 0 and
    // 2-7 alike, never phase 1 (3/4). Without a stream, the fixed start_phase (2).
    let (mut b, _) = linux_bbr();
    assert_eq!(b.probe_bw_start_phase(), 2);
    b.set_random(RandomStream::named(7, "flow.f1.cc"));
    let mut seen = [0u32; 8];
    for _ in 0..7000 {
        seen[b.probe_bw_start_phase()] += 1;
    }
    assert_eq!(seen[1], 0, "{seen:?}");
    for (phase, n) in seen.iter().enumerate().filter(|(p, _)| *p != 1) {
        assert!((850..1150).contains(n), "phase {phase}: {seen:?}");
    }
    // The draft's model (not Linux's) keeps its fixed phase.
    let mut draft = Bbr::with(&BbrParams::default(), 10.0);
    draft.set_random(RandomStream::named(7, "flow.f1.cc"));
    assert_eq!(draft.probe_bw_start_phase(), 2);
}

#[test]
fn entering_probe_bw_draws_the_phase_from_the_flows_stream() {
    // Through bbr_main's path (Startup, Drain, ProbeBW on ACKs): with a stream the phase
    // ProbeBW starts in varies with the stream; without, it is always start_phase.
    let first_phase = |rng: Option<RandomStream>| {
        let (mut b, mut w) = linux_bbr();
        if let Some(r) = rng {
            b.set_random(r);
        }
        let (mut t, mut delivered) = (0u64, 0);
        while b.mode != Mode::ProbeBw {
            t += 110_000_000_000;
            delivered += 10;
            let rs = sample(1000.0, b.next_round_delivered, 10, 0.1);
            b.linux_on_ack(&mut w, SimTime(t), &rs, delivered, 100, 0.1);
        }
        b.cycle_index
    };
    assert_eq!(first_phase(None), 2);
    let phases: std::collections::BTreeSet<usize> = (0..40)
        .map(|k| first_phase(Some(RandomStream::named(k, "flow.f1.cc"))))
        .collect();
    assert!(!phases.contains(&1) && phases.len() >= 5, "{phases:?}");
}

fn sample(rate: f64, prior: u64, delivered: u64, rtt: f64) -> RateSample {
    RateSample {
        delivery_rate: rate,
        prior_delivered: prior,
        delivered,
        rtt_s: rtt,
        ..RateSample::default()
    }
}

#[test]
fn startup_grows_by_the_connections_deliveries_not_the_samples() {
    // bbr_set_cwnd grows a cwnd at its target in Startup only while the connection has
    // delivered fewer than 10 segments (tp->delivered). The draft model tested the
    // sample's prior_delivered, 0 for a sample without a rate (a duplicate ACK), so every
    // such ACK grew cwnd.
    let (mut b, mut w) = linux_bbr();
    let t = SimTime(100_000_000_000);
    b.linux_on_ack(&mut w, t, &sample(100.0, 0, 2, 0.1), 2, 10, 0.1);
    w.cwnd = 40.0; // above the target (2.89 x 10 segments/s x 0.1 s, + the budget)
    let dup = sample(0.0, 0, 1, 0.0);
    b.linux_on_ack(&mut w, t, &dup, 500, 40, 0.1);
    assert_eq!(w.cwnd, 40.0);
    let (mut o, mut ow) = linux_bbr();
    o.linux = None;
    o.on_ack(&mut ow, t, &sample(100.0, 0, 2, 0.1), 2, 10, 0.1);
    ow.cwnd = 40.0;
    o.on_ack(&mut ow, t, &dup, 500, 40, 0.1);
    assert_eq!(ow.cwnd, 41.0, "the draft model's rule");
}

#[test]
fn a_flow_starting_late_does_not_probe_rtt_at_once() {
    // bbr_init stamps the min-RTT filter when the connection starts.
    let (mut b, mut w) = linux_bbr();
    let t = SimTime(30 * 1_000_000_000_000);
    b.linux_on_ack(&mut w, t, &sample(100.0, 0, 2, 0.1), 2, 10, 0.1);
    assert_ne!(b.mode, Mode::ProbeRtt);
    let (mut o, mut ow) = linux_bbr();
    o.linux = None;
    o.on_ack(&mut ow, t, &sample(100.0, 0, 2, 0.1), 2, 10, 0.1);
    assert_eq!(
        o.mode,
        Mode::ProbeRtt,
        "the draft model's stamp at 0 s expires"
    );
}

#[test]
fn an_equal_rtt_does_not_renew_the_linux_profiles_min_rtt() {
    // bbr_update_min_rtt renews the 10-s min_rtt window with a sample <= min_rtt_us. On
    // a real host no later sample equals the first minimum to the microsecond: every
    // Linux BBR flow on the testbed (27 runs, validation/linux) first entered ProbeRTT
    // 9.7-10.6 s after it started (12.9 s on one path), and every 10.2-10.4 s after. Here
    // the path repeats its minimum exactly; under the linux profile's default
    // (min_rtt_equal_renews 0) only a lower sample renews, so ProbeRTT comes 10 s after
    // the first sample; with the literal rule (1, the draft's and other profiles') it
    // never comes on a path whose RTT never changes.
    let first_probe_rtt = |given: &[(&str, f64)]| {
        let given: BTreeMap<String, f64> = given.iter().map(|&(k, v)| (k.to_string(), v)).collect();
        let setup = CcSetup {
            initial_window: 10.0,
            linux: true,
            mss: 1448.0,
            ..CcSetup::default()
        };
        let p = Given::<BbrParams>::check("bbr", "cc_params", &given)
            .unwrap()
            .resolve(setup.profile());
        let mut b = Bbr::new(&p, &setup);
        let mut w = Window::new(10.0, f64::INFINITY, 1e9);
        let (mut t, mut delivered) = (0u64, 0);
        while t < 25_000_000_000_000 {
            t += 110_000_000_000;
            delivered += 10;
            let rs = sample(1000.0, b.next_round_delivered, 10, 0.1);
            b.linux_on_ack(&mut w, SimTime(t), &rs, delivered, 100, 0.1);
            if b.mode == Mode::ProbeRtt {
                return Some(t as f64 * 1e-12);
            }
        }
        None
    };
    let at = first_probe_rtt(&[]).expect("ProbeRTT");
    assert!((10.0..10.25).contains(&at), "{at}");
    assert_eq!(first_probe_rtt(&[("min_rtt_equal_renews", 1.0)]), None);
    // A lower sample still renews: the draft's rule and Linux's agree there.
    let (mut b, mut w) = linux_bbr();
    b.equal_renews = false;
    b.linux_on_ack(&mut w, SimTime(1), &sample(100.0, 0, 2, 0.1), 2, 10, 0.1);
    let later = SimTime(5_000_000_000_000);
    b.linux_on_ack(&mut w, later, &sample(100.0, 0, 2, 0.099), 4, 10, 0.1);
    assert_eq!((b.rt_prop, b.rt_prop_stamp), (0.099, later));
}

#[test]
fn recovery_conserves_packets_then_restores_the_saved_cwnd() {
    // bbr_ssthresh saves cwnd; the first round of recovery sends what is delivered,
    // losses come off cwnd, and leaving recovery restores the saved window.
    let (mut b, mut w) = linux_bbr();
    let mut t = 0u64;
    let mut delivered = 0;
    for _ in 0..40 {
        t += 110_000_000_000;
        delivered += 10;
        let rs = sample(1000.0, b.next_round_delivered, 10, 0.1);
        b.linux_on_ack(&mut w, SimTime(t), &rs, delivered, 100, 0.1);
    }
    assert!(b.filled_pipe);
    let before = w.cwnd;
    b.save_cwnd(&w);
    b.set_ca_state(CaState::Recovery);
    let mut rs = sample(1000.0, delivered, 1, 0.1);
    rs.losses = 3;
    b.linux_on_ack(&mut w, SimTime(t + 1), &rs, delivered + 1, 50, 0.1);
    assert_eq!(w.cwnd, 51.0, "in flight + acknowledged");
    b.set_ca_state(CaState::Open);
    b.linux_on_ack(
        &mut w,
        SimTime(t + 2),
        &sample(1000.0, delivered, 1, 0.1),
        delivered + 2,
        50,
        0.1,
    );
    assert_eq!(w.cwnd, before);
}

/// A Linux BBR in ProbeBW after 60 rounds at 1000 segments/s, 100 ms; the time (ps)
/// and the connection's deliveries.
fn probing_bbr() -> (Bbr, Window, u64, u64) {
    let (mut b, mut w) = linux_bbr();
    let (mut t, mut delivered) = (0u64, 0);
    for _ in 0..60 {
        t += 110_000_000_000;
        delivered += 10;
        let rs = sample(1000.0, b.next_round_delivered, 10, 0.1);
        b.linux_on_ack(&mut w, SimTime(t), &rs, delivered, 100, 0.1);
    }
    assert_eq!(b.mode, Mode::ProbeBw);
    (b, w, t, delivered)
}

/// `n` rounds of 100 ms, each one ACK delivering `per_round` segments at `rate` and
/// marking `lost` segments lost (tp->lost grows by as much).
#[allow(clippy::too_many_arguments)]
fn lossy_rounds(
    b: &mut Bbr,
    w: &mut Window,
    t: &mut u64,
    delivered: &mut u64,
    lost_total: &mut u64,
    n: u32,
    per_round: u64,
    lost: u64,
    rate: f64,
) {
    for _ in 0..n {
        *t += 100_000_000_000;
        *delivered += per_round;
        *lost_total += lost;
        let mut rs = sample(rate, b.next_round_delivered, per_round, 0.1);
        rs.losses = lost;
        b.set_lost(*lost_total);
        b.linux_on_ack(w, SimTime(*t), &rs, *delivered, 100, 0.1);
    }
}

#[test]
fn probe_rtt_marks_what_is_in_flight_application_limited() {
    // bbr_update_min_rtt: on every ACK in ProbeRTT, tp->app_limited = tp->delivered +
    // what is in flight ("ignore low rate samples during this mode"), also on the ACK that
    // ends it; outside ProbeRTT BBR leaves it alone.
    let (mut b, mut w, mut t, mut delivered) = probing_bbr();
    b.equal_renews = false;
    assert!(!w.app_limited);
    let mut entered = false;
    while t < 25_000_000_000_000 {
        t += 110_000_000_000;
        delivered += 10;
        let rs = sample(1000.0, b.next_round_delivered, 10, 0.1);
        w.app_limited = false;
        b.linux_on_ack(&mut w, SimTime(t), &rs, delivered, 3, 0.1);
        if b.mode == Mode::ProbeRtt {
            entered = true;
            assert!(w.app_limited, "in ProbeRTT at {t}");
        } else if entered {
            assert!(w.app_limited, "the ACK that ends ProbeRTT at {t}");
            break;
        } else {
            assert!(!w.app_limited, "outside ProbeRTT at {t}");
        }
    }
    assert!(entered && b.mode == Mode::ProbeBw);
    w.app_limited = false;
    let rs = sample(1000.0, b.next_round_delivered, 10, 0.1);
    b.linux_on_ack(&mut w, SimTime(t + 1), &rs, delivered + 10, 3, 0.1);
    assert!(!w.app_limited);
}

#[test]
fn a_long_term_estimate_taken_in_startup_keeps_startups_gains() {
    // bbr_lt_bw_interval_done sets pacing_gain = BBR_UNIT, but bbr_update_gains, later in
    // the same bbr_update_model, sets Startup's high gain again on every ACK: only
    // ProbeBW paces at 1 while lt_bw is in use. A Startup whose bandwidth keeps growing
    // (25% a round) while 3 of 10 segments are lost takes lt_bw after two intervals.
    let (mut b, mut w) = linux_bbr();
    let (mut t, mut delivered, mut lost) = (0u64, 0u64, 0u64);
    let mut rate = 1000.0;
    for _ in 0..12 {
        t += 100_000_000_000;
        delivered += 10;
        lost += 3;
        rate *= 1.3;
        let mut rs = sample(rate, b.next_round_delivered, 10, 0.1);
        rs.losses = 3;
        b.set_lost(lost);
        b.linux_on_ack(&mut w, SimTime(t), &rs, delivered, 100, 0.1);
    }
    let lt = b.linux.as_ref().unwrap().lt;
    assert!(lt.use_bw && b.mode == Mode::Startup, "{lt:?} {:?}", b.mode);
    assert_eq!(b.pacing_gain, HIGH_GAIN);
    assert_eq!(b.cwnd_gain, HIGH_GAIN);
}

#[test]
fn two_lossy_intervals_at_one_rate_make_bbr_pace_at_their_mean() {
    // bbr_lt_bw_sampling: from the first loss, intervals of at least 4 rounds, each ended
    // by a loss; 3 of 10 segments lost (>= 50/256) at 100 segments/s in two intervals in
    // a row (within 1/8): BBR takes lt_bw = 100/s and paces at gain 1 (a policer).
    let (mut b, mut w, mut t, mut delivered) = probing_bbr();
    let mut lost = 0;
    // The first lossy ACK starts sampling (its round is the interval's first): its
    // fourth round ends the interval, four more the second.
    lossy_rounds(
        &mut b,
        &mut w,
        &mut t,
        &mut delivered,
        &mut lost,
        4,
        10,
        3,
        1000.0,
    );
    let lt = b.linux.as_ref().unwrap().lt;
    assert!(
        !lt.use_bw && (lt.bw - 100.0).abs() < 1e-9,
        "one interval: {lt:?}"
    );
    lossy_rounds(
        &mut b,
        &mut w,
        &mut t,
        &mut delivered,
        &mut lost,
        3,
        10,
        3,
        1000.0,
    );
    assert!(!b.linux.as_ref().unwrap().lt.use_bw);
    lossy_rounds(
        &mut b,
        &mut w,
        &mut t,
        &mut delivered,
        &mut lost,
        1,
        10,
        3,
        1000.0,
    );
    let lt = b.linux.as_ref().unwrap().lt;
    assert!(lt.use_bw, "{lt:?}");
    assert!((lt.bw - 100.0).abs() < 1e-9, "{lt:?}");
    assert_eq!(b.pacing_gain, 1.0);
    assert!(
        (b.pacing_rate - 0.99 * 100.0).abs() < 1e-9,
        "{}",
        b.pacing_rate
    );
    // The window's target follows lt_bw (2 x 100/s x 0.1 s, + the budget), far below the
    // 1000/s of the max filter: cwnd comes down to it.
    assert!(w.cwnd <= 40.0, "{}", w.cwnd);
    // 48 rounds of ProbeBW later the estimate is dropped and gain cycling restarts.
    lossy_rounds(
        &mut b,
        &mut w,
        &mut t,
        &mut delivered,
        &mut lost,
        47,
        10,
        0,
        1000.0,
    );
    assert!(b.linux.as_ref().unwrap().lt.use_bw);
    lossy_rounds(
        &mut b,
        &mut w,
        &mut t,
        &mut delivered,
        &mut lost,
        1,
        10,
        0,
        1000.0,
    );
    let lt = b.linux.as_ref().unwrap().lt;
    assert!(!lt.use_bw && !lt.sampling && lt.bw == 0.0, "{lt:?}");
}

#[test]
fn random_loss_below_a_fifth_or_changing_rates_are_no_policer() {
    // 1 of 10 lost (< 50/256): intervals never end; rates 100/s then 200/s: not within
    // 1/8 of each other, so the second becomes the first of a new pair.
    let (mut b, mut w, mut t, mut delivered) = probing_bbr();
    let mut lost = 0;
    lossy_rounds(
        &mut b,
        &mut w,
        &mut t,
        &mut delivered,
        &mut lost,
        40,
        10,
        1,
        1000.0,
    );
    assert!(!b.linux.as_ref().unwrap().lt.use_bw);
    let (mut b, mut w, mut t, mut delivered) = probing_bbr();
    lossy_rounds(
        &mut b,
        &mut w,
        &mut t,
        &mut delivered,
        &mut lost,
        4,
        10,
        3,
        1000.0,
    );
    lossy_rounds(
        &mut b,
        &mut w,
        &mut t,
        &mut delivered,
        &mut lost,
        4,
        20,
        6,
        1000.0,
    );
    let lt = b.linux.as_ref().unwrap().lt;
    assert!(!lt.use_bw && (lt.bw - 200.0).abs() < 1e-9, "{lt:?}");
    // An application-limited sample starts sampling over.
    let mut rs = sample(1000.0, b.next_round_delivered, 10, 0.1);
    rs.is_app_limited = true;
    b.linux_on_ack(&mut w, SimTime(t + 1), &rs, delivered + 10, 100, 0.1);
    let lt = b.linux.as_ref().unwrap().lt;
    assert!(!lt.sampling && lt.bw == 0.0, "{lt:?}");
}

#[test]
fn the_target_has_the_quantization_budget_and_pacing_its_margin() {
    // BDP 100 segments at 1000 segments/s and 100 ms; 1.45 MB/s pacing: a TSO goal of
    // 2 segments, so 2 BDP + 6, even; pacing at 99% of gain x bandwidth.
    let (b, w, _, _) = probing_bbr();
    let extra = if b.cycle_index == 0 { 2.0 } else { 0.0 };
    let aggr = b.aggregation_cwnd(b.linux.as_ref().unwrap());
    let target = (((200.0 + aggr + 6.0) as u64 + 1) & !1) as f64 + extra;
    assert_eq!(w.cwnd, target);
    assert!((b.pacing_rate - 0.99 * b.pacing_gain * 1000.0).abs() < 1e-9);
}

#[test]
fn the_min_rtt_filter_starts_from_the_handshakes_rtt() {
    // bbr_init: bbr->min_rtt_us = tcp_min_rtt(tp), the connection's minimum so far, which
    // after the handshake is the SYN's round trip (74-byte frames: on the testbed's 20 Mb/s,
    // 10 ms path Linux's `ss` shows minrtt 10.2 ms all run long where no data segment's RTT
    // is below 10.63 ms). A first data sample above it leaves it; a lower one replaces it.
    let conn = |min_rtt_s: f64| Conn {
        now: SimTime(20_000_000_000),
        delivered: 2,
        in_flight: 10,
        srtt_s: 0.0108,
        min_rtt_s,
        ..Conn::default()
    };
    let (mut b, mut w) = linux_bbr();
    b.cong_control(&mut w, &sample(1000.0, 0, 2, 0.0108), &conn(0.0102));
    assert_eq!(b.rt_prop, 0.0102);
    let (mut b, mut w) = linux_bbr();
    b.cong_control(&mut w, &sample(1000.0, 0, 2, 0.0098), &conn(0.0102));
    assert_eq!(b.rt_prop, 0.0098);
    // Without a handshake's sample (min_rtt_s 0) the first sample sets it.
    let (mut b, mut w) = linux_bbr();
    b.cong_control(&mut w, &sample(1000.0, 0, 2, 0.0108), &conn(0.0));
    assert_eq!(b.rt_prop, 0.0108);
    // Once started, the connection's minimum no longer reaches the filter (tcp_bbr.c reads
    // tcp_min_rtt only in bbr_init).
    b.cong_control(&mut w, &sample(1000.0, 2, 2, 0.0110), &conn(0.0050));
    assert_eq!(b.rt_prop, 0.0108);
}
