"""ns-2.35's `Agent/RAP` (rap/rap.cc; the engine's RAP flow, crates/ackclock-core/src/rap.rs,
docs/models/rap.md): a rate-based source whose gap shrinks once per srtt and grows by 1/beta
per loss cluster, losses found by a timeout and by the receiver's last hole. Live against
ns-2.35: the packet trace of RAP sessions through a slow bottleneck whose queue overflows, and
the sources' own variables read back during the run."""

from __future__ import annotations

from typing import Any

import pytest

SCRIPT = """
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
{settings}
foreach n {{a b r1 k1}} {{ set node($n) [$ns node] }}
$ns duplex-link $node(a) $node(r1) 8Mb 1ms DropTail
$ns duplex-link $node(b) $node(r1) 8Mb 4ms DropTail
$ns duplex-link $node(r1) $node(k1) 600Kb 60ms {queue}
$ns queue-limit $node(r1) $node(k1) 6
set rap(1) [$ns create-connection RAP $node(a) RAP $node(k1) 1]
set rap(2) [$ns create-connection RAP $node(b) RAP $node(k1) 2]
$ns at 0.5 "$rap(1) start"
$ns at 2.3 "$rap(2) start"
$ns at 14.0 "$rap(1) stop"
proc show {{}} {{
    global rap
    foreach i {{1 2}} {{
        puts "$i [$rap($i) set seqno_] [$rap($i) set sessionLossCount_]\\
              [$rap($i) set ipg_] [$rap($i) set srtt_] [$rap($i) set timeout_]"
    }}
}}
foreach t {{5.0 10.0 15.0}} {{ $ns at $t "show" }}
$ns at 18.0 "$ns flush-trace; close $tr; exit 0"
$ns run
"""


@pytest.mark.parametrize(("settings", "queue"), [
    ("", "DropTail"),
    ("Agent/RAP set beta_ 0.875\\nAgent/RAP set alpha_ 0.5", "DropTail"),
    ("Agent/RAP set useFineGrain_ 1", "DropTail"),
    # RED's early drops draw from ns-2's default generator, as each gap's
    # Random::uniform(overhead_) does: the draws must come in ns-2's order.
    ("Agent/RAP set overhead_ 0.01", "RED"),
])
def test_rap_as_ns2(vs_ns2: Any, settings: str, queue: str) -> None:
    both = vs_ns2(SCRIPT.format(settings=settings.replace("\\n", "\n"), queue=queue))
    lines = both.same("out.tr")["out.tr"].splitlines()
    assert len(lines) > 2000
    assert sum(line.startswith("d ") for line in lines) > 3
    assert sum(" rap_ack " in line for line in lines) > 500
    # Both sources lost packets and adapted (sessionLossCount_ > 0 at the end).
    last = both.ns.out.splitlines()[-2:]
    assert all(int(line.split()[2]) > 0 for line in last), both.ns.out
