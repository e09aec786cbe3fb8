//! Congestion control written in Python (`ackclock.CongestionControl`,
//! docs/custom-algorithms.md): the base class whose fields the engine reads and writes, the
//! read-only views handed to the hooks, and the adapter that implements the engine's
//! `ExternalCc` by calling the hooks a class defines. No simulation logic: the engine's
//! `tcp::cc::external` decides when each hook runs and checks what it leaves.
//!
//! Speed: one instance per flow, its window in Rust fields (no attribute dictionary), one
//! reused view object per hook kind (no allocation per ACK but the argument tuple), the
//! functions looked up once, when the algorithm is made; the run keeps the GIL while such a
//! flow exists.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use ackclock_core::tcp::cc::external::{self, ExternalCc, Failure, Hooks};
use ackclock_core::tcp::cc::{AckEvent, AckSample, CaEvent, CaState, CcSetup, Conn, Window};
use ackclock_core::tcp::delivery_rate::RateSample;
use ackclock_core::time::SimTime;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyString, PyTuple};

/// The simulated time of a Python algorithm's current call (`self.now` reads it): a Rust
/// field set before each call, converted only when read.
#[pyclass(module = "ackclock._core", name = "Clock")]
#[derive(Default)]
pub struct Clock {
    /// Simulated time, in picoseconds.
    #[pyo3(get)]
    now_ps: u64,
}

#[pymethods]
impl Clock {
    /// Simulated time, in seconds.
    #[getter]
    fn now(&self) -> f64 {
        SimTime(self.now_ps).as_secs_f64()
    }
}

/// One ACK as `cong_avoid` and `pkts_acked` see it: valid during the call only (the engine
/// reuses it).
#[pyclass(module = "ackclock._core", name = "Ack")]
#[derive(Default)]
pub struct AckView {
    /// Simulated time, in picoseconds.
    #[pyo3(get)]
    now_ps: u64,
    /// Segments newly acknowledged.
    #[pyo3(get)]
    acked: u64,
    /// Growth credit in segments (1 per ACK with packet-counted windows, the segments
    /// acknowledged with byte-counted ones).
    #[pyo3(get)]
    credit: f64,
    /// The RTT estimator's sample in seconds, or None.
    #[pyo3(get)]
    rtt: Option<f64>,
    /// This ACK's own round-trip time in seconds (Vegas' and FAST's delay signal), or None.
    #[pyo3(get)]
    delay: Option<f64>,
    /// The cumulative ACK after this one, and one past the highest segment sent.
    #[pyo3(get)]
    una: u64,
    #[pyo3(get)]
    sent: u64,
}

#[pymethods]
impl AckView {
    /// Simulated time, in seconds.
    #[getter]
    fn now(&self) -> f64 {
        SimTime(self.now_ps).as_secs_f64()
    }
}

/// A delivery-rate sample (Linux's `struct rate_sample`), for `cong_control`: valid during
/// the call only.
#[pyclass(module = "ackclock._core", name = "RateSample")]
#[derive(Default)]
pub struct RateView {
    /// Segments per second (0: no sample).
    #[pyo3(get)]
    delivery_rate: f64,
    #[pyo3(get)]
    is_app_limited: bool,
    #[pyo3(get)]
    prior_delivered: u64,
    /// Segments delivered by this ACK.
    #[pyo3(get)]
    delivered: u64,
    /// The sampled segment's RTT in seconds (0: none).
    #[pyo3(get)]
    rtt: f64,
    #[pyo3(get)]
    losses: u64,
    #[pyo3(get)]
    prior_in_flight: u64,
}

