//! Queue disciplines, behind one trait and one registry.
//!
//! Two services, by when a discipline decides ([`Service`]):
//! - Enqueue-time disciplines (DropTail, RED, PIE) only decide whether to admit an arriving
//!   packet ([`QueueDiscipline::admit`]: admit, mark or drop). A FIFO, work-conserving link
//!   then knows each packet's departure time when it accepts it, so these need no dequeue
//!   event. They see the backlog of packets waiting (not the one being serialised), as ns-2's
//!   queues do. One with periodic work (PIE's probability update) sets `PERIODIC`: the link
//!   runs [`QueueDiscipline::update`] at each due instant as time passes, with that instant's
//!   backlog, so it needs no event either.
//! - Dequeue-time disciplines (CoDel, FQ-CoDel) hold the packets themselves
//!   ([`QueueDiscipline::enqueue`]) and decide when the line asks for the next one
//!   ([`QueueDiscipline::dequeue`]); a link running one schedules an event whenever the line
//!   frees up with packets waiting (see `net::link`).
//!
//! Adding a discipline (Linux: a file and `register_qdisc`): one file in this directory with
//! its parameters as a typed struct (one `crate::params!` block: a field per parameter, with
//! default, range, unit and ns-2/ns-3 names) and a type that implements [`QueueDiscipline`]
//! (its [`QdiscInfo`]: name, service, the struct's `PARAMS`; `type Params`; `new`; the hooks
//! of its service), and one line `module::Type,` in the `disciplines!` list below. The list
//! makes the module, the [`AnyQueue`] enum and its dispatch (enum dispatch: no virtual call per
//! packet), the [`QueueKind`] a scenario names it by, `QdiscConfig` (its configuration typed,
//! a variant per kind with the parameters given) and [`REGISTRY`], which the Python front end reads
//! through the binding (`ackclock._core.queue_registry()`) to check, alias, default and
//! document its parameters. A scenario passes them in `queue.params` (name -> number; times in
//! picoseconds, switches 0 or 1).

pub mod external;

use std::collections::BTreeMap;

/// Byte queue limits, for the device queue below a discipline (`net::device`).
pub mod bql;
/// A CBQ class's estimator (`cbq`).
pub mod cbq_class;
/// CBQ's weighted round robin (`cbq`).
pub mod cbq_wrr;
/// The new/old lists of FQ-CoDel and FQ-PIE (RFC 8290's deficit round robin).
pub mod fq_lists;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::packet::Packet;
pub use crate::params::{Described, Given, Param, ParamSet, Range, Unit};
use crate::rng::{RandomStream, Uniform};
use crate::time::{SimDuration, SimTime};

/// The changes of a queue's traced variables, recorded only when asked for (ns-2's
/// `$queue trace curq_` / `trace ave_` with `attach`; ns-2.35 queue/red.cc,
/// `REDQueue::enque` assigns them on each arrival and `REDQueue::trace` writes a line when
/// one changes). Each row: the time, the backlog the arrival found (`curq_`: packets, or
/// bytes with `queue_in_bytes`) and the average after it (`ave_`), kept when either changed.
#[derive(Clone, Debug, Default)]
pub struct VarTrace {
    pub rows: Vec<(SimTime, f64, f64)>,
    last: (f64, f64),
}

impl VarTrace {
    /// Records an arrival's (curq, ave) if either differs from the last recorded.
    #[inline]
    pub fn record(&mut self, now: SimTime, curq: f64, ave: f64) {
        if (curq, ave) != self.last {
            self.last = (curq, ave);
            self.rows.push((now, curq, ave));
        }
    }
}

/// The waiting backlog a discipline decides on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Backlog {
    pub packets: u64,
    pub bytes: u64,
}

/// What an enqueue-time discipline sees of an arriving packet.
#[derive(Clone, Copy, Debug)]
pub struct Arrival<'a> {
    pub now: SimTime,
    pub backlog: Backlog,
    pub size: u32,
    /// The packet itself: the built-in disciplines read its ECN bits ([`Arrival::ect`]), one
    /// written outside the engine shows it (flow, kind, ...).
    pub pkt: &'a Packet,
    /// When the line last went idle, if it is idle now (nothing waiting or transmitting).
    pub idle_since: Option<SimTime>,
    /// When the line will have sent everything already accepted: an arrival now waits
    /// until then.
    pub busy_until: SimTime,
    /// On a link with ns-2's clock, how long the line has been idle (as `idle_since`) in
    /// ns-2's doubles: the arrival's time less the end of the last transmission, each as
    /// ns-2 computed it (RED's idle decay counts virtual arrivals from it).
    pub idle_ns2: Option<f64>,
}

