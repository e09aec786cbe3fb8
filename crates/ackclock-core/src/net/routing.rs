//! Static shortest-path routing by hop count, as ns-2's default static routing computes it.
//!
//! Routes toward a destination are one breadth-first search over the links reversed. Ties go
//! to the link that was declared first, so routes never depend on hash order.
//!
//! Memory and set-up stay linear in the network: a destination whose incoming links all come
//! from one node (a host on its access router, the usual case) shares that node's tree. The
//! search from such a host first reaches its router, by the host's first declared incoming
//! link, and then runs exactly as the search from the router does (the host is already seen,
//! and nothing else is reached through it, since its only neighbour upstream is the router):
//! so its routes are the router's tree with one exception, the router itself, which forwards
//! on that first link. One search per router then serves all its hosts: a 10 000-flow
//! dumbbell needs two trees instead of 20 000 (a table of 20 002 x 20 000 next hops, 1.6 GB,
//! and 20 000 searches, most of set-up), and a k = 16 fat-tree 128 (one per edge switch).
//!
//! With `ecmp`, a node forwards toward a destination on any of its links that lie on a
//! shortest path (equal-cost multipath) and picks one by a hash of the flow and the node
//! (a per-switch hash seed, so that choices at successive levels of a fat-tree are
//! independent; one hash for every switch would send all of an edge switch's flows to the
//! same fraction of the cores), as data-centre switches do (RFC 2992's hash-threshold
//! method, with the hash taken modulo the group size). A flow's packets all take one path.

use std::collections::{HashMap, VecDeque};

use crate::ids::{FlowId, LinkId, NodeId};
use crate::net::Link;
use crate::time::SimDuration;

mod dynamic;
mod ns2;

pub use dynamic::NO_ROUTE;

const NONE: u32 = u32::MAX;
/// In a table entry: the rest is an index into `groups` (ECMP), not a link.
const GROUP: u32 = 1 << 31;

/// How node `v` is reached as a destination.
#[derive(Clone, Copy, Debug)]
struct Dest {
    /// The tree (a column of `next`), or NONE when `v` is no destination.
    tree: u32,
    /// For a destination sharing its upstream node's tree: that node, which forwards on
    /// `last`; NONE otherwise.
    via: u32,
    last: u32,
}

#[derive(Debug, Default)]
pub struct Routes {
    /// Number of trees.
    trees: usize,
    dest: Vec<Dest>,
    /// next[node * trees + tree]: the link `node` forwards on toward the tree's root, NONE,
    /// or GROUP | the start of an ECMP group. Node-major, so that a router's entries for all
    /// trees share a few cache lines.
    next: Vec<u32>,
    /// ECMP groups: a length, then that many links.
    groups: Vec<u32>,
}

impl Routes {
    /// Routes toward every node in `destinations`, by single shortest paths (ties to the first
    /// declared link) or, with `ecmp`, over every shortest path.
    ///
    /// The table takes 4 bytes per node and tree; it is allocated with `try_reserve_exact`,
    /// so a table that does not fit is an error naming its size, not an abort of the process.
    pub fn build(
        n: usize,
        links: &[Link],
        destinations: &[NodeId],
        ecmp: bool,
    ) -> Result<Routes, String> {
        Self::build_with(n, links, destinations, ecmp, None)
    }

    /// Routes toward every node in `destinations` as ns-2.35's `RouteLogic::compute_routes`
    /// chooses them among equal hop counts (`ns2.rs`): from each source, the next hop of the
    /// lowest-numbered node on the way.
    pub fn build_ns2(n: usize, links: &[Link], destinations: &[NodeId]) -> Result<Routes, String> {
        Self::build_with(n, links, destinations, false, Some(None))
    }

    /// [`Routes::build_ns2`] with each link's cost (by link index; ns-2's `$ns cost`), as
    /// `RouteLogic::compute_routes` adds them up.
    pub fn build_ns2_costs(
        n: usize,
        links: &[Link],
        destinations: &[NodeId],
        costs: &[f64],
    ) -> Result<Routes, String> {
        if costs.len() != links.len() {
            return Err(format!(
                "{} link costs for {} links",
                costs.len(),
                links.len()
            ));
        }
        Self::build_with(n, links, destinations, false, Some(Some(costs)))
    }

