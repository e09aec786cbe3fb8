"""Reference profiles: the defaults that make a scenario behave like a reference system.

A flow's TCP parameters come from, in increasing precedence: its profile, the scenario's
``[defaults.tcp]`` table (or ``Network.defaults``), and the flow's own keys.

Values here are written the way users write them ("200ms") so that they go through the same
exact unit conversion as user values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import ScenarioError, quote


class _TcpKeys(Mapping[str, str]):
    """Every TCP parameter a flow or [defaults.tcp] may set, with its unit kind for conversion
    (``size``, ``count``, ``count_or_zero``, ``count_or_unbounded``, ``time``, ``bool``,
    ``name``, ``number``, ``size_or_none``, ``rate_or_none``, ``table``), in the resolved
    document's order.

    The engine owns the list (crates/ackclock-core/src/scenario/tcp.rs, ``tcp_config!``: one
    line per parameter with its kind and, where it differs, the scenario file's name for it);
    it reaches the front end through the engine's JSON Schema (``x-ackclock-keys`` on
    ``TcpDocument``), read on first use. ``cc`` and ``cc_params`` are the document's own
    (congestion control, docs/models/congestion-control.md), at their places in it."""

    _table: dict[str, tuple[str, str]] | None = None
    _choices: dict[str, tuple[str, ...]] | None = None

    def _get(self) -> dict[str, tuple[str, str]]:
        if self._table is None:
            import json

            from .run import engine

            schema = json.loads(engine().scenario_schema())
            defs = schema["$defs"]
            table: dict[str, tuple[str, str]] = {}
            choices: dict[str, tuple[str, ...]] = {}
            for key, field, kind in defs["TcpDocument"]["x-ackclock-keys"]:
                table[key] = (field, kind)
                if kind == "name":
                    ref = defs["TcpDocument"]["properties"][field]["$ref"]
                    choices[key] = tuple(defs[ref.rsplit("/", 1)[1]]["enum"])
                if key == "variant":
                    table["cc"] = ("cc", "name")
                elif key == "read_rate":
                    table["cc_params"] = ("cc_params", "table")
            self._table, self._choices = table, choices
        return self._table

    def __getitem__(self, key: str) -> str:
        return self._get()[key][1]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def field(self, key: str) -> str:
        """The resolved document's name for ``key`` (``min_rto`` -> ``min_rto_ps``)."""
        return self._get()[key][0]

    def choices(self, key: str) -> tuple[str, ...]:
        """The names a ``name`` parameter other than ``cc`` takes (its engine enum's)."""
        self._get()
        assert self._choices is not None
        return self._choices[key]


TCP_PARAMS: _TcpKeys = _TcpKeys()

# ns-2 instance-variable names, so that parameters copied from an ns-2 script keep working.
TCP_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "packetSize_": "packet_size",
        "window_": "window",
        "windowInit_": "window_init",
        "tcpTick_": "timer_granularity",
        "minrto_": "min_rto",
        "maxrto_": "max_rto",
        "singledup_": "limited_transmit",
        "bugFix_": "bug_fix",
        "precisionReduce_": "precision_reduce",
        "partial_window_deflation_": "partial_deflation",
        "syn_": "syn",
        "maxburst_": "max_burst",
        "max_ssthresh_": "max_ssthresh",
        "maxcwnd_": "max_cwnd",
        "timestamps_": "timestamps",
        "numdupacks_": "dupack_threshold",
        "rtxcur_init_": "initial_rto",
        "segsperack_": "segs_per_ack",
        "interval_": "ack_delay",
        "ecn_": "ecn",
        "RcvBufSize": "rcv_buffer",
        "SndBufSize": "snd_buffer",
    }
)

class _Choices(Mapping[str, tuple[str, ...]]):
    """The names each choosing TCP parameter takes (docs/scenario-files.md): congestion
    controls are the engine registry's, the others their engine enum's (``TCP_PARAMS``), read
    on first use."""

    def __getitem__(self, key: str) -> tuple[str, ...]:
        if key == "cc":
            return (*CC_PARAMS, *CC_CLASSES)
        if TCP_PARAMS.get(key) != "name":
            raise KeyError(key)
        return TCP_PARAMS.choices(key)

    def __iter__(self) -> Iterator[str]:
        return (k for k, kind in TCP_PARAMS.items() if kind == "name")

    def __len__(self) -> int:
        return sum(1 for _ in self)


TCP_CHOICES: Mapping[str, tuple[str, ...]] = _Choices()