impl Arrival<'_> {
    /// The packet's sender understands ECN (RFC 3168 ECT).
    #[inline]
    pub fn ect(&self) -> bool {
        self.pkt.ecn & crate::packet::ecn::ECT != 0
    }
}

/// An enqueue-time decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Admit,
    /// Admit with Congestion Experienced set (RFC 3168).
    Mark,
    Drop,
    /// Drop, chosen at random before the queue was full (RED's unforced drop,
    /// `REDQueue::drop_early`), by a discipline whose early drops go to their own target
    /// (ns-2's `early-drop-target`, RED's `early_drop_target`): a drop the link's flow
    /// monitor counts apart too.
    EarlyDrop,
}

/// AQM state for the queue time series; NaN where a discipline has no such notion.
#[derive(Clone, Copy, Debug)]
pub struct AqmState {
    /// RED's average queue (packets, or bytes when it measures the queue in bytes).
    pub avg: f64,
    /// The current drop/mark probability (RED's p_b, PIE's drop_prob).
    pub prob: f64,
    /// CoDel's dropping state (1 while dropping), FQ-CoDel: queues in dropping state.
    pub dropping: f64,
}

impl AqmState {
    pub const NONE: AqmState = AqmState {
        avg: f64::NAN,
        prob: f64::NAN,
        dropping: f64::NAN,
    };
}

/// When a discipline decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    /// At arrival only: admit, mark or drop; the link keeps the FIFO.
    Enqueue,
    /// At departure: it holds the waiting packets and hands out the next one.
    Dequeue,
}

/// A discipline's registry entry.
#[derive(Clone, Copy, Debug)]
pub struct QdiscInfo {
    /// The name `queue.kind` selects it by.
    pub name: &'static str,
    pub service: Service,
    pub params: &'static [Param],
    /// Whether it marks ECN-capable packets instead of dropping them under `ecn = true`
    /// (otherwise `ecn` is refused).
    pub ecn: bool,
    /// Whether it takes a limit in bytes (`limit_bytes`, no limit at all allowed); the
    /// others need a positive limit in packets.
    pub limit_bytes: bool,
    /// The packet limit when the scenario gives none, where it is not the profile's (Linux's
    /// fq_codel: 10240).
    pub default_limit: Option<u64>,
    /// One line for the documentation: what it is and the RFC or paper.
    pub doc: &'static str,
    /// An enqueue-time discipline that may also be a root queue disc above a device queue
    /// (`net::device`): below one it holds its packets ([`QueueDiscipline::holds`]; RED as
    /// ns-3's `RedQueueDisc` and Linux's `sch_red`).
    pub device: bool,
}

impl QdiscInfo {
    /// An entry with no parameters, ECN or byte limit.
    pub const fn new(name: &'static str, service: Service, doc: &'static str) -> QdiscInfo {
        QdiscInfo {
            name,
            service,
            params: &[],
            ecn: false,
            limit_bytes: false,
            default_limit: None,
            doc,
            device: false,
        }
    }
}

impl Described for QdiscInfo {
    fn name(&self) -> &'static str {
        self.name
    }

    fn params(&self) -> &'static [Param] {
        self.params
    }

    fn key(&self) -> &'static str {
        "queue"
    }
}

