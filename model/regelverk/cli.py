"""The ``regelverk`` command line: read the rules, look up a clause, trace, check, ask, prove.

Every command takes ``--json`` for scripts. Bad input gets one line that says what is wrong,
on standard error, and exit status 2; a failed check exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import re
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from regelverk import __version__, extensions
from regelverk.books import RULEBOOKS
from regelverk.console import (
    EXIT_BROKEN,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_STATUSES,
    EXIT_USAGE,
    EscapingWriter,
    add_quiet,
    counted,
    escaped,
    one_line,
    output_path,
    print_json,
    write_whole,
)
from regelverk.engine import InvariantError
from regelverk.errors import RegelverkError, SpecError
from regelverk.extensions import AddCommand, Command
from regelverk.paths import source_root, spec_dir
from regelverk.progress import bar
from regelverk.referee import MAX_PLAYERS
from regelverk.registry import (
    TAGS,
    Ambiguity,
    Clause,
    Example,
    Locator,
    Note,
    Registry,
    default_registry,
    problems_against_text,
    registry_for,
)
from regelverk.source import shared_runs
from regelverk.trace import ClauseTrace, LinkKind, Status, trace, trace_of

__all__ = ["find_seeds", "main"]


def _locator(locator: Locator | None) -> dict[str, Any] | None:
    if locator is None:
        return None
    return {
        "seed": locator.seed,
        "section": locator.section,
        "paragraph": locator.paragraph,
        "row": locator.row,
        "text": str(locator),
    }


def _clause_json(item: ClauseTrace) -> dict[str, Any]:
    clause = item.clause
    return {
        "id": clause.id,
        "rulebook": clause.rulebook,
        "tag": clause.tag,
        "origin": clause.origin,
        "locator": _locator(clause.at),
        "also_at": [_locator(a) for a in clause.also_at],
        "official": clause.official,
        "source": clause.source,
        "rule": clause.rule,
        "parameters": dict(clause.parameters),
        "refs": list(clause.refs),
        "ambiguities": list(clause.ambiguities),
        "status": item.status.value,
        "reason": item.reason,
        "links": [
            {"kind": link.kind.value, "target": link.target, "path": link.path, "line": link.line}
            for link in item.links
        ],
    }


def _traces(registry: Registry, rulebook: str | None) -> tuple[ClauseTrace, ...]:
    if rulebook is not None:
        registry.rulebook(rulebook)
    items = trace(registry)
    return tuple(i for i in items if rulebook is None or i.clause.rulebook == rulebook)


def cmd_rules(args: argparse.Namespace) -> int:
    """List the rulebooks with clause counts by tag and by status."""
    registry = default_registry()
    items = _traces(registry, None)
    books: list[dict[str, Any]] = []
    for book in registry.rulebooks:
        own = [i for i in items if i.clause.rulebook == book.id]
        books.append(
            {
                "id": book.id,
                "name": book.name,
                "seed": book.seed,
                "language": book.language,
                "clauses": len(book.clauses),
                "by_tag": {t: n for t in TAGS if (n := sum(c.tag == t for c in book.clauses))},
                "by_status": dict(Counter(i.status.value for i in own)),
                "by_origin": dict(Counter(c.origin for c in book.clauses)),
                "ambiguities": len(book.ambiguities),
                "notes": len(book.notes),
                "examples": len(book.examples),
                "summary": book.summary,
            }
        )
    if args.json:
        print_json(books)
        return EXIT_OK
    for entry in books:
        print(f"{entry['id']}  {entry['name']}  ({entry['seed']})")
        counts = (
            counted(entry["clauses"], "clause"),
            counted(entry["ambiguities"], "ambiguity", "ambiguities"),
            counted(entry["notes"], "note"),
            counted(entry["examples"], "worked example"),
        )
        print("  " + ", ".join(counts))
        print("  by tag:    " + ", ".join(f"{k} {v}" for k, v in entry["by_tag"].items()))
        print("  by status: " + ", ".join(f"{k} {v}" for k, v in entry["by_status"].items()))
        if len(entry["by_origin"]) > 1:
            print("  by origin: " + ", ".join(f"{k} {v}" for k, v in entry["by_origin"].items()))
    return EXIT_OK


def _describe_clause(registry: Registry, item: ClauseTrace) -> list[str]:
    clause = item.clause
    lines = [f"{clause.id}  [{clause.tag}]  {clause.rulebook}", f"  source: {clause.source}"]
    lines += [f"  also:   {loc}" for loc in clause.also_at]
    lines.append(f"  rule:   {clause.rule}")
    if clause.parameters:
        pairs = ", ".join(f"{k} = {v!r}" for k, v in clause.parameters)
        lines.append(f"  fixes:  {pairs}")
    if clause.refs:
        lines.append(f"  see:    {', '.join(clause.refs)}")
    for ambiguity in registry.ambiguities_of(clause.id):
        lines.append(
            f"  unclear: {ambiguity.id} ({ambiguity.kind}): {ambiguity.title}; the model reads "
            f"{ambiguity.default!r}, option {ambiguity.option}"
        )
    for example in registry.examples_of(clause.id):
        lines.append(f"  example: {example.id}: {example.title}")
    lines.append(f"  status: {item.status.value}: {item.reason}")
    for link in item.links:
        lines.append(f"  {link.kind.value}: {link.target} ({link.path}:{link.line})")
    return lines


def _describe_other(entry: Note | Example | Ambiguity) -> tuple[list[str], dict[str, Any]]:
    data: dict[str, Any] = asdict(entry)
    if isinstance(entry, Note):
        return [f"{entry.id}  [{entry.kind}, no rule]  {entry.at}", f"  {entry.what}"], data
    if isinstance(entry, Example):
        lines = [f"{entry.id}  worked example: {entry.title}", f"  setup: {entry.setup}"]
        for number, step in enumerate(entry.steps, 1):
            cards = " ".join(step.cards)
            lines.append(
                f"  {number}. {step.at}  {step.actor} {step.action} {cards}: {step.says} "
                f"-> {step.verdict} ({', '.join(step.clauses)})"
            )
        return lines, data
    lines = [
        f"{entry.id}  [{entry.kind}]  {entry.title}",
        f"  clauses:   {', '.join(entry.clauses)}",
        f"  question:  {entry.question}",
        f"  situation: {entry.situation}",
    ]
    for reading in entry.readings:
        mark = " (default)" if reading.name == entry.default else ""
        lines += [
            f"  {entry.option} = {reading.name!r}{mark}: {reading.reading}",
            f"      gives: {reading.outcome}",
        ]
    lines.append(f"  why the default: {entry.reason}")
    return lines, data


def cmd_clause(args: argparse.Namespace) -> int:
    """Show one clause (or ambiguity, note or worked example) with everything linked to it."""
    ident = args.id.strip().upper()
    registry = registry_for(ident)
    entry = registry.entry(ident)
    if isinstance(entry, Clause):
        item = trace_of(registry, entry.id)
        if args.json:
            data = _clause_json(item)
            data["ambiguity_entries"] = [asdict(a) for a in registry.ambiguities_of(entry.id)]
            data["examples"] = [e.id for e in registry.examples_of(entry.id)]
            print_json(data)
        else:
            print("\n".join(_describe_clause(registry, item)))
        return EXIT_OK
    lines, data = _describe_other(entry)
    if args.json:
        print_json(data)
    else:
        print("\n".join(lines))
    return EXIT_OK


def cmd_trace(args: argparse.Namespace) -> int:
    """Each clause with its status; --strict fails on pending clauses and missing links."""
    registry = default_registry()
    items = _traces(registry, args.rulebook)
    failures = [
        i
        for i in items
        if i.status is Status.PENDING
        or (i.status is Status.IMPLEMENTED and not i.of_kind(LinkKind.TEST))
    ]
    if args.json:
        print_json(
            {
                "clauses": [_clause_json(i) for i in items],
                "counts": dict(Counter(i.status.value for i in items)),
                "strict_failures": [i.clause.id for i in failures] if args.strict else [],
            }
        )
    else:
        for item in items:
            print(f"{item.clause.id:<40} {item.status.value:<13} {item.clause.source}")
            if item.status is Status.NOT_MODELLED:
                print(f"{'':<40} why: {item.reason}")
        counts = Counter(i.status.value for i in items)
        print(f"{len(items)} clauses: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    if args.strict and failures:
        print(
            f"regelverk trace --strict: {len(failures)} clauses are pending or lack a test link",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return EXIT_OK


def cmd_ambiguities(args: argparse.Namespace) -> int:
    """The ambiguity register: every ambiguity, contradiction and gap with its readings."""
    registry = default_registry()
    books = registry.rulebooks if args.rulebook is None else (registry.rulebook(args.rulebook),)
    entries = [a for b in books for a in b.ambiguities]
    if args.json:
        print_json([asdict(a) for a in entries])
        return EXIT_OK
    for ambiguity in entries:
        print("\n".join(_describe_other(ambiguity)[0]))
        print()
    print(f"{len(entries)} entries")
    return EXIT_OK


def find_seeds(explicit: str | None) -> Path | None:
    """The folder of the rule texts: --seeds, else $REGELVERK_SEEDS, else ../shared/seeds."""
    for candidate in (explicit, os.environ.get("REGELVERK_SEEDS")):
        if candidate:
            path = Path(candidate)
            if not path.is_dir():
                raise RegelverkError(f"the seeds folder {candidate!r} does not exist")
            return path
    root = source_root()
    if root is not None and (root.parent / "shared" / "seeds").is_dir():
        return root.parent / "shared" / "seeds"
    return None


def cmd_check(args: argparse.Namespace) -> int:
    """Validate spec/ and the trace; with the texts at hand, check locators and own words."""
    started = time.perf_counter()
    registry = default_registry()
    items = trace(registry)
    problems: list[str] = []
    seeds = find_seeds(args.seeds)
    checked_texts = 0
    texts: dict[str, str] = {}
    if seeds is not None:
        for book in registry.rulebooks:
            path = seeds / book.seed
            if not path.is_file():
                problems.append(f"{book.seed} is missing from {seeds}")
                continue
            text = texts[book.seed] = path.read_text(encoding="utf-8")
            checked_texts += 1
            problems += problems_against_text(book, text)
            own = (spec_dir() / f"{book.id}.toml").read_text(encoding="utf-8")
            for run in shared_runs(text, own):
                problems.append(f"{book.id}.toml repeats the text's words: '{run}'")
    from regelverk.disputes import check as dispute_problems

    problems += dispute_problems(registry, texts if seeds is not None else None)
    counts = Counter(i.status.value for i in items)
    summary = {
        "clauses": len(items),
        "ambiguities": sum(len(b.ambiguities) for b in registry.rulebooks),
        "statuses": dict(counts),
        "texts_checked": checked_texts,
        "seeds": str(seeds) if seeds else None,
        "problems": problems,
        "seconds": round(time.perf_counter() - started, 3),
    }
    if args.json:
        print_json(summary)
    else:
        print(
            f"spec: {summary['clauses']} clauses and {summary['ambiguities']} ambiguities, "
            "all ids unique, every reference resolving, every paragraph covered"
        )
        print("trace: every cited id exists; " + ", ".join(f"{v} {k}" for k, v in counts.items()))
        if seeds is None:
            print("texts: not found (give --seeds DIR or set REGELVERK_SEEDS to check locators)")
        else:
            print(f"texts: {checked_texts} checked for locators and shared wording")
        print(
            "disputes: the vvv8 table checked against the spec and its question files"
            + (" and the text" if seeds is not None else "")
        )
        for problem in problems:
            print(f"problem: {problem}")
    return EXIT_FAILED if problems else EXIT_OK


def _lower(phrase: str) -> str:
    """A verdict's phrase inside a sentence."""
    return phrase[:1].lower() + phrase[1:]


