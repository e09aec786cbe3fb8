//! The resolved scenario: the one contract between the front ends and the engine.
//!
//! Names are already indices, units are integers (picoseconds, bytes) or bit/s, defaults are
//! filled in. See `docs/engine-contract.md`. [`Scenario::validate`] checks what the engine
//! relies on and reports the first problem with its key path.

use serde::{Deserialize, Serialize};

use crate::tcp::sender::Recovery;
use crate::tcp::sink::SinkKind;

mod queue;
mod tcp;
mod tmix;
mod validate;

pub use tmix::{Columns as TmixColumns, TmixAdus, TmixVectors};

pub use queue::{
    CbqClassConfig, CoDelConfig, DeviceConfig, Discipline, PieConfig, QueueConfig, QueueDocument,
    RedConfig,
};
pub use tcp::{TcpConfig, TcpDocument};

#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    #[serde(default = "default_profile")]
    pub profile: String,
    pub run: RunConfig,
    pub nodes: Vec<String>,
    #[serde(deserialize_with = "numbered::links")]
    #[schemars(with = "Vec<LinkConfig>")]
    pub links: Vec<LinkConfig>,
    #[serde(deserialize_with = "numbered::flows")]
    #[schemars(with = "Vec<FlowConfig>")]
    pub flows: Vec<FlowConfig>,
    /// TCP parameter tables that flows name by index (`FlowConfig::tcp_table`) instead of
    /// each carrying its own `tcp`: the document of 10 000 flows sharing one table holds it
    /// once (its text 33 MB to 8 MB). [`Scenario::from_json`] gives each such flow a copy of
    /// its table and empties this list, so the engine reads only `FlowConfig::tcp`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "numbered::tcp_tables")]
    #[schemars(with = "Vec<TcpConfig>")]
    pub tcp_tables: Vec<TcpConfig>,
    /// Packet traces written while the run goes (see `trace::packets`).
    #[serde(default)]
    pub traces: Vec<TraceConfig>,
    /// Quick-Start routers (RFC 4782; `net/quick_start.rs`); none: no node takes part, and a
    /// flow's request (`tcp.quick_start`) is never approved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quick_start: Option<QuickStartConfig>,
}

/// `quick_start`: the nodes that act as Quick-Start routers (RFC 4782 section 3) and how the
/// option writes a rate.
#[derive(Clone, Debug, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuickStartConfig {
    /// How the option encodes a rate (ns-2.35's `Agent/QSAgent` `rate_function_`).
    #[serde(default)]
    pub rate_function: crate::net::quick_start::RateFunction,
    #[serde(default)]
    pub routers: Vec<QuickStartRouter>,
}

/// One node's Quick-Start agent (ns-2.35's `Agent/QSAgent`, qs/qsagent.cc): it checks each
/// request leaving the node against the link it leaves by. The defaults are ns-2.35's
/// (tcl/lib/ns-default.tcl).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuickStartRouter {
    pub node: u32,
    /// false: the node forwards requests untouched, which makes the sender ignore the
    /// answer (ns-2's `qs_enabled_ 0`; RFC 4782 section 4.3's QS TTL check).
    #[serde(default = "yes")]
    pub enabled: bool,
    /// ns-2's `algorithm_`: 1 a share of the unused bandwidth, 2 a share of the bandwidth
    /// below a utilisation threshold, 3 (the default, RFC 4782 appendix E.2) the allocation
    /// less the peak utilisation, 4 approves everything; others reject everything.
    #[serde(default = "QuickStartRouter::default_algorithm")]
    pub algorithm: u32,
    /// `alloc_rate_`: the fraction of the link's bandwidth Quick-Start may give.
    #[serde(default = "QuickStartRouter::default_share")]
    pub alloc_rate: f64,
    /// `threshold_`: algorithms 2 and 3 approve only while the utilisation plus the recent
    /// approvals stay under this fraction of the bandwidth.
    #[serde(default = "QuickStartRouter::default_share")]
    pub threshold: f64,
    /// `max_rate_`, KB/s (1024 bytes): the most algorithm 1 approves to one request.
    #[serde(default = "QuickStartRouter::default_max_rate")]
    pub max_rate: u32,
    /// `state_delay_`: approvals count against new requests for this long and the one before.
    #[serde(default = "QuickStartRouter::default_state_delay")]
    pub state_delay_ps: u64,
    /// The utilisation of the queues of the links out of the node (ns-2's `Queue`
    /// `util_weight_`, `util_check_intv_`, `util_records_`): the weight of the decaying
    /// average (per second), and how many intervals of `util_interval` the peak is taken over.
    #[serde(default = "QuickStartRouter::default_util_weight")]
    pub util_weight: f64,
    #[serde(default = "QuickStartRouter::default_util_interval")]
    pub util_interval_ps: u64,
    #[serde(default = "QuickStartRouter::default_util_records")]
    pub util_records: u32,
}