/// What building a discipline needs from its link besides its own parameters.
#[derive(Clone, Debug)]
pub struct QueueSetup {
    /// The buffer: packets, or (where [`QdiscInfo::limit_bytes`]) bytes; None: unlimited.
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    /// ns-2's accounting where a discipline has one (DropTail: a limit of n holds n - 1).
    pub ns2: bool,
    /// Mark ECN-capable packets instead of dropping them early (RFC 3168; ns-2 `setbit_`).
    pub ecn: bool,
    pub rate_bps: f64,
    pub delay: SimDuration,
    /// The link's own random stream (`link.<name>.queue`).
    pub rng: RandomStream,
    /// Each flow's priority (0..15, by flow index), for disciplines that classify by it.
    pub flow_priority: std::sync::Arc<[u8]>,
    /// Each flow's ns-2 flow id (`fid_`, by flow index), for disciplines that classify by it.
    pub flow_fid: std::sync::Arc<[u32]>,
    /// A `cbq` queue's class tree with its flows bound (`cbq::CbqTree`).
    pub cbq: Option<std::sync::Arc<cbq::CbqTree>>,
    /// A `dsred` queue's tables, its policies' nodes resolved (`dsred::DiffServTables`).
    pub diffserv: Option<std::sync::Arc<dsred::DiffServTables>>,
    /// The link has a device queue below the discipline (`net::device`).
    pub device: bool,
}

impl QueueSetup {
    /// The packet limit of a discipline that needs one (checked positive when the scenario
    /// is read).
    pub fn packets(&self) -> u64 {
        self.limit_packets.unwrap_or(u64::MAX)
    }
}

/// A queue discipline: the per-packet decisions of its [`Service`]. Hooks of the other
/// service keep their defaults.
pub trait QueueDiscipline: Sized {
    /// Name, service and parameters, for the registry.
    const INFO: QdiscInfo;

    /// Enqueue-time disciplines with periodic work: the link calls
    /// [`QueueDiscipline::update`] at each [`QueueDiscipline::update_due`] instant.
    const PERIODIC: bool = false;

    /// Dequeue-time disciplines, under ns-2's clock (`run.ties = "ns2"`): a packet reaching an
    /// idle line is dequeued in an event of its own at that instant, scheduled then, not at
    /// once (ns-2.35's `CBQClass::recv` calls `CBQueue::sched`, a resume event of delay 0,
    /// where `Queue::recv` dequeues at once).
    const DEQUEUE_EVENT: bool = false;

    /// Its parameters as one typed struct (made by [`crate::params!`] in its file), whose
    /// declaration is `INFO.params`.
    type Params: ParamSet;

    /// The discipline with parameters `p` (checked against their ranges and
    /// [`QueueDiscipline::check`]).
    fn new(p: &Self::Params, setup: &QueueSetup) -> Self;

    /// Checks across parameters, after each was checked against its range: the first
    /// problem, starting with the parameter's name.
    fn check(_p: &Self::Params) -> Result<(), String> {
        Ok(())
    }

    /// Enqueue-time: the decision on an arriving packet.
    #[inline]
    fn admit(&mut self, _a: &Arrival) -> Verdict {
        Verdict::Admit
    }

    /// Periodic: when the next update is due.
    #[inline]
    fn update_due(&self) -> SimTime {
        SimTime::MAX
    }

    /// Periodic: the update at its due time, with the backlog waiting at that instant.
    #[inline]
    fn update(&mut self, _waiting: Backlog) {}

    /// Dequeue-time: takes an arriving packet; packets it drops (this one or others, to make
    /// room) go to `dropped`.
    #[inline]
    fn enqueue(&mut self, _now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
        dropped.push(pkt);
    }

    /// Dequeue-time: the next packet to transmit with its enqueue time; packets dropped on
    /// the way go to `dropped`, and one marked instead has CE set.
    #[inline]
    fn dequeue(&mut self, _now: SimTime, _dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
        None
    }

    /// Whether it holds the waiting packets: a dequeue-time discipline, or one of
    /// [`QdiscInfo::device`] built above a device queue.
    #[inline]
    fn holds(&self) -> bool {
        matches!(Self::INFO.service, Service::Dequeue)
    }

    /// Dequeue-time: the packets it holds.
    #[inline]
    fn backlog(&self) -> Backlog {
        Backlog::default()
    }

    /// Dequeue-time: calls `f` on every packet it holds (for the invariant checker).
    fn for_each_packet(&self, _f: &mut dyn FnMut(&Packet)) {}

    /// Dequeue-time: ECN marks made so far.
    #[inline]
    fn marks(&self) -> u64 {
        0
    }

    /// Dequeue-time: after a dequeue that returned nothing with packets waiting, when to ask
    /// again (a shaper waiting for tokens); None: when the next packet arrives.
    #[inline]
    fn wake_at(&self) -> Option<SimTime> {
        None
    }

