"""Speed at scale (issue 31): the whole `ackclock run` command and the engine on networks from
10 to 100 000 flows, fat-trees, a long chain of routers and 100 Gb/s links.

    python benchmarks/scale.py [--only dumbbell_10000,fattree_16] [--duration 1s]
                               [--instructions] [--csv scale.csv]
                               [--beside ns-2,ns-3,htsim] [--beside-max-flows 100]
                               [--timeout 1800]

For each case it writes the scenario (TOML) into a temporary folder and prints:
- `cmd_s`, `peak_MB`: wall time and peak resident memory of the whole command
  (`ackclock run CASE.toml --quiet`, measured by the kernel for the child process);
- `resolve_s`: the front end resolving the TOML into the engine's document (in this process);
- `front_s`: the front end's whole share of a run (in this process): resolving and
  summary.json, as `ackclock run` makes them (issue 31's bar: 0.3 s at 10 000 flows);
- `setup_s`: the engine building the run from that document (`Simulation(...)` on its
  `with_tcp_tables` form, as `ackclock run`: the binding writes its JSON text, the engine
  reads it);
- `run_s`, `Mhops/s`: the engine's run loop and packet-hops (one packet crossing one link) per
  second of it (these three in CPU seconds of this process, `time.process_time`);
- `cpu_s`: user and system CPU seconds of the whole command (the firmer measure on a shared
  machine);
- with `--instructions`, instructions per packet-hop under cachegrind (`run_json` on the case's
  summary.json; valgrind needed, and build the example first:
  `cargo build --release -p ackclock-core --example run_json`); skipped on the largest cases,
  where valgrind would take many minutes.

Cases:
- `dumbbell_N`: N Reno flows over a 1 Gb/s, 10 ms bottleneck with a 1000-packet buffer, each
  with its own sender and receiver on 10 Gb/s, 1 ms access links (issue 10's scenarios 2 and 3,
  benchmarks/ackclock/dumbbell.toml), N = 10 to 100 000;
- `dumbbell_ns3_N`, `dumbbell_linux_cubic_N`, `dumbbell_linux_bbr_N` (N = 1 000 and 10 000):
  the same under the `ns3` profile with CUBIC and the `linux` profile with CUBIC and BBR, 5 s;
- `dumbbell100g_N`: the same with a 100 Gb/s bottleneck and 400 Gb/s access links;
- `fattree_K`: a k-ary fat-tree (Al-Fares et al., SIGCOMM 2008: k pods of k/2 edge and k/2
  aggregation switches, (k/2)^2 core switches, k/2 hosts per edge switch, k^3/4 hosts), 10 Gb/s,
  1 us links with 100-packet buffers, ECMP by flow hash (`run.routing = "ecmp"`), flows between
  random pairs of hosts in different pods (10 000 for k = 16, 4 per host below);
- `chain_R`: R routers in a line, 10 flows from one end to the other, 1 Gb/s, 1 ms per link;
- `explicit_10000`: `dumbbell_10000` with every node, link and flow written out (6 MB of TOML,
  no `count = N`);
- `sampled_10000`: `dumbbell_10000` sampled every 0.1 s (`run.sample_interval`: 50 samples of
  10 000 flows and 40 002 link directions);
- `finite_10000`: `dumbbell_10000` with finite transfers: each flow sends 100 kB (an FTP
  `size`), starting at a time drawn uniformly over the 5 s;
- `explicit_varied_10000`: the same with each flow's own window, variant and start written
  out (10 000 tables of TCP parameters), access links of 1 to 7 ms and varied queue limits;
- the other paths a study at scale takes (session 11), each at 10 000 flows (1 s) and 100 000
  (0.2 s), `NAME_N`: `dumbbell_N` under the `ns3` profile with its default queues (FQ-CoDel on
  every link: `ns3_fqcodel`), the `ikr` profile, ns-2's SACK, CUBIC and Vegas, `linux` DCTCP
  over a RED bottleneck marking ECN (`linux_dctcp_red`); RED, CoDel or FQ-CoDel on the
  bottleneck (`red`, `codel`, `fq_codel`) and FQ-CoDel on every link (`fq_codel_all`); long
  flows starting over the first second (`spread`); UDP sources of CBR, on/off and Poisson
  traffic at 80% of the bottleneck in all (`cbr`, `onoff`, `poisson`); an ns-2 trace or a pcap
  of the bottleneck (`trace_one`, `pcap_one`), of one host (`pcap_host`) and of every link
  (`trace_all`, `pcap_all`), cwnd traced on every flow (`cwnd_trace`), per-flow counters on
  the bottleneck (`monitor_flows`); and three topologies: every flow between one pair of
  hosts (`pair`), a parking lot of 10 routers with each flow's hosts on its own routers
  (`parking`), N hosts on one switch by 10 Mb/s links (`star`);
- `api_dumbbell_10000`, `api_loop_10000`: the same network through the Python API, in a child
  process (its `cmd_s`, `cpu_s`, `peak_MB`), with `build_s` the calls that describe it:
  `Network.dumbbell(10000)` and then `front_s`, `.scenario(duration=...)`; or a loop of
  `net.nodes`, `net.link(..., queue_limit=...)` and `net.tcp` calls and then `run_s`,
  `net.run(duration=..., out=...)` (engine included); `api_varied_10000`: a loop adding
  flows each with its own window, variant and start over links of varied delay (duplex,
  the queue limits differing), then `.scenario(duration=...)`.

With `--beside`, each dumbbell case of at most `--beside-max-flows` flows (default 100: ns-2
takes minutes per 100 flows and second, ns-3 longer) also runs, right after ackclock, in ns-2.35
(benchmarks/ns2/dumbbell.tcl), ns-3.44 (benchmarks/ns3/dumbbell.cc against the ns3 wheel, as
benchmarks/compare.py builds it under --ns3-cache) and htsim (benchmarks/htsim/dumbbell.cpp
against a csg-htsim checkout given by --htsim-source, as benchmarks/htsim.py builds it): the
same network for the same simulated time, each its own TCP with ns-2's parameters where it
has them. Printed beside ackclock's row: the whole command's CPU seconds and peak memory,
its packet-hops (3 per data packet sent and per ACK received: each crosses three links) per
CPU second, and ackclock's whole command's packet-hops per CPU second over it. The fat-trees,
the chain and the 100 Gb/s dumbbells have no script in the other simulators.

`sweep_dumbbell_N` (N = 1 000 and 10 000) runs `ackclock sweep --jobs 2` over `dumbbell_N` for
1 s: two bottleneck buffers times two replications, four runs; it prints the parent's peak
resident memory and the largest worker's (`getrusage`, and each worker's VmHWM read while it
lives), and the parent's CPU seconds.

`ns2_dumbbell_N` (N = 10 to 10 000) runs the dumbbell's ns-2 script (benchmarks/ns2/dumbbell.tcl,
NewReno, 5 s) through the ns-2 front end, `ackclock ns2 dumbbell.tcl N 5 newreno`: the whole
command's wall time, CPU seconds and peak memory, and the counters the script prints
(`delivered_bytes`, `data_sent`, `acks_received`), which `ns` prints the same.

Wall times on a shared machine swing by tens of percent: compare runs taken side by side.
`--csv` also writes the rows to a file, which benchmarks/plot_scale.py plots
(docs/performance.md, "Speed at scale").
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "ackclock"


def dumbbell(n: int, rate: str = "1Gb/s", access: str = "10Gb/s") -> str:
    text = (BENCH / "dumbbell.toml").read_text()
    text = text.replace("count = 10\n", f"count = {n}\n")
    text = text.replace('rate = "1Gb/s"', f'rate = "{rate}"')
    return text.replace('rate = "10Gb/s"', f'rate = "{access}"')


def dumbbell_profile(n: int, profile: str, cc: str) -> str:
    """The dumbbell under another reference profile, its flows running congestion control
    `cc` with the profile's own loss recovery (the `linux` profile's RACK, the `ns3`
    profile's RFC 6675 SACK)."""
    text = dumbbell(n).replace('profile = "ns2"', f'profile = "{profile}"')
    return text.replace('variant = "newreno"', f'cc = "{cc}"')


