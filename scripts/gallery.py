"""Draws the documentation's gallery (docs/gallery.md) into docs/gallery/: the standard plots
of examples/dumbbell.toml, two runs overlaid, and a sweep's plots
(examples/sweeps/sweep_reno_buffers.toml). Run it again after changing the plots or the
engine, and commit the PNG files.

    python scripts/gallery.py [--out docs/gallery]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ackclock(*args: str, cwd: Path) -> None:
    subprocess.run([sys.executable, "-m", "ackclock", *args], cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "gallery"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        dumbbell = str(ROOT / "examples" / "dumbbell.toml")
        ackclock("run", dumbbell, "--out", "bbr", "--plot", "--quiet", cwd=tmp)
        for name in ("cwnd", "throughput", "rtt", "queue"):
            shutil.copy(tmp / "bbr" / f"{name}.png", out / f"run_{name}.png")
        ackclock("run", dumbbell, "--out", "cubic", "--set", "flow.bbr.cc=cubic", "--quiet",
                 cwd=tmp)
        ackclock("plot", "bbr", "cubic", "--out", "overlay", cwd=tmp)
        shutil.copy(tmp / "overlay" / "throughput.png", out / "overlay_throughput.png")
        ackclock("sweep", str(ROOT / "examples" / "sweeps" / "sweep_reno_buffers.toml"),
                 "--out", "sweep", cwd=tmp)
        ackclock("plot", "sweep", cwd=tmp)
        for name in ("throughput_mbps", "loss_rate", "jain_index", "queue_delay_p95_s"):
            shutil.copy(tmp / "sweep" / f"sweep_{name}.png", out / f"sweep_{name}.png")
    for p in sorted(out.glob("*.png")):
        print(p)


if __name__ == "__main__":
    main()