fn yes() -> bool {
    true
}

impl QuickStartRouter {
    fn default_algorithm() -> u32 {
        3
    }
    fn default_share() -> f64 {
        0.85
    }
    fn default_max_rate() -> u32 {
        256
    }
    fn default_state_delay() -> u64 {
        200_000_000_000
    }
    fn default_util_weight() -> f64 {
        0.8
    }
    fn default_util_interval() -> u64 {
        200_000_000_000
    }
    fn default_util_records() -> u32 {
        5
    }
}

impl Default for QuickStartRouter {
    fn default() -> Self {
        QuickStartRouter {
            node: 0,
            enabled: true,
            algorithm: Self::default_algorithm(),
            alloc_rate: Self::default_share(),
            threshold: Self::default_share(),
            max_rate: Self::default_max_rate(),
            state_delay_ps: Self::default_state_delay(),
            util_weight: Self::default_util_weight(),
            util_interval_ps: Self::default_util_interval(),
            util_records: Self::default_util_records(),
        }
    }
}

impl Scenario {
    /// The resolved document's JSON Schema (draft 2020-12), made from the types serde reads it
    /// into (schemars), so that it says what this engine reads: the front ends' documents
    /// validate against it (tests/unit/test_engine_schema.py), and docs/engine.schema.json is
    /// it as published. What a schema cannot say (indices in range, one of two limits, ...)
    /// [`Scenario::validate`] checks.
    pub fn json_schema() -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(Scenario)).expect("a schema is JSON")
    }
}

/// Lists whose elements a reading error names by their index (`flow[3].cc_params.beta: ...`),
/// as [`Scenario::validate`] names them.
mod numbered {
    use serde::de::{Deserialize, Deserializer, Error, SeqAccess, Visitor};
    use std::marker::PhantomData;

    pub fn flows<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<super::FlowConfig>, D::Error> {
        d.deserialize_seq(Numbered("flow", PhantomData))
    }

    pub fn links<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<super::LinkConfig>, D::Error> {
        d.deserialize_seq(Numbered("link", PhantomData))
    }

    pub fn tcp_tables<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<super::TcpConfig>, D::Error> {
        d.deserialize_seq(Numbered("tcp_table", PhantomData))
    }

    struct Numbered<T>(&'static str, PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for Numbered<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a list of {}s", self.0)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
            loop {
                match seq.next_element::<T>() {
                    Ok(Some(x)) => out.push(x),
                    Ok(None) => return Ok(out),
                    Err(e) => {
                        return Err(A::Error::custom(place(self.0, out.len(), &e.to_string())))
                    }
                }
            }
        }
    }

    /// `what[i]` before the message of element i's error: joined by a dot to a message that
    /// starts with a key path (`cc_params.beta: ...`), else by a colon; without the reader's
    /// position (the reader adds the list's own).
    fn place(what: &str, i: usize, msg: &str) -> String {
        let msg = match msg.rfind(" at line ") {
            Some(k) if msg[k..].contains(" column ") => &msg[..k],
            _ => msg,
        };
        if keyed(msg) {
            format!("{what}[{i}].{msg}")
        } else {
            format!("{what}[{i}]: {msg}")
        }
    }

    /// The message starts with a key path and a colon (`cc_params.beta: ...`).
    pub(super) fn keyed(msg: &str) -> bool {
        msg.split_once(": ").is_some_and(|(key, _)| {
            !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c))
        })
    }
}

/// A packet trace's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TraceFormat {
    /// ns-2's trace lines.
    Ns2,
    /// pcap frames.
    Pcap,
}

/// A queue discipline (`queue::`), by the name scenarios give it (the registry's).
pub use crate::queue::QueueKind;

