"""Applications as small typed objects, beside the keyword form of :meth:`Network.tcp` and
:meth:`Network.udp`:

    net.tcp("bulk", "s", "d", app=ac.Ftp(size="10MB"))
    net.udp("voice", "s", "d", app=ac.Cbr(rate="64kb/s", packet_size=160))

Each is what a scenario file's ``app = { kind = ..., ... }`` table says (docs/scenario-files.md,
docs/traffic.md), with the same keys; the scenario model checks them when it resolves, with
the same one-line errors (``flow[0].app.rate: ...``). Times are ``"1.5s"`` or seconds, sizes
``"64KB"`` or bytes, rates ``"10Mb/s"`` or bit/s; ``start`` may be a distribution such as
``{"uniform": ["0s", "1s"]}``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .scenario import AppConfig

Time = str | float
Size = int | str
Rate = str | float
# A time, or a distribution of times: {"uniform": ["0s", "1s"]}, {"exponential": "500ms"}.
When = Time | dict[str, Any]


@dataclass(frozen=True)
class App:
    """What the applications share: when they start and stop (None: at the end)."""

    kind = ""

    def config(self) -> AppConfig:
        """The scenario model's application table."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return AppConfig(kind=self.kind, **values)


@dataclass(frozen=True)
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
    kind = "ftp"


@dataclass(frozen=True)
class Cbr(App):
    """Constant bit rate: a ``packet_size``-byte payload every ``interval``, or every
    packet_size x 8 / ``rate`` (ns-2's CBR); ``random=True`` jitters each interval by up to
    half. Over TCP, ``packet_size`` is each write (default one segment's payload)."""

    rate: Rate | None = None
    interval: Time | None = None
    packet_size: Size | None = None
    random: bool | None = None
    start: When = "0s"
    stop: Time | None = None
    kind = "cbr"


@dataclass(frozen=True)
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
    kind = "onoff"


@dataclass(frozen=True)
class Poisson(App):
    """Packets with exponential gaps of mean ``interval`` (or packet_size x 8 / ``rate``)."""

    rate: Rate | None = None
    interval: Time | None = None
    packet_size: Size | None = None
    start: When = "0s"
    stop: Time | None = None
    kind = "poisson"


@dataclass(frozen=True)
class Replay(App):
    """Replays ``file``, a file of ``time size`` records (a scenario file's ``kind =
    "trace"``; docs/traffic.md)."""

    file: str
    start: When = "0s"
    stop: Time | None = None
    kind = "trace"


@dataclass(frozen=True)
class Tmix(App):
    """Replays a file of Tmix connection vectors between the flow's ends (TCP only):
    ``delay_box=False`` ignores the vectors' minimum RTTs, ``losses=False`` their loss rates
    (ns-2's ``set-lossless``); results in ``Results.connections``."""

    file: str
    delay_box: bool | None = None
    losses: bool | None = None
    start: When = "0s"
    stop: Time | None = None
    kind = "tmix"


APPS: tuple[type[App], ...] = (Ftp, Cbr, OnOff, Poisson, Replay, Tmix)
