//! Always-on counters for flows and queues.
//!
//! Counters are plain `Copy` structs that only ever grow; the measurement window
//! [warmup, duration] is the difference of two snapshots, so counting costs one add and
//! never a branch on the clock.

use std::ops::{Add, Sub};

/// Declares a counters struct once: its fields, each with how a difference of two snapshots
/// (`Sub`, the measurement window) and a sum (`Add`, flows summed) treat it, and from them
/// `NAMES` and `each`, which hand every count to the binding in one list:
/// - `sum`: a running count; the difference subtracts, the sum adds;
/// - `max`: a running maximum; the difference keeps the later snapshot's, the sum the larger;
/// - `level`: a current level (a backlog); the difference keeps the later snapshot's, the sum
///   adds;
/// - `first`: when something first happened (`Option<u64>`, ps); the difference keeps the
///   later snapshot's, the sum the earlier; not in `each` (the binding names its unit);
/// - `clock`: the time up to which integrals are counted (ps); the difference keeps the later
///   snapshot's, the sum the later; not in `each`.
///
/// The result tables name their columns themselves (some are derived: rates, means); the
/// test `every_counter_reaches_a_result_table` (tests/scenarios.rs) holds every counter to a
/// column.
macro_rules! counters {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$fmeta:meta])* $field:ident : $ty:ty => $how:ident,)*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl Sub for $name {
            type Output = $name;
            fn sub(self, o: $name) -> $name {
                $name { $($field: counters!(@sub $how, self.$field, o.$field),)* }
            }
        }

        impl Add for $name {
            type Output = $name;
            fn add(self, o: $name) -> $name {
                $name { $($field: counters!(@add $how, self.$field, o.$field),)* }
            }
        }

        impl $name {
            /// Every field's name, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($field),)*];

            /// Calls `f` with every count's name and value, in declaration order (`first`
            /// and `clock` fields left out).
            pub fn each(&self, mut f: impl FnMut(&'static str, u128)) {
                $(counters!(@each $how, f, stringify!($field), self.$field);)*
            }
        }
    };
    (@sub sum, $a:expr, $b:expr) => { $a - $b };
    (@sub $other:ident, $a:expr, $b:expr) => { $a };
    (@add sum, $a:expr, $b:expr) => { $a + $b };
    (@add level, $a:expr, $b:expr) => { $a + $b };
    (@add max, $a:expr, $b:expr) => { $a.max($b) };
    (@add clock, $a:expr, $b:expr) => { $a.max($b) };
    // `None` is not below a time: the earlier of two that are set, else the one set.
    (@add first, $a:expr, $b:expr) => {
        match ($a, $b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        }
    };
    (@each first, $f:ident, $name:expr, $v:expr) => {};
    (@each clock, $f:ident, $name:expr, $v:expr) => {};
    (@each $how:ident, $f:ident, $name:expr, $v:expr) => { $f($name, $v as u128) };
}

counters! {
    /// Per-flow counters. Data counts are the flow's data packets (TCP segments or UDP
    /// datagrams).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct FlowCounters {
        packets_sent: u64 => sum,
        /// Bytes on the wire (headers included) of the data packets sent.
        bytes_sent: u64 => sum,
        packets_retransmitted: u64 => sum,
        /// Data packets of this flow dropped anywhere in the network.
        packets_dropped: u64 => sum,
        /// Data packets arriving at the receiver, duplicates included.
        packets_received: u64 => sum,
        /// Wire bytes of those packets: the basis of throughput.
        bytes_received: u64 => sum,
        /// Application payload delivered in order: the basis of goodput.
        bytes_delivered: u64 => sum,
        acks_sent: u64 => sum,
        acks_dropped: u64 => sum,
        timeouts: u64 => sum,
        fast_retransmits: u64 => sum,
        rtt_samples: u64 => sum,
        rtt_sum_ps: u128 => sum,
        /// Window reductions in response to ECN-Echo (RFC 3168).
        ecn_reductions: u64 => sum,
        /// Time integral of the retransmission timeout before backoff (ns-2 `t_rtxcur_`), in
        /// ps x ps, over `rto_time_ps` of the flow's life: the time average seed 001 traces
        /// for T_0 of formula (6), whose (1 + 32 p^2) term applies the backoff itself.
        rto_area: u128 => sum,
        rto_time_ps: u64 => sum,
    }
}

