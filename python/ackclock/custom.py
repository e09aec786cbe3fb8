"""Congestion control written in Python (docs/custom-algorithms.md).

A subclass of :class:`CongestionControl` defines Linux's hooks (``struct tcp_congestion_ops``,
include/net/tcp.h; ns-3's ``TcpCongestionOps`` has the same set), keeps its state on the
instance and reads and sets ``self.cwnd``, ``self.snd_ssthresh`` and ``self.pacing_rate`` (in
segments and segments per second): ``ssthresh`` is the hook (Linux's ``ops->ssthresh``), the
threshold is ``self.snd_ssthresh`` (Linux's ``tp->snd_ssthresh``). The engine makes one
instance per flow (``cls(**params)``) and calls only the hooks the class defines, found once,
when the instance is made.

A scenario names the class as ``"module:Class"`` (``cc = "mymod:MyCc"`` in TOML); in Python,
``cc=MyCc`` or ``cc=MyCc(beta=0.6)`` (its keyword arguments become ``cc_params``) does the
same. The resolved scenario records that name and the parameters, so sweeps, their cache and
Dask workers find the class by importing its module.
"""

from __future__ import annotations

import enum
import importlib
import math
import os
import sys
from collections.abc import Mapping
from typing import Any, ClassVar

from ._core import Ack, QueuedPacket, QueueView, RateSample, cbrt
from .errors import ScenarioError, quote

__all__ = ["Ack", "CaEvent", "CaState", "CongestionControl", "QueueDiscipline", "QueueView",
           "QueuedPacket", "RateSample", "Verdict", "cbrt"]

# The hooks an algorithm may define, as the engine calls them.
HOOKS = ("ssthresh", "cong_avoid", "pkts_acked", "set_state", "cwnd_event", "cong_control",
         "undo_cwnd")


class CaState(enum.IntEnum):
    """Linux's congestion states (``enum tcp_ca_state``), as ``set_state`` receives them."""

    OPEN = 0
    DISORDER = 1
    CWR = 2
    RECOVERY = 3
    LOSS = 4


class CaEvent(enum.IntEnum):
    """Linux's congestion-window events (``enum tcp_ca_event``), for ``cwnd_event``."""

    TX_START = 0  # first transmission with nothing in flight
    CWND_RESTART = 1  # not raised yet
    COMPLETE_CWR = 2  # not raised yet
    LOSS = 3  # a retransmission timeout, before ssthresh


# Every subclass by "module:qualname", so that classes the engine cannot import (defined in a
# notebook, in a function) are found in the process that defined them.
_CLASSES: dict[str, type] = {}


