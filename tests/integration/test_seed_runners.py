"""The one-command seed runners (examples/seeds/NNN/run.py) in their --quick forms: each writes
its tables beside the study's values and its figures, and shows the study's mechanisms."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import ackclock as ac
from ackclock.errors import ScenarioError
from ackclock.seed_runners import runners_folder

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "examples" / "seeds"


def main_of(seed: str):
    return runpy.run_path(str(SEEDS / seed / "run.py"))["main"]


def test_seed000_runner_quick(tmp_path: Path) -> None:
    assert main_of("000")(["--quick", "--out", str(tmp_path)]) == 0
    t = pd.read_csv(tmp_path / "tables.csv", dtype={"section": str})
    assert sorted(t["table"].unique()) == [2, 3, 4, 5, 6, 7]
    assert t["study"].notna().all() and (t["ackclock"] > 0).all()
    for fig in range(3, 9):
        assert (tmp_path / f"figure_{fig}.png").stat().st_size > 10_000
    sinks = t[t["sink"] != "average"].groupby("section")["ackclock"]
    spread = (sinks.max() - sinks.min()) / sinks.mean()
    # Topology 1's large buffers keep the four FTPs in step (the study's Figs. 3 and 7: "the
    # lines ... are coincident"); topology 2's 50-packet switch does not (Fig. 5).
    assert spread["7.1"] < 0.001 and spread["7.5"] < 0.001
    assert spread["7.3"] > 0.01
    assert "| 7.3 | 4 | average |" in (tmp_path / "tables.md").read_text()
    # The report: the tables and every figure on one page.
    report = (tmp_path / "report.md").read_text()
    assert "| 7.3 | 4 | average |" in report and "--quick" in report.splitlines()[0]
    assert all(f"![figure_{n}.png](figure_{n}.png)" in report for n in range(3, 9))


def test_seed004_runner_quick(tmp_path: Path) -> None:
    assert main_of("004")(["--quick", "--out", str(tmp_path)]) == 0
    t = pd.read_csv(tmp_path / "tables.csv")
    q2 = t[t["question"] == "P1 Q2"].set_index("error_rate")
    # Throughput falls as the error rate rises; FlowMonitor-style loss follows the error rate.
    assert q2.loc[0.1, "throughput_mbps"] < q2.loc[0.01, "throughput_mbps"]
    assert q2.loc[0.01, "throughput_mbps"] < q2.loc[0.001, "throughput_mbps"]
    assert 0.05 < q2.loc[0.1, "loss"] < 0.2
    q3 = t[t["question"] == "P1 Q3"].set_index("rwnd_segments")
    # A tenth of a segment: nothing sent, as in ns-3 (only the handshake there).
    assert q3.loc[0.1, "tx_packets"] == 0 and q3.loc[1, "tx_packets"] > 0
    assert q3.loc[1, "throughput_mbps"] < q3.loc[10, "throughput_mbps"]
    q4 = t[t["question"] == "P2 Q4"]
    assert set(q4["westwood"]) == {"westwood", "westwood_original"}
    assert (tmp_path / "reno_vs_westwood.png").stat().st_size > 10_000
    # Every printed cell beside the study's, with its difference; what FlowMonitor counts as
    # lost is what the network dropped plus what was still in flight at the end.
    counted = t[t["question"] != "P2 Q4"]
    assert (counted["tx_packets"] == counted["rx_packets"] + counted["dropped"]
            + counted["in_flight_end"]).all()
    assert ((counted["diff_tx"] - (counted["tx_packets"] / counted["study_tx"] - 1)).abs()
            < 1e-12).all()
    # Part 2 Q1 in the printout's shape: the CBR sends the study's 8850 packets (50 s at 0.725
    # Mb/s of 512-byte payloads) and, under the text's drop-tail queue, loses about as many
    # (the study: 50), where FqCoDel above the device queue spares it.
    p2 = t[t["question"] == "P2 Q1"].set_index(["sizes", "flow"])
    assert set(p2.index.get_level_values("flow")) == {"tcp", "cbr", "ack"}
    cbr = p2.xs("cbr", level="flow")
    assert (cbr.loc[cbr.index.str.startswith("printout"), "tx_packets"] - 8850).abs().max() <= 1
    assert 25 < cbr.loc["printout's sizes, DropTail alone", "dropped"] < 100
    assert cbr.loc["text: 1200-byte packets", "dropped"] == 0
    assert (tmp_path / "cwnd_rtt_rto.png").stat().st_size > 10_000
    report = (tmp_path / "report.md").read_text()
    assert "Part 1 Q2" in report and "![reno_vs_westwood.png](reno_vs_westwood.png)" in report
    assert "Part 2 Q1 iii" in report and "![cwnd_rtt_rto.png](cwnd_rtt_rto.png)" in report
    # Part 2's figure-only questions: their examples' figures in the same report.
    for png in ("fair_share/seed004_fair_share.png", "two_flows/two_flows.png"):
        assert (tmp_path / png).stat().st_size > 10_000 and f"]({png})" in report
    queues = pd.read_csv(tmp_path / "queues" / "seed004_queues.csv")
    assert {"droptail", "fq_codel"} <= set(queues["queue"])


def test_seed001_and_002_runners_quick(tmp_path: Path) -> None:
    assert main_of("001")(["--quick", "--out", str(tmp_path / "1")]) == 0
    t = pd.read_csv(tmp_path / "1" / "seed001_tables" / "seed001_tables.csv")
    extra = t["metric"].isin(["t0_s", "formula6_floored_mbps"])
    assert {"study_mean", "study_std"} <= set(t.columns) and t[~extra]["study_mean"].notna().all()
    assert (t[~extra]["diff_vs_study"] - (t[~extra]["mean"] / t[~extra]["study_mean"] - 1)).abs(
    ).max() < 1e-12
    # Each standard deviation beside the study's: the ratio, and the F test's p-value.
    both = t[~extra & (t["study_std"] > 0)]
    assert ((both["std_ratio"] - both["std"] / both["study_std"]).abs() < 1e-12).all()
    assert both["std_f_p"].between(0, 1).all()
    # T_0 is ns-2's unfloored t_rtxcur_ (SRTT + 4 RTTVAR on the ~67 ms path), not the 200 ms floor.
    t0 = t[t["metric"] == "t0_s"]["mean"]
    assert len(t0) == 4 and ((t0 > 0.06) & (t0 < 0.15)).all()
    assert (tmp_path / "1" / "seed001_scenario1" / "seed001_scenario1_reno.png").exists()
    figs = tmp_path / "1" / "seed001_figures"
    for n in (8, 11, 12, 13, 14):
        assert (figs / f"seed001_fig{n:02d}.png").stat().st_size > 10_000, n
    f = pd.read_csv(figs / "seed001_figures.csv").set_index(["figure", "knob"])
    # A larger population loses more and each source gets less; a shorter round trip gives
    # more per source at the same N (Figs. 13 and 14).
    for fig in (11, 12, 13, 14):
        assert f.loc[(fig, 35), "loss_rate"] > f.loc[(fig, 2), "loss_rate"]
        assert f.loc[(fig, 35), "throughput_mbps"] < f.loc[(fig, 2), "throughput_mbps"]
    assert f.loc[(13, 2), "throughput_mbps"] > f.loc[(14, 2), "throughput_mbps"]
    assert main_of("002")(["--quick", "--out", str(tmp_path / "2")]) == 0
    assert (tmp_path / "2" / "seed002_model" / "throughput_vs_p.png").exists()
    figs = tmp_path / "2" / "seed002_figures"
    for n in range(2, 16):
        assert (figs / f"fig{n:02d}.png").stat().st_size > 10_000, n
    t = pd.read_csv(figs / "throughput.csv")
    assert set(t["profile"]) == {"ns2", "ikr"}
    one = t[(t["N"] == 1) & (t["bs"] == "unlimited") & (t["Ba"] == "2Mb/s")].pivot(
        index="p", columns="profile", values="throughput_mbps")
    # Both model the same TCP where loss is rare: within 2% at p <= 0.001.
    assert ((one.loc[[0.0001, 0.001], "ikr"] / one.loc[[0.0001, 0.001], "ns2"] - 1).abs()
            < 0.02).all()
    # The ns curves have the study's ns-2 timers (June 2004: minrto_ 1 s), so at p = 0.1 IKR's
    # TCP, timing out after 200-400 ms, is ahead of ns-2 as in the study (+49%); with ns-2.35's
    # 200 ms minrto_ it was 25% behind (docs/examples/seed002.md).
    assert one.loc[0.1, "ikr"] > 1.1 * one.loc[0.1, "ns2"]
    # ...and those timers are what the ns curves' TCPs resolved to (throughput.csv records them).
    ns2 = t[t["profile"] == "ns2"]
    assert (ns2["min_rto_s"] == 1.0).all() and (ns2["initial_rto_s"] == 6.0).all()
    assert (ns2["max_rto_s"] == 100000.0).all()
    rt = pd.read_csv(figs / "runtime.csv")
    assert {"ackclock, ns2 profile", "ackclock, ikr profile"} <= set(rt["simulator"])
    # Each runner's report: its tables and every figure it drew, on one page.
    for run in ("1", "2"):
        out = tmp_path / run
        report = (out / "report.md").read_text()
        pngs = list(out.glob("*/*.png"))
        assert len(pngs) >= 8 and all(f"]({p.relative_to(out).as_posix()})" in report
                                      for p in pngs)
    assert "| scenario 3, small loss | throughput_mbps |" in (tmp_path / "1" / "report.md"
                                                            ).read_text()


def test_seed001_figures_runs_as_long_as_seconds_says(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """examples/seed001_figures.py's --seconds sets every run's length, with --quick too (whose
    own length is 60 s); a length that is not positive is one line, not a traceback."""
    main = runpy.run_path(str(SEEDS.parent / "seed001_figures.py"))["main"]
    assert main(["--quick", "--seconds", "8", "--out", str(tmp_path)]) == 0
    f = pd.read_csv(tmp_path / "seed001_figures.csv")
    assert len(f) == 15 and (f["seconds"] == 8).all()
    # 8 s runs (1.6 s warm-up) still measure: every point has traffic, and each population
    # figure's 35 sources lose more than its 2.
    assert (f["throughput_mbps"] > 0).all()
    pop = f[f["figure"] > 8].set_index(["figure", "knob"])["loss_rate"]
    assert all(pop[(fig, 35)] > pop[(fig, 2)] for fig in (11, 12, 13, 14))
    with pytest.raises(SystemExit) as e:
        main(["--seconds", "0", "--out", str(tmp_path)])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith("--seconds: expected a positive number of seconds, got 0")


def test_seed003_script_short(tmp_path: Path) -> None:
    """examples/seed003.py (docs/examples/seed003.md; its runner's --quick runs 150 s at
    622 Mb/s, too long for the suite): one pair, 56 s, a light background. Every step runs
    (vectors, the runs with and without background, the table, the background's series and
    figures), and CUBIC takes more than FAST from FAST's start on, as in the study's Table 1
    (A = 0.489 without background, 0.889 with)."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, str(SEEDS.parent / "seed003.py"), "--pairs", "CUBIC-FAST",
                        "--seconds", "56", "--start", "1", "--seconds-without", "56",
                        "--rate", "5", "--jobs", "2", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    t = pd.read_csv(tmp_path / "asymmetry.csv").set_index("flow1-flow2")
    row = t.loc["CUBIC-FAST"]
    assert (row["study without"], row["study with"]) == (0.489, 0.889)
    assert 0 < row["A without"] < 1 and 0 < row["A with"] < 1
    assert row["loss without (%)"] > 0 and row["queue with (pkts)"] > 0
    # Each flow's own loss (Appendix B's candidates): without background every drop is at the
    # bottleneck, so the two flows' drops are the bottleneck's, and the flow that lost has a
    # rate of its own.
    drops = tuple(int(d) for d in row["drops without (flow 1, flow 2)"].strip("()").split(","))
    assert sum(drops) == row["bottleneck drops without"] > 0
    for i, d in enumerate(drops, 1):
        assert (row[f"flow {i} loss without (%)"] > 0) == (d > 0)
        assert 0 <= row[f"flow {i} loss with (%)"] < 100
        # a flow that lost in the second half has a loss rate over the whole run too
        assert row[f"flow {i} loss without, whole run (%)"] > 0 or d == 0
    s = pd.read_csv(tmp_path / "background_series.csv")
    assert set(s["flow"]) == {"inbound", "outbound"} and s["throughput_mbps"].max() > 0
    assert set(s["run"]) == {"background alone", "with CUBIC-FAST"}
    for direction in ("inbound", "outbound"):
        assert (tmp_path / f"background_{direction}.png").stat().st_size > 10_000