def fattree(k: int, flows: int | None = None, seed: int = 1) -> str:
    half = k // 2
    hosts = k * half * half
    lines = [f'name = "fattree{k}"', 'profile = "ns2"', "[run]", 'duration = "1s"',
             'routing = "ecmp"', "[defaults.tcp]", "packet_size = 1448", "header_size = 52",
             "window = 1000", 'variant = "newreno"']

    def node(name: str) -> None:
        lines.extend(["[[node]]", f'name = "{name}"'])

    def link(a: str, b: str) -> None:
        lines.extend(["[[link]]", f'from = "{a}"', f'to = "{b}"', 'rate = "10Gb/s"',
                      'delay = "1us"', 'queue = { kind = "droptail", limit = 100 }'])

    for c in range(half * half):
        node(f"c{c}")
    for p in range(k):
        for s in range(half):
            node(f"a{p}_{s}")
            node(f"e{p}_{s}")
            for h in range(half):
                node(f"h{p}_{s}_{h}")
    for p in range(k):
        for s in range(half):
            for h in range(half):
                link(f"h{p}_{s}_{h}", f"e{p}_{s}")
            for a in range(half):
                link(f"e{p}_{s}", f"a{p}_{a}")
            for j in range(half):
                link(f"a{p}_{s}", f"c{s * half + j}")
    names = [f"h{p}_{s}_{h}" for p in range(k) for s in range(half) for h in range(half)]
    rng = random.Random(seed)
    count = flows if flows is not None else 4 * hosts
    for i in range(count):
        a = rng.randrange(hosts)
        b = rng.randrange(hosts)
        while b // (half * half) == a // (half * half):  # another pod
            b = rng.randrange(hosts)
        lines.extend(["[[flow]]", f'name = "f{i}"', 'kind = "tcp"', f'from = "{names[a]}"',
                      f'to = "{names[b]}"',
                      'app = { kind = "ftp", start = { uniform = ["0s", "10ms"] } }'])
    return "\n".join(lines) + "\n"