thread_local! {
    /// The exception a hook (or a constructor) raised, kept for the front end to re-raise.
    static USER_ERROR: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// The exception a Python algorithm raised in this thread's last failure, if any (taken).
pub fn take_user_error() -> Option<PyErr> {
    USER_ERROR.with(|e| e.borrow_mut().take())
}

fn keep(err: PyErr) {
    USER_ERROR.with(|e| *e.borrow_mut() = Some(err));
}

/// An exception's type name and text.
fn describe(py: Python<'_>, e: &PyErr) -> (String, String) {
    let kind = e
        .get_type(py)
        .name()
        .map_or_else(|_| "an exception".to_string(), |n| n.to_string());
    let text = e
        .value(py)
        .str()
        .map_or_else(|_| String::new(), |s| s.to_string());
    (kind, text)
}

/// The one-line failure for an exception a hook raised (`hook`: `Class.method`), keeping
/// the exception for the front end to re-raise with its traceback. Shared by congestion
/// controls and queue disciplines written in Python.
pub(crate) fn user_error(py: Python<'_>, e: PyErr, hook: &str) -> String {
    let (kind, text) = describe(py, &e);
    keep(e);
    if text.is_empty() {
        format!("{hook} raised {kind}")
    } else {
        format!("{hook} raised {kind}: {text}")
    }
}

/// The error for a Python algorithm that could not be made (`key`: the scenario key, `cc`
/// or `queue`; `name`: `module:Class`): a ScenarioError's own line, else the exception,
/// kept for the front end to re-raise.
pub(crate) fn made_error(py: Python<'_>, e: PyErr, key: &str, name: &str) -> String {
    let (kind, text) = describe(py, &e);
    if kind == "ScenarioError" {
        text
    } else {
        keep(e);
        format!("{key}: {name} could not be made: {kind}: {text}")
    }
}

/// The hook functions of a class, looked up once (None: not defined, not called), and the
/// interned attribute names the engine writes.
struct Funcs {
    ssthresh: Py<PyAny>,
    cong_avoid: Option<Py<PyAny>>,
    pkts_acked: Option<Py<PyAny>>,
    set_state: Option<Py<PyAny>>,
    cwnd_event: Option<Py<PyAny>>,
    cong_control: Option<Py<PyAny>>,
    undo_cwnd: Option<Py<PyAny>>,
    /// The `CaState` and `CaEvent` members, by value.
    states: Py<PyTuple>,
    events: Py<PyTuple>,
    /// `cwnd`, `snd_ssthresh`, `pacing_rate` (read back after each call), `rwnd`,
    /// `max_ssthresh` (written only).
    keys: [Py<PyString>; 5],
    /// `in_flight`, `delivered`, `srtt`, `ca_state`.
    conn_keys: [Py<PyString>; 4],
}

/// Attributes the engine writes into the instance's dictionary.
const WINDOW_KEYS: [&str; 5] = [
    "cwnd",
    "snd_ssthresh",
    "pacing_rate",
    "rwnd",
    "max_ssthresh",
];
const CONN_KEYS: [&str; 4] = ["in_flight", "delivered", "srtt", "ca_state"];

/// One flow's Python algorithm. Its window lives in the instance's own attributes (a plain
/// `__dict__`, the fastest attributes Python has); the engine writes one only when its value
/// differs from what the instance holds, and reads cwnd, snd_ssthresh and pacing_rate back
/// after each call.
struct PyCc {
    name: String,
    obj: Py<PyAny>,
    dict: Py<PyDict>,
    clock: Py<Clock>,
    funcs: Arc<Funcs>,
    /// The values of `WINDOW_KEYS` the instance holds (NaN: not yet written).
    synced: [f64; 5],
    ack: Py<AckView>,
    sample: Py<AckView>,
    rate: Py<RateView>,
    /// (column in cc_state.csv, attribute).
    state: Vec<(String, Py<PyString>)>,
}

/// Which hook a call is for.
#[derive(Clone, Copy)]
enum Hook {
    Ssthresh,
    CongAvoid,
    PktsAcked,
    SetState,
    CwndEvent,
    CongControl,
    UndoCwnd,
}

impl Hook {
    fn name(self) -> &'static str {
        match self {
            Hook::Ssthresh => "ssthresh",
            Hook::CongAvoid => "cong_avoid",
            Hook::PktsAcked => "pkts_acked",
            Hook::SetState => "set_state",
            Hook::CwndEvent => "cwnd_event",
            Hook::CongControl => "cong_control",
            Hook::UndoCwnd => "undo_cwnd",
        }
    }

    fn func(self, f: &Funcs) -> Option<&Py<PyAny>> {
        match self {
            Hook::Ssthresh => Some(&f.ssthresh),
            Hook::CongAvoid => f.cong_avoid.as_ref(),
            Hook::PktsAcked => f.pkts_acked.as_ref(),
            Hook::SetState => f.set_state.as_ref(),
            Hook::CwndEvent => f.cwnd_event.as_ref(),
            Hook::CongControl => f.cong_control.as_ref(),
            Hook::UndoCwnd => f.undo_cwnd.as_ref(),
        }
    }
}

