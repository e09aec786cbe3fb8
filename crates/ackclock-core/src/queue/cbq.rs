//! Class-based queueing (S. Floyd, V. Jacobson, "Link-sharing and Resource Management Models
//! for Packet Networks", IEEE/ACM ToN 3(4), 1995) as ns-2.35's `Queue/CBQ` implements it
//! (queue/cbq.cc, `CBQueue`; its class tree set up by tcl/lib/ns-queue.tcl's `CBQLink`).
//!
//! - A tree of classes, each with a share of the link (`allot`); the leaves hold the packets
//!   (a DropTail each), bound to flows. Each class keeps an estimator of whether it is under or
//!   over its share (`cbq_class`), updated for it and every ancestor at each departure
//!   (`CBQClass::update`).
//! - The general scheduler (`CBQueue::deque`, packet-by-packet round robin): priorities in
//!   order (0 first); within one, the leaves in a ring starting at the one after the last
//!   that sent. The first leaf with packets that may send (`send_permitted`: under its limit,
//!   or one of its ancestors lends: `find_lender`) sends; one that may not is `delayed`. When
//!   none may, the first leaf seen that could borrow sends anyway, without an update.
//! - Who may lend (`find_lender`, walking up from the parent past ancestors over their limit):
//!   ancestor-only link-sharing, any ancestor under its limit; top-level, one at most at the
//!   level `toplevel` (lowered by arrivals to classes under their limit, `toplevel_arrival`,
//!   raised at departures, `toplevel_departure`); formal, one with no unsatisfied class (under
//!   its limit with packets waiting below it) at any lower level (`eligible_formal`).
//! - Weighted round robin (`Queue/CBQ/WRR`): `cbq_wrr`.
//!
//! The scheduler decides only when the line asks for a packet (an arrival at an idle line, or
//! the end of a transmission), as ns-2's does: when no leaf may send and none could borrow, the
//! line stays idle until the next arrival. Times are seconds in doubles, as ns-2's.

use super::cbq_class::{automaxidle, CbqClass};
use super::codel::TimedFifo;
use super::{Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Range, Service};
use crate::packet::Packet;
use crate::scenario::CbqClassConfig;
use crate::time::SimTime;

/// ns-2's `MAXPRIO`: priorities 0 to 9.
pub const MAXPRIO: usize = 10;
/// ns-2's `MAXLEVEL`: levels 1 to 32.
pub const MAXLEVEL: u32 = 32;
/// No class for a flow.
const UNBOUND: u16 = u16::MAX;

/// Who may lend (ns-2's `CBQueue::algorithm`: 0, 1, 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    AncestorOnly,
    TopLevel,
    Formal,
}

/// A queue's class tree with the flows bound to each class (built with the scenario's flows).
#[derive(Clone, Debug, Default)]
pub struct CbqTree {
    pub classes: Vec<CbqClassConfig>,
    /// Per flow (by index): its class, or none.
    pub flow_class: Vec<u16>,
}

impl CbqTree {
    /// The tree of `classes` (checked by [`check_classes`]) with their flows resolved among
    /// `flows` (the scenario's, by index); an error names an unknown flow.
    pub fn new(classes: &[CbqClassConfig], flows: &[&str]) -> Result<CbqTree, String> {
        let mut flow_class = vec![UNBOUND; flows.len()];
        for (i, c) in classes.iter().enumerate() {
            for f in &c.flows {
                let k = flows
                    .iter()
                    .position(|n| n == f)
                    .ok_or_else(|| format!("queue.classes[{i}].flows: no flow named {f:?}"))?;
                if flow_class[k] != UNBOUND {
                    return Err(format!(
                        "queue.classes[{i}].flows: flow {f:?} is bound to another class too"
                    ));
                }
                flow_class[k] = i as u16;
            }
        }
        Ok(CbqTree {
            classes: classes.to_vec(),
            flow_class,
        })
    }
}