def chain(routers: int, flows: int = 10) -> str:
    lines = ['name = "chain"', 'profile = "ns2"', "[run]", 'duration = "10s"',
             "[defaults.tcp]", "packet_size = 1448", "header_size = 52", "window = 1000",
             'variant = "newreno"', "[[node]]", f"count = {routers}", 'name = "r{i}"',
             "[[node]]", f"count = {flows}", 'name = "s{i}"', "[[node]]", f"count = {flows}",
             'name = "d{i}"']
    for i in range(routers - 1):
        lines.extend(["[[link]]", f'from = "r{i}"', f'to = "r{i + 1}"', 'rate = "1Gb/s"',
                      'delay = "1ms"', 'queue = { kind = "droptail", limit = 1000 }'])
    lines.extend(["[[link]]", f"count = {flows}", 'from = "s{i}"', 'to = "r0"',
                  'rate = "10Gb/s"', 'delay = "1ms"', "[[link]]", f"count = {flows}",
                  f'from = "r{routers - 1}"', 'to = "d{i}"', 'rate = "10Gb/s"',
                  'delay = "1ms"', "[[flow]]", f"count = {flows}", 'name = "f{i}"',
                  'kind = "tcp"', 'from = "s{i}"', 'to = "d{i}"'])
    return "\n".join(lines) + "\n"


def cases() -> dict[str, tuple[str, str, bool]]:
    """Each case's scenario text, simulated duration, and whether cachegrind may run it."""
    out: dict[str, tuple[str, str, bool]] = {}
    # Long enough for the flows to leave slow start (the bottleneck carries about 0.5 M
    # packet-hops per simulated second whatever N is), except at 100 000 flows (memory).
    for n, d in [(10, "10s"), (100, "5s"), (1000, "10s"), (10_000, "5s"), (100_000, "0.2s")]:
        out[f"dumbbell_{n}"] = (dumbbell(n), d, n <= 1000)
    # Per-flow state under the other profiles (SACK scoreboards, RACK, BBR's rate samples).
    for n in (1000, 10_000):
        out[f"dumbbell_ns3_{n}"] = (dumbbell_profile(n, "ns3", "cubic"), "5s", n <= 1000)
        out[f"dumbbell_linux_cubic_{n}"] = (dumbbell_profile(n, "linux", "cubic"), "5s",
                                            n <= 1000)
        out[f"dumbbell_linux_bbr_{n}"] = (dumbbell_profile(n, "linux", "bbr"), "5s", n <= 1000)
    for n in (10, 1000):
        out[f"dumbbell100g_{n}"] = (dumbbell(n, "100Gb/s", "400Gb/s"), "1s", n <= 10)
    # k = 16 carries some 6 G packet-hops per simulated second once its flows have started
    # (6 144 link directions at 10 Gb/s, nearly all busy): 10 ms is 52 M hops.
    for k, flows, d in [(4, None, "0.2s"), (8, None, "0.1s"), (16, 10_000, "0.01s")]:
        out[f"fattree_{k}"] = (fattree(k, flows), d, k <= 8)
    out["chain_50"] = (chain(50), "10s", True)
    out["explicit_10000"] = (explicit_dumbbell(10_000), "5s", False)
    out["explicit_varied_10000"] = (explicit_dumbbell(10_000, varied=True), "5s", False)
    sampled = dumbbell(10_000).replace('duration = "30s"\n',
                                       'duration = "30s"\nsample_interval = "0.1s"\n')
    out["sampled_10000"] = (sampled, "5s", False)
    # Finite transfers: each flow sends 100 kB, starting at a uniform time over the run.
    finite = (dumbbell(10_000).rstrip("\n")
              + '\napp = { kind = "ftp", size = 100000, start = { uniform = ["0s", "5s"] } }\n')
    out["finite_10000"] = (finite, "5s", False)
    for n, d in [(10_000, "1s"), (100_000, "0.2s")]:
        for name, text in paths(n).items():
            out[f"{name}_{n}"] = (text, d, False)
    return out


BOTTLENECK = 'queue = { kind = "droptail", limit = 1000 }'