/// A packet trace: ns-2 lines or pcap frames, on link directions or at nodes.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceConfig {
    pub format: TraceFormat,
    /// The file to write (the front end makes it absolute).
    pub path: String,
    /// Link indices; with `nodes` also empty, every link.
    #[serde(default)]
    pub links: Vec<u32>,
    /// pcap only: capture at these nodes, every packet leaving or reaching them.
    #[serde(default)]
    pub nodes: Vec<u32>,
    /// ns-2 only: the events to record on its links (`+`, `-`, `r`, `d`, `lost`); empty: all.
    #[serde(default)]
    pub events: Vec<String>,
    /// ns-2 only: links whose loss-model drops this trace leaves out (in an ns-2 script, the
    /// loss model's drop target was pointed elsewhere).
    #[serde(default)]
    pub lost_untraced: Vec<u32>,
    /// ns-2 only: links on which this trace's `+` comes before the loss model at the link's
    /// entry: every packet offered, as it was before the model marked or took it (in an ns-2
    /// script, trace-queue after the link's errormodule).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ahead_of_loss: Vec<u32>,
    /// ns-2 only: append the TCP header fields to each TCP line (ns-2's `Trace set
    /// show_tcphdr_ 1`: ackno, flags, hlen, SACK blocks).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tcp_header: bool,
}

fn is_zero_u8(x: &u8) -> bool {
    *x == 0
}

fn is_zero_u64(x: &u64) -> bool {
    *x == 0
}

fn is_false(x: &bool) -> bool {
    !*x
}

fn default_profile() -> String {
    "ns2".to_string()
}

#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    pub duration_ps: u64,
    #[serde(default)]
    pub warmup_ps: u64,
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[serde(default)]
    pub sample_interval_ps: Option<u64>,
    /// Run the invariant checker (always on in debug builds); see `sim/invariants.rs`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub check: bool,
    /// Stop the run cleanly after this many events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_events: Option<u64>,
    /// Stop the run cleanly when more packets than this are held in the network at once
    /// (default `invariants::DEFAULT_MAX_PACKETS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_packets: Option<u64>,
    /// How routers choose among equal-cost shortest paths (`net/routing.rs`).
    #[serde(default, skip_serializing_if = "Routing::is_shortest")]
    pub routing: Routing,
    /// How events of one exact instant are ordered (`sim/ns2_clock.rs`).
    #[serde(default, skip_serializing_if = "Ties::is_insertion")]
    pub ties: Ties,
}

/// `run.ties`: events of one exact instant in the order they were scheduled, or as ns-2.35
/// orders them (by its double-valued event times, then its scheduling order), which makes an
/// ns-2 script's output ns-2's where simultaneous events meet (`ackclock ns2` sets it).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Ties {
    #[default]
    Insertion,
    Ns2,
}

impl Ties {
    fn is_insertion(&self) -> bool {
        *self == Ties::Insertion
    }
}

/// `run.routing`: one shortest path per destination, ties to the first declared link, or
/// every shortest path, chosen per flow by a hash (ECMP), or one shortest path as ns-2.35's
/// static routing chooses it (`RouteLogic::compute_routes`: ties to the lowest-numbered
/// node, `net/routing/ns2.rs`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Routing {
    #[default]
    Shortest,
    Ecmp,
    Ns2,
}

impl Routing {
    fn is_shortest(&self) -> bool {
        *self == Routing::Shortest
    }
}

/// Resource guards on the time series: samples per series, and rows over all series.
pub const MAX_SAMPLES: u64 = 50_000_000;
pub const MAX_SAMPLE_ROWS: u64 = 20_000_000;
/// Resource guard: packets one UDP application may send over the run (each costs an event
/// per hop: 1e10 packets is hours of work).
pub const MAX_APP_PACKETS: u64 = 10_000_000_000;

fn default_seed() -> u64 {
    1
}

/// One simplex link direction.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkConfig {
    pub from: u32,
    pub to: u32,
    pub rate_bps: f64,
    pub delay_ps: u64,
    #[serde(default)]
    pub queue: QueueConfig,
    #[serde(default)]
    pub loss: Option<LossConfig>,
    /// Keep per-flow queue counters on this direction (ns-2 `makeflowmon Fid`).
    #[serde(default)]
    pub monitor_flows: bool,
    /// The loss model sits at the link's entry, before its queue: a packet it takes is never
    /// queued (ns-2.35 tcl/lib/ns-link.tcl: `$ns lossmodel` and `$link errormodule` put the
    /// module at the link's head, `SimpleLink::errormodule` -> `add-to-head`). Otherwise it
    /// takes packets that have crossed the link (`$ns link-lossmodel`, `insert-linkloss`:
    /// after the delay element).
    #[serde(default)]
    pub loss_at_entry: bool,
    /// Further loss models at the link's entry, met in this order after `loss`, each with its
    /// own counts (ns-2.35 tcl/lib/ns-link.tcl: every `$link errormodule` goes to the link's
    /// head, `Link::add-to-head`, ahead of those placed before). Only `drop_list` (which numbers
    /// the flow's packets as they reach it, from 1) and `periodic`; what a model delays goes on
    /// to the next one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loss_behind: Vec<LossConfig>,
    /// Serialisation times in whole nanoseconds, rounded to the nearest, as ns-3's
    /// `DataRate::CalculateBytesTxTime` gives them (the `ns3` profile's); otherwise exact to
    /// the picosecond. Only rates above 1 Gb/s or so notice.
    #[serde(default, skip_serializing_if = "is_false")]
    pub tx_time_ns: bool,
}

