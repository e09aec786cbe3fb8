//! ns-2.35's DiffServ queues (diffserv/dsred.cc, dsEdge.cc, dsCore.cc; Nortel's DiffServ
//! module, Shallwani, Ethridge, Pieda and Baines, 2000): `Queue/dsRED/edge` marks each
//! arriving packet's code point by its policy (`policy`, one file per marker) and
//! `Queue/dsRED/core` reads the code point the edge left; both then queue the packet by the
//! per-hop behaviour table and RED per virtual queue (`vred`), and send with one of four
//! schedulers (`rr`, `wrr`, `wirr`, `pri`).
//!
//! - `dsREDQueue::enque`: the code point's PHB entry (`lookupPHBTable`, the first entry of
//!   that code point) gives the physical queue and the precedence (virtual queue); the packet
//!   is counted for its code point and goes to that queue's `redQueue::enque` (a forced drop
//!   is an ns-2 `drop`, an early one an `edrop`; both are traced `d`).
//! - `dsREDQueue::deque`: the scheduler picks a queue (`selectQueueToDeque`); its head
//!   leaves, PRI's departure rates are metered, and the precedence of the packet's code
//!   point gives the virtual queue whose length and idle state follow.
//! - ns-2 calls `deque` at every end of transmission, even with nothing waiting (`Queue::resume`),
//!   and the schedulers' state moves then; the engine asks only when something waits, so the
//!   call ns-2 makes at the end of a busy period is made here before the next arrival's
//!   enqueue when that arrival finds the line idle (arrivals dropped during the transmission
//!   leave that call due).
//! - `dsREDQueue::reset` at `$ns run` gives every physical queue the queue's `limit_` and
//!   the link's rate in mean-size packets (`setPTC`): the engine builds the queue then. Its
//!   `Queue::reset` drains the queue with `deque()`, which calls the scheduler once with
//!   nothing waiting: so does the queue built here.
//! - Statistics (`printStats`, `getStat`): packets, forced drops (`ldrops`) and early drops
//!   (`edrops`), in all and per code point.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Backlog, Param, QdiscInfo, QueueDiscipline, QueueSetup, Service};
use crate::ids::NodeId;
use crate::packet::Packet;
use crate::rng::Uniform;
use crate::time::SimTime;

pub mod policy;
mod pri;
mod rr;
pub mod sched;
mod srtcm;
mod token_bucket;
mod trtcm;
mod tsw;
pub mod vred;
mod wirr;
mod wrr;

use policy::{PolicerKind, Policy, PolicyState, PolicyTable};
use sched::{SchedState, MAX_QUEUES};
use vred::{Enq, PhysQueue, MAX_PREC};

/// ns-2.35's MAX_CP (diffserv/dsred.h): code points 0 to 39.
pub const MAX_CP: usize = 40;

/// How a physical queue averages its virtual queues (`setMREDMode`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MredMode {
    /// RIO coupled (ns-2's default): precedence p's average counts the packets of
    /// precedences 0 to p.
    #[default]
    RioC,
    /// RIO decoupled: each precedence's average counts its own packets.
    RioD,
    /// Weighted RED: one average over the whole queue, each precedence its own thresholds.
    Wred,
    /// No RED: a precedence holding `min_thresh` packets drops arrivals.
    Drop,
}

/// The scheduler between physical queues (`setSchedularMode`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum DsScheduler {
    #[default]
    Rr,
    Wrr,
    Wirr,
    Pri,
}

/// A PHB table entry: code point -> physical queue, precedence (`addPHBEntry`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhbEntry {
    pub code_point: u8,
    pub queue: u8,
    pub precedence: u8,
}

/// One virtual queue's RED parameters (`configQ queue precedence min max max_p [q_w]`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VirtualRedConfig {
    pub queue: u8,
    pub precedence: u8,
    /// Packets (ns-2 reads it with `atoi`).
    pub min_thresh: f64,
    pub max_thresh: f64,
    pub max_p: f64,
    /// Default 0.002.
    #[serde(default = "default_q_w")]
    pub q_weight: f64,
    /// When it was configured, in seconds (its idle time starts then; `redQueue::config`).
    #[serde(default)]
    pub at_s: f64,
}

fn default_q_w() -> f64 {
    0.002
}

