//! A link direction's queue: as the document gives it ([`QueueDocument`]: `kind`, `params`
//! and the legacy `red`/`codel`/`pie` tables, or `custom`), and as the engine takes it
//! ([`QueueConfig`]: the discipline typed, `queue::QdiscConfig`, a variant per kind with its
//! own parameter struct), read from the document when it is: an unknown kind or parameter,
//! or one out of its range, fails there, naming the link and the key
//! (`link[2].queue.max_p: expected ...`). The engine looks nothing up by name after that.

use std::collections::BTreeMap;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

use super::QueueKind;
use crate::queue::QdiscConfig;

/// RED parameters (see `queue::red`); zero thresholds and q_weight 0, -1 or -2 ask for
/// ns-2's automatic values.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RedConfig {
    pub min_thresh: f64,
    pub max_thresh: f64,
    pub q_weight: f64,
    pub max_p: f64,
    pub gentle: bool,
    pub wait: bool,
    pub bytes: bool,
    pub queue_in_bytes: bool,
    pub mean_pktsize: u32,
    pub target_delay_ps: u64,
    pub use_mark_p: bool,
    pub mark_p: f64,
}

/// CoDel (RFC 8289) and FQ-CoDel (RFC 8290) parameters; `flows` and `quantum` are
/// FQ-CoDel's.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CoDelConfig {
    pub target_ps: u64,
    pub interval_ps: u64,
    pub mtu: u32,
    #[serde(default = "default_fq_flows")]
    pub flows: u32,
    #[serde(default = "default_quantum")]
    pub quantum: u32,
    /// Mark ECN-capable packets whose sojourn exceeds this (needs `ecn`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ce_threshold_ps: Option<u64>,
}

fn default_fq_flows() -> u32 {
    1024
}

fn default_quantum() -> u32 {
    1514
}

/// PIE (RFC 8033) parameters.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieConfig {
    pub target_ps: u64,
    pub t_update_ps: u64,
    pub alpha: f64,
    pub beta: f64,
    pub max_burst_ps: u64,
    pub mean_pktsize: u32,
    pub mark_ecn_threshold: f64,
}

/// A link direction's queue as the document gives it (see [`QueueConfig`], what the engine
/// takes): the discipline by name (`kind`), its parameters by their registry names
/// (`params`) and, for the disciplines that had them before the registry, in their own table
/// (`red`, `codel` or `pie`), or a discipline written in Python (`custom`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueueDocument {
    #[serde(default, deserialize_with = "read_kind")]
    #[schemars(with = "QueueKind")]
    pub kind: QueueKind,
    #[serde(default)]
    pub limit_packets: Option<u64>,
    #[serde(default)]
    pub limit_bytes: Option<u64>,
    /// ns-2 DropTail accounting: a limit of n holds n-1 waiting packets.
    #[serde(default)]
    pub ns2: bool,
    /// Mark ECN-capable packets instead of dropping them early (RFC 3168; ns-2 `setbit_`).
    #[serde(default)]
    pub ecn: bool,
    #[serde(default)]
    pub red: Option<RedConfig>,
    /// For `codel` and `fq_codel`.
    #[serde(default)]
    pub codel: Option<CoDelConfig>,
    #[serde(default)]
    pub pie: Option<PieConfig>,
    /// The discipline's parameters by their registry names (`queue::REGISTRY`; times in
    /// picoseconds, switches 0 or 1); any not given take the registry's defaults. The `red`,
    /// `codel` and `pie` tables above give the same for those disciplines.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, f64>,
    /// A device queue below this discipline, which becomes the root queue discipline of a
    /// traffic-control layer (ns-3's; `net::device`); None: the discipline feeds the line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<DeviceConfig>,
    /// A discipline written in Python (`module:Class`, `queue::external`) instead of `kind`;
    /// `params` are its constructor's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom: Option<String>,
    /// A `cbq` queue's class tree (`queue::cbq`), in the order the classes were inserted
    /// (ns-2's `$cbqlink insert`): the scheduler's round-robin order follows it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<CbqClassConfig>,
    /// A `dsred` queue's tables (`queue::dsred`): edge or core, physical and virtual
    /// queues, PHB table, RED per virtual queue, scheduler, and an edge's policies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diffserv: Option<crate::queue::dsred::DiffServConfig>,
}

