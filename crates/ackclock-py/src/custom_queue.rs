//! Queue disciplines written in Python (`ackclock.QueueDiscipline`,
//! docs/custom-algorithms.md): the read-only views handed to the hooks and the adapter that
//! implements the engine's `ExternalQueue` by calling the hooks a class defines (`admit` at
//! enqueue, `dequeue` at the head of the queue, `update` every `update_interval`). No
//! simulation logic: the engine's `queue::external` decides when each runs, keeps a
//! dequeue-time discipline's packets, and stops the run on a failure.
//!
//! Speed: one reused view object for the packet and one for the queue (their fields set in
//! Rust before each call), the hooks looked up once, when the discipline is made, the flow
//! names made Python strings once.

use std::collections::BTreeMap;
use std::sync::Arc;

use ackclock_core::packet::{ecn, Packet, PacketKind};
use ackclock_core::queue::external::{self, Departure, ExternalQueue, Failure, QueueHooks};
use ackclock_core::queue::{AqmState, Arrival, Backlog, QueueSetup, Verdict};
use ackclock_core::rng::RandomStream;
use ackclock_core::time::{SimDuration, SimTime};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString, PyTuple};

use crate::custom::{made_error, user_error};

/// The packet a hook decides on, as it sees it (read-only; valid during the call only: the
/// engine reuses it).
#[pyclass(module = "ackclock._core", name = "QueuedPacket")]
#[derive(Default)]
pub struct PacketView {
    /// Its size on the wire, in bytes.
    #[pyo3(get)]
    size: u32,
    /// Its ECN bits (RFC 3168: 1 ECT, 2 CE, 4 ECE, 8 CWR).
    #[pyo3(get)]
    ecn: u8,
    /// Its flow's index in the scenario.
    #[pyo3(get)]
    flow_index: u32,
    /// Its number, unique in the run (the packet trace's id).
    #[pyo3(get)]
    id: u64,
    /// Data: its segment (or datagram) number; ACK: the acknowledgement number.
    #[pyo3(get)]
    seq: u64,
    /// A retransmission (data) or a duplicate acknowledgement.
    #[pyo3(get)]
    retransmit: bool,
    /// When its sender sent it, in picoseconds.
    #[pyo3(get)]
    sent_ps: u64,
    /// The time of the call, in picoseconds.
    #[pyo3(get)]
    now_ps: u64,
    /// When it entered the queue, in picoseconds (at `admit`: now).
    #[pyo3(get)]
    enqueued_ps: u64,
    kind: u8,
    names: Arc<Vec<Py<PyString>>>,
}

#[pymethods]
impl PacketView {
    /// The time of the call, in seconds.
    #[getter]
    fn now(&self) -> f64 {
        SimTime(self.now_ps).as_secs_f64()
    }

    /// Its flow's name.
    #[getter]
    fn flow(&self, py: Python<'_>) -> Option<Py<PyString>> {
        self.names
            .get(self.flow_index as usize)
            .map(|n| n.clone_ref(py))
    }

    /// "data", "ack" or "udp".
    #[getter]
    fn kind(&self) -> &'static str {
        match self.kind {
            0 => "data",
            1 => "ack",
            _ => "udp",
        }
    }

    /// Whether its sender understands ECN (RFC 3168 ECT): only such a packet may be marked.
    #[getter]
    fn ect(&self) -> bool {
        self.ecn & ecn::ECT != 0
    }

    /// Whether it already carries Congestion Experienced.
    #[getter]
    fn ce(&self) -> bool {
        self.ecn & ecn::CE != 0
    }

    /// When it entered the queue, in seconds.
    #[getter]
    fn enqueued(&self) -> f64 {
        SimTime(self.enqueued_ps).as_secs_f64()
    }

    /// How long it has waited in the queue, in picoseconds (at `admit`: 0).
    #[getter]
    fn sojourn_ps(&self) -> u64 {
        self.now_ps - self.enqueued_ps
    }

    /// How long it has waited in the queue, in seconds.
    #[getter]
    fn sojourn(&self) -> f64 {
        SimDuration(self.now_ps - self.enqueued_ps).as_secs_f64()
    }

    /// When its sender sent it, in seconds.
    #[getter]
    fn sent(&self) -> f64 {
        SimTime(self.sent_ps).as_secs_f64()
    }
}

