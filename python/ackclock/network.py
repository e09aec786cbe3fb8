"""The Python API: build the same scenario model a TOML file gives, call by call.

    net = Network("one-reno", profile="ns2")
    net.nodes("s", "r1", "r2", "d")
    net.link("s", "r1", rate="100Mb/s", delay="1ms")
    ...
    res = net.run(duration="100s", sample_interval="0.1s")
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import apps, schema
from .apps import AnyApp, App, Rate, Size, Time, When
from .errors import ScenarioError, quote
from .profiles import normalize_tcp_params
from .results import Results
from .run import user_facing
from .scenario import (
    APP_KINDS,
    Flow,
    Link,
    Names,
    Node,
    PacketTrace,
    QueueConfig,
    RunConfig,
    Scenario,
    check_kind,
    collector_paused,
    copy_entries,
    resolve_shared,
)
from .toml_loader import loss_model

if TYPE_CHECKING:
    import os

    from .custom import QueueDiscipline


class Network:
    def __init__(self, name: str = "network", profile: str = "ns2"):
        self.name = name
        self.profile = profile
        self._nodes: list[Node] = []
        self._links: list[Link] = []
        self._flows: list[Flow] = []
        self._traces: list[PacketTrace] = []
        self._defaults: dict[str, Any] = {}

    def node(self, name: str) -> str:
        """Adds a node; returns its name."""
        self._nodes.append(Node(name))
        return name

    def nodes(self, *names: str) -> list[str]:
        """Adds several nodes; returns their names."""
        return [self.node(n) for n in names]

    def link(
        self,
        a: str,
        b: str,
        *,
        rate: Rate,
        delay: Time,
        queue_limit: int | None = None,
        queue_limit_bytes: Size | None = None,
        queue: str | type[QueueDiscipline] | QueueDiscipline | None = None,
        ns2_queue: bool | None = None,
        duplex: bool = True,
        loss: Mapping[str, Any] | None = None,
        reverse_loss: Mapping[str, Any] | None = None,
        ecn: bool | None = None,
        monitor_flows: bool = False,
        device_limit: int | None = None,
        bql: bool | None = None,
        bql_hold_time: str | float | None = None,
        ns3_run: bool | None = None,
        classes: Sequence[Mapping[str, Any]] | None = None,
        diffserv: Mapping[str, Any] | None = None,
        **queue_params: Any,
    ) -> Link:
        """Adds a link (both directions unless ``duplex=False``), each direction with its own
        queue. Without ``queue``, the profile's default: a DropTail of ``queue_limit`` packets
        (the profile's limit when none is given), or under the ``ns3`` profile ns-3's default
        stack, FqCoDel above a device queue of ``queue_limit`` packets
        (docs/models/traffic-control.md); ``ns2_queue`` picks ns-2's DropTail
        accounting (default: the profile's). ``loss`` is a loss model on the a -> b direction,
        as in a scenario file: ``{"kind": "bernoulli", "p": 0.01}`` or
        ``{"kind": "drop_list", "flow": "tcp1", "packets": [30, 32]}``; ``reverse_loss`` one
        on the b -> a direction, where the ACKs of flows from a to b travel. ``queue`` picks the
        discipline (droptail, red, codel, fq_codel, pie, or one written in Python: a
        ``QueueDiscipline`` class or instance, docs/custom-algorithms.md); its own parameters
        come as keywords
        (``max_thresh=20``, ``target="5ms"``; see docs/models/queues.md), ``ecn=True`` makes it
        mark ECN-capable packets instead of dropping them early. ``device_limit`` puts a device
        queue of that many packets below a discipline that holds its packets (ns-3's
        traffic-control layer: the discipline is the root queue disc, feeding the device while
        its queue has room), ``bql=True`` byte queue limits on it, ``bql_hold_time`` their hold
        time (default 1 s; docs/models/traffic-control.md), ``ns3_run`` the transmit loop above
        it as ns-3.44's (default: the profile's, true under ``ns3``). ``classes`` is a ``cbq``
        queue's class tree, one mapping per class (docs/models/cbq.md); ``diffserv`` a ``dsred``
        queue's tables (docs/models/diffserv.md). ``monitor_flows=True`` keeps
        per-flow queue counters on both directions (``Results.queue_flows``, like ns-2's
        ``makeflowmon Fid``)."""
        path = f"link[{len(self._links)}]"
        link = Link(
            from_=a,
            to=b,
            rate=rate,
            delay=delay,
            queue=QueueConfig(kind=queue, limit=queue_limit, limit_bytes=queue_limit_bytes,
                              ns2=ns2_queue, ecn=ecn, params=dict(queue_params),
                              device_limit=device_limit, bql=bql,
                              bql_hold_time=bql_hold_time, ns3_run=ns3_run,
                              classes=[dict(c) for c in classes or ()],
                              diffserv=None if diffserv is None else dict(diffserv)),
            duplex=duplex,
            loss=None if loss is None else loss_model(loss, f"{path}.loss"),
            reverse_loss=(None if reverse_loss is None
                          else loss_model(reverse_loss, f"{path}.reverse_loss")),
            monitor_flows=monitor_flows,
        )
        self._links.append(link)
        return link

    def tcp(
        self,
        name: str,
        src: str,
        dst: str,
        *,
        start: When = "0s",
        stop: Time | None = None,
        variant: str | None = None,
        cc: str | None = None,
        sink: str | None = None,
        trace: bool | Names | None = None,
        size: Size | None = None,
        tmix: str | None = None,
        tmix_delay_box: bool | None = None,
        tmix_losses: bool | None = None,
        app: str | App = "ftp",
        rate: Rate | None = None,
        interval: Time | None = None,
        write_size: Size | None = None,
        random: bool | None = None,
        on: When | None = None,
        off: When | None = None,
        after_connect: bool | None = None,
        restart_every: Time | None = None,
        two_way: bool | None = None,
        reply_size: Size | None = None,
        exchange: str | None = None,
        priority: int | None = None,
        **params: Any,
    ) -> Flow:
        """Adds a TCP flow. Its application is an object, ``app=Ftp(size="10MB")``,
        ``Cbr(...)``, ``OnOff(...)``, ``Poisson(...)``, ``Replay(...)`` or ``Tmix(...)``
        (``ackclock.apps``), or, in the keyword form, given by the keywords below; ``variant``,
        ``cc``, ``sink`` and ``params`` choose the TCP, ``trace`` what to record, ``two_way``
        the connection's shape.

        The keyword form: an FTP source, endless, or ``size`` payload bytes (then the
        flow's ``completion_s`` in flows.csv is when the last byte was acknowledged).
        With ``tmix``, a file of Tmix connection vectors replayed between ``src`` (the
        initiators) and ``dst`` (the acceptors) instead (results in ``Results.connections``);
        ``tmix_delay_box=False`` ignores the vectors' minimum RTTs, ``tmix_losses=False`` their
        loss rates (ns-2's ``set-lossless``).
        ``params`` are TCP parameters (``window=100``, ``packet_size=1460``, ns-2 aliases such
        as ``window_``); they override :meth:`defaults`, which override the profile.
        ``start`` may be a distribution: ``{"uniform": ["0s", "1s"]}``. With ``app="cbr"``
        (or ``"onoff"``, ``"poisson"``) the application writes ``write_size`` bytes (default
        one segment's payload) every ``interval`` or at ``rate`` into the connection instead,
        as ns-3's MyApp does (``random``, ``on``, ``off`` as for :meth:`udp`); with a send
        buffer (``snd_buffer``) a write it has no room for fails, as in ns-3;
        ``after_connect=True`` (cbr) writes first one interval after the connection opens,
        as ns-3's OnOffApplication does, and ``restart_every`` restarts it as that application
        with an ``OnTime`` of it and an ``OffTime`` of 0 (docs/traffic.md). ``trace``: TCP
        variables to record on every change (``["cwnd", "ssthresh"]``, or True for all) into
        ``Results.tcp_trace``. With ``two_way=True`` the flow is a two-way TCP connection
        (docs/full-tcp.md): a handshake, ``size`` bytes from ``src`` and ``reply_size`` back
        (``"endless"`` for a bulk transfer), each closed with a FIN; ``exchange`` is
        ``"request-response"`` (the default with a ``size``: the reply follows the request) or
        ``"concurrent"``; the reply direction is the flow ``NAME.reply`` in the results.
        ``priority`` (0..15) is its packets' priority, which ``prio`` and ``pfifo_fast`` queues
        map to a band (Linux's priomap: 0 best effort, 6 interactive, 7 control)."""
        flow = Flow(
            name=name,
            kind="tcp",
            from_=src,
            to=dst,
            variant=variant,
            cc=cc,
            sink=sink,
            tcp=normalize_tcp_params(params, f"flow[{len(self._flows)}]"),
            app=_app(app, f"flow[{len(self._flows)}].app", _TCP_KEYWORDS, {
                "start": start, "stop": stop, "size": size, "tmix": tmix,
                "tmix_delay_box": tmix_delay_box, "tmix_losses": tmix_losses, "rate": rate,
                "interval": interval, "write_size": write_size, "random": random, "on": on,
                "off": off, "reply_size": reply_size, "exchange": exchange,
                "after_connect": after_connect, "restart_every": restart_every}),
            trace=trace,
            two_way=two_way,
            priority=priority,
        )
        self._flows.append(flow)
        return flow

    def udp(
        self,
        name: str,
        src: str,
        dst: str,
        *,
        packet_size: Size | None = None,
        rate: Rate | None = None,
        interval: Time | None = None,
        start: When = "0s",
        stop: Time | None = None,
        header_size: Size | None = None,
        app: str | App = "cbr",
        random: bool | None = None,
        on: When | None = None,
        off: When | None = None,
        file: str | None = None,
        priority: int | None = None,
    ) -> Flow:
        """Adds a UDP flow. Its application is an object, ``app=Cbr(rate="1Mb/s",
        packet_size=1000)``, ``OnOff(...)``, ``Poisson(...)`` or ``Replay(...)``
        (``ackclock.apps``), or given by keywords: ``app="cbr"`` (default): one
        ``packet_size``-byte payload every
        ``interval``, or every packet_size x 8 / ``rate`` (ns-2's CBR), jittered with
        ``random=True``; ``"onoff"``: the same during ``on`` periods, silent for ``off``
        (times or distributions such as ``{"exponential": "500ms"}``); ``"poisson"``:
        exponential gaps of that mean; ``"trace"``: replays ``file`` (see docs/traffic.md).
        ``priority`` (0..15): as for :meth:`tcp`."""
        flow = Flow(
            name=name,
            kind="udp",
            from_=src,
            to=dst,
            header_size=header_size,
            app=_app(app, f"flow[{len(self._flows)}].app", _UDP_KEYWORDS, {
                "packet_size": packet_size, "rate": rate, "interval": interval, "start": start,
                "stop": stop, "random": random, "on": on, "off": off, "file": file}),
            priority=priority,
        )
        self._flows.append(flow)
        return flow

    def tfrc(
        self,
        name: str,
        src: str,
        dst: str,
        *,
        size: Size | None = None,
        start: When = "0s",
        stop: Time | None = None,
        priority: int | None = None,
        **params: Any,
    ) -> Flow:
        """Adds a TFRC flow (RFC 5348, ns-2.35's Agent/TFRC and Agent/TFRCSink; see
        docs/tfrc.md): it sends at the rate the TCP throughput equation allows for the loss
        event rate its receiver measures. ``size``: bytes to send (default endless);
        ``params``: the sender's and receiver's parameters (``packet_size=1000``, ``ca=False``,
        ``num_feedback=4``...), ns-2.35's defaults for the rest."""
        flow = Flow(
            name=name,
            kind="tfrc",
            from_=src,
            to=dst,
            app=apps.Ftp(start=start, stop=stop, size=size),
            tfrc=dict(params) or None,
            priority=priority,
        )
        self._flows.append(flow)
        return flow

    def trace(self, format: str, file: str, *, links: Names | None = None,
              nodes: Names | None = None, events: Names | None = None,
              tcp_header: bool | None = None) -> None:
        """Writes a packet trace while the run goes (docs/traces.md): ``format="ns2"``, ns-2's
        ``+ - r d`` lines on ``links`` (directions ``"a->b"``; default every link), only the
        ``events`` listed if given (``"+"``, ``"-"``, ``"r"``, ``"d"`` for queue drops,
        ``"lost"`` for loss-model drops), or ``"pcap"``, Ethernet/IPv4/TCP frames for
        Wireshark on ``links`` or at ``nodes``. ``file`` is relative to the run's output
        folder (``run(out=...)``). ``tcp_header=True`` (ns2 only) appends ns-2's
        ``show_tcphdr_`` columns: ackno, flags, header length, SACK blocks."""
        self._traces.append(PacketTrace(format=format, file=file, links=links, nodes=nodes,
                                        events=events, tcp_header=tcp_header))

    def defaults(self, **tcp: Any) -> None:
        """Sets TCP parameters for every TCP flow (like ns-2's ``Agent/TCP set window_ 100``)."""
        self._defaults.update(normalize_tcp_params(tcp, "defaults.tcp"))

    def scenario(
        self,
        duration: Time,
        warmup: Time = "0s",
        seed: int = 1,
        sample_interval: Time | None = None,
        **run: Any,
    ) -> Scenario:
        """The scenario described so far, checked; later calls do not change it. ``run`` takes
        the other keys of a scenario file's ``[run]`` table (docs/scenario-files.md):
        ``routing``, ``ties``, ``check``, ``max_events``, ``max_packets``."""
        memo: dict[int, Any] = {}  # one copy: what two entries share, their copies share
        # The collector waits: copying and resolving make some 200 000 objects (10 000 flows)
        # and no cycle.
        with collector_paused():
            sc = self._scenario(duration, warmup, seed, sample_interval, run,
                                lambda entries: copy_entries(entries, memo))
            resolve_shared(sc)  # checking it is resolving it; the document is not kept
        return sc

    def _scenario(self, duration: Time, warmup: Time, seed: int,
                  sample_interval: Time | None, run: Mapping[str, Any],
                  entries: Callable[[list[Any]], list[Any]]) -> Scenario:
        """The scenario with ``entries`` of the network's lists of entries: copies of them
        for a scenario handed to the user, or the lists themselves for one resolved and run
        at once (resolving reads the entries and changes none)."""
        for key in run:
            if key not in _RUN_KEYWORDS:
                raise ScenarioError(f"unknown key {quote(key)} (expected one of"
                                    f" {', '.join(_RUN_KEYWORDS)})", path=f"run.{key}")
        return Scenario(
            name=self.name,
            profile=self.profile,
            run=RunConfig(duration=duration, warmup=warmup, seed=seed,
                          sample_interval=sample_interval, **run),
            defaults_tcp=dict(self._defaults),
            nodes=entries(self._nodes),
            links=entries(self._links),
            flows=entries(self._flows),
            traces=entries(self._traces),
        )

    @user_facing
    def run(
        self,
        duration: Time,
        warmup: Time = "0s",
        seed: int = 1,
        sample_interval: Time | None = None,
        progress: bool | None = None,
        out: str | os.PathLike[str] | None = None,
        **run: Any,
    ) -> Results:
        """Runs the network for ``duration``; see :func:`ackclock.run_scenario`. Packet traces
        are written into ``out`` (default: the current folder); results are saved there too
        when ``out`` is given. ``run``: the other ``[run]`` keys, as for :meth:`scenario`."""
        from .run import resolved_for_run, run_document

        # Resolved once (a Tmix application's vector files are read while resolving), from
        # the network's own entries: the scenario is not handed out, so nothing can change
        # them before the run (10 000 flows: 0.5 s of copies).
        sc = self._scenario(duration, warmup, seed, sample_interval, run, list)
        document, explain = resolved_for_run(sc)
        if out is None:
            return run_document(document, progress=progress, source=sc.source,
                                explain=explain)
        from .atomic import StagedFolder
        from .inputs import check_path_argument
        from .results import is_results_folder

        # Built beside `out` (traces included) and swapped in whole, as the command line does.
        target = check_path_argument(out, "out")
        with StagedFolder(target, is_results_folder) as staged:
            results = run_document(document, progress=progress, source=sc.source,
                                   trace_dir=staged.path, explain=explain)
            results.write_into(staged.path, keep_from=target)
            staged.commit()
        results.trace_paths = [str(target.absolute() / Path(p).relative_to(staged.path))
                               for p in results.trace_paths]
        return results

    @classmethod
    def dumbbell(
        cls,
        n: int,
        *,
        rate: Rate = "10Mb/s",
        delay: Time = "20ms",
        queue_limit: int | None = 100,
        access_rate: Rate = "100Mb/s",
        access_delay: Time = "1ms",
        start: When = "0s",
        name: str = "dumbbell",
        profile: str = "ns2",
        **tcp: Any,
    ) -> Network:
        """``n`` TCP flows tcp{i} from s{i} to d{i} through a bottleneck r1-r2 of ``rate``,
        ``delay`` and a DropTail queue of ``queue_limit`` packets; access links s{i}-r1 and
        r2-d{i} of ``access_rate`` and ``access_delay`` with unlimited queues. ``tcp`` are
        TCP parameters of every flow."""
        from .scenario import MAX_ENTRIES
        from .units import parse_int

        n = parse_int(n, "dumbbell(n)", minimum=1, what="a whole number of flows")
        if 2 * n + 2 > MAX_ENTRIES:
            raise ScenarioError(f"{n} flows make {2 * n + 2} nodes, more than {MAX_ENTRIES}",
                                path="dumbbell(n)")
        net = cls(name, profile)
        net.nodes("r1", "r2")
        net.link("r1", "r2", rate=rate, delay=delay, queue_limit=queue_limit)
        for i in range(n):
            net.nodes(f"s{i}", f"d{i}")
            net.link(f"s{i}", "r1", rate=access_rate, delay=access_delay)
            net.link("r2", f"d{i}", rate=access_rate, delay=access_delay)
        if tcp:
            net.defaults(**tcp)
        for i in range(n):
            net.tcp(f"tcp{i}", f"s{i}", f"d{i}", start=start)
        return net


# The [run] keys Network.scenario and Network.run take as keywords beside their own arguments.
_RUN_KEYWORDS = ("routing", "ties", "check", "max_events", "max_packets")

# The keyword form's names for the keys of a scenario file's `app = { ... }` table
# (schema.APP), where they differ: Network.tcp's own packet_size is the TCP segment's payload.
_TCP_KEYWORDS = {"write_size": "packet_size", "tmix": "file", "tmix_delay_box": "delay_box",
                 "tmix_losses": "losses"}
_UDP_KEYWORDS: dict[str, str] = {}


def _app(app: str | App, path: str, names: Mapping[str, str],
         keywords: Mapping[str, Any]) -> AnyApp:
    """A flow's application: an object (whose keys belong in it, so the keyword form's
    keywords must be left at their defaults beside it), or the keyword form, whose keywords
    given must be keys of that application's table (schema.APP), the rule a scenario file's
    `app` table follows: an FTP source given a `rate` is refused, not run as an endless
    FTP. ``names`` maps keyword names to the table's keys."""
    given = {k: v for k, v in keywords.items()
             if v is not None and not (k == "start" and v == "0s")}
    if isinstance(app, App):
        for key in given:
            raise ScenarioError(f"give {key} in {type(app).__name__}(...), not beside it",
                                path=path)
        if not isinstance(app, apps.APPS):
            raise ScenarioError(f"expected one of {', '.join(c.__name__ for c in apps.APPS)},"
                                f" got a {type(app).__name__}", path=path)
        return app
    kind: Any = app
    if "tmix" in given:  # the keyword form's Tmix: tmix="file.vec"
        if app != "ftp":
            raise ScenarioError(f"tmix= replays connection vectors; it takes no"
                                f" app={quote(app)}", path=path)
        kind = "tmix"
    table = {names.get(k, k): v for k, v in keywords.items() if v is not None}
    kind = check_kind(kind, APP_KINDS, f"{path}.kind")
    allowed = schema.app_keys(kind)
    keyword = {key: kw for kw, key in names.items()}
    for key in table:
        if key not in allowed:
            takes = [keyword.get(k, k) for k in allowed if k not in ("kind", "random_")]
            what = 'tmix="..."' if kind == "tmix" else f"app={quote(kind)}"
            raise ScenarioError(
                f"{what} takes no {keyword.get(key, key)}=; its keywords are"
                f" {', '.join(takes)}", path=f"{path}.{key}")
    return apps.from_table(kind, table)