counters! {
    /// Per-link-direction queue counters, as ns-2's queue monitor keeps them: an arrival when
    /// a packet reaches the queue, a departure when its transmission starts, a drop when the
    /// discipline refuses it. The areas are time integrals of the waiting backlog in
    /// packet-picoseconds and byte-picoseconds.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    // In the order a packet-hop touches them: a link keeps these in one cache line of its own
    // (see `net::link::Link`); the areas when it has a backlog; the rest rarely.
    #[repr(C)]
    pub struct QueueCounters {
        arrived_packets: u64 => sum,
        arrived_bytes: u64 => sum,
        departed_packets: u64 => sum,
        departed_bytes: u64 => sum,
        /// Packets that crossed the link (reached its far end): packet-hops.
        delivered_packets: u64 => sum,
        /// Largest backlog since the last reset (not a difference).
        max_queue_packets: u64 => max,
        area_packets: u128 => sum,
        area_bytes: u128 => sum,
        /// Queueing delay (transmission start - arrival) of the packets that departed.
        sojourn_sum_ps: u128 => sum,
        /// Largest sojourn since the last reset (not a difference, like `max_queue_packets`).
        max_sojourn_ps: u64 => max,
        dropped_packets: u64 => sum,
        dropped_bytes: u64 => sum,
        /// Packets lost by the link's loss model (not the queue's drops).
        lost_packets: u64 => sum,
        lost_bytes: u64 => sum,
        /// Packets the discipline marked CE instead of dropping (RFC 3168).
        marked_packets: u64 => sum,
    }
}

/// A log-linear histogram of durations in picoseconds: 16 sub-buckets per power of two, so a
/// quantile read from it is within 1/16 (6%) of the true value.
/// Only the buckets from the lowest to the highest value recorded are held (a link's queueing
/// delays span a few powers of two: a hundred buckets of the 976), allocated by the first
/// value: most links of a large topology never queue, and a fixed 8 KB array per link had been
/// most of the engine's memory (160 MB of the 10 000-flow dumbbell's host links).
#[derive(Clone, Debug, Default)]
pub struct Histogram {
    /// The first bucket held.
    first: u32,
    counts: Box<[u64]>,
}

impl Histogram {
    const SUB: u32 = 16;
    const BUCKETS: usize = 16 + 60 * 16;

    fn bucket(v: u64) -> usize {
        if v < Self::SUB as u64 {
            return v as usize;
        }
        let e = 63 - v.leading_zeros(); // >= 4
        let m = (v >> (e - 4)) & 15;
        (16 + (e - 4) * 16 + m as u32) as usize
    }

    /// The smallest value of bucket `i`.
    fn lower(i: usize) -> u64 {
        if i < 16 {
            return i as u64;
        }
        let e = (i as u32 - 16) / 16 + 4;
        let m = (i as u64 - 16) % 16;
        (16 + m) << (e - 4)
    }

    /// The count of bucket `i`, held from now on.
    #[inline]
    fn slot(&mut self, i: usize) -> &mut u64 {
        let k = i.wrapping_sub(self.first as usize);
        if k >= self.counts.len() {
            return self.widen(i);
        }
        &mut self.counts[k]
    }

    /// Holds bucket `i` too.
    #[cold]
    #[inline(never)]
    fn widen(&mut self, i: usize) -> &mut u64 {
        let mut counts = std::mem::take(&mut self.counts).into_vec();
        let first = self.first as usize;
        if counts.is_empty() {
            self.first = i as u32;
            counts.push(0);
        } else if i < first {
            counts.splice(0..0, std::iter::repeat_n(0, first - i));
            self.first = i as u32;
        } else {
            counts.resize(i + 1 - first, 0);
        }
        self.counts = counts.into_boxed_slice();
        &mut self.counts[i - self.first as usize]
    }