impl PacketView {
    fn set(&mut self, pkt: &Packet, now: SimTime, enqueued: SimTime) {
        self.size = pkt.size;
        // The RFC 3168 bits only (the byte also holds ns-2's cong_action mark and two-way
        // connections' TCP flags).
        self.ecn = pkt.ecn & (ecn::ECT | ecn::CE | ecn::ECE | ecn::CWR);
        self.flow_index = pkt.flow.0;
        self.id = pkt.id;
        self.seq = if pkt.kind == PacketKind::TcpAck {
            pkt.ack
        } else {
            pkt.seq
        };
        self.retransmit = pkt.retransmit;
        self.sent_ps = pkt.sent_at.0;
        self.now_ps = now.0;
        self.enqueued_ps = enqueued.0;
        self.kind = match pkt.kind {
            PacketKind::TcpData => 0,
            PacketKind::TcpAck => 1,
            PacketKind::Udp => 2,
        };
    }
}

/// The link's queue, as a hook sees it: read-only, but for its random stream.
#[pyclass(module = "ackclock._core", name = "QueueView")]
pub struct QueueView {
    /// Packets and bytes waiting (not the one being serialised): at `admit` before this
    /// arrival, at `dequeue` behind the packet at the head, at `update` at its instant.
    #[pyo3(get)]
    packets: u64,
    #[pyo3(get)]
    bytes: u64,
    /// The buffer limit in packets or bytes (None: none).
    #[pyo3(get)]
    limit: Option<u64>,
    #[pyo3(get)]
    limit_bytes: Option<u64>,
    /// ns-2's DropTail accounting (a limit of n holds n - 1 waiting packets).
    #[pyo3(get)]
    ns2: bool,
    /// Whether the scenario asks to mark ECN-capable packets instead of dropping them.
    #[pyo3(get)]
    ecn: bool,
    /// The link's rate (bit/s) and propagation delay (s).
    #[pyo3(get)]
    rate_bps: f64,
    #[pyo3(get)]
    delay: f64,
    /// Simulated time, in picoseconds.
    #[pyo3(get)]
    now_ps: u64,
    /// When the line went idle, if it is idle now (nothing waiting or transmitting), in
    /// picoseconds (at `admit` of a discipline that decides at enqueue only).
    #[pyo3(get)]
    idle_since_ps: Option<u64>,
    /// When the line will have sent everything already accepted, in picoseconds (same).
    #[pyo3(get)]
    busy_until_ps: u64,
    /// The link's own random stream (`link.<name>.queue`), the one the built-in disciplines
    /// draw from.
    rng: RandomStream,
}

#[pymethods]
impl QueueView {
    /// Simulated time, in seconds.
    #[getter]
    fn now(&self) -> f64 {
        SimTime(self.now_ps).as_secs_f64()
    }

    /// The next number in [0, 1) of the link's random stream.
    fn random(&mut self) -> f64 {
        self.rng.next_f64()
    }
}

impl QueueView {
    fn set(&mut self, now: SimTime, backlog: Backlog) {
        self.packets = backlog.packets;
        self.bytes = backlog.bytes;
        self.now_ps = now.0;
    }
}

/// A class's hooks, looked up once (None: not defined, not called).
struct Funcs {
    admit: Option<Py<PyAny>>,
    dequeue: Option<Py<PyAny>>,
    update: Option<Py<PyAny>>,
    update_every: Option<SimDuration>,
    /// (column of the queue time series, attribute).
    state: Vec<(String, Py<PyString>)>,
}

/// Which hook a call is for.
#[derive(Clone, Copy)]
enum Hook {
    Admit,
    Dequeue,
    Update,
}

impl Hook {
    fn name(self) -> &'static str {
        match self {
            Hook::Admit => "admit",
            Hook::Dequeue => "dequeue",
            Hook::Update => "update",
        }
    }
}

/// One link's Python discipline: its instance, its hooks, the reused views.
struct PyQueue {
    name: String,
    obj: Py<PyAny>,
    funcs: Arc<Funcs>,
    pkt: Py<PacketView>,
    queue: Py<QueueView>,
}

impl PyQueue {
    fn raised(&self, py: Python<'_>, hook: Hook, e: PyErr) -> Failure {
        user_error(py, e, &format!("{}.{}", self.name, hook.name()))
    }

