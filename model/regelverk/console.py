"""What every command of the command line shares: exit statuses, one-line errors, output files
checked first and written whole, JSON on standard output, words counted, ``--quiet``, and
Ctrl-C during native code.

:mod:`regelverk.cli` and the commands an extension adds (:mod:`regelverk.extensions`) use these,
so that every command behaves alike.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from regelverk.errors import RegelverkError

__all__ = [
    "EXIT_BROKEN",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_REFUSED",
    "EXIT_STATUSES",
    "EXIT_USAGE",
    "MAX_ERROR",
    "EscapingWriter",
    "add_quiet",
    "counted",
    "escaped",
    "one_line",
    "output_path",
    "print_json",
    "stopping_at_once_on_ctrl_c",
    "write_whole",
]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_REFUSED, EXIT_BROKEN = 0, 1, 2, 3, 4
EXIT_INTERRUPTED = 130
"""Ctrl-C: the shells' status for a command ended by SIGINT (128 + 2)."""
"""Exit statuses: done; a check failed (or a theorem, or a mutant survived); bad input; a
replayed record reached an action the rules refuse; legal play reached a state that breaks one
of the engine's own invariants (a defect of regelverk: ``play``, ``simulate`` and ``ask``)."""

EXIT_STATUSES = """exit statuses:
  0  done (a ruling that says 'not allowed' is still an answer)
  1  a check failed: a problem in spec/, a theorem that does not hold, a surviving mutant
  2  bad input, or output that cannot be written (one line on standard error)
  3  'ask' replayed a record and reached an action the rules refuse
  4  legal play reached a state that breaks one of the engine's own invariants (play,
     simulate, ask): a defect of regelverk, named on standard error
  130  interrupted (Ctrl-C): 'simulate' still writes the games finished, marked partial"""
"""The exit statuses as ``--help`` shows them (and docs/using.rst)."""

MAX_ERROR = 500
"""The longest error message printed, in characters: echoed input is cut there."""


def escaped(text: str, keep: str = "\n") -> str:
    """``text`` with control characters (a terminal's escape sequences among them) shown as
    ``\\x..`` escapes, except those in ``keep``."""
    return "".join(
        c if c in keep or not (ord(c) < 32 or 127 <= ord(c) < 160) else f"\\x{ord(c):02x}"
        for c in text
    )


class EscapingWriter(io.TextIOBase):
    """Standard output that shows control characters as escapes, so that a player called
    ``\\x1b[2J`` cannot clear the reader's terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(escaped(text, "\n\t"))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()


def one_line(error: BaseException) -> str:
    said = str(error)
    if isinstance(error, OSError) and error.strerror:
        where = error.filename if error.filename is not None else "the output"
        said = f"cannot use {where}: {error.strerror}"
    text = escaped(" ".join(said.split("\n")), "")
    return (
        text if len(text) <= MAX_ERROR else f"{text[:MAX_ERROR]}… (cut at {MAX_ERROR} characters)"
    )


def output_path(text: str | None, flag: str) -> Path | None:
    """The file an ``--out``-like option names, checked before any work is done: not empty, not
    a folder, in a folder that exists and may be written to. ``None`` where it is not given."""
    if text is None:
        return None
    if not text.strip():
        raise RegelverkError(f"{flag} needs a file name, not an empty one")
    path = Path(text)
    folder = path.parent
    if path.is_dir():
        raise RegelverkError(f"{flag} {escaped(text, '')[:200]}: that is a folder, not a file")
    if not folder.is_dir():
        raise RegelverkError(
            f"{flag} {escaped(text, '')[:200]}: the folder {escaped(str(folder), '')[:200]} "
            "does not exist"
        )
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise RegelverkError(f"{flag} {escaped(text, '')[:200]}: it may not be written to")
    return path


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a scratch file beside it, then put
    in its place, so that an interrupted run leaves no half-written file."""
    scratch = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        scratch.write_text(text, encoding="utf-8")
        scratch.replace(path)
    finally:
        with contextlib.suppress(OSError):
            scratch.unlink()


def counted(number: int, word: str, plural: str | None = None) -> str:
    """``1 note``, ``2 notes``."""
    return f"{number} {word if number == 1 else plural or word + 's'}"


def print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2, default=str))


@contextlib.contextmanager
def stopping_at_once_on_ctrl_c(cleanup: Callable[[], None] | None = None) -> Iterator[None]:
    """While the block runs, Ctrl-C ends the process at once with one line and status 130. For
    commands that spend their time in native code (Z3) or waiting on other processes: there an
    interrupt raised as Python's KeyboardInterrupt can land in a finaliser, where Python prints
    and drops it, and the run would go on; and Python runs a signal handler only once native
    code returns, which for one Z3 check can take minutes. So the signal also wakes a watching
    thread at once (``signal.set_wakeup_fd``), which ends the process. Nothing is half-written:
    their files are written whole at the end; ``cleanup``, if given, runs first (to end child
    processes and remove scratch folders). The handler before is put back after the block."""
    import signal
    import threading

    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield  # Ctrl-C is ignored (a background job) or handled by the caller
        return

    once = threading.Lock()  # the handler and the watcher both stop; one line only

    def stop(*_: object) -> None:
        once.acquire()  # the second to come waits here for the first to end the process
        if cleanup is not None:
            with contextlib.suppress(Exception):
                cleanup()
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        os.write(2, b"regelverk: interrupted\n")
        os._exit(EXIT_INTERRUPTED)

    woken, wake = os.pipe()
    os.set_blocking(wake, False)

    def watch() -> None:
        while chunk := os.read(woken, 64):
            if signal.SIGINT in chunk:
                stop()

    watcher = threading.Thread(target=watch, name="regelverk-ctrl-c", daemon=True)
    signal.signal(signal.SIGINT, stop)
    before = signal.set_wakeup_fd(wake, warn_on_full_buffer=False)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(before)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.close(wake)  # the watcher reads the end of the pipe and returns
        watcher.join()
        os.close(woken)


def add_quiet(command: argparse.ArgumentParser) -> None:
    """``--quiet``: no progress bar (there is none off a terminal or with ``--json`` either)."""
    command.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress bar (none is drawn off a terminal or with --json either)",
    )