def _print_ruling(data: dict[str, Any], verbose: bool = False) -> None:
    from regelverk.verdicts import first_words

    print(f"{first_words(data)}: {data['message']}")
    for ident in data["clauses"]:
        print(f"  {ident}: {registry_for(ident).clause(ident).rule}")
    for event in data["events"]:
        print(f"  event: {event['text']} ({', '.join(event['clauses'])})")
    _print_readings(
        data["readings"], (data.get("verdict_as_asked"), data["message"]), verbose=verbose
    )


def _reading_words(reading: dict[str, Any]) -> str:
    """A reading by its option, reading and ambiguity."""
    return f"{reading['option']} = {reading['reading']!r} ({reading['ambiguity']})"


def _print_readings(
    readings: list[dict[str, Any]], asked: tuple[Any, str] | None = None, *, verbose: bool = False
) -> None:
    """What the readings of the deciding ambiguities give: those that change the ruling
    ``asked`` (its verdict token and message; by default, what the readings the question takes
    give), grouped by what they give; with ``verbose``, every reading, one line each."""
    from regelverk.verdicts import Verdict

    if not readings:
        return
    if verbose:
        for reading in readings:
            mark = " (default)" if reading["default"] else ""
            said = _lower(Verdict.from_token(reading["verdict"]).phrase)
            print(
                f"  reading {reading['option']} = {reading['reading']!r}{mark} "
                f"({reading['ambiguity']}): {said}: {reading['summary']}"
            )
        return
    taken = [(r["verdict"], r["summary"]) for r in readings if r.get("asked")]
    baseline = taken[0] if taken else asked
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for reading in readings:
        gives = (reading["verdict"], reading["summary"])
        if gives != baseline:
            groups.setdefault(gives, []).append(reading)
    for (token, summary), members in groups.items():
        under = ", or ".join(_reading_words(r) for r in members)
        print(f"  under {under}:")
        print(f"      {Verdict.from_token(token).phrase}: {summary}")
    same = len(readings) - sum(len(members) for members in groups.values())
    if groups:
        others = "the other reading rules" if same == 1 else f"the other {same} readings rule"
        print(f"  {others} as above (--verbose lists every reading)")
    else:
        print(
            f"  every reading of the unclear rules here rules the same ({len(readings)} "
            "readings; --verbose lists them)"
        )


