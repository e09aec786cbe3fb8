//! Static routes as ns-2.35 computes them (routing/route.cc `RouteLogic::compute_routes`):
//! for each source `k`, a Dijkstra search over the links, each of its cost (`$ns cost`, 1
//! unless set; the adjacency matrix holds one cost per ordered pair of nodes, `insert`), that
//! takes, among the nodes not yet reached at the least distance, the lowest-numbered first
//! (its scan keeps the first minimum, `hopcnt[w] < hopcnt[o]`), and gives a node the first hop
//! of the node it was last given a shorter distance from (the relaxation takes a strictly
//! shorter distance only, so of equal ones the first stays). With costs of one this is a
//! breadth-first search whose every level is taken in ascending node order; with other costs
//! a heap ordered by (distance, node) takes the nodes in the scan's order.
//!
//! That order decides between paths of equal hop count, where the engine's default (one
//! search per destination, ties to the first declared link) can choose another: from node 1
//! toward 4 over 1-2-4 and 1-3-4, ns-2 forwards to 2 whichever link was declared first.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::NONE;
use crate::net::Link;

/// Fills `next[node * trees + tree]` with the link `node` forwards on toward the tree's root
/// (`roots[tree]`), NONE where the root is unreachable or is `node` itself. `costs`: each
/// link's cost, by link index (None: all 1).
pub(super) fn fill(
    n: usize,
    links: &[Link],
    costs: Option<&[f64]>,
    roots: &[u32],
    next: &mut [u32],
) {
    let trees = roots.len();
    if trees == 0 {
        return;
    }
    // Each node's links out, one per neighbour (ns-2's adjacency matrix holds one link per
    // ordered pair; the first declared here, where a scenario declares two).
    let mut outgoing: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    for (i, l) in links.iter().enumerate() {
        let (from, to) = (l.from.idx(), l.to.0);
        if l.from.0 != to && !outgoing[from].iter().any(|&(v, _)| v == to) {
            outgoing[from].push((to, i as u32));
        }
    }
    if let Some(costs) = costs {
        fill_costs(n, &outgoing, costs, roots, next);
        return;
    }
    let mut m = Marks::new(n, roots);
    let mut level: Vec<u32> = Vec::new();
    let mut below: Vec<u32> = Vec::new();
    for k in 0..n {
        m.start(k);
        level.clear();
        'search: {
            if m.left == 0 {
                break 'search;
            }
            // The neighbours first (ROUTE(k, v) = v), then level by level.
            for &(v, li) in &outgoing[k] {
                if !m.seen(v as usize) && !m.reach(v as usize, li, &mut level) {
                    break 'search;
                }
            }
            while !level.is_empty() {
                level.sort_unstable();
                below.clear();
                for &o in &level {
                    for &(w, _) in &outgoing[o as usize] {
                        if !m.seen(w as usize)
                            && !m.reach(w as usize, m.first[o as usize], &mut below)
                        {
                            break 'search;
                        }
                    }
                }
                std::mem::swap(&mut level, &mut below);
            }
        }
        m.write(k, roots, &mut next[k * trees..(k + 1) * trees]);
    }
}

/// One source's search at a time: what it has reached and each node's first hop. A search
/// stops once it has every root, since what it reaches after that is never read (a
/// 10 000-flow dumbbell's 20 002 searches, two roots, would each walk every node); it marks
/// what it reaches with its own stamp (the source's number), so nothing is cleared between
/// searches.
struct Marks {
    /// Each node's tree if it is a root, else NONE.
    tree_at: Vec<u32>,
    /// The stamp of the last search that reached the node.
    seen: Vec<u32>,
    /// The first hop from the source toward the node (read where `seen`).
    first: Vec<u32>,
    stamp: u32,
    /// The number of roots (each a distinct node).
    trees: usize,
    /// Roots this search has still to reach.
    left: usize,
}

impl Marks {
    fn new(n: usize, roots: &[u32]) -> Marks {
        let mut tree_at = vec![NONE; n];
        for (t, &root) in roots.iter().enumerate() {
            tree_at[root as usize] = t as u32;
        }
        Marks {
            tree_at,
            seen: vec![NONE; n],
            first: vec![NONE; n],
            stamp: NONE,
            trees: roots.len(),
            left: 0,
        }
    }

