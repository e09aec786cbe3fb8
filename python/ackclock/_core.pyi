"""The compiled engine (crates/ackclock-py). See docs/engine-contract.md."""

from collections.abc import Callable, Mapping
from typing import Any, final

__all__ = ["Simulation", "Table", "version", "read_tmix_vectors", "read_toml", "copy_entries",
           "read_scenario",
           "check_scenario", "scenario_schema", "cc_registry", "queue_registry", "Clock", "Ack",
           "RateSample", "QueuedPacket", "QueueView", "UserFacing", "cbrt", "json_dumps",
           "json_dump"]

@final
class Simulation:
    """One simulation run, built from a resolved scenario document (JSON)."""

    def __new__(cls, scenario: str | Mapping[str, Any]) -> Simulation:
        """``scenario``: the resolved document's JSON text, or the document itself (encoded
        by the binding as ``json.dumps`` writes it, but for Tmix applications' connection
        vectors, read from their arrays without text). Raises ValueError with a one-line
        message for a document the engine rejects."""

    def run_until(self, t_ps: int) -> None:
        """Runs every event up to and including ``t_ps`` (capped at the duration); releases
        the GIL, unless a congestion control written in Python runs."""
    def run_until_before(self, t_ps: int, t2: float) -> None:
        """Runs the events up to ``t_ps`` and, of those at ``t_ps``, under the ns2 profile
        only the ones whose ns-2 time lies before ``t2`` seconds (other profiles: all)."""

    def take_user_error(self) -> BaseException | None:
        """The exception a congestion control written in Python raised, when the run stopped
        for it (taken)."""

    @property
    def now_ps(self) -> int: ...
    @property
    def duration_ps(self) -> int: ...
    @property
    def events(self) -> int: ...
    @property
    def packet_hops(self) -> int: ...
    @property
    def flow_entries(self) -> int: ...
    @property
    def checking(self) -> bool:
        """Whether the invariant checker runs (debug builds, or ``run.check``)."""
    @property
    def stop_reason(self) -> dict[str, Any] | None:
        """Why the run stopped before its duration: kind ("invariant", "limit" or
        "external": a congestion control or queue discipline written in Python failed,
        component its flow ("flow NAME") or link ("link NAME"),
        detail what happened), key, component, time_s, message; None while it has not."""
    # Mid-run access (the ns-2 front end's `$ns at` scripts).
    def schedule_app(self, flow: int, t_ps: int, start: bool) -> None:
        """Starts (or stops) flow ``flow``'s application at ``t_ps`` (not before now)."""
    def trace_queue_vars(self, link: int) -> bool:
        """Records link ``link``'s queue variable changes (RED's curq_, ave_); False: none."""
    def take_queue_vars(self, link: int) -> list[tuple[float, float, float]]:
        """The (time s, curq, ave) changes recorded since the last call."""
    def host_flow(self, flow: int, packet_type: str, anywhere: bool) -> None:
        """One-way UDP flow ``flow`` becomes a host flow (sim/host_datagrams.rs)."""
    def host_send(self, flow: int, size: int, dst: int | None, seq: int, tag: int) -> None:
        """Host flow ``flow`` sends a datagram now."""
    def take_host_arrivals(self) -> list[tuple[int, int, int, int, int, float]]:
        """(flow, tag, src, dst, size, time) of each arrival since the last call."""
    def detach_endpoint(self, flow: int, sender: bool) -> None:
        """Detaches one-way flow ``flow``'s sender (or receiver) from its node from now on;
        ValueError for another kind of flow."""
    def keep_queue_integrals(self, link: int) -> bool:
        """Keeps a queue monitor's integrals of the link's waiting bytes and packets as ns-2's
        Integrator does; False if the link keeps no ns-2 clock."""
    def queue_line_busy(self, link: int) -> float | None:
        """When the link's last accepted transmission ends (or ended), in ns-2's double; None
        if the link keeps no ns-2 clock."""
    def queue_integrals(self, link: int) -> tuple[list[float], list[float]] | None:
        """(sum_, lastx_, lasty_) of the bytes and of the packets; None if not kept."""
    def set_queue_integral(self, link: int, bytes: bool,
                           value: tuple[float, float, float]) -> bool:
        """Sets the bytes' (or packets') (sum_, lastx_, lasty_); False if not kept."""
    def use_ns2_rng(self, state: list[int]) -> None:
        """Draws RED's early drops and TFRC's send gaps from ns-2's default generator, in
        MRG32k3a state ``state`` (six integers) now."""
    def ns2_rng_loss(self, link: int) -> bool:
        """Link ``link``'s loss model draws from ns-2's default generator too; False: none."""
    def ns2_loss_monitor(self, flows: list[int], expected: int) -> int:
        """A new ns-2 Agent/LossMonitor reached by the UDP flows ``flows``, its expected_ at
        ``expected``; its index."""
    def loss_monitor(self, monitor: int) -> tuple[int, int, float]:
        """A loss monitor's (nlost_, expected_, lastPktTime_ in seconds)."""
    def loss_monitor_clear(self, monitor: int) -> None:
        """ns-2's ``$monitor clear``: the next datagram counts no loss."""
    def ns2_set_link(self, link: int, up: bool) -> None:
        """Link direction ``link`` goes up or down now (ns-2's rtmodel)."""
    def ns2_dynamic_routes(self) -> None:
        """From now on the front end writes the routes (``ns2_set_route``), as ns-2's dynamic
        routing (``rtproto DV``) installs them; until then no node forwards anything."""
    def ns2_set_route(self, at: int, dst: int, link: int | None = None) -> None:
        """Node ``at`` forwards toward node ``dst`` on link ``link`` from now on (None: it
        drops, untraced, as ns-2's null agent)."""
    def ns2_block_link(self, link: int, blocked: bool) -> None:
        """An ns-2 Delayer on link direction ``link`` blocks its line now, or lets the
        waiting packets go."""
    def ns2_set_queue_limit(self, link: int, limit: int | None, shrink: bool) -> None:
        """Link direction ``link``'s DropTail queue takes ``limit_`` now; with ``shrink``
        (ns-2's ``shrink-queue``) what waits beyond it is dropped from the tail."""
    def cbq_newallot(self, link: int, cls: int, bw: float) -> None:
        """Class ``cls`` (its index in the tree) of link direction ``link``'s cbq queue takes
        the allotment ``bw`` now (ns-2's ``$class newallot``)."""
    def dsred_query(self, link: int, what: str, a: int, b: int) -> float:
        """A value of link direction ``link``'s dsred queue now: ``pkts``, ``drops``,
        ``edrops`` (of code point ``a``, all when negative), ``average``, ``current`` (of
        physical queue ``a``), ``average_v``, ``current_v`` (of virtual queue ``a``, ``b``),
        ``cbucket`` (of the policy of nodes ``a`` to ``b``)."""
    def ns2_set_link_params(self, link: int, bw: float, delay_ps: int) -> None:
        """Link direction ``link`` takes rate ``bw`` (bit/s) and delay ``delay_ps`` now, for
        the packets that start from now on (ns-2's ``$ns bandwidth`` / ``$ns delay``)."""
    def ns2_nam_times(self, trace: int) -> bool:
        """Packet trace ``trace`` writes nam's times (%.15g of ns-2's clock)."""
    def ns2_event_trace(self, flow: int, trace: int, node: int, peer: int) -> bool:
        """Flow ``flow``'s TCP agent (at node ``node``, its peer at ``peer``) writes its
        congestion events (ns-2's ``E`` lines) into packet trace ``trace``."""
    def ns2_full_iss(self, flow: int, iss: int) -> bool:
        """ns-2's ``iss_`` of the FullTcp agent sending ``flow``: traces number it from there."""
    def ns2_full_ecn_syn(self, flow: int, on: bool, wait: int) -> bool:
        """ns-2's ``ecn_syn_`` (``on``) and ``ecn_syn_wait_`` ``wait`` on the FullTcp agent sending
        ``flow``; False: no direction of a two-way connection."""
    def ns2_sink_ecn_syn(self, flow: int) -> bool:
        """ns-2's TCPSink ``ecn_syn_`` on one-way TCP flow ``flow``: the ACK of segment 0 is
        ECT when the sender is ECN-capable; False: no one-way TCP flow."""
    def ns2_link_costs(self, costs: list[float]) -> None:
        """Each link's cost by index (ns-2's ``$ns cost``): the static routes computed again as
        ns-2's RouteLogic adds the costs up; under routing "ns2", before the run."""
    def ns2_udp_packet_size(self, flow: int, size: int) -> bool:
        """A UDP flow's agent ``packetSize_``: a larger message goes as packets of that size
        and the rest (UdpAgent::sendmsg); False: no UDP source, or a size of 0."""
    def ns2_data_type(self, flow: int, packet_type: str) -> None:
        """``flow``'s data packets named ``packet_type`` (``exp``, ``pareto``) in ns-2 traces
        from now on (an Exponential or Pareto source's ``set_pkttype`` on its agent)."""
    def ns2_tcp_window(self, flow: int, window: float) -> bool:
        """A one-way TCP flow's window during the run (ns-2's window_), at most its first."""
    def ns2_cbr_interval(self, flow: int, seconds: float) -> bool:
        """A CBR's interval as ns-2's double, on ns-2's clock; False: no CBR without jitter."""
    def ns2_cbr_jitter(self, flow: int, seconds: float) -> bool:
        """A CBR with jitter: ns-2's interval, the jitter from ns-2's generator; False: no
        CBR with jitter."""
    def ns2_onoff(self, flow: int, interval: float, burst: float, idle: float,
                  shape: float) -> bool:
        """An on-off source drawn as ns-2's Exponential (shape 0) or Pareto, on its clock."""
    def ns2_rng_state(self) -> list[int] | None:
        """ns-2's default generator's state now; None unless ``use_ns2_rng`` was called."""
    def tfrc_advance(self, flow: int, npkts: int) -> None:
        """Hands a TFRC sender ``npkts`` more packets now (-1: endless)."""
    def tfrc_vars(self, flow: int) -> tuple[float, float, float, float, float] | None:
        """A TFRC sender's rate (bytes/s), RTT (s), loss event rate, true loss rate, seqno."""
    def rap_vars(self, flow: int) -> tuple[float, float, float, float, float] | None:
        """A RAP source's seqno_, sessionLossCount_, ipg_ (s), srtt_ (s), timeout_ (s)."""
    def advance_app(self, flow: int, limit: int) -> None:
        """Lets a one-way TCP flow send up to segment ``limit`` (not included), now."""
    def advance_app_bytes(self, flow: int, total: int) -> None:
        """A FullTcp direction given ``total`` payload bytes in all, now (a byte stream)."""
    def close_app(self, flow: int) -> None:
        """Closes a two-way connection from the side whose data ``flow`` carries, now."""
    def set_ns2_boot_time(self, flow: int, boot_ps: int) -> None:
        """Gives a TCP flow that has not sent yet ns-2's boot_time_ (picoseconds)."""
    def ns2_reset_tcp(self, flow: int, sender: bool, boot_ps: int) -> None:
        """Resets a one-way TCP flow's sender (with its new boot_time_, picoseconds) or its
        sink now (ns-2's ``reset`` during the run)."""
    def select_cc(self, flow: int, name: str, params: dict[str, float] | None = None) -> None:
        """Gives a one-way TCP flow that has not sent yet another congestion control
        (``params``: its parameters, default its defaults)."""
    def tcp_seqs(self, flow: int) -> tuple[int, int, int] | None:
        """The TCP sender's first unacknowledged, next and one past the highest sent segments."""
    def tcp_acks_received(self, flow: int) -> int | None:
        """The ACKs the one-way TCP sender received since it was made or reset (``nackpack_``)."""
    def tcp_syns_sent(self, flow: int) -> int | None:
        """The SYNs the one-way TCP sender sent since the run began."""
    def flow_counters(self, flow: int) -> dict[str, int]:
        """The flow's counters since the start of the run: every field of the engine's
        FlowCounters (monitor.rs)."""
    def quick_start_log(self, flow: int) -> list[tuple[Any, ...]]:
        """A flow's Quick-Start requests and approvals since the last call (print_request_)."""
    def tcp_vars(self, flow: int) -> dict[str, float] | None:
        """cwnd, ssthresh, rtt, srtt, rttvar, rto, backoff, window now; None for UDP."""
    def queue_counters(self, link: int) -> dict[str, float]:
        """A link direction's queue counters since the start, brought up to now: every field of
        the engine's QueueCounters (monitor.rs), the areas as floats (area_*_ps), and the
        instant of the backlog's last change (changed_ps)."""
    def queue_flow_counters(self, link: int) -> dict[int, dict[str, Any]]:
        """Link direction ``link``'s per-flow queue counters (``monitor_flows``), brought up
        to now: per engine flow that has offered the link a packet, keyed by flow index, every
        count of the engine's FlowQueueCounters (monitor.rs), the areas as floats (area_*_ps),
        first_arrival_ps and data (whether the flow's data crosses it); ValueError for a link
        without a flow monitor."""
    def flush_traces(self) -> None:
        """Writes the packet-trace lines due by now to their files (the ns-2 front end)."""
    def take_tcp_trace(self) -> dict[str, list[Any]]:
        """Traced-variable rows recorded since the last call (time_s, flow, variable, value)."""
    def results(self) -> dict[str, Any]:
        """``summary`` (a dict) and the result tables, each a :class:`Table` (see
        docs/engine-contract.md); RuntimeError before the run has reached its duration. The
        sampled time series are handed over, not copied: a second call has them empty."""