    /// State for the queue time series.
    fn state(&self) -> AqmState {
        AqmState::NONE
    }

    /// The most packets and bytes the waiting backlog may hold, for the invariant checker
    /// (None: not checked).
    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (None, None)
    }

    /// Where its traced variables' changes go, if it has any ([`VarTrace`]; RED's).
    fn var_trace(&mut self) -> Option<&mut Option<Box<VarTrace>>> {
        None
    }

    /// Enqueue-time: a packet left the waiting backlog for the line at `now`, leaving
    /// `waiting` (a discipline that traces the backlog at departures too: PI's `curq_`,
    /// `PIQueue::deque`). Called on a link that keeps ns-2's clock.
    #[inline]
    fn departed(&mut self, _now: SimTime, _waiting: Backlog) {}

    /// Under ns-2's clock: the ns-2 time (seconds, ns-2's double) of the enqueue or dequeue
    /// call that follows, for a discipline that computes in ns-2's doubles (CBQ's
    /// estimator), where the picosecond clock's double would differ in the last bits.
    #[inline]
    fn set_ns2_now(&mut self, _now2: f64) {}

    /// Where its random decisions draw from, if it makes any that ns-2 draws from its default
    /// generator (RED's early drops: `REDQueue::drop_early`'s `Random::uniform()`); an ns-2
    /// script's run points it at ns-2's generator (`crate::rng::ns2`).
    fn random(&mut self) -> Option<&mut Uniform> {
        None
    }
}

