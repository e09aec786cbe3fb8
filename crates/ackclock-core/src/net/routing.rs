//! Static shortest-path routing by hop count, as ns-2's default static routing computes it.
//!
//! Tables are built only for nodes that are some flow's destination (data or ACKs), one
//! breadth-first search per destination over the links reversed. Ties go to the link that
//! was declared first, so routes never depend on hash order.
//!
//! The table takes 4 bytes per node and destination (a 20 000-flow dumbbell: 6.4 GB); it is
//! allocated with `try_reserve_exact`, so a table that does not fit is an error naming its
//! size, not an abort of the process (the front end's memory estimate refuses it earlier).

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
    pub fn build(n: usize, links: &[Link], destinations: &[NodeId]) -> Result<Routes, String> {
        let mut incoming: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, l) in links.iter().enumerate() {
            incoming[l.to.idx()].push(i as u32);
        }
        let mut slot = vec![NONE; n];
        let mut order = Vec::new();
        for &dst in destinations {
            if slot[dst.idx()] == NONE {
                slot[dst.idx()] = order.len() as u32;
                order.push(dst);
            }
        }
        let slots = order.len();
        let entries = n
            .checked_mul(slots)
            .ok_or_else(|| format!("routing tables of {n} nodes x {slots} destinations"))?;
        let mut table: Vec<u32> = Vec::new();
        table.try_reserve_exact(entries).map_err(|_| {
            format!(
                "not enough memory for the routing tables: {n} nodes x {slots} destinations \
                 take {} bytes",
                entries as u128 * 4
            )
        })?;
        table.resize(entries, NONE);
        let mut seen = vec![false; n];
        let mut frontier = VecDeque::new();
        for (s, &dst) in order.iter().enumerate() {
            seen.iter_mut().for_each(|x| *x = false);
            seen[dst.idx()] = true;
            frontier.clear();
            frontier.push_back(dst.idx());
            while let Some(v) = frontier.pop_front() {
                for &li in &incoming[v] {
                    let u = links[li as usize].from.idx();
                    if !seen[u] {
                        seen[u] = true;
                        table[u * slots + s] = li;
                        frontier.push_back(u);
                    }
                }
            }
        }
        Ok(Routes {
            slots,
            slot,
            next: table,
        })
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
