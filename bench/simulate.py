"""Games per CPU second of ``regelverk simulate``'s games, by player, here and in another checkout.

Usage: ``python bench/simulate.py [ROUNDS] [SECONDS] [--rulebook R] [--against CHECKOUT]``

Each contender plays seeded games exactly as ``simulate`` does (``regelverk.simulate.play_one``,
4 players, every state held to the invariants), from seed 0 on, for ``SECONDS`` of CPU time, in
a process of its own (two checkouts cannot share one); the contenders take turns for ``ROUNDS``
rounds, the order reversed every other round, and each figure is the median of its rounds.
With ``--against``, the other checkout's ``random`` player is the baseline, "today's games per
CPU-second" of a change: the ratio printed is each player here over it.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
from regelverk.simulate import play_one
rulebook, policy, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
play_one(rulebook, {}, 4, 10_000, policy=policy)  # warm: imports, caches
games = actions = 0
start = time.process_time()
while time.process_time() - start < seconds:
    actions += play_one(rulebook, {}, 4, games, policy=policy).actions
    games += 1
spent = time.process_time() - start
print(json.dumps({"games": games, "seconds": spent, "actions": actions}))
"""


def _run(checkout: Path, rulebook: str, policy: str, seconds: float) -> dict[str, float]:
    env = dict(
        os.environ, PYTHONPATH=str(checkout / "model"), REGELVERK_SPEC=str(checkout / "spec")
    )
    done = subprocess.run(
        [sys.executable, "-c", CHILD, rulebook, policy, str(seconds)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    found: dict[str, float] = json.loads(done.stdout)
    return found


def main(argv: list[str]) -> None:
    args = list(argv)
    against = None
    rulebook = "uno"
    if "--against" in args:
        at = args.index("--against")
        against = Path(args[at + 1]).resolve()
        del args[at : at + 2]
    if "--rulebook" in args:
        at = args.index("--rulebook")
        rulebook = args[at + 1]
        del args[at : at + 2]
    rounds = int(args[0]) if args else 5
    seconds = float(args[1]) if len(args) > 1 else 3.0
    contenders = [(HERE, p) for p in ("random", "keen", "sensible")]
    if against is not None:
        contenders = [(against, "random"), *contenders]
    rates: dict[tuple[Path, str], list[float]] = {c: [] for c in contenders}
    lengths: dict[tuple[Path, str], list[float]] = {c: [] for c in contenders}
    print(
        f"{rulebook} games per CPU second, 4 players, checked every step; {rounds} rounds of "
        f"{seconds:g} s each, interleaved, medians"
    )
    for number in range(rounds):
        order = contenders if number % 2 == 0 else contenders[::-1]
        for contender in order:
            got = _run(contender[0], rulebook, contender[1], seconds)
            rates[contender].append(got["games"] / got["seconds"])
            lengths[contender].append(got["actions"] / max(1, got["games"]))
    base = statistics.median(rates[contenders[0]])
    for contender in contenders:
        where = "baseline " if against is not None and contender == contenders[0] else ""
        name = f"{where}{contender[0].name} {contender[1]}"
        rate = statistics.median(rates[contender])
        print(
            f"  {name:32} {rate:8.2f} games/s  {statistics.median(lengths[contender]):8.0f} "
            f"actions/game  {rate / base:6.2f}x"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