impl PyCc {
    /// Calls `hook(self, arg)` with the window in the instance's attributes, then reads cwnd,
    /// snd_ssthresh and pacing_rate back. The hook must be defined.
    fn call<'py>(
        &mut self,
        py: Python<'py>,
        w: &mut Window,
        now: SimTime,
        hook: Hook,
        arg: Option<Bound<'py, PyAny>>,
    ) -> Result<Bound<'py, PyAny>, Failure> {
        self.clock.bind(py).borrow_mut().now_ps = now.0;
        let funcs = Arc::clone(&self.funcs);
        let dict = self.dict.bind(py);
        let values = [w.cwnd, w.ssthresh, w.pacing_rate, w.rwnd, w.max_ssthresh];
        for (i, &v) in values.iter().enumerate() {
            if v.to_bits() != self.synced[i].to_bits() {
                dict.set_item(funcs.keys[i].bind(py), v)
                    .map_err(|e| self.raised(py, hook, e))?;
                self.synced[i] = v;
            }
        }
        let f = hook
            .func(&funcs)
            .expect("called only when defined")
            .bind(py);
        let out = match arg {
            Some(a) => f.call1((self.obj.bind(py), a)),
            None => f.call1((self.obj.bind(py),)),
        };
        let out = out.map_err(|e| self.raised(py, hook, e))?;
        let mut back = [0.0; 3];
        for (i, slot) in back.iter_mut().enumerate() {
            let key = funcs.keys[i].bind(py);
            let v = dict.get_item(key).map_err(|e| self.raised(py, hook, e))?;
            *slot = match v.as_ref().map(|v| v.extract::<f64>()) {
                Some(Ok(x)) => x,
                _ => {
                    let shown = v.map_or_else(
                        || "nothing (deleted)".to_string(),
                        |v| v.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                    );
                    // Not synced: the next call writes it again.
                    self.synced[i] = f64::NAN;
                    return Err(format!(
                        "{}.{} set {} to {shown}; expected a number",
                        self.name,
                        hook.name(),
                        WINDOW_KEYS[i]
                    ));
                }
            };
        }
        self.synced[..3].copy_from_slice(&back);
        w.cwnd = back[0];
        w.ssthresh = back[1];
        w.pacing_rate = back[2];
        Ok(out)
    }

    /// The one-line failure for an exception of `hook`, keeping the exception.
    fn raised(&self, py: Python<'_>, hook: Hook, e: PyErr) -> Failure {
        user_error(py, e, &format!("{}.{}", self.name, hook.name()))
    }

    fn set_conn(&self, py: Python<'_>, conn: &Conn) -> PyResult<()> {
        let d = self.dict.bind(py);
        let k = &self.funcs.conn_keys;
        d.set_item(k[0].bind(py), conn.in_flight)?;
        d.set_item(k[1].bind(py), conn.delivered)?;
        d.set_item(k[2].bind(py), conn.srtt_s)?;
        d.set_item(k[3].bind(py), conn.ca_state as u8)?;
        Ok(())
    }

    /// A number a hook returned, or why it is not one.
    fn number(&self, hook: Hook, v: &Bound<'_, PyAny>) -> Result<f64, Failure> {
        v.extract::<f64>().map_err(|_| {
            let shown = v.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
            format!(
                "{}.{} returned {shown}; expected a number of segments",
                self.name,
                hook.name()
            )
        })
    }

    fn now(&self, py: Python<'_>) -> SimTime {
        SimTime(self.clock.bind(py).borrow().now_ps)
    }
}

