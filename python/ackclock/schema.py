"""The scenario file's schema: the one place that says which tables and keys a scenario file
(docs/scenario-files.md) has, which kinds each ``kind`` key takes and what type each value is.

The loader (``toml_loader.py``) reads its key lists and kinds from here, ``scenario.py`` its
kinds, and :func:`json_schema` writes the same description as a JSON Schema for editors
(``docs/scenario.schema.json``, used by taplo / Even Better TOML through the ``#:schema`` line
of a scenario file or ``.taplo.toml``). What a JSON Schema cannot say (a time's units, a node
name that exists, warmup shorter than duration) the loader checks with one-line errors; the
schema describes it in words. tests/unit/test_schema.py proves the loader, the published schema
and the engine's own checks (crates/ackclock-core/src/scenario.rs) accept and reject the same
documents, naming the same place.

The other half of the schema is the engine's: the types it reads the resolved document into
publish their own JSON Schema (``python -m ackclock.schema --engine``, docs/engine.schema.json).
TCP's keys are the engine's field list (``tcp_config!``, read through ``profiles.TCP_PARAMS``);
every other table here says in :data:`RESOLVED` which engine type's fields its keys become, and
tests/unit/test_engine_schema.py fails when a key is on one side only.

Queue-discipline parameters come from ``queues.SPECS``, TCP parameters and their ns-2 aliases
from ``profiles.TCP_PARAMS``, and profile defaults from ``profiles.PROFILES`` (their one owner:
the schema's descriptions quote them).

Regenerate the published file with ``python -m ackclock.schema > docs/scenario.schema.json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from typing import Any

# Value types, each a JSON Schema (see _TYPES) and the words docs use.
#   time: "29ms" or seconds; rate: "10Mb/s" or bit/s; size: "64KB" or bytes (units.py).


@dataclass(frozen=True)
class Key:
    """One key of a table: its value type (``_TYPES``), whether it must be given, the names it
    takes (``choices``) and what it means."""

    type: str
    doc: str
    required: bool = False
    choices: Sequence[str] = ()


# The kinds a `kind` key takes, and every table's keys. The loader, scenario.py and the JSON
# Schema all read these.
FLOW_KINDS = ("tcp", "udp", "tfrc", "rap")
APP_KINDS = ("ftp", "cbr", "onoff", "poisson", "trace", "tmix")
LOSS_KINDS = ("bernoulli", "gilbert_elliott", "drop_list", "periodic")
class _QueueKinds(Sequence[str]):
    """The queue disciplines of the engine's registry (crates/ackclock-core/src/queue/,
    ``queues.KINDS``), read on first use."""

    _cached: Sequence[str] | None = None

    def _kinds(self) -> Sequence[str]:
        if self._cached is None:  # an import statement per call is slow (40 000 links)
            from .queues import KINDS

            self._cached = KINDS
        return self._cached

    def __getitem__(self, i: Any) -> Any:
        return self._kinds()[i]

    def __len__(self) -> int:
        return len(self._kinds())

    def __contains__(self, x: object) -> bool:
        return x in self._kinds()


QUEUE_KINDS: Sequence[str] = _QueueKinds()
TRACE_FORMATS = ("ns2", "pcap")
ROUTINGS = ("shortest", "ecmp", "ns2")
TIES = ("insertion", "ns2")
DISTRIBUTIONS = ("constant", "uniform", "exponential", "pareto")
EXCHANGES = ("request-response", "concurrent", "open")
# The variables a TCP flow can trace on every change (the engine's tracer::TRACEABLE).
TRACEABLE = ("cwnd", "ssthresh", "rtt", "srtt", "rttvar", "rto", "backoff", "window",
             "inflight", "pacing_rate")
# ns-2 trace events: enqueue, dequeue, receive, queue drop, loss-model drop (printed as d).
TRACE_EVENTS = ("+", "-", "r", "d", "lost")

_COUNT = Key("count", "makes this many copies of the table, {i} in its strings replaced by"
             " 0, 1, ...")

TOP: Mapping[str, Key] = {
    "name": Key("string", "the scenario's name; results go to results/<name>/ (default: the"
                " file name without .toml)"),
    "profile": Key("choice", "the reference system whose defaults apply (docs/profiles.md);"
                   ' default "ns2"', choices=("ns2", "linux", "ns3", "ikr")),
    "run": Key("table", "how long to run, the seed, what to sample and check", required=True),
    "defaults": Key("table", "defaults for every flow: [defaults.tcp]"),
    "node": Key("tables", "a host or router"),
    "link": Key("tables", "a link between two nodes, both directions unless duplex = false"),
    "flow": Key("tables", "a TCP connection or a UDP stream"),
    "trace": Key("tables", "a packet trace file (docs/traces.md)"),
    "quick_start": Key("table", "Quick-Start (RFC 4782) routers: [[quick_start.router]]"
                       " (docs/quick-start.md)"),
}

QUICK_START: Mapping[str, Key] = {
    "rate_function": Key("choice", 'how the option writes a rate: "exponential" (5000 B/s x'
                         ' 2^N; ns-2\'s rate_function_ 2, default) or "linear" (N x 10 KB/s)',
                         choices=("linear", "exponential")),
    "router": Key("tables", "a node's Quick-Start agent (ns-2's Agent/QSAgent)"),
}

QS_ROUTER: Mapping[str, Key] = {
    "node": Key("string", "the node", required=True),
    "enabled": Key("bool", "false: requests pass untouched, which makes senders ignore the"
                   " answer; default true"),
    "algorithm": Key("count", "1: a share of the unused bandwidth; 2: a share of the"
                     " bandwidth under a threshold; 3 (default): the allocation less the peak"
                     " utilisation; 4: approves all; other: rejects all"),
    "alloc_rate": Key("number", "the fraction of the link's bandwidth Quick-Start may give;"
                      " default 0.85"),
    "threshold": Key("number", "algorithms 2, 3: approve only under this fraction used;"
                     " default 0.85"),
    "max_rate": Key("count", "algorithm 1: KB/s at most per request; default 256"),
    "state_delay": Key("time", "approvals count against requests this long and the interval"
                       " before; default 0.2s"),
    "util_weight": Key("number", "the decaying average utilisation's weight, per second;"
                       " default 0.8"),
    "util_interval": Key("time", "the interval of a peak-utilisation sample; default 0.2s"),
    "util_records": Key("count", "how many of them the peak is taken over; default 5"),
}

RUN: Mapping[str, Key] = {
    "duration": Key("time", "simulated time to run", required=True),
    "warmup": Key("time", "flows.csv and queues.csv count from here to the end; default 0s"),
    "seed": Key("count", "the random seed; default 1"),
    "sample_interval": Key("time", "time series every this long; omitted: none"),
    "check": Key("bool", "run the invariant checker (docs/reliability.md); default false"),
    "max_events": Key("count1", "stop cleanly after this many events"),
    "max_packets": Key("count1", "stop cleanly with more packets than this held at once"),
    "routing": Key("choice", 'among equal-cost paths: "shortest" (the first declared link;'
                   ' default), "ecmp" (per flow, by a hash) or "ns2" (as ns-2.35\'s static'
                   ' routing: the lowest-numbered node)', choices=ROUTINGS),
    "ties": Key("choice", 'events of one instant: "insertion" (in the order they were scheduled;'
                ' default) or "ns2" (as ns-2.35 orders them: by its double-valued times, then'
                ' its scheduling order)', choices=TIES),
}

DEFAULTS: Mapping[str, Key] = {
    "tcp": Key("tcp_table", "TCP parameters for every TCP flow (docs/scenario-files.md)"),
}

NODE: Mapping[str, Key] = {
    "name": Key("string", "the node's name", required=True),
    "count": _COUNT,
}

LINK: Mapping[str, Key] = {
    "from": Key("string", "a node's name", required=True),
    "to": Key("string", "a node's name", required=True),
    "rate": Key("rate", "the link's rate", required=True),
    "delay": Key("time", "the propagation delay", required=True),
    "queue": Key("queue", "the queue discipline of each direction; default a DropTail queue of"
                 " the profile's limit"),
    "duplex": Key("bool", "both directions (default true)"),
    "loss": Key("loss", "a loss model on the from -> to direction"),
    "reverse_loss": Key("loss", "a loss model on the to -> from direction (where the ACKs of"
                        " from -> to flows go)"),
    "count": _COUNT,
    "monitor_flows": Key("bool", "per-flow queue counters on both directions"
                         " (queue_flows.csv); default false"),
}

FLOW: Mapping[str, Key] = {
    "name": Key("string", "the flow's name", required=True),
    "kind": Key("choice", '"tcp", "udp", "tfrc" or "rap"', required=True, choices=FLOW_KINDS),
    "from": Key("string", "the sending node's name", required=True),
    "to": Key("string", "the receiving node's name", required=True),
    "app": Key("app", "what sends the data, and when (a TCP flow without one: an endless FTP"
               " transfer from 0 s)"),
    "count": _COUNT,
    "trace": Key("trace_vars", "TCP variables to trace on every change (tcp_trace.csv); true:"
                 " all of them"),
    "fid": Key("count", "ns-2's fid_: the flow id in packet traces (default the flow's index)"),
    "fid_": Key("count", "ns-2's name for fid"),
    "two_way": Key("bool", "a two-way TCP connection (docs/full-tcp.md)"),
    "priority": Key("count", "its packets' priority, 0-15, which prio and pfifo_fast queues map"
                    " to a band; default 0"),
    "tfrc": Key("tfrc", "a tfrc flow's parameters (docs/tfrc.md); defaults ns-2.35's"),
    "rap": Key("rap", "a rap flow's parameters (docs/models/rap.md); defaults ns-2.35's"),
}

# A RAP flow's parameters (crates/ackclock-core/src/rap.rs, RapConfig), each with its ns-2
# name (Agent/RAP; the receiving agent's for ack_size). Their defaults, ns-2.35's, have one
# owner, the engine's RapConfig (rap_defaults).
RAP: Mapping[str, Key] = {
    "packet_size": Key("count1", "bytes of a data packet on the wire (packetSize_)"),
    "ack_size": Key("count1", "bytes of an ACK (the receiver's rap_base_hdr_size_)"),
    "ipg": Key("number", "the initial gap between packets, seconds (ipg_)"),
    "alpha": Key("number", "additive increase: ipg x srtt / (alpha ipg + srtt) per srtt"
                 " (alpha_)"),
    "beta": Key("number", "multiplicative decrease: ipg / beta per loss (beta_)"),
    "srtt": Key("number", "the initial smoothed RTT, seconds (srtt_)"),
    "variance": Key("number", "the initial RTT variance, seconds (variance_)"),
    "delta": Key("number", "the RTT estimator's gain (delta_)"),
    "mu": Key("number", "the timeout's weight of srtt (mu_)"),
    "phi": Key("number", "the timeout's weight of the variance (phi_)"),
    "timeout": Key("number", "the initial loss timeout, seconds (timeout_)"),
    "overhead": Key("number", "each gap lengthened by a uniform draw below this, seconds"
                    " (overhead_)"),
    "fine_grain": Key("bool", "fine-grain adaptation: the gap scaled by a short over a long"
                      " RTT average (useFineGrain_)"),
    "kfrtt": Key("number", "fine grain: the short RTT average's gain (kfrtt_)"),
    "kxrtt": Key("number", "fine grain: the long RTT average's gain (kxrtt_)"),
    "dpthresh": Key("integer", "percent of the packets the gap allowed in an srtt that must"
                    " have gone for the gap to shrink (dpthresh_)"),
}

# A TFRC flow's parameters (crates/ackclock-core/src/tfrc/mod.rs, TfrcConfig), each with its
# ns-2 name (Agent/TFRC, or Agent/TFRCSink for the receiver's). Their defaults (ns-2.35's,
# whatever the profile) have one owner, the engine's TfrcConfig: the front end passes on only
# what a flow gives, and the schema's descriptions read the rest from the engine
# (tfrc_defaults).
TFRC: Mapping[str, Key] = {
    "packet_size": Key("count1", "payload bytes per packet, the equation's s (packetSize_)"),
    "header_size": Key("count", "header bytes added on the wire (headersize_ with useHeaders_)"),
    "feedback_size": Key("count1", "bytes of a feedback packet (TFRCSink packetSize_)"),
    "init_rate": Key("number", "bytes/s before the first feedback (InitRate_)"),
    "df": Key("number", "weight of the old RTT in its moving average (df_)"),
    "ssmult": Key("number", "slow start's rate multiplier per RTT (ssmult_)"),
    "bval": Key("count1", "packets per ACK in the equation (bval_)"),
    "ca": Key("bool", "spacing scaled by sqrt(average RTT / current RTT) (ca_)"),
    "min_rto_s": Key("number", "lower bound of the equation's t_RTO, seconds (minrto_)"),
    "tcp_tick_s": Key("number", "clock tick of the t_RTO estimate, seconds (tcp_tick_)"),
    "srtt_init": Key("integer", "initial srtt in ticks (srtt_init_)"),
    "rttvar_init": Key("integer", "initial rttvar in ticks (rttvar_init_)"),
    "rtxcur_init_s": Key("number", "initial t_RTO, seconds (rtxcur_init_)"),
    "rttvar_exp": Key("integer", "t_RTO = srtt + 2^rttvar_exp rttvar (rttvar_exp_)"),
    "srtt_bits": Key("integer", "fixed-point bits of srtt (T_SRTT_BITS)"),
    "rttvar_bits": Key("integer", "fixed-point bits of rttvar (T_RTTVAR_BITS)"),
    "rate_init": Key("number", "packets per RTT after the first feedback with"
                     " rate_init_option 1 (rate_init_)"),
    "rate_init_option": Key("count1", "1: rate_init; 2: RFC 3390's 4, 3 or 2 packets"
                            " (rate_init_option_)"),
    "slow_increase": Key("bool", "raise the rate packet by packet in slow start"
                         " (slow_increase_)"),
    "max_heavy_rounds": Key("count", "rounds the rate may stay above twice the receive rate"
                            " (maxHeavyRounds_)"),
    "conservative": Key("bool", "the receive rate after a loss, scmult x it otherwise"
                        " (conservative_)"),
    "scmult": Key("number", "see conservative (scmult_)"),
    "overhead": Key("number", "each gap scaled by a uniform factor in [1 - o, 1 + o]"
                    " (overhead_)"),
    "ecn": Key("bool", "ECN-capable; marks count as losses (ecn_)"),
    "idle_fix": Key("bool", "keep the initial rate after idle periods (idleFix_)"),
    "old_code": Key("bool", "ns-2's older idle behaviour (oldCode_)"),
    "voip": Key("bool", "VoIP mode, RFC 4828 (voip_)"),
    "fsize": Key("count1", "VoIP mode: the equation's packet size (fsize_)"),
    "voip_max_pkt_rate": Key("number", "VoIP mode: packets per second at most"
                             " (voip_max_pkt_rate_)"),
    "app_limited": Key("bool", "sends only what its application gave it, idle otherwise"
                       " (ns-2 SndrType_ 1; a finite ftp always is)"),
    "num_feedback": Key("number", "feedback packets per RTT (NumFeedback_)"),
    "history_size": Key("count1", "packets of loss history (InitHistorySize_)"),
    "algo": Key("count1", "1: average loss interval method; 2: EWMA of loss intervals"
                " (algo_)"),
    "history": Key("number", "EWMA weight of the old average (history_)"),
    "adjust_history_after_ss": Key("bool", "make up the first loss interval from the receive"
                                   " rate (AdjustHistoryAfterSS_)"),
    "precise_loss": Key("bool", "a new loss event also needs a new sender round"
                        " (PreciseLoss_)"),
    "num_pkts": Key("count1", "packets after a gap before it counts as lost (numPkts_)"),
    "num_samples": Key("integer", "loss intervals averaged; negative: 8 (NumSamples_)"),
    "discount": Key("bool", "history discounting, RFC 5348 section 5.5 (discount_)"),
    "min_discount_ratio": Key("number", "smallest discount factor (minDiscountRatio_)"),
    "smooth": Key("bool", "shift the weights when a new interval opens (smooth_)"),
    "short_intervals": Key("count", "count the losses of short intervals: 0, 1, 3, 10, 11,"
                           " 13 (ShortIntervals_)"),
    "short_rtts": Key("count", "RTTs of a short interval (ShortRtts_)"),
}

APP_COMMON: Mapping[str, Key] = {
    "kind": Key("choice", "the application", required=True, choices=APP_KINDS),
    "start": Key("distribution", "when it starts: a time or a distribution; default 0s"),
    "stop": Key("time", "when it stops; omitted: at the end"),
}
_RATE = Key("rate", "the sending rate (or give interval)")
_INTERVAL = Key("time", "the time between packets (or give rate)")
_PACKET_SIZE = Key("size", "payload bytes of each packet (over TCP: of each write; default one"
                   " segment)")
APP: Mapping[str, Mapping[str, Key]] = {
    "ftp": {
        "size": Key("size", "bytes of a finite transfer; omitted: endless"),
        "reply_size": Key("size_or_endless", 'two-way flows: the acceptor\'s bytes (default 0),'
                          ' or "endless"'),
        "exchange": Key("choice", "two-way flows: when each side writes", choices=EXCHANGES),
    },
    "cbr": {
        "rate": _RATE, "interval": _INTERVAL, "packet_size": _PACKET_SIZE,
        "random": Key("bool01", "jitter each interval by up to half (ns-2 random_)"),
        "random_": Key("bool01", "ns-2's name for random"),
        "after_connect": Key("bool01", "TCP: the first write one interval after the connection"
                             " opens (ns-3's OnOffApplication), not at the start"),
        "restart_every": Key("time", "TCP with after_connect: stop and start again every this"
                             " long, as ns-3's OnOffApplication with this OnTime and OffTime 0"
                             " (the interrupted interval's bits carried in whole bits)"),
    },
    "onoff": {
        "rate": _RATE, "interval": _INTERVAL, "packet_size": _PACKET_SIZE,
        "on": Key("distribution", "on times", required=True),
        "off": Key("distribution", "off times", required=True),
    },
    "poisson": {"rate": _RATE, "interval": _INTERVAL, "packet_size": _PACKET_SIZE},
    "trace": {"file": Key("string", 'a file of "time size" records', required=True)},
    "tmix": {
        "file": Key("string", "a file of Tmix connection vectors", required=True),
        "delay_box": Key("bool", "each connection's own minimum RTT (Tmix_DelayBox); default"
                         " true"),
        "losses": Key("bool", "the vectors' loss rates; default true"),
        "rtt_added": Key("bool", "the delay box adds each vector's RTT to the path's, as"
                         " ns-2.35's Tmix_DelayBox; default false (the vector's RTT where"
                         " longer than the path's)"),
        "delay_boxes": Key("count1", "with rtt_added: how many of ns-2.35's Tmix_DelayBoxes"
                           " holding the file each packet passes, each holding it r / 2 and"
                           " dropping it at the vector's rate (Tmix_DelayBoxClassifier::recv);"
                           " default 1"),
        "windows": Key("bool", "each side's window is its vector's w line over the segment"
                       " size, as ns-2.35's Tmix; default false (the flow's window)"),
        "fin_wait": Key("time", "connections close as ns-2.35's Tmix: the side of the last ADU"
                        " writes 2 bytes and its FIN this long after its last write (ns-2's"
                        " fin_time_); default the profile's (ns2: 1s; others: both sides'"
                        " FINs once the last ADU is delivered)"),
    },
}

LOSS: Mapping[str, Mapping[str, Key]] = {
    "bernoulli": {
        "p": Key("probability", "the loss probability", required=True),
        "unit": Key("choice", '"packet" (default) or "byte"', choices=("packet", "byte")),
    },
    "gilbert_elliott": {
        "p_good_bad": Key("probability", "good -> bad per packet", required=True),
        "p_bad_good": Key("probability", "bad -> good per packet", required=True),
        "loss_good": Key("probability", "loss probability in the good state; default 0"),
        "loss_bad": Key("probability", "loss probability in the bad state; default 1"),
    },
    "periodic": {
        "period": Key("count1", "every this many packets", required=True),
        "offset": Key("count", "the first lost packet's position in the period; default 0"),
        "burst": Key("count1", "packets lost in a row; default 1"),
        "mark_ecn": Key("bool", "mark them Congestion Experienced and let them pass instead"
                        " (ns-2's markecn_); default false"),
        "delay": Key("time", "delay them this long instead of dropping them (ns-2's"
                     " delay_pkt_; the ns-2 front end, at a link's entry only); default 0s"),
    },
    "drop_list": {
        "flow": Key("string", "the flow's name", required=True),
        "packets": Key("counts", "its data transmissions to drop, numbered from 1",
                       required=True),
        "acks": Key("bool", "take the flow's ACKs crossing this direction instead, numbered"
                    " from 1 as they reach it (ns-2's ErrorModule on the ACKs' path); default"
                    " false"),
        "connection": Key("bool", "the flow is a two-way connection's: number all its packets"
                          " crossing this direction, both directions' data and ACKs, from 1"
                          " (ns-2's ErrorModule bound to a FullTcp fid_); default false"),
        "counted": Key("bool", "number the flow's data packets as they reach this direction"
                       " (those dropped before it not counted) instead of by the sender's"
                       " transmission count (ns-2's ErrorModel/List); default false"),
        "mark_ecn": Key("bool", "mark them Congestion Experienced and let them pass instead"
                        " (ns-2's markecn_); default false"),
        "delay": Key("time", "delay them this long instead of dropping them (ns-2's"
                     " delay_pkt_; the ns-2 front end, at a link's entry only); default 0s"),
    },
}

QUEUE_COMMON: Mapping[str, Key] = {
    "kind": Key("choice", 'the discipline; default "droptail", and under the ns3 profile'
                ' "fq_codel" above a device queue of limit packets', choices=QUEUE_KINDS),
    "limit": Key("count", "the buffer in packets (default the profile's; without kind under the"
                 " ns3 profile, the device queue's)"),
    "limit_bytes": Key("size", "the buffer in bytes (droptail only)"),
    "ns2": Key("bool", "ns-2's DropTail accounting (a limit of N holds N - 1 waiting); default"
               " the profile's"),
    "ecn": Key("bool", "mark ECN-capable packets instead of dropping them early"),
    "setbit_": Key("bool", "ns-2's name for ecn"),
    "device_limit": Key("count1", "a device queue of this many packets below the discipline"
                        " (ns-3's traffic-control layer; docs/models/traffic-control.md)"),
    "bql": Key("bool", "byte queue limits on the device queue; default false"),
    "bql_hold_time": Key("time", "how long byte queue limits wait before lowering the limit"
                         " (ns-3's DynamicQueueLimits HoldTime); default 1 s"),
    "ns3_run": Key("bool", "the transmit loop above the device queue as ns-3.44's (it stops"
                   " when the discipline empties; a device queue that wakes runs it even"
                   " then); default the profile's (ns3: true)"),
    "classes": Key("class_tree", "cbq only: its class tree, a table per class (name, parent,"
                   " allot, borrow, maxidle, priority, level, extradelay, limit, flows;"
                   " docs/models/cbq.md)"),
    "diffserv": Key("diffserv_tables", "dsred only: its tables (edge, queues, precedences,"
                    " mean_pktsize, mred, scheduler, weights, max_rates_bps, phb, red, policies,"
                    " policers; docs/models/diffserv.md)"),
}

TRACE: Mapping[str, Key] = {
    "format": Key("choice", 'ns-2 trace lines or pcap frames; default "ns2"',
                  choices=TRACE_FORMATS),
    "file": Key("string", "the file, a relative path inside the results folder", required=True),
    "links": Key("names", 'link directions "from->to"; omitted (and no nodes): every link'),
    "nodes": Key("names", "pcap only: capture at these nodes"),
    "events": Key("names", 'ns2 only: events to record ("+", "-", "r", "d", "lost")'),
    "tcp_header": Key("bool", "ns2 only: append ackno, flags, hlen and SACK blocks"),
}


# How each table's keys reach the engine's resolved document, whose types (crates/ackclock-core/
# src/scenario.rs and scenario/) are the schema's other half, published by the engine itself as
# docs/engine.schema.json. A key of type time becomes ``<key>_ps`` there, a rate ``<key>_bps``,
# any other keeps its name, unless ``renamed`` says otherwise (None: the front end resolves the
# key away, as the comment says); ``made`` lists the engine's fields the front end fills from
# elsewhere. tests/unit/test_engine_schema.py::test_every_tables_keys_are_the_engines holds
# each table to its engine type's fields, so a key added on one side only fails it.
@dataclass(frozen=True)
class Resolved:
    """Where one table of the file goes in the engine's document: its type (a ``$defs`` name
    of the engine's schema, ``Type.kind`` for one variant of a tagged enum, "" for the
    document itself)."""

    engine: str
    renamed: Mapping[str, str | None] = dataclass_field(default_factory=dict)
    made: Mapping[str, str] = dataclass_field(default_factory=dict)


def _interval(kind: str) -> str:
    return "mean_interval_ps" if kind == "poisson" else "interval_ps"


_APP_RENAMED: Mapping[str, str | None] = {
    "reply_size": None, "exchange": None,  # ftp: the two-way connection's
    "random_": "random", "size": "size_bytes",
    "rate": None,  # cbr, onoff, poisson: the interval
    "file": None,  # trace, tmix: read by the front end
    # tmix: into each connection
    "delay_box": None, "losses": None, "windows": None, "delay_boxes": None,
    "fin_wait": "fin_wait_ps",
}
RESOLVED: Mapping[str, tuple[Mapping[str, Key], Resolved]] = {
    "top": (TOP, Resolved(
        "", renamed={"node": "nodes", "link": "links", "flow": "flows", "trace": "traces",
                     "defaults": None},  # [defaults.tcp]: into each TCP flow
        made={"tcp_tables": "the flows' distinct TCP tables (run.with_tcp_tables)"})),
    "run": (RUN, Resolved("RunConfig")),
    "quick_start": (QUICK_START, Resolved("QuickStartConfig", renamed={"router": "routers"})),
    "quick_start.router": (QS_ROUTER, Resolved("QuickStartRouter")),
    "link": (LINK, Resolved(
        "LinkConfig",
        renamed={"count": None,  # copies of the table (docs/scenario-files.md)
                 "duplex": None,  # two engine links, from -> to and to -> from
                 "reverse_loss": None},  # the to -> from link's loss
        made={"loss_at_entry": "ns-2's lossmodel (python/ackclock/ns2/)",
              "loss_behind": "ns-2's second errormodule on a link (python/ackclock/ns2/)",
              "tx_time_ns": "the profile's (Profile.tx_time_ns: ns3's whole nanoseconds)"})),
    "flow": (FLOW, Resolved(
        "FlowConfig",
        renamed={"count": None, "fid_": "fid",
                 "two_way": None},  # two engine flows, each with its connection
        made={"connection": "two_way", "ports": "the ns-2 front end's agents",
              "tcp": "the TCP keys (profiles.TCP_PARAMS)",
              "tcp_table": "in place of tcp, its index in tcp_tables (run.with_tcp_tables)",
              "ns2_boot_time_ps": "the ns-2 front end's agents' boot_time_, beside a shared"
                                  " tcp_table (scenario.resolve_shared's boot_per_flow)",
              "header_size": "UDP: the TCP key header_size"})),
    "trace": (TRACE, Resolved(
        "TraceConfig", renamed={"file": "path"},
        made={"lost_untraced": "the ns-2 front end's trace-all",
              "ahead_of_loss": "the ns-2 front end's trace-queue after an errormodule"})),
    "queue": (QUEUE_COMMON, Resolved(
        "QueueDocument",
        renamed={"limit": "limit_packets", "setbit_": "ecn",
                 "device_limit": "device.limit_packets", "bql": "device.bql",
                 "bql_hold_time": "device.bql_hold_time_ps", "ns3_run": "device.ns3_run"},
        made={"params": "the discipline's keys (queues.SPECS)",
              "red": "red's keys", "pie": "pie's keys", "codel": "codel's keys",
              "custom": "a discipline written in Python (queues.register)"})),
    "tfrc": (TFRC, Resolved("TfrcConfig")),
    "rap": (RAP, Resolved("RapConfig")),
    **{f"app.{kind}": ({**APP_COMMON, **own}, Resolved(
        f"AppConfig.{kind}",
        renamed={k: v for k, v in {**_APP_RENAMED, "interval": _interval(kind)}.items()
                 if k in own},
        made={"trace": {"records": "the file's records"},
              "tmix": {"connections": "the file's connection vectors"}}.get(kind, {})))
       for kind, own in APP.items()},
    **{f"loss.{kind}": ({"kind": Key("choice", "the loss model"), **own}, Resolved(
        f"LossConfig.{kind}",
        # bernoulli: unit = "byte" is the engine's byte_bernoulli
        renamed={"unit": None} if "unit" in own else {}))
       for kind, own in LOSS.items()},
}


def engine_field(name: str, key: Key, resolved: Resolved) -> str | None:
    """The engine's field a file key becomes (dotted: a field of a nested table), or None."""
    if name in resolved.renamed:
        return resolved.renamed[name]
    return {"time": f"{name}_ps", "rate": f"{name}_bps"}.get(key.type, name)