/// One class of a `cbq` queue (Floyd and Jacobson 1995; ns-2.35's `CBQClass`, set up by
/// tcl/lib/ns-queue.tcl's `CBQClass instproc setparams` and `CBQLink instproc insert`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CbqClassConfig {
    /// Its name, unique in the tree (what `parent` and the error messages refer to).
    pub name: String,
    /// The class it belongs to and may borrow from; None: a root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Its share of the link's bandwidth, 0 to 1 (ns-2's `allot`).
    pub allot: f64,
    /// It may borrow from its ancestors when over its limit (ns-2's `okborrow_`).
    #[serde(default = "default_true")]
    pub borrow: bool,
    /// The bound on its average idle time, in seconds (ns-2's `maxidle`); None: ns-2's
    /// `automaxidle` from the allotment, the priority and the link's `maxpkt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maxidle_s: Option<f64>,
    /// Scheduling priority, 0 (first) to 9 (ns-2's `priority_`).
    #[serde(default)]
    pub priority: u32,
    /// Its level in the link-sharing tree, 1 (a leaf) to 32 (ns-2's `level_`); None: one
    /// more than its highest child's (1 for a leaf).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// Added to the time a regulated class waits, in seconds (ns-2's `extradelay_`).
    #[serde(default)]
    pub extradelay_s: f64,
    /// A leaf's own DropTail queue, in packets (with the queue's `ns2` accounting, a limit of
    /// n holds n - 1); None: an interior class, which has no queue and is never scheduled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// The flows (by name) whose packets go to this class (ns-2's `$cbqlink bind`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flows: Vec<String>,
}

fn default_true() -> bool {
    true
}

/// The device queue of a traffic-control layer.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeviceConfig {
    /// Packets it holds (ns-3's point-to-point device: 100).
    pub limit_packets: u64,
    /// Byte queue limits on it (Linux's dynamic queue limits; ns-3's `SetQueueLimits`).
    #[serde(default)]
    pub bql: bool,
    /// BQL's hold time (ns-3's `DynamicQueueLimits::HoldTime`, Linux's `slack_hold_time`);
    /// None: 1 s, both systems' default.
    #[serde(default)]
    pub bql_hold_time_ps: Option<u64>,
    /// The transmit loop as ns-3.44's (`QueueDisc::Run` / `Transmit`, `NetDeviceQueue::Wake`):
    /// it stops when the discipline empties, and a wake runs it even then (net/device.rs).
    /// Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ns3_run: bool,
}

impl QueueDocument {
    /// The discipline's parameters by their registry names: `params`, and the table of the
    /// discipline's own (`red`, `codel` or `pie`) when it has one; a name given in both is an
    /// error.
    pub fn given_params(&self) -> Result<BTreeMap<String, f64>, String> {
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        let mut out: Vec<(&str, f64)> = Vec::new();
        match self.kind {
            QueueKind::Red => {
                if let Some(r) = &self.red {
                    out.extend([
                        ("min_thresh", r.min_thresh),
                        ("max_thresh", r.max_thresh),
                        ("q_weight", r.q_weight),
                        ("max_p", r.max_p),
                        ("gentle", flag(r.gentle)),
                        ("wait", flag(r.wait)),
                        ("bytes", flag(r.bytes)),
                        ("queue_in_bytes", flag(r.queue_in_bytes)),
                        ("mean_pktsize", r.mean_pktsize as f64),
                        ("target_delay", r.target_delay_ps as f64),
                        ("use_mark_p", flag(r.use_mark_p)),
                        ("mark_p", r.mark_p),
                    ]);
                }
            }
            QueueKind::CoDel | QueueKind::FqCoDel => {
                if let Some(c) = &self.codel {
                    out.extend([
                        ("target", c.target_ps as f64),
                        ("interval", c.interval_ps as f64),
                        ("mtu", c.mtu as f64),
                    ]);
                    if let Some(t) = c.ce_threshold_ps {
                        out.push(("ce_threshold", t as f64));
                    }
                    if self.kind == QueueKind::FqCoDel {
                        out.extend([("flows", c.flows as f64), ("quantum", c.quantum as f64)]);
                    }
                }
            }
            QueueKind::Pie => {
                if let Some(x) = &self.pie {
                    out.extend([
                        ("target", x.target_ps as f64),
                        ("t_update", x.t_update_ps as f64),
                        ("alpha", x.alpha),
                        ("beta", x.beta),
                        ("max_burst", x.max_burst_ps as f64),
                        ("mean_pktsize", x.mean_pktsize as f64),
                        ("mark_ecn_threshold", x.mark_ecn_threshold),
                    ]);
                }
            }
            _ => {}
        }
        let mut given = self.params.clone();
        for (k, v) in out {
            if given.insert(k.to_string(), v).is_some() {
                return Err(format!("queue.params.{k}: given twice"));
            }
        }
        Ok(given)
    }
}