    /// Bucket `i`'s count.
    fn count(&self, i: usize) -> u64 {
        i.checked_sub(self.first as usize)
            .and_then(|k| self.counts.get(k))
            .copied()
            .unwrap_or(0)
    }

    #[inline]
    pub fn record(&mut self, v: u64) {
        *self.slot(Self::bucket(v)) += 1;
    }

    /// Records `n` values of `v`.
    pub fn record_n(&mut self, v: u64, n: u64) {
        if n > 0 {
            *self.slot(Self::bucket(v)) += n;
        }
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The counts since `earlier` was snapshotted from this histogram.
    pub fn since(&self, earlier: &Histogram) -> Histogram {
        let mut h = self.clone();
        for (k, c) in h.counts.iter_mut().enumerate() {
            *c -= earlier.count(self.first as usize + k);
        }
        h
    }

    /// The q-quantile (0..=1), as the middle of its bucket; None when empty.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let n = self.total();
        if n == 0 {
            return None;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (k, &c) in self.counts.iter().enumerate() {
            let i = self.first as usize + k;
            seen += c;
            if seen >= rank {
                let lo = Self::lower(i) as f64;
                let hi = if i + 1 < Self::BUCKETS {
                    Self::lower(i + 1) as f64
                } else {
                    lo
                };
                return Some(if i < 16 { lo } else { (lo + hi) / 2.0 });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The array is allocated by the first value; an empty histogram reads as empty, and
    /// differences against a snapshot taken before the first value are the counts.
    #[test]
    fn histogram_without_values_and_snapshots_before_the_first() {
        let empty = Histogram::default();
        assert_eq!(empty.total(), 0);
        assert_eq!(empty.quantile(0.5), None);
        let mut h = Histogram::default();
        h.record_n(7, 0);
        assert_eq!(h.total(), 0);
        let before = h.clone();
        h.record(3);
        h.record_n(40, 2);
        let d = h.since(&before);
        assert_eq!(d.total(), 3);
        assert_eq!(d.quantile(0.0), Some(3.0));
        assert_eq!(h.since(&h.clone()).total(), 0);
        assert_eq!(empty.since(&empty).total(), 0);
    }

    #[test]
    fn histogram_quantiles_are_within_a_sixteenth() {
        let mut h = Histogram::default();
        for v in 1..=100_000u64 {
            h.record(v * 1_000_000);
        }
        for q in [0.1, 0.5, 0.95, 0.99] {
            let got = h.quantile(q).unwrap();
            let exact = q * 100_000.0 * 1e6;
            assert!(
                (got - exact).abs() / exact < 1.0 / 16.0,
                "q {q}: {got} vs {exact}"
            );
        }
        assert_eq!(Histogram::lower(Histogram::bucket(12345)), 12288);
        assert!(Histogram::default().quantile(0.5).is_none());
    }
}

/// One direction of a flow as ns-3's FlowMonitor sees it: packets handed to the network by
/// the sending agent and arriving at the receiving one, with their one-way delays. Counted
/// over the whole run (not only the measurement window), as FlowMonitor does.
// Laid out by hand in two cache lines, one per end of the path (checked by a test below): the
// sender touches one line, the receiver the other and the times of the first. `first_tx` and
// `first_rx` are `NONE` until set rather than `Option`s, which would not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct FlowMonitor {
    /// Sum of |delay - previous delay| over consecutive arrivals (RFC 3393's IPDV, as
    /// FlowMonitor's jitterSum).
    pub jitter_sum_ps: u128,
    pub delay_sum_ps: u128,
    pub rx_packets: u64,
    pub rx_bytes: u64,
    pub last_delay_ps: u64,
    pub delay_max_ps: u64,
    pub tx_packets: u64,
    pub tx_bytes: u64,
    first_tx: u64,
    pub last_tx: u64,
    /// Packets dropped anywhere on the way.
    pub lost: u64,
    first_rx: u64,
    pub last_rx: u64,
}

impl Default for FlowMonitor {
    fn default() -> Self {
        FlowMonitor {
            jitter_sum_ps: 0,
            delay_sum_ps: 0,
            rx_packets: 0,
            rx_bytes: 0,
            last_delay_ps: 0,
            delay_max_ps: 0,
            tx_packets: 0,
            tx_bytes: 0,
            first_tx: Self::NONE,
            last_tx: 0,
            lost: 0,
            first_rx: Self::NONE,
            last_rx: 0,
        }
    }
}

impl FlowMonitor {
    /// `first_tx` or `first_rx` not yet set.
    const NONE: u64 = u64::MAX;

    /// When the first packet was sent (ps), if one was.
    pub fn first_tx(&self) -> Option<u64> {
        (self.first_tx != Self::NONE).then_some(self.first_tx)
    }

    /// When the first packet arrived (ps), if one did.
    pub fn first_rx(&self) -> Option<u64> {
        (self.first_rx != Self::NONE).then_some(self.first_rx)
    }

    #[inline(always)]
    pub fn sent(&mut self, now: crate::time::SimTime, size: u32) {
        self.tx_packets += 1;
        self.tx_bytes += size as u64;
        if self.first_tx == Self::NONE {
            self.first_tx = now.0;
        }
        self.last_tx = now.0;
    }

    /// Adds another direction's counts (a Tmix application's connections); the jitter of
    /// each stays its own, as FlowMonitor keeps one per 5-tuple.
    pub fn merge(&mut self, o: &FlowMonitor) {
        self.tx_packets += o.tx_packets;
        self.tx_bytes += o.tx_bytes;
        self.rx_packets += o.rx_packets;
        self.rx_bytes += o.rx_bytes;
        self.lost += o.lost;
        self.delay_sum_ps += o.delay_sum_ps;
        self.delay_max_ps = self.delay_max_ps.max(o.delay_max_ps);
        self.jitter_sum_ps += o.jitter_sum_ps;
        // NONE is the largest value, so the earlier of two times is their minimum.
        self.first_tx = self.first_tx.min(o.first_tx);
        self.first_rx = self.first_rx.min(o.first_rx);
        self.last_tx = self.last_tx.max(o.last_tx);
        self.last_rx = self.last_rx.max(o.last_rx);
    }

    #[inline(always)]
    pub fn received(&mut self, now: crate::time::SimTime, sent: crate::time::SimTime, size: u32) {
        let d = now.0.saturating_sub(sent.0);
        if self.rx_packets > 0 {
            self.jitter_sum_ps += d.abs_diff(self.last_delay_ps) as u128;
        }
        self.last_delay_ps = d;
        self.rx_packets += 1;
        self.rx_bytes += size as u64;
        self.delay_sum_ps += d as u128;
        self.delay_max_ps = self.delay_max_ps.max(d);
        if self.first_rx == Self::NONE {
            self.first_rx = now.0;
        }
        self.last_rx = now.0;
    }
}

counters! {
    /// One flow's share of a link direction's queue (ns-2 `makeflowmon Fid` attached to a
    /// link): what it offered, what left, what was dropped, and the time integrals of its
    /// waiting packets and bytes. Integrals advance only when this flow's backlog changes, so
    /// each event costs O(1) whatever the number of flows. A difference of two snapshots
    /// (the measurement window) keeps the later one's backlog.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct FlowQueueCounters {
        arrived_packets: u64 => sum,
        arrived_bytes: u64 => sum,
        departed_packets: u64 => sum,
        departed_bytes: u64 => sum,
        dropped_packets: u64 => sum,
        dropped_bytes: u64 => sum,
        /// Taken by the link's loss model after crossing it (ns-2's link-lossmodel drops).
        lost_packets: u64 => sum,
        lost_bytes: u64 => sum,
        /// Of the dropped, the early drops a discipline sent to their own target (RED's
        /// `early_drop_target`, ns-2's `epdrops_`/`ebdrops_` of a flow monitor attached with
        /// early-drop support); 0 on other links.
        early_dropped_packets: u64 => sum,
        early_dropped_bytes: u64 => sum,
        /// Of the departed, those carrying CE on an ECN-capable packet (ns-2's `pmarks_`),
        /// counted on links that keep ns-2's clock only (`net::link::ns2_clock`).
        departed_ce_packets: u64 => sum,
        /// Of the departed and the dropped, those sent at a Quick-Start rate (ns-2's
        /// `qs_pkts_`, `qs_bytes_`, `qs_drops_`; `tcp/sender/quick_start.rs`), counted on
        /// links that keep ns-2's clock only (departures) and at the queue (drops).
        departed_qs_packets: u64 => sum,
        departed_qs_bytes: u64 => sum,
        dropped_qs_packets: u64 => sum,
        /// On a link whose discipline holds its packets: the departed packets' time from
        /// their arrival at the link to their departure (ps), summed, and their number (ns-2's
        /// delay samples of a flow monitor's flows, `QueueMonitor::out`); 0 on other links.
        waited_ps: u128 => sum,
        waited_packets: u64 => sum,
        area_packets: u128 => sum,
        area_bytes: u128 => sum,
        backlog_packets: u64 => level,
        backlog_bytes: u64 => level,
        /// When the flow's first packet arrived (ps), if one has.
        first_arrival: Option<u64> => first,
        /// The integrals are counted up to this time (ps).
        since: u64 => clock,
    }
}

impl FlowQueueCounters {
    /// Brings the integrals up to `t` (ps).
    #[inline]
    pub fn integrate(&mut self, t: u64) {
        if t > self.since {
            let dt = (t - self.since) as u128;
            self.area_packets += dt * self.backlog_packets as u128;
            self.area_bytes += dt * self.backlog_bytes as u128;
            self.since = t;
        }
    }

    /// A packet of `size` bytes arrives at `t`; `waits`: it joins the backlog.
    pub fn arrive(&mut self, t: u64, size: u32, waits: bool) {
        self.integrate(t);
        self.first_arrival.get_or_insert(t);
        self.arrived_packets += 1;
        self.arrived_bytes += size as u64;
        if waits {
            self.backlog_packets += 1;
            self.backlog_bytes += size as u64;
        }
    }

    /// A packet starts transmission at `t`; `waited`: it was in the backlog.
    pub fn depart(&mut self, t: u64, size: u32, waited: bool) {
        self.integrate(t);
        self.departed_packets += 1;
        self.departed_bytes += size as u64;
        if waited {
            self.backlog_packets -= 1;
            self.backlog_bytes -= size as u64;
        }
    }

    /// A packet is dropped at `t`; `waited`: it was in the backlog.
    pub fn drop(&mut self, t: u64, size: u32, waited: bool) {
        self.integrate(t);
        self.dropped_packets += 1;
        self.dropped_bytes += size as u64;
        if waited {
            self.backlog_packets -= 1;
            self.backlog_bytes -= size as u64;
        }
    }

    /// A packet that crossed the link is taken by its loss model.
    pub fn lose(&mut self, size: u32) {
        self.lost_packets += 1;
        self.lost_bytes += size as u64;
    }
}

#[cfg(test)]
mod flow_queue_tests {
    use super::*;

    /// The measurement window's difference keeps the later snapshot's backlog, first arrival
    /// and clock; a sum adds backlogs and keeps the earliest first arrival.
    #[test]
    fn differences_and_sums_of_a_flows_queue_counters() {
        let mut a = FlowQueueCounters::default();
        a.arrive(10, 100, true);
        let early = a;
        a.arrive(20, 100, true);
        a.depart(30, 100, true);
        let d = a - early;
        assert_eq!((d.arrived_packets, d.departed_packets), (1, 1));
        assert_eq!(
            (d.backlog_packets, d.first_arrival, d.since),
            (1, Some(10), 30)
        );
        // One packet waiting from 10 to 20, two from 20 to 30.
        assert_eq!(d.area_packets, 30);
        let mut b = FlowQueueCounters::default();
        b.arrive(5, 50, false);
        let s = a + b;
        assert_eq!(
            (s.arrived_packets, s.first_arrival, s.backlog_packets),
            (3, Some(5), 1)
        );
        assert_eq!((FlowQueueCounters::default() + a).first_arrival, Some(10));
        let mut names = Vec::new();
        a.each(|n, _| names.push(n));
        assert_eq!(names.len(), FlowQueueCounters::NAMES.len() - 2);
        assert!(!names.contains(&"first_arrival") && !names.contains(&"since"));
    }
}

#[cfg(test)]
mod flow_monitor_tests {
    use super::*;
    use crate::time::SimTime;
    use std::mem::{align_of, offset_of, size_of};

    #[test]
    fn each_end_of_the_path_has_its_cache_line() {
        assert_eq!(
            (align_of::<FlowMonitor>(), size_of::<FlowMonitor>()),
            (64, 128)
        );
        let line = |at: usize| at / 64;
        for at in [
            offset_of!(FlowMonitor, jitter_sum_ps),
            offset_of!(FlowMonitor, delay_sum_ps),
            offset_of!(FlowMonitor, rx_packets),
            offset_of!(FlowMonitor, delay_max_ps),
        ] {
            assert_eq!(line(at), 0);
        }
        for at in [
            offset_of!(FlowMonitor, tx_packets),
            offset_of!(FlowMonitor, first_tx),
            offset_of!(FlowMonitor, last_tx),
            offset_of!(FlowMonitor, last_rx),
        ] {
            assert_eq!(line(at), 1);
        }
    }

    #[test]
    fn first_times_are_unset_until_a_packet_and_merge_to_the_earliest() {
        let mut a = FlowMonitor::default();
        assert_eq!((a.first_tx(), a.first_rx()), (None, None));
        a.sent(SimTime(7), 100);
        a.sent(SimTime(9), 100);
        a.received(SimTime(12), SimTime(7), 100);
        assert_eq!(
            (a.first_tx(), a.first_rx(), a.last_tx, a.last_rx),
            (Some(7), Some(12), 9, 12)
        );
        let mut b = FlowMonitor::default();
        b.sent(SimTime(3), 100);
        a.merge(&b);
        assert_eq!((a.first_tx(), a.first_rx()), (Some(3), Some(12)));
        let mut empty = FlowMonitor::default();
        empty.merge(&FlowMonitor::default());
        assert_eq!((empty.first_tx(), empty.first_rx()), (None, None));
    }
}

#[cfg(test)]
mod counters_tests {
    use super::*;

    /// The macro's list is the struct: every field named once, a difference of snapshots
    /// subtracts running counts and keeps running maxima from the later one, a sum adds counts
    /// and takes the larger maximum.
    #[test]
    fn counters_are_defined_once() {
        assert_eq!(FlowCounters::NAMES.len(), 16);
        assert_eq!(QueueCounters::NAMES.len(), 15);
        let a = QueueCounters {
            arrived_packets: 10,
            max_queue_packets: 7,
            area_bytes: 1 << 100,
            ..Default::default()
        };
        let b = QueueCounters {
            arrived_packets: 4,
            max_queue_packets: 9,
            ..Default::default()
        };
        let d = a - b;
        assert_eq!((d.arrived_packets, d.max_queue_packets), (6, 7));
        let s = a + b;
        assert_eq!((s.arrived_packets, s.max_queue_packets), (14, 9));
        let mut seen = Vec::new();
        a.each(|name, v| seen.push((name, v)));
        assert_eq!(seen.len(), QueueCounters::NAMES.len());
        assert_eq!(seen[0], ("arrived_packets", 10));
        assert!(seen.contains(&("area_bytes", 1 << 100)));
    }
}
