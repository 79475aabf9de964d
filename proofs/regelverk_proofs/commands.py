"""The proofs' extension of regelverk: the ``prove`` and ``mutate`` commands, and Z3's answers
to "can it ever happen?" questions (``regelverk ask --can``, ``ask --facts``, a question file
with a ``can`` field).

The model finds it through the entry point ``pyproject.toml`` registers in the group
:data:`regelverk.extensions.GROUP` (:data:`EXTENSION`), so that the model never imports the
proofs: see :mod:`regelverk.extensions`. The proof modules themselves are imported only when a
command runs or a question is asked, so that a command of the model's own pays nothing for
them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from regelverk.books import RULEBOOKS
from regelverk.console import (
    EXIT_FAILED,
    EXIT_OK,
    add_quiet,
    counted,
    output_path,
    print_json,
    stopping_at_once_on_ctrl_c,
    write_whole,
)
from regelverk.errors import RegelverkError
from regelverk.extensions import AddCommand
from regelverk.paths import source_root
from regelverk.progress import bar
from regelverk.registry import default_registry

if TYPE_CHECKING:
    from regelverk_proofs.mutate import Baseline, Mutant, Outcome
    from regelverk_proofs.theorem import Result, Theorem

__all__ = ["EXTENSION", "ProofsExtension", "cmd_mutate", "cmd_prove"]


class ProofsExtension:
    """The proofs, as :class:`regelverk.extensions.Extension` plugs them into the model."""

    def add_commands(self, add: AddCommand) -> None:
        """Add ``prove`` and ``mutate`` to ``regelverk``."""
        _add_prove(add)
        _add_mutate(add)

    def can(self, question: Mapping[str, Any]) -> dict[str, Any]:
        """Z3's answer to a checked "can it ever happen?" question, over the scenarios of its
        rulebook: yes with a witness, or no with the clauses that forbid it."""
        from regelverk_proofs import scenarios
        from regelverk_proofs.query import answer_to_data, choose
        from regelverk_proofs.query import ask as ask_can

        rulebook, condition = question["rulebook"], question["can"]
        name = question.get("scenario")
        scenario = choose(scenarios(rulebook), rulebook, condition, name)
        return answer_to_data(ask_can(scenario, condition))

    def facts(self, rulebook: str) -> list[dict[str, Any]]:
        """The scenarios of ``rulebook`` with the facts and constants questions can name."""
        from regelverk_proofs import scenarios
        from regelverk_proofs.query import facts_of

        return [
            {
                "scenario": s.name,
                "description": s.description,
                "facts": {f.name: f.description for f in facts_of(s)},
                "constants": dict(s.constants),
            }
            for s in scenarios(rulebook)
        ]


EXTENSION = ProofsExtension()
"""What the entry point ``regelverk.extensions: proofs`` names."""


def _add_prove(add: AddCommand) -> None:
    """The ``prove`` command and its arguments."""
    prove = add(
        "prove",
        cmd_prove,
        "Run the Z3 theorems: each with its clauses, whether it is proved (or witnessed), "
        "a counterexample as a position or game if not, and the time; exit 1 if any fails.",
    )
    prove.add_argument("--rulebook", choices=RULEBOOKS, help="only the theorems about this one")
    prove.add_argument(
        "--theorem", action="append", default=[], metavar="NAME", help="only this theorem"
    )
    prove.add_argument(
        "--weaken",
        action="append",
        default=[],
        metavar="CLAUSE",
        help="weaken this clause in the encodings, to see a theorem fail without it",
    )
    prove.add_argument("--list", action="store_true", help="list the theorems, run nothing")
    prove.add_argument("--write-json", metavar="FILE", help="also write the --json results to FILE")
    add_quiet(prove)


def _add_mutate(add: AddCommand) -> None:
    """The ``mutate`` command and its arguments."""
    mutate_cmd = add(
        "mutate",
        cmd_mutate,
        "Mutation testing (from a checkout): make each rule change of the mutant catalogue in "
        "a scratch copy, run the theorems and the ordinary tests that can reach it there, and "
        "say which kill it (a test by a failing assertion only; the proof-binding tests are "
        "scored as proofs); exit 1 if any mutant survives, is stillborn (does not import) or "
        "could not be run. Re-record the run the trace reads with 'regelverk mutate --record'.",
    )
    mutate_cmd.add_argument(
        "--catalogue",
        metavar="FILE",
        help="run the mutants of this catalogue file (or folder of *.toml files) instead of "
        "the shipped one",
    )
    mutate_cmd.add_argument(
        "--mutant", action="append", default=[], metavar="ID", help="only this mutant"
    )
    mutate_cmd.add_argument("--rulebook", choices=RULEBOOKS, help="only this rulebook's mutants")
    mutate_cmd.add_argument("--jobs", type=int, default=0, help="mutants at once (default: cores)")
    mutate_cmd.add_argument("--no-tests", action="store_true", help="run the theorems only")
    mutate_cmd.add_argument(
        "--list", action="store_true", help="list the catalogue, run nothing (--json: as JSON)"
    )
    mutate_cmd.add_argument(
        "--record", action="store_true", help="keep a full run's results for the trace and docs"
    )
    add_quiet(mutate_cmd)


def _result_json(result: Result) -> dict[str, Any]:
    """A theorem's result as the JSON of ``prove --json``."""
    theorem, finding = result.theorem, result.finding
    return {
        "name": theorem.name,
        "rulebooks": list(theorem.rulebooks),
        "title": theorem.title,
        "statement": theorem.statement,
        "kind": theorem.kind.value,
        "clauses": list(theorem.clauses),
        "weakenings": [{"clause": w.clause, "how": w.how} for w in theorem.weakenings],
        "outcome": finding.outcome.value,
        "holds": result.holds,
        "detail": finding.detail,
        "cases": finding.cases,
        "seconds": round(result.seconds, 3),
        "bindings": [
            {
                "name": report.binding.name,
                "statement": report.binding.statement,
                "agrees": report.agrees,
                "counts": dict(report.counts),
                "disagreement": report.disagreement,
                "missing": list(report.missing),
                "seconds": round(report.seconds, 3),
            }
            for report in result.bindings
        ],
    }