def paths(n: int) -> dict[str, str]:
    """The other paths a study at scale takes (session 11): each profile, the congestion
    controls and queues users pick, other traffic, traces, other topologies. Each is
    `dumbbell(n)` changed in one respect, or a topology of its own."""
    base = dumbbell(n)
    flow = 'kind = "tcp"\nfrom = "s{i}"\nto = "r{i}"\n'
    rate = 8e8 / n  # datagram sources: 80% of the 1 Gb/s bottleneck in all

    def app(text: str) -> str:
        return base.rstrip("\n") + f"\napp = {text}\n"

    def udp(text: str) -> str:
        return app(text).replace('kind = "tcp"\nfrom = "s{i}"', 'kind = "udp"\nfrom = "s{i}"')

    def trace(text: str) -> str:
        return base + "[[trace]]\n" + text + "\n"

    assert base.count(BOTTLENECK) == 1 and flow in base
    return {
        # Profiles and congestion controls.
        "ns3_fqcodel": base.replace('profile = "ns2"', 'profile = "ns3"')
                           .replace('variant = "newreno"', 'cc = "cubic"')
                           .replace('kind = "droptail", ', ""),  # ns-3's default stack
        "ikr": base.replace('profile = "ns2"', 'profile = "ikr"'),
        "ns2_sack": base.replace('variant = "newreno"', 'variant = "sack"'),
        "ns2_cubic": base.replace('variant = "newreno"', 'variant = "sack"\ncc = "cubic"'),
        "ns2_vegas": base.replace('variant = "newreno"', 'cc = "vegas"'),
        "linux_dctcp_red": base.replace('profile = "ns2"', 'profile = "linux"')
                               .replace('variant = "newreno"', 'cc = "dctcp"\necn = true')
                               .replace(BOTTLENECK, 'queue = { kind = "red", limit = 1000, '
                                                    'min_thresh = 65, max_thresh = 65, '
                                                    'ecn = true }'),
        # Queue disciplines on the bottleneck, and FQ-CoDel on every link.
        "red": base.replace(BOTTLENECK, 'queue = { kind = "red", limit = 1000 }'),
        "codel": base.replace(BOTTLENECK, 'queue = { kind = "codel", limit = 1000 }'),
        "fq_codel": base.replace(BOTTLENECK, 'queue = { kind = "fq_codel", limit = 1000 }'),
        "fq_codel_all": base.replace('kind = "droptail"', 'kind = "fq_codel"'),
        # Traffic: long flows starting over the run, datagram sources.
        "spread": app('{ kind = "ftp", start = { uniform = ["0s", "1s"] } }'),
        "cbr": udp(f'{{ kind = "cbr", rate = "{rate:.0f}b/s", packet_size = 1000 }}'),
        "onoff": udp(f'{{ kind = "onoff", rate = "{2 * rate:.0f}b/s", packet_size = 1000, '
                     'on = { exponential = "50ms" }, off = { exponential = "50ms" } }'),
        "poisson": udp(f'{{ kind = "poisson", rate = "{rate:.0f}b/s", packet_size = 1000 }}'),
        # Outputs: packet traces of one link and of every link, cwnd traced on every flow,
        # per-flow queue counters on the bottleneck.
        "trace_one": trace('format = "ns2"\nfile = "one.tr"\nlinks = ["left->right"]'),
        "trace_all": trace('format = "ns2"\nfile = "all.tr"'),
        "pcap_one": trace('format = "pcap"\nfile = "one.pcap"\nlinks = ["left->right"]'),
        "pcap_host": trace('format = "pcap"\nfile = "host.pcap"\nnodes = ["s0"]'),
        "pcap_all": trace('format = "pcap"\nfile = "all.pcap"'),
        "cwnd_trace": base.replace(flow, flow + 'trace = ["cwnd"]\n'),
        "monitor_flows": base.replace(BOTTLENECK, BOTTLENECK + "\nmonitor_flows = true"),
        # Topologies: every flow between one pair of hosts; a parking lot; a star.
        "pair": pair(n),
        "parking": parking(n),
        "star": star(n),
    }


def pair(n: int) -> str:
    """`n` flows from one host to another over the dumbbell's bottleneck."""
    return "\n".join([
        'name = "pair"', 'profile = "ns2"', "[run]", 'duration = "30s"', "[defaults.tcp]",
        "packet_size = 1448", "header_size = 52", "window = 10000", 'variant = "newreno"',
        *[f'[[node]]\nname = "{x}"' for x in ("s", "left", "right", "r")],
        '[[link]]\nfrom = "s"\nto = "left"\nrate = "10Gb/s"\ndelay = "1ms"\n'
        'queue = { kind = "droptail", limit = 10000 }',
        '[[link]]\nfrom = "left"\nto = "right"\nrate = "1Gb/s"\ndelay = "10ms"\n'
        'queue = { kind = "droptail", limit = 1000 }',
        '[[link]]\nfrom = "right"\nto = "r"\nrate = "10Gb/s"\ndelay = "1ms"\n'
        'queue = { kind = "droptail", limit = 10000 }',
        f'[[flow]]\ncount = {n}\nname = "tcp{{i}}"\nkind = "tcp"\nfrom = "s"\nto = "r"',
    ]) + "\n"


def parking(n: int, routers: int = 10) -> str:
    """A parking lot: `routers` routers in a line (1 Gb/s, 1 ms), flow i from its own host on
    router i mod (routers - 1) to its own host on a later router."""
    lines = ['name = "parking"', 'profile = "ns2"', "[run]", 'duration = "30s"',
             "[defaults.tcp]", "packet_size = 1448", "header_size = 52", "window = 1000",
             'variant = "newreno"']
    lines += [f'[[node]]\nname = "p{r}"' for r in range(routers)]
    lines += [f'[[link]]\nfrom = "p{r}"\nto = "p{r + 1}"\nrate = "1Gb/s"\ndelay = "1ms"\n'
              'queue = { kind = "droptail", limit = 1000 }' for r in range(routers - 1)]
    rng = random.Random(1)
    for i in range(n):
        a = i % (routers - 1)
        b = rng.randrange(a + 1, routers)
        lines += [f'[[node]]\nname = "s{i}"\n[[node]]\nname = "d{i}"',
                  f'[[link]]\nfrom = "s{i}"\nto = "p{a}"\nrate = "10Gb/s"\ndelay = "1ms"',
                  f'[[link]]\nfrom = "p{b}"\nto = "d{i}"\nrate = "10Gb/s"\ndelay = "1ms"',
                  f'[[flow]]\nname = "f{i}"\nkind = "tcp"\nfrom = "s{i}"\nto = "d{i}"']
    return "\n".join(lines) + "\n"