/// An edge's policy: the meter and marker of the packets from `source` to `destination`
/// (`addPolicyEntry`; None: any node, ns-2's -1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicyConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination: Option<String>,
    pub policer: PolicerKind,
    /// The initial (green) code point.
    pub code_point: u8,
    /// Committed rate, bits per second.
    #[serde(default)]
    pub cir_bps: f64,
    /// Committed burst, bytes.
    #[serde(default)]
    pub cbs: f64,
    /// Excess burst (srtcm), bytes.
    #[serde(default)]
    pub ebs: f64,
    /// Peak rate (tsw3cm, trtcm), bits per second.
    #[serde(default)]
    pub pir_bps: f64,
    /// Peak burst (trtcm), bytes.
    #[serde(default)]
    pub pbs: f64,
    /// The TSW window, seconds (default 1).
    #[serde(default = "default_window")]
    pub window_s: f64,
}

fn default_window() -> f64 {
    1.0
}

/// A policer entry: the code points a marker downgrades a policy's initial code point to
/// (`addPolicerEntry`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicerConfig {
    pub policer: PolicerKind,
    pub code_point: u8,
    /// The first downgrade (yellow; a null policer's is its own code point).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yellow: Option<u8>,
    /// The second downgrade (red).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub red: Option<u8>,
}

/// A `dsred` queue's tables (the scenario's `queue.diffserv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiffServConfig {
    /// An edge (marks packets by `policies`); false: a core (reads their code points).
    #[serde(default)]
    pub edge: bool,
    /// Physical queues, 1 to 8 (ns-2's `numQueues_`, default 4).
    #[serde(default = "default_queues")]
    pub queues: u32,
    /// Virtual queues per physical queue, 1 to 3 (`setNumPrec`, default 3).
    #[serde(default = "default_prec")]
    pub precedences: u32,
    /// The mean packet size of the idle decay, bytes (`meanPktSize`, default 1000).
    #[serde(default = "default_mps")]
    pub mean_pktsize: u32,
    /// Per physical queue (missing ones: rio_c).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mred: Vec<MredMode>,
    #[serde(default)]
    pub scheduler: DsScheduler,
    /// Per physical queue, WRR and WIRR (missing ones: 1; `addQueueWeights`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weights: Vec<u32>,
    /// Per physical queue, PRI's rate limit in bits per second (0 or missing: none;
    /// `addQueueRate`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub max_rates_bps: Vec<f64>,
    pub phb: Vec<PhbEntry>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub red: Vec<VirtualRedConfig>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub policies: Vec<PolicyConfig>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub policers: Vec<PolicerConfig>,
}

fn default_queues() -> u32 {
    4
}
fn default_prec() -> u32 {
    3
}
fn default_mps() -> u32 {
    1000
}

