//! PyO3 bindings: a thin wrapper that hands a resolved scenario to the engine, advances it
//! with the GIL released, and returns result tables as dicts of Python lists.
//! No simulation logic lives here.

use ackclock_core::results::{ColumnData, Results, Table};
use ackclock_core::time::SimTime;
use ackclock_core::Simulator;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One simulation run, built from a resolved scenario document (JSON).
#[pyclass(module = "ackclock._core", unsendable)]
struct Simulation {
    sim: Simulator,
}

#[pymethods]
impl Simulation {
    #[new]
    fn new(scenario_json: &str) -> PyResult<Self> {
        Simulator::from_json(scenario_json)
            .map(|sim| Simulation { sim })
            .map_err(PyValueError::new_err)
    }

    /// Runs every event up to and including `t_ps` picoseconds (capped at the duration).
    fn run_until(&mut self, py: Python<'_>, t_ps: u64) {
        let sim = &mut self.sim;
        py.detach(|| sim.run_until(SimTime(t_ps)));
    }

    #[getter]
    fn now_ps(&self) -> u64 {
        self.sim.now().0
    }

    #[getter]
    fn duration_ps(&self) -> u64 {
        self.sim.duration().0
    }

    #[getter]
    fn events(&self) -> u64 {
        self.sim.events()
    }

    #[getter]
    fn packet_hops(&self) -> u64 {
        self.sim.packet_hops()
    }

    /// The result tables; raises RuntimeError before the run has reached its duration.
    fn results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self
            .sim
            .results()
            .ok_or_else(|| PyRuntimeError::new_err("the run has not reached its duration"))?;
        results_to_dict(py, &r)
    }
}

fn table_to_dict<'py>(py: Python<'py>, t: &Table) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for c in &t.columns {
        match &c.data {
            ColumnData::F64(v) => d.set_item(c.name, v)?,
            ColumnData::U64(v) => d.set_item(c.name, v)?,
            ColumnData::Str(v) => d.set_item(c.name, v)?,
        }
    }
    Ok(d)
}

fn results_to_dict<'py>(py: Python<'py>, r: &Results) -> PyResult<Bound<'py, PyDict>> {
    let s = PyDict::new(py);
    let m = &r.summary;
    s.set_item("name", &m.name)?;
    s.set_item("profile", &m.profile)?;
    s.set_item("seed", m.seed)?;
    s.set_item("duration_s", m.duration_s)?;
    s.set_item("warmup_s", m.warmup_s)?;
    s.set_item("events", m.events)?;
    s.set_item("packet_hops", m.packet_hops)?;
    s.set_item("packets_delivered", m.packets_delivered)?;
    s.set_item("version", &m.version)?;
    let d = PyDict::new(py);
    d.set_item("summary", s)?;
    d.set_item("flows", table_to_dict(py, &r.flows)?)?;
    d.set_item("queues", table_to_dict(py, &r.queues)?)?;
    d.set_item("timeseries", table_to_dict(py, &r.timeseries)?)?;
    d.set_item("queue_timeseries", table_to_dict(py, &r.queue_timeseries)?)?;
    d.set_item("tcp_trace", table_to_dict(py, &r.tcp_trace)?)?;
    d.set_item("connections", table_to_dict(py, &r.connections)?)?;
    Ok(d)
}

/// The engine's version.
#[pyfunction]
fn version() -> &'static str {
    ackclock_core::VERSION
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Simulation>()?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
