"""UNO compiled by Cython from the same source: how far a compiled build of the one engine goes.

Run with ``python bench/compiled.py [seconds]``. Never run in CI. Needs Cython (in the
``bench`` extra) and a C compiler; without either it says so and stops.

It copies the package to a temporary folder and compiles there, with ``cythonize``, the modules
a step of UNO runs through (:data:`MODULES`). The source is not changed: two declaration files
beside it (:data:`DECLARATIONS`) make the scratch record of a step and the per-options readings
extension types with typed fields. Then, in turn:

1. the same games: a seeded run of keen hands (the player of ``bench/uno.py``), with every
   listing, event and state hashed, once on the source and once on the compiled copy; the two
   digests must be equal, or the script stops;
2. ``bench/uno.py`` on the source and on the compiled copy, each an interleaved comparison with
   RLCard's driver of its own (two processes: a module cannot be both at once in one).

The figures answer one question: does compiling the engine as it is written meet the UNO goal?
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "model" / "regelverk"
MODULES = (
    "engine.py",
    "records.py",
    "memo.py",
    "cards.py",
    "trace.py",
    "uno/game.py",
    "uno/options.py",
    "uno/rules.py",
    "uno/state.py",
    "uno/table.py",
    "uno/actions.py",
)
"""The modules compiled, relative to the package."""

DECLARATIONS = {
    "uno/table.pxd": """\
cdef class Table:
    cdef public object options, rules, players, dealer, hands, pile, discard, colour, turn
    cdef public object direction, phase, after, pending_draw, drawn, wd4, exposed, scores
    cdef public object results, winners, hand_number, seed, shuffles, events
    cdef public Py_ssize_t n
""",
    "uno/rules.pxd": """\
cdef class Readings:
    cdef public object options, _fitting, _why
    cdef public bint refuses_wd4, may_draw, may_keep, late_call, opponent_plays

cdef class _Seats:
    cdef public object calls, catches, challenges, draws, namings, passes, players, plays
""",
}
"""Declaration files written beside the compiled source (Cython's augmenting ``.pxd``)."""

DIGEST_HANDS = 300
"""Keen hands at 2, 3 and 4 players in the same-games check."""


def digest(hands: int) -> str:
    """A hash of every listing, event and state of ``hands`` seeded keen hands per table size,
    on whichever build of :mod:`regelverk` this process imports."""
    import dataclasses

    sys.path.insert(0, str(ROOT / "bench"))
    sys.argv[1:] = []
    from uno import keen

    from regelverk.uno import GAME

    options = dataclasses.replace(GAME.options("uno"), target_score=1)
    chooser = random.Random(1)
    total = hashlib.sha256()
    for players in (2, 3, 4):
        names = [f"P{n}" for n in range(players)]
        for seed in range(1, hands + 1):
            state = GAME.deal(options, names, seed)
            while not GAME.is_over(state):
                total.update(repr(GAME.legal_actions(state)).encode())
                outcome = GAME.apply(state, keen(state, chooser))
                total.update(repr(outcome.events).encode())
                state = outcome.state
                total.update(repr(state).encode())
    return total.hexdigest()


def build(folder: Path) -> None:
    """Copy the package into ``folder`` and compile :data:`MODULES` there."""
    from Cython.Build import cythonize
    from setuptools import Distribution

    copy = folder / "regelverk"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for name, text in DECLARATIONS.items():
        (copy / name).write_text(text)
    sources = [str(Path("regelverk") / name) for name in MODULES]
    here = Path.cwd()
    os.chdir(folder)
    try:
        extensions = cythonize(
            sources,
            language_level=3,
            nthreads=os.cpu_count() or 1,
            quiet=True,
            compiler_directives={"annotation_typing": True},
        )
        distribution = Distribution({"ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.inplace = True
        command.ensure_finalized()
        command.run()
    finally:
        os.chdir(here)


def child(args: list[str], compiled: Path | None) -> str:
    """Run ``args`` with this Python, on the compiled copy when ``compiled`` is given."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    if compiled is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(compiled), env.get("PYTHONPATH")]))
        env["REGELVERK_SPEC"] = str(ROOT / "spec")
    done = subprocess.run(
        [sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def main() -> None:
    """Build, check the same games, print the two UNO benchmarks."""
    if sys.argv[1:2] == ["--digest"]:
        from regelverk.uno import table

        print(table.__file__.rsplit(".", 1)[-1], digest(int(sys.argv[2])))
        return
    seconds = sys.argv[1] if len(sys.argv) > 1 else "3"
    try:
        import Cython
    except ImportError:
        sys.exit("Cython is not installed (pip install -e '.[bench]'): nothing measured")
    if shutil.which(os.environ.get("CC", "cc")) is None:
        sys.exit("no C compiler (cc) on PATH: nothing measured")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        print(f"compiling {len(MODULES)} modules with Cython {Cython.__version__} ...")
        build(folder)
        me = str(Path(__file__).resolve())
        source = child([me, "--digest", str(DIGEST_HANDS)], None).split()
        built = child([me, "--digest", str(DIGEST_HANDS)], folder).split()
        if source[0] != "py" or built[0] != "so":
            sys.exit(f"the builds are not what they should be: {source[0]} and {built[0]}")
        if source[1] != built[1]:
            sys.exit("the compiled engine plays other games than the source: not measured")
        print(f"same games on both builds ({DIGEST_HANDS} keen hands at 2, 3 and 4 players)")
        for label, where in (("source", None), ("compiled", folder)):
            print(f"\n== {label}")
            print(child([str(ROOT / "bench" / "uno.py"), seconds], where), end="")


if __name__ == "__main__":
    main()
