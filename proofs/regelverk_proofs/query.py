"""Questions of the form "can it ever happen that …?", answered by Z3 over scenarios.

A :class:`Scenario` is a small encoding of one moment of a game (a going out, the end of a
deal, a Wild Draw Four and its challenge, a step of a trick) whose rules are asserted clause by
clause, and which names *facts*: boolean or integer terms a question can talk about. A question
is a condition on those facts in this small language::

    condition := alternative ("or" alternative)*
    alternative := negation ("and" negation)*
    negation  := "not" negation | "(" condition ")" | fact | fact OP value
    OP        := "=" | "!=" | "<" | "<=" | ">" | ">="
    value     := an integer, or a constant the scenario names (eight, ace, red, …)

A boolean fact stands alone (``goes-out``); an integer fact is compared (``active-players <
3``). :func:`ask` adds the condition to the scenario's clause-tracked rules: if Z3 finds them
satisfiable the answer is *yes* with a witness; if not, *no* with the clauses of an unsat
core, the rules that together forbid it.

>>> parse("goes-out and not (last-rank = eight or active < 3)").render()
'(goes-out and not (last-rank = eight or active < 3))'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from regelverk.errors import RegelverkError
from regelverk_proofs.z3api import Bool, Int, Model, Solver, Verdict, all_of, any_of

__all__ = [
    "Answer",
    "Condition",
    "Fact",
    "QueryError",
    "Scenario",
    "Situation",
    "answer_to_data",
    "ask",
    "choose",
    "facts_of",
    "parse",
]


class QueryError(RegelverkError):
    """A question that cannot be read, or that names a fact or value the scenario lacks."""


@dataclass(frozen=True, slots=True)
class Fact:
    """A term of a scenario that questions may name, with what it means in words."""

    name: str
    description: str
    term: Bool | Int = field(repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Situation:
    """A built scenario: its facts and how to print a satisfying assignment as a witness."""

    facts: tuple[Fact, ...]
    render: Callable[[Model], str] = field(repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Scenario:
    """One moment of a game, encoded for questions.

    ``build`` asserts the scenario's rules into the solver, each under the clause it encodes,
    and returns the facts. ``constants`` names values questions may compare with.
    """

    name: str
    rulebook: str
    description: str
    build: Callable[[Solver], Situation] = field(repr=False, compare=False)
    constants: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)


_TOKEN = re.compile(
    r"\s*(?:(?P<num>-?\d+)|(?P<op><=|>=|!=|=|<|>)|(?P<paren>[()])|"
    r"(?P<name>[a-z][a-z0-9_-]*))",
    re.IGNORECASE,
)
_OPS = ("=", "!=", "<", "<=", ">", ">=")


@dataclass(frozen=True, slots=True)
class Condition:
    """A parsed question: ``op`` is ``and``/``or``/``not``, a comparison, or ``fact``."""

    op: str
    parts: tuple[Condition, ...] = ()
    name: str = ""
    value: str = ""

    def render(self) -> str:
        """The condition written back, fully bracketed."""
        if self.op == "fact":
            return self.name
        if self.op in _OPS:
            return f"{self.name} {self.op} {self.value}"
        if self.op == "not":
            return f"not {self.parts[0].render()}"
        return "(" + f" {self.op} ".join(p.render() for p in self.parts) + ")"

    def names(self) -> frozenset[str]:
        """The facts the condition mentions."""
        own = {self.name} if self.name else set()
        return frozenset(own).union(*(p.names() for p in self.parts))


MAX_QUESTION = 2_000
"""The longest question read, in characters."""

MAX_NESTING = 40
"""How deeply brackets and ``not`` may nest in a question."""


def _cut(text: str, limit: int = 60) -> str:
    return repr(text) if len(text) <= limit else f"{text[: limit - 1]!r}… ({len(text)} characters)"


def _tokens(text: str) -> list[str]:
    found, at = [], 0
    text = text.strip()
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None or match.end() == at:
            raise QueryError(f"cannot read the question at {_cut(text[at:])}")
        found.append(match.group().strip().lower())
        at = match.end()
        while at < len(text) and text[at].isspace():
            at += 1
    return found


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = _cut(text)
        self.tokens = _tokens(text)
        self.at = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise QueryError(f"the question {self.text} ends too early")
        self.at += 1
        return token

    def condition(self, joiner: str = "or") -> Condition:
        parts = [self.alternative() if joiner == "or" else self.negation()]
        while self.peek() == joiner:
            self.take()
            parts.append(self.alternative() if joiner == "or" else self.negation())
        return parts[0] if len(parts) == 1 else Condition(joiner, tuple(parts))

    def alternative(self) -> Condition:
        return self.condition("and")

    def negation(self) -> Condition:
        token = self.take()
        if token in {"not", "("}:
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise QueryError(
                    f"the question nests brackets and 'not' more than {MAX_NESTING} deep"
                )
            inner = Condition("not", (self.negation(),)) if token == "not" else self.condition()
            if token == "(" and self.take() != ")":
                raise QueryError(f"a bracket is not closed in {self.text}")
            self.depth -= 1
            return inner
        if token in {"and", "or", ")"} or token in _OPS or not token[0].isalpha():
            raise QueryError(f"expected a fact where {_cut(token)} stands in {self.text}")
        if self.peek() in _OPS:
            op = self.take()
            return Condition(op, name=token, value=self.take())
        return Condition("fact", name=token)


def parse(text: str) -> Condition:
    """Read a question; :class:`QueryError` says where it goes wrong."""
    if len(text) > MAX_QUESTION:
        raise QueryError(f"the question is longer than {MAX_QUESTION} characters")
    parser = _Parser(text)
    if not parser.tokens:
        raise QueryError("the question is empty")
    condition = parser.condition()
    if parser.peek() is not None:
        raise QueryError(f"unexpected {_cut(parser.peek() or '')} in {parser.text}")
    return condition


def _unknown(kind: str, name: str, known: list[str]) -> QueryError:
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(known)}"
    return QueryError(f"no {kind} called {_cut(name)}{hint}")


def _value(scenario: Scenario, text: str) -> int:
    if re.fullmatch(r"-?\d+", text):
        if len(text) > 18:
            raise QueryError(f"the number {_cut(text)} is too long: at most 18 digits")
        return int(text)
    if text in scenario.constants:
        return scenario.constants[text]
    raise _unknown("value", text, sorted(scenario.constants))


def _term(condition: Condition, scenario: Scenario, facts: Mapping[str, Fact]) -> Bool:
    if condition.op in {"and", "or"}:
        terms = [_term(p, scenario, facts) for p in condition.parts]
        return all_of(terms) if condition.op == "and" else any_of(terms)
    if condition.op == "not":
        return ~_term(condition.parts[0], scenario, facts)
    if condition.name not in facts:
        raise _unknown("fact", condition.name, sorted(facts))
    term = facts[condition.name].term
    if condition.op == "fact":
        if not isinstance(term, Bool):
            raise QueryError(
                f"{condition.name} is a number: compare it, as in '{condition.name} = 2'"
            )
        return term
    if not isinstance(term, Int):
        raise QueryError(
            f"{condition.name} is true or false: use it alone, or 'not {condition.name}'"
        )
    value = _value(scenario, condition.value)
    return {
        "=": term.eq,
        "!=": term.ne,
        "<": term.__lt__,
        "<=": term.__le__,
        ">": term.__gt__,
        ">=": term.__ge__,
    }[condition.op](value)


@dataclass(frozen=True, slots=True)
class Answer:
    """Whether the condition can hold: with a witness, or with the clauses that forbid it.

    ``possible`` is ``None`` when Z3 gave no answer in time.
    """

    rulebook: str
    scenario: str
    question: str
    possible: bool | None
    witness: str = ""
    forbidding: tuple[str, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()


def ask(scenario: Scenario, question: str, timeout_ms: int = 30_000) -> Answer:
    """Decide whether ``question`` can hold in ``scenario``."""
    condition = parse(question)
    solver = Solver(timeout_ms)
    situation = scenario.build(solver)
    facts = {fact.name: fact for fact in situation.facts}
    solver.add(_term(condition, scenario, facts))
    verdict = solver.check()
    listed = tuple((f.name, f.description) for f in situation.facts if f.name in condition.names())
    where = (scenario.rulebook, scenario.name, question)
    if verdict is Verdict.SAT:
        witness = situation.render(solver.least_model())  # the same whatever was asked before
        return Answer(*where, possible=True, witness=witness, facts=listed)
    if verdict is Verdict.UNSAT:
        return Answer(*where, possible=False, forbidding=solver.core(), facts=listed)
    return Answer(*where, possible=None, witness=solver.reason_unknown(), facts=listed)


def choose(found: Sequence[Scenario], rulebook: str, question: str, name: str | None) -> Scenario:
    """The scenario of ``rulebook`` a question is asked of: ``name`` if given, else the one
    whose facts cover every fact the question names (an error if none or several do)."""
    own = [s for s in found if s.rulebook == rulebook]
    if not own:
        raise QueryError(f"{rulebook} has no scenarios for questions yet")
    if name is not None:
        for scenario in own:
            if scenario.name == name:
                return scenario
        raise _unknown(f"{rulebook} scenario", name, [s.name for s in own])
    wanted = parse(question).names()
    fitting = [s for s in own if wanted <= {f.name for f in facts_of(s)}]
    if len(fitting) == 1:
        return fitting[0]
    names = ", ".join(s.name for s in (fitting or own))
    if not fitting:
        raise QueryError(
            f"no {rulebook} scenario has all of the facts {', '.join(sorted(wanted))}; "
            f"its scenarios are {names} ('regelverk ask --facts {rulebook}' lists their facts)"
        )
    raise QueryError(f"several {rulebook} scenarios fit; name one with --scenario: {names}")


def facts_of(scenario: Scenario) -> tuple[Fact, ...]:
    """The facts a scenario offers (built into a scratch solver)."""
    return scenario.build(Solver()).facts


def answer_to_data(answer: Answer) -> dict[str, object]:
    """An answer in its stable machine form."""
    return {
        "rulebook": answer.rulebook,
        "scenario": answer.scenario,
        "question": answer.question,
        "possible": answer.possible,
        "answer": {True: "yes", False: "no", None: "unknown"}[answer.possible],
        "witness": answer.witness,
        "forbidding": list(answer.forbidding),
        "facts": dict(answer.facts),
    }
