//! PyO3 bindings: a thin wrapper that hands a resolved scenario to the engine, advances it
//! with the GIL released, and returns result tables as Arrow (`arrow.rs`).
//! No simulation logic lives here.

use ackclock_core::net::link::Ns2Integral;
use ackclock_core::results::Results;
use ackclock_core::sim::StopReason;
use ackclock_core::time::{SimDuration, SimTime};
use ackclock_core::Simulator;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use std::mem::take;

mod arrow;
mod csv_text;
mod custom;
mod custom_queue;
mod entry_copy;
mod json_text;
mod tmix_arrays;
mod toml_reader;

/// A link's queue counters or one flow's share of them as a dict: every count the struct
/// declares (`monitor::counters!`), and the time integrals again as floats in packet- and
/// byte-picoseconds (`area_*_ps`: u128 does not cross into Python cheaply).
macro_rules! queue_dict {
    ($py:expr, $q:expr) => {{
        let d = PyDict::new($py);
        set_all(&d, |f| $q.each(f))?;
        d.set_item("area_packets_ps", $q.area_packets as f64)?;
        d.set_item("area_bytes_ps", $q.area_bytes as f64)?;
        d
    }};
}

/// One simulation run, built from a resolved scenario document (JSON).
#[pyclass(module = "ackclock._core", unsendable)]
struct Simulation {
    sim: Simulator,
}

#[pymethods]
impl Simulation {
    /// `scenario`: the resolved document, as its JSON text or as the document itself (a
    /// dict), which is encoded here as `json.dumps` writes it (`json_text`): the text then
    /// never becomes a Python str (10 000 flows: 26.6 MB copied once more, and its pages).
    #[new]
    fn new(scenario: &Bound<'_, PyAny>) -> PyResult<Self> {
        let (encoded, tmix) = document_text(scenario)?;
        let scenario_json = match &encoded {
            Some(text) => text.as_str(),
            None => scenario.cast::<PyString>()?.to_str()?,
        };
        let _ = custom::take_user_error();
        Simulator::from_json_with_tmix(scenario_json, tmix)
            .map(|sim| Simulation { sim })
            .map_err(|e| match custom::take_user_error() {
                // A Python algorithm's constructor raised: its own exception.
                Some(err) => err,
                None => PyValueError::new_err(e),
            })
    }

    /// Runs every event up to and including `t_ps` picoseconds (capped at the duration).
    /// With a congestion control written in Python the run keeps the GIL (its hooks run on
    /// every ACK); otherwise it runs without it.
    fn run_until(&mut self, py: Python<'_>, t_ps: u64) {
        let sim = &mut self.sim;
        if sim.has_external() {
            sim.run_until(SimTime(t_ps));
        } else {
            py.detach(|| sim.run_until(SimTime(t_ps)));
        }
    }

    /// Runs the events up to `t_ps` picoseconds and, of those at `t_ps` itself, under the
    /// ns2 profile only the ones whose ns-2 time (a double) lies before `t2` seconds: ns-2
    /// runs a `$ns at` script of time `t2` after them and before the rest. Other profiles:
    /// as `run_until`.
    fn run_until_before(&mut self, py: Python<'_>, t_ps: u64, t2: f64) {
        let sim = &mut self.sim;
        if sim.has_external() {
            sim.run_until_before(SimTime(t_ps), t2);
        } else {
            py.detach(|| sim.run_until_before(SimTime(t_ps), t2));
        }
    }

    /// The exception a congestion control written in Python raised, when the run stopped
    /// for it (taken: a second call gives None).
    fn take_user_error(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        custom::take_user_error().map(|e| e.into_value(py).into_any())
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

    /// The flow entries the run holds (the scenario's flows, then two-way connections' and
    /// Tmix half-connections', whose slots closed connections give back: `sim/tmix.rs`).
    #[getter]
    fn flow_entries(&self) -> usize {
        self.sim.flow_entries()
    }

    /// Whether the invariant checker runs (debug builds, or `run.check`).
    #[getter]
    fn checking(&self) -> bool {
        self.sim.checking()
    }

    /// Why the run stopped before its duration, or None: a dict with `kind` ("invariant"
    /// or "limit"), `key` (the scenario key of a limit, else None), `component` (of an
    /// invariant, else None), `time_s` and `message` (one line, complete).
    #[getter]
    fn stop_reason<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(reason) = self.sim.stop_reason() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        match reason {
            StopReason::Invariant(v) => {
                d.set_item("kind", "invariant")?;
                d.set_item("key", py.None())?;
                d.set_item("component", &v.component)?;
                d.set_item("time_s", v.at.as_secs_f64())?;
            }
            StopReason::Limit { key, .. } => {
                d.set_item("kind", "limit")?;
                d.set_item("key", *key)?;
                d.set_item("component", py.None())?;
                d.set_item("time_s", self.sim.now().as_secs_f64())?;
            }
            StopReason::External { flow, at, message } => {
                d.set_item("kind", "external")?;
                d.set_item("key", py.None())?;
                d.set_item("component", format!("flow {flow}"))?;
                d.set_item("time_s", at.as_secs_f64())?;
                d.set_item("detail", message)?;
            }
            StopReason::ExternalQueue { link, at, message } => {
                d.set_item("kind", "external")?;
                d.set_item("key", py.None())?;
                d.set_item("component", format!("link {link}"))?;
                d.set_item("time_s", at.as_secs_f64())?;
                d.set_item("detail", message)?;
            }
        }
        d.set_item("message", reason.to_string())?;
        Ok(Some(d))
    }