def keys(table: Mapping[str, Key]) -> tuple[str, ...]:
    """A table's key names, in order."""
    return tuple(table)


def app_keys(kind: str) -> tuple[str, ...]:
    """The keys of an application of ``kind``."""
    return (*APP_COMMON, *APP[kind])


def loss_keys(kind: str) -> tuple[str, ...]:
    """The keys of a loss model of ``kind``."""
    return ("kind", *LOSS[kind])


# The JSON Schema of each value type (a scenario's strings may hold {i} in `count = N` tables,
# so times, rates and sizes given as strings are not pattern-checked here: the loader says
# what is wrong with one).
_NUMBER_OR_TEXT = {"type": ["number", "string"]}
_TYPES: Mapping[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "bool": {"type": "boolean"},
    "bool01": {"anyOf": [{"type": "boolean"}, {"enum": [0, 1]}]},
    "count": {"type": "integer", "minimum": 0},
    "count1": {"type": "integer", "minimum": 1},
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "class_tree": {"type": "array", "minItems": 1, "items": {
        "type": "object", "required": ["name", "allot"], "additionalProperties": False,
        "properties": {
            "name": {"type": "string"}, "parent": {"type": "string"},
            "allot": {"type": "number", "minimum": 0, "maximum": 1},
            "borrow": {"type": "boolean"}, "maxidle": _NUMBER_OR_TEXT,
            "priority": {"type": "integer", "minimum": 0, "maximum": 9},
            "level": {"type": "integer", "minimum": 1, "maximum": 32},
            "extradelay": _NUMBER_OR_TEXT, "limit": {"type": "integer", "minimum": 1},
            "flows": {"type": "array", "items": {"type": "string"}}}}},
    "diffserv_tables": {"type": "object", "required": ["phb"]},
    "counts": {"type": "array", "items": {"type": "integer", "minimum": 1}},
    "time": _NUMBER_OR_TEXT,
    "rate": _NUMBER_OR_TEXT,
    "size": {"type": ["integer", "string"]},
    "size_or_endless": {"type": ["integer", "string"]},
    "probability": {"type": "number", "minimum": 0, "maximum": 1},
    "names": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    "trace_vars": {"anyOf": [{"type": "boolean"}, {"type": "string"},
                             {"type": "array", "items": {"type": "string"}}]},
    "distribution": {"anyOf": [
        _NUMBER_OR_TEXT,
        {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False,
         "properties": {
             "constant": _NUMBER_OR_TEXT,
             "exponential": _NUMBER_OR_TEXT,
             "uniform": {"type": "array", "minItems": 2, "maxItems": 2,
                         "items": _NUMBER_OR_TEXT},
             "pareto": {"type": "array", "minItems": 2, "maxItems": 2,
                        "items": _NUMBER_OR_TEXT},
         }},
    ]},
}

