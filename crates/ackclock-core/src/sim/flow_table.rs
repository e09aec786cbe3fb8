//! The simulator's per-flow tables (`flows`, `counters` and `monitor`, the last two entries
//! per flow), which grow together and never shrink, and [`FlowIdx`]: a flow's index checked
//! once against them, which a packet's handling then uses without a bounds check.
//!
//! A packet's ends index these tables by its flow id some fifteen times per data segment and
//! its ACK (`receive`, `deliver`, `sync_timers`, `send_pooled`, `enter`: issue 31's line
//! profile, `docs/performance.md` "A flow's index checked once"), each a load of the table's
//! length, a compare and a branch. The id is a field of the packet that agents and the host
//! write, so no type proves it; a `FlowIdx` is made from it once per arrival or departure,
//! checked, and carries that proof through the rest of that handling (the rule of
//! [`crate::net::HopLink`]).

use super::flow::Flow;
use crate::ids::FlowId;
use crate::monitor::{FlowCounters, FlowMonitor};
use std::ops::{Deref, DerefMut};

/// One of the per-flow tables: a `Vec` that only [`tables`] makes and only [`push_flow`]
/// grows, all three at once; it dereferences to a slice (checked indexing, iteration), which
/// cannot change its length.
#[derive(Debug)]
pub(super) struct FlowVec<T>(Vec<T>);

/// The tables of `flows`: each flow's entry, its counters at zero, and its two flow-monitor
/// directions (data at `2 f`, ACKs at `2 f + 1`) at zero.
pub(super) fn tables(
    flows: Vec<Flow>,
) -> (FlowVec<Flow>, FlowVec<FlowCounters>, FlowVec<FlowMonitor>) {
    let n = flows.len();
    (
        FlowVec(flows),
        FlowVec(vec![FlowCounters::default(); n]),
        FlowVec(vec![FlowMonitor::default(); 2 * n]),
    )
}

/// Adds a flow (its counters and monitors at zero) to the tables; returns its id.
pub(super) fn push_flow(
    flows: &mut FlowVec<Flow>,
    counters: &mut FlowVec<FlowCounters>,
    monitor: &mut FlowVec<FlowMonitor>,
    flow: Flow,
) -> FlowId {
    let f = FlowId(flows.0.len() as u32);
    flows.0.push(flow);
    counters.0.push(FlowCounters::default());
    monitor.0.push(FlowMonitor::default());
    monitor.0.push(FlowMonitor::default());
    f
}

/// The index of a flow of the run, known to be below the length of the simulator's `flows`
/// (hence of its `counters`, and half that of its `monitor`): made only by
/// [`FlowVec::idx`], checked. It is never stored: the simulator makes one from a packet's
/// flow id where the packet's handling starts and passes it down the calls of that handling
/// only, so it always indexes the tables it was checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FlowIdx(u32);

impl FlowIdx {
    #[inline(always)]
    pub(super) fn id(self) -> FlowId {
        FlowId(self.0)
    }
}

impl FlowVec<Flow> {
    /// `f` as a [`FlowIdx`]; panics, as the index it replaces did, if `f` is not a flow of
    /// the run.
    #[inline(always)]
    pub(super) fn idx(&self, f: FlowId) -> FlowIdx {
        assert!(f.idx() < self.0.len(), "no flow {}", f.0);
        FlowIdx(f.0)
    }
}

impl<T> FlowVec<T> {
    /// The entry of flow `f` (flows, counters), without a bounds check.
    #[inline(always)]
    pub(super) fn at(&mut self, f: FlowIdx) -> &mut T {
        debug_assert!((f.0 as usize) < self.0.len());
        // SAFETY: `f.0 < self.0.len()`. A `FlowIdx` is made only by `FlowVec::<Flow>::idx`,
        // which compares it with the length of the simulator's `flows`, and it is used only
        // on that simulator's tables, within the handling that made it (it is never stored);
        // the simulator's three tables are set once, at build, from one call of `tables`.
        // The tables' lengths are n, n and 2n for n flows: `tables` makes them so, `push_flow`
        // (the only way to grow them) adds 1, 1 and 2, and nothing shrinks them (the `Vec` is
        // private to this file; the tables are reached as slices). So `f.0 < n <=
        // self.0.len()` for each table, whenever it is used.
        unsafe { self.0.get_unchecked_mut(f.0 as usize) }
    }
}

impl FlowVec<FlowMonitor> {
    /// Flow `f`'s monitor of its data (`ack` false) or ACK direction, without a bounds check.
    #[inline(always)]
    pub(super) fn dir(&mut self, f: FlowIdx, ack: bool) -> &mut FlowMonitor {
        let i = 2 * f.0 as usize + usize::from(ack);
        debug_assert!(i < self.0.len());
        // SAFETY: as in `at`: `f.0 < n`, so `2 f.0 + 1 < 2 n`, the monitors' length.
        unsafe { self.0.get_unchecked_mut(i) }
    }
}

impl<T> Deref for FlowVec<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> DerefMut for FlowVec<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<'a, T> IntoIterator for &'a FlowVec<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut FlowVec<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::flow::Role;
    use crate::sim::tmix::idle_half;

    #[test]
    fn the_tables_grow_together_and_an_index_reaches_its_own_entries() {
        let (mut flows, mut counters, mut monitor) = tables(vec![idle_half(7, 0)]);
        assert_eq!((flows.len(), counters.len(), monitor.len()), (1, 1, 2));
        let f = push_flow(&mut flows, &mut counters, &mut monitor, idle_half(8, 1));
        assert_eq!(f, FlowId(1));
        assert_eq!((flows.len(), counters.len(), monitor.len()), (2, 2, 4));
        let i = flows.idx(f);
        assert_eq!(i.id(), f);
        assert_eq!(flows.at(i).role, Role::TmixHalf(8, 1));
        counters.at(i).packets_sent = 5;
        monitor.dir(i, true).lost = 3;
        assert_eq!((counters[0].packets_sent, counters[1].packets_sent), (0, 5));
        let lost: Vec<u64> = monitor.iter().map(|m| m.lost).collect();
        assert_eq!(lost, [0, 0, 0, 3]);
    }

    #[test]
    #[should_panic(expected = "no flow 2")]
    fn an_id_past_the_flows_is_refused() {
        let (flows, _, _) = tables(vec![idle_half(0, 0), idle_half(0, 1)]);
        flows.idx(FlowId(2));
    }
}