/// Declares the disciplines: each line `module::Type`, the module a file in this directory
/// whose `Type` implements [`QueueDiscipline`] (`[boxed]` after it keeps a large state out of
/// line). Makes the modules, [`AnyQueue`] with its dispatch, [`QueueKind`] and [`REGISTRY`].
macro_rules! disciplines {
    ($($module:ident :: $ty:ident $([$boxed:ident])?),* $(,)?) => {
        $(pub mod $module;)*
        $(pub use $module::$ty;)*

        /// One of the disciplines, its state inline or boxed (enum dispatch: no allocation,
        /// no virtual call per packet).
        #[derive(Clone, Debug)]
        pub enum AnyQueue {
            $($ty(stored!($module::$ty $(, $boxed)?)),)*
            /// A discipline written outside the engine (`queue.custom`, [`external`]),
            /// deciding at enqueue, at dequeue (then it holds the packets) or both.
            External(Box<external::External>),
        }

        /// A discipline as a scenario names it (`queue.kind`), in the order of the list.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum QueueKind {
            $($ty,)*
        }

        /// Every discipline's entry, in the order of the list.
        pub const REGISTRY: &[QdiscInfo] = &[$(<$module::$ty as QueueDiscipline>::INFO,)*];

        impl QueueKind {
            pub const ALL: &'static [QueueKind] = &[$(QueueKind::$ty,)*];
        }

        /// A built-in discipline's configuration, typed: one variant per kind with its own
        /// parameters as given ([`Given`]: checked against the discipline's declaration and
        /// its [`QueueDiscipline::check`], the rest at their defaults when it is built).
        #[derive(Clone, Debug, PartialEq)]
        pub enum QdiscConfig {
            $($ty(Given< <$module::$ty as QueueDiscipline>::Params >),)*
        }

        /// Each discipline's typed parameters: their fields and declaration.
        #[cfg(test)]
        const PARAM_SETS: &[(&[&str], &[Param])] = &[$((
            < <$module::$ty as QueueDiscipline>::Params as ParamSet>::FIELDS,
            < <$module::$ty as QueueDiscipline>::Params as ParamSet>::PARAMS,
        ),)*];

        impl QdiscConfig {
            /// The discipline `kind` with the parameters `given` (by their registry names);
            /// an error names the first wrong one (`name: ...`).
            pub fn parse(kind: QueueKind, given: &BTreeMap<String, f64>) -> Result<QdiscConfig, String> {
                let strip = |e: String| e["queue.".len()..].to_string();
                match kind {
                    $(QueueKind::$ty => {
                        let g = Given::check(kind.name(), "queue", given).map_err(strip)?;
                        <$module::$ty as QueueDiscipline>::check(&g.resolve(None))?;
                        Ok(QdiscConfig::$ty(g))
                    })*
                }
            }

            /// Its kind.
            pub fn kind(&self) -> QueueKind {
                match self { $(QdiscConfig::$ty(_) => QueueKind::$ty,)* }
            }

            /// The parameters given, by their registry names.
            pub fn given(&self) -> BTreeMap<String, f64> {
                match self { $(QdiscConfig::$ty(g) => g.to_map(),)* }
            }

            /// The discipline, for a link described by `setup`.
            pub fn build(&self, setup: &QueueSetup) -> AnyQueue {
                match self {
                    $(QdiscConfig::$ty(g) => AnyQueue::$ty(store!(<$module::$ty as QueueDiscipline>::new(&g.resolve(None), setup) $(, $boxed)?)),)*
                }
            }
        }

        impl AnyQueue {

            /// Its registry kind (None: written outside the engine).
            pub fn kind(&self) -> Option<QueueKind> {
                match self { $(AnyQueue::$ty(_) => Some(QueueKind::$ty),)* AnyQueue::External(_) => None }
            }

            /// Whether it holds the waiting packets ([`Service::Dequeue`]).
            #[inline(always)]
            pub fn holds(&self) -> bool {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::holds(q),)* AnyQueue::External(q) => q.holds() }
            }

            /// Whether it has periodic updates ([`QueueDiscipline::PERIODIC`]).
            #[inline(always)]
            pub fn periodic(&self) -> bool {
                match self { $(AnyQueue::$ty(_) => <$module::$ty as QueueDiscipline>::PERIODIC,)* AnyQueue::External(q) => q.periodic() }
            }

            /// Whether it dequeues in an event of its own ([`QueueDiscipline::DEQUEUE_EVENT`]).
            pub fn dequeue_event(&self) -> bool {
                match self { $(AnyQueue::$ty(_) => <$module::$ty as QueueDiscipline>::DEQUEUE_EVENT,)* AnyQueue::External(_) => false }
            }

            /// [`QueueDiscipline::admit`].
            #[inline]
            pub fn admit(&mut self, a: &Arrival) -> Verdict {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::admit(q, a),)* AnyQueue::External(q) => q.admit(a) }
            }

            /// [`QueueDiscipline::update_due`].
            #[inline]
            pub fn update_due(&self) -> SimTime {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::update_due(q),)* AnyQueue::External(q) => q.update_due() }
            }

            /// [`QueueDiscipline::update`].
            #[inline]
            pub fn update(&mut self, waiting: Backlog) {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::update(q, waiting),)* AnyQueue::External(q) => q.update(waiting) }
            }

            /// [`QueueDiscipline::enqueue`].
            #[inline]
            pub fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::enqueue(q, now, pkt, dropped),)* AnyQueue::External(q) => q.enqueue(now, pkt, dropped) }
            }

            /// [`QueueDiscipline::dequeue`].
            #[inline]
            pub fn dequeue(&mut self, now: SimTime, dropped: &mut Vec<Packet>) -> Option<(SimTime, Packet)> {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::dequeue(q, now, dropped),)* AnyQueue::External(q) => q.dequeue(now, dropped) }
            }

            /// [`QueueDiscipline::backlog`].
            #[inline]
            pub fn backlog(&self) -> Backlog {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::backlog(q),)* AnyQueue::External(q) => q.backlog() }
            }

            /// [`QueueDiscipline::for_each_packet`].
            pub fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::for_each_packet(q, f),)* AnyQueue::External(q) => q.for_each_packet(f) }
            }

            /// [`QueueDiscipline::marks`].
            #[inline]
            pub fn marks(&self) -> u64 {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::marks(q),)* AnyQueue::External(q) => q.marks() }
            }

            /// [`QueueDiscipline::wake_at`].
            #[inline]
            pub fn wake_at(&self) -> Option<SimTime> {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::wake_at(q),)* AnyQueue::External(_) => None }
            }

            /// [`QueueDiscipline::state`].
            pub fn state(&self) -> AqmState {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::state(q),)* AnyQueue::External(q) => q.state() }
            }

            /// [`QueueDiscipline::limits`].
            pub fn limits(&self) -> (Option<u64>, Option<u64>) {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::limits(q),)* AnyQueue::External(q) => q.limits() }
            }

            /// [`QueueDiscipline::var_trace`].
            pub fn var_trace(&mut self) -> Option<&mut Option<Box<VarTrace>>> {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::var_trace(q),)* AnyQueue::External(_) => None }
            }

            /// [`QueueDiscipline::departed`].
            #[inline]
            pub fn departed(&mut self, now: SimTime, waiting: Backlog) {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::departed(q, now, waiting),)* AnyQueue::External(_) => {} }
            }

            /// [`QueueDiscipline::set_ns2_now`].
            #[inline]
            pub fn set_ns2_now(&mut self, now2: f64) {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::set_ns2_now(q, now2),)* AnyQueue::External(_) => {} }
            }

            /// [`QueueDiscipline::random`].
            pub fn random(&mut self) -> Option<&mut Uniform> {
                match self { $(AnyQueue::$ty(q) => <$module::$ty as QueueDiscipline>::random(q),)* AnyQueue::External(_) => None }
            }
        }
    };
}