# TCP parameter kinds (profiles.TCP_PARAMS) as value types.
_TCP_TYPES: Mapping[str, dict[str, Any]] = {
    "size": {"type": ["integer", "string"]},
    "count": {"type": "integer", "minimum": 1},
    "count_or_zero": {"type": "integer", "minimum": 0},
    "number": {"type": "number"},
    "count_or_unbounded": {"anyOf": [{"type": "integer", "minimum": 1},
                                     {"enum": ["unbounded", "window"]}]},
    "time": _NUMBER_OR_TEXT,
    "bool": {"anyOf": [{"type": "boolean"}, {"enum": [0, 1]}]},
    "size_or_none": {"type": ["integer", "string"]},
    "rate_or_none": _NUMBER_OR_TEXT,
    "table": {"type": "object", "additionalProperties": {"type": "number"}},
}


def _value(key: Key) -> dict[str, Any]:
    out: dict[str, Any] = {"description": key.doc}
    if key.type == "choice":
        out["enum"] = list(key.choices)
    elif key.type in _TYPES:
        out.update(_TYPES[key.type])
    return out


def _object(table: Mapping[str, Key], extra: Mapping[str, Any] | None = None,
            closed: bool = True) -> dict[str, Any]:
    props = {name: _value(key) for name, key in table.items()}
    props.update(extra or {})
    out: dict[str, Any] = {"type": "object", "properties": props}
    required = [name for name, key in table.items() if key.required]
    if required:
        out["required"] = required
    if closed:
        out["additionalProperties"] = False
    return out