/// Checks a class tree: names, parents (no cycle), allotments, priorities, levels, limits;
/// the first problem as `classes[i].key: ...`.
pub fn check_classes(classes: &[CbqClassConfig]) -> Result<(), String> {
    if classes.is_empty() {
        return Err("classes: a cbq queue needs its class tree (at least one class)".into());
    }
    if classes.len() >= UNBOUND as usize {
        return Err(format!("classes: at most {} classes", UNBOUND - 1));
    }
    for (i, c) in classes.iter().enumerate() {
        let at = |k: &str| format!("classes[{i}].{k}");
        if c.name.is_empty() || classes[..i].iter().any(|d| d.name == c.name) {
            return Err(format!(
                "{}: expected a unique name, got {:?}",
                at("name"),
                c.name
            ));
        }
        if let Some(p) = &c.parent {
            if p == &c.name || !classes.iter().any(|d| &d.name == p) {
                return Err(format!("{}: no other class named {p:?}", at("parent")));
            }
        }
        if !(0.0..=1.0).contains(&c.allot) {
            return Err(format!(
                "{}: expected a share from 0 to 1, got {}",
                at("allot"),
                c.allot
            ));
        }
        if c.priority as usize >= MAXPRIO {
            return Err(format!(
                "{}: expected 0 to 9, got {}",
                at("priority"),
                c.priority
            ));
        }
        if let Some(l) = c.level {
            if !(1..=MAXLEVEL).contains(&l) {
                return Err(format!("{}: expected 1 to 32, got {l}", at("level")));
            }
        }
        if let Some(m) = c.maxidle_s {
            if !(m >= 0.0 && m.is_finite()) {
                return Err(format!(
                    "{}: expected 0 or more seconds, got {m}",
                    at("maxidle_s")
                ));
            }
        }
        if !c.extradelay_s.is_finite() {
            return Err(format!(
                "{}: expected seconds, got {}",
                at("extradelay_s"),
                c.extradelay_s
            ));
        }
        if c.limit == Some(0) {
            return Err(format!(
                "{}: expected a positive number of packets",
                at("limit")
            ));
        }
        if c.limit.is_none() && !c.flows.is_empty() {
            return Err(format!(
                "{}: an interior class (no limit) holds no packets; bind flows to a leaf",
                at("flows")
            ));
        }
        // No cycle: walking up ends within the number of classes.
        let mut p = c.parent.as_deref();
        for _ in 0..classes.len() {
            p = p.and_then(|n| classes.iter().find(|d| d.name == n)?.parent.as_deref());
        }
        if p.is_some() {
            return Err(format!("{}: the parents make a cycle", at("parent")));
        }
    }
    Ok(())
}

/// The levels of `classes`: as given, else 1 for a class without children and one more than
/// its highest child's otherwise.
fn levels(classes: &[CbqClassConfig]) -> Vec<u32> {
    let mut level: Vec<u32> = classes.iter().map(|c| c.level.unwrap_or(1)).collect();
    for _ in 0..classes.len() {
        for (i, c) in classes.iter().enumerate() {
            if c.level.is_some() {
                continue;
            }
            let below = classes
                .iter()
                .enumerate()
                .filter(|(_, d)| d.parent.as_deref() == Some(c.name.as_str()))
                .map(|(k, _)| level[k] + 1)
                .max()
                .unwrap_or(1);
            level[i] = below.min(MAXLEVEL);
        }
    }
    level
}

crate::params! {
    /// The `Cbq` discipline's parameters (`queue.params`), each with its declaration; the
    /// class tree is `queue.classes`.
    pub struct CbqSettings {
        algorithm: u32 = Param::new("algorithm", 0.0, Range::Whole(0, 2),
            "link-sharing: 0 ancestor-only, 1 top-level, 2 formal")
            .ns2("algorithm_"),
        wrr: bool = Param::new("wrr", 0.0, Range::Flag,
            "weighted round robin within a priority (ns-2's CBQ/WRR) instead of packet by packet"),
        maxpkt: u32 = Param::new("maxpkt", 1024.0, Range::Count,
            "largest packet, for WRR's round and the automatic maxidle")
            .unit(super::Unit::Bytes)
            .ns2("maxpkt_"),
    }
}

const CBQ_PARAMS: &[Param] = CbqSettings::PARAMS;

