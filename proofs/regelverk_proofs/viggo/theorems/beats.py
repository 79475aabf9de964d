"""The "beats" relation of Viggo under every option set that touches it: irreflexive,
asymmetric, transitive, and every accepted reply beating what it covers.

A combination is chosen abstractly (kind, rank position or run start, whether it holds the
3♣: all that ``combos.beats`` reads); combinations that lie in one trick are pairwise
disjoint, which is encoded by counting the cards of each rank they use (at most four, one 3♣).
The options that change the relation are nine: the club-three rule (and, under it, whether
plain threes still beat threes), the same-rank house rule, the grouped rank rows, wrapping
runs, three-trumps, the reach of three-on-three, the equal-rank reading, and (with both house
rules on) which of the two decides the 3♣ on a three: 256 option sets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from regelverk.viggo.options import (
    ClubThree,
    ClubThreeOthers,
    ClubThreeSameRank,
    EqualRankReply,
    ViggoOptions,
)
from regelverk_proofs.query import Fact, Scenario, Situation
from regelverk_proofs.theorem import Finding, Kind, Outcome, Theorem, Weakening
from regelverk_proofs.viggo.binding.rules import BEATS, LEGAL_PLAYS, TEXT_TABLES
from regelverk_proofs.viggo.encoding.rules import (
    KINDS,
    SEQUENCE,
    BeatsOptions,
    ComboTerm,
    abstract_combo,
    beats,
    beats_option_sets,
    cards_text,
    describe_options,
    realize,
    uses,
)
from regelverk_proofs.viggo.text import THREE_POS
from regelverk_proofs.z3api import (
    Bool,
    Int,
    Model,
    Solver,
    Verdict,
    all_of,
    implies,
    ite,
    sum_of,
    true,
)

__all__ = [
    "BEATS_SCENARIO",
    "BEATS_THEOREMS",
    "Chosen",
    "asymmetric_reading",
    "beats_option_sets",
    "irreflexive_reading",
    "realize",
]

RANK_NAMES = (
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
    "two",
    "three",
)


def irreflexive_reading(options: ViggoOptions) -> bool:
    """Where no combination beats itself: the same-rank house rule on, and the club-three rule
    off or outranked by it (VG-AMB-CLUB-THREE-SAME-RANK)."""
    return options.same_rank_once and (
        options.club_three_on_top is ClubThree.MAIN_RULE
        or options.club_three_same_rank is ClubThreeSameRank.SAME_RANK_FORBIDS
    )


def asymmetric_reading(options: ViggoOptions) -> bool:
    """Where no two combinations of one trick beat each other: the same-rank house rule on, or
    the club-three rule with only the 3♣ beating threes and strictly higher replies."""
    club_only = (
        options.club_three_on_top is ClubThree.CLUB_THREE_ON_TOP
        and options.club_three_others is ClubThreeOthers.ONLY_CLUB_BEATS_THREES
        and options.equal_rank_reply is EqualRankReply.STRICTLY_HIGHER
    )
    return options.same_rank_once or club_only


def irreflexive_term(o: BeatsOptions) -> Bool:
    """:func:`irreflexive_reading` as a term."""
    return o.once & (~o.club | o.once_first)


def asymmetric_term(o: BeatsOptions) -> Bool:
    """:func:`asymmetric_reading` as a term."""
    return o.once | (o.club & o.only_club & ~o.equal)


@dataclass(frozen=True, slots=True)
class Chosen:
    """An abstract combination: its unknowns, its terms, and the condition that it exists."""

    kind: Int
    at: Int
    club: Bool
    combo: ComboTerm
    exists: Bool

    @classmethod
    def make(cls, kind: Int, at: Int, club: Bool, options: BeatsOptions) -> Chosen:
        """The combination of these terms."""
        combo, exists = abstract_combo(kind, at, club, options)
        return cls(kind, at, club, combo, exists)

    @classmethod
    def fresh(cls, tag: str, options: BeatsOptions) -> Chosen:
        """Unknowns."""
        return cls.make(Int.var(f"{tag}kind"), Int.var(f"{tag}at"), Bool.var(f"{tag}club"), options)

    @classmethod
    def const(cls, combo: tuple[int, int, bool], options: BeatsOptions) -> Chosen:
        """A given combination."""
        kind, at, club = combo
        return cls.make(Int.const(kind), Int.const(at), Bool.const(club), options)

    def read(self, model: Model) -> tuple[int, int, bool]:
        """The model's combination: kind, position (run start), holds the 3♣."""
        return model.int(self.kind), model.int(self.at), model.bool(self.club)