def _by_kind(common: Mapping[str, Key], own: Mapping[str, Mapping[str, Any]],
             default: str | None = None) -> dict[str, Any]:
    """A table whose ``kind`` decides its other keys: one if/then per kind."""
    out = _object(common, closed=False)
    branches = []
    for kind, props in own.items():
        cond: dict[str, Any] = {"properties": {"kind": {"const": kind}}}
        if kind != default:
            cond["required"] = ["kind"]
        then: dict[str, Any] = {
            "properties": {**{k: True for k in common}, **props},
            "additionalProperties": False,
        }
        branches.append({"if": cond, "then": then})
    out["allOf"] = branches
    return out


def _tcp_properties() -> dict[str, Any]:
    from .profiles import PROFILES, TCP_ALIASES, TCP_CHOICES, TCP_PARAMS

    props: dict[str, Any] = {}
    for name, kind in TCP_PARAMS.items():
        defaults = ", ".join(f"{p} {_shown(prof.tcp[name])}" for p, prof in PROFILES.items())
        prop: dict[str, Any] = {"description": f"TCP parameter ({kind}); defaults: {defaults}"}
        if kind == "name":
            choices: list[Any] = list(TCP_CHOICES[name])
            if name == "hystart":
                choices += [True, False]
            prop["enum"] = choices
        else:
            prop.update(_TCP_TYPES[kind])
        props[name] = prop
    for alias, name in TCP_ALIASES.items():
        props[alias] = {**props[name], "description": f"ns-2's name for {name}"}
    return props