@dataclass(frozen=True)
class Profile:
    """A simulator's defaults (``profile = "ns2"`` ...): TCP parameters, headers, queues."""

    name: str
    tcp: Mapping[str, Any]
    udp_header_size: int
    # ns-2's DropTail holds limit-1 waiting packets; see docs/models/links-and-droptail.md.
    queue_ns2: bool
    # The buffer of a link whose queue gives no limit (ns-2 `Queue set limit_ 50`;
    # Linux's default txqueuelen of 1000).
    queue_limit: int
    # The root queue discipline of a link whose queue names no `kind`, above a device queue of
    # the queue's `limit` packets (ns-3's traffic-control layer); None: that queue is a DropTail
    # of `limit` packets. See docs/models/traffic-control.md.
    default_root: str | None = None
    # Serialisation times in whole nanoseconds, rounded to the nearest (ns-3's Time resolution:
    # DataRate::CalculateBytesTxTime); False: exact to the picosecond.
    tx_time_ns: bool = False
    # The traffic-control layer's transmit loop as ns-3.44's (QueueDisc::Run, Transmit,
    # NetDeviceQueue::Wake): the queue key ns3_run's default. docs/models/traffic-control.md.
    ns3_run: bool = False
    # A Tmix application's connections (docs/traffic.md#tmix): TCP keys their two sides take
    # over `tcp` (below [defaults.tcp] and the flow's own), and the closing write's wait
    # (the tmix app's fin_wait) when the application gives none; None: no closing write.
    tmix_tcp: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    tmix_fin_wait: str | None = None