def _print_answer(data: dict[str, Any]) -> None:
    """A 'can it ever happen?' answer: yes with a witness, or no with the clauses."""
    print(f"can it happen that {data['question']}?  ({data['rulebook']}, {data['scenario']})")
    for name, meaning in data["facts"].items():
        print(f"  {name}: {meaning}")
    if data["possible"] is True:
        print("yes; for instance:")
        print("  " + data["witness"].replace("\n", "\n  "))
    elif data["possible"] is False:
        print("no; these clauses together forbid it:")
        for ident in data["forbidding"]:
            print(f"  {ident}: {registry_for(ident).clause(ident).rule}")
    else:
        print(f"unknown: Z3 gave no answer ({data['witness']})")


def _list_facts(rulebook: str, as_json: bool) -> int:
    """``ask --facts``: a rulebook's scenarios and the facts they name, from the proofs."""
    listing = extensions.required("'regelverk ask --facts'").facts(rulebook)
    if as_json:
        print_json(listing)
        return EXIT_OK
    if not listing:
        print(f"{rulebook} has no scenarios for questions yet")
    for entry in listing:
        print(f"{entry['scenario']}: {entry['description']}")
        for name, meaning in entry["facts"].items():
            print(f"  {name}: {meaning}")
        if entry["constants"]:
            named = ", ".join(f"{k} = {v}" for k, v in entry["constants"].items())
            print(f"  values: {named}")
    return EXIT_OK


