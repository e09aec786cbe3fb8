"""Tmix connection vectors: reading them, and writing realistic synthetic ones.

The format is the one ns-2's Tmix reads (Weigle et al., "Tmix: A Tool for Generating Realistic
TCP Application Workloads in ns-2", ACM CCR 2006): a connection per block, separated by blank
lines or by the next header; times in microseconds, sizes in bytes; ``#`` starts a comment.

    SEQ <start> <adus>            a sequential connection (request/response turns)
    CONC <start> <init adus> <acc adus>     a concurrent one
    w <init window> <acc window>  advertised windows (read, not used: the flow's TCP sets them)
    r <min rtt>                   the connection's minimum round-trip time (Tmix_DelayBox)
    l <init loss> <acc loss>      loss rates of the packets each side sends
    > <bytes>   < <bytes>         SEQ: an ADU from the initiator / from the acceptor
    t <time>                      SEQ: the wait before the next ADU
    c> <bytes>  t> <time>         CONC: an initiator ADU / the initiator's wait before its next
    c< <bytes>  t< <time>         CONC: the same for the acceptor

The original traces (UNC 2001, Abilene-I 2002) are not public; :func:`synthesize` writes
vectors with the heavy-tailed shapes those papers report (see docs/traffic.md).
"""

from __future__ import annotations

import math
import random
from array import array
from pathlib import Path
from typing import Any

from .atomic import write_text_atomic
from .errors import ScenarioError, quote
from .scenario import collector_paused

US = 1_000_000  # picoseconds per microsecond


def read_vectors(path: Path, where: str) -> dict[str, Any]:
    """The connections of a vector file, as the engine's ``app.connections``: one column per
    field, an ``array.array`` of numbers (``concurrent``: a list of bools; see
    :func:`as_connections` for one dict per connection). Per connection:
    ``start_ps``, ``concurrent``, ``rtt_ps``, ``loss_initiator``, ``loss_acceptor``,
    ``window_initiator`` and ``window_acceptor`` (the ``w`` line's bytes, 0 without one),
    ``fin_wait_ps`` (a SEQ vector's trailing ``t``: its closing write's wait, 0 without one) and
    ``adus`` (how many ADUs it has); per ADU, all connections' in order: ``adu_side`` (0 the
    initiator writes it, 1 the acceptor), ``adu_bytes`` and ``adu_wait_ps`` (the wait before
    it: after the peer's previous ADU arrived, or the writer's own previous ADU, see
    docs/traffic.md).

    Seed 003's background replays hundreds of thousands of connections, millions of lines:
    the engine's reader takes plain well-formed files; anything else is read here, through
    the checks of ``_numbers``, which name the line of the first mistake. Arrays, not lists:
    a list of Python ints took some 40 bytes a value (seed 003's study runs, 6.5 million
    connections of 5 ADUs: 6 GB), an array 8 (docs/performance.md)."""
    from .inputs import MAX_DATA_BYTES, read_text

    text = read_text(path, MAX_DATA_BYTES, key=where)
    fast = _fast_reader()
    if fast is not None:
        columns = fast(text)
        if columns is not None:
            return dict(columns)
    # The collector would walk the growing lists on its passes for nothing: they hold no
    # reference cycles.
    with collector_paused():
        return _parse_vectors(text, path, where)


def _fast_reader() -> Any:
    """The engine's reader of plain well-formed vector files (``traffic/tmix/vectors.rs``): it gives
    up (None) at anything unusual, and this module's reader then reports the mistake."""
    try:
        from . import _core
    except ImportError:
        return None
    return getattr(_core, "read_tmix_vectors", None)


def as_connections(columns: dict[str, Any]) -> list[dict[str, Any]]:
    """The vectors of :func:`read_vectors`, one dict per connection with its ADUs as dicts
    (``side``, ``bytes``, ``wait_ps``)."""
    conns = []
    j = 0
    for i, k in enumerate(columns["adus"]):
        conns.append({
            "start_ps": columns["start_ps"][i], "concurrent": columns["concurrent"][i],
            "rtt_ps": columns["rtt_ps"][i],
            "loss": [columns["loss_initiator"][i], columns["loss_acceptor"][i]],
            "window": [columns["window_initiator"][i], columns["window_acceptor"][i]],
            "fin_wait_ps": columns["fin_wait_ps"][i] if "fin_wait_ps" in columns else 0,
            "adus": [{"side": columns["adu_side"][a], "bytes": columns["adu_bytes"][a],
                      "wait_ps": columns["adu_wait_ps"][a]} for a in range(j, j + k)],
        })
        j += k
    return conns