PROFILES: Mapping[str, Profile] = MappingProxyType(
    {
        # ns-2.35 Agent/TCP defaults (tcl/lib/ns-default.tcl).
        "ns2": Profile(
            name="ns2",
            tcp=MappingProxyType(
                {
                    "variant": "reno",
                    "cc": "reno",
                    "sink": "ack-every",
                    "packet_size": 1000,
                    "header_size": 40,
                    "ack_size": 40,
                    "window": 20,
                    "window_init": 2,
                    "window_init_by_size": False,  # Agent/TCP windowInitOption_ 1
                    # TcpAgent::timeout and dupack_action with bugfix_ss_ 1 (its default)
                    "ns2_first_loss": "bugfix_ss",
                    # TcpAgent::ecn and recv_newack_helper (old_ecn_ 0, its default)
                    "ns2_ecn": "ns2",
                    "rtx_timer_before_sample": False,  # Agent/TCP timerfix_ true
                    "sack_exit_clears_recover": True,  # Sack1TcpAgent::recv
                    "idle_rtx_timer": False,
                    "idle_timeout_keeps_window": False,
                    "ns2_qoption": "off",  # Agent/TCP QOption_ 0
                    "ns2_rbp": "off",  # Agent/TCP/Reno/RBP, /Vegas/RBP (tcp-rbp.cc)
                    "ns2_rbp_scale": 0.75,  # rbp_scale_ 0.75
                    "ns2_frto": "off",  # Agent/TCP frto_enabled_ / sfrto_enabled_ 0
                    "sack_partial_ack": False,  # Agent/TCP partial_ack_ false
                    "ts_reset_rto": False,  # Agent/TCP ts_resetRTO_ false
                    "syn_max_sends": 0,  # Agent/TCP max_connects_ -1
                    "control_increase": False,  # Agent/TCP control_increase_ 0
                    "max_cwnd": 0,  # Agent/TCP maxcwnd_ 0
                    # the ns-2 front end sets it where decrease_num_ is not 0.5
                    "ns2_first_decrease": False,
                    # The rfc793 variant's additions (RFC793eduTcpAgent's add793*_).
                    "rfc793_fast_retransmit": False,
                    "rfc793_slow_start": False,
                    "rfc793_jacobson_rto": False,
                    "rfc793_karn": True,
                    "rfc793_backoff": True,
                    "initial_ssthresh": "window",  # ns-2 starts ssthresh_ at window_
                    "dupack_threshold": 3,
                    "min_rto": "200ms",
                    "max_rto": "60s",
                    "initial_rto": "3s",
                    "timer_granularity": "10ms",
                    "segs_per_ack": 2,  # Agent/TCPSink/DelAck: every other segment
                    "ack_delay": "100ms",  # Agent/TCPSink/DelAck interval_
                    "limited_transmit": True,  # Agent/TCP singledup_ 1
                    "bug_fix": True,  # Agent/TCP bugFix_ true
                    "ns2_full_tcp": False,
                    "bare_first_segment": True,  # TcpAgent::output, with syn_ false
                    "precision_reduce": True,  # Agent/TCP precisionReduce_ true
                    "partial_deflation": True,  # Agent/TCP/Newreno partial_window_deflation_ 1
                    "slow_but_steady": False,
                    "exit_recovery_fix": False,
                    "recovery_exit_growth": True,
                    "careful_after_fast_retransmit": True,
                    "ssthresh_flight": False,
                    "less_careful": False,
                    "bugfix_ack": False,
                    "bugfix_ts": False,
                    "dupacks_always_inflate": False,
                    "no_fast_retransmit": False,
                    "old_ack_sends": True,  # Agent/TCP aggressive_maxburst_ 1
                    "send_overhead": 0,  # Agent/TCP overhead_ 0
                    "quick_start": 0,  # Agent/TCP qs_enabled_ false, rate_request_ 0
                    "quick_start_rtt": "50ms",  # Agent/TCP qs_request_mode_ 1, qs_rtt_ 50
                    "quick_start_thresh": 4,  # Agent/TCP qs_thresh_ 4
                    "quick_start_recovery": True,  # Agent/TCP tcp_qs_recovery_ true
                    "ns2_rtt_timer": True,  # TcpAgent::rtt_update, rtt_timeout, rtt_backoff
                    "ns2_boot_time": 0,
                    "ns2_srtt_bits": 3,
                    "ns2_rttvar_bits": 2,
                    "ns2_rttvar_exp": 2,
                    "syn": True,  # Agent/TCP syn_ true, delay_growth_ true
                    "delay_growth": True,  # Agent/TCP delay_growth_ true
                    "max_burst": 0,  # Agent/TCP maxburst_ 0
                    "max_ssthresh": 0,  # Agent/TCP max_ssthresh_ 0
                    "dupack_cwnd_fraction": 0,
                    "delayed_ack": False,
                    # DelAckSink::recv acknowledges segment 0 (the SYN, or the bare first
                    # segment) at once: Agent/TCPSink SYN_immediate_ack_ true.
                    "delack_syn": False,
                    # DelAckSink::recv delays any segment that leaves the cumulative ACK at
                    # itself with none seen above, a retransmitted repeat included.
                    "delack_repeat": True,
                    "delack_gap_fill": False,  # ns-2 RFC2581_immediate_ack_ true
                    "delack_dup_at_once": False,
                    "quick_acks": 0,
                    # Sacker::append_ack: each SACK block adds 2 words to the ACK's size.
                    "sack_block_bytes": 8,
                    "syn_option_bytes": 0,
                    "handshake_ack": False,
                    "adaptive_ack_delay": False,
                    "sack_compression": False,
                    "timestamps": False,  # Agent/TCP timestamps_ false
                    "ts_echo_rfc7323": True,  # Agent/TCPSink ts_echo_bugfix_ true (update_ts)
                    "window_unit": "packets",  # ns-2 counts windows in segments
                    "integer_cwnd": False,  # packet windows truncate ssthresh anyway
                    "ecn": False,  # Agent/TCP ecn_ 0
                    "pacing": False,
                    "psh": False,
                    "hystart": "off",  # ns-2.35's CUBIC predates HyStart
                    "rto_rule": "rfc6298",  # with min_rto as the floor of the RTO
                    "prr": False,  # Sack1's pipe rule
                    "rfc6675_recovery": False,  # ScoreBoard: every hole below the top lost
                    "rack": False,
                    "cwnd_validation": False,
                    "rcv_buffer": None,  # ns-2's window_ is a fixed advertised window
                    "read_rate": None,
                    "snd_buffer": None,
                    "cc_params": {},
                    "ns3_newreno_growth": False,
                    "ns3_cc_defaults": False,
                    "ns3_cwnd_limited": False,
                    "ns3_srtt_samples": False,
                    "ns3_ts_ms": False,
                    "ns3_rate_sample": False,
                    "growth_per_ack": False,
                }
            ),
            # ns-2's Agent/UDP puts exactly packetSize_ bytes on the wire.
            udp_header_size=0,
            queue_ns2=True,
            queue_limit=50,
            # ns-2.35's Tmix runs each side of a connection on a FullTcp agent (Tmix instproc
            # alloc-tcp), as `ackclock ns2` builds it (ns2/build.py _tmix_flow): FullTcpAgent's
            # own rules (foutput's idle restart from the initial window, the delayed-ACK
            # timer's ticks, dupack_action), which never read singledup_ or bugfix_ss_, and
            # keep recover_ when fast recovery ends (only Sack1TcpAgent::recv clears it); and
            # it closes a connection with its closing ADU fin_time_ (1 s) after the last write
            # (Tmix::read_one_cvec, TmixApp::timeout).
            tmix_tcp=MappingProxyType({"ns2_full_tcp": True, "limited_transmit": False,
                                       "ns2_first_loss": "off",
                                       "sack_exit_clears_recover": False}),
            tmix_fin_wait="1s",
        ),
        # Linux 6.x defaults, as far as the engine models them: SACK loss recovery with PRR
        # (Linux adds RACK, not modelled), CUBIC with HyStart, Linux's RTO rule, cwnd grown only
        # while it limits the sender, and quick ACKs at the start of a connection.
        "linux": Profile(
            name="linux",
            tcp=MappingProxyType(
                {
                    "variant": "sack",
                    "cc": "cubic",
                    "sink": "sack",
                    "packet_size": 1448,
                    # Ethernet 14 + IPv4 20 + TCP 20 + timestamps 12: a 1514-byte frame
                    "header_size": 66,
                    "ack_size": 66,
                    "window": 10000,
                    "window_init": 10,  # RFC 6928
                    "window_init_by_size": False,
                    "ns2_first_loss": "off",
                    "ns2_ecn": "off",
                    "rtx_timer_before_sample": False,
                    "sack_exit_clears_recover": False,
                    "idle_rtx_timer": False,
                    "idle_timeout_keeps_window": False,
                    "ns2_qoption": "off",
                    "ns2_rbp": "off",
                    "ns2_rbp_scale": 0.75,
                    "ns2_frto": "off",
                    "sack_partial_ack": False,
                    "ts_reset_rto": False,
                    "syn_max_sends": 0,
                    "control_increase": False,
                    "max_cwnd": 0,
                    "ns2_first_decrease": False,
                    # The rfc793 variant's additions (RFC793eduTcpAgent's add793*_).
                    "rfc793_fast_retransmit": False,
                    "rfc793_slow_start": False,
                    "rfc793_jacobson_rto": False,
                    "rfc793_karn": True,
                    "rfc793_backoff": True,
                    "initial_ssthresh": None,
                    "dupack_threshold": 3,
                    "min_rto": "200ms",  # TCP_RTO_MIN
                    "max_rto": "120s",  # TCP_RTO_MAX
                    "initial_rto": "1s",  # RFC 6298 2.1
                    "timer_granularity": "1ms",
                    "segs_per_ack": 2,  # RFC 1122 4.2.3.2: at least every second full segment
                    "ack_delay": "40ms",  # TCP_DELACK_MIN
                    "limited_transmit": True,  # RFC 3042, always on in Linux
                    "bug_fix": True,  # RFC 6582 section 4.1's check (Linux's high_seq)
                    "ns2_full_tcp": False,
                    "bare_first_segment": False,
                    "precision_reduce": True,
                    "partial_deflation": True,
                    "slow_but_steady": False,
                    "exit_recovery_fix": False,
                    "recovery_exit_growth": True,
                    "careful_after_fast_retransmit": True,
                    "ssthresh_flight": False,
                    "less_careful": False,
                    "bugfix_ack": False,
                    "bugfix_ts": False,
                    "dupacks_always_inflate": False,
                    "no_fast_retransmit": False,
                    "old_ack_sends": False,
                    "send_overhead": 0,
                    "quick_start": 0,
                    "quick_start_rtt": "50ms",
                    "quick_start_thresh": 4,
                    "quick_start_recovery": True,
                    "ns2_rtt_timer": False,
                    "ns2_boot_time": 0,
                    "ns2_srtt_bits": 3,
                    "ns2_rttvar_bits": 2,
                    "ns2_rttvar_exp": 2,
                    "syn": True,  # the three-way handshake's round trip
                    "delay_growth": True,  # Agent/TCP delay_growth_ true
                    "max_burst": 0,
                    "max_ssthresh": 0,
                    "dupack_cwnd_fraction": 0,
                    "delayed_ack": True,  # the sack sink delays ACKs (segs_per_ack, ack_delay)
                    "delack_syn": False,  # the handshake is acknowledged at once
                    "delack_repeat": False,  # tcp_send_dupack: a repeat is ACKed at once
                    "delack_gap_fill": False,
                    "delack_dup_at_once": False,
                    "quick_acks": 16,  # TCP_MAX_QUICKACKS at the start of a connection
                    "sack_block_bytes": 0,  # SACK option bytes not modelled
                    "syn_option_bytes": 0,
                    "handshake_ack": False,
                    # tcp_event_data_recv / tcp_delack_timer_handler / tcp_send_delayed_ack
                    "adaptive_ack_delay": True,
                    "sack_compression": True,  # __tcp_ack_snd_check, tcp_comp_sack_nr 44
                    "timestamps": True,  # on by default in Linux; header_size 52 includes them
                    "ts_echo_rfc7323": True,
                    "window_unit": "bytes",  # byte counting of acknowledged data
                    "integer_cwnd": True,  # snd_cwnd in segments: tcp_reno_ssthresh's cwnd >> 1
                    "ecn": False,  # net.ipv4.tcp_ecn = 2: ECN only when the peer asks
                    "pacing": False,  # no fq, default cc not bbr; BBR paces regardless
                    "psh": True,  # PSH per TSO piece; tcp_measure_rcv_mss, tcp_cleanup_rbuf
                    "hystart": "linux",  # tcp_cubic module parameter hystart=1
                    "rto_rule": "linux",  # RTO = srtt + max(4 rttvar, 200 ms)
                    "prr": True,  # since Linux 3.2
                    "rfc6675_recovery": False,  # rack decides Linux's losses
                    "rack": True,  # RACK-TLP, Linux's default since 4.18 (tcp_recovery = 1)
                    "cwnd_validation": True,  # tcp_is_cwnd_limited
                    "rcv_buffer": None,  # autotuned in Linux; set it to model a small buffer
                    "read_rate": None,
                    "snd_buffer": None,
                    "cc_params": {},
                    "ns3_newreno_growth": False,
                    "ns3_cc_defaults": False,
                    "ns3_cwnd_limited": False,
                    "ns3_srtt_samples": False,
                    "ns3_ts_ms": False,
                    "ns3_rate_sample": False,
                    "growth_per_ack": False,
                }
            ),
            udp_header_size=28,  # IPv4 20 + UDP 8
            queue_ns2=False,
            queue_limit=1000,
        ),
        # ns-3.44's defaults (TcpSocket, TcpSocketBase, TcpL4Protocol, TcpCubic attributes), as far
        # as the engine models them, over point-to-point links (PointToPointNetDevice's 2-byte
        # PppHeader in every frame). Not modelled: its 3 s SYN timeout (ConnTimeout; the engine
        # has one initial RTO).
        "ns3": Profile(
            name="ns3",
            tcp=MappingProxyType(
                {
                    "variant": "sack",  # TcpSocketBase::Sack true
                    "cc": "cubic",  # TcpL4Protocol::SocketType TcpCubic (since ns-3.34)
                    "sink": "sack",
                    "packet_size": 536,  # TcpSocket::SegmentSize
                    # PPP 2 + IPv4 20 + TCP 20 + timestamp option 10 padded to 12
                    "header_size": 54,
                    "ack_size": 54,
                    "window": 10000,  # window scaling on: the receive buffer limits it
                    "window_init": 10,  # TcpSocket::InitialCwnd
                    "window_init_by_size": False,
                    "ns2_first_loss": "off",
                    "ns2_ecn": "off",
                    "rtx_timer_before_sample": False,
                    "sack_exit_clears_recover": False,
                    "idle_rtx_timer": False,
                    "idle_timeout_keeps_window": False,
                    "ns2_qoption": "off",
                    "ns2_rbp": "off",
                    "ns2_rbp_scale": 0.75,
                    "ns2_frto": "off",
                    "sack_partial_ack": False,
                    "ts_reset_rto": False,
                    "syn_max_sends": 0,
                    "control_increase": False,
                    "max_cwnd": 0,
                    "ns2_first_decrease": False,
                    # The rfc793 variant's additions (RFC793eduTcpAgent's add793*_).
                    "rfc793_fast_retransmit": False,
                    "rfc793_slow_start": False,
                    "rfc793_jacobson_rto": False,
                    "rfc793_karn": True,
                    "rfc793_backoff": True,
                    "initial_ssthresh": None,  # InitialSlowStartThreshold UINT32_MAX
                    "dupack_threshold": 3,  # ReTxThreshold
                    "min_rto": "1s",  # TcpSocketBase::MinRto
                    "max_rto": "60s",  # RFC 6298 2.5's upper bound
                    "initial_rto": "1s",  # RttEstimator::InitialEstimation
                    "timer_granularity": "1ms",  # ClockGranularity
                    "segs_per_ack": 2,  # TcpSocket::DelAckCount
                    "ack_delay": "200ms",  # TcpSocket::DelAckTimeout
                    "limited_transmit": True,  # LimitedTransmit
                    "bug_fix": True,  # RFC 6582's recover check (TcpSocketBase m_recover)
                    "ns2_full_tcp": False,
                    "bare_first_segment": False,
                    "precision_reduce": True,
                    "partial_deflation": True,
                    "slow_but_steady": False,
                    "exit_recovery_fix": False,
                    "recovery_exit_growth": True,
                    "careful_after_fast_retransmit": True,
                    "ssthresh_flight": False,
                    "less_careful": False,
                    "bugfix_ack": False,
                    "bugfix_ts": False,
                    "dupacks_always_inflate": False,
                    "no_fast_retransmit": False,
                    "old_ack_sends": False,
                    "send_overhead": 0,
                    "quick_start": 0,
                    "quick_start_rtt": "50ms",
                    "quick_start_thresh": 4,
                    "quick_start_recovery": True,
                    "ns2_rtt_timer": False,
                    "ns2_boot_time": 0,
                    "ns2_srtt_bits": 3,
                    "ns2_rttvar_bits": 2,
                    "ns2_rttvar_exp": 2,
                    "syn": True,
                    "delay_growth": True,  # Agent/TCP delay_growth_ true
                    "max_burst": 0,
                    "max_ssthresh": 0,
                    "dupack_cwnd_fraction": 0,
                    "delayed_ack": True,
                    "delack_syn": False,
                    "delack_repeat": False,
                    "delack_gap_fill": False,
                    "delack_dup_at_once": False,
                    # TcpSocketBase::ProcessSynRcvd: "Always respond to first data packet"
                    "quick_acks": 1,
                    # TcpOptionSack: 2 + 8 per block, the 2 in the timestamp's padding
                    "sack_block_bytes": 8,
                    # TcpSocketBase::SendEmptyPacket: window scale (3) and SACK-permitted (2)
                    # on SYNs beside the timestamp (10): a 36-byte TCP header, not 32
                    "syn_option_bytes": 4,
                    "handshake_ack": True,  # ProcessSynSent: SendEmptyPacket(ACK), then data
                    "adaptive_ack_delay": False,  # TcpSocket::DelAckTimeout, fixed
                    "sack_compression": False,
                    "timestamps": True,  # TcpSocketBase::Timestamp
                    "ts_echo_rfc7323": True,
                    "window_unit": "bytes",
                    "integer_cwnd": False,  # ns-3 keeps cWnd and ssThresh in bytes
                    "ecn": False,  # UseEcn Off
                    "pacing": False,
                    "psh": False,
                    "hystart": "ns3",  # TcpCubic::HyStart, with ns-3's thresholds
                    "rto_rule": "rfc6298",  # TcpSocketBase: max(MinRto, srtt + 4 rttvar)
                    "prr": True,  # TcpL4Protocol::RecoveryType TcpPrrRecovery
                    # TcpTxBuffer::UpdateLostCount, BytesInFlight; TcpClassicRecovery
                    "rfc6675_recovery": True,
                    "rack": False,  # ns-3.44 has no RACK
                    "cwnd_validation": False,  # ns-3 grows cwnd however little it is used
                    "rcv_buffer": 131072,  # TcpSocket::RcvBufSize
                    "read_rate": None,
                    "snd_buffer": 131072,  # TcpSocket::SndBufSize
                    "cc_params": {},
                    "ns3_newreno_growth": True,  # TcpNewReno::SlowStart, CongestionAvoidance
                    "ns3_cc_defaults": True,  # each class's attribute defaults
                    # TcpSocketBase::SendDataPacket's m_isCwndLimited, which TcpCubic and
                    # TcpLinuxReno::IncreaseWindow require
                    "ns3_cwnd_limited": True,
                    # TcpSocketBase::ProcessAck passes m_tcb->m_srtt to every PktsAcked
                    "ns3_srtt_samples": True,
                    # TcpOptionTS::NowToTsValue counts whole ms; CalculateRttSample
                    "ns3_ts_ms": True,
                    "ns3_rate_sample": True,
                    "growth_per_ack": False,  # ns3_newreno_growth decides, per class
                }
            ),
            udp_header_size=30,  # PPP 2 + IPv4 20 + UDP 8
            queue_ns2=False,
            # A point-to-point device's DropTail queue (100 packets).
            queue_limit=100,
            # Ipv4AddressHelper::Assign installs TrafficControlHelper::Default, an
            # FqCoDelQueueDisc, as the root queue disc of every device that has none
            # (ipv4-address-helper.cc; traffic-control-helper.cc).
            default_root="fq_codel",
            tx_time_ns=True,
            ns3_run=True,
        ),
        # IKRSimLib's TCP (the IKR TCP Library, University of Stuttgart, 2000-2004, as ported to
        # IT++: itpp/protocol/tcp.cpp, TCP_Sender and TCP_Receiver) with the parameter file of
        # seed 002 (its Appendix B); docs/profiles.md says what is modelled and what is not.
        "ikr": Profile(
            name="ikr",
            tcp=MappingProxyType(
                {
                    "variant": "reno",  # Version = "Reno"
                    "cc": "reno",
                    "sink": "delack",  # DelayedACK = true
                    "packet_size": 1460,  # MSS
                    "header_size": 40,  # TCPIPHeaderLength
                    "ack_size": 40,
                    "window": 32,  # MaxCWnd = 46720 B (32 segments)
                    "window_init": 2,  # InitialCWnd = 2920 B
                    "window_init_by_size": False,
                    "ns2_first_loss": "off",
                    "ns2_ecn": "off",
                    "rtx_timer_before_sample": False,
                    "sack_exit_clears_recover": False,
                    "idle_rtx_timer": False,
                    "idle_timeout_keeps_window": False,
                    "ns2_qoption": "off",
                    "ns2_rbp": "off",
                    "ns2_rbp_scale": 0.75,
                    "ns2_frto": "off",
                    "sack_partial_ack": False,
                    "ts_reset_rto": False,
                    "syn_max_sends": 0,
                    "control_increase": False,
                    "max_cwnd": 0,
                    "ns2_first_decrease": False,
                    # The rfc793 variant's additions (RFC793eduTcpAgent's add793*_).
                    "rfc793_fast_retransmit": False,
                    "rfc793_slow_start": False,
                    "rfc793_jacobson_rto": False,
                    "rfc793_karn": True,
                    "rfc793_backoff": True,
                    "initial_ssthresh": "window",  # InitialSSThresh = MaxCWnd
                    "dupack_threshold": 3,  # DupACKThreshold
                    # CalcRTOValue: no floor besides the rounding up to TimerGranularity
                    "min_rto": "200ms",
                    "max_rto": "10s",  # MaxRTO = 10000 ms
                    "initial_rto": "1s",  # InitialRTT = 1000 ms
                    "timer_granularity": "200ms",  # TimerGranularity
                    # TCP_Receiver::SendACK: an ACK once the window moved by 2 MSS
                    "segs_per_ack": 2,
                    "ack_delay": "200ms",  # ACKDelayTime
                    "limited_transmit": False,  # HandleACK sends nothing on the first dupacks
                    # IgnoreDupACKOnTORecovery with CarefulMulFastRtxAvoidance; IKR applies it
                    # after timeouts only, not after a fast retransmit
                    "bug_fix": True,
                    "ns2_full_tcp": False,
                    "bare_first_segment": False,
                    "precision_reduce": True,
                    "partial_deflation": True,
                    "slow_but_steady": False,
                    "exit_recovery_fix": False,
                    # HandleACK: FinishFastRecovery (cwnd = ssthresh) instead of the growth
                    "recovery_exit_growth": False,
                    # fRecoveryTO is set by HandleRtxTimeout only: a second fast retransmit may
                    # follow the first within one window
                    "careful_after_fast_retransmit": False,
                    # ReduceSSThresh (CarefulSSThreshReduction): min(cwnd, flight, rwnd) / 2
                    "ssthresh_flight": True,
                    "less_careful": False,
                    "bugfix_ack": False,
                    "bugfix_ts": False,
                    "dupacks_always_inflate": False,
                    "no_fast_retransmit": False,
                    "old_ack_sends": False,
                    "send_overhead": 0,
                    "quick_start": 0,
                    "quick_start_rtt": "50ms",
                    "quick_start_thresh": 4,
                    "quick_start_recovery": True,
                    "ns2_rtt_timer": False,
                    "ns2_boot_time": 0,
                    "ns2_srtt_bits": 3,
                    "ns2_rttvar_bits": 2,
                    "ns2_rttvar_exp": 2,
                    "syn": False,  # no connection set-up
                    "delay_growth": True,  # Agent/TCP delay_growth_ true
                    "max_burst": 0,
                    "max_ssthresh": 0,
                    "dupack_cwnd_fraction": 0,
                    "delayed_ack": False,
                    "delack_syn": False,
                    "delack_repeat": False,
                    # ReceiveDataPacket: only an out-of-order segment is acknowledged at
                    # once; one that fills part of a hole waits like a new one (SendACK(false))
                    "delack_gap_fill": True,
                    # ... but a duplicate (end <= next expected) is out of order: SendACK(true)
                    "delack_dup_at_once": True,
                    "quick_acks": 0,
                    "sack_block_bytes": 0,
                    "syn_option_bytes": 0,
                    "handshake_ack": False,
                    "adaptive_ack_delay": False,
                    "sack_compression": False,
                    "timestamps": False,  # TCP_TIMESTAMPS false
                    "ts_echo_rfc7323": False,
                    "window_unit": "bytes",  # fCWnd, fSSThresh in bytes; ReduceSSThresh exact
                    "integer_cwnd": False,
                    "ecn": False,
                    "pacing": False,
                    "psh": False,
                    "hystart": "off",
                    "rto_rule": "ikr",  # UpdateRTTVariables, CalcRTOValue (tcp/rtt.rs)
                    "prr": False,
                    "rfc6675_recovery": False,
                    "rack": False,
                    "cwnd_validation": False,
                    "rcv_buffer": None,  # MaxCWnd limits first (receiver BufferSize 65636 B)
                    "read_rate": None,
                    "snd_buffer": None,
                    "cc_params": {},
                    "ns3_newreno_growth": False,
                    "ns3_cc_defaults": False,
                    "ns3_cwnd_limited": False,
                    "ns3_srtt_samples": False,
                    "ns3_ts_ms": False,
                    "ns3_rate_sample": False,
                    # HandleACK: slow start fCWnd += MSS, congestion avoidance
                    # fCWnd += max(MSS * MSS / fCWnd, 1) per new ACK
                    "growth_per_ack": True,
                }
            ),
            udp_header_size=0,  # the TCP library has no UDP; as ns-2, the size given
            # IKRSimLib's QueueServer holds BufferSize packets (a buffer of one works, seed 002
            # section 5); BufferSize = -1 is unlimited.
            queue_ns2=False,
            queue_limit=1_000_000,
        ),
    }
)