impl DiffServConfig {
    /// Checks the tables against each other; the first problem, naming its key.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_QUEUES as u32).contains(&self.queues) {
            return Err(format!(
                "queues: expected 1 to {MAX_QUEUES}, got {}",
                self.queues
            ));
        }
        if !(1..=MAX_PREC as u32).contains(&self.precedences) {
            return Err(format!(
                "precedences: expected 1 to {MAX_PREC}, got {}",
                self.precedences
            ));
        }
        if self.mean_pktsize == 0 {
            return Err("mean_pktsize: expected a positive number of bytes".into());
        }
        for (key, n) in [
            ("mred", self.mred.len()),
            ("weights", self.weights.len()),
            ("max_rates_bps", self.max_rates_bps.len()),
        ] {
            if n > MAX_QUEUES {
                return Err(format!("{key}: at most {MAX_QUEUES} queues"));
            }
        }
        if self.phb.len() > MAX_CP {
            return Err(format!("phb: at most {MAX_CP} entries"));
        }
        for (i, e) in self.phb.iter().enumerate() {
            if e.code_point as usize >= MAX_CP {
                return Err(format!("phb[{i}].code_point: expected 0 to {}", MAX_CP - 1));
            }
            if e.queue as usize >= MAX_QUEUES || e.precedence as usize >= MAX_PREC {
                return Err(format!(
                    "phb[{i}]: queue 0 to {} and precedence 0 to {}",
                    MAX_QUEUES - 1,
                    MAX_PREC - 1
                ));
            }
        }
        for (i, r) in self.red.iter().enumerate() {
            if r.queue as usize >= MAX_QUEUES || r.precedence as usize >= MAX_PREC {
                return Err(format!("red[{i}]: no such virtual queue"));
            }
            if !(r.max_p > 0.0 && r.max_p.is_finite()) {
                return Err(format!("red[{i}].max_p: expected a positive number"));
            }
            if !(0.0..=1.0).contains(&r.q_weight) {
                return Err(format!("red[{i}].q_weight: expected 0 to 1"));
            }
        }
        if !self.edge && !self.policies.is_empty() {
            return Err("policies: a core queue marks nothing (edge = false)".into());
        }
        for (i, p) in self.policies.iter().enumerate() {
            if p.code_point as usize >= MAX_CP {
                return Err(format!(
                    "policies[{i}].code_point: expected 0 to {}",
                    MAX_CP - 1
                ));
            }
        }
        for (i, p) in self.policers.iter().enumerate() {
            for cp in [Some(p.code_point), p.yellow, p.red].into_iter().flatten() {
                if cp as usize >= MAX_CP {
                    return Err(format!(
                        "policers[{i}]: code point {cp} above {}",
                        MAX_CP - 1
                    ));
                }
            }
        }
        Ok(())
    }

    /// `PolicyClassifier::getPolicerTableEntry`: the first policer entry of the policy's
    /// kind and code point.
    fn policer_of(&self, p: &PolicyConfig) -> Option<&PolicerConfig> {
        self.policers
            .iter()
            .find(|e| e.policer == p.policer && e.code_point == p.code_point)
    }

    /// The queue's tables with the policies' node names resolved by `node`.
    pub fn build(&self, node: &dyn Fn(&str) -> Option<NodeId>) -> Result<DiffServTables, String> {
        self.check()?;
        let mut policies = Vec::new();
        for (i, p) in self.policies.iter().enumerate() {
            let resolve = |name: &Option<String>, key: &str| match name {
                None => Ok(None),
                Some(n) => node(n)
                    .map(Some)
                    .ok_or_else(|| format!("policies[{i}].{key}: no node {n:?}")),
            };
            // A policy without its policer entry: ns-2 finds none when a packet comes
            // (`getPolicerTableEntry` prints an error) and dereferences the null entry; here
            // its packets keep their code point.
            let e = self.policer_of(p);
            let green = p.code_point;
            // ns-2: a null policer's downgrade is its own code point; a missing second
            // downgrade stays 0 (dsPolicy.cc never sets it then).
            let yellow = if p.policer == PolicerKind::Null {
                green
            } else {
                e.and_then(|e| e.yellow).unwrap_or(0)
            };
            let red = e.and_then(|e| e.red).unwrap_or(0);
            policies.push(Policy {
                src: resolve(&p.source, "source")?,
                dst: resolve(&p.destination, "destination")?,
                kind: p.policer,
                state: PolicyState::new(
                    p.cir_bps / 8.0,
                    p.cbs,
                    p.ebs,
                    p.pir_bps / 8.0,
                    p.pbs,
                    p.window_s,
                ),
                code_points: e.map(|_| [green, yellow, red]),
            });
        }
        Ok(DiffServTables {
            config: self.clone(),
            policies: PolicyTable { policies },
        })
    }
}

/// A `dsred` queue's tables, its policies' nodes resolved (`QueueSetup::diffserv`).
#[derive(Clone, Debug)]
pub struct DiffServTables {
    pub config: DiffServConfig,
    pub policies: PolicyTable,
}

/// The statistics of `printStats` and `getStat` (dsred.h's `statType`).
#[derive(Clone, Debug)]
pub struct DsStats {
    pub pkts: u64,
    pub drops: u64,
    pub edrops: u64,
    pub pkts_cp: [u64; MAX_CP],
    pub drops_cp: [u64; MAX_CP],
    pub edrops_cp: [u64; MAX_CP],
}

impl Default for DsStats {
    fn default() -> DsStats {
        DsStats {
            pkts: 0,
            drops: 0,
            edrops: 0,
            pkts_cp: [0; MAX_CP],
            drops_cp: [0; MAX_CP],
            edrops_cp: [0; MAX_CP],
        }
    }
}

#[derive(Clone, Debug)]
pub struct DsRed {
    edge: bool,
    ecn: bool,
    phb: Vec<PhbEntry>,
    queues: Vec<PhysQueue>,
    sched_mode: DsScheduler,
    sched: SchedState,
    policies: PolicyTable,
    pub stats: DsStats,
    rng: Uniform,
    bw: f64,
    /// ns-2's time of the enqueue or dequeue that follows ([`QueueDiscipline::set_ns2_now`]).
    now2: f64,
    /// ns-2's end of the transmission that left the queue empty, if no arrival came during
    /// it: ns-2's `deque` of nothing at that end is still to be made.
    idle_call: Option<f64>,
    packets: u64,
    bytes: u64,
    marks: u64,
}

crate::params! {
    /// The `DsRed` discipline's parameters: none besides its tables (`queue.diffserv`).
    pub struct DsRedSettings {}
}