def star(n: int) -> str:
    """`n` hosts on one switch by 10 Mb/s links, host i sending to host i + n/2 (mod n)."""
    lines = ['name = "star"', 'profile = "ns2"', "[run]", 'duration = "30s"',
             "[defaults.tcp]", "packet_size = 1448", "header_size = 52", "window = 1000",
             'variant = "newreno"', '[[node]]\nname = "sw"',
             f'[[node]]\ncount = {n}\nname = "h{{i}}"',
             f'[[link]]\ncount = {n}\nfrom = "h{{i}}"\nto = "sw"\nrate = "10Mb/s"\n'
             'delay = "10us"\nqueue = { kind = "droptail", limit = 100 }']
    lines += [f'[[flow]]\nname = "f{i}"\nkind = "tcp"\nfrom = "h{i}"\nto = "h{(i + n // 2) % n}"'
              for i in range(n)]
    return "\n".join(lines) + "\n"


def explicit_dumbbell(n: int, varied: bool = False) -> str:
    """`dumbbell(n)` with every node, link and flow written out, as a script would write it;
    ``varied``: each flow with its own window, variant and start, access links of 1 to 7 ms
    and queue limits that differ."""
    head = (BENCH / "dumbbell.toml").read_text().split("[[node]]")[0]
    lines = [head, '[[node]]\nname = "left"\n[[node]]\nname = "right"\n']
    lines += [f'[[node]]\nname = "s{i}"\n' for i in range(n)]
    lines += [f'[[node]]\nname = "r{i}"\n' for i in range(n)]

    def link(a: str, b: str, rate: str, delay: str, limit: int) -> str:
        return (f'[[link]]\nfrom = "{a}"\nto = "{b}"\nrate = "{rate}"\ndelay = "{delay}"\n'
                f'queue = {{ kind = "droptail", limit = {limit} }}\nduplex = false\n')

    lines += [link("left", "right", "1Gb/s", "10ms", 1000),
              link("right", "left", "1Gb/s", "10ms", 50)]
    for a, b, limit in [("s{i}", "left", 10000), ("left", "s{i}", 50), ("right", "r{i}", 10000),
                        ("r{i}", "right", 50)]:
        lines += [link(a.format(i=i), b.format(i=i), "10Gb/s", f"{1 + i % 7 * varied}ms",
                       limit + i % 5 * varied) for i in range(n)]
    own = ('variant = "{v}"\nwindow = {w}\napp = {{ kind = "ftp", start = "{s}ms" }}\n'
           if varied else "")
    lines += [f'[[flow]]\nname = "tcp{i}"\nkind = "tcp"\nfrom = "s{i}"\nto = "r{i}"\n'
              + own.format(v=("newreno", "reno", "sack")[i % 3], w=20 + i, s=i % 1000)
              for i in range(n)]
    return "".join(lines)


# The Python API's cases: a child process builds the network (build_s) and then either checks
# the scenario (front_s) or runs it into a folder (run_s); CPU seconds, printed as "KEY VALUE".
API_CASES = {
    "api_dumbbell_10000": """
net = ac.Network.dumbbell(10000, rate="1Gb/s")
t1 = time.process_time()
net.scenario(duration=DURATION)
print("front_s", time.process_time() - t1)
""",
    # Each flow its own window, variant and start, access links of 1 to 7 ms.
    "api_varied_10000": """
net = ac.Network("dumbbell", profile="ns2")
net.nodes("left", "right")
net.link("left", "right", rate="1Gb/s", delay="10ms", queue_limit=1000, duplex=False)
net.link("right", "left", rate="1Gb/s", delay="10ms", queue_limit=50, duplex=False)
for i in range(10000):
    net.nodes(f"s{i}", f"r{i}")
    net.link(f"s{i}", "left", rate="10Gb/s", delay=f"{1 + i % 7}ms", queue_limit=10000)
    net.link("right", f"r{i}", rate="10Gb/s", delay="1ms", queue_limit=10000 + i % 5)
    net.tcp(f"tcp{i}", f"s{i}", f"r{i}", window=20 + i, start=f"{i % 1000}ms",
            variant=("newreno", "reno", "sack")[i % 3])
net.defaults(packet_size=1448, header_size=52)
t1 = time.process_time()
net.scenario(duration=DURATION)
print("front_s", time.process_time() - t1)
""",
    "api_loop_10000": """
n = 10000
net = ac.Network("dumbbell", profile="ns2")
net.nodes("left", "right")
for i in range(n):
    net.nodes(f"s{i}", f"r{i}")
net.link("left", "right", rate="1Gb/s", delay="10ms", queue_limit=1000, duplex=False)
net.link("right", "left", rate="1Gb/s", delay="10ms", queue_limit=50, duplex=False)
for i in range(n):
    net.link(f"s{i}", "left", rate="10Gb/s", delay="1ms", queue_limit=10000, duplex=False)
    net.link("left", f"s{i}", rate="10Gb/s", delay="1ms", queue_limit=50, duplex=False)
    net.link("right", f"r{i}", rate="10Gb/s", delay="1ms", queue_limit=10000, duplex=False)
    net.link(f"r{i}", "right", rate="10Gb/s", delay="1ms", queue_limit=50, duplex=False)
for i in range(n):
    net.tcp(f"tcp{i}", f"s{i}", f"r{i}")
net.defaults(packet_size=1448, header_size=52, window=10000, variant="newreno")
t1 = time.process_time()
net.run(duration=DURATION, out=OUT)
print("run_s", time.process_time() - t1)
""",
}


