"""Runs ns-2 Tcl scripts unchanged: ``ackclock ns2 script.tcl [args...]``.

The script runs in a real Tcl interpreter (``tkinter.Tcl()``); ns-2's objects are Python
objects behind Tcl commands; ``$ns run`` builds the network in the engine and advances it from
one ``$ns at`` event to the next, evaluating each event's script at its simulated time.
See docs/ns2-scripts.md.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from . import procs
from .agents import (
    Cbr,
    Ftp,
    FullTcpAgent,
    LossMonitorAgent,
    NullAgent,
    OnOff,
    SourceFtp,
    TcpAgent,
    TcpSink,
    unsupported_app,
)
from .cbq import CbqClass
from .delayer import Delayer
from .diffserv import DsQueue
from .errmodule import ErrorModule, ListErrorModel, PeriodicErrorModel
from .errors import Ns2Error, ScriptExit
from .interp import Context, Factory
from .interrupt import CtrlC
from .messpass import MessagePassingAgent
from .monitors import DelaySamples, FidClassifier, FlowMonitor, FlowStats, Integrator, QueueMonitor
from .ping import PingAgent
from .rap import RapAgent
from .rng import RandomVariable, Rng
from .simulator import Simulator
from .telnet import Telnet
from .tfrc import TfrcAgent, TfrcSinkAgent
from .tmix import DelayBox, TmixEnd
from .topology import DelayLink, ErrorModel, Link, Node, QsAgent, Queue, TraceObject
from .udp_data import UdpDataAgent

__all__ = ["Ns2Error", "run_script"]

FACTORIES: dict[str, Factory] = {
    "Simulator": Simulator,
    "Node": Node,
    "Node/Tmix_DelayBox": DelayBox,
    "Tmix": TmixEnd,
    "Tmix_End": TmixEnd,
    "Link": Link,
    "DelayLink": DelayLink,
    "Delayer": Delayer,
    "Queue": Queue,
    "Queue/dsRED": DsQueue,
    "CBQClass": CbqClass,
    "ErrorModel": ErrorModel,
    "ErrorModel/List": ListErrorModel,
    "ErrorModel/Periodic": PeriodicErrorModel,
    "ErrorModule": ErrorModule,
    "Trace": TraceObject,
    "RNG": Rng,
    "RandomVariable": RandomVariable,
    "QueueMonitor": QueueMonitor,
    "Integrator": Integrator,
    "QueueMonitor/ED/Flowmon": FlowMonitor,
    "QueueMonitor/ED/Flow": FlowStats,
    "Samples": DelaySamples,
    "Classifier/Hash/Fid": FidClassifier,
    "Agent/TCP": TcpAgent,
    "Agent/TCP/FullTcp": FullTcpAgent,
    "Agent/TCPSink": TcpSink,
    "Agent/QSAgent": QsAgent,
    "Agent/UDP": UdpDataAgent,
    "Agent/MessagePassing": MessagePassingAgent,
    "Agent/Ping": PingAgent,
    "Agent/TFRC": TfrcAgent,
    "Agent/TFRCSink": TfrcSinkAgent,
    "Agent/RAP": RapAgent,
    "Agent/Null": NullAgent,
    "Agent/LossMonitor": LossMonitorAgent,
    "Application/FTP": Ftp,
    "Source/FTP": SourceFtp,
    "Application/Telnet": Telnet,
    "Application/Traffic/CBR": Cbr,
    "Application/Traffic/Exponential": OnOff,
    "Application/Traffic/Pareto": OnOff,
    "Application/Traffic": unsupported_app,
}


def run_script(script: str, argv: Sequence[str] = (), *, int32_counters: bool = False,
               safe: bool = False) -> int:
    """Runs ``script`` as ``ns script argv...`` would; returns the exit status.

    ``int32_counters``: the counters ns-2 keeps in C ``int`` (queue and flow monitors'
    ``parrivals_`` ... ``bdrops_``, ``pkts_``, ``size_``, a sink's ``bytes_``, a sender's
    ``ndatabytes_``) wrap at 2^31 as ns-2's do, instead of counting on.

    ``safe``: the script runs under Tcl's safe-interpreter rules (safe.py): no ``exec``, no
    file access outside the current folder.

    Errors print one line (``file:line: what``) on stderr: status 2 for commands ackclock
    does not support or gets wrong arguments, 1 for an error of the script itself.
    """
    if not os.path.isfile(script):
        print(f"ackclock: error: {script}: no such file", file=sys.stderr)
        return 2
    with CtrlC():
        return _run(script, argv, int32_counters, safe)


def _run(script: str, argv: Sequence[str], int32_counters: bool = False,
         safe: bool = False) -> int:
    ctx = Context(script, argv, safe=safe)
    ctx.pause_collector()
    ctx.int32_counters = int32_counters
    ctx.register(FACTORIES)
    procs.install(ctx)
    try:
        # tcl/lib/ns-random.tcl: `set defaultRNG [new RNG]; $defaultRNG seed 1`.
        ctx.tcl.setvar("::defaultRNG", ctx.new_object("RNG", []).handle)
        ctx.default_rng().reseed(1)
        ctx.eval_global(f"source {{{script}}}" if "}" not in script else
                        "source " + ctx.tcl.call("list", script))
        code = 0
    except ScriptExit as e:
        code = e.code
    except Ns2Error as e:
        from ..cli import _closed_pipe, _stdout_closed

        if _stdout_closed():  # `ackclock ns2 x.tcl | head`: the reader went away; quietly
            return _closed_pipe()
        sys.stdout.flush()
        ctx.tcl.eval("catch {flush stdout}")
        print(f"ackclock: error: {e}", file=sys.stderr)
        code = e.status
    finally:
        ctx.resume_collector()
        sim = ctx.simulator
        if sim is not None:
            try:
                sim.write_traces()
            except Ns2Error:
                pass
        ctx.close_all()
        try:
            ctx.flush_c_stdout()
        except (BrokenPipeError, OSError):
            pass
    return code