def _print_any_answer(answer: dict[str, Any], as_json: bool, verbose: bool = False) -> None:
    """Print what ``ask`` answered, in the form of its kind, with any invariant it breaks
    (``verbose``: what every reading of an unclear rule gives, not only those that change the
    ruling)."""
    if as_json:
        print_json(answer)
        return
    if "possible" in answer:
        _print_answer(answer)
    elif "steps" in answer:
        _print_replay(answer, verbose)
    elif answer.get("partial"):
        _print_partial(answer)
    else:
        _print_ruling(answer, verbose)
    for problem in answer.get("problems", []):
        print(f"problem: the position reached cannot occur: {problem}")


def cmd_ask(args: argparse.Namespace) -> int:
    """Rule on a question file, or answer a 'can it ever happen?' question with Z3."""
    from regelverk.referee import ask, load_question

    given = [args.file is not None, args.can is not None, args.facts is not None]
    if sum(given) != 1:
        raise RegelverkError("ask takes one of: a question FILE, --can CONDITION, or --facts")
    if args.facts is not None:
        return _list_facts(args.facts, args.json)
    if args.can is not None:
        if args.rulebook is None:
            raise RegelverkError("--can needs --rulebook")
        question = {"rulebook": args.rulebook, "can": args.can}
        answer = ask({**question, **({"scenario": args.scenario} if args.scenario else {})})
    else:
        answer = ask(load_question(Path(args.file)))
    refused = "steps" in answer and not answer["allowed"]
    _print_any_answer(answer, args.json, args.verbose)
    broken = answer.get("problems", [])
    if broken:
        sys.stdout.flush()
        where = "in the position the answer reaches"
        print(f"regelverk: {one_line(InvariantError(where, broken))}", file=sys.stderr)
        return EXIT_BROKEN
    return EXIT_REFUSED if refused else EXIT_OK


def _print_partial(answer: dict[str, Any]) -> None:
    """A ruling on a position with unknown cards: always, never or depends, and one way the
    unknown cards can lie for each kind of ruling, with its verdict."""
    from regelverk.verdicts import Verdict

    message = answer["message"]
    print(message[0].upper() + message[1:])
    for kind in answer["kinds"]:
        phrase = _lower(Verdict.from_token(kind["verdict"]).phrase)
        lying = "; ".join(
            f"{name} {' '.join(cards)}" for name, cards in kind["unknown_cards"].items()
        )
        gap = ", " if any(mark in phrase for mark in ",:") else " "
        print(f"{phrase}{gap}in {kind['count']} of them, e.g. with {lying}: {kind['message']}")
        for ident in kind["clauses"]:
            print(f"  {ident}: {registry_for(ident).clause(ident).rule}")


def _print_replay(answer: dict[str, Any], verbose: bool = False) -> None:
    if answer["opening"]:
        print("0. the deal")
        for event in answer["opening"]:
            print(f"  event: {event['text']} ({', '.join(event['clauses'])})")
        _print_readings(answer.get("readings", []), verbose=verbose)
    for step in answer["steps"]:
        print(f"{step['number']}. {json.dumps(step['said'], ensure_ascii=False)}")
        _print_ruling(step, verbose)
    refused = [str(step["number"]) for step in answer["steps"] if not step["allowed"]]
    if answer.get("stopped") is not None:
        print(f"the replay stops at action {answer['stopped']}: the rules refuse it")
    elif refused:
        ending = "with the game over" if answer["over"] else "mid-game"
        print(
            f"the rules refuse action {', '.join(refused)}, but the ruling stands and play goes "
            f"on; the {answer['kind']} ends {ending}"
        )
    else:
        ending = "with the game over" if answer["over"] else "mid-game"
        if answer["kind"] == "deal":
            print(
                f"after the deal{' and its actions' if answer['steps'] else ''}, "
                + ("the game is over" if answer["over"] else "play goes on")
            )
        else:
            print(f"the {answer['kind']} ends {ending}")


def _seed(text: str) -> int:
    """``--seed``: a whole number above -2**64 and below 2**64, as every seed is (the text is
    cut short in the message)."""
    from regelverk.engine import SEED_LIMIT

    if re.fullmatch(r"[+-]?[0-9]{1,20}", text.strip()) and abs(int(text)) < SEED_LIMIT:
        return int(text)
    shown = escaped(text[:24], "") + (f"… ({len(text)} characters)" if len(text) > 24 else "")
    raise RegelverkError(
        f"--seed: 'seed' must be a whole number above -2**64 and below 2**64, not {shown}"
    )


