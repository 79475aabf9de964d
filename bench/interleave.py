"""Interleaved timing for the benchmarks: every contender runs in turn, round after round.

The machine a benchmark runs on is shared and its speed drifts; timing one engine for three
seconds and then the other for three seconds measures the drift as much as the engines. Here
each round gives every contender the same short slice of time, in turn (A B C, then C B A, so
that neither always goes first), and a contender's figure is the median of its rounds. A ratio
is the median of the rounds' ratios: each round's ratio compares two runs made moments apart.
Time is the process's CPU time (:func:`time.process_time`), which other processes on the machine
disturb less than the wall clock.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping

__all__ = ["Timings", "goal_line", "interleaved"]

Work = Callable[[], int]
"""One unit of work (a hand, a round, a game) per call; returns the units done."""


class Timings:
    """The rates (units per second) each contender reached in each round, and the units done
    in all."""

    def __init__(self, rates: Mapping[str, list[float]], done: Mapping[str, int]) -> None:
        self.rates = {name: list(values) for name, values in rates.items()}
        self.done = dict(done)

    def median(self, name: str) -> float:
        """The median of ``name``'s rates over the rounds."""
        return statistics.median(self.rates[name])

    def ratio(self, ours: str, theirs: str) -> float:
        """The median over the rounds of ``ours``'s rate divided by ``theirs``'s."""
        pairs = zip(self.rates[ours], self.rates[theirs], strict=True)
        return statistics.median(a / b for a, b in pairs)


def interleaved(contenders: Mapping[str, Work], seconds: float, rounds: int = 7) -> Timings:
    """Run every contender for ``seconds / rounds`` per round, in turn, for ``rounds`` rounds
    (the order reversed every other round)."""
    names = list(contenders)
    rates: dict[str, list[float]] = {name: [] for name in names}
    total = dict.fromkeys(names, 0)
    share = seconds / rounds
    clock = time.process_time
    for number in range(rounds):
        for name in names if number % 2 == 0 else reversed(names):
            work = contenders[name]
            done = 0
            start = clock()
            while clock() - start < share:
                done += work()
            rates[name].append(done / (clock() - start))
            total[name] += done
    return Timings(rates, total)


def goal_line(ratio: float, goal: float) -> str:
    """A ratio beside its goal, and whether the goal is met."""
    verdict = "met" if ratio >= goal else "not met"
    return f"{ratio:5.2f}x   (goal >= {goal:g}x: {verdict})"