/// The scheduler's state (ns-2's `CBQueue`, and `WRR_CBQueue`'s per-priority sums).
#[derive(Clone, Debug)]
pub struct Cbq {
    pub(super) classes: Vec<CbqClass>,
    flow_class: Vec<u16>,
    /// Per priority, the leaf whose turn it is (ns-2's `active_`).
    pub(super) active: [Option<u16>; MAXPRIO],
    /// The highest priority number of a leaf (ns-2's `maxprio_`), or -1.
    pub(super) maxprio: i32,
    /// Per level (index 1 to 32), its classes (ns-2's `levels_`).
    levels: Vec<Vec<u16>>,
    sharing: Sharing,
    toplevel: u32,
    last_lender: Option<u16>,
    /// The line's bandwidth, bit/s.
    bw: f64,
    /// ns-2's DropTail accounting in the leaves: a limit of n holds n - 1.
    ns2: bool,
    pub(super) wrr: bool,
    pub(super) maxpkt: i32,
    /// WRR: per priority, the sum of its classes' allotments, their number and the bytes a
    /// whole allotment is worth in a round (ns-2's `alloc_`, `cnt_`, `M_`).
    pub(super) alloc: [f64; MAXPRIO],
    pub(super) cnt: [i32; MAXPRIO],
    pub(super) m: [f64; MAXPRIO],
    packets: u64,
    bytes: u64,
    /// The ns-2 time of the next call, when the link keeps ns-2's clock
    /// ([`QueueDiscipline::set_ns2_now`]).
    now2: Option<f64>,
}

impl Cbq {
    /// The time of this call in seconds: ns-2's double when the link gave it.
    #[inline]
    fn seconds(&mut self, now: SimTime) -> f64 {
        self.now2.take().unwrap_or_else(|| now.as_secs_f64())
    }

    /// The scheduler for `tree` on a line of `bw` bit/s.
    pub fn new(p: &CbqSettings, tree: &CbqTree, bw: f64, ns2: bool) -> Cbq {
        let sharing = match p.algorithm {
            1 => Sharing::TopLevel,
            2 => Sharing::Formal,
            _ => Sharing::AncestorOnly,
        };
        let level = levels(&tree.classes);
        let mut q = Cbq {
            classes: Vec::with_capacity(tree.classes.len()),
            flow_class: tree.flow_class.clone(),
            active: [None; MAXPRIO],
            maxprio: -1,
            levels: vec![Vec::new(); MAXLEVEL as usize + 1],
            sharing,
            toplevel: MAXLEVEL,
            last_lender: None,
            bw,
            ns2,
            wrr: p.wrr,
            maxpkt: p.maxpkt as i32,
            alloc: [0.0; MAXPRIO],
            cnt: [0; MAXPRIO],
            m: [0.0; MAXPRIO],
            packets: 0,
            bytes: 0,
            now2: None,
        };
        for (i, c) in tree.classes.iter().enumerate() {
            let lender = c
                .parent
                .as_ref()
                .and_then(|n| tree.classes.iter().position(|d| &d.name == n))
                .map(|k| k as u16);
            q.insert_class(CbqClass {
                peer: i as u16,
                lender,
                q: c.limit.map(|_| TimedFifo::default()),
                limit: c.limit.unwrap_or(0),
                allotment: c.allot,
                maxidle: c
                    .maxidle_s
                    .unwrap_or_else(|| automaxidle(c.allot, c.priority, bw, p.maxpkt as f64)),
                maxrate: 0.0,
                extradelay: c.extradelay_s,
                last_time: 0.0,
                undertime: 0.0,
                avgidle: 0.0,
                pri: c.priority as usize,
                level: level[i],
                delayed: false,
                bytes_alloc: 0,
                permit_borrowing: c.borrow,
            });
        }
        q.set_m();
        q
    }

