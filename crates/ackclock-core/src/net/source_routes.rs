//! Source routes: each flow's path, computed once from the routing table, which its packets
//! follow by a hop index instead of asking the table at every node.
//!
//! As htsim does it (Broadcom/csg-htsim, `sim/network.cpp`, `Packet::sendOn`: a packet holds
//! its flow's `Route`, shared by all the flow's packets, and the index of its next hop). Here
//! the paths are not a second routing algorithm: a path is the sequence of links the table
//! ([`Routes::forward`]) gives hop by hop from the flow's source to its destination, with the
//! flow's own ECMP choice at each node (the hash is per flow and node, so the path is per
//! flow), so a packet that follows it crosses exactly the links the table would send it on,
//! as long as the table does not change. The simulator takes the paths away (every packet,
//! those in flight included, goes back to the table) whenever the table changes
//! (`Simulator::routes_changed`).
//!
//! A packet on a link carries its place in `links` ([`Carried::route`]): the index of the link
//! it is on; at the far node the next entry is its next link, or [`ARRIVED`] at its
//! destination. A packet whose flow has no path (its ends are not the flow's, the path could
//! not be walked, or the table changed) carries [`TABLE`] with its destination's node id,
//! and is routed by the table at every node as before.
//!
//! Memory is linear in the flows: one entry per link of each direction's path, one for its
//! end, the entries padded to a power of two, and 16 bytes per flow (a 10 000-flow dumbbell:
//! 3 hops each way, 80 000 entries in 131 072, 684 kB).
//!
//! A packet's place is read at every hop without a bounds check, proven once instead: `build`
//! checks every entry it keeps against the links (each is a link of the run or [`ARRIVED`]),
//! pads the entries with [`ARRIVED`] to a power of two and keeps that length's mask, and
//! [`SourceRoutes::link`] reads the entry at the place masked, which is in bounds whatever
//! the place is. A place on a path stays within it as a packet moves on (a path's last entry
//! is [`ARRIVED`], where the packet leaves the network); one that would not (a place kept
//! across `Simulator::routes_changed`, which rewrites them all) reads some entry of the table,
//! a misrouted packet but never memory outside it.

use crate::ids::{FlowId, NodeId};
use crate::net::{Carried, HopLink, Link, Routes};

/// In [`Carried::route`]: the packet is routed by the table; the rest is its destination.
pub const TABLE: u32 = 1 << 31;
/// In `links`: the end of a path (the packet is at its destination). Above every link id,
/// and not [`crate::net::routing::NO_ROUTE`]'s.
pub const ARRIVED: u32 = u32::MAX - 1;

/// A flow's two directions: from its source to its destination (its data) and back (its
/// ACKs).
#[derive(Clone, Copy, Debug)]
struct FlowPaths {
    /// The source's node id in the high half, the destination's in the low (one comparison
    /// per direction when a packet enters the network).
    ends: u64,
    /// Where each direction's path starts in `links`, or `TABLE | destination` without one.
    forth: u32,
    back: u32,
}

#[derive(Debug)]
pub struct SourceRoutes {
    flows: Vec<FlowPaths>,
    /// Every path's links, each path followed by [`ARRIVED`], then [`ARRIVED`] up to a power
    /// of two (at least one entry). Every entry is [`ARRIVED`] or a link `build` indexed its
    /// links with; set only by `build` and `default`.
    links: Box<[u32]>,
    /// `links.len() - 1`: any place masked with it indexes `links` in bounds.
    mask: u32,
    /// The entries in use (the paths' and their ends').
    used: u32,
}

impl Default for SourceRoutes {
    /// No paths: every packet goes by the table.
    fn default() -> Self {
        SourceRoutes {
            flows: Vec::new(),
            links: Box::new([ARRIVED]),
            mask: 0,
            used: 0,
        }
    }
}

impl SourceRoutes {
    /// The paths of flows `ends` (each flow's source and destination, by flow index), both
    /// ways, walked on `routes` (a direction the table does not route, such as a UDP flow's
    /// way back, has none).
    pub fn build(routes: &Routes, links: &[Link], ends: &[(NodeId, NodeId)]) -> Self {
        let mut walked = Walk {
            flows: Vec::with_capacity(ends.len()),
            links: Vec::new(),
        };
        for (i, &(a, b)) in ends.iter().enumerate() {
            let flow = FlowId(i as u32);
            let forth = walked.walk(routes, links, flow, a, b);
            let back = walked.walk(routes, links, flow, b, a);
            walked.flows.push(FlowPaths {
                ends: ends_key(a, b),
                forth,
                back,
            });
        }
        // `walk` keeps fewer than `TABLE` (2^31) entries, so the padded length is at most
        // 2^31 and its mask fits a place.
        let used = walked.links.len();
        let len = used.max(1).next_power_of_two();
        walked.links.resize(len, ARRIVED);
        SourceRoutes {
            flows: walked.flows,
            links: walked.links.into_boxed_slice(),
            mask: (len - 1) as u32,
            used: used as u32,
        }
    }