def _parse_option(text: str) -> tuple[str, Any]:
    """``NAME=VALUE``: the value read as JSON where it is JSON (``3``, ``true``, ``null``), as
    Python spells a truth value (``True``, ``False``), else as the text itself."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise RegelverkError(f"--option takes NAME=VALUE, not {escaped(text, '')[:200]!r}")
    if value in ("True", "False"):
        return name, value == "True"
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value
    except ValueError:  # a number longer than Python reads (4300 digits)
        raise RegelverkError(
            f"--option {escaped(name, '')[:100]}: a number of {len(value)} digits is far beyond "
            "any this option takes"
        ) from None


def cmd_play(args: argparse.Namespace) -> int:
    """Play a whole game by random legal moves and print it with the clauses of every move."""
    from regelverk.referee import play

    players: int | list[str]
    if re.fullmatch(r"[0-9]{1,6}", args.players):
        players = int(args.players)
    elif re.fullmatch(r"[0-9]+", args.players):
        raise RegelverkError(f"--players {args.players[:12]}…: at most {MAX_PLAYERS} players")
    else:
        players = args.players.split(",")
    overrides = dict(_parse_option(o) for o in args.option)
    played = play(args.rulebook, players, _seed(args.seed), overrides, policy=args.policy)
    if args.json:
        print_json(played.record)
        return _played_status(played.problems, len(played.log))
    if played.opening:
        print("0. the deal")
        for event in played.opening:
            print(f"     {event.text}  [{', '.join(event.clauses)}]")
    for number, (action, events) in enumerate(played.log, 1):
        print(f"{number}. {json.dumps(action, ensure_ascii=False)}")
        for event in events:
            print(f"     {event.text}  [{', '.join(event.clauses)}]")
    if played.problems:
        print(f"stopped after {len(played.log)} actions: a broken invariant")
    else:
        print("game over" if played.over else f"stopped after {len(played.log)} actions, not over")
    return _played_status(played.problems, len(played.log))


def _played_status(problems: tuple[str, ...], actions: int) -> int:
    """``play``'s exit status: :data:`EXIT_BROKEN`, with the invariants named on standard
    error, if the game reached a state that breaks one."""
    if not problems:
        return EXIT_OK
    sys.stdout.flush()
    where = f"after {actions} action{'s' if actions != 1 else ''}"
    print(f"regelverk: {one_line(InvariantError(where, problems))}", file=sys.stderr)
    return EXIT_BROKEN


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play many seeded games, every seat by the chosen player, per rulebook and reading; write
    the table of their lengths, results and seat shares."""
    from regelverk.simulate import SimulationInterrupted, simulate, table_to_csv, table_to_data

    if args.sweep:
        return _sweep(args)
    out = output_path(args.out, "--out")
    start = time.perf_counter()
    quiet = args.quiet or args.json
    with contextlib.ExitStack() as stack:

        def advancing(total: int) -> Callable[[int], None]:
            progress = stack.enter_context(bar(total, "game", "simulate", quiet=quiet))
            return progress.advance

        try:
            table = simulate(args.rulebook, choices=args.option, **_played(args, advancing))
        except SimulationInterrupted as stopped:
            table = stopped.table
    seconds = time.perf_counter() - start
    kind = "json" if args.json else args.format
    if kind == "json":
        text = json.dumps(table_to_data(table), ensure_ascii=False, indent=2) + "\n"
    elif kind == "csv":
        text = table_to_csv(table)
    else:
        text = _simulation_text(table_to_data(table))
    if out is not None:
        write_whole(out, text)
        played = sum(row.games for row in table.rows)
        print(f"{counted(played, 'game')} in {seconds:.1f} s; the table is in {args.out}")
    else:
        sys.stdout.write(text)
    if not table.complete:
        sys.stdout.flush()
        print(
            f"regelverk: interrupted: the table, marked partial, holds the "
            f"{counted(sum(row.games for row in table.rows), 'game')} finished",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    return EXIT_OK


def _played(
    args: argparse.Namespace, advancing: Callable[[int], Callable[[int], None]]
) -> dict[str, Any]:
    """How the games of ``simulate`` (a table or a sweep) are played, from its arguments."""
    return {
        "games": args.games,
        "seed": _seed(args.seed),
        "players": args.players,
        "jobs": args.jobs,
        "check": args.check,
        "policy": args.policy,
        "scheduler": args.scheduler,
        "progress": advancing,
    }


def _sweep(args: argparse.Namespace) -> int:
    """``simulate --sweep``: every combination of readings, one row per game, to a file."""
    from regelverk.sweep import SweepInterrupted, sweep

    if args.option:
        raise RegelverkError("--sweep plays every combination itself: leave out --option")
    if args.json or args.format != "text":
        raise RegelverkError(
            "a sweep writes its rows to the --out file, CSV or Parquet by its name: leave out "
            "--format and --json"
        )
    out = output_path(args.out, "--out")
    if out is None:
        raise RegelverkError("a sweep streams its rows to a file: give --out FILE.csv or .parquet")
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:

        def advancing(total: int) -> Callable[[int], None]:
            progress = stack.enter_context(bar(total, "game", "sweep", quiet=args.quiet))
            return progress.advance

        try:
            swept = sweep(args.rulebook, args.sweep, out, **_played(args, advancing))
        except SweepInterrupted as stopped:
            swept = stopped.swept
    seconds = time.perf_counter() - start
    refused = (
        f"; {counted(len(swept.refused), 'combination')} the engine refuses, left out"
        if swept.refused
        else ""
    )
    print(
        f"{counted(swept.games, 'game')} of {counted(swept.combinations, 'combination')} in "
        f"{seconds:.1f} s{refused}; one row per game in {args.out}"
    )
    if not swept.complete:
        print("regelverk: interrupted: the file holds the games finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def _simulation_text(data: dict[str, Any]) -> str:
    """The table for people: one block per rulebook, one line per reading; every share with its
    95% interval."""
    lines = [
        f"{counted(data['games'], 'game')} per reading, {data['players']} players, "
        f"seeds {data['seed']} to {data['seed'] + data['games'] - 1}, every seat playing "
        f"{data.get('policy', 'random')}; shares with their 95% Wilson interval"
        + ("" if data.get("complete", True) else " (partial: interrupted)")
    ]
    for row in data["rows"]:
        rates = row["rates"]
        if not row["option"]:
            of = counted(row["outcomes"], "official deal" if row["outcome"] == "deal" else "game")
            lines.append(
                f"{row['rulebook']} (preset): {row['finished']} of {row['games']} finished, "
                f"{row['mean_actions']} actions and {row['mean_rounds']} rounds on average"
            )
            named = [
                (kind, done)
                for kind, done in (("wins", "won"), ("losses", "lost"))
                if any(row[kind]) or row[f"tied_{kind}"]
            ]  # a rulebook naming only its winners (losers) has no line for the other
            for kind, done in named or [("wins", "won"), ("losses", "lost")]:
                lines.append(
                    f"  {kind} by seat, of {of}: {_shares(rates[kind])}"
                    + _tied(row[f"tied_{kind}"], done)
                )
        else:
            unfinished = row["games"] - row["finished"]
            lines.append(
                f"  {row['option']} = {row['reading']}: {_percent(rates['diverged'])} of games "
                f"go otherwise, {_percent(rates['changed'])} end with another result; "
                f"{row['mean_actions']} actions on average"
                + (f" ({unfinished} unfinished)" if unfinished else "")
            )
    return "\n".join(lines) + "\n"


def _shares(rates: list[list[float]]) -> str:
    return "  ".join(f"{share:.2f} ({low:.2f}-{high:.2f})" for share, low, high in rates)


def _percent(rate: list[float]) -> str:
    share, low, high = rate
    return f"{share:.0%} ({low:.0%}-{high:.0%})"


def _tied(count: int, done: str) -> str:
    return f"; {counted(count, 'tie')} ({done} by two or more seats together)" if count else ""


def _add_simulate(add: AddCommand) -> None:
    """The ``simulate`` command's arguments."""
    simulate_cmd = add(
        "simulate",
        cmd_simulate,
        "Play many seeded games (game k of seed S is 'regelverk play RULEBOOK --seed S+k "
        "--policy P', every seat playing by the player P), under each rulebook's preset and "
        "under other readings of its options, on all cores; write how long games last, how "
        "often a reading changes a game's result, and each seat's share of wins and losses.",
    )
    simulate_cmd.add_argument(
        "--rulebook",
        action="append",
        default=[],
        choices=RULEBOOKS,
        help="only this rulebook (repeatable; default: all four)",
    )
    simulate_cmd.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="also play every other reading of this option, or just VALUE (repeatable)",
    )
    simulate_cmd.add_argument(
        "--games", type=int, default=100, help="games per rulebook and reading (default 100)"
    )
    simulate_cmd.add_argument("--seed", default="0", help="the first game's seed")
    simulate_cmd.add_argument("--players", type=int, default=4, help="players (default 4)")
    simulate_cmd.add_argument(
        "--jobs", type=int, default=0, help="processes playing games (default: one per core)"
    )
    simulate_cmd.add_argument(
        "--format",
        choices=("text", "csv", "json"),
        default="text",
        help="the table's format (default text; --json is --format json)",
    )
    simulate_cmd.add_argument("--out", metavar="FILE", help="write the table to FILE")
    simulate_cmd.add_argument(
        "--check",
        choices=("every-step", "end"),  # simulate.CHECKS, without importing the simulator
        default="every-step",
        help="hold each game to the engine's invariants after every action (default) or only "
        "at its end (faster); a broken invariant exits 4",
    )
    simulate_cmd.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play the games on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://host:8786), or on a LocalCluster of --jobs processes with 'local'; the output "
        "is the same as on this machine (needs pip install 'regelverk[cluster]')",
    )
    simulate_cmd.add_argument(
        "--sweep",
        action="append",
        default=[],
        metavar="NAME",
        help="play every combination of the readings of these options ('all': every option "
        "with a choice of readings), --games games each, and stream one row per game to the "
        "--out file, .csv or .parquet (repeatable)",
    )
    _add_policy(simulate_cmd)
    add_quiet(simulate_cmd)