/// A loss model on a link direction.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LossConfig {
    /// Each packet lost with probability `p`.
    Bernoulli { p: f64 },
    /// Drop these transmissions (numbered from 1) of the flow with index `flow`; with
    /// `mark_ecn`, mark them Congestion Experienced and let them pass instead (ns-2.35's
    /// `ErrorModel` with `markecn_`, `ErrorModel::recv`: `ce() = 1`, ECT or not).
    DropList {
        flow: u32,
        packets: Vec<u64>,
        #[serde(default)]
        mark_ecn: bool,
        /// Non-zero: delay the packets it takes by this many picoseconds instead of dropping
        /// them, then offer them to the link's queue (ns-2.35's `ErrorModel::recv` with
        /// `delay_pkt_`: `schedule(target_, p, delay_)`); only at the link's entry.
        #[serde(default, skip_serializing_if = "is_zero_u64")]
        delay_ps: u64,
        /// Take the flow's ACKs that cross this link direction, numbered from 1 as they
        /// reach the model, instead of its data (ns-2.35's `ErrorModule` on the ACKs' path).
        #[serde(default, skip_serializing_if = "is_false")]
        acks: bool,
        /// `flow` is a two-way connection's: number every packet of the connection that
        /// crosses this link direction (both directions' flows, data and pure ACKs alike),
        /// from 1, as ns-2.35's `ErrorModule` numbers the packets of the connection's `fid_`
        /// that reach it. Not with `acks`.
        #[serde(default, skip_serializing_if = "is_false")]
        connection: bool,
        /// Number the flow's data packets as they reach the model, from 1, rather than by the
        /// sender's transmission number: packets dropped before this link are not counted
        /// (ns-2.35's `ListErrorModel::corrupt` and `PeriodicErrorModel::corrupt` count what
        /// they are offered). Models in `loss_behind` always count so.
        #[serde(default, skip_serializing_if = "is_false")]
        counted: bool,
    },
    /// Each byte corrupted with probability `p`: a packet of n bytes is lost with
    /// probability 1 - (1 - p)^n (ns-2 `ErrorModel` unit byte, ns-3 `RateErrorModel` bytes).
    ByteBernoulli { p: f64 },
    /// Two-state Markov (Gilbert-Elliott) loss: per packet the state moves good->bad with
    /// `p_good_bad` and bad->good with `p_bad_good`; a packet is lost with `loss_good` or
    /// `loss_bad` according to the state it finds.
    GilbertElliott {
        p_good_bad: f64,
        p_bad_good: f64,
        loss_good: f64,
        loss_bad: f64,
    },
    /// Deterministic: of every `period` packets, numbered from 0, those at `offset` ..
    /// `offset + burst` are lost (ns-2 `ErrorModel/Periodic`).
    /// With `mark_ecn` and `delay_ps` as `DropList`'s.
    Periodic {
        period: u64,
        offset: u64,
        burst: u64,
        #[serde(default)]
        mark_ecn: bool,
        /// As `DropList`'s.
        #[serde(default, skip_serializing_if = "is_zero_u64")]
        delay_ps: u64,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowConfig {
    pub name: String,
    pub kind: FlowKind,
    pub from: u32,
    pub to: u32,
    #[serde(default)]
    pub tcp: Option<TcpConfig>,
    /// In place of `tcp`: the index of its table in the scenario's `tcp_tables`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp_table: Option<u32>,
    /// ns-2's `boot_time_` of the flow's agent, in place of its TCP parameters'
    /// `ns2_boot_time_ps`: each ns-2 agent draws its own, so flows alike but for it can
    /// still share one table of `tcp_tables`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ns2_boot_time_ps: Option<u64>,
    /// TFRC flows: the sender's and receiver's parameters (`tfrc::TfrcConfig`).
    // Boxed, as `rap`: a flow of another kind holds a pointer, not the 180 bytes (every
    // flow's configuration is kept for the run: 10 000 flows, 10 000 copies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tfrc: Option<Box<crate::tfrc::TfrcConfig>>,
    /// RAP flows: the source's and receiver's parameters (`rap::RapConfig`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rap: Option<Box<crate::rap::RapConfig>>,
    /// UDP only: IP + UDP header bytes added to each datagram.
    #[serde(default)]
    pub header_size: u32,
    /// ns-2 `fid_`, the flow id in packet traces; None: the flow's index.
    #[serde(default)]
    pub fid: Option<u32>,
    /// The priority its packets (and ACKs) carry, 0..15 (Linux's skb->priority, ns-3's
    /// SocketPriorityTag), which `prio` and `pfifo_fast` queues map to a band.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub priority: u8,
    /// ns-2 port numbers of the sending and receiving agents in packet traces (an ns-2 script
    /// numbers agents per node in the order it attaches them); None: numbered flow by flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ports: Option<[u32; 2]>,
    /// TCP variables to trace on every change (see `trace::tracer::TRACEABLE`).
    #[serde(default)]
    pub trace: Vec<String>,
    pub app: AppConfig,
    /// One direction of a two-way TCP connection (`tcp/full.rs`); None: a one-way flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connection: Option<ConnectionConfig>,
}

/// A flow that is one direction of a two-way ("full") TCP connection: the initiator's
/// flow carries its data from `from` to `to`, the acceptor's flow (`peer`) the data back.
/// Both are FTP applications (`size_bytes`: that side's bytes, None: endless) with the same
/// TCP parameters; the acceptor's `start` is ignored (it starts when the SYN arrives).
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectionConfig {
    /// The index of the flow carrying the other direction.
    pub peer: u32,
    /// This flow's sender opens the connection (active open).
    pub initiator: bool,
    /// `request-response`: the acceptor writes its data once the initiator's have arrived
    /// in full, and the initiator closes when the acceptor has; `concurrent`: both write
    /// at once and each closes after its last byte. Read from the initiator's flow.
    #[serde(default)]
    pub exchange: crate::tcp::full::Exchange,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FlowKind {
    Tcp,
    Udp,
    /// TCP-Friendly Rate Control (RFC 5348; `tfrc/`), parameters in `tfrc`.
    Tfrc,
    /// The Rate Adaptation Protocol (Rejaie, Handley, Estrin 1999; ns-2.35's `Agent/RAP`,
    /// `rap.rs`), parameters in `rap`: an endless source from the application's start to its
    /// stop.
    Rap,
}

#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum AppConfig {
    /// Infinite bulk transfer (ns-2 Application/FTP).
    Ftp {
        start: Distribution,
        #[serde(default)]
        stop_ps: Option<u64>,
        /// A finite transfer of this many payload bytes; None: endless.
        #[serde(default)]
        size_bytes: Option<u64>,
    },
    /// Constant bit rate: one `packet_size`-byte payload every `interval_ps`; with `random`,
    /// each interval is jittered uniformly by up to half its length (ns-2 `random_`). Over
    /// TCP with `after_connect` the first write comes one interval after the connection
    /// opens, not at the start (ns-3's `OnOffApplication`: `ConnectionSucceeded`,
    /// `StartSending`, `ScheduleNextTx`).
    Cbr {
        start: Distribution,
        #[serde(default)]
        stop_ps: Option<u64>,
        interval_ps: u64,
        packet_size: u32,
        #[serde(default)]
        random: bool,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        after_connect: bool,
        /// With `after_connect`: ns-3.44's `OnOffApplication` with an `OnTime` of this and an
        /// `OffTime` of 0, which stops and starts sending again every `OnTime` since it began
        /// (`StopSending` -> `CancelEvents`, `StartSending` -> `ScheduleNextTx`): the bits of
        /// the interrupted interval are carried in whole bits (`m_residualBits +=
        /// bits.GetHigh()`), so each restart moves the writes later by the fraction of a bit
        /// time that was dropped. None: writes every interval.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        restart_every_ps: Option<u64>,
    },
    /// On-off: bursts sent every `interval_ps` lasting an `on` draw, separated by `off`
    /// draws (ns-2 `Application/Traffic/Exponential` and `/Pareto`, ns-3 `OnOffApplication`).
    Onoff {
        start: Distribution,
        #[serde(default)]
        stop_ps: Option<u64>,
        interval_ps: u64,
        packet_size: u32,
        on: Distribution,
        off: Distribution,
    },
    /// Poisson arrivals: exponential gaps of mean `mean_interval_ps`.
    Poisson {
        start: Distribution,
        #[serde(default)]
        stop_ps: Option<u64>,
        mean_interval_ps: u64,
        packet_size: u32,
    },
    /// Replays (time after start in ps, payload bytes) records in order (ns-2
    /// `Application/Traffic/Trace`).
    Trace {
        start: Distribution,
        #[serde(default)]
        stop_ps: Option<u64>,
        records: Vec<(u64, u32)>,
    },
    /// Tmix connection vectors replayed between the flow's `from` (initiator) and `to`
    /// (acceptor), each connection a pair of TCP half-connections (see `traffic/tmix/`).
    Tmix {
        start: Distribution,
        #[serde(default)]
        stop_ps: Option<u64>,
        #[serde(
            deserialize_with = "tmix::deserialize",
            serialize_with = "tmix::serialize"
        )]
        #[schemars(with = "tmix::Columns")]
        connections: Box<TmixVectors>,
        /// Tmix_DelayBox as ns-2.35's `Tmix_DelayBoxClassifier` (`create_flow_table`,
        /// `recv`): every packet of a connection waits half its vector's `r` in each
        /// direction on top of the path's own delay, so its base RTT is the path's plus
        /// `r`; false: `r` replaces the path's RTT where it is longer (see `traffic/tmix/`).
        #[serde(default, skip_serializing_if = "is_false")]
        rtt_added: bool,
        /// Connections close as ns-2.35's Tmix closes them (`Tmix::read_one_cvec`'s closing
        /// ADU, `fin_time_`; `TmixApp::timeout`): the side of the vector's last ADU writes 2
        /// bytes and its FIN this long after its last write; absent: both sides write their
        /// FIN once the last ADU is delivered (see `traffic/tmix/`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fin_wait_ps: Option<u64>,
    },
}

