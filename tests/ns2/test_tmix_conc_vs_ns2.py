"""A CONC (concurrent) Tmix connection's opening, live against ns-2.35 (skipped without `ns`).
ns-2.35's `TmixApp::start` writes each side's first ADU at once, whatever the wait before it
(`send_first`: the ADU waits for nothing received, so the timer is armed at 0), and both Tmix
agents `listen()`: a write in LISTEN sends a SYN (`FullTcpAgent::advance_bytes`), so with data
on both sides the SYNs cross and each FullTcp, in SYN_SENT, answers the other's SYN with a
SYN-ACK (`FullTcpAgent::recv`; RFC 9293 3.5 figure 7). Data leave one round trip after the
SYNs. ackclock's halves under `ackclock ns2` each open with a SYN acknowledged by the peer: the
same times, a pure ACK in place of each SYN-ACK."""

from __future__ import annotations

import pytest
from conftest import tmix_script

HEAD = "CONC 175000 2 2 0 1\nw 65535 65535\nr 50000\nl 0.000000 0.000000\n"
CASES = {
    # Waits only between a side's ADUs.
    "plain": "c> 3000\nt> 500000\nc< 2000\nt< 300000\nc> 1000\nc< 4000\n",
    # A wait before each side's first ADU: ns-2.35 ignores it.
    "leading-waits": "t> 400000\nc> 3000\nt> 500000\nt< 200000\nc< 2000\nt< 300000\nc> 1000\n"
                     "c< 4000\n",
}


def arrivals(trace: str, node: str) -> list[tuple[float, int]]:
    """(time, size) of the packets reaching `node` (0: the initiator's, 1: the acceptor's)."""
    return [(float(f[1]), int(f[5])) for f in (line.split() for line in trace.splitlines())
            if f[0] == "r" and f[3] == node]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_conc_connection_opens_from_both_sides_as_ns2s(vs_ns2, case: str) -> None:
    both = vs_ns2(tmix_script(HEAD + CASES[case], "3"))
    assert both.ns.code == 0, both.ns.err
    assert both.ac.code == 0, both.ac.err
    for node in ("0", "1"):
        ns = arrivals(both.ns.file("out.tr"), node)
        ours = arrivals(both.ac.file("out.tr"), node)
        # The peer's SYN at the connection's start (0.175 s + 75 ms), whatever its first wait,
        # then its SYN-ACK (ours: the ACK of our SYN) a round trip after ours.
        assert [s for _, s in ns[:2]] == [s for _, s in ours[:2]] == [40, 40]
        assert ns[0][0] == pytest.approx(0.250001, abs=2e-6)
        assert ours[0][0] == pytest.approx(ns[0][0], abs=2e-6)
        assert ours[1][0] == pytest.approx(ns[1][0], abs=2e-6)
        # The first ADU's data, from both sides, when ns-2.35's arrive.
        first = 3 if node == "1" else 2  # 3000 B initiator, 2000 B acceptor
        ns_data = [p for p in ns if p[1] > 42][:first]
        our_data = [p for p in ours if p[1] > 42][:first]
        assert [s for _, s in our_data] == [s for _, s in ns_data]
        assert max(abs(a - b) for (a, _), (b, _) in zip(our_data, ns_data, strict=True)) < 2e-6
    # All of the initiator's data (its ACKs of the acceptor's data ride on them in ns-2.35,
    # on pure ACKs in ackclock; the acceptor's later ADU then goes out when that ACK comes).
    ns = [p for p in arrivals(both.ns.file("out.tr"), "1") if p[1] > 42]
    ours = [p for p in arrivals(both.ac.file("out.tr"), "1") if p[1] > 42]
    assert [s for _, s in ours] == [s for _, s in ns] == [1500, 1500, 120, 1040]
    assert max(abs(a - b) for (a, _), (b, _) in zip(ours, ns, strict=True)) < 2e-6