/// A link direction's queue as the engine takes it: the document's ([`QueueDocument`]) with
/// the discipline and its parameters read into one [`Discipline`]. Written back as the
/// document it was read from: the parameters given (a legacy table as a table), no others.
#[derive(Clone, Debug, Serialize)]
#[serde(into = "QueueDocument")]
pub struct QueueConfig {
    pub discipline: Discipline,
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    /// ns-2 DropTail accounting: a limit of n holds n-1 waiting packets.
    pub ns2: bool,
    /// Mark ECN-capable packets instead of dropping them early (RFC 3168; ns-2 `setbit_`).
    pub ecn: bool,
    /// A device queue below this discipline (see [`QueueDocument::device`]).
    pub device: Option<DeviceConfig>,
    /// The discipline's parameters came in its legacy table (`red`, `codel`, `pie`), which
    /// the document written back keeps.
    pub legacy_table: bool,
    /// A `cbq` queue's class tree (see [`QueueDocument::classes`]).
    pub classes: Vec<CbqClassConfig>,
    /// A `dsred` queue's tables (see [`QueueDocument::diffserv`]).
    pub diffserv: Option<crate::queue::dsred::DiffServConfig>,
}

/// A link direction's discipline.
#[derive(Clone, Debug, PartialEq)]
pub enum Discipline {
    /// One of the engine's (`queue::REGISTRY`), with its parameters typed.
    Builtin(QdiscConfig),
    /// One written in Python (`module:Class`, `queue::external`), with its constructor's
    /// parameters.
    Custom {
        class: String,
        params: BTreeMap<String, f64>,
    },
}

impl Default for QueueConfig {
    /// DropTail with its defaults, no limit.
    fn default() -> QueueConfig {
        QueueConfig {
            discipline: Discipline::Builtin(
                QdiscConfig::parse(QueueKind::default(), &BTreeMap::new())
                    .expect("the default discipline builds with its defaults"),
            ),
            limit_packets: None,
            limit_bytes: None,
            ns2: false,
            ecn: false,
            device: None,
            legacy_table: false,
            classes: Vec::new(),
            diffserv: None,
        }
    }
}

impl QueueConfig {
    /// A built-in discipline with the parameters `params` (by their registry names), or the
    /// first wrong one (`name: ...`).
    pub fn with(kind: QueueKind, params: &BTreeMap<String, f64>) -> Result<QueueConfig, String> {
        Ok(QueueConfig {
            discipline: Discipline::Builtin(QdiscConfig::parse(kind, params)?),
            ..QueueConfig::default()
        })
    }

    /// The built-in discipline's kind; None for one written in Python.
    pub fn kind(&self) -> Option<QueueKind> {
        match &self.discipline {
            Discipline::Builtin(q) => Some(q.kind()),
            Discipline::Custom { .. } => None,
        }
    }
}

impl schemars::JsonSchema for QueueConfig {
    /// The document's form: [`QueueDocument`]'s.
    fn schema_name() -> std::borrow::Cow<'static, str> {
        QueueDocument::schema_name()
    }

    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        QueueDocument::json_schema(g)
    }
}

impl<'de> Deserialize<'de> for QueueConfig {
    /// The document's form ([`QueueDocument`]) read into the typed one; an error names its key
    /// under `queue` (`queue.max_p: ...`, `queue: unknown field ...`).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<QueueConfig, D::Error> {
        let doc = QueueDocument::deserialize(d).map_err(|e| {
            let msg = without_position(e.to_string());
            D::Error::custom(if super::numbered::keyed(&msg) {
                format!("queue.{msg}")
            } else {
                format!("queue: {msg}")
            })
        })?;
        QueueConfig::try_from(doc).map_err(D::Error::custom)
    }
}