    /// `ns2`: ns-2's order (`ns2.rs`), with the links' costs if given.
    fn build_with(
        n: usize,
        links: &[Link],
        destinations: &[NodeId],
        ecmp: bool,
        ns2: Option<Option<&[f64]>>,
    ) -> Result<Routes, String> {
        let mut incoming: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, l) in links.iter().enumerate() {
            incoming[l.to.idx()].push(i as u32);
        }
        let mut dest = vec![
            Dest {
                tree: NONE,
                via: NONE,
                last: NONE,
            };
            n
        ];
        // Each destination's tree root: itself, or its only upstream node.
        let mut roots: Vec<u32> = Vec::new();
        let mut tree_of = vec![NONE; n];
        for &d in destinations {
            let d = d.idx();
            if dest[d].tree != NONE {
                continue;
            }
            let via = match incoming[d].split_first() {
                Some((&first, rest)) => {
                    let up = links[first as usize].from.idx();
                    rest.iter()
                        .all(|&li| links[li as usize].from.idx() == up)
                        .then_some((up, first))
                }
                None => None,
            };
            let root = via.map_or(d, |(up, _)| up);
            if tree_of[root] == NONE {
                tree_of[root] = roots.len() as u32;
                roots.push(root as u32);
            }
            dest[d].tree = tree_of[root];
            if let Some((up, first)) = via {
                dest[d].via = up as u32;
                dest[d].last = first;
            }
        }
        let trees = roots.len();
        let entries = n
            .checked_mul(trees)
            .ok_or_else(|| format!("routing tables of {n} nodes x {trees} trees"))?;
        let mut next: Vec<u32> = Vec::new();
        next.try_reserve_exact(entries).map_err(|_| {
            format!(
                "not enough memory for the routing tables: {n} nodes x {trees} trees take {} \
                 bytes",
                entries as u128 * 4
            )
        })?;
        next.resize(entries, NONE);
        if let Some(costs) = ns2 {
            ns2::fill(n, links, costs, &roots, &mut next);
            return Ok(Routes {
                trees,
                dest,
                next,
                groups: Vec::new(),
            });
        }
        let mut groups = Vec::new();
        let mut seen = vec![false; n];
        let mut dist = vec![u32::MAX; n];
        let mut order = Vec::with_capacity(n);
        let mut frontier = VecDeque::new();
        let mut group = Vec::new();
        // Each distinct group once: a fat-tree switch has the same uplinks toward every tree
        // outside its own pod (k = 16: 2.4 MB of copies, read at random, against some 20 kB).
        let mut group_at: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut outgoing: Vec<Vec<u32>> = vec![Vec::new(); if ecmp { n } else { 0 }];
        if ecmp {
            for (i, l) in links.iter().enumerate() {
                outgoing[l.from.idx()].push(i as u32);
            }
        }
        for (t, &root) in roots.iter().enumerate() {
            let root = root as usize;
            seen.fill(false);
            seen[root] = true;
            dist.fill(u32::MAX);
            dist[root] = 0;
            order.clear();
            frontier.clear();
            frontier.push_back(root);
            while let Some(v) = frontier.pop_front() {
                order.push(v);
                for &li in &incoming[v] {
                    let u = links[li as usize].from.idx();
                    if !seen[u] {
                        seen[u] = true;
                        dist[u] = dist[v] + 1;
                        next[u * trees + t] = li;
                        frontier.push_back(u);
                    }
                }
            }
            if !ecmp {
                continue;
            }
            // Every link one step closer to the root, in declaration order.
            for &u in &order[1..] {
                group.clear();
                group.extend(
                    outgoing[u]
                        .iter()
                        .copied()
                        .filter(|&l| dist[links[l as usize].to.idx()].wrapping_add(1) == dist[u]),
                );
                if group.len() > 1 {
                    let at = match group_at.get(group.as_slice()) {
                        Some(&at) => at,
                        None => {
                            let at = groups.len() as u32;
                            groups.push(group.len() as u32);
                            groups.extend_from_slice(&group);
                            group_at.insert(group.clone(), at);
                            at
                        }
                    };
                    next[u * trees + t] = GROUP | at;
                }
            }
        }
        Ok(Routes {
            trees,
            dest,
            next,
            groups,
        })
    }

    /// The link `at` forwards `flow`'s packets on toward `dst` (`at` is not `dst`); `None`
    /// if `dst` is unreachable from `at`.
    pub fn next_hop(&self, at: NodeId, dst: NodeId, flow: FlowId) -> Option<LinkId> {
        let d = self.dest.get(dst.idx())?;
        if d.tree == NONE {
            return None;
        }
        let l = self.entry(at, d);
        if l < GROUP {
            return Some(LinkId(l));
        }
        (l != NONE).then(|| self.pick(l & !GROUP, at, flow))
    }

    /// The link `at` forwards a packet of `flow` on toward `dst`, on a route known to exist
    /// (checked for every flow when the run was built): the per-hop lookup. A dynamic table
    /// (`dynamic.rs`) may have none: [`NO_ROUTE`].
    #[inline]
    pub fn forward(&self, at: NodeId, dst: NodeId, flow: FlowId) -> LinkId {
        let l = self.entry(at, &self.dest[dst.idx()]);
        if l >= GROUP {
            return self.pick(l & !GROUP, at, flow);
        }
        LinkId(l)
    }

    /// The table entry for `at` toward destination `d`.
    #[inline(always)]
    fn entry(&self, at: NodeId, d: &Dest) -> u32 {
        // A select by mask, not a branch: which hop of a path is the last varies packet by
        // packet.
        let t = self.next[at.idx() * self.trees + d.tree as usize];
        let last = ((at.0 == d.via) as u32).wrapping_neg();
        (d.last & last) | (t & !last)
    }

    /// One link of the ECMP group at `start`, by a hash of the flow and the node.
    #[cold]
    #[inline(never)]
    fn pick(&self, start: u32, at: NodeId, flow: FlowId) -> LinkId {
        if start == !GROUP {
            // No route: only a dynamic table (`dynamic.rs`) has such entries on a flow's path.
            return NO_ROUTE;
        }
        let s = start as usize;
        let len = self.groups[s] as u64;
        let h = mix(((at.0 as u64) << 32) | flow.0 as u64);
        LinkId(self.groups[s + 1 + (h % len) as usize])
    }

    /// Whether `b` can be reached from `a` (a route exists and leads somewhere else).
    pub fn reaches(&self, a: NodeId, b: NodeId) -> bool {
        a != b && self.next_hop(a, b, FlowId(0)).is_some()
    }

    /// The propagation delay along `flow`'s route from `a` to `b` (zero without a route).
    pub fn path_delay(&self, a: NodeId, b: NodeId, flow: FlowId, links: &[Link]) -> SimDuration {
        let mut at = a;
        let mut total = SimDuration::ZERO;
        let mut hops = 0;
        while at != b && hops <= links.len() {
            let Some(l) = self.next_hop(at, b, flow) else {
                return SimDuration::ZERO;
            };
            total = SimDuration(total.0 + links[l.idx()].delay.0);
            at = links[l.idx()].to;
            hops += 1;
        }
        total
    }

    /// Bytes held by the tables (for benchmarks and tests of their size).
    pub fn heap_bytes(&self) -> usize {
        self.dest.len() * std::mem::size_of::<Dest>() + (self.next.len() + self.groups.len()) * 4
    }
}