// The registry: one line per discipline (DropTail first: the default kind).
disciplines! {
    droptail::DropTail,
    red::Red [boxed],
    codel::CoDel [boxed],
    fq_codel::FqCoDel [boxed],
    pie::Pie [boxed],
    ared::AdaptiveRed [boxed],
    nlred::NonlinearRed [boxed],
    cobalt::Cobalt [boxed],
    fq_pie::FqPie [boxed],
    tbf::Tbf [boxed],
    pfifo_fast::PfifoFast [boxed],
    prio::Prio [boxed],
    sfq::Sfq [boxed],
    drr::Drr [boxed],
    fq::Fq [boxed],
    pi::Pi [boxed],
    rem::Rem [boxed],
    vq::Vq [boxed],
    cbq::Cbq [boxed],
    dsred::DsRed [boxed],
}

impl Default for QueueKind {
    fn default() -> QueueKind {
        QueueKind::ALL[0]
    }
}

impl QueueKind {
    /// Its registry entry.
    pub fn info(self) -> &'static QdiscInfo {
        &REGISTRY[self as usize]
    }

    /// The name scenarios give it.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The discipline named `name`.
    pub fn by_name(name: &str) -> Option<QueueKind> {
        QueueKind::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Checks a link's discipline: its limit, ECN and parameters (`given`, checked against
    /// its entry); an error names the key, under the link's queue table.
    pub fn check(
        self,
        limit_packets: Option<u64>,
        limit_bytes: Option<u64>,
        ecn: bool,
        given: &BTreeMap<String, f64>,
    ) -> Result<(), String> {
        self.check_link(limit_packets, limit_bytes, ecn)?;
        QdiscConfig::parse(self, given).map(|_| ())
    }

    /// Checks what a link gives the discipline: its limit and ECN; an error names the key,
    /// under the link's queue table.
    pub fn check_link(
        self,
        limit_packets: Option<u64>,
        limit_bytes: Option<u64>,
        ecn: bool,
    ) -> Result<(), String> {
        let info = self.info();
        if !info.limit_bytes {
            if limit_bytes.is_some() {
                return Err(format!(
                    "limit_bytes: a {} queue takes its limit in packets (limit)",
                    info.name
                ));
            }
            if limit_packets.is_none_or(|n| n == 0) {
                return Err(format!(
                    "limit: {} needs a positive limit in packets",
                    info.name
                ));
            }
        }
        if ecn && !info.ecn {
            return Err(format!("ecn: a {} queue never marks", info.name));
        }
        Ok(())
    }
}

impl Serialize for QueueKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl schemars::JsonSchema for QueueKind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "QueueKind".into()
    }

    /// A name of the registry.
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = REGISTRY.iter().map(|i| i.name).collect();
        schemars::json_schema!({
            "description": "A queue discipline of the registry (queue::REGISTRY), by name.",
            "type": "string",
            "enum": names,
        })
    }
}

