"""ns-2's deterministic loss models as its test suites place them on a link.

- ``new ErrorModule Fid`` with ``$link errormodule $em``, ``$em insert $model``, ``$em bind
  $model FID``: a loss module that hands each packet to the model bound to its flow id
  (ns-2.35 ``tcl/lib/ns-errmodel.tcl``, ``ErrorModule``; ``queue/errmodel.cc``,
  ``ErrorModule::recv``). ackclock supports one model bound to a flow id carried by exactly
  one flow.
- ``ErrorModel/List`` with ``droplist {n...}``: drops the packets numbered n (from 0) among
  those the model sees (``ListErrorModel::corrupt``, unit pkt): the engine's ``drop_list``
  with ``counted``,
  numbering the flow's packets as they reach the model, so that those dropped upstream (a
  queue's drops on an earlier link) are not counted, for one-way flows; a FullTcp connection's
  list is numbered by the engine's transmission count (its handshake renumbered below).
  On a link by itself (``$ns lossmodel``, ``link-lossmodel``) it numbers every packet
  crossing the link: the same drop list when one flow's data alone cross it (build.py,
  ``_bare_list_loss``).
- ``ErrorModel/Periodic`` (``period_``, ``offset_``, ``burstlen_``), bound in an
  ErrorModule: ``PeriodicErrorModel::corrupt`` counts the packets it sees from 1 and drops the
  first whose count reaches ``int(offset_)``, then ``ceil(burstlen_)`` packets (at least
  one) every ``int(period_)``.
- ``markecn_ true`` on either: ``ErrorModel::recv`` marks the packets it takes Congestion
  Experienced and lets them pass (the engine's ``mark_ecn``); ``delay_pkt_ true`` delays
  them by ``delay_`` seconds instead of dropping them (the engine's ``delay``: they enter the
  link's queue that much later, ``schedule(target_, p, delay_)``), on a module at the link's
  entry (``$link errormodule``, ``$ns lossmodel``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .errors import Location, Ns2Error, unsupported
from .objects import TclError
from .topology import ErrorModel
from .values import to_bool, to_float, to_int

if TYPE_CHECKING:
    from .interp import Context


class ListErrorModel(ErrorModel):
    """``new ErrorModel/List``: drops chosen packets."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.drops: list[int] = []

    def cmd_droplist(self, *args: str) -> str:
        if args:
            items = self.ctx.tcl.splitlist(" ".join(args))
            try:
                self.drops = sorted({to_int(str(x)) for x in items})
            except ValueError as e:
                raise TclError(str(e)) from None
        return " ".join(str(n) for n in self.drops)


class PeriodicErrorModel(ErrorModel):
    """``new ErrorModel/Periodic``."""

    def drops(self, limit: int = 100_000) -> list[int]:
        """The packets it drops, numbered from 1 (up to ``limit``): ns-2.35's
        `PeriodicErrorModel::corrupt` in packet units counts each packet (`cnt_`), drops the
        first whose count reaches `int(offset_)` (the first packet for offset_ 1 or less) and
        restarts the count, then drops each whose count reaches `int(period_)` and those
        whose count stays below `burstlen_` after it (ceil(burstlen_) packets in a row)."""
        try:
            period = max(1, int(to_float(self.vars["period_"])))
            first = max(1, int(to_float(self.vars["offset_"])))
            burst = max(1, math.ceil(to_float(self.vars["burstlen_"])))
        except ValueError as e:
            raise TclError(str(e)) from None
        return [s + k for s in range(first, limit, period) for k in range(burst)
                if s + k < limit]