    // Mid-run access for the ns-2 front end (`$ns at` scripts): small reads and app control.

    /// Starts (or with start=False stops) flow `flow`'s application at `t_ps` (>= now).
    fn schedule_app(&mut self, flow: usize, t_ps: u64, start: bool) -> PyResult<()> {
        self.sim
            .schedule_app(flow, SimTime(t_ps), start)
            .map_err(PyValueError::new_err)
    }

    /// Starts recording link `link`'s queue variable changes (RED's curq_ and ave_); False
    /// if its discipline has none.
    fn trace_queue_vars(&mut self, link: usize) -> PyResult<bool> {
        self.sim
            .trace_queue_vars(link)
            .map_err(PyValueError::new_err)
    }

    /// Makes one-way UDP flow `flow`, which has not sent, a host flow: the front end sends
    /// its datagrams (`host_send`) and takes their arrivals (`take_host_arrivals`), each of
    /// which stops the run; `packet_type` (`ping`, `udp`, `message` or `rtProtoDV`) names its packets in
    /// ns-2 traces; with `anywhere` its datagrams may go to any node.
    fn host_flow(&mut self, flow: usize, packet_type: &str, anywhere: bool) -> PyResult<()> {
        let ty = match packet_type {
            "ping" => "ping",
            "udp" => "udp",
            "message" => "message",
            "rtProtoDV" => "rtProtoDV",
            other => return Err(PyValueError::new_err(format!("no packet type {other:?}"))),
        };
        self.sim
            .host_flow(flow, ty, anywhere)
            .map_err(PyValueError::new_err)
    }

    /// Host flow `flow` sends a datagram of `size` bytes now to node `dst` (None: the flow's
    /// destination), numbered `seq` in traces (-1 as ns-2 prints a packet without one),
    /// carrying the number `tag`.
    #[pyo3(signature = (flow, size, dst, seq, tag))]
    fn host_send(
        &mut self,
        flow: usize,
        size: u32,
        dst: Option<u32>,
        seq: i64,
        tag: u64,
    ) -> PyResult<()> {
        self.sim
            .host_send(flow, size, dst, seq as u64, tag)
            .map_err(PyValueError::new_err)
    }

    /// The arrivals of host flows' datagrams since the last call, in order: (flow, tag,
    /// source node, destination node, size, time in seconds: ns-2's double under the ns2
    /// profile).
    fn take_host_arrivals(&mut self) -> Vec<(usize, u64, u32, u32, u32, f64)> {
        self.sim
            .take_host_arrivals()
            .into_iter()
            .map(|a| (a.flow, a.tag, a.src, a.dst, a.size, a.time))
            .collect()
    }

    /// Detaches one-way flow `flow`'s sender (or receiver) from its node from now on (ns-2's
    /// `$ns detach-agent`): what it sends goes nowhere, what reaches it is dropped there.
    fn detach_endpoint(&mut self, flow: usize, sender: bool) -> PyResult<()> {
        self.sim
            .detach_endpoint(flow, sender)
            .map_err(PyValueError::new_err)
    }

    /// Starts keeping a queue monitor's integrals of link `link`'s waiting bytes and packets
    /// as ns-2's Integrator does (in its doubles, a point at each arrival, departure and
    /// drop); False if the link keeps no ns-2 clock.
    fn keep_queue_integrals(&mut self, link: usize) -> PyResult<bool> {
        self.sim
            .keep_ns2_integrals(link)
            .map_err(PyValueError::new_err)
    }

    /// When link `link`'s last accepted transmission ends (or ended), in ns-2's double; None if
    /// the link keeps no ns-2 clock.
    fn queue_line_busy(&self, link: usize) -> Option<f64> {
        self.sim.ns2_line_busy(link)
    }

    /// Link `link`'s queue monitor integrals as (sum_, lastx_, lasty_) of the bytes and of
    /// the packets; None if not kept.
    fn queue_integrals(&self, link: usize) -> Option<([f64; 3], [f64; 3])> {
        let i = self.sim.ns2_integrals(link)?;
        let t = |x: Ns2Integral| [x.sum, x.lastx, x.lasty];
        Some((t(i.bytes), t(i.packets)))
    }

    /// Sets link `link`'s queue monitor integral of the bytes (or the packets) to
    /// (sum_, lastx_, lasty_); False if not kept.
    fn set_queue_integral(&mut self, link: usize, bytes: bool, value: [f64; 3]) -> bool {
        let Some(mut i) = self.sim.ns2_integrals(link) else {
            return false;
        };
        let x = Ns2Integral {
            sum: value[0],
            lastx: value[1],
            lasty: value[2],
        };
        if bytes {
            i.bytes = x;
        } else {
            i.packets = x;
        }
        self.sim.set_ns2_integrals(link, i)
    }