    /// The route a packet of `flow` from `src` to `dst` starts with: its flow's path in that
    /// direction, or the table.
    #[inline(always)]
    pub fn start(&self, flow: FlowId, src: NodeId, dst: NodeId) -> u32 {
        let key = ends_key(src, dst);
        match self.flows.get(flow.idx()) {
            Some(p) if p.ends == key => p.forth,
            Some(p) if p.ends == key.rotate_left(32) => p.back,
            _ => TABLE | dst.0,
        }
    }

    /// The link at `route` of a path (not [`TABLE`]): the packet's next link, or None at
    /// the path's end (the packet is at its destination). Every entry but [`ARRIVED`] is a
    /// link `build` indexed its links with, so it is a [`HopLink`] of the run.
    #[inline(always)]
    pub fn link(&self, route: u32) -> Option<HopLink> {
        debug_assert!(route < self.used, "a place on a path");
        let i = (route & self.mask) as usize;
        debug_assert!(i < self.links.len());
        // SAFETY: `i <= self.mask == self.links.len() - 1`. `build` and `default`, the only
        // places that set `links` and `mask`, set them together (a power-of-two length, at
        // least one, and that length minus one), and nothing resizes a boxed slice.
        let l = unsafe { *self.links.get_unchecked(i) };
        (l != ARRIVED).then_some(HopLink(l))
    }

    /// Whether no flow has a path (all go by the table).
    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// Bytes held (for benchmarks and tests of their size), the padding included.
    pub fn heap_bytes(&self) -> usize {
        self.flows.len() * std::mem::size_of::<FlowPaths>() + self.links.len() * 4
    }
}

/// The paths as `SourceRoutes::build` walks them, before their entries are padded.
struct Walk {
    flows: Vec<FlowPaths>,
    links: Vec<u32>,
}

impl Walk {
    /// Appends `flow`'s path from `from` to `to` and returns where it starts, or `TABLE | to`
    /// where the table has no route or sends the packet round a loop.
    fn walk(
        &mut self,
        routes: &Routes,
        links: &[Link],
        flow: FlowId,
        from: NodeId,
        to: NodeId,
    ) -> u32 {
        let start = self.links.len();
        let mut at = from;
        while at != to {
            let l = match routes.next_hop(at, to, flow) {
                Some(l) if l.0 < ARRIVED && self.links.len() - start < links.len() => l,
                _ => {
                    self.links.truncate(start);
                    return TABLE | to.0;
                }
            };
            // Indexed (checked) before it is kept: every entry is a link of `links`, which
            // is what lets `link` hand it out as a `HopLink`.
            at = links[l.idx()].to;
            self.links.push(l.0);
        }
        if start == self.links.len() || self.links.len() >= TABLE as usize {
            // No hop (a flow to its own node), or more path than a route index holds.
            self.links.truncate(start);
            return TABLE | to.0;
        }
        self.links.push(ARRIVED);
        start as u32
    }
}

/// `from` and `to` as [`FlowPaths::ends`] holds them.
#[inline(always)]
fn ends_key(from: NodeId, to: NodeId) -> u64 {
    (u64::from(from.0) << 32) | u64::from(to.0)
}

