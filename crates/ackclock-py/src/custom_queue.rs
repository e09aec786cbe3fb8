//! Queue disciplines written in Python (`ackclock.QueueDiscipline`,
//! docs/custom-algorithms.md): the read-only views handed to `admit` and the adapter that
//! implements the engine's `ExternalQueue` by calling it. No simulation logic: the engine's
//! `queue::external` calls it for each arriving packet of its link and stops the run on a
//! failure.
//!
//! Speed: one reused view object for the packet and one for the queue (their fields set in
//! Rust before each call), `admit` looked up once, when the discipline is made.

use std::collections::BTreeMap;

use ackclock_core::queue::external::{self, ExternalQueue, Failure};
use ackclock_core::queue::{AqmState, Arrival, QueueSetup, Verdict};
use ackclock_core::rng::RandomStream;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::custom::keep;

/// The arriving packet, as `admit` sees it (read-only).
#[pyclass(module = "ackclock._core", name = "QueuedPacket")]
#[derive(Default)]
pub struct PacketView {
    /// Its size on the wire, in bytes.
    #[pyo3(get)]
    size: u32,
    /// Whether its sender understands ECN (RFC 3168 ECT): only such a packet may be marked.
    #[pyo3(get)]
    ect: bool,
    /// Its arrival time, in picoseconds.
    #[pyo3(get)]
    now_ps: u64,
}

#[pymethods]
impl PacketView {
    /// Its arrival time, in seconds.
    #[getter]
    fn now(&self) -> f64 {
        self.now_ps as f64 / 1e12
    }
}

/// The link's queue, as `admit` sees it: read-only, but for its random stream.
#[pyclass(module = "ackclock._core", name = "QueueView")]
pub struct QueueView {
    /// Packets and bytes waiting (not the one being serialised), before this arrival.
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
    /// picoseconds.
    #[pyo3(get)]
    idle_since_ps: Option<u64>,
    /// When the line will have sent everything already accepted, in picoseconds.
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
        self.now_ps as f64 / 1e12
    }

    /// The next number in [0, 1) of the link's random stream.
    fn random(&mut self) -> f64 {
        self.rng.next_f64()
    }
}

/// One link's Python discipline: its instance, its `admit`, the reused views.
struct PyQueue {
    name: String,
    obj: Py<PyAny>,
    admit: Py<PyAny>,
    pkt: Py<PacketView>,
    queue: Py<QueueView>,
}

impl PyQueue {
    fn raised(&self, py: Python<'_>, e: PyErr) -> Failure {
        let kind = e
            .get_type(py)
            .name()
            .map_or_else(|_| "an exception".to_string(), |n| n.to_string());
        let text = e
            .value(py)
            .str()
            .map_or_else(|_| String::new(), |s| s.to_string());
        keep(e);
        if text.is_empty() {
            format!("{}.admit raised {kind}", self.name)
        } else {
            format!("{}.admit raised {kind}: {text}", self.name)
        }
    }

    fn attr(&self, py: Python<'_>, name: &str) -> f64 {
        self.obj
            .bind(py)
            .getattr(name)
            .ok()
            .and_then(|v| v.extract::<f64>().ok())
            .unwrap_or(f64::NAN)
    }
}

impl ExternalQueue for PyQueue {
    fn name(&self) -> &str {
        &self.name
    }

    fn admit(&mut self, a: &Arrival) -> Result<Verdict, Failure> {
        Python::attach(|py| {
            {
                let mut p = self.pkt.bind(py).borrow_mut();
                p.size = a.size;
                p.ect = a.ect;
                p.now_ps = a.now.0;
                let mut q = self.queue.bind(py).borrow_mut();
                q.packets = a.backlog.packets;
                q.bytes = a.backlog.bytes;
                q.now_ps = a.now.0;
                q.idle_since_ps = a.idle_since.map(|t| t.0);
                q.busy_until_ps = a.busy_until.0;
            }
            let args = PyTuple::new(
                py,
                [
                    self.obj.bind(py).clone(),
                    self.pkt.bind(py).clone().into_any(),
                    self.queue.bind(py).clone().into_any(),
                ],
            )
            .map_err(|e| self.raised(py, e))?;
            let v = self
                .admit
                .bind(py)
                .call1(args)
                .map_err(|e| self.raised(py, e))?;
            let verdict = match v.extract::<i64>() {
                Ok(0) if !v.is_instance_of::<pyo3::types::PyBool>() => Verdict::Admit,
                Ok(1) if !v.is_instance_of::<pyo3::types::PyBool>() => Verdict::Drop,
                Ok(2) if !v.is_instance_of::<pyo3::types::PyBool>() => Verdict::Mark,
                _ => {
                    let shown = v.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
                    return Err(format!(
                        "{}.admit returned {shown}; expected ackclock.Verdict.ADMIT, DROP or \
                         MARK",
                        self.name
                    ));
                }
            };
            if verdict == Verdict::Mark && !a.ect {
                return Err(format!(
                    "{}.admit returned MARK for a packet that is not ECN-capable (pkt.ect is \
                     False); expected ADMIT or DROP",
                    self.name
                ));
            }
            Ok(verdict)
        })
    }

    fn state(&self) -> AqmState {
        Python::attach(|py| AqmState {
            avg: self.attr(py, "avg"),
            prob: self.attr(py, "prob"),
            dropping: f64::NAN,
        })
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
            Box::new(PyQueue {
                name: self.name.clone(),
                obj: copied.unbind(),
                admit: self.admit.clone_ref(py),
                pkt: Py::new(py, PacketView::default()).expect("a view"),
                queue: Py::new(py, queue).expect("a view"),
            }) as Box<dyn ExternalQueue>
        })
    }
}

/// The engine's factory for `queue.custom = "module:Class"`:
/// `ackclock.custom._instantiate_queue` finds the class and makes the instance; its `admit`
/// is read here, once.
fn make(
    name: &str,
    given: &BTreeMap<String, f64>,
    setup: &QueueSetup,
) -> Result<Box<dyn ExternalQueue>, String> {
    Python::attach(|py| {
        let fail = |e: PyErr| -> String {
            let text = e
                .value(py)
                .str()
                .map_or_else(|_| String::new(), |s| s.to_string());
            let kind = e
                .get_type(py)
                .name()
                .map_or_else(|_| String::new(), |n| n.to_string());
            if kind == "ScenarioError" {
                text
            } else {
                keep(e);
                format!("queue: {name} could not be made: {kind}: {text}")
            }
        };
        let params = PyDict::new(py);
        for (k, v) in given {
            params.set_item(k, v).map_err(fail)?;
        }
        let custom = py.import("ackclock.custom").map_err(fail)?;
        let made = custom
            .call_method1("_instantiate_queue", (name, params))
            .map_err(fail)?;
        let (obj, admit, display): (Bound<'_, PyAny>, Bound<'_, PyAny>, String) =
            made.extract().map_err(fail)?;
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
        Ok(Box::new(PyQueue {
            name: display,
            obj: obj.unbind(),
            admit: admit.unbind(),
            pkt: Py::new(py, PacketView::default()).map_err(fail)?,
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