def disjoint(chosen: Sequence[Chosen]) -> Bool:
    """The combinations can lie in one trick together: no rank used more than four times, the
    3♣ at most once, at most three threes besides it."""
    parts = []
    for rank in range(13):
        used = sum_of([uses(c.kind, c.at, rank) for c in chosen])
        parts.append(used <= 4)
    clubs = sum_of([c.club for c in chosen])
    parts.append(clubs <= 1)
    parts.append(sum_of([uses(c.kind, c.at, THREE_POS) for c in chosen]) - clubs <= 3)
    return all_of(parts)


def show(combos: Sequence[tuple[int, int, bool]]) -> list[str]:
    """Abstract combinations as cards at the table, with their kinds."""
    return [
        f"{cards_text(cards)} ({KINDS[c[0]]})"
        for c, cards in zip(combos, realize(combos), strict=True)
    ]


@dataclass(frozen=True, slots=True)
class Property:
    """A property of "beats" over ``arity`` combinations: ``violated`` says it fails for them,
    ``words`` tells a violation."""

    arity: int
    violated: Callable[[Sequence[Chosen], BeatsOptions, frozenset[str]], Bool]
    words: Callable[[list[str]], str]


def _exist(chosen: Sequence[Chosen]) -> Bool:
    return all_of([c.exists for c in chosen]) & disjoint(chosen)


def _self_beating(c: Sequence[Chosen], o: BeatsOptions, weaken: frozenset[str]) -> Bool:
    (x,) = c
    return x.exists & beats(x.combo, x.combo, o, weaken).allowed


def _mutual(c: Sequence[Chosen], o: BeatsOptions, weaken: frozenset[str]) -> Bool:
    x, y = c
    both = beats(x.combo, y.combo, o, weaken).allowed & beats(y.combo, x.combo, o, weaken).allowed
    return _exist(c) & both


def _chain(c: Sequence[Chosen], o: BeatsOptions, weaken: frozenset[str]) -> Bool:
    x, y, z = c
    xy = beats(x.combo, y.combo, o, weaken).allowed
    yz = beats(y.combo, z.combo, o, weaken).allowed
    return _exist(c) & xy & yz & ~beats(x.combo, z.combo, o, weaken).allowed


def _uncovered(c: Sequence[Chosen], o: BeatsOptions, weaken: frozenset[str]) -> Bool:
    new, old = c
    n, d = new.combo, old.combo
    tie = n.key.eq(d.key) & (
        (n.top_is_three & d.top_is_three) | o.equal | (o.club & n.has_club_three)
    )
    rule = n.kind.eq(d.kind) & ((n.key > d.key) | tie | (o.trumps & n.has_three & ~d.has_three))
    return _exist(c) & beats(n, d, o, weaken).allowed & ~rule


SELF = Property(1, _self_beating, lambda s: f"{s[0]} beats itself")
MUTUAL = Property(2, _mutual, lambda s: f"{s[0]} and {s[1]} each beat the other")
CHAIN = Property(
    3, _chain, lambda s: f"{s[0]} beats {s[1]}, which beats {s[2]}, yet {s[0]} does not beat {s[2]}"
)
UNCOVERED = Property(2, _uncovered, lambda s: f"{s[0]} is accepted on {s[1]} without beating it")

_Where = Callable[[BeatsOptions], Bool]


def _count(where: _Where) -> int:
    """How many of the 256 option sets ``where`` selects (decided by Z3 on constants)."""
    total = 0
    for options in beats_option_sets():
        solver = Solver()
        solver.add(where(BeatsOptions.of(options)))
        total += solver.check() is Verdict.SAT
    return total


def _find(
    prop: Property, o: BeatsOptions, extra: Bool, weaken: frozenset[str]
) -> tuple[Verdict, str, list[tuple[int, int, bool]]]:
    chosen = [Chosen.fresh(f"c{i}", o) for i in range(prop.arity)]
    solver = Solver()
    solver.add(o.tied() & extra)
    solver.add(prop.violated(chosen, o, weaken), clause="VG-PLAY-BEAT-SAME-TYPE-HIGHER")
    verdict = solver.check()
    if verdict is not Verdict.SAT:
        return verdict, "", []
    model = solver.model()
    combos = [c.read(model) for c in chosen]
    words = prop.words(show(combos))
    return verdict, f"under {describe_options(o.read(model))}: {words}", combos