impl ExternalCc for PyCc {
    fn name(&self) -> &str {
        &self.name
    }

    fn hooks(&self) -> Hooks {
        let f = &self.funcs;
        Hooks {
            cong_avoid: f.cong_avoid.is_some(),
            pkts_acked: f.pkts_acked.is_some(),
            set_state: f.set_state.is_some(),
            cwnd_event: f.cwnd_event.is_some(),
            cong_control: f.cong_control.is_some(),
            undo_cwnd: f.undo_cwnd.is_some(),
        }
    }

    fn ssthresh(&mut self, w: &Window, now: SimTime) -> Result<f64, Failure> {
        Python::attach(|py| {
            let mut w = *w;
            let v = self.call(py, &mut w, now, Hook::Ssthresh, None)?;
            self.number(Hook::Ssthresh, &v)
        })
    }

    fn cong_avoid(&mut self, w: &mut Window, ev: &AckEvent) -> Result<(), Failure> {
        Python::attach(|py| {
            let ack = self.ack.bind(py).clone();
            {
                let mut a = ack.borrow_mut();
                a.now_ps = ev.now.0;
                a.acked = ev.acked;
                a.credit = ev.credit;
                a.rtt = ev.rtt.map(|d| d.as_secs_f64());
                a.delay = ev.delay.map(|d| d.as_secs_f64());
                a.una = ev.una;
                a.sent = ev.sent;
            }
            self.call(py, w, ev.now, Hook::CongAvoid, Some(ack.into_any()))
                .map(drop)
        })
    }

    fn pkts_acked(&mut self, w: &mut Window, s: &AckSample) -> Result<(), Failure> {
        Python::attach(|py| {
            let sample = self.sample.bind(py).clone();
            {
                let mut a = sample.borrow_mut();
                a.now_ps = s.now.0;
                a.acked = s.acked;
                a.credit = 0.0;
                a.rtt = s.rtt.map(|d| d.as_secs_f64());
                a.delay = None;
            }
            self.call(py, w, s.now, Hook::PktsAcked, Some(sample.into_any()))
                .map(drop)
        })
    }

    fn set_state(&mut self, w: &mut Window, state: CaState, conn: &Conn) -> Result<(), Failure> {
        Python::attach(|py| {
            self.set_conn(py, conn)
                .map_err(|e| self.raised(py, Hook::SetState, e))?;
            let member = self.funcs.states.bind(py).get_item(state as usize);
            let arg = member.map_err(|e| self.raised(py, Hook::SetState, e))?;
            self.call(py, w, conn.now, Hook::SetState, Some(arg))
                .map(drop)
        })
    }

    fn cwnd_event(&mut self, w: &mut Window, event: CaEvent) -> Result<(), Failure> {
        let index = match event {
            CaEvent::TxStart => 0,
            CaEvent::CwndRestart => 1,
            CaEvent::CompleteCwr => 2,
            CaEvent::Loss => 3,
        };
        Python::attach(|py| {
            let now = self.now(py);
            let member = self.funcs.events.bind(py).get_item(index);
            let arg = member.map_err(|e| self.raised(py, Hook::CwndEvent, e))?;
            self.call(py, w, now, Hook::CwndEvent, Some(arg)).map(drop)
        })
    }