@final
class Table:
    """One result table of a run: its columns as Arrow (the PyCapsule protocol:
    ``pyarrow.record_batch(table)``) or as Python lists (:meth:`to_dict`)."""

    @property
    def column_names(self) -> list[str]: ...
    @property
    def num_rows(self) -> int: ...
    def to_dict(self) -> dict[str, list[Any]]:
        """The columns as Python lists (float, int, str), keyed by name, in order."""
    def write_csv(self, path: str) -> bool:
        """Writes the table as CSV into ``path`` as results.py's Python writer would; False
        (nothing written) for a text field that needs quoting or a table of one column."""
    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]:
        """The table as an Arrow struct array, one child per column: float64, int64 (uint64
        for a column with a value above 2^63 - 1) and utf8; (schema capsule, array capsule)."""

def cc_registry() -> list[dict[str, Any]]:
    """The engine's congestion-control registry: per algorithm ``name`` and ``params``, each
    parameter a dict of name, default, min, min_inclusive, max, max_inclusive, integer, range
    (its kind's name), expected (the words an error uses), unit ("number", "time" in
    picoseconds, "bytes", "packets"), ns2 and ns3 (alias or None), aliases and
    inverse_aliases (lists of other names; the latter give the reciprocal),
    profile_defaults (profile -> default where it differs; "ns3": ns-3.44's attribute default,
    taken under ``ns3_cc_defaults``; "linux": Linux's, taken by a ``rack`` sender)
    and doc; ``ns3_classes`` (ns-3 class names that select it too) and ``ecn_per_segment``
    (it turns ECN on, its receiver echoing each CE mark)."""