def tfrc_defaults() -> dict[str, Any]:
    """A tfrc flow's parameters as the engine fills them in for a flow that gives none
    (``ackclock._core.read_scenario``): ns-2.35's defaults, held by the engine's TfrcConfig."""
    from ._core import read_scenario
    from .scenario import Flow, Link, Node, RunConfig, Scenario, resolve

    sc = Scenario(name="tfrc", profile="ns2", run=RunConfig(duration="1s"),
                  nodes=[Node("a"), Node("b")],
                  links=[Link(from_="a", to="b", rate="10Mb/s", delay="1ms")],
                  flows=[Flow(name="t", kind="tfrc", from_="a", to="b")])
    tfrc: dict[str, Any] = json.loads(read_scenario(json.dumps(resolve(sc))))["flows"][0]["tfrc"]
    return tfrc


def rap_defaults() -> dict[str, Any]:
    """A rap flow's parameters as the engine fills them in for a flow that gives none:
    ns-2.35's defaults, held by the engine's RapConfig."""
    from ._core import read_scenario
    from .scenario import Flow, Link, Node, RunConfig, Scenario, resolve

    sc = Scenario(name="rap", profile="ns2", run=RunConfig(duration="1s"),
                  nodes=[Node("a"), Node("b")],
                  links=[Link(from_="a", to="b", rate="10Mb/s", delay="1ms")],
                  flows=[Flow(name="r", kind="rap", from_="a", to="b")])
    rap: dict[str, Any] = json.loads(read_scenario(json.dumps(resolve(sc))))["flows"][0]["rap"]
    return rap