    /// Draws what ns-2 draws from its default generator (RED's early drops, TFRC's send
    /// gaps) from ns-2's MRG32k3a generator, in state `state` now.
    fn use_ns2_rng(&mut self, state: [u64; 6]) -> PyResult<()> {
        self.sim.use_ns2_rng(state).map_err(PyValueError::new_err)
    }

    /// Link direction `link`'s loss model draws from ns-2's default generator as well (an
    /// ns-2 ErrorModel without its own random variable); false if it has no random one.
    fn ns2_rng_loss(&mut self, link: usize) -> PyResult<bool> {
        self.sim.ns2_rng_loss(link).map_err(PyValueError::new_err)
    }

    /// A new ns-2 Agent/LossMonitor that the UDP flows `flows` reach, its expected_ at
    /// `expected`; returns its index.
    fn ns2_loss_monitor(&mut self, flows: Vec<usize>, expected: i64) -> PyResult<usize> {
        self.sim
            .ns2_loss_monitor(&flows, expected)
            .map_err(PyValueError::new_err)
    }

    /// Loss monitor `monitor`'s (nlost_, expected_, lastPktTime_ in seconds).
    fn loss_monitor(&self, monitor: usize) -> PyResult<(i64, i64, f64)> {
        self.sim
            .loss_monitor(monitor)
            .ok_or_else(|| PyValueError::new_err(format!("no loss monitor {monitor}")))
    }