    /// A new search from `k`, which is reached (with no first hop).
    fn start(&mut self, k: usize) {
        self.stamp = k as u32;
        self.left = self.trees;
        self.seen[k] = self.stamp;
        if self.tree_at[k] != NONE {
            self.left -= 1;
        }
    }

    fn seen(&self, w: usize) -> bool {
        self.seen[w] == self.stamp
    }

    /// Reaches `w` with first hop `hop` and puts it on `to`; false once every root is reached.
    fn reach(&mut self, w: usize, hop: u32, to: &mut Vec<u32>) -> bool {
        self.seen[w] = self.stamp;
        self.first[w] = hop;
        to.push(w as u32);
        if self.tree_at[w] != NONE {
            self.left -= 1;
        }
        self.left > 0
    }

    /// The source's row: each tree's first hop toward its root, NONE where the search did not
    /// reach it (or the root is the source).
    fn write(&self, k: usize, roots: &[u32], row: &mut [u32]) {
        for (slot, &root) in row.iter_mut().zip(roots) {
            let root = root as usize;
            *slot = if root != k && self.seen(root) {
                self.first[root]
            } else {
                NONE
            };
        }
    }
}

/// A distance and a node, ordered as `compute_routes`' scan picks: the least distance, then
/// the lowest node.
#[derive(Clone, Copy, PartialEq)]
struct Pick(f64, u32);

impl Eq for Pick {}