impl AppConfig {
    pub fn start(&self) -> &Distribution {
        match self {
            AppConfig::Ftp { start, .. }
            | AppConfig::Cbr { start, .. }
            | AppConfig::Onoff { start, .. }
            | AppConfig::Poisson { start, .. }
            | AppConfig::Trace { start, .. }
            | AppConfig::Tmix { start, .. } => start,
        }
    }
    pub fn stop_ps(&self) -> Option<u64> {
        match self {
            AppConfig::Ftp { stop_ps, .. }
            | AppConfig::Cbr { stop_ps, .. }
            | AppConfig::Onoff { stop_ps, .. }
            | AppConfig::Poisson { stop_ps, .. }
            | AppConfig::Trace { stop_ps, .. }
            | AppConfig::Tmix { stop_ps, .. } => *stop_ps,
        }
    }
}

/// A random or fixed value in picoseconds, drawn once from the component's own stream.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Distribution {
    Constant(u64),
    Uniform([u64; 2]),
    /// Mean in picoseconds.
    Exponential(u64),
    /// Mean in picoseconds and shape (> 1).
    Pareto(u64, f64),
}

impl Distribution {
    /// One draw, in picoseconds.
    pub fn sample(&self, rng: &mut crate::rng::RandomStream) -> u64 {
        match *self {
            Distribution::Constant(t) => t,
            Distribution::Uniform([a, b]) => rng.uniform_u64(a, b),
            Distribution::Exponential(mean) => rng.exponential(mean as f64).round() as u64,
            Distribution::Pareto(mean, shape) => rng
                .pareto(mean as f64, shape)
                .min(u64::MAX as f64 / 2.0)
                .round() as u64,
        }
    }

    /// The mean, in picoseconds.
    pub fn mean(&self) -> f64 {
        match *self {
            Distribution::Constant(t) => t as f64,
            Distribution::Uniform([a, b]) => (a as f64 + b as f64) / 2.0,
            Distribution::Exponential(mean) | Distribution::Pareto(mean, _) => mean as f64,
        }
    }

    fn check(&self, path: &str) -> Result<(), String> {
        match *self {
            Distribution::Uniform([a, b]) if a > b => {
                Err(format!("{path}: uniform bounds out of order"))
            }
            Distribution::Pareto(_, shape) if !(shape > 1.0 && shape.is_finite()) => Err(format!(
                "{path}: the Pareto shape must be above 1, got {shape}"
            )),
            _ => Ok(()),
        }
    }
}