POLICY_CHOICES = ("random", "keen", "sensible")
"""regelverk.policies.POLICIES, without importing the players (a test holds the two equal)."""


def _add_policy(command: argparse.ArgumentParser) -> None:
    """``--policy``: the player at every seat."""
    command.add_argument(
        "--policy",
        choices=POLICY_CHOICES,
        default="random",
        help="the player at every seat: 'random' takes any legal action (default), 'keen' lays "
        "a card whenever one fits, else any other legal action, 'sensible' plays the rulebook "
        "as a plain player does (see regelverk.<family>.policies)",
    )


SHELLS = ("bash", "zsh", "fish")


def _completion_file(shell: str) -> Path:
    """Where ``completion --install`` puts the script: a folder the shell (with bash-completion
    for bash) loads completions from by itself, or for zsh a file that ``~/.zshrc`` sources."""
    home = Path.home()
    data = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    if shell == "bash":
        return data / "bash-completion" / "completions" / "regelverk"
    if shell == "fish":
        return config / "fish" / "completions" / "regelverk.fish"
    return data / "regelverk" / "completion.zsh"


def _zshrc() -> Path:
    return Path(os.environ.get("ZDOTDIR") or Path.home()) / ".zshrc"


def cmd_completion(args: argparse.Namespace) -> int:
    """Print (or install) the shell's completion script for ``regelverk``."""
    try:
        from argcomplete.shell_integration import shellcode
    except ImportError:
        raise RegelverkError(
            "shell completion needs argcomplete: pip install 'regelverk[cli]'"
        ) from None
    script = shellcode(["regelverk"], shell=args.shell)
    if args.json:
        target = _completion_file(args.shell)
        print_json({"shell": args.shell, "file": str(target), "script": script})
        return EXIT_OK
    if not args.install:
        sys.stdout.write(script)
        return EXIT_OK
    target = _completion_file(args.shell)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_whole(target, script)
    print(f"the {args.shell} completion of regelverk is in {target}")
    if args.shell == "zsh":
        rc = _zshrc()
        line = f"source {shlex.quote(str(target))}  # regelverk's completion"
        present = rc.read_text(encoding="utf-8") if rc.exists() else ""
        if line not in present.splitlines():
            with rc.open("a", encoding="utf-8") as out:
                out.write(("" if not present or present.endswith("\n") else "\n") + line + "\n")
            print(f"added to {rc}: {line}")
    print("it works in shells started from now on")
    return EXIT_OK