def queue_registry() -> list[dict[str, Any]]:
    """The engine's queue-discipline registry: per discipline ``name``, ``service``
    ("enqueue" or "dequeue"), ``ecn`` (marks under ecn = true), ``limit_bytes`` (takes a byte
    limit), ``default_limit`` (packets, or None for the profile's), ``doc`` and ``params``
    (each as in :func:`cc_registry`)."""

def read_tmix_vectors(text: str) -> dict[str, Any] | None:
    """A Tmix connection-vector file's text as the resolved document's columns (start_ps,
    concurrent, rtt_ps, loss_initiator, loss_acceptor, window_initiator, window_acceptor,
    fin_wait_ps, adus, adu_side, adu_bytes, adu_wait_ps), or None when it
    is not a plain well-formed file (the front end then reads it itself and says why)."""

def read_toml(text: str, max_depth: int) -> dict[str, Any] | None:
    """A scenario file's TOML as ``tomli.loads`` gives it, or None where this reader gives up
    (any mistake, dates and times, integers beyond 64 bits, inf and nan, containers nested
    ``max_depth`` deep: the front end then reads it with tomli, which names the mistake)."""

def copy_entries(entries: list[Any], memo: dict[int, Any],
                 classes: Mapping[type, tuple[tuple[str, ...], Any, bool]],
                 fallback: Callable[[Any, dict[int, Any]], Any]) -> list[Any]:
    """``copy.deepcopy`` of each entry, through ``memo``: the entry ``classes`` (each its field
    names, a getter of them, not read here, and whether frozen; a frozen one holding only
    atomic values is its own copy), dicts and lists copied here, any other value by
    ``fallback(value, memo)``."""