def _tfrc_table() -> dict[str, Key]:
    """schema.TFRC with each key's default from the engine."""
    return _with_defaults(TFRC, tfrc_defaults())


def _rap_table() -> dict[str, Key]:
    """schema.RAP with each key's default from the engine."""
    return _with_defaults(RAP, rap_defaults())


def _with_defaults(table: Mapping[str, Key], defaults: Mapping[str, Any]) -> dict[str, Key]:
    def shown(v: Any) -> str:
        return json.dumps(v) if isinstance(v, bool) else f"{v:g}"

    return {name: replace(key, doc=f"{key.doc}; default {shown(defaults[name])}")
            for name, key in table.items()}


def _shown(value: Any) -> str:
    return "none" if value is None else json.dumps(value)


def _queue_schema() -> dict[str, Any]:
    from .queues import SPECS

    types: dict[str, dict[str, Any]] = {"float": {"type": "number"}, "bool": {"type": "boolean"},
             "time": _NUMBER_OR_TEXT, "int": {"type": "integer", "minimum": 1}}
    own: dict[str, dict[str, Any]] = {}
    for kind, spec in SPECS.items():
        props: dict[str, Any] = {}
        for name, param in spec.items():
            defaults = ", ".join(
                f"{p} {_shown(f'{v / 1e9:g}ms' if param.kind == 'time' else v)}"
                for p, v in param.default.items())
            props[name] = {**types[param.kind],
                           "description": f"{kind} parameter; default {defaults}"}
            for alias in param.aliases:
                props[alias] = {**types[param.kind], "description": f"another name for {name}"}
        own[kind] = props
    return _by_kind(QUEUE_COMMON, own, default="droptail")