def api_command(name: str, duration: str, out: Path, timeout: float | None
                ) -> tuple[float, float, float, dict[str, float]]:
    """Wall seconds, peak resident MB and CPU seconds of the API case's child process, and
    the times it printed (build_s, and front_s or run_s)."""
    code = ("import time\nt0 = time.process_time()\nimport ackclock as ac\n"
            f"DURATION, OUT = {duration!r}, {str(out)!r}\n"
            + API_CASES[name].replace("t1 = time.process_time()",
                                      't1 = time.process_time()\nprint("build_s", t1 - t0)'))
    timer = ["/usr/bin/time", "-f", "%e %M %U %S"]
    done = subprocess.run([*timer, sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=timeout)
    wall, kb, user, system = done.stderr.strip().splitlines()[-1].split()
    times = {k: float(v) for k, v in (line.split() for line in done.stdout.splitlines())}
    return float(wall), int(kb) / 1024, float(user) + float(system), times


# `ackclock sweep` of a dumbbell: flows, simulated time, jobs; the grid is two bottleneck
# buffers times two replications (four runs).
SWEEP_CASES = {f"sweep_dumbbell_{n}": (n, "1s", 2) for n in (1000, 10_000)}


def sweep_command(flows: int, duration: str, jobs: int, work: Path, timeout: float | None
                  ) -> tuple[float, float, float, float]:
    """Wall seconds, the parent's peak resident MB, the largest worker's, and the parent's CPU
    seconds of `ackclock sweep` over `dumbbell(flows)`."""
    work.mkdir()
    (work / "dumbbell.toml").write_text(dumbbell(flows))
    (work / "sweep.toml").write_text(
        f'scenario = "dumbbell.toml"\nreplications = 2\n[grid]\n'
        f'"link.left-right.queue.limit" = [500, 1000]\n[set]\n"run.duration" = "{duration}"\n')
    # The workers are the pool's (and a fork server's) children, not all reaped by the
    # parent: a thread reads each descendant's peak (VmHWM) while they live.
    code = f"""
import os, resource, sys, threading, time
from ackclock.cli import main

worst = 0

def watch():
    global worst
    while True:
        parents = {{}}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                stat = open(f"/proc/{{pid}}/stat").read()
                parents[int(pid)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
        for pid in parents:
            up = parents.get(pid)
            while up and up != os.getpid():
                up = parents.get(up)
            if up == os.getpid():
                try:
                    for line in open(f"/proc/{{pid}}/status"):
                        if line.startswith("VmHWM:"):
                            worst = max(worst, int(line.split()[1]))
                except OSError:
                    pass
        time.sleep(0.1)

threading.Thread(target=watch, daemon=True).start()
t = time.time()
rc = main(["sweep", {str(work / "sweep.toml")!r}, "--jobs", "{jobs}", "--out",
           {str(work / "out")!r}])
me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(time.time() - t, me.ru_maxrss, max(worst, kids.ru_maxrss), me.ru_utime + me.ru_stime)
sys.exit(rc)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=timeout)
    wall, parent, worker, cpu = done.stdout.strip().splitlines()[-1].split()
    return float(wall), int(parent) / 1024, int(worker) / 1024, float(cpu)


# The ns-2 front end's cases: flows, simulated seconds.
NS2_CASES = {f"ns2_dumbbell_{n}": (n, "5s") for n in (10, 100, 1000, 10_000)}


def ns2_command(flows: int, duration: str, timeout: float | None
                ) -> tuple[float, float, float, str]:
    """Wall seconds, peak resident MB, CPU seconds and the printout of `ackclock ns2` on the
    dumbbell's script."""
    timer = ["/usr/bin/time", "-f", "%e %M %U %S"]
    script = ROOT / "benchmarks" / "ns2" / "dumbbell.tcl"
    done = subprocess.run([*timer, *ackclock(), "ns2", str(script), str(flows),
                           duration.removesuffix("s"), "newreno"],
                          capture_output=True, text=True, check=True, timeout=timeout)
    wall, kb, user, system = done.stderr.strip().splitlines()[-1].split()
    counters = " ".join(done.stdout.split())
    return float(wall), int(kb) / 1024, float(user) + float(system), counters


def ackclock() -> list[str]:
    exe = shutil.which("ackclock")
    return [exe] if exe else [sys.executable, "-m", "ackclock"]


def whole_command(toml: Path, duration: str, out: Path, timeout: float | None
                  ) -> tuple[float, float, float]:
    """Wall seconds, peak resident MB and CPU seconds of `ackclock run`."""
    timer = ["/usr/bin/time", "-f", "%e %M %U %S"]
    done = subprocess.run([*timer, *ackclock(), "run", str(toml), "--set",
                           f"run.duration={duration}", "--out", str(out), "--quiet"],
                          capture_output=True, text=True, check=True, timeout=timeout)
    wall, kb, user, system = done.stderr.strip().splitlines()[-1].split()
    return float(wall), int(kb) / 1024, float(user) + float(system)


def in_process(toml: Path, duration: str) -> dict[str, float]:
    from ackclock.limits import check_memory
    from ackclock.results import write_summary
    from ackclock.run import engine, with_tcp_tables
    from ackclock.toml_loader import load_resolved

    t = time.process_time()
    _, doc = load_resolved(toml, [f"run.duration={duration}"], share=True,  # as `ackclock run`
                           engine_rules=False, freeze=True)
    resolve = time.process_time() - t
    check_memory(doc)  # as run_document
    with tempfile.TemporaryDirectory() as d:
        write_summary({"name": doc["name"], "scenario": doc}, Path(d) / "summary.json")
    front = time.process_time() - t
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)  # a case's packet traces are written into the current folder
        try:
            t = time.process_time()
            # As run_document (the binding writes the text).
            sim = engine().Simulation(with_tcp_tables(doc))
            setup = time.process_time() - t
            t = time.process_time()
            sim.run_until(sim.duration_ps)
            run = time.process_time() - t
            hops = sim.results()["summary"]["packet_hops"]
            del sim  # its trace files closed before the folder goes
        finally:
            os.chdir(here)
    return {"resolve_s": resolve, "front_s": front, "setup_s": setup, "run_s": run,
            "hops": hops}