class CongestionControl:
    """A congestion control written in Python. Define ``ssthresh`` and ``cong_avoid`` (or
    ``cong_control``) and any of the optional hooks:

    - ``ssthresh(self) -> float``: a loss: the reduced window (Reno: ``self.cwnd / 2``); the
      sender sets ``snd_ssthresh`` (and in fast recovery cwnd) from it.
    - ``cong_avoid(self, ack)``: a new ACK outside recovery; grow ``self.cwnd``.
      ``ack.acked``, ``ack.credit``, ``ack.rtt``, ``ack.delay``, ``ack.now``.
    - ``pkts_acked(self, sample)``: every ACK of new data, with ``sample.rtt`` (s or None).
    - ``set_state(self, state)``: a :class:`CaState` (RECOVERY, OPEN, LOSS).
    - ``cwnd_event(self, event)``: a :class:`CaEvent` (TX_START, LOSS).
    - ``cong_control(self, rs)``: every ACK with a delivery-rate sample (BBR's hook); sets
      ``self.cwnd`` and ``self.pacing_rate``.
    - ``undo_cwnd(self, prior_cwnd) -> float``: when the ``linux`` profile's sender (``rack``)
      finds a reduction spurious (an echoed timestamp older than its first retransmission, or
      F-RTO) and undoes it (Linux's ``tcp_undo_cwnd_reduction``).

    Readable: ``self.cwnd``, ``self.snd_ssthresh`` (the threshold: ``ssthresh`` is the
    hook) and ``self.pacing_rate``, which the hooks may set (``self.snd_cwnd`` is ``cwnd``);
    ``self.rwnd``, ``self.max_ssthresh``, ``self.mss``, ``self.initial_window``, ``self.now``
    (s) and ``self.now_ps`` (the time of the current call); after ``set_state`` and
    ``cong_control``: ``self.in_flight``, ``self.delivered``, ``self.srtt``,
    ``self.ca_state``.

    ``state``: the attributes recorded in cc_state.csv at each sample, a tuple of names or a
    mapping column -> attribute.
    """

    state: ClassVar[tuple[str, ...] | Mapping[str, str]] = ()

    # What the engine writes before each call (in the instance's own attributes: the fastest
    # Python has) and reads back after it (cwnd, snd_ssthresh, pacing_rate).
    cwnd: float = 0.0
    snd_ssthresh: float = math.inf
    pacing_rate: float = 0.0
    rwnd: float = math.inf
    max_ssthresh: float = 0.0
    mss: float = 0.0
    initial_window: float = 0.0
    in_flight: int = 0
    delivered: int = 0
    srtt: float = 0.0
    ca_state: int = 0

    @property
    def now(self) -> float:
        """Simulated time of the current call, in seconds."""
        clock = self.__dict__.get("_ackclock_clock")
        return 0.0 if clock is None else float(clock.now)

    @property
    def now_ps(self) -> int:
        """Simulated time of the current call, in picoseconds."""
        clock = self.__dict__.get("_ackclock_clock")
        return 0 if clock is None else int(clock.now_ps)

    @property
    def snd_cwnd(self) -> float:
        """``cwnd`` by Linux's name (``tp->snd_cwnd``)."""
        return self.cwnd

    @snd_cwnd.setter
    def snd_cwnd(self, value: float) -> None:
        self.cwnd = value

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _CLASSES[class_path(cls)] = cls

    def __new__(cls, *args: Any, **kwargs: Any) -> CongestionControl:
        self = super().__new__(cls)
        # What made it: a scenario records them as cc_params.
        self.__dict__["_ackclock_args"] = (args, dict(kwargs))
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Copies and pickles (a scenario holding an instance is copied; sweeps send it to
        # workers) remake the instance from its arguments, then restore its attributes.
        args, kwargs = self.__dict__.get("_ackclock_args", ((), {}))
        state = {k: v for k, v in self.__dict__.items() if k != "_ackclock_clock"}
        return (_remake, (type(self), args, kwargs), state)


def _remake(cls: type[CongestionControl], args: tuple[Any, ...], kwargs: dict[str, Any]
            ) -> CongestionControl:
    return cls(*args, **kwargs)


def class_path(cls: type) -> str:
    """``module:qualname``, the name a scenario gives ``cls`` by."""
    module = cls.__module__
    if module == "__mp_main__":  # a script re-run in a worker process is its __main__
        module = "__main__"
    return f"{module}:{cls.__qualname__}"


def is_custom(value: object) -> bool:
    """Whether ``value`` names a Python congestion control: a subclass, an instance of one,
    or a ``"module:Class"`` string."""
    if isinstance(value, str):
        return ":" in value
    if isinstance(value, type):
        return issubclass(value, CongestionControl)
    return isinstance(value, CongestionControl)


def as_name(value: object, path: str, base: type | None = None) -> tuple[str, dict[str, float]]:
    """The scenario's name for a custom algorithm (a class, an instance or a
    ``"module:Class"`` string) and the parameters an instance was made with; ``base``:
    :class:`CongestionControl` (the default) or :class:`QueueDiscipline`."""
    base = CongestionControl if base is None else base
    if isinstance(value, str):
        module, _, qual = value.partition(":")
        if not module or not qual:
            raise ScenarioError(f'expected "module:Class", got {quote(value)}', path=path)
        return value, {}
    if isinstance(value, type) and issubclass(value, base):
        return class_path(value), {}
    if isinstance(value, base):
        args, kwargs = value.__dict__.get("_ackclock_args", ((), {}))
        name = class_path(type(value))
        if args:
            raise ScenarioError(f"give {type(value).__name__}'s parameters by name"
                                f" ({type(value).__name__}(beta=0.6)), got {len(args)}"
                                " positional", path=path)
        params: dict[str, float] = {}
        for k, v in kwargs.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ScenarioError(f"expected a number, got {quote(v)}", path=f"{path}.{k}")
            params[k] = float(v)
        return name, params
    raise ScenarioError(f"expected a name, a {base.__name__} subclass or instance, got"
                        f" {quote(value)}", path=path)


def find_class(name: str, base: type | None = None, key: str = "cc") -> Any:
    """The class ``"module:qualname"`` names: one defined in this process, else imported
    (the current folder is searched too, for ``ackclock run`` on a scenario beside its
    module); a subclass of ``base`` (:class:`CongestionControl` by default)."""
    base = CongestionControl if base is None else base
    cls = _CLASSES.get(name)
    if cls is not None and issubclass(cls, base):
        return cls
    module_name, _, qual = name.partition(":")
    if module_name == "__main__":
        module = sys.modules.get("__main__")
        if module is None:
            raise ScenarioError(f"no module __main__ to find {qual} in", path=key)
    else:
        module = _import(module_name, name, key)
    found: Any = module
    for part in qual.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise ScenarioError(f"module {quote(module_name)} has no {quote(qual)}", path=key)
    if not (isinstance(found, type) and issubclass(found, base)):
        raise ScenarioError(f"{quote(name)} is not an ackclock.{base.__name__} subclass",
                            path=key)
    return found


def _import(module_name: str, name: str, key: str = "cc") -> Any:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name != module_name.split(".")[0]:
            raise  # the module was found, and failed importing something of its own
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.append(cwd)
        try:
            return importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name != module_name.split(".")[0]:
                raise
    raise ScenarioError(f"cannot import module {quote(module_name)} for {quote(name)} (is it on"
                        " the Python path? On Dask, workers must be able to import it too)",
                        path=key)


def hooks_of(cls: type) -> dict[str, Any]:
    """The hooks ``cls`` defines (the functions, by hook name); only these are called."""
    out: dict[str, Any] = {}
    for hook in HOOKS:
        f = getattr(cls, hook, None)
        if f is not None and getattr(CongestionControl, hook, None) is not f:
            out[hook] = f
    return out


def state_columns(cls: type, display: str, key: str = "cc") -> list[tuple[str, str]]:
    """(column, attribute) pairs of the class's declared ``state``."""
    state = getattr(cls, "state", ())
    if isinstance(state, str):
        state = (state,)
    pairs = list(state.items()) if isinstance(state, Mapping) else [(s, s) for s in state]
    for column, attr in pairs:
        if not isinstance(column, str) or not isinstance(attr, str):
            raise ScenarioError(f"{display}.state: expected attribute names, got"
                                f" {quote(column)}", path=key)
    return pairs


def _instantiate(name: str, params: Mapping[str, float], setup: Mapping[str, float]
                 ) -> tuple[CongestionControl, dict[str, Any], list[tuple[str, str]], str]:
    """The engine's factory: one flow's instance of the class ``name`` names, made with
    ``params``; its hooks, its declared state and the name errors give it."""
    cls = find_class(name)
    display = cls.__qualname__
    hooks = hooks_of(cls)
    if "ssthresh" not in hooks:
        raise ScenarioError(f"{display} does not define ssthresh (the window after a loss)",
                            path="cc")
    if "cong_avoid" not in hooks and "cong_control" not in hooks:
        raise ScenarioError(f"{display} defines neither cong_avoid nor cong_control: its"
                            " window would never grow", path="cc")
    instance = cls(**params)
    if not hasattr(instance, "__dict__"):
        raise ScenarioError(f"{display}: an algorithm keeps its window in its attributes;"
                            " remove __slots__", path="cc")
    instance.__dict__.update(setup)
    return instance, hooks, state_columns(cls, display), display


class Verdict(enum.IntEnum):
    """What a :class:`QueueDiscipline` decides for a packet: at ``admit``, whether it enters
    the queue; at ``dequeue``, whether the packet at the head is sent."""

    ADMIT = 0
    DROP = 1
    #: Admit (or send) with Congestion Experienced set (RFC 3168); only for ``pkt.ect``
    #: packets.
    MARK = 2


# The hooks a queue discipline may define, as the engine calls them.
QUEUE_HOOKS = ("admit", "dequeue", "update")


class QueueDiscipline:
    """A queue discipline written in Python. Define either hook or both:

    - ``admit(self, pkt, queue) -> Verdict``: at enqueue (as DropTail, RED and PIE decide;
      Linux: a qdisc's ``enqueue``, ns-2: ``Queue::enque``), for each packet arriving at the
      link: ADMIT, DROP or MARK (ECN-capable packets only). ``queue.packets`` and
      ``queue.bytes`` are what waits before this arrival (not the packet on the wire).
    - ``dequeue(self, pkt, queue) -> Verdict``: at dequeue (as CoDel decides; Linux: a qdisc's
      ``dequeue``, ns-2: ``Queue::deque``), for the packet at the head of the queue as the
      line takes it: ADMIT sends it, MARK sends it with CE set, DROP drops it and the next
      head is decided on at once. ``pkt.sojourn`` (s) and ``pkt.sojourn_ps`` are how long it
      waited; ``queue.packets`` and ``queue.bytes`` what still waits behind it. A class that
      defines ``dequeue`` holds its packets (a FIFO kept by the engine); without ``admit`` it
      drops an arrival that finds its buffer (``limit``, ``limit_bytes``) full.
    - ``update(self, queue)``, with ``update_interval`` (s, an attribute of the class or the
      instance): periodic work every interval from the interval on (PIE's probability
      update), with ``queue.packets`` and ``queue.bytes`` waiting at that instant and
      ``queue.now`` its time. For a class that decides at enqueue only.

    ``pkt`` (read-only): ``size`` (bytes), ``flow`` (its flow's name), ``flow_index``,
    ``kind`` ("data", "ack" or "udp"), ``id``, ``seq`` (an ACK: its acknowledgement number),
    ``retransmit``, ``ecn`` (the bits: 1 ECT, 2 CE, 4 ECE, 8 CWR), ``ect``, ``ce``, ``sent``
    (when its sender sent it), ``now``, ``enqueued`` (at ``admit``: now), ``sojourn``, each
    in seconds and as ``..._ps`` in picoseconds. ``queue`` (read-only): ``packets``,
    ``bytes``, ``limit``, ``limit_bytes`` (None: none), ``ns2``, ``ecn`` (the scenario's
    switches), ``rate_bps``, ``delay`` (s), ``now``, ``now_ps``, ``idle_since_ps`` (when the
    line went idle, if it is idle) and ``busy_until_ps`` (both at ``admit`` of a class
    without ``dequeue``), and ``queue.random()``: the next number in [0, 1) of the link's own
    random stream, the one the built-in disciplines draw from.

    State: the attributes ``avg``, ``prob`` and ``dropping``, where the instance has them,
    are the queue time series' ``red_avg``, ``drop_prob`` and ``codel_dropping``; ``state``
    (a tuple of attribute names, or a mapping column -> attribute) adds columns of its own to
    the queue time series (NaN on the other links).
    """

    state: ClassVar[tuple[str, ...] | Mapping[str, str]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _CLASSES[class_path(cls)] = cls

    def __new__(cls, *args: Any, **kwargs: Any) -> QueueDiscipline:
        self = super().__new__(cls)
        self.__dict__["_ackclock_args"] = (args, dict(kwargs))
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        args, kwargs = self.__dict__.get("_ackclock_args", ((), {}))
        return (_remake_queue, (type(self), args, kwargs), dict(self.__dict__))


def _remake_queue(cls: type[QueueDiscipline], args: tuple[Any, ...], kwargs: dict[str, Any]
                  ) -> QueueDiscipline:
    return cls(*args, **kwargs)


def is_custom_queue(value: object) -> bool:
    """Whether ``value`` names a Python queue discipline: a subclass, an instance of one, or
    a ``"module:Class"`` string."""
    if isinstance(value, str):
        return ":" in value
    if isinstance(value, type):
        return issubclass(value, QueueDiscipline)
    return isinstance(value, QueueDiscipline)


def _instantiate_queue(name: str, params: Mapping[str, float]
                       ) -> tuple[QueueDiscipline, dict[str, Any], float | None,
                                  list[tuple[str, str]], str]:
    """The engine's factory: one link's instance of the class ``name`` names, made with
    ``params``; its hooks (the functions, by name), its update interval (s, or None), its
    declared state (column, attribute) and the name errors give it."""
    cls = find_class(name, QueueDiscipline, "queue")
    display = cls.__qualname__
    hooks = {h: f for h in QUEUE_HOOKS if (f := getattr(cls, h, None)) is not None}
    if "admit" not in hooks and "dequeue" not in hooks:
        raise ScenarioError(f"{display} defines neither admit(self, pkt, queue) nor"
                            " dequeue(self, pkt, queue)", path="queue")
    instance = cls(**params)
    every: float | None = None
    if "update" in hooks:
        if "dequeue" in hooks:
            raise ScenarioError(f"{display}.update: periodic updates are for a discipline that"
                                " decides at enqueue only (it defines dequeue)", path="queue")
        raw = getattr(instance, "update_interval", None)
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not raw > 0 \
                or math.isinf(raw):
            raise ScenarioError(f"{display}.update_interval: expected a positive number of"
                                f" seconds (it defines update), got {quote(raw)}",
                                path="queue")
        every = float(raw)
    columns = _queue_state_columns(cls, display)
    return instance, hooks, every, columns, display


# The queue time series' own columns, which a declared state may not take.
_QUEUE_COLUMNS = ("time_s", "link", "queue_packets", "queue_bytes", "red_avg", "drop_prob",
                  "codel_dropping")


def _queue_state_columns(cls: type, display: str) -> list[tuple[str, str]]:
    pairs = state_columns(cls, display, "queue")
    for column, _ in pairs:
        if column in _QUEUE_COLUMNS:
            raise ScenarioError(f"{display}.state: {quote(column)} is a column of the queue"
                                " time series already; name it otherwise", path="queue")
    return pairs