def _complete(parser: argparse.ArgumentParser) -> None:
    """Answer the shell's request for completions, when the shell's completion script (from
    ``regelverk completion``) made it; otherwise return at once. argcomplete is imported only
    then, so it costs a normal run nothing, and nothing breaks where it is not installed."""
    if "_ARGCOMPLETE" not in os.environ:
        return
    try:
        import argcomplete
    except ImportError:
        return
    argcomplete.autocomplete(parser)


def _clause_ids(prefix: str, **_: Any) -> list[str]:
    """Completions for a clause id: every id of every entry of the registry, matched without
    regard to case (offered in lower case to one who types in lower case)."""
    wanted = prefix.upper()
    ids = (entry.id for book in default_registry().rulebooks for entry in book.entries())
    lower = prefix != wanted  # typed in lower case: offered in lower case
    return [ident.lower() if lower else ident for ident in ids if ident.startswith(wanted)]


PROOF_COMMANDS = ("prove", "mutate")
"""The commands the proofs part of regelverk adds (see :mod:`regelverk.extensions`). Where it
is not installed, each is still a command, one that says so and how to install it."""


def _add_extensions(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], add: AddCommand
) -> None:
    """The commands of the installed extensions, and a stand-in for each of
    :data:`PROOF_COMMANDS` that none of them adds."""
    for extension in extensions.installed():
        extension.add_commands(add)
    for name in PROOF_COMMANDS:
        if name not in sub.choices:
            text = "Needs the proofs part of regelverk: pip install 'regelverk[prove]'."
            # whatever follows is the stand-in's: no option of its own, not even --help
            stand_in = sub.add_parser(name, help=text, prefix_chars="\0", add_help=False)
            stand_in.add_argument("given", nargs="*", help=argparse.SUPPRESS)
            stand_in.set_defaults(func=functools.partial(_needs_proofs, name))


def _needs_proofs(name: str, args: argparse.Namespace) -> int:
    """A proofs command where the proofs part is not installed: one line on how to get it."""
    raise extensions.missing(f"'regelverk {name}'")


OWN_COMMANDS = ("rules", "clause", "trace", "ambiguities", "check", "ask", "play", "simulate")
"""Commands of the model itself: a command line naming one of them builds its parser without
looking for extensions (which costs a scan of the installed distributions' metadata)."""


def _needs_extensions(argv: Sequence[str]) -> bool:
    """Whether the command line may name an extension's command (or ask for the full help):
    its first word that is not an option is none of :data:`OWN_COMMANDS`, or the shell is
    completing it."""
    first = next((word for word in argv if not word.startswith("-")), None)
    return first not in OWN_COMMANDS or "_ARGCOMPLETE" in os.environ