    /// ns-2's `$monitor clear`: the next datagram counts no loss.
    fn loss_monitor_clear(&mut self, monitor: usize) -> PyResult<()> {
        if self.sim.loss_monitor_clear(monitor) {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!("no loss monitor {monitor}")))
        }
    }

    /// Link direction `link` goes up or down now, as ns-2's rtmodel takes it: going down,
    /// the packets it holds are dropped (traced), and what reaches it later is dropped.
    fn ns2_set_link(&mut self, link: usize, up: bool) -> PyResult<()> {
        self.sim
            .ns2_set_link(link, up)
            .map_err(PyValueError::new_err)
    }

    /// From now on the front end writes the routes (`ns2_set_route`), as ns-2's dynamic
    /// routing (`rtproto DV`) installs them; until then no node forwards anything.
    fn ns2_dynamic_routes(&mut self) {
        self.sim.ns2_dynamic_routes();
    }

    /// Node `at` forwards toward node `dst` on link `link` from now on (None: it drops what
    /// it would forward there, untraced, as ns-2's null agent).
    #[pyo3(signature = (at, dst, link=None))]
    fn ns2_set_route(&mut self, at: u32, dst: u32, link: Option<u32>) -> PyResult<()> {
        self.sim
            .ns2_set_route(at, dst, link)
            .map_err(PyValueError::new_err)
    }

    /// Link direction `link` takes rate `bw` bit/s and propagation delay `delay_ps` now, as
    /// ns-2's `$ns bandwidth` / `$ns delay` during the run: for the packets that start from
    /// now on (those on the line keep their times).
    fn ns2_set_link_params(&mut self, link: usize, bw: f64, delay_ps: u64) -> PyResult<()> {
        self.sim
            .ns2_set_link_params(link, bw, delay_ps)
            .map_err(PyValueError::new_err)
    }

    /// Link direction `link`'s DropTail queue takes `limit_` `limit` (packets) now, and with
    /// `shrink` drops what waits beyond it from the tail (ns-2's `shrink-queue`).
    #[pyo3(signature = (link, limit, shrink))]
    fn ns2_set_queue_limit(
        &mut self,
        link: usize,
        limit: Option<u64>,
        shrink: bool,
    ) -> PyResult<()> {
        self.sim
            .ns2_set_queue_limit(link, limit, shrink)
            .map_err(PyValueError::new_err)
    }

    /// Class `class` (its index in the tree) of link direction `link`'s cbq queue takes the
    /// allotment `bw` now (ns-2's `$class newallot`).
    fn cbq_newallot(&mut self, link: usize, cls: usize, bw: f64) -> PyResult<()> {
        self.sim
            .cbq_newallot(link, cls, bw)
            .map_err(PyValueError::new_err)
    }

    /// A value of link direction `link`'s dsred queue now (`Simulation::dsred_query`).
    fn dsred_query(&self, link: usize, what: &str, a: i64, b: i64) -> PyResult<f64> {
        self.sim
            .dsred_query(link, what, a, b)
            .map_err(PyValueError::new_err)
    }

    /// An ns-2 Delayer on link direction `link` blocks its line now (`blocked`) or lets
    /// the waiting packets go.
    fn ns2_block_link(&mut self, link: usize, blocked: bool) -> PyResult<()> {
        self.sim
            .ns2_block_link(link, blocked)
            .map_err(PyValueError::new_err)
    }

    /// Packet trace `trace` writes its times as ns-2's nam trace does (%.15g of ns-2's
    /// clock); false if it is not an ns-2 trace.
    fn ns2_nam_times(&mut self, trace: usize) -> bool {
        self.sim.ns2_nam_times(trace)
    }

    /// `$ns eventtrace-all`: flow `flow`'s TCP agent (at node `node`, its peer at `peer`)
    /// writes its congestion events (ns-2's `E` lines) into packet trace `trace`; false if
    /// that is no ns-2 trace or the flow no TCP flow.
    fn ns2_event_trace(&mut self, flow: usize, trace: usize, node: u32, peer: u32) -> bool {
        self.sim.ns2_event_trace(flow, trace, node, peer)
    }

    /// ns-2's `iss_` of the FullTcp agent sending flow `flow`: packet traces number that
    /// direction from it; false if the flow is no direction of a two-way connection.
    fn ns2_full_iss(&mut self, flow: usize, iss: u32) -> bool {
        self.sim.ns2_full_iss(flow, iss)
    }

    /// ns-2's `ecn_syn_` (`on`) and `ecn_syn_wait_` `wait` on the FullTcp agent sending flow
    /// `flow`; false if it is no direction of a two-way connection.
    fn ns2_full_ecn_syn(&mut self, flow: usize, on: bool, wait: u8) -> bool {
        self.sim.ns2_full_ecn_syn(flow, on, wait)
    }

    /// ns-2's TCPSink `ecn_syn_` true on one-way TCP flow `flow`; false if it is none.
    fn ns2_sink_ecn_syn(&mut self, flow: usize) -> bool {
        self.sim.ns2_sink_ecn_syn(flow)
    }

    /// Flow `flow`'s CBR sends every `seconds` (ns-2's interval_ as its double) on ns-2's
    /// clock; false if it is no CBR without jitter.
    fn ns2_cbr_interval(&mut self, flow: usize, seconds: f64) -> PyResult<bool> {
        self.sim
            .ns2_cbr_interval(flow, seconds)
            .map_err(PyValueError::new_err)
    }

    /// Flow `flow`'s UDP agent's ns-2 `packetSize_`: a larger message from its application
    /// goes as packets of that size and the rest (`UdpAgent::sendmsg`); false if it is no
    /// UDP source or `size` is 0.
    fn ns2_udp_packet_size(&mut self, flow: usize, size: u32) -> PyResult<bool> {
        self.sim
            .ns2_udp_packet_size(flow, size)
            .map_err(PyValueError::new_err)
    }

    /// Flow `flow`'s CBR with jitter sends every `seconds` plus a jitter drawn from ns-2's
    /// default generator, on ns-2's clock; false if it is no CBR with jitter.
    fn ns2_cbr_jitter(&mut self, flow: usize, seconds: f64) -> PyResult<bool> {
        self.sim
            .ns2_cbr_jitter(flow, seconds)
            .map_err(PyValueError::new_err)
    }

    /// Each link's cost by link index (ns-2's `$ns cost`): the static routes computed again as
    /// ns-2.35's `RouteLogic::compute_routes` adds the costs up; under `routing = "ns2"`,
    /// before the run.
    fn ns2_link_costs(&mut self, costs: Vec<f64>) -> PyResult<()> {
        self.sim
            .ns2_link_costs(&costs)
            .map_err(PyValueError::new_err)
    }

    /// Flow `flow`'s data packets are named `packet_type` (`exp` or `pareto`: ns-2's type an
    /// Exponential or Pareto source gives its agent when it starts) in ns-2 traces from now.
    fn ns2_data_type(&mut self, flow: usize, packet_type: &str) -> PyResult<()> {
        let ty = match packet_type {
            "exp" => "exp",
            "pareto" => "pareto",
            other => return Err(PyValueError::new_err(format!("no packet type {other:?}"))),
        };
        self.sim
            .ns2_data_type(flow, ty)
            .map_err(PyValueError::new_err)
    }

    /// Flow `flow`'s TCP window (ns-2's `window_` set during the run), at most the one it was
    /// made with; false if it is no one-way TCP flow with a fixed window.
    fn ns2_tcp_window(&mut self, flow: usize, window: f64) -> PyResult<bool> {
        self.sim
            .ns2_tcp_window(flow, window)
            .map_err(PyValueError::new_err)
    }

    /// Flow `flow`'s on-off source draws as ns-2's Exponential (`shape` 0: `burst` packets
    /// and `idle` seconds are the means) or Pareto (`shape` > 0: `burst` and `idle` are
    /// ns-2's scales p1 and p2) from ns-2's generator, `interval` seconds apart in a burst,
    /// on ns-2's clock; false if it has no on-off source.
    fn ns2_onoff(
        &mut self,
        flow: usize,
        interval: f64,
        burst: f64,
        idle: f64,
        shape: f64,
    ) -> PyResult<bool> {
        use ackclock_core::traffic::Ns2Bursts;
        let bursts = if shape > 0.0 {
            Ns2Bursts::Pareto {
                p1: burst,
                p2: idle,
                shape,
            }
        } else {
            Ns2Bursts::Exponential {
                burst_pkts: burst,
                idle_s: idle,
            }
        };
        self.sim
            .ns2_onoff(flow, interval, bursts)
            .map_err(PyValueError::new_err)
    }

    /// ns-2's default generator's state now; None unless `use_ns2_rng` was called.
    fn ns2_rng_state(&self) -> Option<[u64; 6]> {
        self.sim.ns2_rng_state()
    }

    /// The (time s, curq, ave) changes recorded on link `link` since the last call.
    fn take_queue_vars(&mut self, link: usize) -> Vec<(f64, f64, f64)> {
        self.sim.take_queue_vars(link)
    }

    /// Hands flow `flow`'s TFRC sender `npkts` more packets now, -1 endless (ns-2's FTP
    /// produce / producemore / start on an Agent/TFRC with SndrType_ 1).
    fn tfrc_advance(&mut self, flow: usize, npkts: i64) -> PyResult<()> {
        self.sim
            .tfrc_advance(flow, npkts)
            .map_err(PyValueError::new_err)
    }

    /// Flow `flow`'s TFRC sender's rate (bytes/s), RTT (s), reported loss event rate, true
    /// loss rate and next sequence number; None for other flows.
    fn tfrc_vars(&self, flow: usize) -> Option<(f64, f64, f64, f64, f64)> {
        self.sim
            .tfrc_vars(flow)
            .map(|v| (v[0], v[1], v[2], v[3], v[4]))
    }

    /// Flow `flow`'s RAP source's seqno_, sessionLossCount_, ipg_ (s), srtt_ (s) and
    /// timeout_ (s); None for other flows.
    fn rap_vars(&self, flow: usize) -> Option<(f64, f64, f64, f64, f64)> {
        self.sim
            .rap_vars(flow)
            .map(|v| (v[0], v[1], v[2], v[3], v[4]))
    }

    /// Lets flow `flow`'s one-way TCP sender send up to segment `limit` (not included), now
    /// (ns-2's FTP produce / producemore / send).
    fn advance_app(&mut self, flow: usize, limit: u64) -> PyResult<()> {
        self.sim
            .advance_app(flow, limit)
            .map_err(PyValueError::new_err)
    }

    /// Flow `flow`'s FullTcp agent has been given `total` payload bytes in all, now (ns-2's
    /// `advance-bytes`, `send`, a part of a segment allowed).
    fn advance_app_bytes(&mut self, flow: usize, total: u64) -> PyResult<()> {
        self.sim
            .advance_app_bytes(flow, total)
            .map_err(PyValueError::new_err)
    }

    /// Closes flow `flow`'s two-way connection from its side now (ns-2's FullTcp `close`).
    fn close_app(&mut self, flow: usize) -> PyResult<()> {
        self.sim.close_app(flow).map_err(PyValueError::new_err)
    }

    /// Gives flow `flow`'s TCP sender, which must not have sent yet, ns-2's `boot_time_` of
    /// `boot_ps` picoseconds (a FullTcp agent's connect draws it anew).
    fn set_ns2_boot_time(&mut self, flow: usize, boot_ps: u64) -> PyResult<()> {
        self.sim
            .set_ns2_boot_time(flow, SimDuration(boot_ps))
            .map_err(PyValueError::new_err)
    }

    /// Resets one-way TCP flow `flow`'s sender (`sender` true; `boot_ps`: its new `boot_time_`
    /// in picoseconds) or its sink now: ns-2's `$tcp reset` / `$sink reset` during the run.
    fn ns2_reset_tcp(&mut self, flow: usize, sender: bool, boot_ps: u64) -> PyResult<()> {
        self.sim
            .ns2_reset_tcp(flow, sender, SimDuration(boot_ps))
            .map_err(PyValueError::new_err)
    }

    /// Gives flow `flow`'s one-way TCP sender, which must not have sent yet, the congestion
    /// control `name` with `params` (default: its defaults; ns-2's `select_ca` during the
    /// run).
    #[pyo3(signature = (flow, name, params=None))]
    fn select_cc(
        &mut self,
        flow: usize,
        name: &str,
        params: Option<std::collections::BTreeMap<String, f64>>,
    ) -> PyResult<()> {
        self.sim
            .select_cc(flow, name, &params.unwrap_or_default())
            .map_err(PyValueError::new_err)
    }

    /// Flow `flow`'s TCP sender's (first unacknowledged, next to send, one past the highest
    /// sent) segments; None without one.
    fn tcp_seqs(&self, flow: usize) -> Option<(u64, u64, u64)> {
        self.sim.tcp_seqs(flow)
    }

    /// The ACKs flow `flow`'s one-way TCP sender received since it was made or reset (ns-2's
    /// `nackpack_`); None without one.
    fn tcp_acks_received(&self, flow: usize) -> Option<u64> {
        self.sim.tcp_acks_received(flow)
    }

    /// The SYNs flow `flow`'s one-way TCP sender sent since the run began; None without one.
    fn tcp_syns_sent(&self, flow: usize) -> Option<u64> {
        self.sim.tcp_syns_sent(flow)
    }

    /// Flow `flow`'s counters since the start of the run, as a dict: every field of
    /// `monitor::FlowCounters`.
    fn flow_counters<'py>(&self, py: Python<'py>, flow: usize) -> PyResult<Bound<'py, PyDict>> {
        let c = self
            .sim
            .flow_counters(flow)
            .ok_or_else(|| PyValueError::new_err(format!("no flow {flow}")))?;
        let d = PyDict::new(py);
        set_all(&d, |f| c.each(f))?;
        Ok(d)
    }

    /// Flow `flow`'s Quick-Start requests and approvals since the last call, in order:
    /// ("request", time s, KB/s) or ("approved", time s, bytes/s, encoded rate, window,
    /// RTT s, segment bytes): what ns-2's `print_request_` prints.
    fn quick_start_log<'py>(
        &mut self,
        py: Python<'py>,
        flow: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        use ackclock_core::tcp::sender::QsLog;
        let out = PyList::empty(py);
        for e in self.sim.take_quick_start_log(flow) {
            match e {
                QsLog::Request { at, kbytes } => {
                    out.append(("request", at.as_secs_f64(), kbytes))?;
                }
                QsLog::Approved {
                    at,
                    bytes_per_sec,
                    encoded,
                    window,
                    rtt,
                    segment,
                } => {
                    out.append((
                        "approved",
                        at.as_secs_f64(),
                        bytes_per_sec,
                        encoded,
                        window,
                        rtt,
                        segment,
                    ))?;
                }
            }
        }
        Ok(out)
    }

    /// Flow `flow`'s TCP variables now (cwnd, ssthresh, rtt, srtt, rttvar, rto, backoff,
    /// window, inflight, pacing_rate; times in seconds; ns2_awnd, ns-2's average window
    /// `awnd_` in segments; an RBP agent's rbp_paced and rbp_gap), or None for a UDP flow.
    fn tcp_vars<'py>(&self, py: Python<'py>, flow: usize) -> PyResult<Option<Bound<'py, PyDict>>> {
        let (Some(v), Some(awnd)) = (self.sim.tcp_vars(flow), self.sim.tcp_ns2_awnd(flow)) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        for (name, x) in ackclock_core::trace::tracer::TRACEABLE.iter().zip(v) {
            d.set_item(*name, x)?;
        }
        d.set_item("ns2_awnd", awnd)?;
        if let Some((paced, gap)) = self.sim.tcp_rbp_stats(flow) {
            // An RBP agent's (tcp/sender/rbp.rs).
            d.set_item("rbp_paced", paced)?;
            d.set_item("rbp_gap", gap)?;
        }
        Ok(Some(d))
    }

    /// Link direction `link`'s queue counters since the start of the run, brought up to now:
    /// every field of `monitor::QueueCounters`, the areas in float (`area_*_ps`), the
    /// instant of the backlog's last change (`changed_ps`) and, on a link that keeps ns-2's
    /// clock, the departures that carried CE (`departed_ce_packets`, ns-2's `pmarks_`).
    fn queue_counters<'py>(
        &mut self,
        py: Python<'py>,
        link: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (q, changed) = self
            .sim
            .queue_counters(link)
            .ok_or_else(|| PyValueError::new_err(format!("no link {link}")))?;
        let d = queue_dict!(py, q);
        d.set_item("changed_ps", changed.0)?;
        if let Some(n) = self.sim.ns2_ce_departures(link) {
            d.set_item("departed_ce_packets", n)?;
        }
        Ok(d)
    }

    /// Link direction `link`'s per-flow queue counters (`monitor_flows`), brought up to
    /// now: a dict per engine flow that has offered the link a packet, keyed by flow index.
    fn queue_flow_counters<'py>(
        &mut self,
        py: Python<'py>,
        link: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let all = self
            .sim
            .queue_flow_counters(link)
            .ok_or_else(|| PyValueError::new_err(format!("link {link} keeps no flow monitor")))?;
        let out = PyDict::new(py);
        for (f, q) in all.iter().enumerate() {
            let Some(first) = q.first_arrival else {
                continue;
            };
            let d = queue_dict!(py, q);
            d.set_item("first_arrival_ps", first)?;
            d.set_item("waited_ps", q.waited_ps as f64)?;
            d.set_item("data", self.sim.flow_crosses(f, link))?;
            out.set_item(f, d)?;
        }
        Ok(out)
    }

    /// Writes the packet-trace lines due by now to their files (ns-2 front end).
    fn flush_traces(&mut self) -> PyResult<()> {
        self.sim.flush_traces().map_err(PyOSError::new_err)
    }

    /// The traced-variable rows recorded since the last call, as a table dict.
    fn take_tcp_trace<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        arrow::table_to_dict(py, &self.sim.take_tcp_trace())
    }

    /// The result tables; raises RuntimeError before the run has reached its duration. The
    /// sampled time series are handed over, not copied: a second call has them empty.
    fn results<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self
            .sim
            .take_results()
            .ok_or_else(|| match self.sim.stop_reason() {
                Some(reason) => PyRuntimeError::new_err(format!("the run stopped early: {reason}")),
                None => PyRuntimeError::new_err("the run has not reached its duration"),
            })?;
        if let Some(e) = self.sim.trace_error() {
            return Err(PyOSError::new_err(e.to_string()));
        }
        results_to_dict(py, r)
    }
}