const DSRED_PARAMS: &[Param] = DsRedSettings::PARAMS;

impl DsRed {
    /// `lookupPHBTable`: the first entry of the code point (ns-2 asserts when there is none;
    /// here queue 0, precedence 0).
    fn lookup(&self, cp: u8) -> (usize, usize) {
        self.phb
            .iter()
            .find(|e| e.code_point == cp)
            .map_or((0, 0), |e| (e.queue as usize, e.precedence as usize))
    }

    fn lens(&self) -> [usize; MAX_QUEUES] {
        let mut l = [0; MAX_QUEUES];
        for (i, q) in self.queues.iter().enumerate() {
            l[i] = q.len();
        }
        l
    }

    /// `selectQueueToDeque`.
    fn select(&mut self) -> usize {
        let n = self.queues.len();
        let lens = self.lens();
        let lens = &lens[..n];
        match self.sched_mode {
            DsScheduler::Rr => rr::select(&mut self.sched, lens),
            DsScheduler::Wrr => wrr::select(&mut self.sched, lens),
            DsScheduler::Wirr => wirr::select(&mut self.sched, lens),
            DsScheduler::Pri => pri::select(&mut self.sched, lens),
        }
    }

    /// The physical queue `q`'s weighted length (`getAverage`).
    pub fn average(&self, q: usize) -> Option<f64> {
        self.queues.get(q).map(PhysQueue::weighted_length)
    }

    /// Virtual queue (q, prec)'s average (`getAverageV`).
    pub fn average_v(&self, q: usize, prec: usize) -> Option<f64> {
        self.queues
            .get(q)
            .and_then(|x| x.v.get(prec))
            .map(|v| v.v_ave)
    }

    /// Physical queue `q`'s length (`getCurrent`).
    pub fn current(&self, q: usize) -> Option<usize> {
        self.queues.get(q).map(PhysQueue::len)
    }

    /// Virtual queue (q, prec)'s length (`getCurrentV`).
    pub fn current_v(&self, q: usize, prec: usize) -> Option<i64> {
        self.queues
            .get(q)
            .and_then(|x| x.v.get(prec))
            .map(|v| v.qlen)
    }

    /// The policy's committed bucket of the first policy matching (src, dst)
    /// (`getCBucket`); None without one.
    pub fn c_bucket(&self, src: NodeId, dst: NodeId) -> Option<f64> {
        self.policies
            .policies
            .iter()
            .find(|p| p.src.is_none_or(|s| s == src) && p.dst.is_none_or(|d| d == dst))
            .map(|p| p.state.c_bucket)
    }
}

impl QueueDiscipline for DsRed {
    const INFO: QdiscInfo = QdiscInfo {
        params: DSRED_PARAMS,
        ecn: true,
        ..QdiscInfo::new(
            "dsred",
            Service::Dequeue,
            "ns-2.35's DiffServ queue (Queue/dsRED/edge and core): physical RED queues with \
             virtual queues per drop precedence, RR/WRR/WIRR/PRI scheduling, and at the edge \
             token bucket, srTCM (RFC 2697), trTCM (RFC 2698) and TSW (RFC 2859) markers; its \
             tables in queue.diffserv",
        )
    };

    type Params = DsRedSettings;

    fn new(_p: &DsRedSettings, setup: &QueueSetup) -> DsRed {
        let t = setup.diffserv.clone().unwrap_or_else(|| {
            Arc::new(DiffServTables {
                config: DiffServConfig {
                    edge: false,
                    queues: 1,
                    precedences: 1,
                    mean_pktsize: 1000,
                    mred: vec![],
                    scheduler: DsScheduler::Rr,
                    weights: vec![],
                    max_rates_bps: vec![],
                    phb: vec![],
                    red: vec![],
                    policies: vec![],
                    policers: vec![],
                },
                policies: PolicyTable::default(),
            })
        });
        let c = &t.config;
        let nprec = c.precedences as usize;
        let qlim = setup.packets();
        let mut queues = Vec::new();
        for i in 0..c.queues as usize {
            let mode = c.mred.get(i).copied().unwrap_or_default();
            let mut q = PhysQueue::new(nprec, qlim, mode);
            for v in &mut q.v {
                v.mean_pktsize = c.mean_pktsize as f64;
            }
            for r in c.red.iter().filter(|r| r.queue as usize == i) {
                q.config(
                    r.precedence as usize,
                    r.min_thresh,
                    r.max_thresh,
                    r.max_p,
                    r.q_weight,
                    r.at_s,
                );
            }
            q.set_ptc(setup.rate_bps);
            queues.push(q);
        }
        let mut weight = [1; MAX_QUEUES];
        for (i, &w) in c.weights.iter().enumerate() {
            weight[i] = w as i32;
        }
        let mut max_rate = [0.0; MAX_QUEUES];
        for (i, &r) in c.max_rates_bps.iter().enumerate() {
            // dsREDQueue::addQueueRate: an int of bits per second, to bytes per second.
            max_rate[i] = (r as i64) as f64 / 8.0;
        }
        let mut q = DsRed {
            edge: c.edge,
            ecn: setup.ecn,
            phb: c.phb.clone(),
            queues,
            sched_mode: c.scheduler,
            sched: SchedState::new(weight, max_rate),
            policies: t.policies.clone(),
            stats: DsStats::default(),
            rng: Uniform::Own(setup.rng.clone()),
            bw: setup.rate_bps,
            now2: 0.0,
            idle_call: None,
            packets: 0,
            bytes: 0,
            marks: 0,
        };
        // `dsREDQueue::reset` at `$ns run` ends in `Queue::reset`, which drains the queue
        // with `deque()`: one call of the scheduler with nothing waiting.
        q.select();
        q
    }

