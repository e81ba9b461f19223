"""Opening a binder from Python vs the C++ command (issue target: Python <= 1.1x the command).

    PYTHONPATH=build/python python3 python/bench/bench_open.py [BINDER] [--runs N]

Default binder: the er_allmaterial sample (2.7 MB DCX_KRAK around a 77 MB binder). The command's time is `navlab ls` wall time
(process start included, so the ratio is slightly in Python's favour); Python's is the
`navlab.open()` call alone. Median of N runs each, printed side by side.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import time

import navlab

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main() -> None:
    samples = pathlib.Path(os.environ.get("NAVLAB_SAMPLES", ROOT.parent / "shared" / "samples"))
    p = argparse.ArgumentParser()
    p.add_argument("binder", nargs="?", default=samples / "fromsoft" / "er_allmaterial.matbinbnd.dcx")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--navlab", default=os.environ.get("NAVLAB_BINARY", ROOT / "build" / "navlab"))
    a = p.parse_args()

    def cli() -> float:
        t = time.perf_counter()
        subprocess.run([str(a.navlab), "ls", str(a.binder)], check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - t

    def py() -> float:
        t = time.perf_counter()
        f = navlab.open(a.binder)
        n = len(f.members)
        assert n > 0
        return time.perf_counter() - t

    c = statistics.median(cli() for _ in range(a.runs))
    q = statistics.median(py() for _ in range(a.runs))
    size = pathlib.Path(a.binder).stat().st_size
    print(f"{pathlib.Path(a.binder).name}: {size / 1e6:.1f} MB compressed")
    print(f"  navlab ls (C++ command): {c * 1e3:8.1f} ms")
    print(f"  navlab.open (Python):    {q * 1e3:8.1f} ms   ratio {q / c:.2f}x (target <= 1.10x)")


if __name__ == "__main__":
    main()