def json_schema() -> dict[str, Any]:
    """The scenario file's JSON Schema (draft-07, which taplo reads), for editors and tests."""
    tcp = _tcp_properties()
    udp_header = {"header_size": tcp["header_size"]}
    app = _by_kind(APP_COMMON, {k: {n: _value(v) for n, v in own.items()}
                                for k, own in APP.items()})
    loss = _by_kind({"kind": Key("choice", "the loss model", required=True,
                                 choices=LOSS_KINDS)},
                    {k: {n: _value(v) for n, v in own.items()} for k, own in LOSS.items()})
    flow = _object(FLOW, {**tcp, **udp_header, "app": {"$ref": "#/definitions/app"},
                          "tfrc": {**_object(_tfrc_table()), "description": FLOW["tfrc"].doc},
                          "rap": {**_object(_rap_table()), "description": FLOW["rap"].doc}})
    link = _object(LINK, {"queue": {"$ref": "#/definitions/queue"},
                          "loss": {"$ref": "#/definitions/loss"},
                          "reverse_loss": {"$ref": "#/definitions/loss"}})
    defaults = _object(DEFAULTS, {"tcp": {"type": "object", "properties": tcp,
                                          "additionalProperties": False}})
    top = _object(TOP, {
        "run": {"$ref": "#/definitions/run"},
        "defaults": defaults,
        "node": {"type": "array", "items": _object(NODE)},
        "link": {"type": "array", "items": link},
        "flow": {"type": "array", "items": flow},
        "trace": {"type": "array", "items": _object(TRACE)},
        "quick_start": _object(QUICK_START, {
            "router": {"type": "array", "items": _object(QS_ROUTER)}}),
    })
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "ackclock scenario file",
        "description": "A scenario file (docs/scenario-files.md). Generated by"
                       " `python -m ackclock.schema` from python/ackclock/schema.py.",
        **top,
        "definitions": {"run": _object(RUN), "app": app, "loss": loss, "queue": _queue_schema()},
    }