/// `kind`, its error keyed (`kind: unknown queue kind ...`).
fn read_kind<'de, D: Deserializer<'de>>(d: D) -> Result<QueueKind, D::Error> {
    QueueKind::deserialize(d)
        .map_err(|e| D::Error::custom(format!("kind: {}", without_position(e.to_string()))))
}

/// A reading error's message without serde_json's position (` at line 1 column 80`).
fn without_position(mut msg: String) -> String {
    if let Some(k) = msg.rfind(" at line ") {
        if msg[k..].contains(" column ") {
            msg.truncate(k);
        }
    }
    msg
}

/// The key of `kind`'s legacy table of parameters, if it has one.
fn table_of(kind: QueueKind) -> Option<&'static str> {
    match kind {
        QueueKind::Red => Some("red"),
        QueueKind::CoDel | QueueKind::FqCoDel => Some("codel"),
        QueueKind::Pie => Some("pie"),
        _ => None,
    }
}

impl TryFrom<QueueDocument> for QueueConfig {
    type Error = String;

    fn try_from(d: QueueDocument) -> Result<QueueConfig, String> {
        let tables = [
            ("red", d.red.is_some()),
            ("codel", d.codel.is_some()),
            ("pie", d.pie.is_some()),
        ];
        let own = match &d.custom {
            Some(_) => None,
            None => table_of(d.kind),
        };
        if let Some((t, _)) = tables.iter().find(|(t, given)| *given && Some(*t) != own) {
            let of = match &d.custom {
                Some(c) => format!("the discipline {c:?}"),
                None => format!("a {} queue", d.kind.name()),
            };
            return Err(format!(
                "queue.{t}: parameters of the {t} table given for {of}; give its own in \
                 queue.params"
            ));
        }
        let discipline = match d.custom.clone() {
            Some(class) => Discipline::Custom {
                class,
                params: d.params.clone(),
            },
            None => {
                let given = d.given_params()?;
                Discipline::Builtin(
                    QdiscConfig::parse(d.kind, &given).map_err(|e| format!("queue.{e}"))?,
                )
            }
        };
        let is_cbq = d.custom.is_none() && d.kind == QueueKind::Cbq;
        if is_cbq {
            crate::queue::cbq::check_classes(&d.classes).map_err(|e| format!("queue.{e}"))?;
        } else if !d.classes.is_empty() {
            return Err("queue.classes: a class tree is for a cbq queue".into());
        }
        let is_dsred = d.custom.is_none() && d.kind == QueueKind::DsRed;
        match &d.diffserv {
            Some(t) if is_dsred => t.check().map_err(|e| format!("queue.diffserv.{e}"))?,
            Some(_) => return Err("queue.diffserv: tables for a dsred queue".into()),
            None if is_dsred => {
                return Err("queue.diffserv: a dsred queue needs its tables (phb, red, ...)".into())
            }
            None => {}
        }
        Ok(QueueConfig {
            classes: d.classes,
            diffserv: d.diffserv,
            discipline,
            limit_packets: d.limit_packets,
            limit_bytes: d.limit_bytes,
            ns2: d.ns2,
            ecn: d.ecn,
            device: d.device,
            legacy_table: own.is_some_and(|t| tables.iter().any(|&(u, given)| u == t && given)),
        })
    }
}

