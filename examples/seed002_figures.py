"""Seed 002 (ns-2 against IKRSimLib), every figure: Figs. 2-14 with the `ns2` profile standing
for ns-2.35 and the `ikr` profile for IKRSimLib, Fig. 15 (run time against the number of
sources) with ackclock and, when `ns` is on PATH, ns-2.35 itself; docs/examples/seed002.md.

The model: N Reno sources on access links of B_a (2 Mb/s; Fig. 3 also 5 Mb/s), a 10 Mb/s
bottleneck of 50 ms each way with Bernoulli loss p on the data direction and a FIFO of bs
packets ("infinite" in Figs. 2-3), delayed-ACK sinks on ideal links, 1460 B segments, window
32 segments (the study's Appendix A script and Appendix B parameter file). Throughput is what
the study measured: segments arriving at the receivers, retransmissions included; goodput
leaves the retransmissions out.

    python examples/seed002_figures.py [--quick] [--no-ns2] [--ns2-timers 2004|2.35]
                                       [--seconds S] [--out results/seed002_figures]

--quick: 150 s runs on a coarser grid (the study: 1500 s). --ns2-timers: the ns curves' Agent/TCP
timer defaults, ns-2's of the study's date (2004, the default: minrto_ 1 s) or ns-2.35's.
--seconds: another run length. Writes figNN.png, throughput.csv (each run's throughput and the
minimum, initial and maximum RTO its TCP resolved to), runtime.csv (Fig. 15 in CPU seconds, and wall
seconds) and gaps.md (IKR over ns-2 at each p, beside the study's +3/+30/+49%).
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

import pandas as pd

import ackclock as ac

PROFILES = ("ns2", "ikr")
LABEL = {"ns2": "ns (ns2 profile)", "ikr": "SL (ikr profile)"}
# The study is dated June 17, 2004: its ns-2 (2.26 or 2.27) had Agent/TCP's timer defaults of
# before October 2004, which ns-2.35's own test suites restore to run old results: minrto_ 1
# ("default changed on 10/14/2004"; test-suite-delaybox.tcl: "ns-2.27 value"), rtxcur_init_ 6
# ("Default changed on 2006/01/21"), precisionReduce_ false ("default changed on 2006/1/24"),
# maxrto_ 100000 (ns-2.35: 60). `--ns2-timers 2.35` runs ns-2.35's own.
NS2_TIMERS = {"2004": {"min_rto": "1s", "initial_rto": "6s", "precision_reduce": False,
                       "max_rto": "100000s"},
              "2.35": {}}
PS = [0.0001, 0.001, 0.01, 0.05, 0.1]
NS = [1, 2, 5, 10, 50]
# The study's conclusions (section 5 and 7): IKRSimLib over ns-2, "considering p as the total
# packet loss probability".
STUDY_GAP = {0.01: 3.0, 0.05: 30.0, 0.1: 49.0}
UNLIMITED = 1_000_000


def model(profile: str, n: int, p: float, bs: int | None, seconds: int,
          ba: str = "2Mb/s", ns2_timers: str = "2004", seed: int = 1,
          tcp: dict[str, object] | None = None, ack_loss: bool = False) -> dict[str, object]:
    """One run. `tcp`: more TCP keys over the profile's (examples/seed002_candidates.py);
    `ack_loss`: the same Bernoulli loss on the ACK direction too."""
    net = ac.Network(f"seed002-{profile}-n{n}-p{p}-bs{bs}-{ba.replace('/', '')}",
                     profile=profile)
    net.nodes("entry", "exit")
    net.link("entry", "exit", rate="10Mb/s", delay="50ms", duplex=False,
             queue_limit=UNLIMITED if bs is None else bs,
             loss={"kind": "bernoulli", "p": p})
    net.link("exit", "entry", rate="10Mb/s", delay="50ms", duplex=False,
             loss={"kind": "bernoulli", "p": p} if ack_loss else None)
    net.defaults(**{"packet_size": 1460, "window": 32, "sink": "delack",
                    **(NS2_TIMERS[ns2_timers] if profile == "ns2" else {}), **(tcp or {})})
    for i in range(n):
        net.nodes(f"s{i}", f"d{i}")
        net.link(f"s{i}", "entry", rate=ba, delay="0ms")
        net.link(f"d{i}", "exit", rate="1e25Mb", delay="0ms")
        net.tcp(f"tcp{i}", f"s{i}", f"d{i}", start={"uniform": ["0s", "1s"]})
    t0, c0 = time.perf_counter(), time.process_time()
    # ns-2's order of simultaneous events for its curves (docs/examples/seed002.md: with
    # 3-packet buffers insertion order puts them 4-5% below ns-2.35).
    res = net.run(duration=f"{seconds}s", seed=seed, progress=False,
                  **({"ties": "ns2"} if profile == "ns2" else {}))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    f = res.flows
    q = res.queues.set_index("link").loc["entry->exit"]
    timers: dict[str, float] = res.summary["scenario"]["flows"][0]["tcp"]  # as resolved
    return {
        "profile": profile, "N": n, "p": p, "bs": "unlimited" if bs is None else str(bs), "Ba": ba,
        "min_rto_s": timers["min_rto_ps"] / 1e12,
        "initial_rto_s": timers["initial_rto_ps"] / 1e12, "max_rto_s": timers["max_rto_ps"] / 1e12,
        "throughput_mbps": f.throughput_mbps.sum(),
        "goodput_mbps": f.goodput_mbps.sum(),
        "overflow_loss": q.dropped_packets / q.arrived_packets if q.arrived_packets else 0.0,
        "timeouts": int(f.timeouts.sum()),
        "fast_retransmits": int(f.fast_retransmits.sum()),
        "wall_s": wall, "cpu_s": cpu,
    }


def grid(quick: bool) -> list[tuple[int, float, int | None, str]]:
    """(N, p, bs, B_a) of every run the figures need, without repeats."""
    ns_n = [1, 2, 5, 10, 50] if not quick else [1, 10, 50]
    n_axis = [1, 2, 5, 10, 20, 50] if not quick else [1, 10, 50]
    bss = [2, 3, 5, 10, 20, 50, 100, 200] if not quick else [3, 20, 200]
    runs: list[tuple[int, float, int | None, str]] = []
    runs += [(1, p, None, ba) for p in PS for ba in ("2Mb/s", "5Mb/s")]  # Figs. 2, 3
    runs += [(n, p, bs, "2Mb/s") for bs in (200, 5) for n in ns_n for p in PS]  # Figs. 4, 5, 10
    runs += [(n, p, bs, "2Mb/s") for bs in (3, 200) for n in n_axis
             for p in (0.0001, 0.01, 0.1)]  # Figs. 6-9
    runs += [(n, p, bs, "2Mb/s") for p in (0.0001, 0.001, 0.01, 0.1) for n in ns_n
             for bs in bss]  # Figs. 11-14
    return list(dict.fromkeys(runs))


def _sel(t: pd.DataFrame, **kw: object) -> pd.DataFrame:
    m = pd.Series(True, index=t.index)
    for k, v in kw.items():
        m &= t[k] == v
    return t[m]


def plot_all(t: pd.DataFrame, rt: pd.DataFrame, out: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    style = {"ns2": "-", "ikr": "--"}
    made = []

    def save(fig: object, name: str, title: str) -> None:
        ax = fig.axes[0]  # type: ignore[attr-defined]
        ax.set_title(title, fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()  # type: ignore[attr-defined]
        fig.savefig(out / name, dpi=110)  # type: ignore[attr-defined]
        plt.close(fig)  # type: ignore[arg-type]
        made.append(name)

    def vs_p(name: str, title: str, curves: list[tuple[str, dict[str, object]]]) -> None:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for i, (label, kw) in enumerate(curves):
            for prof in PROFILES:
                g = _sel(t, profile=prof, **kw).sort_values("p")
                if g.empty:
                    continue
                ax.plot(g.p, g.throughput_mbps * 125, style[prof], marker="o", ms=3,
                        color=f"C{i}", label=f"{label} {LABEL[prof]}")
        ax.set_xscale("log")
        ax.set_xlabel("packet loss probability p")
        ax.set_ylabel("total throughput (byte/ms)")
        save(fig, name, title)

    vs_p("fig02.png", "Fig. 2: N = 1, B_a = 2 Mb/s, infinite buffer",
         [("", {"N": 1, "bs": "unlimited", "Ba": "2Mb/s"})])
    vs_p("fig03.png", "Fig. 3: N = 1, infinite buffer, B_a = 2 and 5 Mb/s",
         [(f"B_a={ba}", {"N": 1, "bs": "unlimited", "Ba": ba}) for ba in ("2Mb/s", "5Mb/s")])
    for name, bs in (("fig04.png", 200), ("fig05.png", 5)):
        vs_p(name, f"Fig. {int(name[3:5])}: B_a = 2 Mb/s, bs = {bs} packets",
             [(f"N={n}", {"N": n, "bs": str(bs), "Ba": "2Mb/s"}) for n in NS])

    def vs_n(name: str, title: str, bs: int, ycols: list[str], ylabel: str) -> None:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for i, p in enumerate((0.0001, 0.01, 0.1)):
            for prof in PROFILES:
                g = _sel(t, profile=prof, bs=str(bs), p=p, Ba="2Mb/s").sort_values("N")
                if g.empty:
                    continue
                for col in ycols:
                    y = g[col] * (125 if col.endswith("mbps") else 1)
                    mark = "o" if col != "goodput_mbps" else "x"
                    ax.plot(g.N, y, style[prof], marker=mark, ms=3, color=f"C{i}",
                            label=f"p={p} {col.split('_')[0]} {LABEL[prof]}")
        ax.set_xlabel("number of TCP sources N")
        ax.set_ylabel(ylabel)
        save(fig, name, title)

    vs_n("fig06.png", "Fig. 6: throughput and goodput, bs = 3", 3,
         ["throughput_mbps", "goodput_mbps"], "byte/ms")
    vs_n("fig07.png", "Fig. 7: overflow loss at the bottleneck buffer, bs = 3", 3,
         ["overflow_loss"], "overflow loss probability")
    vs_n("fig08.png", "Fig. 8: throughput and goodput, bs = 200", 200,
         ["throughput_mbps", "goodput_mbps"], "byte/ms")
    vs_n("fig09.png", "Fig. 9: overflow loss at the bottleneck buffer, bs = 200", 200,
         ["overflow_loss"], "overflow loss probability")

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for i, p in enumerate(PS):
        for prof in PROFILES:
            g = _sel(t, profile=prof, bs="200", p=p, Ba="2Mb/s").sort_values("N")
            if g.empty:
                continue
            ax.plot(g.N, g.throughput_mbps * 125, style[prof], marker="o", ms=3,
                    color=f"C{i}", label=f"p={p} {LABEL[prof]}")
    ax.set_xlabel("number of TCP sources N")
    ax.set_ylabel("total throughput (byte/ms)")
    save(fig, "fig10.png", "Fig. 10: throughput against N, bs = 200")

    for num, p in zip((11, 12, 13, 14), (0.0001, 0.001, 0.01, 0.1), strict=True):
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for i, n in enumerate(NS):
            for prof in PROFILES:
                g = _sel(t, profile=prof, N=n, p=p, Ba="2Mb/s")
                g = g[g.bs != "unlimited"].assign(b=lambda d: d.bs.astype(int)).sort_values("b")
                if g.empty:
                    continue
                ax.plot(g.b, g.throughput_mbps * 125, style[prof], marker="o", ms=3,
                        color=f"C{i}", label=f"N={n} {LABEL[prof]}")
        ax.set_xscale("log")
        ax.set_xlabel("bottleneck buffer bs (packets)")
        ax.set_ylabel("total throughput (byte/ms)")
        save(fig, f"fig{num}.png", f"Fig. {num}: throughput against bs, p = {p}")

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for sim, g in rt.groupby("simulator", sort=False):
        ax.plot(g.N, g.cpu_s, marker="o", label=str(sim))
    ax.set_xlabel("number of TCP sources N")
    ax.set_ylabel("run time (CPU seconds, user + system)")
    secs = int(rt.seconds.iloc[0])
    save(fig, "fig15.png", f"Fig. 15: run time, {secs} s simulated, bs = 200, p = 0.0001")
    return made


def gaps(t: pd.DataFrame) -> str:
    """IKR (ikr profile) over ns-2 (ns2 profile) at each p, beside the study."""
    rows = ["| p | N = 1, unlimited buffer: ns2 / ikr (Mb/s) | ikr - ns2 | N = 10, bs = 200"
            " | N = 50, bs = 200 | the study (SL over ns) | N = 1 minus the study |",
            "|---|---|---|---|---|---|---|"]
    for p in PS:
        cells = []
        for kw in ({"N": 1, "bs": "unlimited", "Ba": "2Mb/s"},
                   {"N": 10, "bs": "200", "Ba": "2Mb/s"}, {"N": 50, "bs": "200", "Ba": "2Mb/s"}):
            a = _sel(t, profile="ns2", p=p, **kw).throughput_mbps.iloc[0]
            b = _sel(t, profile="ikr", p=p, **kw).throughput_mbps.iloc[0]
            cells.append((a, b, (b / a - 1) * 100))
        study = f"+{STUDY_GAP[p]:.0f}%" if p in STUDY_GAP else "\"fit very well\""
        minus = (f"{cells[0][2] - STUDY_GAP[p]:+.1f} points" if p in STUDY_GAP else "")
        rows.append(f"| {p} | {cells[0][0]:.3f} / {cells[0][1]:.3f} | {cells[0][2]:+.1f}% |"
                    f" {cells[1][2]:+.1f}% | {cells[2][2]:+.1f}% | {study} | {minus} |")
    return "\n".join(rows) + "\n"


def _children_cpu() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def runtime(seconds: int, use_ns2: bool, quick: bool, ns2_timers: str) -> pd.DataFrame:
    """CPU seconds (user + system) of each simulator on the Fig. 15 case, and wall seconds:
    on a shared machine the CPU time is the comparable one."""
    ns_axis = [1, 2, 5, 10, 20, 50] if not quick else [1, 5]
    rows = []
    have_ns = use_ns2 and shutil.which("ns") is not None
    if have_ns:
        import runpy

        val = runpy.run_path(str(Path(__file__).resolve().parents[1] / "validation"
                                 / "seed002_vs_ns2.py"))
    for n in ns_axis:
        for prof in PROFILES:
            r = model(prof, n, 0.0001, 200, seconds, ns2_timers=ns2_timers)
            rows.append({"simulator": f"ackclock, {prof} profile", "N": n, "seconds": seconds,
                         "cpu_s": r["cpu_s"], "wall_s": r["wall_s"],
                         "throughput_mbps": r["throughput_mbps"]})
        if have_ns:
            c0 = _children_cpu()
            thr, wall = val["run_ns2"](val["Case"](n, 0.0001, 200, seconds))
            rows.append({"simulator": "ns-2.35", "N": n, "seconds": seconds,
                         "cpu_s": _children_cpu() - c0, "wall_s": wall,
                         "throughput_mbps": thr})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="150 s runs, a coarser grid")
    ap.add_argument("--no-ns2", action="store_true", help="Fig. 15 without ns-2.35")
    ap.add_argument("--ns2-timers", choices=sorted(NS2_TIMERS), default="2004",
                    help="the ns curves' Agent/TCP timer defaults: ns-2 of the study's date"
                         " (2004: minrto_ 1 s) or ns-2.35's (minrto_ 0.2 s)")
    ap.add_argument("--seconds", type=int, default=None,
                    help="each run's length (default 1500 s, --quick 150 s)")
    ap.add_argument("--out", type=Path, default=Path("results/seed002_figures"))
    args = ap.parse_args(argv)
    if args.seconds is not None and args.seconds <= 0:
        ap.error(f"--seconds: expected a whole number of seconds above 0, got {args.seconds}")
    seconds = args.seconds or (150 if args.quick else 1500)
    LABEL["ns2"] = f"ns (ns2 profile, {args.ns2_timers} timers)"
    args.out.mkdir(parents=True, exist_ok=True)
    rows = [model(prof, n, p, bs, seconds, ba, args.ns2_timers)
            for (n, p, bs, ba) in grid(args.quick) for prof in PROFILES]
    t = pd.DataFrame(rows)
    t.to_csv(args.out / "throughput.csv", index=False)
    rt = runtime(seconds, not args.no_ns2, args.quick, args.ns2_timers)
    rt.to_csv(args.out / "runtime.csv", index=False)
    text = gaps(t)
    (args.out / "gaps.md").write_text(text, encoding="utf-8")
    print(text)
    print(rt.pivot(index="N", columns="simulator", values="cpu_s").round(3).to_string())
    made = plot_all(t, rt, args.out)
    print(f"{len(t)} runs; figures {', '.join(made)} in {args.out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