def get_profile(name: object, path: str = "profile") -> Profile:
    if not isinstance(name, str) or name not in PROFILES:
        choices = ", ".join(quote(p) for p in PROFILES)
        raise ScenarioError(f"expected one of {choices}, got {quote(name)}", path=path)
    return PROFILES[name]


def canonical_tcp_key(key: str) -> str | None:
    """The canonical name of a TCP parameter or its ns-2 alias; None if it is neither."""
    if key in TCP_PARAMS:
        return key
    return TCP_ALIASES.get(key)


def normalize_tcp_params(params: Mapping[str, Any], path: str) -> dict[str, Any]:
    """Maps aliases to canonical names; unknown or doubly given parameters are errors.

    ``path`` is the table the parameters sit in (``"flow[0]"``, ``"defaults.tcp"``).
    """
    out: dict[str, Any] = {}
    given_as: dict[str, str] = {}
    for key, value in params.items():
        name = canonical_tcp_key(key)
        if name is None:
            raise ScenarioError(
                f"unknown TCP parameter; expected one of {', '.join(TCP_PARAMS)}"
                f" (or an ns-2 alias: {', '.join(TCP_ALIASES)})",
                path=f"{path}.{key}",
            )
        if name in out:
            raise ScenarioError(
                f"given twice, as {given_as[name]} and as {key}", path=f"{path}.{key}"
            )
        out[name] = value
        given_as[name] = key
    return out