impl<'de> Deserialize<'de> for QueueKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<QueueKind, D::Error> {
        let name = String::deserialize(d)?;
        QueueKind::by_name(&name).ok_or_else(|| {
            let names: Vec<&str> = REGISTRY.iter().map(|i| i.name).collect();
            serde::de::Error::custom(format!(
                "unknown queue kind {name:?}; expected one of {}",
                names.join(", ")
            ))
        })
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    fn setup() -> QueueSetup {
        QueueSetup {
            limit_packets: Some(100),
            limit_bytes: None,
            ns2: false,
            ecn: false,
            rate_bps: 1e7,
            delay: SimDuration::from_millis(10),
            rng: RandomStream::named(1, "test"),
            flow_priority: vec![].into(),
            flow_fid: vec![].into(),
            cbq: None,
            diffserv: None,
            device: false,
        }
    }

    /// The registry is consistent: unique names, every default (and profile default) inside
    /// its range, every discipline builds with its defaults under the name it registered,
    /// and its service matches what its hooks do.
    #[test]
    fn every_registered_discipline_builds_with_its_defaults() {
        assert_eq!(QueueKind::default().name(), "droptail");
        for (i, info) in REGISTRY.iter().enumerate() {
            assert!(
                REGISTRY[..i].iter().all(|o| o.name != info.name),
                "{}",
                info.name
            );
            for (j, p) in info.params.iter().enumerate() {
                assert!(p.range.contains(p.default), "{}.{}", info.name, p.name);
                for &(_, d) in p.profile_defaults {
                    assert!(p.range.contains(d), "{}.{}", info.name, p.name);
                }
                assert!(info.params[..j].iter().all(|o| o.name != p.name));
            }
            let kind = QueueKind::by_name(info.name).unwrap();
            assert_eq!(kind.info().name, info.name);
            kind.check(Some(100), None, info.ecn, &BTreeMap::new())
                .unwrap();
            let q = QdiscConfig::parse(kind, &BTreeMap::new())
                .unwrap()
                .build(&setup());
            // Its typed parameters are its declaration, a field per parameter by its name.
            let (fields, params) = PARAM_SETS[i];
            let names: Vec<&str> = info.params.iter().map(|p| p.name).collect();
            assert_eq!(fields, names, "{}", info.name);
            assert_eq!(params.len(), names.len(), "{}", info.name);
            assert!(names.len() <= 64, "{}: Given's mask holds 64", info.name);
            assert_eq!(q.kind(), Some(kind));
            assert_eq!(q.holds(), info.service == Service::Dequeue);
            assert_eq!(q.backlog().packets, 0);
        }
    }

    #[test]
    fn a_link_queue_is_checked_against_the_registry() {
        let given = |k: &str, v: f64| BTreeMap::from([(k.to_string(), v)]);
        let none = BTreeMap::new();
        let red = QueueKind::by_name("red").unwrap();
        assert_eq!(
            red.check(Some(10), None, false, &given("gamma", 1.0))
                .unwrap_err(),
            "gamma: not a parameter of red; expected min_thresh, max_thresh, q_weight, max_p, \
             gentle, wait, bytes, queue_in_bytes, mean_pktsize, target_delay, use_mark_p, mark_p, \
             mark_p_strict, \
             adaptive, alpha, beta, interval, top, bottom, feng_adaptive, cautious, idle_pktsize, \
             ns1_compat, early_drop_target, hard_drop, link_bandwidth, idle_pow"
        );
        assert_eq!(
            red.check(Some(10), None, false, &given("max_p", 1.5))
                .unwrap_err(),
            "max_p: expected a number in (0, 1], got 1.5"
        );
        assert_eq!(
            red.check(None, None, false, &none).unwrap_err(),
            "limit: red needs a positive limit in packets"
        );
        assert_eq!(
            red.check(None, Some(1000), false, &none).unwrap_err(),
            "limit_bytes: a red queue takes its limit in packets (limit)"
        );
        let droptail = QueueKind::default();
        assert_eq!(
            droptail.check(None, None, true, &none).unwrap_err(),
            "ecn: a droptail queue never marks"
        );
        assert!(droptail.check(None, Some(1000), false, &none).is_ok());
        let unknown: Result<QueueKind, _> = serde_json::from_str("\"wfq\"");
        assert!(unknown
            .unwrap_err()
            .to_string()
            .starts_with("unknown queue kind \"wfq\"; expected one of droptail, red,"));
    }
}
