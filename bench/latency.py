"""How long the one-shot commands take: CPU seconds of ``regelverk ask FILE``, ``regelverk
clause ID`` and ``regelverk ask --can`` as a new process, the median of several runs.

Each command runs as a fresh process (interpreter start and imports included), the way a user
at the table runs it; the CPU time is the child's user + system time, so another load on the
machine moves it less than wall time. Two figures per command: ``warm``, the usual case (the
modules compiled, the parsed spec file in the cache), and ``cold``, the first run after the
spec or the code changed (``REGELVERK_CACHE`` pointed at an empty folder each time, so that
neither the parsed spec files nor the trace's readings of the source files are cached).
Targets, printed beside each: ``ask FILE`` at most 0.15 s, ``clause ID`` at most 0.2 s.

Run: ``.venv/bin/python bench/latency.py [RUNS]``.
"""

from __future__ import annotations

import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 9
COMMAND = str(Path(sys.executable).with_name("regelverk"))

CASES: tuple[tuple[str, tuple[str, ...], float | None], ...] = (
    ("ask vandatta file", ("ask", "examples/vandatta/ace-off-suit.json"), 0.15),
    ("ask uno file", ("ask", "examples/uno/challenge-fails.json"), 0.15),
    ("ask viggo file", ("ask", "examples/viggo/three-on-three.json"), 0.15),
    ("clause id", ("clause", "V8-EIGHT-ON-ANY-CARD"), 0.2),
    ("clause id (uno)", ("clause", "UNO-WIN-GAME-500"), 0.2),
    ("ask --can (viggo)", ("ask", "examples/can/viggo-pair-beats-a-run.json"), None),
)


def cpu_seconds(argv: tuple[str, ...], env: dict[str, str]) -> float:
    """The CPU time of one run of ``regelverk argv`` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([COMMAND, *argv], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Print the figures."""
    compileall.compile_dir(ROOT / "model", quiet=1)
    compileall.compile_dir(ROOT / "proofs", quiet=1)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    print(f"CPU seconds per command, median of {RUNS} runs (a new process each)")
    for label, argv, target in CASES:
        warm_env = {k: v for k, v in env.items() if k != "REGELVERK_CACHE"}
        cpu_seconds(argv, warm_env)
        warm = statistics.median(cpu_seconds(argv, warm_env) for _ in range(RUNS))
        cold_runs = []
        for _ in range(RUNS):
            with tempfile.TemporaryDirectory() as empty:
                cold_runs.append(cpu_seconds(argv, {**env, "REGELVERK_CACHE": empty}))
        cold = statistics.median(cold_runs)
        goal = (
            f"target <= {target:.2f} s: {'met' if warm <= target else 'NOT met'}" if target else ""
        )
        print(f"  {label:20} warm {warm:6.3f} s   cold {cold:6.3f} s   {goal}")


if __name__ == "__main__":
    main()