    fn cong_control(
        &mut self,
        w: &mut Window,
        rs: &RateSample,
        conn: &Conn,
    ) -> Result<(), Failure> {
        Python::attach(|py| {
            self.set_conn(py, conn)
                .map_err(|e| self.raised(py, Hook::CongControl, e))?;
            let view = self.rate.bind(py).clone();
            {
                let mut r = view.borrow_mut();
                r.delivery_rate = rs.delivery_rate;
                r.is_app_limited = rs.is_app_limited;
                r.prior_delivered = rs.prior_delivered;
                r.delivered = rs.delivered;
                r.rtt = rs.rtt_s;
                r.losses = rs.losses;
                r.prior_in_flight = rs.prior_in_flight;
            }
            self.call(py, w, conn.now, Hook::CongControl, Some(view.into_any()))
                .map(drop)
        })
    }

    fn undo_cwnd(&mut self, w: &Window, prior_cwnd: f64) -> Result<f64, Failure> {
        Python::attach(|py| {
            let mut w = *w;
            let now = self.now(py);
            let arg = PyFloat::new(py, prior_cwnd).into_any();
            let v = self.call(py, &mut w, now, Hook::UndoCwnd, Some(arg))?;
            self.number(Hook::UndoCwnd, &v)
        })
    }

    fn state(&self, out: &mut dyn FnMut(&str, f64)) {
        Python::attach(|py| {
            let obj = self.obj.bind(py);
            for (column, attr) in &self.state {
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

    fn box_clone(&self) -> Box<dyn ExternalCc> {
        Python::attach(|py| {
            let copied = py
                .import("copy")
                .and_then(|m| m.call_method1("deepcopy", (self.obj.bind(py),)))
                .expect("a congestion control copies");
            let name = self.name.clone();
            let state = self
                .state
                .iter()
                .map(|(c, a)| (c.clone(), a.clone_ref(py)))
                .collect();
            Box::new(
                PyCc::new(py, name, copied, Arc::clone(&self.funcs), state)
                    .expect("a congestion control copies"),
            ) as Box<dyn ExternalCc>
        })
    }
}

impl PyCc {
    fn new(
        py: Python<'_>,
        name: String,
        obj: Bound<'_, PyAny>,
        funcs: Arc<Funcs>,
        state: Vec<(String, Py<PyString>)>,
    ) -> PyResult<PyCc> {
        let dict = obj.getattr("__dict__")?.cast_into::<PyDict>()?;
        let clock = Py::new(py, Clock::default())?;
        dict.set_item("_ackclock_clock", clock.bind(py))?;
        Ok(PyCc {
            name,
            dict: dict.unbind(),
            obj: obj.unbind(),
            clock,
            funcs,
            synced: [f64::NAN; 5],
            ack: Py::new(py, AckView::default())?,
            sample: Py::new(py, AckView::default())?,
            rate: Py::new(py, RateView::default())?,
            state,
        })
    }
}

/// What `_instantiate` returns: the instance, its hooks by name, its declared state
/// (column, attribute) and the name errors give it.
type Made<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyDict>,
    Vec<(String, String)>,
    String,
);

/// The engine's factory for `cc = "module:Class"`: `ackclock.custom._instantiate` finds the
/// class and makes the instance; its hooks and declared state are read here, once.
fn make(
    name: &str,
    given: &BTreeMap<String, f64>,
    setup: &CcSetup,
) -> Result<Box<dyn ExternalCc>, String> {
    Python::attach(|py| {
        let fail = |e: PyErr| made_error(py, e, "cc", name);
        let params = PyDict::new(py);
        for (k, v) in given {
            params.set_item(k, v).map_err(fail)?;
        }
        let setup_d = PyDict::new(py);
        setup_d.set_item("mss", setup.mss).map_err(fail)?;
        setup_d
            .set_item("initial_window", setup.initial_window)
            .map_err(fail)?;
        let custom = py.import("ackclock.custom").map_err(fail)?;
        let made = custom
            .call_method1("_instantiate", (name, params, setup_d))
            .map_err(fail)?;
        let (obj, hooks, state, display): Made<'_> = made.extract().map_err(fail)?;
        let get = |k: &str| -> Result<Option<Py<PyAny>>, String> {
            Ok(hooks
                .get_item(k)
                .map_err(fail)?
                .filter(|v| !v.is_none())
                .map(Bound::unbind))
        };
        let members = |what: &str| -> Result<Py<PyTuple>, String> {
            let t = custom
                .getattr(what)
                .and_then(|e| PyTuple::new(py, e.try_iter()?.collect::<PyResult<Vec<_>>>()?))
                .map_err(fail)?;
            Ok(t.unbind())
        };
        let funcs = Funcs {
            ssthresh: get("ssthresh")?
                .ok_or_else(|| format!("cc: {display} does not define ssthresh"))?,
            cong_avoid: get("cong_avoid")?,
            pkts_acked: get("pkts_acked")?,
            set_state: get("set_state")?,
            cwnd_event: get("cwnd_event")?,
            cong_control: get("cong_control")?,
            undo_cwnd: get("undo_cwnd")?,
            states: members("CaState")?,
            events: members("CaEvent")?,
            keys: WINDOW_KEYS.map(|k| PyString::intern(py, k).unbind()),
            conn_keys: CONN_KEYS.map(|k| PyString::intern(py, k).unbind()),
        };
        let state = state
            .into_iter()
            .map(|(column, attr)| (column, PyString::intern(py, &attr).unbind()))
            .collect();
        let cc = PyCc::new(py, display, obj, Arc::new(funcs), state).map_err(fail)?;
        Ok(Box::new(cc) as Box<dyn ExternalCc>)
    })
}

/// A function of ackclock's that runs simulations (`Network.run`, `run_scenario`, ...),
/// wrapped so that an exception a Python hook raised reaches its caller with the hook's own
/// traceback: the caller's frames, then the hook's, and none of ackclock's between them.
/// Python adds a frame to a traceback for each Python function the exception leaves; this
/// wrapper is not one, and it replaces the traceback gathered inside ackclock by the hook's
/// (`ackclock.run.user_error` keeps it as `_ackclock_hook_tb`). Bound as a method through
/// `__get__`, as a function is.
#[pyclass(module = "ackclock._core", name = "UserFacing", frozen)]
pub struct UserFacing {
    f: Py<PyAny>,
}

#[pymethods]
impl UserFacing {
    #[new]
    fn new(f: Py<PyAny>) -> UserFacing {
        UserFacing { f }
    }

    /// The wrapped function (`inspect.signature` follows it).
    #[getter]
    fn __wrapped__(&self, py: Python<'_>) -> Py<PyAny> {
        self.f.clone_ref(py)
    }

    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        match self.f.bind(py).call(args, kwargs) {
            Ok(v) => Ok(v.unbind()),
            Err(e) => {
                let value = e.value(py).clone();
                match value.getattr("_ackclock_hook_tb") {
                    Ok(tb) if !tb.is_none() => {
                        value.setattr("__traceback__", tb)?;
                        Err(PyErr::from_value(value.into_any()))
                    }
                    _ => Err(e),
                }
            }
        }
    }

    fn __get__(
        slf: Py<Self>,
        py: Python<'_>,
        obj: Option<Bound<'_, PyAny>>,
        _owner: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        match obj {
            Some(o) if !o.is_none() => Ok(py
                .import("types")?
                .getattr("MethodType")?
                .call1((slf, o))?
                .unbind()),
            _ => Ok(slf.into_any()),
        }
    }
}

/// The cube root the engine computes (Rust's `f64::cbrt`, whose implementation differs from
/// the C library's `math.cbrt` in the last bit for some inputs): a Python CUBIC that must
/// match the built-in one uses it.
#[pyfunction]
fn cbrt(x: f64) -> f64 {
    x.cbrt()
}

/// Registers the classes and installs the factory.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cbrt, m)?)?;
    m.add_class::<Clock>()?;
    m.add_class::<UserFacing>()?;
    m.add_class::<AckView>()?;
    m.add_class::<RateView>()?;
    external::install(make);
    Ok(())
}