class ErrorModule(ErrorModel):
    """``new ErrorModule Fid``: one loss model per flow id."""

    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        kind = args[0] if args else "Fid"
        if kind != "Fid":
            raise Ns2Error(unsupported(f"ErrorModule classifying by {kind} (only Fid)"))
        self.models: list[ErrorModel] = []
        self.bound: dict[int, ErrorModel] = {}
        self.default_model: ErrorModel | None = None

    def _model(self, handle: str) -> ErrorModel:
        obj = self.ctx.lookup(handle, ErrorModel, "an ErrorModel")
        assert isinstance(obj, ErrorModel)
        return obj

    def cmd_insert(self, em: str) -> None:
        self.models.append(self._model(em))

    def cmd_bind(self, em: str, fid: str, last: str | None = None) -> None:
        """``$em bind $model $fid`` or ``$em bind $model $first $last``: the model takes the
        flow ids first..last, both included (ns-2.35 ns-errmodel.tcl, ErrorModule bind)."""
        model = self._model(em)
        try:
            first = to_int(fid)
            end = first if last is None else to_int(last)
        except ValueError as e:
            raise TclError(str(e)) from None
        for f in range(first, end + 1):
            self.bound[f] = model

    def cmd_default(self, em: str) -> None:
        self.default_model = None if em == "pass" else self._model(em)

    def cmd_classifier(self) -> str:
        return ""

    def cmd_errormodels(self) -> str:
        return " ".join(m.handle for m in self.models)

    def sole_rate_model(self) -> ErrorModel | None:
        """The module's one bound model when it is a plain ErrorModel (a per-packet or
        per-byte rate, `ErrorModel/Uniform`) and the module has no default model, else None."""
        models = {id(m): m for m in self.bound.values()}
        if len(models) != 1 or self.default_model is not None:
            return None
        model = next(iter(models.values()))
        return model if type(model) is ErrorModel else None

    def loss_for(self, fids: dict[int, list[str]],
                 two_way: set[str] | frozenset[str] = frozenset(),
                 initiator_side: set[str] | frozenset[str] = frozenset()
                 ) -> list[dict[str, object]]:
        """The engine's loss models for this module, one per flow id a model is bound to and
        a flow carries (``fids``: flow id -> the flows' names; ``two_way``: the names of
        FullTcp connections; ``initiator_side``: those whose initiator's packets cross the
        module's link). `ErrorModule::recv` hands each packet to its flow id's model alone,
        so one per flow id, each counting its own flow's packets, met one after the other,
        take what the module takes."""
        if self.default_model is not None:
            raise Ns2Error(unsupported("an ErrorModule default model"), self.created_at)
        # A model bound to a flow id no flow carries never sees a packet.
        active = {fid: m for fid, m in self.bound.items()
                  if fids.get(fid) and not (isinstance(m, ListErrorModel) and not m.drops)}
        if len(active) > 1 and any(f in two_way for fid in active for f in fids[fid]):
            raise Ns2Error(unsupported("loss models bound to several flow ids of one"
                                       " ErrorModule, one of them a FullTcp connection's"),
                           self.created_at)
        return [self._loss_for_one(fid, model, fids, two_way, initiator_side)
                for fid, model in active.items()]

    def _loss_for_one(self, fid: int, model: ErrorModel, fids: dict[int, list[str]],
                      two_way: set[str] | frozenset[str],
                      initiator_side: set[str] | frozenset[str]) -> dict[str, object]:
        """The engine's loss model of `model`, bound to flow id `fid`."""
        if isinstance(model, ListErrorModel):
            packets = [n + 1 for n in model.drops]
        elif (isinstance(model, PeriodicErrorModel) and model.unit == "pkt"
              and model.vars.get("default_drop_", "0") in ("0", "false")):
            packets = model.drops()
        else:
            raise Ns2Error(unsupported(f"{model.cls} bound in an ErrorModule (only"
                                       " ErrorModel/List and /Periodic, unit pkt,"
                                       " default_drop_ 0)"),
                           self.created_at)
        flows = fids.get(fid, [])
        if len(flows) != 1:
            raise Ns2Error(unsupported(f"an {model.cls} on flow id {fid}, carried by"
                                       f" {len(flows)} flows (only one)"), self.created_at)
        connection = flows[0] in two_way and flows[0] not in initiator_side
        if connection:
            # The acceptor's side of a FullTcp connection: the module numbers every packet
            # of the fid_ (SYN-ACK, the acceptor's data and its pure ACKs) as they reach it,
            # which the engine's `connection` list does.
            pass
        elif flows[0] in two_way:
            # A FullTcp initiator's first two packets are the handshake's (SYN, then the ACK
            # of the SYN-ACK: FullTcpAgent::recv in SYN_SENT), where the engine numbers the
            # SYN 1 and the first data segment 2: the model's SYN is the engine's, its packet
            # n + 1 beyond the handshake the engine's n. The engine's list does not count the
            # handshake's pure ACK.
            if 2 in packets:
                raise Ns2Error(unsupported(f"an {model.cls} dropping a FullTcp handshake"
                                           " packet other than the SYN"), self.created_at)
            packets = [n if n == 1 else n - 1 for n in packets]
        out: dict[str, object] = {"kind": "drop_list", "flow": flows[0], "packets": packets}
        if connection:
            out["connection"] = True
        if flows[0] not in two_way:
            # ListErrorModel::corrupt and PeriodicErrorModel::corrupt count the packets they
            # are offered: those the flow lost on an earlier link are not counted.
            out["counted"] = True
        if _flag(model, "markecn_"):
            # ErrorModel::recv with markecn_: the packet is marked CE (ECT or not) and
            # goes on to the link.
            out["mark_ecn"] = True
        elif _flag(model, "delay_pkt_"):
            # ErrorModel::recv with delay_pkt_ (and not markecn_, which it tests first): the
            # packet goes on to the model's target delay_ seconds later.
            try:
                delay = to_float(model.vars.get("delay_", "0"))
            except ValueError as e:
                raise Ns2Error(f"delay_: {e}", model.created_at) from None
            if delay < 0:
                raise Ns2Error(f"delay_: expected a delay of 0 s or more, got {delay}",
                               model.created_at)
            if delay == 0:
                # ns-2 schedules the packet at once, behind the events of that time.
                raise Ns2Error(unsupported(f"an {model.cls} delaying the packets it takes"
                                           " (delay_pkt_) by delay_ 0"), self.created_at)
            out["delay"] = f"{delay!r}s"
        return out


def _flag(model: ErrorModel, var: str) -> bool:
    """An ErrorModel's boolean variable as the run starts."""
    try:
        return to_bool(model.vars.get(var, "false"))
    except ValueError as e:
        raise Ns2Error(f"{var}: {e}", model.created_at) from None