/// SplitMix64's finaliser (Steele, Lea and Flood, OOPSLA 2014): a well-mixed 64-bit hash.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::{AnyQueue, DropTail};
    use crate::rng::RandomStream;
    use crate::time::Rate;

    fn link(from: usize, to: usize) -> Link {
        Link::new(
            NodeId(from as u32),
            NodeId(to as u32),
            Rate::from_bps_f64(1e9).expect("rate"),
            SimDuration(1 + from as u64),
            AnyQueue::DropTail(DropTail::with_limits(Some(10), None, false)),
        )
    }

    /// The full table, one search per destination (what routing was before trees were
    /// shared): the model every shared tree must agree with.
    fn model(n: usize, links: &[Link], dst: usize) -> Vec<u32> {
        let mut next = vec![NONE; n];
        let mut seen = vec![false; n];
        seen[dst] = true;
        let mut frontier = VecDeque::from([dst]);
        while let Some(v) = frontier.pop_front() {
            for (li, l) in links.iter().enumerate() {
                let u = l.from.idx();
                if l.to.idx() == v && !seen[u] {
                    seen[u] = true;
                    next[u] = li as u32;
                    frontier.push_back(u);
                }
            }
        }
        next
    }

    /// Random graphs of routers, with hosts hanging off them (one or two links up, some with
    /// parallel links to one router, some with a second router), against the full table.
    #[test]
    fn shared_trees_route_as_one_search_per_destination() {
        let mut rng = RandomStream::named(3, "routing");
        for round in 0..200 {
            let routers = 1 + rng.uniform_u64(0, 7) as usize;
            let hosts = rng.uniform_u64(0, 12) as usize;
            let n = routers + hosts;
            let mut links = Vec::new();
            for _ in 0..rng.uniform_u64(0, 3 * routers as u64) {
                let a = rng.uniform_u64(0, routers as u64 - 1) as usize;
                let b = rng.uniform_u64(0, routers as u64 - 1) as usize;
                if a != b {
                    links.push(link(a, b));
                    if rng.uniform_u64(0, 3) > 0 {
                        links.push(link(b, a));
                    }
                }
            }
            for h in routers..n {
                let r = rng.uniform_u64(0, routers as u64 - 1) as usize;
                let ups = 1 + rng.uniform_u64(0, 1);
                for _ in 0..ups {
                    links.push(link(h, r));
                    links.push(link(r, h));
                }
                if rng.uniform_u64(0, 4) == 0 {
                    let r2 = rng.uniform_u64(0, routers as u64 - 1) as usize;
                    links.push(link(r2, h));
                    links.push(link(h, r2));
                }
            }
            // Shuffle the declaration order a little: ties go to the first declared.
            for i in (1..links.len()).rev() {
                if rng.uniform_u64(0, 2) == 0 {
                    let j = rng.uniform_u64(0, i as u64) as usize;
                    links.swap(i, j);
                }
            }
            let dests: Vec<NodeId> = (0..n)
                .filter(|_| rng.uniform_u64(0, 2) > 0)
                .map(|v| NodeId(v as u32))
                .collect();
            let routes = Routes::build(n, &links, &dests, false).expect("tables");
            for &d in &dests {
                let want = model(n, &links, d.idx());
                for (at, &w) in want.iter().enumerate() {
                    if at == d.idx() {
                        assert!(!routes.reaches(d, d));
                        continue;
                    }
                    let got = routes.next_hop(NodeId(at as u32), d, FlowId(0));
                    assert_eq!(got.map_or(NONE, |l| l.0), w, "round {round}: {at} -> {d:?}");
                    assert_eq!(routes.reaches(NodeId(at as u32), d), w != NONE);
                }
            }
        }
    }

    /// A two-level fat-tree pod (k = 4): each edge switch reaches another pod's hosts over
    /// both aggregation switches, and flows spread over both; without ECMP, all take the first.
    #[test]
    fn ecmp_spreads_flows_over_every_shortest_path() {
        // Nodes: 0, 1 edge switches (pod A), 2, 3 aggregation, 4 edge switch (pod B), 5 host
        // under 4; each edge switch links to both aggregation switches.
        let mut links = Vec::new();
        for e in [0, 1, 4] {
            for a in [2, 3] {
                links.push(link(e, a));
                links.push(link(a, e));
            }
        }
        links.push(link(4, 5));
        links.push(link(5, 4));
        let dests = [NodeId(5)];
        let single = Routes::build(6, &links, &dests, false).expect("tables");
        let ecmp = Routes::build(6, &links, &dests, true).expect("tables");
        let mut used = [0u32; 2];
        for f in 0..1000 {
            let l = ecmp
                .next_hop(NodeId(0), NodeId(5), FlowId(f))
                .expect("route");
            assert_eq!(links[l.idx()].from, NodeId(0));
            used[links[l.idx()].to.idx() - 2] += 1;
            // A flow's packets all take one path.
            assert_eq!(ecmp.next_hop(NodeId(0), NodeId(5), FlowId(f)), Some(l));
            assert_eq!(
                single
                    .next_hop(NodeId(0), NodeId(5), FlowId(f))
                    .map(|l| l.0),
                Some(0)
            );
        }
        assert!(used.iter().all(|&u| (400..600).contains(&u)), "{used:?}");
        // Delays are 1 + the sending node: 0 -> aggregation a -> 4 -> 5.
        let l = ecmp
            .next_hop(NodeId(0), NodeId(5), FlowId(7))
            .expect("route");
        let a = links[l.idx()].to.0 as u64;
        assert_eq!(
            ecmp.path_delay(NodeId(0), NodeId(5), FlowId(7), &links),
            SimDuration(1 + (1 + a) + 5)
        );
    }

    /// A switch's group of uplinks is stored once, however many trees route over it: two
    /// pods of two edge switches, a host under each of pod B's, so that pod A's edge switches
    /// reach two trees over the same two aggregation switches.
    #[test]
    fn equal_groups_are_stored_once() {
        // 0, 1: pod A's edge switches; 2, 3: aggregation; 4, 7: pod B's edge switches, with
        // hosts 5 (under 4) and 6 (under 7).
        let mut links = Vec::new();
        for e in [0, 1, 4, 7] {
            for a in [2, 3] {
                links.push(link(e, a));
                links.push(link(a, e));
            }
        }
        for (e, h) in [(4, 5), (7, 6)] {
            links.push(link(e, h));
            links.push(link(h, e));
        }
        let dests = [NodeId(5), NodeId(6)];
        let routes = Routes::build(8, &links, &dests, true).expect("tables");
        assert_eq!(routes.trees, 2);
        // Edge switches 0 and 1 each have one group of two uplinks (length and two links),
        // shared by both trees; 4 and 7 each reach the other's host over both aggregation
        // switches: four groups in all, not eight.
        assert_eq!(routes.groups.len(), 4 * 3);
        for f in 0..100 {
            let to5 = routes.next_hop(NodeId(0), NodeId(5), FlowId(f));
            assert_eq!(to5, routes.next_hop(NodeId(0), NodeId(6), FlowId(f)));
            assert_eq!(links[to5.expect("route").idx()].from, NodeId(0));
        }
    }
}
