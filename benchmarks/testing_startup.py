"""Start-up cost of the dpverify pytest plugin on a run that does not use it.

Run on demand: ``python benchmarks/testing_startup.py [--repeats 10]``.

Every test run in an environment with dpverify installed loads the plugin
(entry point ``pytest11``/``dpverify``), so its import must cost next to
nothing. This script times ``python -m pytest --collect-only -q`` on a
trivial test file (no dpverify, no numpy) with and without the plugin —
``-p no:dpverify`` when the entry point is installed, ``-p
dpverify.testing._plugin`` when it is not — best of ``--repeats`` runs each,
interleaved — and, in fresh interpreters with pytest already imported, the
time of ``import dpverify.testing._plugin`` itself and the modules it loads
(no numpy, scipy, mpmath, hypothesis or heavy dpverify module may be among
them). The wall-time difference is within the noise of process start-up; the
import time is the plugin's actual cost.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
HEAVY = ("numpy", "scipy", "mpmath", "hypothesis", "dpverify.auditing", "dpverify.mechanisms")


def _entry_point_installed() -> bool:
    return any(e.value == "dpverify.testing._plugin"
               for e in importlib.metadata.entry_points(group="pytest11"))


def _pytest(args: list[str], directory: str) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-m", "pytest",
               "--collect-only", "-q", "-p", "no:cacheprovider", *args, "test_trivial.py"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=directory, env=env, capture_output=True, text=True,
                          check=True)
    return time.perf_counter() - start, done.stderr


_PROBE = """
import sys, time
import pytest
before = set(sys.modules)
start = time.perf_counter()
import dpverify.testing._plugin
elapsed = time.perf_counter() - start
print(elapsed * 1000)
print(" ".join(sorted(set(sys.modules) - before)))
"""


def _plugin_import() -> tuple[float, list[str]]:
    """Time (ms) of ``import dpverify.testing._plugin`` after pytest, and what it loaded.

    A fresh interpreter per call, so nothing is cached in ``sys.modules``.
    """
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                          text=True, check=True)
    milliseconds, modules = done.stdout.splitlines()
    return float(milliseconds), modules.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    arguments = parser.parse_args()
    installed = _entry_point_installed()
    without = ["-p", "no:dpverify"] if installed else []
    with_plugin = [] if installed else ["-p", "dpverify.testing._plugin"]
    with tempfile.TemporaryDirectory() as directory:
        Path(directory, "test_trivial.py").write_text("def test_nothing():\n    pass\n")
        _pytest(without, directory)  # warm the file-system caches
        times = {"without plugin": [], "with plugin": []}
        for _ in range(arguments.repeats):  # interleaved, so load drifts hit both alike
            times["without plugin"].append(_pytest(without, directory)[0])
            times["with plugin"].append(_pytest(with_plugin, directory)[0])
    probes = [_plugin_import() for _ in range(arguments.repeats)]
    plugin_ms = min(ms for ms, _ in probes)
    loaded = probes[0][1]
    heavy = [m for m in loaded if m.startswith(HEAVY)]
    best = {name: min(values) * 1000 for name, values in times.items()}
    print(f"entry point installed: {installed}; best of {arguments.repeats} runs of "
          f"`pytest --collect-only` on a one-test file")
    print("| configuration | best wall time (ms) | median (ms) |")
    print("|---|---:|---:|")
    for name, values in times.items():
        print(f"| {name} | {best[name]:.0f} | {sorted(values)[len(values) // 2] * 1000:.0f} |")
    print(f"\nplugin cost, best minus best: {best['with plugin'] - best['without plugin']:+.1f} ms")
    print(f"import dpverify.testing._plugin after pytest (best of {arguments.repeats} fresh "
          f"interpreters): {plugin_ms:.1f} ms; modules it loaded: {' '.join(loaded)}; heavy "
          f"ones ({', '.join(HEAVY)}): {heavy or 'none'}")


if __name__ == "__main__":
    main()
