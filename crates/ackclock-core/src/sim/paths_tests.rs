//! Source routes (`net/source_routes.rs`) change nothing a run records: the same run with its
//! flows' paths, without them (every packet routed by the table at each node), and with the
//! table changed in the middle of the run (`Simulator::routes_changed`, packets on links
//! turned back to the table) gives the same counters. Child module of `sim`.

use crate::fixtures::{dumbbell, ns2_tcp};
use crate::monitor::{FlowCounters, QueueCounters};
use crate::net::source_routes::TABLE;
use crate::net::SourceRoutes;
use crate::scenario::{Routing, Scenario};
use crate::time::SimTime;
use crate::Simulator;

/// A dumbbell of 8 flows whose bottleneck r1 -> r2 is replaced by two paths through routers m1
/// and m2, the second slower, under ECMP: each flow's packets take one of the two by the flow's
/// hash, both ways.
fn two_bottlenecks() -> Scenario {
    let mut sc = dumbbell(8, 100e6, 1, 10e6, 10, 30, ns2_tcp(), 3);
    let (r1, r2) = (sc.links[0].from, sc.links[0].to);
    let m = sc.nodes.len() as u32;
    sc.nodes.extend(["m1".to_string(), "m2".to_string()]);
    let bottleneck = sc.links[0].clone();
    sc.links.drain(..2);
    for (mid, rate) in [(m, 10e6), (m + 1, 8e6)] {
        for (from, to) in [(r1, mid), (mid, r2), (r2, mid), (mid, r1)] {
            let mut l = bottleneck.clone();
            (l.from, l.to, l.rate_bps) = (from, to, rate);
            sc.links.push(l);
        }
    }
    sc.run.routing = Routing::Ecmp;
    sc
}

/// Every flow's and link's counters at the end of `sim`'s run.
fn record(mut sim: Simulator) -> (Vec<FlowCounters>, Vec<QueueCounters>, u64) {
    sim.run();
    let flows = (0..8)
        .map(|f| sim.flow_counters(f).expect("a flow"))
        .collect();
    let links = (0..sim.links.len())
        .map(|l| sim.queue_counters(l).expect("a link").0)
        .collect();
    (flows, links, sim.events())
}

#[test]
fn a_run_is_the_same_with_paths_without_them_and_with_the_table_changed() {
    let with = Simulator::new(two_bottlenecks()).expect("a run");
    assert!(!with.paths.is_empty(), "the flows have paths");
    let with = record(with);
    // Both ways through the middle carried data: the flows' paths differ.
    let n = with.1.len();
    assert!(with.1[n - 8].arrived_packets > 0 && with.1[n - 4].arrived_packets > 0);

    let mut table = Simulator::new(two_bottlenecks()).expect("a run");
    table.paths = SourceRoutes::default();
    assert_eq!(record(table), with);

    for static_table in [true, false] {
        let mut changed = Simulator::new(two_bottlenecks()).expect("a run");
        changed.run_until(SimTime(1_500_000_000_000));
        let on_links: usize = changed.links.iter().map(|l| l.ring_len()).sum();
        assert!(on_links > 0, "packets are on links when the table changes");
        changed.routes_changed(static_table);
        // The packets on links go by the table from here on; new ones take the new paths.
        for link in &mut changed.links {
            link.each_carried(|c| assert_ne!(c.route & TABLE, 0));
        }
        assert_eq!(!changed.paths.is_empty(), static_table);
        assert_eq!(record(changed), with);
    }
}