impl Carried {
    /// The packet's destination if it is routed by the table, None if it follows a path.
    #[inline(always)]
    pub fn table_dst(&self) -> Option<NodeId> {
        (self.route & TABLE != 0).then_some(NodeId(self.route & !TABLE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(from: u32, to: u32) -> Link {
        crate::fixtures::bare_link(from, to, 1e9)
    }

    /// The link ids of `n` path entries from `route` (None: the path's end).
    fn ids(s: &SourceRoutes, route: u32, n: u32) -> Vec<Option<u32>> {
        (route..route + n)
            .map(|r| s.link(r).map(|l| l.id().0))
            .collect()
    }

    /// Follows a route hop by hop as the simulator does, returning the links crossed.
    fn follow(
        s: &SourceRoutes,
        links: &[Link],
        routes: &Routes,
        flow: FlowId,
        src: NodeId,
        dst: NodeId,
    ) -> Vec<u32> {
        let mut out = Vec::new();
        let r = s.start(flow, src, dst);
        if r & TABLE != 0 {
            let mut at = src;
            while at != dst {
                let l = routes.forward(at, dst, flow);
                out.push(l.0);
                at = links[l.idx()].to;
            }
            return out;
        }
        let mut r = r;
        while let Some(l) = s.link(r) {
            out.push(l.id().0);
            r += 1;
        }
        out
    }

    /// A k = 4 fat-tree's worth of ECMP: two pods of two edge and two aggregation switches,
    /// two cores, a host under each edge switch. Every flow's path is the table's hop by
    /// hop, with its own ECMP choices, and flows spread over both cores.
    #[test]
    fn paths_are_the_tables_hops() {
        // 0..4 edge (pod A: 0, 1; pod B: 2, 3), 4..8 aggregation (A: 4, 5; B: 6, 7),
        // 8, 9 cores, hosts 10..14 under edges 0..4.
        let mut links = Vec::new();
        let mut both = |a: u32, b: u32| {
            links.push(link(a, b));
            links.push(link(b, a));
        };
        for (e, aggs) in [(0, [4, 5]), (1, [4, 5]), (2, [6, 7]), (3, [6, 7])] {
            for g in aggs {
                both(e, g);
            }
        }
        for g in 4..8 {
            for c in [8, 9] {
                both(g, c);
            }
        }
        for h in 0..4 {
            both(10 + h, h);
        }
        let mut ends = Vec::new();
        for f in 0..200u32 {
            let a = 10 + f % 2;
            let b = 12 + (f / 2) % 2;
            ends.push((NodeId(a), NodeId(b)));
        }
        for ecmp in [false, true] {
            // Host 11 is no destination (as a UDP flow's source is not): flows from it have
            // no way back.
            let dests = [NodeId(10), NodeId(12), NodeId(13)];
            let routes = Routes::build(14, &links, &dests, ecmp).expect("tables");
            let s = SourceRoutes::build(&routes, &links, &ends);
            let mut cores = [0u32; 2];
            for (f, &(a, b)) in ends.iter().enumerate() {
                let flow = FlowId(f as u32);
                let back = a == NodeId(10);
                let mut dirs = vec![(a, b)];
                if back {
                    dirs.push((b, a));
                }
                for (src, dst) in dirs {
                    assert_eq!(s.start(flow, src, dst) & TABLE, 0, "flow {f} has a path");
                    let mut want = Vec::new();
                    let mut at = src;
                    while at != dst {
                        let l = routes.forward(at, dst, flow);
                        want.push(l.0);
                        at = links[l.idx()].to;
                    }
                    let got = follow(&s, &links, &routes, flow, src, dst);
                    assert_eq!(got, want, "flow {f}: {src:?} -> {dst:?}");
                    assert_eq!(want.len(), 6);
                    cores[links[want[2] as usize].to.idx() - 8] += 1;
                }
                // The way back of a flow without one, and ends that are not the flow's, go
                // by the table.
                if !back {
                    assert_eq!(s.start(flow, b, a), TABLE | a.0);
                }
                assert_eq!(s.start(flow, a, NodeId(0)), TABLE);
            }
            assert_eq!(
                s.start(FlowId(ends.len() as u32), NodeId(10), NodeId(12)),
                TABLE | 12
            );
            if ecmp {
                assert!(cores.iter().all(|&c| c > 80), "{cores:?}");
            } else {
                assert_eq!(cores[1], 0);
            }
        }
    }

    /// A flow whose destination the table cannot reach, and one to its own node, have no
    /// path.
    #[test]
    fn no_path_without_a_route() {
        let links = vec![link(0, 1), link(1, 0), link(2, 1)];
        let dests = [NodeId(0), NodeId(1), NodeId(2)];
        let routes = Routes::build(3, &links, &dests, false).expect("tables");
        let s = SourceRoutes::build(
            &routes,
            &links,
            &[
                (NodeId(0), NodeId(2)),
                (NodeId(1), NodeId(1)),
                (NodeId(0), NodeId(1)),
            ],
        );
        assert_eq!(s.start(FlowId(0), NodeId(0), NodeId(2)), TABLE | 2);
        let r = s.start(FlowId(0), NodeId(2), NodeId(0));
        assert_eq!(ids(&s, r, 3), [Some(2), Some(1), None]);
        assert_eq!(s.start(FlowId(1), NodeId(1), NodeId(1)), TABLE | 1);
        let r = s.start(FlowId(2), NodeId(0), NodeId(1));
        assert_eq!(ids(&s, r, 2), [Some(0), None]);
        let r = s.start(FlowId(2), NodeId(1), NodeId(0));
        assert_eq!(ids(&s, r, 2), [Some(1), None]);
        // 7 entries in use, padded to 8.
        assert_eq!(s.heap_bytes(), 3 * std::mem::size_of::<FlowPaths>() + 8 * 4);
        assert!(!s.is_empty() && SourceRoutes::default().is_empty());
        // What `link`'s unchecked read relies on: the mask is the length minus one, every
        // entry a link of the run or the end, the padding the end.
        for t in [&s, &SourceRoutes::default()] {
            assert!(t.links.len().is_power_of_two());
            assert_eq!(t.mask as usize, t.links.len() - 1);
            let of_the_run = |l: &u32| *l == ARRIVED || (*l as usize) < links.len();
            assert!(t.links.iter().all(of_the_run));
            assert!(t.links[t.used as usize..].iter().all(|&l| l == ARRIVED));
        }
    }
}
