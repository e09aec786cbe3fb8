//! The invariant checker and the resource guards (see `src/sim/invariants.rs`).
#![cfg_attr(feature = "inject-accounting-bug", allow(unused_imports))]
//!
//! `cargo test --features inject-accounting-bug --test invariants` also runs the test that a
//! deliberately broken counter is caught.

mod common;

use ackclock_core::scenario::{AppConfig, Distribution, FlowConfig, FlowKind, Scenario};
use ackclock_core::sim::StopReason;
use ackclock_core::Simulator;
#[cfg(not(feature = "inject-accounting-bug"))]
use common::QUEUE_KINDS;
use common::{congested, MS, S};

fn run(sc: Scenario) -> Simulator {
    let mut sim = Simulator::new(sc).expect("valid scenario");
    sim.run();
    sim
}

#[test]
#[cfg(not(feature = "inject-accounting-bug"))]
fn every_queue_kind_keeps_every_invariant_under_congestion_and_loss() {
    for kind in 0..QUEUE_KINDS {
        let sim = run(congested(kind));
        assert_eq!(sim.stop_reason(), None, "queue kind {kind}");
        assert!(sim.checking());
        // Checks ran during the run, not only at its end.
        assert!(sim.invariant_checks() >= 3, "{}", sim.invariant_checks());
        let r = sim.results().expect("finished");
        let dropped: u64 = r.queues.u64_column("dropped_packets").unwrap().iter().sum();
        let lost: u64 = r.queues.u64_column("lost_packets").unwrap().iter().sum();
        assert!(
            dropped > 0 && lost > 0,
            "kind {kind}: the scenario must drop ({dropped}) and lose ({lost}) packets"
        );
    }
}

#[test]
fn checker_is_on_in_debug_builds_and_with_run_check() {
    let mut sc = congested(0);
    sc.run.check = false;
    let sim = Simulator::new(sc).unwrap();
    assert_eq!(sim.checking(), cfg!(debug_assertions));
    let mut sc = congested(0);
    sc.run.check = true;
    assert!(Simulator::new(sc).unwrap().checking());
}

/// The test the issue asks for: a counter broken on purpose is caught, with the time and
/// the component.
#[test]
#[cfg(feature = "inject-accounting-bug")]
fn an_injected_accounting_bug_is_caught() {
    let sim = run(congested(0));
    let Some(StopReason::Invariant(v)) = sim.stop_reason() else {
        panic!("the bug went unnoticed: {:?}", sim.stop_reason());
    };
    assert_eq!(v.component, "link r1->r2", "{v}");
    assert!(v.message.starts_with("packet conservation"), "{v}");
    // Against the deliveries the checker counts itself: the link derives its own from its
    // arrivals and drops, so by its numbers alone the missing drops would balance.
    assert!(v.message.contains("(counted by the checker)"), "{v}");
    // Caught during the run (by a periodic check), not only at its end.
    assert!(v.at.0 < 5 * S, "{v}");
    assert!(sim.results().is_none());
    let text = v.to_string();
    assert!(text.starts_with("invariant violated at t="), "{text}");
}

#[test]
#[cfg(not(feature = "inject-accounting-bug"))]
fn max_events_stops_the_run_cleanly() {
    let mut sc = congested(0);
    sc.run.max_events = Some(10_000);
    let sim = run(sc);
    assert_eq!(sim.events(), 10_000);
    assert!(sim.now().0 < 5 * S);
    assert!(sim.results().is_none());
    let Some(StopReason::Limit { key, message }) = sim.stop_reason() else {
        panic!("{:?}", sim.stop_reason());
    };
    assert_eq!(*key, "run.max_events");
    assert!(message.contains("10000 events"), "{message}");
}

/// A CBR source at twice the rate of a link with an unlimited queue: the backlog grows
/// without bound until the memory guard stops the run.
#[test]
#[cfg(not(feature = "inject-accounting-bug"))]
fn an_unbounded_backlog_is_stopped_by_the_packet_guard() {
    let mut sc = congested(0);
    for l in &mut sc.links {
        l.queue.limit_packets = None;
        l.loss = None;
    }
    sc.flows = vec![FlowConfig {
        tcp_table: None,
        ns2_boot_time_ps: None,
        tfrc: None,
        rap: None,
        connection: None,
        name: "flood".into(),
        kind: FlowKind::Udp,
        from: 2,
        to: 3,
        tcp: None,
        header_size: 28,
        fid: None,
        priority: 0,
        ports: None,
        trace: vec![],
        app: AppConfig::Cbr {
            start: Distribution::Constant(0),
            stop_ps: None,
            // 500 B every 0.2 ms = 20 Mb/s into 10 Mb/s.
            interval_ps: MS / 5,
            packet_size: 472,
            random: false,
            after_connect: false,
            restart_every_ps: None,
        },
    }];
    sc.run.duration_ps = 1000 * S;
    sc.run.max_packets = Some(20_000);
    let sim = run(sc);
    let Some(StopReason::Limit { key, message }) = sim.stop_reason() else {
        panic!("{:?}", sim.stop_reason());
    };
    assert_eq!(*key, "run.max_packets");
    assert!(message.contains("link r1->r2"), "{message}");
    // Stopped soon after the limit was passed (the guard runs every 65536 events).
    assert!(sim.now().0 < 200 * S, "{}", sim.now().0);
}

#[test]
#[cfg(not(feature = "inject-accounting-bug"))]
fn a_stopped_run_does_not_resume() {
    let mut sc = congested(0);
    sc.run.max_events = Some(1000);
    let mut sim = run(sc);
    let now = sim.now();
    sim.run();
    assert_eq!(sim.now(), now);
    assert_eq!(sim.events(), 1000);
}
