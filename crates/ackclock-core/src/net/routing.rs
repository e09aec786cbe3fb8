//! Static shortest-path routing by hop count, as ns-2's default static routing computes it.
//!
//! Tables are built only for nodes that are some flow's destination (data or ACKs), one
//! breadth-first search per destination over the links reversed. Ties go to the link that
//! was declared first, so routes never depend on hash order.

use std::collections::VecDeque;

use crate::ids::{LinkId, NodeId};
use crate::net::Link;
use crate::time::SimDuration;

const NONE: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Routes {
    /// Number of destination slots.
    slots: usize,
    /// For each node, its slot among the destinations, or NONE.
    slot: Vec<u32>,
    /// next[node * slots + slot]: the link `node` forwards on toward the slot's destination.
    /// Node-major, so that a router's entries for all destinations share a few cache lines
    /// (with many flows, a destination-major table put every lookup on its own line).
    next: Vec<u32>,
}

impl Routes {
    pub fn build(n: usize, links: &[Link], destinations: &[NodeId]) -> Routes {
        let mut incoming: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, l) in links.iter().enumerate() {
            incoming[l.to.idx()].push(i as u32);
        }
        let mut slot = vec![NONE; n];
        let mut by_slot: Vec<Vec<u32>> = Vec::new();
        let mut frontier = VecDeque::new();
        for &dst in destinations {
            if slot[dst.idx()] != NONE {
                continue;
            }
            slot[dst.idx()] = by_slot.len() as u32;
            let mut next = vec![NONE; n];
            let mut seen = vec![false; n];
            seen[dst.idx()] = true;
            frontier.clear();
            frontier.push_back(dst.idx());
            while let Some(v) = frontier.pop_front() {
                for &li in &incoming[v] {
                    let u = links[li as usize].from.idx();
                    if !seen[u] {
                        seen[u] = true;
                        next[u] = li;
                        frontier.push_back(u);
                    }
                }
            }
            by_slot.push(next);
        }
        let slots = by_slot.len();
        let mut table = vec![NONE; n * slots];
        for (s, next) in by_slot.iter().enumerate() {
            for (u, &li) in next.iter().enumerate() {
                table[u * slots + s] = li;
            }
        }
        Routes {
            slots,
            slot,
            next: table,
        }
    }

    /// The link `at` forwards on toward `dst`; `None` if `dst` is unreachable from `at`.
    #[inline]
    pub fn next_hop(&self, at: NodeId, dst: NodeId) -> Option<LinkId> {
        let s = *self.slot.get(dst.idx())?;
        if s == NONE {
            return None;
        }
        let l = self.next[at.idx() * self.slots + s as usize];
        (l != NONE).then_some(LinkId(l))
    }

    /// The propagation delay along the route from `a` to `b` (zero without a route).
    pub fn path_delay(&self, a: NodeId, b: NodeId, links: &[Link]) -> SimDuration {
        let mut at = a;
        let mut total = SimDuration::ZERO;
        let mut hops = 0;
        while at != b && hops <= links.len() {
            let Some(l) = self.next_hop(at, b) else {
                return SimDuration::ZERO;
            };
            total = SimDuration(total.0 + links[l.idx()].delay.0);
            at = links[l.idx()].to;
            hops += 1;
        }
        total
    }
}
