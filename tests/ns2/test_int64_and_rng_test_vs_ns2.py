"""ns-2.35's Tcl commands for 64-bit counters (common/misc.cc: ns-hasint64, ns-add64,
ns-mult64, ns-int64todbl) and `$rng test` (tools/rng.cc `RNGTest::verbose_mil`: MRG32k3a's
first 100 values and every millionth up to 5 million, from two seeds), live against ns-2.35."""

from __future__ import annotations

from typing import Any

INT64 = """
puts [ns-hasint64]
puts [ns-add64 4294967296 5]
puts [ns-add64 0x10 010]
puts [ns-add64 " -12abc" 2]
puts [ns-add64 9223372036854775807 1]
puts [ns-mult64 3000000000 4]
puts [ns-int64todbl -1312283256]
puts [ns-int64todbl 2982684040]
"""

RNG_TEST = """
set rng [new RNG]
$rng test
puts [$rng next-random]
set other [new RNG]
puts [$other next-random]
"""


def test_int64_commands_as_ns2(vs_ns2: Any) -> None:
    both = vs_ns2(INT64)
    both.same()
    assert both.ns.out.splitlines()[:3] == ["1", "4294967301", "24"]


def test_rng_test_writes_what_ns2_writes(vs_ns2: Any) -> None:
    both = vs_ns2(RNG_TEST)
    text = both.same("temp.rands")["temp.rands"]
    lines = text.splitlines()
    assert [len(line.split(":")[1].split()) for line in lines] == [104, 104]
    # A new RNG after the test takes the stream after the test's (the package seed moved).
    assert len(set(both.ns.out.split())) == 2