class _FromEngine(Mapping[str, Mapping[str, Any]]):
    """A table made from the engine's congestion-control registry (``tcp/cc``, read through
    ``ackclock._core.cc_registry``) on first use: the engine owns each algorithm's parameters,
    defaults, ranges and aliases, and the front end reads them from it."""

    def __init__(self, make: Callable[[Mapping[str, Any]], Mapping[str, Any]]) -> None:
        self._make = make
        self._table: dict[str, Mapping[str, Any]] | None = None

    def _get(self) -> dict[str, Mapping[str, Any]]:
        if self._table is None:
            from .run import engine

            self._table = {
                a["name"]: MappingProxyType(dict(self._make(a)))
                for a in engine().cc_registry()
            }
        return self._table

    def __getitem__(self, key: str) -> Mapping[str, Any]:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def _check(p: Mapping[str, Any]) -> tuple[Callable[[float], bool], str]:
    """A parameter's range from the registry as (test, the words an error uses)."""
    lo, hi = p["min"], p["max"]

    def ok(x: float) -> bool:
        if p["integer"] and not float(x).is_integer():
            return False
        if lo is not None and (x < lo or (x == lo and not p["min_inclusive"])):
            return False
        return hi is None or not (x > hi or (x == hi and not p["max_inclusive"]))

    return ok, str(p["expected"])


