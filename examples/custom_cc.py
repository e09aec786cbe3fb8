"""Reno and CUBIC written in Python, run beside the built-in ones (docs/custom-algorithms.md).

    python examples/custom_cc.py --out DIR

runs each reference scenario twice, once with the built-in algorithm and once with its Python
twin below, writes both results folders under DIR/<case>/{builtin,python}, and prints whether
every result table is byte-identical (flows.csv after its `cc` column, which names the
algorithm; summary.json records wall times and is left out).

- PyReno: RFC 5681 section 3.1, as the engine's `tcp/cc/reno.rs` (slow start with RFC 3465's
  L = 2 and RFC 3742's limited slow start; W/2 on a loss).
- PyCubic: RFC 9438 (sections 4.2-4.8), as the engine's `tcp/cc/cubic.rs` without HyStart
  (the scenarios turn HyStart off: the built-in CUBIC's HyStart is not written here) and
  without Linux's integer steps (the `linux` profile's default, `linux_arith`, which the
  linux-profile case turns off in the built-in run).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import ackclock as ac
from ackclock.custom import cbrt

ROOT = Path(__file__).resolve().parent


class PyReno(ac.CongestionControl):
    """RFC 5681 section 3.1: +1 segment per ACK in slow start, +1/cwnd in congestion
    avoidance, half the window on a loss."""

    def cong_avoid(self, ack: ac.Ack) -> None:
        if self.cwnd < self.snd_ssthresh:
            # RFC 3465 2.2: at most L = 2 segments per ACK; RFC 3742 above max_ssthresh.
            credit = min(ack.credit, 2.0)
            m = self.max_ssthresh
            if m > 0.0 and self.cwnd > m:
                self.cwnd += credit / math.floor(self.cwnd / (0.5 * m))
            else:
                self.cwnd += credit
        else:
            self.cwnd += ack.credit / self.cwnd  # RFC 5681 equation 3

    def ssthresh(self) -> float:
        return min(self.cwnd, self.rwnd) / 2.0  # RFC 5681 equation 4


class PyCubic(ac.CongestionControl):
    """RFC 9438: W_cubic(t) = C (t - K)^3 + W_max (4.2), the Reno-friendly W_est (4.3),
    multiplicative decrease by beta with fast convergence (4.6, 4.7), and a timeout that
    forgets W_max (4.8)."""

    state = {"cubic_wmax": "w_max", "cubic_k": "k"}

    def __init__(self, beta: float = 0.7, c: float = 0.4, fast_convergence: float = 1.0):
        self.beta = beta
        self.c = c
        self.fast_convergence = fast_convergence != 0.0
        self.w_max = 0.0
        self.k = 0.0
        self.epoch: int | None = None  # picoseconds
        self.cwnd_epoch = 0.0
        self.w_est = 0.0
        self.srtt_s = 0.0

    def w_cubic(self, t: float) -> float:
        d = t - self.k
        return self.c * (d * d * d) + self.w_max

    def cong_avoid(self, ack: ac.Ack) -> None:
        sample = ack.delay if ack.delay is not None else ack.rtt
        if sample is not None:
            self.srtt_s = sample if self.srtt_s == 0.0 else 0.875 * self.srtt_s + 0.125 * sample
        cwnd = self.cwnd
        if cwnd < self.snd_ssthresh:  # Reno's slow start
            credit = min(ack.credit, 2.0)
            m = self.max_ssthresh
            self.cwnd = cwnd + (credit / math.floor(cwnd / (0.5 * m)) if 0.0 < m < cwnd
                                else credit)
            return
        if self.epoch is None:  # a new epoch, from the window after the reduction
            self.epoch = ack.now_ps
            self.cwnd_epoch = cwnd
            self.w_est = cwnd
            if self.w_max < cwnd:
                self.w_max = cwnd
            # The engine's cube root (Rust's, which parts from math.cbrt in the last bit).
            self.k = cbrt(max(self.w_max - cwnd, 0.0) / self.c)
        t = (ack.now_ps - self.epoch) / 1e12
        target = self.w_cubic(t + self.srtt_s)
        alpha = 3.0 * (1.0 - self.beta) / (1.0 + self.beta)
        self.w_est += alpha * ack.credit / cwnd
        if self.w_cubic(t) < self.w_est:  # Reno-friendly region (4.3)
            self.cwnd = max(cwnd, self.w_est)
        elif target > cwnd:  # concave and convex regions (4.4, 4.5)
            self.cwnd = cwnd + (target - cwnd) / cwnd * ack.credit
        else:
            self.cwnd = cwnd + 0.01 * ack.credit / cwnd

    def ssthresh(self) -> float:
        cwnd = min(self.cwnd, self.rwnd)
        if self.fast_convergence and cwnd < self.w_max:  # 4.7
            self.w_max = cwnd * (1.0 + self.beta) / 2.0
        else:
            self.w_max = cwnd
        self.epoch = None
        return cwnd * self.beta  # 4.6

    def set_state(self, state: ac.CaState) -> None:
        if state == ac.CaState.LOSS:  # 4.8: a timeout starts over from the current window
            self.epoch = None
            self.w_max = 0.0


# (case, scenario file, overrides, flow, built-in cc and its parameters, Python twin)
CASES = [
    ("reno", "single_reno.toml", [], "tcp1", "reno", {}, PyReno),
    # The file's flow is Reno, which takes no beta: the override makes it CUBIC first.
    ("cubic_ns2", "single_reno.toml", ["flow.tcp1.cc=cubic", "flow.tcp1.cc_params.beta=0.8"],
     "tcp1", "cubic", {"beta": 0.8}, PyCubic(beta=0.8)),
    # The linux profile's CUBIC runs Linux's integer bictcp_update (linux_arith); PyCubic is
    # RFC 9438's form, so the built-in twin turns it off.
    ("cubic_vs_bbr", "dumbbell.toml", ["defaults.tcp.hystart=off"], "cubic", "cubic",
     {"linux_arith": 0.0}, PyCubic),
]

# Result tables compared byte for byte.
TABLES = ("flows.csv", "flows_detail.csv", "timeseries.csv", "queues.csv",
          "queue_timeseries.csv", "cc_state.csv", "tcp_trace.csv", "connections.csv",
          "queue_flows.csv")


def run_case(case: str, file: str, overrides: list[str], flow: str, builtin: str,
             params: dict[str, float], twin: object, out: Path) -> list[tuple[str, bool]]:
    """Runs the case both ways; (table, identical) per result table."""
    dirs = {}
    for how in ("builtin", "python"):
        extra = [f"flow.{flow}.cc={builtin}"] if how == "builtin" else []
        sc = ac.load_scenario(ROOT / file, [*overrides, *extra])
        for f in sc.flows:
            if f.name == flow:
                f.cc = builtin if how == "builtin" else twin  # type: ignore[assignment]
                if how == "python":
                    f.tcp.pop("cc_params", None)
                else:
                    f.tcp["cc_params"] = dict(params)
        res = ac.run_scenario(sc, progress=False)
        dirs[how] = out / case / how
        res.save(dirs[how])
    name = res.flows.loc[res.flows["flow"] == flow, "cc"].iloc[0]
    rows = []
    for table in TABLES:
        a = (dirs["builtin"] / table).read_bytes()
        b = (dirs["python"] / table).read_bytes()
        if table == "flows.csv":
            b = b.replace(f",{name},".encode(), f",{builtin},".encode())
        rows.append((table, a == b))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", required=True, help="folder for the results folders")
    args = ap.parse_args(argv)
    out = Path(args.out)
    failed = 0
    print(f"{'case':14s} {'table':22s} built-in = Python")
    for case, file, overrides, flow, builtin, params, twin in CASES:
        for table, same in run_case(case, file, overrides, flow, builtin, params, twin, out):
            failed += not same
            print(f"{case:14s} {table:22s} {'identical' if same else 'DIFFERENT'}")
    print("all identical" if failed == 0 else f"{failed} tables differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
