"""How a Tmix connection closes, live against ns-2.35 (skipped without `ns`): ns-2.35's Tmix
gives the side of a vector's last ADU a closing ADU (`Tmix::read_one_cvec`), due `fin_time_`
after that side's last write (1 s, `set-fin-time` in microseconds; a SEQ vector's trailing `t`
for that connection); `TmixApp::timeout` then
writes 2 bytes and the FIN (`sendmsg(2, "MSG_EOF")`). That write goes out as any other
(`FullTcpAgent::advance_bytes`, `send_much` with `maxburst_`): under `maxburst_ 2` and
`segsperack_ 2`, where each ACK of two segments lets two more go, a long last ADU still going
out then keeps four segments in flight instead of two (seed 003's background script,
docs/examples/seed003.md). The data segments reaching the receiver, one by one, and the
closing segment of a short exchange arrive when ns-2.35's do."""

from __future__ import annotations

import pytest
from conftest import tmix_script


def vector(rtt_us: int, *adus: str) -> str:
    return (f"SEQ 100000 1 0 1\nw 65535 65535\nr {rtt_us}\nl 0.000000 0.000000\n"
            + "\n".join(adus) + "\n")


# A 68 MB response to a 300-byte request: the closing write comes while it is going out.
BULK = ("> 300", "t 1000", "< 68522666")

CASES = {
    # Seed 003's path and delay box (150 ms round trips), Tmix's default fin_time_: the
    # flight goes from 2 to 4 segments 1 s after the response's write.
    "bulk": (vector(50000, *BULK), "", "20"),
    # A 350 ms round trip and a 2.5 s fin_time_: the step comes 2.5 s after the write.
    "bulk-long-rtt": (vector(250000, *BULK), "$t set-fin-time 2500000", "20"),
    # The initiator's 68 MB alone: the acceptor, without ADUs, is done from the start
    # (`TmixApp::get_current_ADU`), so the initiator's closing write comes 1 s after its own.
    "one-sided": (vector(50000, "> 68522666"), "", "20"),
    # A response all acknowledged before the closing write: 2 bytes and the FIN, alone.
    "short": (vector(20000, "> 300", "t 1000", "< 5000"), "", "5"),
    "short-fin-time": (vector(20000, "> 300", "t 1000", "< 5000"), "$t set-fin-time 300000",
                       "5"),
    # A trailing think time is that connection's own fin_time_ (Tmix::read_one_cvec), here in
    # place of the 2 s set-fin-time.
    "short-trailing-t": (vector(20000, "> 300", "t 1000", "< 5000", "t 300000"),
                         "$t set-fin-time 2000000", "5"),
}


def arrivals(trace: str, smallest: int, node: str = "0") -> list[tuple[float, int]]:
    """(time, size) of the packets of at least `smallest` bytes reaching `node` (0: the
    initiator's, 1: the acceptor's)."""
    out = []
    for line in trace.splitlines():
        f = line.split()
        if f[0] == "r" and f[3] == node and int(f[5]) >= smallest:
            out.append((float(f[1]), int(f[5])))
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_tmix_connection_closes_as_ns2s(vs_ns2, case: str) -> None:
    vec, fin, end = CASES[case]
    both = vs_ns2(tmix_script(vec, end, tmix=fin))
    assert both.ns.code == 0, both.ns.err
    assert both.ac.code == 0, both.ac.err
    to = "1" if case == "one-sided" else "0"
    ns = arrivals(both.ns.file("out.tr"), 42, to)
    ours = arrivals(both.ac.file("out.tr"), 42, to)
    if case.startswith("short"):
        # ns-2 acknowledges on data and the FIN; ackclock's half-connections apart: the
        # acceptor's packets of 42 bytes and more are its data and its closing segment.
        wait = 0.3 if "fin-time" in case or "trailing" in case else 1.0
        assert [s for _, s in ours] == [s for _, s in ns] == [1500, 1500, 1500, 660, 42]
        assert ours[-1][0] == pytest.approx(ns[-1][0], abs=2e-6)
        # The closing write comes fin_time_ after the response's, as do their arrivals.
        assert ns[-1][0] - ns[0][0] == pytest.approx(wait, abs=1e-4)
        return
    # Data segments one by one (ns-2's carry a 10-byte larger header here: none, as
    # timestamps are off): the same count and times within 2 us.
    assert len(ours) == len(ns)
    assert max(abs(a - b) for (a, _), (b, _) in zip(ours, ns, strict=True)) < 2e-6
    rtt = 0.35 if case == "bulk-long-rtt" else 0.15
    step = 2.5 if case == "bulk-long-rtt" else 1.0
    # 2 segments a round trip at first, 4 once the closing write has come.
    first = ns[0][0]
    early = sum(1 for t, _ in ns if first <= t < first + 3.5 * rtt)
    late = sum(1 for t, _ in ns if first + step + 1 <= t < first + step + 1 + 30 * rtt)
    assert early == 8 and abs(late - 120) <= 2, (early, late)