def build_parser(*, with_extensions: bool = True) -> argparse.ArgumentParser:
    """The argument parser, with a sub-command per job (the extensions' too, unless
    ``with_extensions`` is false)."""
    parser = argparse.ArgumentParser(
        prog="regelverk",
        description=(
            f"Card-game rulebooks ({', '.join(RULEBOOKS)}) as clauses with stable ids, traced "
            "to the code, tests and proofs behind them."
        ),
        epilog=f"Run 'regelverk COMMAND --help' for a command's options.\n\n{EXIT_STATUSES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"regelverk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(name: str, func: Command, text: str) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=text, description=text)
        command.add_argument("--json", action="store_true", help="print JSON for scripts")
        command.set_defaults(func=func)
        return command

    add("rules", cmd_rules, "List the rulebooks with clause counts by tag and status.")
    clause = add(
        "clause",
        cmd_clause,
        "Show a clause: source, rule, parameters, ambiguities and links. Also takes the id of "
        "an ambiguity (…-AMB-…), a note (…-NOTE-…) or a worked example (…-EX-…).",
    )
    ident = clause.add_argument("id", help="an id such as V8-… (case does not matter)")
    setattr(ident, "completer", _clause_ids)  # noqa: B010 (argcomplete reads the attribute)
    trace_cmd = add(
        "trace",
        cmd_trace,
        "Each clause: implemented, tested, proved, not modelled (with the reason) or pending.",
    )
    trace_cmd.add_argument("--rulebook", choices=RULEBOOKS, help="only this rulebook")
    trace_cmd.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 if any clause is pending or implemented without a test",
    )
    amb = add("ambiguities", cmd_ambiguities, "The ambiguity register, with every reading.")
    amb.add_argument("--rulebook", choices=RULEBOOKS, help="only this rulebook")
    check = add(
        "check",
        cmd_check,
        "Validate spec/ and the trace; with the rule texts at hand, also check that every "
        "locator points at its paragraph and that no clause repeats a text's wording.",
    )
    check.add_argument("--seeds", metavar="DIR", help="the folder holding the four rule texts")
    ask = add(
        "ask",
        cmd_ask,
        "Rule on a question file: a position with an attempted action (is it allowed, which "
        "clauses decide, what happens, what each reading of an ambiguity gives), or a record "
        "from 'regelverk play --json' to replay and rule on move by move.",
    )
    ask.add_argument("file", nargs="?", help="a .json or .toml question file")
    ask.add_argument(
        "--can",
        metavar="CONDITION",
        help="ask whether CONDITION can ever hold, e.g. 'goes-out and last-rank = eight'; "
        "Z3 answers yes with a witness or no with the clauses that forbid it",
    )
    ask.add_argument("--rulebook", choices=RULEBOOKS, help="the rulebook --can asks about")
    ask.add_argument("--scenario", help="the scenario --can asks about, when several fit")
    ask.add_argument(
        "--facts", choices=RULEBOOKS, help="list a rulebook's scenarios and the facts they name"
    )
    ask.add_argument(
        "--verbose",
        action="store_true",
        help="list what every reading of an unclear rule gives, one line each (by default only "
        "the readings that change the ruling are listed, grouped by what they give)",
    )
    if with_extensions:
        _add_extensions(sub, add)
    play_cmd = add(
        "play",
        cmd_play,
        "Play a whole game, every seat choosing by a seeded player (--policy: any legal action, "
        "or a card whenever one fits), and print it with the clauses of every move; --json "
        "prints a record that 'regelverk ask' replays.",
    )
    play_cmd.add_argument("rulebook", choices=RULEBOOKS)
    play_cmd.add_argument("--seed", default="0", help="shuffles and move choices")
    play_cmd.add_argument(
        "--players", default="4", help="a count, or names separated by commas (default 4)"
    )
    play_cmd.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override an option of the rulebook's preset (repeatable)",
    )
    _add_policy(play_cmd)
    _add_simulate(add)
    completion = add(
        "completion",
        cmd_completion,
        "Print the shell completion script for bash, zsh or fish (needs the cli extra), or "
        "install it with --install: bash (with bash-completion) and fish load it by themselves, "
        "zsh through a line added to ~/.zshrc once.",
    )
    completion.add_argument("shell", choices=SHELLS)
    completion.add_argument(
        "--install", action="store_true", help="write it where the shell finds it"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Every failure is one line on standard error: bad input (and an output that cannot be
    written) exits 2, a failed check 1; control characters in what is printed show as escapes,
    and a console that cannot show a character gets an escape instead of an error.
    """
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser(with_extensions=_needs_extensions(sys.argv[1:] if argv is None else argv))
    if argv is None:
        _complete(parser)
    args = parser.parse_args(argv)
    try:
        with contextlib.redirect_stdout(EscapingWriter(sys.stdout)):
            status = int(args.func(args))
        sys.stdout.flush()
        return status
    except SpecError as error:
        print(f"regelverk: {escaped(str(error))}", file=sys.stderr)
        return EXIT_FAILED
    except InvariantError as error:
        sys.stdout.flush()
        print(f"regelverk: {one_line(error)}", file=sys.stderr)
        return EXIT_BROKEN
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        print("regelverk: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (RegelverkError, OSError, RecursionError) as error:
        if isinstance(error, OSError) and not isinstance(error, FileNotFoundError):
            _silence_stdout()
        print(f"regelverk: error: {one_line(error)}", file=sys.stderr)
        return EXIT_USAGE


def _silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of an
    output that cannot be written (a closed pipe, a full disk) adds no second error."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