def test_seed003_background_is_tmix_as_ns2_35_runs_it(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/seed003.py's background is ns-2.35's Tmix as `ackclock ns2` builds it from the
    study's script (examples/ns2/seed003_background.tcl, python/ackclock/ns2/build.py
    _tmix_flow): the same resolved TCP parameters for each side (FullTcp Reno with the
    script's settings: Tmix's 1460-byte MSS, a 50-byte header with timestamps, an ACK every
    second segment or at the delayed-ACK timer's 100 ms ticks) and the same application
    (each side's window from its vector's w line, the delay box's RTT added to the path's,
    the closing write 1 s after the last)."""
    import argparse

    import ackclock.ns2.simulator as ns2_simulator
    from ackclock.ns2 import run_script
    from ackclock.scenario import resolve
    from ackclock.tmix import synthesize

    m = runpy.run_path(str(SEEDS.parent / "seed003.py"), run_name="seed003")
    vectors = (tmp_path / "in.vec", tmp_path / "out.vec")
    for i, v in enumerate(vectors):
        synthesize(v, 10, seed=i + 1)
    args = argparse.Namespace(cubic_max_increment=0.0, fast_alpha=200.0)
    ours = {f["name"]: f for f in resolve(
        m["network"](None, vectors, args, 400.0).scenario("10s"))["flows"]}
    assert set(ours) == {"inbound", "outbound"}

    # The script's own resolved scenario, as `ackclock ns2` would run it (stopped there).
    built: list[dict[str, object]] = []

    def keep(scenario: object, **_: object) -> None:
        built.append(resolve(scenario))  # type: ignore[arg-type]
        raise ac.ScenarioError("resolved")

    monkeypatch.setattr(ns2_simulator, "resolve_shared", keep)
    monkeypatch.chdir(tmp_path)
    run_script(str(ROOT / "examples" / "ns2" / "seed003_background.tcl"),
               [str(vectors[0]), str(vectors[1]), "1"])
    script = [f for f in built[0]["flows"] if f.get("app", {}).get("kind") == "tmix"]  # type: ignore[attr-defined]
    assert len(script) == 2
    for f in script:
        mine = ours["inbound" if f["from"] == ours["inbound"]["from"] else "outbound"]
        # ns-2's random boot time (the script's RNG) is the front end's alone.
        assert {k: v for k, v in f["tcp"].items() if k != "ns2_boot_time_ps"} == {
            k: v for k, v in mine["tcp"].items() if k != "ns2_boot_time_ps"}
        assert f["tcp"]["ns2_full_tcp"] and f["tcp"]["variant"] == "reno"
        assert (f["tcp"]["packet_size"], f["tcp"]["header_size"]) == (1460, 50)
        assert {k: v for k, v in f["app"].items() if k not in ("start", "connections")} == {
            k: v for k, v in mine["app"].items() if k not in ("start", "connections")}


def test_seed002_figures_ns2_timers_2_35_reach_the_ns_curves(tmp_path: Path) -> None:
    """examples/seed002_figures.py --ns2-timers 2.35: the ns curves run with ns-2.35's
    Agent/TCP timers (ns-default.tcl: minrto_ 0.2, rtxcur_init_ 3.0, maxrto_ 60), as the
    resolved scenario of each run records them (the default, the study's 2004 timers, is
    checked by the runner's test above). Short runs."""
    main = runpy.run_path(str(SEEDS.parent / "seed002_figures.py"))["main"]
    assert main(["--quick", "--no-ns2", "--seconds", "5", "--ns2-timers", "2.35",
                 "--out", str(tmp_path)]) == 0
    t = pd.read_csv(tmp_path / "throughput.csv")
    ns2, ikr = t[t["profile"] == "ns2"], t[t["profile"] == "ikr"]
    assert len(ns2) == len(ikr) > 0
    assert (ns2["min_rto_s"] == 0.2).all() and (ns2["initial_rto_s"] == 3.0).all()
    assert (ns2["max_rto_s"] == 60.0).all()
    # --no-ns2: Fig. 15 without ns-2.35 itself.
    assert "ns-2.35" not in set(pd.read_csv(tmp_path / "runtime.csv")["simulator"])


def ackclock_seed(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ackclock", "seed", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_ackclock_seed_runs_a_study_by_its_number(tmp_path: Path) -> None:
    """`ackclock seed 0 --quick --only 7.4 --out DIR` is examples/seeds/000/run.py with the same
    flags: one section, its table beside the study's, its figure and report."""
    r = ackclock_seed("0", "--quick", "--only", "7.4", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    t = pd.read_csv(tmp_path / "tables.csv", dtype={"section": str})
    assert set(t["section"]) == {"7.4"} and set(t["table"]) == {5}
    assert (t["ackclock"] > 0).all()
    assert list(t["study"])[:4] == [718.8000275] * 3 + [718.8000109]  # Table 5
    assert (tmp_path / "figure_6.png").stat().st_size > 10_000
    assert "| 7.4 | 5 | average |" in (tmp_path / "report.md").read_text()


def test_ackclock_seed_lists_the_studies_and_gives_a_runners_help() -> None:
    r = ackclock_seed()
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [line[:3] for line in lines[:5]] == ["000", "001", "002", "003", "004"]
    assert lines[0] == "000  Seed 000 (TCP over switch buffer sizes)"
    r = ackclock_seed("000", "--help")
    assert r.returncode == 0 and r.stdout.startswith("usage: ackclock seed 000 ")
    assert "--ns2-seconds" in r.stdout and "--only" in r.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("007",), "seed 007: no such study; the studies are 000, 001, 002, 003, 004"),
    (("004", "--bogus"), "seed 004: unrecognized arguments: --bogus"),
    (("001", "--quick", "extra"), "seed 001: unrecognized arguments: extra"),
    (("000", "--only", "7.9"), "seed 000: --only: no section 7.9; the sections are 7.1, 7.2,"),
    (("000", "--ns2-seconds", "600"), "seed 000: --ns2-seconds: expected a time in seconds"),
    (("002", "--out"), "seed 002: argument --out: expected one argument"),
])
def test_ackclock_seed_bad_study_or_flag_is_one_line(args: tuple[str, ...], message: str,
                                                     tmp_path: Path) -> None:
    r = ackclock_seed(*args, cwd=ROOT)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith(f"ackclock: error: {message}"), r.stderr


def test_ackclock_seed_outside_a_checkout_says_where_it_looked(tmp_path: Path) -> None:
    """The runners are examples of the source checkout, not of the installed package."""
    with pytest.raises(ScenarioError) as e:
        runners_folder(tmp_path, package_checkout=tmp_path)
    assert str(e.value) == (f"seed: no examples/seeds/ in {tmp_path.resolve()} or the folders"
                            " above it: the seed studies' runners come with ackclock's source"
                            " checkout; run this inside one")
    assert runners_folder(SEEDS / "000") == SEEDS


def test_seed003_script_options_of_the_studys_script() -> None:
    """seed003.py's --hs-first-decrease and --overhead (docs/examples/seed003.md, the I and S
    rows): one HS-TCP flow alone for 25 s on the study's path. With ns-2's first decrease
    (TcpAgent::slowdown) its first cut halves the window; without it keeps 1 - b(w) of it
    (RFC 3649, about 79% at 9000 segments). overhead_ 8 us jitters each send (less than one
    packet time at 622 Mb/s): the run changes, its throughput does not."""
    import argparse

    m = runpy.run_path(str(SEEDS.parent / "seed003.py"), run_name="seed003")

    def first_cut(overhead: float, first_decrease: bool) -> tuple[float, float, pd.Series]:
        args = argparse.Namespace(cubic_max_increment=0.0, fast_alpha=200.0,
                                  overhead=overhead, hs_first_decrease=first_decrease)
        net = m["network"](("HS", "CUBIC"), None, args, 0.0)
        flows = {f.name: f.tcp for f in net.scenario("25s").flows}
        assert flows["flow1"].get("ns2_first_decrease", False) is first_decrease
        assert "ns2_first_decrease" not in flows["flow2"]
        assert flows["flow2"]["send_overhead"] == f"{overhead}s"
        res = net.run(duration="25s", sample_interval="0.1s")
        ts = res.timeseries[res.timeseries.flow == "flow1"].reset_index()
        cut = next(k for k in range(1, len(ts))
                   if ts.ssthresh[k] < ts.ssthresh[k - 1] and ts.ssthresh[k - 1] > 1000)
        return (ts.ssthresh[cut] / ts.cwnd[cut - 1],
                res.flows.set_index("flow").loc["flow1", "throughput_mbps"], ts.cwnd)

    b_of_w, rate, cwnd = first_cut(0.0, False)
    halved, _, _ = first_cut(0.0, True)
    jittered, rate_jittered, cwnd_jittered = first_cut(8e-6, False)
    assert 0.75 < b_of_w < 0.82 and 0.49 < halved < 0.51
    assert abs(jittered - b_of_w) < 0.01
    assert not cwnd.equals(cwnd_jittered) and abs(rate_jittered / rate - 1) < 0.005


def test_seed003_runs_as_long_as_the_studys_script() -> None:
    """seed003.py's runs with background are as long as the study's script lets them be: it
    schedules `finish` and stops its Tmix traffic at its `length`, 910 s (Appendix A), so the
    study's statistics, taken at `endtime / 2` and `endtime`, cover 455-910 s at the most; flows
    from 400 s and 450 s as its section 3.3 says."""
    m = runpy.run_path(str(SEEDS.parent / "seed003.py"), run_name="seed003")
    args = m["parser"]().parse_args([])
    assert (args.seconds, args.start, args.seconds_without) == (910.0, 400.0, 500.0)
    assert m["measured_from"](args.start, args.seconds) == 455.0
    assert m["measured_from"](0.0, args.seconds_without) == 250.0
    # a shortened run never measures before flow 2's start
    assert m["measured_from"](50.0, 150.0) == 100.0


def test_seed003_background_offers_the_load_asked(tmp_path: Path) -> None:
    """seed003.py's default background is given by its load (--load, Mb/s offered on R0 -> R1,
    200 for the Abilene-I link the study replays): the connection rate is found from the
    vectors' own bytes, so the vector files offer what was asked, to 1%; twice the load takes
    twice the rate. A rate or load that is not positive is refused in one line."""
    import subprocess
    import sys

    m = runpy.run_path(str(SEEDS.parent / "seed003.py"), run_name="seed003")
    _, rate, offered = m["background"](tmp_path, 60.0, 4.0, None)
    assert abs(offered[0] / 4.0 - 1) < 0.01 and offered[1] > 0
    _, rate2, offered2 = m["background"](tmp_path, 60.0, 8.0, None)
    assert abs(offered2[0] / 8.0 - 1) < 0.01 and 1.8 < rate2 / rate < 2.2
    assert m["offered_mbps"]((tmp_path / "inbound.vec", tmp_path / "outbound.vec"), 60.0) == \
        offered2
    r = subprocess.run([sys.executable, str(SEEDS.parent / "seed003.py"), "--load", "0",
                        "--out", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--load: expected a positive number" in r.stderr
    assert "Traceback" not in r.stderr


def test_seed003_long_transfers(tmp_path: Path) -> None:
    """seed003.py --long-share (docs/examples/seed003.md, "Figs. 8 and 9"): the long transfers'
    vectors are two more Tmix flows on the background's hosts, as many as carry the share at
    their window over 150 ms, none finishing within the run. They send without the script's
    maxburst_ 2: with it and an ACK for every second segment, a transfer alone stays at the
    two segments a round trip it started with, four once Tmix's closing write has come 1 s
    after the last ADU's (the ns2 profile's fin_wait: 10-30 s, about 26.6 packets a second at
    150 ms, ns-2.35's figure); without it, it carries its window a round trip (44 segments of
    1460 bytes: about 290)."""
    import argparse

    m = runpy.run_path(str(SEEDS.parent / "seed003.py"), run_name="seed003")
    vectors, _, _ = m["background"](tmp_path, 40.0, 1.0, None)
    count = m["long_transfers"](vectors, 40.0, 7.0, 65535)
    assert count == 2  # 44 x 1460 x 8 bits / 150 ms = 3.43 Mb/s each
    long_files = m["long_vector_files"](vectors)
    from ackclock.tmix import read_vectors
    for f in long_files:
        c = read_vectors(f, str(f))
        assert len(c["start_ps"]) == 2 and max(c["start_ps"]) < 10 * 10**12
        assert min(c["adu_bytes"]) > 3.43e6 / 8 * 40  # none can finish within the run
    args = argparse.Namespace(cubic_max_increment=0.0, fast_alpha=200.0)
    net = m["network"](None, vectors, args, 400.0)
    flows = {f.name: f for f in net.scenario("10s").flows}
    assert set(flows) == {"inbound", "outbound", "inbound_long", "outbound_long"}
    assert flows["inbound_long"].tcp["max_burst"] == 0
    assert "max_burst" not in flows["inbound"].tcp

    def carried(max_burst: int) -> float:
        net = ac.Network("long", profile="ns2")
        net.nodes("n0", "n1", "R0", "R1")
        net.link("R0", "R1", rate="622Mb/s", delay="48ms", queue_limit=1555)
        for a, b in (("n0", "R0"), ("R1", "n1")):
            net.link(a, b, rate="1Gb/s", delay="1ms", queue_limit=10_000)
        net.defaults(variant="sack", timestamps=True, window=67000, max_burst=max_burst)
        net.tcp("long", "n0", "n1", app=ac.Tmix(file=str(long_files[0]), rtt_added=True,
                                                   windows=True),
                packet_size=1460, delayed_ack=True, segs_per_ack=2, ack_delay="100ms")
        res = net.run(duration="30s", warmup="10s")
        q = res.queues.set_index("link").loc["R0->R1"]
        return float(q.arrived_packets) / 20 / 2  # packets a second, one transfer

    assert 25 < carried(2) < 28
    assert 280 < carried(0) < 295
    r = subprocess.run([sys.executable, str(SEEDS.parent / "seed003.py"), "--long-share", "1",
                        "--out", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--long-share: expected a share from 0 to below 1" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, str(SEEDS.parent / "seed003.py"), "--long-share", "0.25",
                        "--long-window", "1000", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--long-window: expected 1460 to 4294967295 bytes" in r.stderr
    assert "Traceback" not in r.stderr