    fn attr(&self, py: Python<'_>, name: &str) -> f64 {
        self.obj
            .bind(py)
            .getattr(name)
            .ok()
            .and_then(|v| v.extract::<f64>().ok())
            .unwrap_or(f64::NAN)
    }

    /// Calls `hook(self, pkt, queue)` (the views set) and reads its verdict.
    fn verdict(&self, py: Python<'_>, hook: Hook, ect: bool) -> Result<Verdict, Failure> {
        let f = match hook {
            Hook::Admit => self.funcs.admit.as_ref(),
            _ => self.funcs.dequeue.as_ref(),
        }
        .expect("called only when defined");
        let args = PyTuple::new(
            py,
            [
                self.obj.bind(py).clone(),
                self.pkt.bind(py).clone().into_any(),
                self.queue.bind(py).clone().into_any(),
            ],
        )
        .map_err(|e| self.raised(py, hook, e))?;
        let v = f
            .bind(py)
            .call1(args)
            .map_err(|e| self.raised(py, hook, e))?;
        let verdict = match v.extract::<i64>() {
            Ok(0) if !v.is_instance_of::<PyBool>() => Verdict::Admit,
            Ok(1) if !v.is_instance_of::<PyBool>() => Verdict::Drop,
            Ok(2) if !v.is_instance_of::<PyBool>() => Verdict::Mark,
            _ => {
                let shown = v.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
                return Err(format!(
                    "{}.{} returned {shown}; expected ackclock.Verdict.ADMIT, DROP or MARK",
                    self.name,
                    hook.name()
                ));
            }
        };
        if verdict == Verdict::Mark && !ect {
            return Err(format!(
                "{}.{} returned MARK for a packet that is not ECN-capable (pkt.ect is False); \
                 expected ADMIT or DROP",
                self.name,
                hook.name()
            ));
        }
        Ok(verdict)
    }
}

impl ExternalQueue for PyQueue {
    fn name(&self) -> &str {
        &self.name
    }

    fn hooks(&self) -> QueueHooks {
        QueueHooks {
            admit: self.funcs.admit.is_some(),
            dequeue: self.funcs.dequeue.is_some(),
            update_every: self.funcs.update_every,
        }
    }

    fn admit(&mut self, a: &Arrival, pkt: &Packet) -> Result<Verdict, Failure> {
        Python::attach(|py| {
            self.pkt.bind(py).borrow_mut().set(pkt, a.now, a.now);
            {
                let mut q = self.queue.bind(py).borrow_mut();
                q.set(a.now, a.backlog);
                q.idle_since_ps = a.idle_since.map(|t| t.0);
                q.busy_until_ps = a.busy_until.0;
            }
            self.verdict(py, Hook::Admit, a.ect())
        })
    }

    fn dequeue(&mut self, d: &Departure, pkt: &Packet) -> Result<Verdict, Failure> {
        Python::attach(|py| {
            self.pkt.bind(py).borrow_mut().set(pkt, d.now, d.enqueued);
            self.queue.bind(py).borrow_mut().set(d.now, d.backlog);
            self.verdict(py, Hook::Dequeue, pkt.ecn & ecn::ECT != 0)
        })
    }

    fn update(&mut self, now: SimTime, waiting: Backlog) -> Result<(), Failure> {
        Python::attach(|py| {
            self.queue.bind(py).borrow_mut().set(now, waiting);
            let f = self
                .funcs
                .update
                .as_ref()
                .expect("called only when defined");
            f.bind(py)
                .call1((self.obj.bind(py), self.queue.bind(py)))
                .map(drop)
                .map_err(|e| self.raised(py, Hook::Update, e))
        })
    }

    fn state(&self) -> AqmState {
        Python::attach(|py| AqmState {
            avg: self.attr(py, "avg"),
            prob: self.attr(py, "prob"),
            dropping: self.attr(py, "dropping"),
        })
    }

    fn declared(&self, out: &mut dyn FnMut(&str, f64)) {
        Python::attach(|py| {
            let obj = self.obj.bind(py);
            for (column, attr) in &self.funcs.state {
                // A value that is not a number is recorded as NaN (a sample is no place to
                // stop the run).
                let v = obj
                    .getattr(attr)
                    .and_then(|v| v.extract::<f64>())
                    .unwrap_or(f64::NAN);
                out(column, v);
            }
        })
    }