/// Sets every counter `each` hands out (`monitor::counters!`) in `d`.
fn set_all(
    d: &Bound<'_, PyDict>,
    each: impl FnOnce(&mut dyn FnMut(&'static str, u128)),
) -> PyResult<()> {
    let mut result = Ok(());
    each(&mut |name, value| {
        if result.is_ok() {
            result = d.set_item(name, value);
        }
    });
    result
}

fn results_to_dict<'py>(py: Python<'py>, r: Results) -> PyResult<Bound<'py, PyDict>> {
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
    d.set_item("flows", arrow::Table::new(r.flows))?;
    d.set_item("queues", arrow::Table::new(r.queues))?;
    d.set_item("timeseries", arrow::Table::new(r.timeseries))?;
    d.set_item("queue_timeseries", arrow::Table::new(r.queue_timeseries))?;
    d.set_item("tcp_trace", arrow::Table::new(r.tcp_trace))?;
    d.set_item("connections", arrow::Table::new(r.connections))?;
    d.set_item("flows_detail", arrow::Table::new(r.flows_detail))?;
    d.set_item("cc_state", arrow::Table::new(r.cc_state))?;
    d.set_item("queue_flows", arrow::Table::new(r.queue_flows))?;
    Ok(d)
}

/// The resolved scenario document as the engine reads it: parsed and checked as `Simulation`
/// does (a ValueError with the same one-line message), then written back as JSON with every
/// value the engine would use, the defaults it fills in included.
#[pyfunction]
fn read_scenario(scenario_json: &str) -> PyResult<String> {
    let sc = ackclock_core::scenario::Scenario::from_json(scenario_json)
        .map_err(PyValueError::new_err)?;
    serde_json::to_string(&sc).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Checks a resolved scenario document as `Simulation` does, without building anything: the
/// engine's rules (`Scenario::validate`, scenario/validate.rs) are the front end's, which
/// calls this where it checks a scenario. A ValueError with one line, `place: what`, the
/// place in the document's own indices (`flow[3].window`, `link[1].queue.limit`).
/// `scenario`: its JSON text, or the document itself (read as `Simulation` reads it).
#[pyfunction]
fn check_scenario(scenario: &Bound<'_, PyAny>) -> PyResult<()> {
    let (encoded, tmix) = document_text(scenario)?;
    let text = match &encoded {
        Some(text) => text.as_str(),
        None => scenario.cast::<PyString>()?.to_str()?,
    };
    ackclock_core::scenario::Scenario::from_json_with_tmix(text, tmix)
        .map(drop)
        .map_err(PyValueError::new_err)
}

/// A resolved document given as a dict: its text as `json.dumps` writes it (`json_text`),
/// but for Tmix applications' connection vectors, read from their arrays apart
/// (`tmix_arrays`). None for a document given as its text.
type DocumentText = (
    Option<String>,
    Vec<(usize, ackclock_core::scenario::TmixVectors)>,
);

fn document_text(scenario: &Bound<'_, PyAny>) -> PyResult<DocumentText> {
    if scenario.cast::<PyString>().is_ok() {
        return Ok((None, Vec::new()));
    }
    let (doc, tmix) = tmix_arrays::split(scenario)?.map_err(PyValueError::new_err)?;
    Ok((Some(json_text::compact_text(&doc)?), tmix))
}

/// The resolved document's JSON Schema, made from the engine's own types (schemars: the types
/// `Simulation` reads the document into), as indented JSON. docs/engine.schema.json is it as
/// published (`python -m ackclock.schema --engine`).
#[pyfunction]
fn scenario_schema() -> String {
    let schema = ackclock_core::scenario::Scenario::json_schema();
    serde_json::to_string_pretty(&schema).expect("a schema is JSON")
}

/// A Tmix connection-vector file's text as the resolved document's columns, or None when it
/// is not a plain well-formed file (the front end then reads it itself and reports why).
/// The numbers come as `array.array`s (`python/ackclock/tmix.py`: 8 bytes a value rather than
/// a list's pointer and int object, some 40), `concurrent` as a list of bools.
#[pyfunction]
fn read_tmix_vectors<'py>(py: Python<'py>, text: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(mut v) = ackclock_core::traffic::tmix::vectors::read(text) else {
        return Ok(None);
    };
    // Each column's bytes written straight into the bytes the array copies, and the engine's
    // column let go once its array exists (seed 003's study files: 3.3 million connections).
    let array = py.import("array")?.getattr("array")?;
    fn column<'py, T: Copy, const N: usize>(
        array: &Bound<'py, PyAny>,
        code: &str,
        xs: Vec<T>,
        bytes: impl Fn(T) -> [u8; N],
    ) -> PyResult<Bound<'py, PyAny>> {
        let raw = PyBytes::new_with(array.py(), xs.len() * N, |buf| {
            for (chunk, &x) in buf.chunks_exact_mut(N).zip(&xs) {
                chunk.copy_from_slice(&bytes(x));
            }
            Ok(())
        })?;
        drop(xs);
        array.call1((code, raw))
    }
    let q = |xs: Vec<u64>| column(&array, "Q", xs, u64::to_ne_bytes);
    let u = |xs: Vec<u32>| column(&array, "Q", xs, |x| u64::from(x).to_ne_bytes());
    let f = |xs: Vec<f64>| column(&array, "d", xs, f64::to_ne_bytes);
    let d = PyDict::new(py);
    d.set_item("start_ps", q(take(&mut v.start_ps))?)?;
    d.set_item("concurrent", take(&mut v.concurrent))?;
    d.set_item("rtt_ps", q(take(&mut v.rtt_ps))?)?;
    d.set_item("loss_initiator", f(take(&mut v.loss_initiator))?)?;
    d.set_item("loss_acceptor", f(take(&mut v.loss_acceptor))?)?;
    d.set_item("window_initiator", u(take(&mut v.window_initiator))?)?;
    d.set_item("window_acceptor", u(take(&mut v.window_acceptor))?)?;
    d.set_item("fin_wait_ps", q(take(&mut v.fin_wait_ps))?)?;
    d.set_item("adus", u(take(&mut v.adus))?)?;
    d.set_item(
        "adu_side",
        column(&array, "B", take(&mut v.adu_side), |x| [x])?,
    )?;
    d.set_item("adu_bytes", q(take(&mut v.adu_bytes))?)?;
    d.set_item("adu_wait_ps", q(take(&mut v.adu_wait_ps))?)?;
    Ok(Some(d))
}