def _parse_vectors(text: str, path: Path, where: str) -> dict[str, Any]:
    start_ps: list[int] = []
    concurrent_of: list[bool] = []
    rtt_ps: list[int] = []
    loss_i: list[float] = []
    loss_a: list[float] = []
    win_i: list[int] = []
    win_a: list[int] = []
    fin_wait: list[int] = []
    counts: list[int] = []
    sides: list[int] = []
    sizes: list[int] = []
    waits: list[int] = []
    started = False
    empty: int | None = None  # the start of the first connection without ADUs
    concurrent = False
    seq_wait = 0  # SEQ: the wait before the next ADU (its "t" line)
    seq_pending = False  # SEQ: a "t" line no ADU has followed yet
    conc_wait = [0, 0]  # CONC: the wait before each side's next ADU

    def fail(n: int, message: str) -> ScenarioError:
        return ScenarioError(message, path=f"{where} ({path.name} line {n})")

    for n, line in enumerate(text.splitlines(), 1):
        if "#" in line:
            line = line.split("#", 1)[0]
        words = line.split()
        if not words:
            continue
        key = words[0]
        if key in ("SEQ", "CONC"):
            if seq_pending:
                fin_wait[-1] = _closing_wait(seq_wait)
            numbers = _numbers(words, line, n, fail)
            if not numbers or not 0 <= numbers[0] < math.inf:
                raise fail(n, f"{key} needs a start time in microseconds")
            if started and counts[-1] == 0 and empty is None:
                empty = start_ps[-1]
            started = True
            concurrent = key == "CONC"
            start_ps.append(round(numbers[0] * US))
            concurrent_of.append(concurrent)
            rtt_ps.append(0)
            loss_i.append(0.0)
            loss_a.append(0.0)
            win_i.append(0)
            win_a.append(0)
            fin_wait.append(0)
            counts.append(0)
            seq_wait = 0
            seq_pending = False
            conc_wait = [0, 0]
            continue
        if not started:
            raise fail(n, f"{quote(key)} before the first SEQ or CONC header")
        if key == "w":
            numbers = _numbers(words, line, n, fail)
            if len(numbers) == 2:
                # ns-2.35 reads the two windows with %d: whole bytes.
                if not all(0 <= x <= 2**32 - 1 for x in numbers):
                    raise fail(n, "w needs two windows of 0 to 4294967295 bytes")
                win_i[-1], win_a[-1] = (int(x) for x in numbers)
        elif key == "r":
            rtt_ps[-1] = round(_one(_numbers(words, line, n, fail), n, fail) * US)
        elif key == "l":
            numbers = _numbers(words, line, n, fail)
            if len(numbers) != 2 or not all(0 <= x <= 1 for x in numbers):
                raise fail(n, "l needs two loss rates in [0, 1]")
            loss_i[-1], loss_a[-1] = numbers
        elif (key == ">" or key == "<") and not concurrent:
            sides.append(1 if key == "<" else 0)
            sizes.append(_bytes(words, line, n, fail))
            waits.append(seq_wait)
            counts[-1] += 1
            seq_wait = 0
            seq_pending = False
        elif key == "t" and not concurrent:
            seq_wait = round(_one(_numbers(words, line, n, fail), n, fail) * US)
            seq_pending = True
        elif (key == "c>" or key == "c<") and concurrent:
            side = 0 if key == "c>" else 1
            sides.append(side)
            sizes.append(_bytes(words, line, n, fail))
            waits.append(conc_wait[side])
            counts[-1] += 1
            conc_wait[side] = 0
        elif (key == "t>" or key == "t<") and concurrent:
            conc_wait[0 if key == "t>" else 1] = round(
                _one(_numbers(words, line, n, fail), n, fail) * US)
        else:
            _numbers(words, line, n, fail)
            raise fail(n, f"unknown or misplaced line {quote(line.strip())}")
    if not started:
        raise ScenarioError(f"{quote(str(path))} has no connections", path=where)
    if seq_pending:
        fin_wait[-1] = _closing_wait(seq_wait)
    if empty is None and counts[-1] == 0:
        empty = start_ps[-1]
    if empty is not None:
        raise ScenarioError(f"a connection starting at {empty / US:g} us has no ADUs",
                            path=f"{where} ({path.name})")
    # The columns of the engine's reader (read_tmix_vectors): arrays, concurrent a list.
    return {"start_ps": array("Q", start_ps), "concurrent": concurrent_of,
            "rtt_ps": array("Q", rtt_ps), "loss_initiator": array("d", loss_i),
            "loss_acceptor": array("d", loss_a), "window_initiator": array("Q", win_i),
            "window_acceptor": array("Q", win_a), "fin_wait_ps": array("Q", fin_wait),
            "adus": array("Q", counts),
            "adu_side": array("B", sides), "adu_bytes": array("Q", sizes),
            "adu_wait_ps": array("Q", waits)}