# ns-2's names for congestion-control parameters (seed 003's script sets them on Agent/TCP),
# accepted in cc_params beside the canonical names of docs/models/congestion-control.md.
CC_ALIASES: Mapping[str, Mapping[str, str]] = _FromEngine(
    lambda a: {p["ns2"]: p["name"] for p in a["params"] if p["ns2"]})
# ns-3's attribute names for the same quantities (times in seconds), accepted likewise.
CC_NS3_ALIASES: Mapping[str, Mapping[str, str]] = _FromEngine(
    lambda a: {p["ns3"]: p["name"] for p in a["params"] if p["ns3"]})
# Each algorithm's parameters with what they must be.
CC_PARAMS: Mapping[str, Mapping[str, tuple[Callable[[float], bool], str]]] = _FromEngine(
    lambda a: {p["name"]: _check(p) for p in a["params"]})
# Each algorithm's parameters' defaults.
CC_DEFAULTS: Mapping[str, Mapping[str, float]] = _FromEngine(
    lambda a: {p["name"]: p["default"] for p in a["params"]})


class _Classes(Mapping[str, str]):
    """ns-3.44's class names (``TcpNewReno``, ``TcpCubic``, ...), accepted as ``cc`` values:
    each maps to the algorithm that stands for it (the engine registry's ``ns3_classes``)."""

    def __init__(self) -> None:
        self._table: dict[str, str] | None = None

    def _get(self) -> dict[str, str]:
        if self._table is None:
            from .run import engine

            self._table = {c: a["name"] for a in engine().cc_registry()
                           for c in a["ns3_classes"]}
        return self._table

    def __getitem__(self, key: str) -> str:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


CC_CLASSES: Mapping[str, str] = _Classes()


def canonical_cc(name: str) -> str:
    """The algorithm a ``cc`` value names: itself, or the one an ns-3 class name stands for."""
    return CC_CLASSES.get(name, name)