    /// ns-2's `CBQueue::insert_class` (and `WRR_CBQueue::insert_class`): a leaf joins its
    /// priority's ring right after the current one; every class gets its rate and joins its
    /// level's list.
    fn insert_class(&mut self, mut c: CbqClass) {
        let i = self.classes.len() as u16;
        if c.q.is_some() {
            match self.active[c.pri] {
                Some(a) => {
                    c.peer = self.classes[a as usize].peer;
                    self.classes[a as usize].peer = i;
                }
                None => {
                    c.peer = i;
                    self.active[c.pri] = Some(i);
                }
            }
            self.maxprio = self.maxprio.max(c.pri as i32);
        }
        c.maxrate = c.allotment * (self.bw / 8.0);
        self.alloc[c.pri] += c.allotment;
        self.cnt[c.pri] += 1;
        self.levels[c.level as usize].push(i);
        self.classes.push(c);
    }

    /// The number of classes.
    pub fn len(&self) -> usize {
        self.classes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// ns-2's `CBQClass::newallot` on class `i` (`$class newallot bw` during the run): its
    /// share and rate change; its estimator keeps its state.
    pub fn newallot(&mut self, i: usize, bw: f64) {
        let diff = self.classes[i].newallot(bw, self.bw);
        let pri = self.classes[i].pri;
        self.alloc[pri] += diff;
        self.set_m();
    }

    /// Class `i`'s allotment.
    pub fn allot(&self, i: usize) -> f64 {
        self.classes[i].allotment
    }

    #[inline]
    pub(super) fn toplevel_on(&self) -> bool {
        self.sharing == Sharing::TopLevel
    }

    /// ns-2's `CBQueue::send_permitted`.
    pub(super) fn send_permitted(&mut self, c: u16, now: f64) -> bool {
        let cl = &mut self.classes[c as usize];
        if cl.undertime < now {
            cl.delayed = false;
            self.last_lender = Some(c);
            return true;
        }
        if cl.permit_borrowing {
            if let Some(l) = self.find_lender(c, now) {
                self.last_lender = Some(l);
                return true;
            }
        }
        false
    }

    /// ns-2's `CBQueue::find_lender`: the first ancestor under its limit that the
    /// link-sharing guideline lets lend.
    fn find_lender(&self, c: u16, now: f64) -> Option<u16> {
        let cl = &self.classes[c as usize];
        if !cl.permit_borrowing {
            return None;
        }
        let mut at = cl.lender;
        while let Some(l) = at {
            let lc = &self.classes[l as usize];
            if lc.undertime > now {
                if self.toplevel_on() && lc.level > self.toplevel {
                    return None;
                }
                at = lc.lender;
                continue;
            }
            let eligible = match self.sharing {
                Sharing::TopLevel => lc.level <= self.toplevel,
                Sharing::AncestorOnly => true,
                Sharing::Formal => self.eligible_formal(l, now),
            };
            if eligible {
                return Some(l);
            }
            at = lc.lender;
        }
        None
    }

    /// ns-2's `CBQueue::eligible_formal`: no unsatisfied class at any level below `c`'s.
    fn eligible_formal(&self, c: u16, now: f64) -> bool {
        let top = self.classes[c as usize].level as usize;
        (1..top).all(|lv| self.levels[lv].iter().all(|&p| self.satisfied(p, now)))
    }

    /// ns-2's `CBQClass::satisfied`: not (under its limit with packets waiting in it, or for an
    /// interior class in a leaf below it).
    fn satisfied(&self, p: u16, now: f64) -> bool {
        let cl = &self.classes[p as usize];
        if cl.undertime >= now {
            return true;
        }
        if cl.leaf() {
            !cl.demand()
        } else {
            !self.desc_with_demand(p)
        }
    }

    /// ns-2's `CBQClass::desc_with_demand`: a leaf with packets that `p` is an ancestor of.
    fn desc_with_demand(&self, p: u16) -> bool {
        self.levels[1]
            .iter()
            .any(|&l| self.classes[l as usize].demand() && self.ancestor(p, l))
    }

    /// ns-2's `CBQClass::ancestor`: `a` is on `p`'s lending chain (which a class that may not
    /// borrow does not have).
    fn ancestor(&self, a: u16, mut p: u16) -> bool {
        loop {
            let pc = &self.classes[p as usize];
            match pc.lender {
                Some(l) if pc.permit_borrowing => {
                    if l == a {
                        return true;
                    }
                    p = l;
                }
                _ => return false,
            }
        }
    }

    /// ns-2's `CBQueue::toplevel_arrival`.
    fn toplevel_arrival(&mut self, c: u16, now: f64) {
        if self.toplevel > 1 {
            let cl = &self.classes[c as usize];
            if cl.undertime < now {
                self.toplevel = 1;
            } else if self.toplevel > 2 && cl.permit_borrowing {
                if let Some(l) = cl.lender {
                    if self.classes[l as usize].undertime < now {
                        self.toplevel = 2;
                    }
                }
            }
        }
    }

    /// ns-2's `CBQueue::toplevel_departure`, after leaf `c` sent (its queue already without
    /// the packet).
    fn toplevel_departure(&mut self, c: u16, now: f64) {
        let Some(ll) = self.last_lender else {
            return;
        };
        let lender = &self.classes[ll as usize];
        if self.toplevel >= lender.level {
            let waiting = self.classes[c as usize]
                .q
                .as_ref()
                .map_or(0, |q| q.packets.len());
            self.toplevel = if waiting <= 1 || lender.undertime > now {
                MAXLEVEL
            } else {
                lender.level
            };
        }
    }

    /// ns-2's `CBQClass::update` for leaf `c`'s packet of `size` bytes sent at `now`, up the
    /// lending chain to the root, then the top-level bookkeeping.
    pub(super) fn sent(&mut self, c: u16, size: u32, now: f64) {
        // ns-2's `LinkDelay::txtime`: 8 * size / bandwidth_.
        let tx_time = 8.0 * size as f64 / self.bw;
        let mut at = Some(c);
        while let Some(i) = at {
            let cl = &mut self.classes[i as usize];
            cl.update_own(size, now, tx_time);
            at = cl.lender;
        }
        if self.toplevel_on() {
            self.toplevel_departure(c, now);
        }
    }

    /// Takes the head packet of leaf `c`.
    pub(super) fn pop(&mut self, c: u16) -> (SimTime, Packet) {
        let q = self.classes[c as usize].q.as_mut().expect("a leaf's queue");
        let (at, pkt) = q.pop().expect("a leaf with demand");
        self.packets -= 1;
        self.bytes -= pkt.size as u64;
        (at, pkt)
    }

    /// ns-2's `CBQueue::deque`, packet-by-packet round robin: the leaf to send and whether
    /// the send is regulated (false: nobody could, the first borrower goes unaccounted).
    fn deque_prr(&mut self, now: f64) -> Option<(u16, bool)> {
        let mut first: Option<u16> = None;
        for prio in 0..=self.maxprio.max(-1) {
            let Some(start) = self.active[prio as usize] else {
                continue;
            };
            let mut c = start;
            loop {
                let cl = &self.classes[c as usize];
                if cl.demand() {
                    if first.is_none() && cl.permit_borrowing && cl.lender.is_some() {
                        first = Some(c);
                    }
                    if self.send_permitted(c, now) {
                        return Some((c, true));
                    }
                    self.classes[c as usize].delayed(now);
                }
                c = self.classes[c as usize].peer;
                if c == start {
                    break;
                }
            }
        }
        first.map(|f| (f, false))
    }

    /// The next packet at `now` (seconds): the scheduler's choice, its accounting.
    fn next(&mut self, now: f64) -> Option<(SimTime, Packet)> {
        if self.wrr {
            return self.deque_wrr(now);
        }
        let (c, regulated) = self.deque_prr(now)?;
        let pri = self.classes[c as usize].pri;
        self.active[pri] = Some(self.classes[c as usize].peer);
        let (at, pkt) = self.pop(c);
        if regulated {
            self.sent(c, pkt.size, now);
        }
        Some((at, pkt))
    }
}

impl QueueDiscipline for Cbq {
    const INFO: QdiscInfo = QdiscInfo {
        params: CBQ_PARAMS,
        ..QdiscInfo::new(
            "cbq",
            Service::Dequeue,
            "ns-2.35's Queue/CBQ and CBQ/WRR: class-based queueing with link sharing (Floyd and \
             Jacobson 1995); its class tree in queue.classes, each leaf a DropTail of its own \
             limit (the queue's limit is not used)",
        )
    };

