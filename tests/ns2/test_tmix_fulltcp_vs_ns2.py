"""Each side of a Tmix connection is an ns-2.35 FullTcp agent, live against ns-2.35 (skipped
without `ns`): Tmix allocates `Agent/TCP/FullTcp` for its default `set-TCP Reno` (tmix.cc's
tcptype_, `Tmix instproc alloc-tcp`), `Agent/TCP/FullTcp/<type>` otherwise, and the agent's
own rules apply:
- after an idle time longer than its RTO, a write restarts from the initial window, 2
  segments (`FullTcpAgent::foutput`'s `idle_restart`, `slowdown(CLOSE_CWND_INIT)`), where a
  one-way agent closes to 1 on its idle timeout (`TcpAgent::timeout`);
- a held ACK leaves at the next tick of the delayed-ACK timer, every `interval_` from time 0
  (`FullTcpAgent::recv` starts `delack_timer_` at the next multiple of `interval_`,
  `FullTcpAgent::timeout(TCP_TIMER_DELACK)`), not `interval_` after the segment;
- with `timestamps_ 1` every segment, pure ACKs included, carries `ts_option_size_` (10) more
  header (`FullTcpAgent::headersize`)."""

from __future__ import annotations

import pytest
from conftest import tmix_script


def script(adus: str, end: str, extra: str = "", tcp: str = "") -> str:
    vec = "SEQ 100000 1 0 1\nw 65535 65535\nr 50000\nl 0.000000 0.000000\n" + adus
    return tmix_script(vec, end, extra=extra, tmix=tcp)


def arrivals(trace: str, node: str) -> list[tuple[float, int]]:
    """(time, size) of the packets reaching `node` (0: the initiator, 1: the acceptor)."""
    return [(float(f[1]), int(f[5])) for f in map(str.split, trace.splitlines())
            if f[0] == "r" and f[3] == node]


# Two 30 000-byte responses, the second after 3 s of quiet (longer than the RTO).
IDLE = "> 300\nt 1000\n< 30000\nt 3000000\n> 300\nt 1000\n< 30000\n"


@pytest.mark.parametrize("tcp", ["", "$t set-TCP Newreno", "$t set-TCP Sack"])
def test_after_idle_a_tmix_side_restarts_from_its_initial_window(vs_ns2, tcp: str) -> None:
    both = vs_ns2(script(IDLE, "10", tcp=tcp))
    assert both.ns.code == 0, both.ns.err
    assert both.ac.code == 0, both.ac.err
    ns = [t for t, s in arrivals(both.ns.file("out.tr"), "0") if s >= 1000]
    ours = [t for t, s in arrivals(both.ac.file("out.tr"), "0") if s >= 1000]
    # Every data segment of both responses reaches the initiator when ns-2.35's does.
    assert len(ours) == len(ns) == 40
    assert max(abs(a - b) for a, b in zip(ours, ns, strict=True)) < 2e-6
    # The second response opens with two segments back to back, 3 s after the first.
    second = [t for t in ns if t > 4.0]
    assert second[1] - second[0] < 1e-4 and second[2] - second[1] > 0.1


# A one-segment response, then (after a think time) a four-segment one: each leaves the
# initiator's receiver one segment short of segsperack_, for the delayed-ACK timer.
DELACK = "> 300\nt 1000\n< 1000\nt 330000\n> 300\nt 1000\n< 4000\n"


def test_a_tmix_sides_delayed_ack_leaves_on_the_timers_ticks(vs_ns2) -> None:
    both = vs_ns2(script(DELACK, "5"))
    assert both.ns.code == 0, both.ns.err
    assert both.ac.code == 0, both.ac.err

    def acks_after_responses(trace: str) -> list[float]:
        data = [t for t, s in arrivals(trace, "0") if s > 100]
        acks = [t for t, s in arrivals(trace, "1") if s == 40]
        # The last segment of each response, and the first ACK the acceptor gets after it.
        lasts = [data[0], data[-1]]
        return [min(a for a in acks if a > t) for t in lasts]

    ns = acks_after_responses(both.ns.file("out.tr"))
    ours = acks_after_responses(both.ac.file("out.tr"))
    assert ours == pytest.approx(ns, abs=2e-6)
    # The ticks: 0.5 s and 1.1 s, plus the 75 ms back to the acceptor.
    assert ns == pytest.approx([0.575001, 1.175001], abs=1e-5)


def test_with_timestamps_a_tmix_sides_header_is_ten_bytes_longer(vs_ns2) -> None:
    both = vs_ns2(script(DELACK, "5", extra="Agent/TCP set timestamps_ 1"))
    assert both.ns.code == 0, both.ns.err
    assert both.ac.code == 0, both.ac.err
    for node in ("0", "1"):
        ns = arrivals(both.ns.file("out.tr"), node)
        ours = arrivals(both.ac.file("out.tr"), node)
        # ns-2's ACKs ride on data where ackclock's travel alone: the sizes, not the counts.
        assert {s for _, s in ours} == {s for _, s in ns}
    assert {s for _, s in arrivals(both.ns.file("out.tr"), "0")} == {50, 1050, 1510, 1130, 52}