def beside(names: list[str], ns3_cache: Path, htsim_source: Path | None,
           work: Path) -> dict[str, Any]:
    """The other simulators that can run here, ready to run (or why not, printed)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import sims

    ready: dict[str, Any] = {}
    for name in names:
        if name == "ns-2":
            sim: Any = sims.Ns2()
        elif name == "ns-3":
            sim = sims.Ns3(ns3_cache, install=True)
            sim.setup()
        elif name == "htsim":
            if htsim_source is None:
                print("htsim: not run (give --htsim-source, a csg-htsim checkout)")
                continue
            import htsim

            sim = htsim.build(htsim.checkout(htsim_source), work)
        else:
            raise SystemExit(f"--beside: expected ns-2, ns-3 or htsim, got {name!r}")
        why = None if name == "htsim" else sim.available()
        if why:
            print(f"{name}: not run ({why})")
            continue
        ready[name] = sim
    return ready


def run_beside(name: str, sim: Any, flows: int, duration: str, work: Path
               ) -> dict[str, float]:
    """One run of the dumbbell with ``flows`` flows in another simulator: CPU seconds, peak
    MB and packet-hops of the whole command."""
    import sims

    seconds = float(duration.rstrip("s"))
    folder = work / f"{name}-{flows}"
    folder.mkdir(exist_ok=True)
    if name == "htsim":
        cmd = [str(sim), str(flows), f"{seconds:g}"]
    else:
        case = sims.Case(id=f"dumbbell_{flows}", scenario="", label="", kind="dumbbell",
                         n=flows, seconds=seconds)
        cmd = sim.command(case, folder)
    done = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S", *cmd], cwd=folder,
                          capture_output=True, text=True, check=True)
    wall, kb, user, system = done.stderr.strip().splitlines()[-1].split()
    if name == "htsim":  # its own TCP prints lines of its own
        pairs = (line.split() for line in done.stdout.splitlines())
        hops = float({p[0]: p[1] for p in pairs if len(p) == 2}["packet_hops"])
    else:
        counters = sims.parse_counters(done.stdout)
        hops = float(3 * (counters.data_sent + counters.acks_received))
    return {"cpu_s": float(user) + float(system), "peak_MB": int(kb) / 1024, "hops": hops,
            "wall_s": float(wall)}


def instructions(summary: Path) -> float | None:
    exe = ROOT / "target" / "release" / "examples" / "run_json"
    if not exe.exists() or shutil.which("valgrind") is None:
        return None
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                           "--cachegrind-out-file=/dev/null", str(exe), str(summary)],
                          capture_output=True, text=True, check=True)
    text = done.stdout + done.stderr
    hops = int(re.search(r"packet-hops\s+(\d+)", text).group(1))  # type: ignore[union-attr]
    refs = re.search(r"I\s+refs:\s+([\d,]+)", text)
    return int(refs.group(1).replace(",", "")) / hops if refs and hops else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--duration", help="simulated time of every case (default: per case)")
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--csv", type=Path, help="also write the rows to this file")
    ap.add_argument("--beside", help="also run the dumbbells in these: ns-2, ns-3, htsim")
    ap.add_argument("--beside-max-flows", type=int, default=100)
    ap.add_argument("--ns3-cache", type=Path,
                    default=Path.home() / ".cache" / "ackclock-bench",
                    help="where benchmarks/compare.py keeps the ns3 wheel and programs")
    ap.add_argument("--htsim-source", type=Path, help="a checkout of Broadcom/csg-htsim")
    ap.add_argument("--timeout", type=float, default=1800,
                    help="wall seconds the whole command may take per case (default 1800);"
                         " a case that takes longer or fails prints why and the next runs")
    args = ap.parse_args()
    import sims

    sims.compile_package()  # as an installed copy: no compiling at each command's start
    all_cases = cases()
    names = (args.only.split(",") if args.only
             else [*all_cases, *API_CASES, *NS2_CASES, *SWEEP_CASES])
    columns = ["case", "sim", "duration", "cmd_s", "cpu_s", "peak_MB", "resolve_s", "front_s",
               "setup_s", "run_s", "hops", "Mhops_s", "cmd_Mhops_cpu_s", "instr_per_hop"]
    if args.csv:
        args.csv.write_text(",".join(columns) + "\n")
    print(f"{'case':27} {'cmd_s':>7} {'cpu_s':>7} {'peak_MB':>8} {'resolve_s':>9} "
          f"{'front_s':>8} {'setup_s':>8} {'run_s':>7} {'Mhops/s':>8} {'instr/hop':>9}")
    with tempfile.TemporaryDirectory() as d:
        others = (beside(args.beside.split(","), args.ns3_cache, args.htsim_source, Path(d))
                  if args.beside else {})
        for name in names:
            if name in API_CASES:
                duration = args.duration or "5s"
                cmd_s, peak, cpu_s, t = api_command(name, duration, Path(d) / name,
                                                    args.timeout)
                print(f"{name:18} {cmd_s:7.2f} {cpu_s:7.2f} {peak:8.0f} {'':9} "
                      f"{t.get('front_s', float('nan')):8.3f} {'':8} "
                      f"{t.get('run_s', float('nan')):7.2f}   build_s {t['build_s']:.2f}",
                      flush=True)
                if args.csv:
                    with args.csv.open("a") as f:
                        f.write(",".join(str(v) for v in [
                            name, "ackclock", duration, cmd_s, cpu_s, peak, "",
                            t.get("front_s", ""), "", t.get("run_s", ""), "", "", "", ""]) + "\n")
                continue
            if name in SWEEP_CASES:
                flows, duration, jobs = SWEEP_CASES[name]
                duration = args.duration or duration
                try:
                    cmd_s, peak, worker, cpu_s = sweep_command(flows, duration, jobs,
                                                               Path(d) / name, args.timeout)
                except (subprocess.TimeoutExpired, subprocess.CalledProcessError) as e:
                    print(f"{name:27} failed or not finished: {e}", flush=True)
                    continue
                print(f"{name:27} {cmd_s:7.2f} {cpu_s:7.2f} {peak:8.0f}   (the parent's peak;"
                      f" the largest worker's {worker:.0f} MB)", flush=True)
                if args.csv:
                    with args.csv.open("a") as f:
                        f.write(",".join(str(v) for v in [name, "ackclock sweep", duration,
                                                          cmd_s, cpu_s, peak] + [""] * 8)
                                + "\n")
                continue
            if name in NS2_CASES:
                flows, duration = NS2_CASES[name]
                duration = args.duration or duration
                try:
                    cmd_s, peak, cpu_s, printed = ns2_command(flows, duration, args.timeout)
                except (subprocess.TimeoutExpired, subprocess.CalledProcessError) as e:
                    print(f"{name:18} failed or not finished: {e}", flush=True)
                    continue
                print(f"{name:18} {cmd_s:7.2f} {cpu_s:7.2f} {peak:8.0f}  {printed}", flush=True)
                if args.csv:
                    with args.csv.open("a") as f:
                        f.write(",".join(str(v) for v in [name, "ackclock ns2", duration, cmd_s,
                                                          cpu_s, peak] + [""] * 8) + "\n")
                continue
            text, duration, small = all_cases[name]
            duration = args.duration or duration
            toml = Path(d) / f"{name}.toml"
            toml.write_text(text)
            out = Path(d) / name
            try:
                cmd_s, peak, cpu_s = whole_command(toml, duration, out, args.timeout)
            except subprocess.TimeoutExpired:
                print(f"{name:27} not finished in {args.timeout:g} s of wall time"
                      f" ({duration} simulated)", flush=True)
                continue
            except subprocess.CalledProcessError as e:
                why = (e.stderr or "").strip().splitlines()
                print(f"{name:27} failed (exit {e.returncode}): {why[-2] if len(why) > 1 else ''}",
                      flush=True)
                continue
            r = in_process(toml, duration)
            ipp = None
            if args.instructions and small:
                ipp = instructions(out / "summary.json")
            print(f"{name:27} {cmd_s:7.2f} {cpu_s:7.2f} {peak:8.0f} {r['resolve_s']:9.2f} "
                  f"{r['front_s']:8.3f} {r['setup_s']:8.3f} {r['run_s']:7.2f} "
                  f"{r['hops'] / r['run_s'] / 1e6:8.2f} "
                  f"{'' if ipp is None else f'{ipp:9.1f}'}", flush=True)
            ours = r["hops"] / cpu_s / 1e6  # the whole command's, as the others' are
            rows = [[name, "ackclock", duration, cmd_s, cpu_s, peak, r["resolve_s"],
                     r["front_s"], r["setup_s"], r["run_s"], r["hops"],
                     r["hops"] / r["run_s"] / 1e6, ours, "" if ipp is None else ipp]]
            # The others run the ns-2 profile's dumbbell only.
            flows = int(name.split("_")[1]) if re.fullmatch(r"dumbbell_\d+", name) else 0
            for other, sim in others.items():
                if not flows:
                    continue
                if flows > args.beside_max_flows:
                    print(f"  {other:8} not run (over --beside-max-flows)")
                    continue
                o = run_beside(other, sim, flows, duration, Path(d))
                theirs = o["hops"] / o["cpu_s"] / 1e6
                print(f"  {other:8} cpu_s {o['cpu_s']:7.2f}  peak_MB {o['peak_MB']:6.0f}  "
                      f"Mhops/cpu_s {theirs:6.2f}  (ackclock's whole command {ours:6.2f}:"
                      f" {ours / theirs:.1f}x)", flush=True)
                rows.append([name, other, duration, o["wall_s"], o["cpu_s"], o["peak_MB"],
                             "", "", "", "", o["hops"], "", theirs, ""])
            if args.csv:
                with args.csv.open("a") as f:
                    for row in rows:
                        f.write(",".join(str(v) for v in row) + "\n")


if __name__ == "__main__":
    main()
