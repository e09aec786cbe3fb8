"""Applications as small typed objects, beside the keyword form of :meth:`Network.tcp` and
:meth:`Network.udp`:

    net.tcp("bulk", "s", "d", app=ac.Ftp(size="10MB"))
    net.udp("voice", "s", "d", app=ac.Cbr(rate="64kb/s", packet_size=160))

Each is what a scenario file's ``app = { kind = ..., ... }`` table says (docs/scenario-files.md,
docs/traffic.md), with the same keys; the scenario model checks them when it resolves, with
the same one-line errors (``flow[0].app.rate: ...``). Times are ``"1.5s"`` or seconds, sizes
``"64KB"`` or bytes, rates ``"10Mb/s"`` or bit/s; ``start`` may be a distribution such as
``{"uniform": ["0s", "1s"]}``.

They are also the scenario model's applications (``Flow.app``): a scenario file's table, the
keyword form and the ns-2 front end all build one of these, one class per kind with only its
own keys; tests/unit/test_apps.py holds their fields to the schema's key lists (schema.APP).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

Time = str | float
Size = int | str
Rate = str | float
# A time, or a distribution of times: {"uniform": ["0s", "1s"]}, {"exponential": "500ms"}.
When = Time | dict[str, Any]


@dataclass(frozen=True, slots=True)
class App:
    """What the applications share: when they start and stop (None: at the end)."""

    kind: ClassVar[str] = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> App:
        # The entries' copy (Network.scenario copies every flow's application).
        from .scenario import _deepcopy_slots

        copied: App = _deepcopy_slots(self, memo)
        return copied


@dataclass(frozen=True, slots=True)
class Ftp(App):
    """A bulk transfer over TCP: endless, or ``size`` payload bytes (the flow's
    ``completion_s`` is then when the last byte was acknowledged). On a two-way flow,
    ``reply_size`` bytes come back (``"endless"``: a bulk transfer) and ``exchange`` says when
    each side writes (docs/full-tcp.md)."""

    size: Size | None = None
    start: When = "0s"
    stop: Time | None = None
    reply_size: Size | None = None
    exchange: str | None = None
    kind: ClassVar[str] = "ftp"


@dataclass(frozen=True, slots=True)
class Cbr(App):
    """Constant bit rate: a ``packet_size``-byte payload every ``interval``, or every
    packet_size x 8 / ``rate`` (ns-2's CBR); ``random=True`` jitters each interval by up to
    half. Over TCP, ``packet_size`` is each write (default one segment's payload), and
    ``after_connect=True`` holds the first write until one interval after the connection
    opens, as ns-3's ``OnOffApplication`` does (its writes otherwise start with the flow,
    as ns-3's ``MyApp``'s do)."""

    rate: Rate | None = None
    interval: Time | None = None
    packet_size: Size | None = None
    random: bool | None = None
    start: When = "0s"
    stop: Time | None = None
    after_connect: bool | None = None
    # With after_connect: ns-3's OnOffApplication's restart every OnTime (OffTime 0).
    restart_every: Time | None = None
    kind: ClassVar[str] = "cbr"


@dataclass(frozen=True, slots=True)
class OnOff(App):
    """As :class:`Cbr` during ``on`` periods, silent for ``off`` ones (times or distributions,
    e.g. ``{"exponential": "500ms"}``)."""

    on: When
    off: When
    rate: Rate | None = None
    interval: Time | None = None
    packet_size: Size | None = None
    start: When = "0s"
    stop: Time | None = None
    kind: ClassVar[str] = "onoff"


@dataclass(frozen=True, slots=True)
class Poisson(App):
    """Packets with exponential gaps of mean ``interval`` (or packet_size x 8 / ``rate``)."""

    rate: Rate | None = None
    interval: Time | None = None
    packet_size: Size | None = None
    start: When = "0s"
    stop: Time | None = None
    kind: ClassVar[str] = "poisson"


@dataclass(frozen=True, slots=True)
class Replay(App):
    """Replays ``file``, a file of ``time size`` records (a scenario file's ``kind =
    "trace"``; docs/traffic.md)."""

    file: str
    start: When = "0s"
    stop: Time | None = None
    kind: ClassVar[str] = "trace"


@dataclass(frozen=True, slots=True)
class Tmix(App):
    """Replays a file of Tmix connection vectors between the flow's ends (TCP only):
    ``delay_box=False`` ignores the vectors' minimum RTTs, ``losses=False`` their loss rates
    (ns-2's ``set-lossless``); ``rtt_added=True`` adds each vector's RTT to the path's (ns-2.35's
    Tmix_DelayBox; ``delay_boxes=2``: two such boxes on the path, each holding every packet
    ``r / 2`` and dropping at the vector's rates), ``windows=True`` caps each side at its
    ``w`` line's window (ns-2.35's Tmix), ``fin_wait="1s"`` closes each connection as
    ns-2.35's Tmix does (the side of the last ADU writes 2 bytes and its FIN that long after
    its last write; by default the profile's: 1 s under ``profile="ns2"``, whose Tmix flows
    also take ns-2.35's FullTcp rules, docs/traffic.md#tmix); results in
    ``Results.connections``."""

    file: str
    delay_box: bool | None = None
    losses: bool | None = None
    rtt_added: bool | None = None
    delay_boxes: int | None = None
    windows: bool | None = None
    fin_wait: Time | None = None
    start: When = "0s"
    stop: Time | None = None
    kind: ClassVar[str] = "tmix"


# Any application: what a flow's `app` holds.
AnyApp = Ftp | Cbr | OnOff | Poisson | Replay | Tmix
APPS: tuple[type[AnyApp], ...] = (Ftp, Cbr, OnOff, Poisson, Replay, Tmix)
# The class of each `kind` (schema.APP_KINDS).
BY_KIND: Mapping[str, type[AnyApp]] = {cls.kind: cls for cls in APPS}


def from_table(kind: str, table: Mapping[str, Any]) -> AnyApp:
    """The application of ``kind`` (a kind of schema.APP_KINDS) with the keys of ``table``,
    which the caller has checked against the schema's key list for ``kind``; a key left out
    takes its default, or None where the class has none (a required key: resolve() names it
    missing, as for a scenario file)."""
    cls = BY_KIND[kind]
    return cls(**{f.name: table.get(f.name, None if f.default is MISSING else f.default)
                  for f in fields(cls)})
