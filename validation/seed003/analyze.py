"""Summaries of the cwnd traces written by seed003_ns2.tcl / seed003_ackclock.py.

python analyze.py PREFIX [START2]
  per flow: loss events (ssthresh changes): time, peak cwnd before, ssthresh after;
  mean inter-loss time (after the first two), mean throughput over [START2, end] (pairs) or
  [20 s, end] (singles), and asymmetry A for pairs.
"""
import math
import sys
from pathlib import Path

prefix = sys.argv[1]
start2 = float(sys.argv[2]) if len(sys.argv) > 2 else None
is_ns = Path(prefix).name.startswith("ns_")


def load(path):
    rows = []
    for line in open(path):
        p = line.split()
        if len(p) < 4:
            continue
        t, cwnd = float(p[0]), float(p[1])
        ss = float(p[2]) if p[2] not in ("inf", "nan", "") else math.inf
        pk = float(p[3]) if is_ns else float(p[3]) / 1000.0  # packets delivered/acked
        rows.append((t, cwnd, ss, pk))
    return rows


def thr(rows, t0, t1):
    a = min(rows, key=lambda r: abs(r[0] - t0))
    b = min(rows, key=lambda r: abs(r[0] - t1))
    return (b[3] - a[3]) * 1000 * 8 / (b[0] - a[0]) / 1e6


res = {}
for i in (1, 2):
    f = Path(f"{prefix}.f{i}.cwnd")
    if not f.exists():
        continue
    rows = load(f)
    # a loss episode: cwnd falls by over 3% from one 0.1 s sample to the next (or ssthresh moves)
    merged = []
    for k in range(1, len(rows)):
        drop = rows[k][1] < 0.97 * rows[k - 1][1]
        ssmove = (rows[k][2] != rows[k - 1][2] and not math.isinf(rows[k][2])
                  and rows[k][0] > rows[0][0] + 0.15)
        if not (drop or ssmove):
            continue
        if merged and rows[k][0] - merged[-1][0] < 0.6:
            continue
        peak = max(r[1] for r in rows[max(0, k - 10):k + 1])
        after = rows[min(k + 5, len(rows) - 1)][2]
        low = min(r[1] for r in rows[k:k + 8])
        merged.append((rows[k][0], peak, after, low))
    end = rows[-1][0]
    t0 = start2 if start2 is not None else 20.0
    tp = thr(rows, t0, end)
    gaps = [b[0] - a[0] for a, b in zip(merged, merged[1:], strict=False)]
    res[i] = tp
    print(f"flow{i}: {len(merged)} loss episodes; mean thr [{t0:.0f},{end:.0f}] = {tp:.1f} Mb/s; "
          f"thr [0,{end:.0f}] = {thr(rows, rows[0][0], end):.1f}")
    for e in merged[:12]:
        print(f"   t={e[0]:7.2f}  peak cwnd={e[1]:8.1f}  ssthresh after={e[2]:8.1f}"
              f"  ratio={e[2]/e[1]:.3f}  min cwnd next 0.8s={e[3]:8.1f}")
    if len(merged) > 12:
        print(f"   ... ({len(merged) - 12} more)")
    if len(gaps) > 2:
        g = gaps[1:]
        print(f"   mean gap between losses (excl. first) = {sum(g)/len(g):.2f} s; n={len(g)}")
if 1 in res and 2 in res:
    t1, t2 = res[1], res[2]
    print(f"A = {(t1 - t2) / (t1 + t2):.3f}  (t1 {t1:.1f}, t2 {t2:.1f}, sum {t1+t2:.1f})")