/// One registered parameter as the front end reads it (`params::Param`).
fn param_dict<'py>(
    py: Python<'py>,
    p: &ackclock_core::params::Param,
) -> PyResult<Bound<'py, PyDict>> {
    let (min, min_inclusive, max, max_inclusive, integer) = p.range.bounds();
    let q = PyDict::new(py);
    q.set_item("name", p.name)?;
    q.set_item("default", p.default)?;
    q.set_item("min", min)?;
    q.set_item("min_inclusive", min_inclusive)?;
    q.set_item("max", max)?;
    q.set_item("max_inclusive", max_inclusive)?;
    q.set_item("integer", integer)?;
    q.set_item("range", p.range.name())?;
    q.set_item("expected", p.range.expected())?;
    q.set_item("unit", p.unit.name())?;
    q.set_item("ns2", p.ns2)?;
    q.set_item("ns3", p.ns3)?;
    q.set_item("aliases", p.aliases.to_vec())?;
    q.set_item("inverse_aliases", p.inverse_aliases.to_vec())?;
    let profiles = PyDict::new(py);
    for &(profile, default) in p.profile_defaults {
        profiles.set_item(profile, default)?;
    }
    q.set_item("profile_defaults", profiles)?;
    q.set_item("doc", p.doc)?;
    Ok(q)
}