def cmd_prove(args: argparse.Namespace) -> int:
    """Run the theorems and say of each whether it holds, with its clauses and time."""
    with stopping_at_once_on_ctrl_c():  # from before Z3 is loaded
        return _prove(args)


def _theorems_chosen(args: argparse.Namespace) -> tuple[Theorem, ...]:
    """The theorems ``--rulebook`` and ``--theorem`` choose (an unknown name is an error)."""
    from regelverk_proofs import theorems
    from regelverk_proofs.theorem import TheoremError

    chosen = theorems(args.rulebook)
    if args.theorem:
        names = {t.name for t in chosen}
        unknown = [n for n in args.theorem if n not in names]
        if unknown:
            raise TheoremError(
                f"no theorem called {', '.join(unknown)}; 'regelverk prove --list' lists them"
            )
        chosen = tuple(t for t in chosen if t.name in args.theorem)
    return chosen


def _prove_list(chosen: tuple[Theorem, ...], as_json: bool) -> int:
    """``prove --list``: the theorems chosen, by name and title (or as JSON)."""
    if as_json:
        print_json(
            [
                {
                    "name": t.name,
                    "rulebooks": list(t.rulebooks),
                    "title": t.title,
                    "kind": t.kind.value,
                    "clauses": list(t.clauses),
                    "bindings": [b.name for b in t.bindings],
                }
                for t in chosen
            ]
        )
        return EXIT_OK
    for theorem in chosen:
        print(f"{theorem.name}: {theorem.title}")
    return EXIT_OK