    fn columns(&self) -> Vec<String> {
        self.funcs.state.iter().map(|(c, _)| c.clone()).collect()
    }

    fn box_clone(&self) -> Box<dyn ExternalQueue> {
        Python::attach(|py| {
            let copied = py
                .import("copy")
                .and_then(|m| m.call_method1("deepcopy", (self.obj.bind(py),)))
                .expect("a queue discipline copies");
            let q = self.queue.bind(py).borrow();
            let queue = QueueView {
                rng: q.rng.clone(),
                packets: q.packets,
                bytes: q.bytes,
                limit: q.limit,
                limit_bytes: q.limit_bytes,
                ns2: q.ns2,
                ecn: q.ecn,
                rate_bps: q.rate_bps,
                delay: q.delay,
                now_ps: q.now_ps,
                idle_since_ps: q.idle_since_ps,
                busy_until_ps: q.busy_until_ps,
            };
            let names = Arc::clone(&self.pkt.bind(py).borrow().names);
            Box::new(PyQueue {
                name: self.name.clone(),
                obj: copied.unbind(),
                funcs: Arc::clone(&self.funcs),
                pkt: Py::new(
                    py,
                    PacketView {
                        names,
                        ..PacketView::default()
                    },
                )
                .expect("a view"),
                queue: Py::new(py, queue).expect("a view"),
            }) as Box<dyn ExternalQueue>
        })
    }
}

/// What `_instantiate_queue` returns: the instance, its hooks by name, its update interval
/// (s, or None), its declared state (column, attribute) and the name errors give it.
type Made<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyDict>,
    Option<f64>,
    Vec<(String, String)>,
    String,
);

/// The engine's factory for `queue.custom = "module:Class"`:
/// `ackclock.custom._instantiate_queue` finds the class and makes the instance; its hooks
/// are read here, once.
fn make(
    name: &str,
    given: &BTreeMap<String, f64>,
    setup: &QueueSetup,
    flows: &[String],
) -> Result<Box<dyn ExternalQueue>, String> {
    Python::attach(|py| {
        let fail = |e: PyErr| made_error(py, e, "queue", name);
        let params = PyDict::new(py);
        for (k, v) in given {
            params.set_item(k, v).map_err(fail)?;
        }
        let custom = py.import("ackclock.custom").map_err(fail)?;
        let made = custom
            .call_method1("_instantiate_queue", (name, params))
            .map_err(fail)?;
        let (obj, hooks, every, state, display): Made<'_> = made.extract().map_err(fail)?;
        let get = |k: &str| -> Result<Option<Py<PyAny>>, String> {
            Ok(hooks
                .get_item(k)
                .map_err(fail)?
                .filter(|v| !v.is_none())
                .map(Bound::unbind))
        };
        let funcs = Funcs {
            admit: get("admit")?,
            dequeue: get("dequeue")?,
            update: get("update")?,
            update_every: every.map(|s| SimDuration((s * 1e12).round() as u64)),
            state: state
                .into_iter()
                .map(|(column, attr)| (column, PyString::intern(py, &attr).unbind()))
                .collect(),
        };
        let queue = QueueView {
            packets: 0,
            bytes: 0,
            limit: setup.limit_packets,
            limit_bytes: setup.limit_bytes,
            ns2: setup.ns2,
            ecn: setup.ecn,
            rate_bps: setup.rate_bps,
            delay: setup.delay.as_secs_f64(),
            now_ps: 0,
            idle_since_ps: None,
            busy_until_ps: 0,
            rng: setup.rng.clone(),
        };
        let names = flows
            .iter()
            .map(|n| PyString::new(py, n).unbind())
            .collect();
        let pkt = PacketView {
            names: Arc::new(names),
            ..PacketView::default()
        };
        Ok(Box::new(PyQueue {
            name: display,
            obj: obj.unbind(),
            funcs: Arc::new(funcs),
            pkt: Py::new(py, pkt).map_err(fail)?,
            queue: Py::new(py, queue).map_err(fail)?,
        }) as Box<dyn ExternalQueue>)
    })
}

/// Registers the views and installs the factory.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PacketView>()?;
    m.add_class::<QueueView>()?;
    external::install(make);
    Ok(())
}
