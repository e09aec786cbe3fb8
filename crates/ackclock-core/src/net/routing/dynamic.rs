//! A routing table the host program writes entry by entry during the run: ns-2's node
//! classifiers under dynamic routing (`rtproto DV`), where each node's routing object installs
//! and removes routes as its protocols learn them (ns-2.35 tcl/rtglib/route-proto.tcl,
//! `rtObject instproc compute-routes`, through `Node instproc add-routes` / `delete-routes`).
//!
//! Every destination has a column of its own (no tree shared with an upstream router, as the
//! static tables do: a host's routes need not follow its router's here). An entry without a
//! route is ns-2's `nullAgent_` in the classifier slot: a packet forwarded there is dropped
//! silently, untraced ([`NO_ROUTE`]).

use super::{Dest, Routes, NONE};
use crate::ids::{LinkId, NodeId};

/// What [`Routes::forward`] returns for a node without a route toward the destination (ns-2's
/// null agent in the classifier slot): only a dynamic table has such entries.
pub const NO_ROUTE: LinkId = LinkId(NONE);

impl Routes {
    /// A table for `n` nodes without any route, to be filled by [`Routes::set_next_hop`].
    pub fn dynamic(n: usize) -> Routes {
        Routes {
            trees: n,
            dest: (0..n as u32)
                .map(|v| Dest {
                    tree: v,
                    via: NONE,
                    last: NONE,
                })
                .collect(),
            next: vec![NONE; n * n],
            groups: Vec::new(),
        }
    }

    /// Whether every destination has a column of its own (a table from [`Routes::dynamic`]).
    pub fn is_dynamic(&self) -> bool {
        self.trees == self.dest.len()
            && self
                .dest
                .iter()
                .enumerate()
                .all(|(i, d)| d.tree == i as u32 && d.via == NONE)
    }

    /// Node `at` forwards packets toward `dst` on `link` from now on (None: it drops them,
    /// ns-2's `delete-routes` installing the null agent). Only in a dynamic table.
    pub fn set_next_hop(
        &mut self,
        at: NodeId,
        dst: NodeId,
        link: Option<LinkId>,
    ) -> Result<(), String> {
        let n = self.dest.len();
        if !self.is_dynamic() {
            return Err("the routes are not dynamic".into());
        }
        if at.idx() >= n || dst.idx() >= n {
            return Err(format!("no node {} or {}", at.0, dst.0));
        }
        self.next[at.idx() * self.trees + dst.idx()] = link.map_or(NONE, |l| l.0);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::FlowId;

    #[test]
    fn an_empty_table_reaches_nothing_until_routes_are_set() {
        let mut r = Routes::dynamic(3);
        assert!(r.is_dynamic());
        assert!(!r.reaches(NodeId(0), NodeId(2)));
        assert_eq!(r.forward(NodeId(0), NodeId(2), FlowId(0)), NO_ROUTE);
        r.set_next_hop(NodeId(0), NodeId(2), Some(LinkId(4)))
            .unwrap();
        assert_eq!(r.forward(NodeId(0), NodeId(2), FlowId(7)), LinkId(4));
        assert_eq!(r.next_hop(NodeId(0), NodeId(2), FlowId(0)), Some(LinkId(4)));
        // Other nodes' entries toward the same destination are untouched.
        assert_eq!(r.next_hop(NodeId(1), NodeId(2), FlowId(0)), None);
        r.set_next_hop(NodeId(0), NodeId(2), None).unwrap();
        assert_eq!(r.forward(NodeId(0), NodeId(2), FlowId(0)), NO_ROUTE);
        assert!(r.set_next_hop(NodeId(3), NodeId(0), None).is_err());
    }

    #[test]
    fn a_static_table_refuses_entries() {
        let mut r = Routes::default();
        assert!(r
            .set_next_hop(NodeId(0), NodeId(0), Some(LinkId(0)))
            .is_err());
    }
}