def scenario_schema() -> str:
    """The resolved document's JSON Schema, made from the engine's own types (the types
    :class:`Simulation` reads it into), as indented JSON (docs/engine.schema.json)."""

def read_scenario(scenario_json: str) -> str:
    """The resolved document as the engine reads it: parsed and checked as
    :class:`Simulation` does (ValueError with the same one-line message), written back as JSON
    with every value the engine would use, the defaults it fills in included."""

def check_scenario(scenario: str | Mapping[str, Any]) -> None:
    """Checks a resolved document (its JSON text or the document itself) with the engine's
    rules (scenario/validate.rs), as :class:`Simulation` does, building nothing: ValueError
    with one line, ``place: what``, the place in the document's indices
    (``flow[3].window``)."""

def json_dumps(value: object, indent: int | None = None) -> str | None:
    """``json.dumps(value, indent=indent)``, or None when ``value`` holds something other
    than exact dicts with string keys, lists, tuples, strings, numbers, booleans and None."""

def json_dump(value: object, fp: Any, indent: int | None = None, end: str = "") -> bool:
    """Writes ``json.dumps(value, indent=indent)`` and ``end`` to the text file ``fp``;
    False when ``value`` is not covered (as json_dumps; some text may have been written)."""

def version() -> str:
    """The engine's version."""