def profile_tcp(profile: str) -> dict[str, Any]:
    """The engine's TCP document that ``profile``'s defaults resolve to (a flow that sets
    nothing), as ``crates/ackclock-core/tests/data/ns2_tcp.json`` holds it for the engine's
    tests."""
    from .scenario import Flow, Link, Node, RunConfig, Scenario, resolve

    sc = Scenario(name="profile", profile=profile, run=RunConfig(duration="1s"),
                  nodes=[Node("a"), Node("b")],
                  links=[Link(from_="a", to="b", rate="10Mb/s", delay="1ms")],
                  flows=[Flow(name="t", kind="tcp", from_="a", to="b")])
    tcp: dict[str, Any] = resolve(sc)["flows"][0]["tcp"]
    return tcp


def main(argv: list[str] | None = None) -> None:
    """Prints the JSON Schema (``python -m ackclock.schema > docs/scenario.schema.json``), with
    ``--engine`` the resolved document's, made by the engine from its own types
    (``python -m ackclock.schema --engine > docs/engine.schema.json``), or with
    ``--profile-tcp NAME`` a profile's resolved TCP document (``python -m ackclock.schema
    --profile-tcp ns2 > crates/ackclock-core/tests/data/ns2_tcp.json``)."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--engine"]:
        from ._core import scenario_schema

        sys.stdout.write(scenario_schema() + "\n")
        return
    if args[:1] == ["--profile-tcp"] and len(args) == 2:
        sys.stdout.write(json.dumps(profile_tcp(args[1]), indent=2) + "\n")
        return
    sys.stdout.write(json.dumps(json_schema(), indent=2) + "\n")


if __name__ == "__main__":
    main()