def _prove(args: argparse.Namespace) -> int:
    """``prove``'s work, inside the Ctrl-C guard: check the arguments, run, report."""
    from regelverk_proofs.theorem import run
    from regelverk_proofs.z3api import z3_version

    chosen = _theorems_chosen(args)
    if args.list:
        return _prove_list(chosen, args.json)
    weaken = frozenset(i.upper() for i in args.weaken)
    for ident in weaken:
        default_registry().clause(ident)
    written = output_path(args.write_json, "--write-json")
    version = z3_version()
    start = time.perf_counter()
    with bar(len(chosen), "theorem", "prove", quiet=args.quiet or args.json) as progress:
        results = run(chosen, weaken, done=lambda result: progress.advance())
    total = time.perf_counter() - start
    failed = [r for r in results if not r.holds]
    data = {
        "z3": version,
        "weakened": sorted(weaken),
        "seconds": round(total, 3),
        "holds": not failed,
        "theorems": [_result_json(r) for r in results],
    }
    if written is not None:
        write_whole(written, json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    if args.json:
        print_json(data)
    else:
        _print_results(results, total, version, weaken)
    return EXIT_FAILED if failed else EXIT_OK


def _print_results(
    results: tuple[Result, ...], total: float, version: str, weaken: frozenset[str]
) -> None:
    """``prove``'s text: each theorem's outcome, statement, clauses and bindings, then a
    summary line."""
    for result in results:
        theorem, finding = result.theorem, result.finding
        print(
            f"{theorem.name}: {finding.outcome.value} "
            f"({counted(finding.cases, 'case')}, {result.seconds:.2f} s)"
        )
        print(f"  {theorem.statement}")
        print(f"  rests on: {', '.join(theorem.clauses)}")
        for report in result.bindings:
            print(f"  bound: {report.summary()}")
        if finding.detail:
            print("  " + finding.detail.replace("\n", "\n  "))
    failed = sum(not r.holds for r in results)
    outcomes = Counter(r.finding.outcome.value for r in results)
    summary = ", ".join(f"{n} {o}" for o, n in sorted(outcomes.items()))
    print(
        f"{counted(len(results), 'theorem')}: {len(results) - failed} hold, {failed} do not"
        + (f" ({summary})" if summary else "")
        + f" in {total:.1f} s with z3 {version}"
        + (f", weakening {', '.join(sorted(weaken))}" if weaken else "")
    )


def _mutant_line(row: dict[str, Any]) -> str:
    """One mutant's outcome in one line: killed (by what) or survived, or stillborn."""
    if row.get("stillborn"):
        return f"{row['id']} ({', '.join(row['clauses'])}): STILLBORN: {row['stillborn']}"
    theorems = ", ".join(row["theorems"]) or "no theorem"
    tests = ", ".join(row["tests"]) or "no ordinary test"
    verdict = "killed" if row["theorems"] or row["tests"] else "SURVIVED"
    crashes = len(row.get("theorem_crashes", {})) + len(row.get("test_crashes", {}))
    crashed = f"; {counted(crashes, 'crash', 'crashes')} not counted" if crashes else ""
    error = f" [{row['error']}]" if row["error"] else ""
    return (
        f"{row['id']} ({', '.join(row['clauses'])}): {verdict} by {theorems}; by {tests}"
        f"{crashed} ({row['seconds']} s){error}"
    )


def _mutants_chosen(args: argparse.Namespace) -> list[Mutant]:
    """The mutants of the catalogue (``--catalogue`` or the shipped one) that the arguments
    choose."""
    from regelverk_proofs import mutate

    mutants = mutate.catalogue(Path(args.catalogue) if args.catalogue else mutate.CATALOGUE)
    known = {m.id for m in mutants}
    unknown = [i for i in args.mutant if i not in known]
    if unknown:
        raise RegelverkError(
            f"no mutant called {', '.join(unknown)}; 'regelverk mutate --list' lists them"
        )
    return [
        m
        for m in mutants
        if (not args.mutant or m.id in args.mutant)
        and (args.rulebook is None or args.rulebook in m.rulebooks)
    ]


def _mutate_list(chosen: list[Mutant], as_json: bool) -> int:
    """``mutate --list``: the mutants chosen, one line each (or as JSON)."""
    if as_json:
        print_json(
            [
                {
                    "id": m.id,
                    "rulebooks": list(m.rulebooks),
                    "clauses": list(m.clauses),
                    "file": m.file,
                    "what": m.what,
                }
                for m in chosen
            ]
        )
        return EXIT_OK
    for m in chosen:
        print(f"{m.id} [{', '.join(m.rulebooks)}] {', '.join(m.clauses)}: {m.what}")
    print(counted(len(chosen), "mutant"))
    return EXIT_OK


def cmd_mutate(args: argparse.Namespace) -> int:
    """Run the mutant catalogue: each rule change made in a scratch copy, and which theorems
    and which ordinary tests notice it."""
    with stopping_at_once_on_ctrl_c(cleanup=_stop_mutants):
        return _mutate(args)


def _stop_mutants() -> None:
    """On Ctrl-C: end the mutation run's child processes and remove its scratch copies."""
    mutate = sys.modules.get("regelverk_proofs.mutate")
    if mutate is not None:
        mutate.stop_now()


def _checkout(args: argparse.Namespace) -> Path:
    """The checkout a mutation run changes copies of, once the arguments are found to fit."""
    root = source_root()
    if root is None:
        raise RegelverkError(
            "mutation testing changes the source and runs its tests: run it from a checkout"
        )
    if args.record and (args.mutant or args.rulebook or args.no_tests or args.catalogue):
        raise RegelverkError(
            "--record keeps a full run of the shipped catalogue only: drop --mutant, "
            "--rulebook, --no-tests and --catalogue"
        )
    return root


def _mutate(args: argparse.Namespace) -> int:
    """``mutate``'s work, inside the Ctrl-C guard: the unchanged code first, then every
    mutant, then the score (kept with ``--record``)."""
    from regelverk_proofs import mutate, theorems

    chosen = _mutants_chosen(args)
    if args.list:
        return _mutate_list(chosen, args.json)
    root = _checkout(args)
    start = time.perf_counter()
    suite = theorems()
    code = mutate.code_hash()
    mutate.check_fits(chosen, root)
    if not args.json:
        print(f"{counted(len(chosen), 'mutant')} on code {code[:16]}; first the unchanged code")
    left_out = mutate.baseline(
        root,
        [t.name for t in suite],
        tests=not args.no_tests,
        modules=[m.file for m in chosen],
    )
    if not args.json and (left_out.theorems or left_out.tests or left_out.test_files):
        failing = [*left_out.theorems, *left_out.test_files, *left_out.tests]
        print("left out, failing on the unchanged code: " + ", ".join(failing))
    outcomes = _run_mutants(args, chosen, root, suite, left_out)
    rows = [o.to_json() for o in outcomes]
    data = _mutation_data(rows, code, start, left_out, _idle(suite, rows, chosen))
    if args.record:
        text = json.dumps(data, ensure_ascii=False, indent=1)
        mutate.RECORD.write_text(text + "\n", encoding="utf-8")
    if args.json:
        print_json(data)
    else:
        _print_mutation(data)
    failed = [r for r in rows if r["error"] or r["stillborn"]]
    survivors = [r for r in rows if not (r["theorems"] or r["tests"])]
    return EXIT_FAILED if survivors or failed else EXIT_OK


def _run_mutants(
    args: argparse.Namespace,
    chosen: list[Mutant],
    root: Path,
    suite: tuple[Theorem, ...],
    left_out: Baseline,
) -> tuple[Outcome, ...]:
    """Run every mutant chosen, saying each outcome (without ``--json``) as it comes."""
    from regelverk_proofs import mutate

    with bar(len(chosen), "mutant", "mutate", quiet=args.quiet or args.json) as progress:

        def report(outcome: Outcome) -> None:
            if not args.json:
                progress.say(_mutant_line(outcome.to_json()))
            progress.advance()

        return mutate.run_all(
            chosen,
            root,
            jobs=args.jobs or os.cpu_count() or 1,
            theorems=suite,
            tests=not args.no_tests,
            left_out=left_out,
            report=report,
        )


def _idle(
    suite: tuple[Theorem, ...], rows: list[dict[str, Any]], chosen: list[Mutant]
) -> list[str]:
    """The theorems about the mutants' rulebooks that kill no mutant of a clause they cite."""
    books = {b for m in chosen for b in m.rulebooks}
    return [
        t.name
        for t in suite
        if not any(t.name in r["theorems"] and set(r["clauses"]) & set(t.clauses) for r in rows)
        and set(t.rulebooks) & books
    ]


def _mutation_data(
    rows: list[dict[str, Any]], code: str, start: float, left_out: Baseline, idle: list[str]
) -> dict[str, Any]:
    """A mutation run as the JSON of ``mutate --json`` (and of the record the trace reads)."""
    from regelverk_proofs import mutate

    score = mutate.score(rows)
    return {
        "code": code,
        "code_hash": "sha256 over the .py files of regelverk and regelverk_proofs and the "
        "catalogue files (regelverk_proofs.mutate.code_hash)",
        "rerecord": mutate.RERECORD,
        "seconds": round(time.perf_counter() - start, 1),
        "score": score.line(),
        "scores": score.to_json(),
        "left_out": {
            "theorems": list(left_out.theorems),
            "tests": list(left_out.tests),
            "test_files": list(left_out.test_files),
        },
        "theorems_killing_no_mutant_of_their_clauses": idle,
        "mutants": rows,
    }


def _print_mutation(data: dict[str, Any]) -> None:
    """``mutate``'s closing text: the score, the survivors, what each side misses, and the
    theorems that kill no mutant of their own clauses."""
    rows = data["mutants"]
    print(data["score"] + f" in {data['seconds']} s")
    survivors = [r["id"] for r in rows if not (r["stillborn"] or r["theorems"] or r["tests"])]
    print("surviving both: " + (", ".join(survivors) or "none"))
    for label, key in (("the proofs", "theorems"), ("the ordinary tests", "tests")):
        missed = [r["id"] for r in rows if not r["stillborn"] and not r[key]]
        print(f"not killed by {label}: " + (", ".join(missed) or "none"))
    idle = data["theorems_killing_no_mutant_of_their_clauses"]
    if idle:
        print("theorems that kill no mutant of a clause they cite: " + ", ".join(idle))