    // `CBQClass::recv`: an arrival at an idle CBQ schedules its dequeue (`CBQueue::sched`).
    const DEQUEUE_EVENT: bool = true;

    type Params = CbqSettings;

    fn new(p: &CbqSettings, setup: &QueueSetup) -> Cbq {
        let empty = CbqTree::default();
        let tree = setup.cbq.as_deref().unwrap_or(&empty);
        Cbq::new(p, tree, setup.rate_bps, setup.ns2)
    }

    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        let now_s = self.seconds(now);
        let c = self
            .flow_class
            .get(pkt.flow.idx())
            .copied()
            .unwrap_or(UNBOUND);
        if c == UNBOUND || self.classes[c as usize].q.is_none() {
            // No class takes it (ns-2's classifier has no slot for its flow id).
            dropped.push(pkt);
            return;
        }
        if self.toplevel_on() {
            // `CBQClass::recv`, before the class's queue sees the packet.
            self.toplevel_arrival(c, now_s);
        }
        let cl = &mut self.classes[c as usize];
        let q = cl.q.as_mut().expect("a leaf");
        let len = q.packets.len() as u64;
        // ns-2's `DropTail::enque`: drops when the queue would reach its limit.
        let full = if self.ns2 {
            len + 1 >= cl.limit
        } else {
            len >= cl.limit
        };
        if full {
            dropped.push(pkt);
            return;
        }
        self.packets += 1;
        self.bytes += pkt.size as u64;
        q.push(now, pkt);
    }