impl PartialOrd for Pick {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pick {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

/// `compute_routes` with link costs: from each source `k`, its neighbours at their link's
/// cost with themselves as first hop; then repeatedly the node not yet taken at the least
/// distance (the lowest-numbered of equals) is taken, and each node not yet taken that it
/// reaches at a strictly shorter distance gets that distance and its first hop. Distances
/// are sums of doubles in the order ns-2 adds them (`hopcnt[o] + ADJ(o, w)`).
fn fill_costs(
    n: usize,
    outgoing: &[Vec<(u32, u32)>],
    costs: &[f64],
    roots: &[u32],
    next: &mut [u32],
) {
    let trees = roots.len();
    let mut m = Marks::new(n, roots);
    let mut s = Costs {
        dist: vec![f64::INFINITY; n],
        taken: vec![NONE; n],
        heap: BinaryHeap::new(),
    };
    for k in 0..n {
        m.start(k);
        s.taken[k] = m.stamp;
        s.heap.clear();
        if m.left > 0 {
            for &(v, li) in &outgoing[k] {
                s.relax(&mut m, v as usize, costs[li as usize], li);
            }
        }
        while m.left > 0 {
            let Some(Reverse(Pick(d, o))) = s.heap.pop() else {
                break;
            };
            let o = o as usize;
            if s.taken[o] == m.stamp || d != s.dist[o] {
                continue; // taken already, or a distance since bettered
            }
            s.taken[o] = m.stamp;
            if m.tree_at[o] != NONE {
                m.left -= 1; // a root taken: its distance and first hop are final
            }
            for &(w, li) in &outgoing[o] {
                let hop = m.first[o];
                s.relax(&mut m, w as usize, d + costs[li as usize], hop);
            }
        }
        m.write(k, roots, &mut next[k * trees..(k + 1) * trees]);
    }
}

/// `fill_costs`' search beside its `Marks`: distances (read where reached), the stamp of the
/// search that took each node, and the nodes reached but not yet taken.
struct Costs {
    dist: Vec<f64>,
    taken: Vec<u32>,
    heap: BinaryHeap<Reverse<Pick>>,
}

impl Costs {
    /// `w` at distance `via` through first hop `hop`, if that is strictly shorter than its
    /// distance so far (infinite where not reached) and `w` is not taken.
    fn relax(&mut self, m: &mut Marks, w: usize, via: f64, hop: u32) {
        let known = if m.seen(w) {
            self.dist[w]
        } else {
            f64::INFINITY
        };
        if self.taken[w] != m.stamp && via < known {
            m.seen[w] = m.stamp;
            self.dist[w] = via;
            m.first[w] = hop;
            self.heap.push(Reverse(Pick(via, w as u32)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Routes;
    use crate::ids::{FlowId, NodeId};
    use crate::net::Link;

    fn link(from: u32, to: u32) -> Link {
        crate::fixtures::bare_link(from, to, 1e6)
    }

    fn duplex(pairs: &[(u32, u32)]) -> Vec<Link> {
        pairs
            .iter()
            .flat_map(|&(a, b)| [link(a, b), link(b, a)])
            .collect()
    }

    fn hop(r: &Routes, links: &[Link], at: u32, dst: u32) -> u32 {
        let l = r
            .next_hop(NodeId(at), NodeId(dst), FlowId(0))
            .expect("route");
        links[l.idx()].to.0
    }

    #[test]
    fn equal_hop_counts_go_by_the_lowest_numbered_node() {
        // 1-3 declared before 2-4: the engine's default goes 1 -> 3 -> 4 toward 4 (the first
        // declared link into 4 is 3's), ns-2 1 -> 2 -> 4 (2 is reached first from 1).
        let links = duplex(&[(0, 1), (1, 3), (1, 2), (3, 4), (2, 4)]);
        let dests: Vec<NodeId> = (0..5).map(NodeId).collect();
        let ns2 = Routes::build_ns2(5, &links, &dests).expect("tables");
        let first = Routes::build(5, &links, &dests, false).expect("tables");
        assert_eq!(hop(&ns2, &links, 1, 4), 2);
        assert_eq!(hop(&first, &links, 1, 4), 3);
        // Two levels out: 0 toward 4 through 1, then 2.
        assert_eq!(hop(&ns2, &links, 0, 4), 1);
        assert_eq!(hop(&ns2, &links, 4, 0), 2);
        // A node reached first from a higher-numbered node of the level before keeps the
        // lower one's hop: from 5, over 5-3 and 5-1, nodes 3 and 1 are level 1; 4 hangs off
        // both 3 and 2, 2 off 1 only: 4 is reached from 3 (visited after 1, but 1 does not
        // reach 4).
        let links = duplex(&[(5, 3), (5, 1), (1, 2), (3, 4), (2, 4)]);
        let dests: Vec<NodeId> = (0..6).map(NodeId).collect();
        let ns2 = Routes::build_ns2(6, &links, &dests).expect("tables");
        assert_eq!(hop(&ns2, &links, 5, 4), 3);
        assert_eq!(hop(&ns2, &links, 5, 2), 1);
        assert!(!ns2.reaches(NodeId(0), NodeId(5)));
    }

    /// Costs for `duplex` links: each pair's cost both ways, in pair order.
    fn both_ways(costs: &[f64]) -> Vec<f64> {
        costs.iter().flat_map(|&c| [c, c]).collect()
    }

    #[test]
    fn link_costs_choose_the_cheapest_path_with_ns2s_ties() {
        // A star around 0 with a direct 3-4 link of cost 5 (the others 1): 3 reaches 4
        // through 0 (cost 2), where by hop count it takes the direct link.
        let links = duplex(&[(0, 1), (0, 2), (0, 3), (0, 4), (3, 4)]);
        let dests: Vec<NodeId> = (0..5).map(NodeId).collect();
        let costs = both_ways(&[1.0, 1.0, 1.0, 1.0, 5.0]);
        let r = Routes::build_ns2_costs(5, &links, &dests, &costs).expect("tables");
        assert_eq!(hop(&r, &links, 3, 4), 0);
        assert_eq!(hop(&r, &links, 4, 3), 0);
        let hops = Routes::build_ns2(5, &links, &dests).expect("tables");
        assert_eq!(hop(&hops, &links, 3, 4), 4);
        // Equal costs over different nodes: 0-2 (1) then 2-3 (1), and 0-1 (1.5) then 1-3
        // (0.5). Node 2 is taken first (distance 1 < 1.5), reaching 3 at 2; node 1's way is
        // no shorter, so 3 keeps 2's first hop, although 1 is the lower-numbered.
        let links = duplex(&[(0, 1), (1, 3), (0, 2), (2, 3)]);
        let dests: Vec<NodeId> = (0..4).map(NodeId).collect();
        let costs = both_ways(&[1.5, 0.5, 1.0, 1.0]);
        let r = Routes::build_ns2_costs(4, &links, &dests, &costs).expect("tables");
        assert_eq!(hop(&r, &links, 0, 3), 2);
        // Equal distances and equal costs: the lower-numbered node goes first (1).
        let costs = both_ways(&[1.0, 1.0, 1.0, 1.0]);
        let r = Routes::build_ns2_costs(4, &links, &dests, &costs).expect("tables");
        assert_eq!(hop(&r, &links, 0, 3), 1);
        // A neighbour reached more cheaply through another node: 0-3 costs 3, 0-2-3 costs 2.
        let links = duplex(&[(0, 3), (0, 2), (2, 3)]);
        let costs = both_ways(&[3.0, 1.0, 1.0]);
        let r = Routes::build_ns2_costs(4, &links, &dests, &costs).expect("tables");
        assert_eq!(hop(&r, &links, 0, 3), 2);
        assert!(Routes::build_ns2_costs(4, &links, &dests, &costs[1..]).is_err());
    }

    #[test]
    fn costs_of_one_route_as_the_hop_count_search() {
        // Pseudo-random graphs: every table entry the same with all costs 1 as by hop count.
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rand = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m) as u32
        };
        for n in [5u32, 9, 17, 30] {
            let mut pairs = Vec::new();
            for _ in 0..2 * n {
                let (a, b) = (rand(n as u64), rand(n as u64));
                if a != b {
                    pairs.push((a, b));
                }
            }
            let links = duplex(&pairs);
            let dests: Vec<NodeId> = (0..n).map(NodeId).collect();
            let ones = vec![1.0; links.len()];
            let a = Routes::build_ns2(n as usize, &links, &dests).expect("tables");
            let b = Routes::build_ns2_costs(n as usize, &links, &dests, &ones).expect("tables");
            for at in 0..n {
                for dst in 0..n {
                    assert_eq!(
                        a.next_hop(NodeId(at), NodeId(dst), FlowId(0)),
                        b.next_hop(NodeId(at), NodeId(dst), FlowId(0)),
                        "n {n}: {at} -> {dst}"
                    );
                }
            }
        }
    }

    /// A search stops once it has every root: toward a few destinations the tables are those
    /// of searches that run on toward every node, by hop count and by cost, on random graphs
    /// (some not connected).
    #[test]
    fn searches_that_stop_at_their_last_root_route_as_whole_ones() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut rand = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m) as u32
        };
        for n in [6u32, 12, 25, 40, 60] {
            let mut pairs = Vec::new();
            for _ in 0..n + n / 2 {
                let (a, b) = (rand(n as u64), rand(n as u64));
                if a != b {
                    pairs.push((a, b));
                }
            }
            let links = duplex(&pairs);
            let costs: Vec<f64> = (0..links.len())
                .map(|_| 0.5 * f64::from(1 + rand(6)))
                .collect();
            let few: Vec<NodeId> = (0..3).map(|_| NodeId(rand(n as u64))).collect();
            let all: Vec<NodeId> = (0..n).map(NodeId).collect();
            let n = n as usize;
            let pairs_of_tables = [
                (
                    Routes::build_ns2(n, &links, &few),
                    Routes::build_ns2(n, &links, &all),
                ),
                (
                    Routes::build_ns2_costs(n, &links, &few, &costs),
                    Routes::build_ns2_costs(n, &links, &all, &costs),
                ),
            ];
            for (a, b) in pairs_of_tables {
                let (a, b) = (a.expect("tables"), b.expect("tables"));
                for at in 0..n as u32 {
                    for &dst in &few {
                        if NodeId(at) != dst {
                            assert_eq!(
                                a.next_hop(NodeId(at), dst, FlowId(0)),
                                b.next_hop(NodeId(at), dst, FlowId(0)),
                                "n {n}: {at} -> {dst:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_host_sharing_its_routers_tree_routes_as_its_own_search() {
        // Hosts 5 and 6 hang off router 2 and 4; a ring of routers 0-4 with two equal ways
        // from 0 toward 2 (0-1-2 and 0-3-2... via 4): every table entry as the per-source
        // search gives it when every node is its own tree.
        let mut pairs = vec![(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (2, 5), (4, 6)];
        pairs.push((1, 3));
        let links = duplex(&pairs);
        let hosts = [NodeId(5), NodeId(6)];
        let shared = Routes::build_ns2(7, &links, &hosts).expect("tables");
        let all: Vec<NodeId> = (0..7).map(NodeId).collect();
        let own = Routes::build_ns2(7, &links, &all).expect("tables");
        for at in 0..7 {
            for dst in [5, 6] {
                if at != dst {
                    assert_eq!(
                        shared.next_hop(NodeId(at), NodeId(dst), FlowId(0)),
                        own.next_hop(NodeId(at), NodeId(dst), FlowId(0)),
                        "{at} -> {dst}"
                    );
                }
            }
        }
    }
}