    fn set_ns2_now(&mut self, now2: f64) {
        self.now2 = now2;
    }

    fn enqueue(&mut self, now: SimTime, mut pkt: Packet, dropped: &mut Vec<Packet>) {
        let now2 = self.now2;
        if let Some(end) = self.idle_call {
            if now2 >= end {
                // ns-2's deque at the end of the last transmission found nothing.
                self.select();
                self.idle_call = None;
            }
        }
        if self.edge {
            // edgeQueue::enque: PolicyClassifier::mark first.
            if let Some(cp) = self
                .policies
                .mark(pkt.src, pkt.dst, pkt.size, now2, &mut self.rng)
            {
                pkt.set_dscp(cp);
            }
        }
        let cp = pkt.dscp();
        let (q, prec) = self.lookup(cp);
        let cpi = (cp as usize).min(MAX_CP - 1);
        self.stats.pkts_cp[cpi] += 1;
        self.stats.pkts += 1;
        let ecn = self.ecn && pkt.ecn & crate::packet::ecn::ECT != 0;
        let size = pkt.size as u64;
        let Some(pq) = self.queues.get_mut(q) else {
            self.stats.drops_cp[cpi] += 1;
            self.stats.drops += 1;
            dropped.push(pkt);
            return;
        };
        match pq.enque(now, now2, pkt, prec, ecn, &mut self.rng) {
            (Enq::Dropped, Some(p)) => {
                self.stats.drops_cp[cpi] += 1;
                self.stats.drops += 1;
                dropped.push(p);
            }
            (Enq::EarlyDropped, Some(p)) => {
                self.stats.edrops_cp[cpi] += 1;
                self.stats.edrops += 1;
                dropped.push(p);
            }
            (e, _) => {
                // Queued during the transmission: ns-2's deque at its end finds this one.
                self.idle_call = None;
                if e == Enq::Marked {
                    self.marks += 1;
                }
                self.packets += 1;
                self.bytes += size;
            }
        }
    }

    fn dequeue(&mut self, now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        let now2 = self.now2;
        if let Some(end) = self.idle_call.take() {
            if now2 >= end {
                self.select();
            }
        }
        let dq = self.select();
        let (at, pkt) = self.queues.get_mut(dq)?.deque()?;
        if self.sched_mode == DsScheduler::Pri {
            for i in 0..self.queues.len() {
                if self.sched.max_rate[i] != 0.0 {
                    let b = if i == dq { pkt.size as f64 } else { 0.0 };
                    self.sched.tsw_meter(i, b, now2);
                }
            }
        }
        let (_, prec) = self.lookup(pkt.dscp());
        self.queues[dq].departed(prec, now2);
        self.packets -= 1;
        self.bytes -= pkt.size as u64;
        if self.packets == 0 {
            // LinkDelay::txtime: 8 * size / bandwidth_.
            self.idle_call = Some(now2 + 8.0 * pkt.size as f64 / self.bw);
        }
        let _ = now;
        Some((at, pkt))
    }

    fn backlog(&self) -> Backlog {
        Backlog {
            packets: self.packets,
            bytes: self.bytes,
        }
    }

    fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        for q in &self.queues {
            for (_, p) in &q.fifo {
                f(p);
            }
        }
    }

    fn marks(&self) -> u64 {
        self.marks
    }

    fn random(&mut self) -> Option<&mut Uniform> {
        Some(&mut self.rng)
    }
}