impl From<QueueConfig> for QueueDocument {
    fn from(q: QueueConfig) -> QueueDocument {
        let mut d = QueueDocument {
            limit_packets: q.limit_packets,
            limit_bytes: q.limit_bytes,
            ns2: q.ns2,
            ecn: q.ecn,
            device: q.device,
            classes: q.classes,
            diffserv: q.diffserv,
            ..QueueDocument::default()
        };
        match q.discipline {
            Discipline::Custom { class, params } => {
                d.custom = Some(class);
                d.params = params;
            }
            Discipline::Builtin(c) => {
                d.kind = c.kind();
                d.params = c.given();
                if let (true, Some(table)) = (q.legacy_table, table_of(d.kind)) {
                    // Read from a table, so every key of it was given.
                    let mut take = |k: &str| d.params.remove(k).unwrap_or_default();
                    match table {
                        "red" => {
                            d.red = Some(RedConfig {
                                min_thresh: take("min_thresh"),
                                max_thresh: take("max_thresh"),
                                q_weight: take("q_weight"),
                                max_p: take("max_p"),
                                gentle: take("gentle") != 0.0,
                                wait: take("wait") != 0.0,
                                bytes: take("bytes") != 0.0,
                                queue_in_bytes: take("queue_in_bytes") != 0.0,
                                mean_pktsize: take("mean_pktsize") as u32,
                                target_delay_ps: take("target_delay") as u64,
                                use_mark_p: take("use_mark_p") != 0.0,
                                mark_p: take("mark_p"),
                            });
                        }
                        "codel" => {
                            let fq = d.kind == QueueKind::FqCoDel;
                            d.codel = Some(CoDelConfig {
                                target_ps: take("target") as u64,
                                interval_ps: take("interval") as u64,
                                mtu: take("mtu") as u32,
                                flows: if fq {
                                    take("flows") as u32
                                } else {
                                    default_fq_flows()
                                },
                                quantum: if fq {
                                    take("quantum") as u32
                                } else {
                                    default_quantum()
                                },
                                // The front end gives it among the parameters.
                                ce_threshold_ps: None,
                            });
                        }
                        _ => {
                            d.pie = Some(PieConfig {
                                target_ps: take("target") as u64,
                                t_update_ps: take("t_update") as u64,
                                alpha: take("alpha"),
                                beta: take("beta"),
                                max_burst_ps: take("max_burst") as u64,
                                mean_pktsize: take("mean_pktsize") as u32,
                                mark_ecn_threshold: take("mark_ecn_threshold"),
                            });
                        }
                    }
                }
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::{Discipline, QueueConfig};
    use crate::queue::{QdiscConfig, QueueKind};
    use crate::scenario::Scenario;

    fn document() -> Value {
        let sc = crate::fixtures::dumbbell(2, 1e8, 1, 1e7, 10, 50, crate::fixtures::ns2_tcp(), 1);
        serde_json::to_value(&sc).unwrap()
    }

    fn read(doc: &Value) -> Result<Scenario, String> {
        Scenario::from_json(&doc.to_string())
    }

    /// A queue's discipline and parameters are read into one typed value (`QdiscConfig`),
    /// from `params` or a legacy table, and written back as given: a table as a table, the
    /// parameters given in `params` alone.
    #[test]
    fn the_queue_is_read_typed_and_written_back_as_given() {
        let mut doc = document();
        let queues = [
            json!({"kind": "red", "limit_packets": 50, "limit_bytes": null, "ns2": true,
                   "ecn": true, "red": {"min_thresh": 5.0, "max_thresh": 15.0,
                   "q_weight": 0.002, "max_p": 0.1, "gentle": true, "wait": true,
                   "bytes": false, "queue_in_bytes": true, "mean_pktsize": 1000,
                   "target_delay_ps": 5_000_000_000u64, "use_mark_p": true, "mark_p": 0.1},
                   "codel": null, "pie": null, "params": {"mark_p_strict": 1.0}}),
            json!({"kind": "fq_codel", "limit_packets": 1000, "limit_bytes": null,
                   "ns2": false, "ecn": false, "red": null, "codel": {"target_ps":
                   5_000_000_000u64, "interval_ps": 100_000_000_000u64, "mtu": 1500,
                   "flows": 16, "quantum": 300}, "pie": null,
                   "params": {"ce_threshold": 1e9}}),
            json!({"kind": "pie", "limit_packets": 100, "limit_bytes": null, "ns2": false,
                   "ecn": false, "red": null, "codel": null, "pie": {"target_ps":
                   15_000_000_000u64, "t_update_ps": 15_000_000_000u64, "alpha": 0.125,
                   "beta": 1.25, "max_burst_ps": 150_000_000_000u64, "mean_pktsize": 1000,
                   "mark_ecn_threshold": 0.1}}),
            json!({"kind": "tbf", "limit_packets": 100, "limit_bytes": null, "ns2": false,
                   "ecn": false, "red": null, "codel": null, "pie": null,
                   "params": {"token_rate": 2e6, "burst": 5000.0}}),
            json!({"kind": "droptail", "limit_packets": 10, "limit_bytes": null,
                   "ns2": false, "ecn": false, "red": null, "codel": null, "pie": null,
                   "params": {"drop": 1.0}, "custom": "mymod:Mine"}),
        ];
        for q in queues {
            doc["links"][1]["queue"] = q.clone();
            let sc = read(&doc).unwrap();
            assert_eq!(serde_json::to_value(&sc).unwrap(), doc, "{q}");
        }
        doc["links"][1]["queue"]["custom"] = Value::Null;
        doc["links"][1]["queue"]["params"] = json!({});
        doc["links"][1]["queue"]["kind"] = "red".into();
        doc["links"][1]["queue"]["red"] = queues_red_table();
        let sc = read(&doc).unwrap();
        let Discipline::Builtin(QdiscConfig::Red(g)) = &sc.links[1].queue.discipline else {
            panic!("{:?}", sc.links[1].queue.discipline)
        };
        let red = g.resolve(None);
        assert_eq!(
            (red.max_thresh, red.mean_pktsize, red.gentle),
            (15.0, 1000, true)
        );
        assert_eq!(red.target_delay, crate::time::SimDuration::from_millis(5));
        assert!(!red.mark_p_strict, "not given: the engine's default");
        assert_eq!(sc.links[1].queue.kind(), Some(QueueKind::Red));
    }

    fn queues_red_table() -> Value {
        json!({"min_thresh": 5.0, "max_thresh": 15.0, "q_weight": 0.002, "max_p": 0.1,
               "gentle": true, "wait": true, "bytes": false, "queue_in_bytes": false,
               "mean_pktsize": 1000, "target_delay_ps": 5_000_000_000u64, "use_mark_p": true,
               "mark_p": 0.1})
    }

    /// A wrong kind, parameter or table fails when the document is read, on one line naming
    /// the link and the key, without serde_json's position.
    #[test]
    fn a_wrong_queue_names_the_link_and_the_key() {
        let cases = [
            (
                json!({"kind": "red", "limit_packets": 50, "params": {"gamma": 1.0}}),
                "link[1].queue.gamma: not a parameter of red; expected min_thresh, max_thresh,",
            ),
            (
                json!({"kind": "red", "limit_packets": 50, "params": {"max_p": 1.5}}),
                "link[1].queue.max_p: expected a number in (0, 1], got 1.5",
            ),
            (
                json!({"kind": "red", "limit_packets": 50, "red": queues_red_table(),
                       "params": {"max_p": 0.2}}),
                "link[1].queue.params.max_p: given twice",
            ),
            (
                json!({"kind": "droptail", "limit_packets": 50, "red": queues_red_table()}),
                "link[1].queue.red: parameters of the red table given for a droptail queue",
            ),
            (
                json!({"kind": "wfq", "limit_packets": 50}),
                "link[1].queue.kind: unknown queue kind \"wfq\"; expected one of droptail,",
            ),
            (
                json!({"kind": "red", "limit_packets": 50, "limt": 3}),
                "link[1].queue: unknown field `limt`, expected one of",
            ),
        ];
        for (q, expected) in cases {
            let mut doc = document();
            doc["links"][1]["queue"] = q;
            let err = read(&doc).unwrap_err();
            let err = err.strip_prefix("resolved scenario: ").unwrap_or(&err);
            assert!(err.starts_with(expected), "{err}\nexpected {expected}");
            assert!(!err.contains(" at line ") && !err.contains('\n'), "{err}");
        }
        // A document that is not JSON keeps serde_json's position: nothing else says where.
        let err = Scenario::from_json("{\"name\": ").unwrap_err();
        assert!(err.contains(" at line 1 column "), "{err}");
    }

    /// The default queue: DropTail with its defaults, no limit.
    #[test]
    fn the_default_queue_is_droptail() {
        let q = QueueConfig::default();
        assert_eq!(q.kind(), Some(QueueKind::DropTail));
        assert_eq!(
            (q.limit_packets, q.limit_bytes, q.ns2, q.ecn),
            (None, None, false, false)
        );
    }
}
