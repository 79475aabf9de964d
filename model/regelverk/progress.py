"""Progress bars for the long commands (``prove``, ``simulate``, ``mutate``).

A bar is drawn by `tqdm <https://tqdm.github.io/>`_ on standard error, and only when all of
these hold: the command was not asked for ``--json`` or ``--quiet``, standard error is a
terminal, and tqdm is installed (the ``cli`` extra: ``pip install 'regelverk[cli]'``). Otherwise
:func:`bar` gives a :class:`Progress` that draws nothing, so piped and scripted output is never
touched. The bar is green unless the ``NO_COLOR`` environment variable is set to anything but an
empty string (https://no-color.org); regelverk prints no other colour. The engine does not
depend on this module: it stays free of runtime dependencies.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["Progress", "bar", "colour_allowed", "shown"]


def colour_allowed() -> bool:
    """Whether colour may be used: ``NO_COLOR`` is unset or empty (https://no-color.org)."""
    return not os.environ.get("NO_COLOR")


def shown(quiet: bool, stream: TextIO | None = None) -> bool:
    """Whether a bar is drawn: not ``quiet``, and ``stream`` (standard error) is a terminal."""
    stream = sys.stderr if stream is None else stream
    try:
        return not quiet and stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


class Progress:
    """Counts finished units of work and, when drawn, shows them as a bar.

    ``advance`` adds finished units; ``say`` prints a line of the command's own output above
    the bar (or plainly, when there is no bar) so that the two never mix.
    """

    __slots__ = ("_bar",)

    def __init__(self, drawn: Any = None) -> None:
        self._bar = drawn

    @property
    def drawn(self) -> bool:
        """Whether a bar is on the terminal."""
        return self._bar is not None

    def advance(self, units: int = 1) -> None:
        """Count ``units`` more finished units."""
        if self._bar is not None:
            self._bar.update(units)

    def say(self, line: str) -> None:
        """Print ``line`` on standard output, above the bar if there is one."""
        if self._bar is None:
            print(line, flush=True)
        else:
            self._bar.write(line, file=sys.stdout)
            sys.stdout.flush()


@contextlib.contextmanager
def bar(total: int, unit: str, label: str, *, quiet: bool) -> Iterator[Progress]:
    """A progress bar over ``total`` units named ``unit`` (``"game"``), headed ``label``,
    drawn on standard error when :func:`shown` allows and tqdm is installed; it is cleared
    when the block ends, so the command's output follows as it would without it."""
    if not shown(quiet):
        yield Progress()
        return
    try:
        from tqdm import tqdm
    except ImportError:  # the cli extra is not installed: no bar
        yield Progress()
        return
    drawn = tqdm(
        total=total,
        unit=unit,
        desc=label,
        file=sys.stderr,
        leave=False,
        dynamic_ncols=True,
        mininterval=0.25,
        colour="green" if colour_allowed() else None,
    )
    try:
        yield Progress(drawn)
    finally:
        drawn.close()