/// The congestion-control registry: for each algorithm its name and parameters (see
/// `param_dict`), in the engine's order (`tcp::cc::REGISTRY`).
#[pyfunction]
fn cc_registry(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    ackclock_core::tcp::cc::REGISTRY
        .iter()
        .map(|info| {
            let d = PyDict::new(py);
            d.set_item("name", info.name)?;
            let params = info
                .params
                .iter()
                .map(|p| param_dict(py, p))
                .collect::<PyResult<Vec<_>>>()?;
            d.set_item("params", params)?;
            let classes: Vec<&str> = info.ns3.iter().map(|c| c.name).collect();
            d.set_item("ns3_classes", classes)?;
            d.set_item("ecn_per_segment", info.ecn_per_segment)?;
            Ok(d)
        })
        .collect()
}

/// The queue-discipline registry: for each discipline its name, service ("enqueue" or
/// "dequeue"), whether it marks ECN, takes a byte limit, its default packet limit (or None),
/// a line of description and its parameters (see `param_dict`), in the engine's order
/// (`queue::REGISTRY`).
#[pyfunction]
fn queue_registry(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    use ackclock_core::queue::Service;
    ackclock_core::queue::REGISTRY
        .iter()
        .map(|info| {
            let d = PyDict::new(py);
            d.set_item("name", info.name)?;
            let service = match info.service {
                Service::Enqueue => "enqueue",
                Service::Dequeue => "dequeue",
            };
            d.set_item("service", service)?;
            d.set_item("ecn", info.ecn)?;
            d.set_item("limit_bytes", info.limit_bytes)?;
            d.set_item("default_limit", info.default_limit)?;
            d.set_item("doc", info.doc)?;
            let params = info
                .params
                .iter()
                .map(|p| param_dict(py, p))
                .collect::<PyResult<Vec<_>>>()?;
            d.set_item("params", params)?;
            Ok(d)
        })
        .collect()
}

/// The engine's version.
#[pyfunction]
fn version() -> &'static str {
    ackclock_core::VERSION
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Simulation>()?;
    m.add_class::<arrow::Table>()?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(read_tmix_vectors, m)?)?;
    m.add_function(wrap_pyfunction!(toml_reader::read_toml, m)?)?;
    m.add_function(wrap_pyfunction!(entry_copy::copy_entries, m)?)?;
    m.add_function(wrap_pyfunction!(read_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(check_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(scenario_schema, m)?)?;
    m.add_function(wrap_pyfunction!(cc_registry, m)?)?;
    m.add_function(wrap_pyfunction!(queue_registry, m)?)?;
    m.add_function(wrap_pyfunction!(json_text::json_dumps, m)?)?;
    m.add_function(wrap_pyfunction!(json_text::json_dump, m)?)?;
    custom::register(m)?;
    custom_queue::register(m)?;
    Ok(())
}