    #[inline]
    fn dequeue(&mut self, now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        let now_s = self.seconds(now);
        self.next(now_s)
    }

    #[inline]
    fn set_ns2_now(&mut self, now2: f64) {
        self.now2 = Some(now2);
    }

    #[inline]
    fn backlog(&self) -> Backlog {
        Backlog {
            packets: self.packets,
            bytes: self.bytes,
        }
    }

    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        for c in &self.classes {
            if let Some(q) = &c.q {
                q.packets.iter().for_each(|(_, p)| f(p));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn class(name: &str, parent: Option<&str>, allot: f64, prio: u32) -> CbqClassConfig {
        CbqClassConfig {
            name: name.into(),
            parent: parent.map(Into::into),
            allot,
            borrow: true,
            maxidle_s: None,
            priority: prio,
            level: None,
            extradelay_s: 0.0,
            limit: parent.map(|_| 20),
            flows: Vec::new(),
        }
    }

    pub(crate) fn pkt(flow: u32, size: u32) -> Packet {
        Packet::test_udp(0, flow, size)
    }

    fn settings(algorithm: u32, wrr: bool) -> CbqSettings {
        CbqSettings {
            algorithm,
            wrr,
            maxpkt: 1024,
        }
    }

    pub(crate) fn tree(classes: Vec<CbqClassConfig>) -> CbqTree {
        // Flow i goes to the i-th leaf.
        let leaves: Vec<u16> = (0..classes.len())
            .filter(|&i| classes[i].limit.is_some())
            .map(|i| i as u16)
            .collect();
        CbqTree {
            classes,
            flow_class: leaves,
        }
    }

    #[test]
    fn levels_follow_the_tree() {
        let t = vec![
            class("root", None, 1.0, 8),
            class("a", Some("root"), 0.5, 1),
            class("b", Some("root"), 0.5, 2),
        ];
        assert_eq!(levels(&t), vec![2, 1, 1]);
        check_classes(&t).unwrap();
        let mut bad = t.clone();
        bad[0].parent = Some("a".into());
        assert!(check_classes(&bad).unwrap_err().contains("cycle"));
        bad = t;
        bad[1].allot = 1.5;
        assert!(check_classes(&bad)
            .unwrap_err()
            .starts_with("classes[1].allot"));
    }

    #[test]
    fn ring_order_is_ns2_insertion_order() {
        // ns-2 inserts each new leaf right after the current one: a, then c after a, then b
        // after a again: the ring runs a, b, c... no: a -> (c) -> a; then b: a -> b -> c -> a.
        let t = tree(vec![
            class("root", None, 1.0, 8),
            class("a", Some("root"), 0.3, 1),
            class("c", Some("root"), 0.3, 1),
            class("b", Some("root"), 0.3, 1),
        ]);
        let q = Cbq::new(&settings(0, false), &t, 1.5e6, true);
        assert_eq!(q.active[1], Some(1));
        assert_eq!(q.classes[1].peer, 3);
        assert_eq!(q.classes[3].peer, 2);
        assert_eq!(q.classes[2].peer, 1);
        assert_eq!(q.maxprio, 1);
    }

    #[test]
    fn priority_first_then_round_robin() {
        let t = tree(vec![
            class("root", None, 1.0, 8),
            class("hi", Some("root"), 0.5, 1),
            class("lo1", Some("root"), 0.25, 2),
            class("lo2", Some("root"), 0.25, 2),
        ]);
        let mut q = Cbq::new(&settings(0, false), &t, 1.5e6, true);
        let mut drops = Vec::new();
        let now = SimTime::ZERO;
        for f in [1, 2, 1, 2, 0] {
            q.enqueue(now, pkt(f, 100), &mut drops);
        }
        assert!(drops.is_empty());
        // Everyone is under its limit at time 0 (undertime 0 is not before 0: borrowing from
        // the root, which is under its limit): priority 1 first.
        let order: Vec<u32> = (0..5)
            .map(|_| q.dequeue(now, &mut drops).unwrap().1.flow.0)
            .collect();
        // After hi, the priority-2 ring starts at lo1 (inserted first), then alternates:
        // lo1's turn passes to its peer, lo2 (inserted after lo1).
        assert_eq!(order, vec![0, 1, 2, 1, 2]);
    }

    #[test]
    fn droptail_limit_ns2_accounting() {
        let mut t = tree(vec![
            class("root", None, 1.0, 8),
            class("a", Some("root"), 1.0, 1),
        ]);
        t.classes[1].limit = Some(3);
        let mut q = Cbq::new(&settings(2, false), &t, 1.5e6, true);
        let mut drops = Vec::new();
        for _ in 0..4 {
            q.enqueue(SimTime::ZERO, pkt(0, 100), &mut drops);
        }
        // A limit of 3 holds 2 (DropTail::enque drops when length + 1 reaches qlim_).
        assert_eq!(q.backlog().packets, 2);
        assert_eq!(drops.len(), 2);
    }

    #[test]
    fn overlimit_class_without_borrowing_waits_for_its_undertime() {
        let mut t = tree(vec![
            class("root", None, 1.0, 8),
            class("a", Some("root"), 0.5, 1),
        ]);
        t.classes[1].borrow = false;
        t.classes[1].maxidle_s = Some(0.0);
        let mut q = Cbq::new(&settings(2, false), &t, 8e3, true);
        let mut drops = Vec::new();
        q.enqueue(SimTime::ZERO, pkt(0, 1000), &mut drops);
        q.enqueue(SimTime::ZERO, pkt(0, 1000), &mut drops);
        // 1000 bytes at 8 kb/s: 1 s on the line; at half the link the class is then over its
        // limit until 1 + 1 (1/0.5 - 1) - 15 avgidle, avgidle = (1 - 2)/16.
        // At exactly 0 it is not yet under its limit (undertime 0 is not before now) and may
        // not borrow: nothing goes, as in ns-2.
        assert!(q.dequeue(SimTime::ZERO, &mut drops).is_none());
        assert!(q.dequeue(SimTime(1), &mut drops).is_some());
        let under = 2.0 + 15.0 / 16.0;
        assert!((q.classes[1].undertime - under).abs() < 1e-9);
        // At 1 s it may not send (and cannot borrow): nothing, no first borrower either.
        assert!(q.dequeue(SimTime(1_000_000_000_000), &mut drops).is_none());
        assert!(q.classes[1].delayed);
        assert!(q.dequeue(SimTime(3_000_000_000_000), &mut drops).is_some());
    }
}