@final
class Clock:
    """The simulated time of a Python algorithm's current call."""

    @property
    def now_ps(self) -> int: ...
    @property
    def now(self) -> float: ...

@final
class UserFacing:
    """A function of ackclock's that runs simulations, wrapped so that an exception a Python
    hook raised reaches its caller with the hook's own traceback (ackclock.run.user_facing)."""

    def __new__(cls, f: Any) -> UserFacing: ...
    @property
    def __wrapped__(self) -> Any: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...
    def __get__(self, instance: Any, owner: Any = None, /) -> Any: ...

@final
class Ack:
    """One ACK as ``cong_avoid`` and ``pkts_acked`` see it (valid during the call only)."""

    @property
    def now_ps(self) -> int: ...
    @property
    def now(self) -> float: ...
    @property
    def acked(self) -> int: ...
    @property
    def credit(self) -> float: ...
    @property
    def rtt(self) -> float | None: ...
    @property
    def delay(self) -> float | None: ...
    @property
    def una(self) -> int: ...
    @property
    def sent(self) -> int: ...

@final
class RateSample:
    """A delivery-rate sample for ``cong_control`` (valid during the call only)."""

    @property
    def delivery_rate(self) -> float: ...
    @property
    def is_app_limited(self) -> bool: ...
    @property
    def prior_delivered(self) -> int: ...
    @property
    def delivered(self) -> int: ...
    @property
    def rtt(self) -> float: ...
    @property
    def losses(self) -> int: ...
    @property
    def prior_in_flight(self) -> int: ...

@final
class QueuedPacket:
    """The packet a ``QueueDiscipline`` hook decides on (valid during the call only)."""

    @property
    def size(self) -> int: ...
    @property
    def ecn(self) -> int: ...
    @property
    def ect(self) -> bool: ...
    @property
    def ce(self) -> bool: ...
    @property
    def flow(self) -> str | None: ...
    @property
    def flow_index(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def id(self) -> int: ...
    @property
    def seq(self) -> int: ...
    @property
    def retransmit(self) -> bool: ...
    @property
    def sent_ps(self) -> int: ...
    @property
    def sent(self) -> float: ...
    @property
    def now_ps(self) -> int: ...
    @property
    def now(self) -> float: ...
    @property
    def enqueued_ps(self) -> int: ...
    @property
    def enqueued(self) -> float: ...
    @property
    def sojourn_ps(self) -> int: ...
    @property
    def sojourn(self) -> float: ...

@final
class QueueView:
    """A link's queue as a ``QueueDiscipline`` hook sees it (valid during the call only)."""

    @property
    def packets(self) -> int: ...
    @property
    def bytes(self) -> int: ...
    @property
    def limit(self) -> int | None: ...
    @property
    def limit_bytes(self) -> int | None: ...
    @property
    def ns2(self) -> bool: ...
    @property
    def ecn(self) -> bool: ...
    @property
    def rate_bps(self) -> float: ...
    @property
    def delay(self) -> float: ...
    @property
    def now_ps(self) -> int: ...
    @property
    def now(self) -> float: ...
    @property
    def idle_since_ps(self) -> int | None: ...
    @property
    def busy_until_ps(self) -> int: ...
    def random(self) -> float:
        """The next number in [0, 1) of the link's own random stream."""

def cbrt(x: float) -> float:
    """The engine's cube root (Rust's f64::cbrt)."""