def _forall(prop: Property, where: _Where, covered: str) -> Callable[[frozenset[str]], Finding]:
    """The property holds under every option set ``where`` selects: one check, the options as
    unknowns."""

    def check(weaken: frozenset[str]) -> Finding:
        o = BeatsOptions.fresh()
        verdict, detail, _ = _find(prop, o, where(o), weaken)
        sets = _SIZES[covered]
        if verdict is Verdict.SAT:
            return Finding(Outcome.COUNTEREXAMPLE, detail, sets)
        if verdict is Verdict.UNKNOWN:
            return Finding(Outcome.UNKNOWN, "no answer in time", sets)
        return Finding(Outcome.PROVED, f"{sets} option sets: {covered}", sets)

    return check


def _exists(prop: Property, where: _Where, sets: int) -> Callable[[frozenset[str]], Finding]:
    """Under every option set ``where`` selects some combinations violate the property: a pool
    of witnesses grows until Z3 finds no selected option set that all of them miss."""

    def check(weaken: frozenset[str]) -> Finding:
        pool: list[list[tuple[int, int, bool]]] = []
        shown: list[str] = []
        for _ in range(24):
            o = BeatsOptions.fresh("o")
            missed = all_of(
                ~prop.violated([Chosen.const(c, o) for c in w], o, weaken) for w in pool
            )
            solver = Solver()
            solver.add(o.tied() & where(o) & missed)
            verdict = solver.check()
            if verdict is Verdict.UNSAT:
                return Finding(
                    Outcome.WITNESSED,
                    f"each of the {sets} option sets has one of these: " + "; ".join(shown),
                    sets,
                )
            if verdict is Verdict.UNKNOWN:
                return Finding(Outcome.UNKNOWN, "no answer in time", len(pool))
            options = o.read(solver.model())
            found, detail, combos = _find(prop, BeatsOptions.of(options), true(), weaken)
            if found is not Verdict.SAT:
                return Finding(
                    Outcome.NO_WITNESS,
                    f"under {describe_options(options)} no instance exists",
                    len(pool) + 1,
                )
            pool.append(combos)
            shown.append(detail)
        return Finding(Outcome.UNKNOWN, "the witness pool did not close", len(pool))

    return check


def _not(where: _Where) -> _Where:
    return lambda o: ~where(o)


_SIZES = {
    "no combination beats itself": 96,
    "no two combinations beat each other": 176,
    "beats is transitive": 256,
    "every accepted reply beats what it covers": 256,
}