def _closing_wait(ps: int) -> int:
    """A SEQ vector's trailing ``t`` as its closing write's wait (ns-2.35's
    ``Tmix::read_one_cvec``: the closing ADU's wait, in place of ``fin_time_``; a wait of 0
    forced to 1 us)."""
    return max(ps, US)


def _numbers(words: list[str], line: str, n: int, fail: Any) -> list[float]:
    """The numbers after a line's key."""
    try:
        return [float(a) for a in words[1:]]
    except ValueError:
        raise fail(n, f"expected numbers after {quote(words[0])}, got {quote(line.strip())}"
                   ) from None


def _bytes(words: list[str], line: str, n: int, fail: Any) -> int:
    """An ADU line's size: one whole, non-negative number of bytes."""
    if len(words) == 2:
        try:
            b = int(words[1])
        except ValueError:
            pass
        else:
            if b >= 0:
                return b
    return _size(_one(_numbers(words, line, n, fail), n, fail), n, fail)


def _one(numbers: list[float], n: int, fail: Any) -> float:
    if len(numbers) != 1 or numbers[0] < 0 or not math.isfinite(numbers[0]):
        raise fail(n, "expected one non-negative number")
    return numbers[0]


def _size(x: float, n: int, fail: Any) -> int:
    if x != int(x):
        raise fail(n, f"expected a whole number of bytes, got {x:g}")
    return int(x)


def synthesize(path: str | Path, connections: int, *, seed: int = 1, rate_per_s: float = 50.0,
               concurrent_fraction: float = 0.05) -> None:
    """Writes ``connections`` synthetic connection vectors to ``path``.

    Connection starts form a Poisson process of ``rate_per_s``. Most connections are SEQ,
    web-like: a number of request/response epochs (geometric, mean 2.5); requests of
    lognormal size (median 300 B); responses Pareto-tailed (shape 1.2, minimum 400 B, capped at
    50 MB), so most are small and a few carry most of the bytes, the mix Tmix's source traces
    show (Hernandez-Campos et al. 2004); think times exponential (mean 0.5 s) between epochs and
    short (mean 5 ms) server delays. A ``concurrent_fraction`` are CONC, both sides streaming
    a few ADUs. Minimum RTTs are lognormal (median 50 ms); no extra loss.
    """
    rng = random.Random(seed)
    lines = [f"# {connections} synthetic Tmix connection vectors (ackclock.tmix.synthesize,"
             f" seed {seed}, {rate_per_s:g} connections/s)"]
    t = 0.0
    # Headers as ns-2.35's Tmix reads them: SEQ start ADUs 0 id, CONC start n_init n_acc 0 id.
    for ident in range(1, connections + 1):
        t += rng.expovariate(rate_per_s)
        start_us = round(t * 1e6)
        rtt_us = round(min(2e6, rng.lognormvariate(math.log(50e3), 0.6)))
        if rng.random() < concurrent_fraction:
            n_init, n_acc = rng.randint(1, 4), rng.randint(1, 4)
            lines += [f"CONC {start_us} {n_init} {n_acc} 0 {ident}", "w 65535 65535",
                      f"r {rtt_us}",
                      "l 0.000000 0.000000"]
            for side, count in ((">", n_init), ("<", n_acc)):
                for k in range(count):
                    if k:
                        lines.append(f"t{side} {round(rng.expovariate(1 / 0.2) * 1e6)}")
                    lines.append(f"c{side} {_pareto(rng, 800, 1.3)}")
        else:
            epochs = 1
            while rng.random() < 0.6 and epochs < 50:
                epochs += 1
            lines += [f"SEQ {start_us} {2 * epochs} 0 {ident}", "w 65535 65535", f"r {rtt_us}",
                      "l 0.000000 0.000000"]
            for e in range(epochs):
                if e:
                    lines.append(f"t {round(rng.expovariate(1 / 0.5) * 1e6)}")
                lines.append(f"> {max(40, round(rng.lognormvariate(math.log(300), 0.8)))}")
                lines.append(f"t {round(rng.expovariate(1 / 0.005) * 1e6)}")
                lines.append(f"< {_pareto(rng, 400, 1.2)}")
        lines.append("")
    write_text_atomic(path, "\n".join(lines))


def _pareto(rng: random.Random, minimum: float, shape: float) -> int:
    return int(min(50e6, minimum * rng.paretovariate(shape)))


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(description="Write synthetic Tmix connection vectors.")
    ap.add_argument("file")
    ap.add_argument("--connections", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=50.0, help="connections per second")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    synthesize(args.file, args.connections, seed=args.seed, rate_per_s=args.rate)


if __name__ == "__main__":
    main()