IRREFLEXIVE = Theorem(
    name="viggo.beats-irreflexive",
    states=(),
    rulebooks=("viggo",),
    title="No combination beats itself (same-rank rule on, club-three rule off or outranked)",
    statement=(
        "Under every option set with the same-rank house rule on and the club-three house "
        "rule either off or, under the same-rank-forbids reading of "
        "VG-AMB-CLUB-THREE-SAME-RANK, outranked by it (96 of the 256 option sets that touch "
        "'beats'), no combination beats itself. "
        "Under every other option set some combination does (see viggo.beats-not-irreflexive): "
        "a three answers a three, an equal rank may answer, or the 3♣ beats every combination "
        "holding a three, itself included. Only the relation is reflexive there: a card cannot "
        "be laid twice, so no trick ever shows it."
    ),
    clauses=(
        "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
        "VG-VAR-SAME-RANK-ONCE",
        "VG-RANK-THREE-BEATS-THREE",
    ),
    check=_forall(SELF, irreflexive_term, "no combination beats itself"),
    bindings=(BEATS, TEXT_TABLES),
    weakenings=(
        Weakening("VG-VAR-SAME-RANK-ONCE", "the same-rank house rule is left out"),
        Weakening("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "a reply need only rank as high"),
    ),
)

NOT_IRREFLEXIVE = Theorem(
    name="viggo.beats-not-irreflexive",
    states=("VG-RANK-THREE-BEATS-THREE", "VG-VAR-CLUB-THREE-HIGHEST-SINGLE"),
    rulebooks=("viggo",),
    title="Elsewhere some combination beats itself",
    statement=(
        "Under each of the 160 other option sets (the same-rank rule off, or on beside a "
        "club-three rule that decides the 3♣ on a three), some combination beats itself in "
        "the engine's relation (a single three under the preset, the 3♣ under the club-three "
        "rule)."
    ),
    clauses=(
        "VG-RANK-THREE-BEATS-THREE",
        "VG-VAR-CLUB-THREE-HIGHEST-SINGLE",
        "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
    ),
    check=_exists(SELF, _not(irreflexive_term), 160),
    bindings=(BEATS, TEXT_TABLES),
    weakenings=(
        Weakening(
            "VG-RANK-THREE-BEATS-THREE",
            "a three no longer answers a three (so under the preset nothing beats itself)",
        ),
    ),
    kind=Kind.EXISTS,
)

ASYMMETRIC = Theorem(
    name="viggo.beats-asymmetric",
    states=(),
    rulebooks=("viggo",),
    title="No two combinations of a trick beat each other (under the readings that say so)",
    statement=(
        "Under every option set with the same-rank house rule on (either reading of "
        "VG-AMB-CLUB-THREE-SAME-RANK), or with the club-three rule on, only the 3♣ beating "
        "threes and replies strictly higher (176 of the 256 option sets), no two combinations "
        "that can lie in one trick (no card shared) each beat the "
        "other. Under the other option sets two such combinations exist "
        "(viggo.beats-not-asymmetric): two single threes under the preset."
    ),
    clauses=(
        "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
        "VG-VAR-SAME-RANK-ONCE",
        "VG-VAR-CLUB-THREE-HIGHEST-SINGLE",
        "VG-VAR-CLUB-THREE-PAIRS-AND-SEQUENCES",
    ),
    check=_forall(MUTUAL, asymmetric_term, "no two combinations beat each other"),
    bindings=(BEATS, TEXT_TABLES),
    weakenings=(
        Weakening("VG-VAR-SAME-RANK-ONCE", "the same-rank house rule is left out"),
        Weakening("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "a reply need only rank as high"),
    ),
)

NOT_ASYMMETRIC = Theorem(
    name="viggo.beats-not-asymmetric",
    states=("VG-RANK-THREE-BEATS-THREE",),
    rulebooks=("viggo",),
    title="Elsewhere two combinations beat each other",
    statement=(
        "Under each of the 80 other option sets, two disjoint combinations each beat the "
        "other: two threes (three-on-three, or plain threes under the club-three rule), or "
        "two equal ranks under the equal-allowed reading."
    ),
    clauses=("VG-RANK-THREE-BEATS-THREE", "VG-PLAY-BEAT-SAME-TYPE-HIGHER"),
    check=_exists(MUTUAL, _not(asymmetric_term), 80),
    bindings=(BEATS, TEXT_TABLES),
    weakenings=(Weakening("VG-RANK-THREE-BEATS-THREE", "a three no longer answers a three"),),
    kind=Kind.EXISTS,
)

TRANSITIVE = Theorem(
    name="viggo.beats-transitive",
    states=(),
    rulebooks=("viggo",),
    title="Beating is transitive",
    statement=(
        "Under all 256 option sets that touch 'beats': whenever x beats y and y beats z, x, y "
        "and z lying in one trick (no card shared), x beats z. This holds also where threes "
        "answer threes, under the club-three rule and under three-trumps, where a combination "
        "holding a three beats any of its type without one."
    ),
    clauses=(
        "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
        "VG-PLAY-NO-TYPE-SWITCH",
        "VG-PLAY-THREE-COMBINATION-BEATS",
        "VG-RANK-ORDER",
        "VG-SEQ-NO-WRAP-COMPARE-TOP",
    ),
    check=_forall(CHAIN, lambda o: true(), "beats is transitive"),
    bindings=(BEATS, TEXT_TABLES),
    weakenings=(
        Weakening(
            "VG-PLAY-THREE-COMBINATION-BEATS",
            "under three-trumps a combination without a three may still beat one holding a "
            "three if it ranks higher",
        ),
    ),
)

COVERED = Theorem(
    name="viggo.replies-beat-what-they-cover",
    states=(
        "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
        "VG-PLAY-NO-TYPE-SWITCH",
        "VG-PLAY-PAIR-LEAD-PAIRS-ONLY",
        "VG-RANK-THREE-BEATS-THREE",
        "VG-PLAY-THREE-COMBINATION-BEATS",
    ),
    rulebooks=("viggo",),
    title="Every accepted reply beats the combination it covers",
    statement=(
        "Under all 256 option sets that touch 'beats': a reply the engine accepts is of the "
        "same type as the combination on top, and ranks higher (by its rank, or a run by its "
        "top card; by row under the grouped-rows reading), or ranks equal where a rule lets "
        "an equal answer (a three on a three, the equal-allowed reading, the 3♣ under the "
        "club-three rule), or under three-trumps holds a three the covered one lacks."
    ),
    clauses=(
        "VG-PLAY-BEAT-SAME-TYPE-HIGHER",
        "VG-PLAY-NO-TYPE-SWITCH",
        "VG-PLAY-PAIR-LEAD-PAIRS-ONLY",
        "VG-RANK-THREE-BEATS-THREE",
        "VG-PLAY-THREE-COMBINATION-BEATS",
    ),
    check=_forall(UNCOVERED, lambda o: true(), "every accepted reply beats what it covers"),
    bindings=(BEATS, LEGAL_PLAYS, TEXT_TABLES),
    weakenings=(
        Weakening("VG-PLAY-NO-TYPE-SWITCH", "a reply may be of another type"),
        Weakening("VG-PLAY-BEAT-SAME-TYPE-HIGHER", "a reply need only rank as high"),
    ),
)

BEATS_THEOREMS: tuple[Theorem, ...] = (
    IRREFLEXIVE,
    NOT_IRREFLEXIVE,
    ASYMMETRIC,
    NOT_ASYMMETRIC,
    TRANSITIVE,
    COVERED,
)


# ---------------------------------------------------------------------------------------------
# The beats scenario
# ---------------------------------------------------------------------------------------------

_SWITCHES = (
    ("club-three-rule", "club", "the club-three house rule is on"),
    ("only-club-beats-threes", "only_club", "under it only the 3♣ beats threes"),
    ("same-rank-once", "once", "the same-rank house rule is on"),
    ("grouped-rows", "grouped", "the rank table's rows rank equal"),
    ("runs-wrap", "wrap", "runs may wrap from the three to the four"),
    ("three-trumps", "trumps", "a combination holding a three beats one without"),
    ("singles-only", "singles_only", "only single threes answer threes"),
    ("equal-allowed", "equal", "an equal rank may answer"),
    (
        "same-rank-forbids",
        "once_first",
        "with both house rules on, the same-rank rule forbids the 3♣ on a three",
    ),
)


def _build_beats(solver: Solver) -> Situation:
    """A reply and the combination it covers (sharing no card), every option set at once."""
    o = BeatsOptions.fresh("option-")
    new, old = Chosen.fresh("new-", o), Chosen.fresh("old-", o)
    accepted = Bool.var("beats")
    solver.add(o.tied() & new.exists & old.exists & disjoint([new, old]))
    solver.add(implies(accepted, new.kind.eq(old.kind)), clause="VG-PLAY-NO-TYPE-SWITCH")
    verdict = beats(new.combo, old.combo, o).allowed
    solver.add(accepted.eq(verdict), clause="VG-PLAY-BEAT-SAME-TYPE-HIGHER")

    def render(m: Model) -> str:
        a, b = show([new.read(m), old.read(m)])
        words = "beats" if m.bool(accepted) else "does not beat"
        return f"{a} {words} {b} under {describe_options(o.read(m))}"

    facts = (
        Fact("beats", "the reply beats the combination it covers", accepted),
        Fact("new-kind", "the reply's type (single … sequence)", new.kind),
        Fact("old-kind", "the covered combination's type", old.kind),
        Fact("new-rank", "the reply's rank (a run's top card)", ite_top(new.kind, new.at)),
        Fact(
            "old-rank",
            "the covered combination's rank (a run's top card)",
            ite_top(old.kind, old.at),
        ),
        Fact(
            "rank-gap",
            "the reply's rank less the covered one's, in places of the rank order",
            ite_top(new.kind, new.at) - ite_top(old.kind, old.at),
        ),
        Fact("new-club-three", "the reply holds the 3♣", new.club),
        Fact("old-club-three", "the covered combination holds the 3♣", old.club),
        *(Fact(name, words, getattr(o, field)) for name, field, words in _SWITCHES),
    )
    return Situation(facts=facts, render=render)


def ite_top(kind: Int, at: Int) -> Int:
    """A combination's deciding rank position: its rank, or a run's top card."""
    return ite(kind.eq(SEQUENCE), (at + 4).mod(13), at)


_CONSTANTS = {
    "single": 0,
    "pair": 1,
    "triple": 2,
    "four-of-a-kind": 3,
    "sequence": 4,
    **{name: i for i, name in enumerate(RANK_NAMES)},
}

BEATS_SCENARIO = Scenario(
    name="beats",
    rulebook="viggo",
    description=(
        "A reply and the combination on top (sharing no card), under the switchable options "
        "equal-allowed, same-rank-once, club-three-rule, three-trumps and runs-wrap. Kinds: "
        "single, pair, triple, four-of-a-kind, sequence; ranks four … three."
    ),
    build=_build_beats,
    constants=_CONSTANTS,
)
