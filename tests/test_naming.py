"""One naming convention for the enum members the hot paths bind as module constants.

Reading a member off its enum class (``Phase.PLAY``) costs a call of the class's attribute hook
in Python 3.11, so the engines bind the members they ask for on every step once, at module
level. Each such constant is named as the member itself (``PLAY = Phase.PLAY``); where two
members of one module would share a name, the enum's words come first
(``RESTART_FALLBACK_ANY_CARD = RestartFallback.ANY_CARD``). No other spelling is allowed, so a
reader who meets ``WILD_DRAW_FOUR`` knows it is ``UnoValue.WILD_DRAW_FOUR`` without looking.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

MODEL = Path(__file__).resolve().parents[1] / "model" / "regelverk"


def _words(enum: str) -> str:
    """``RestartFallback`` -> ``RESTART_FALLBACK``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", enum).upper()


def bound_members(source: str) -> list[tuple[int, str, str, str]]:
    """Each module-level ``NAME = Enum.MEMBER`` (tuples of them too): line, name, enum, member.
    An enum is a capitalised CamelCase name; a member is in capitals."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        pairs = (
            list(zip(target.elts, value.elts, strict=True))
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
            else [(target, value)]
        )
        for name, member in pairs:
            if (
                isinstance(name, ast.Name)
                and isinstance(member, ast.Attribute)
                and isinstance(member.value, ast.Name)
                and re.fullmatch(r"[A-Z][a-z]\w*", member.value.id)
                and member.attr.isupper()
            ):
                found.append((node.lineno, name.id, member.value.id, member.attr))
    return found


def misnamed(source: str) -> list[str]:
    """The bound members of ``source`` named neither ``MEMBER`` nor ``ENUM_WORDS_MEMBER``."""
    return [
        f"line {line}: {name} = {enum}.{member}"
        for line, name, enum, member in bound_members(source)
        if name not in (member, f"{_words(enum)}_{member}")
    ]


@pytest.mark.parametrize(
    "path", sorted(MODEL.rglob("*.py")), ids=lambda p: p.relative_to(MODEL).as_posix()
)
def test_bound_enum_members_are_named_as_the_member(path: Path) -> None:
    assert misnamed(path.read_text(encoding="utf-8")) == []


def test_the_engines_bind_members_and_a_stray_spelling_is_found() -> None:
    """The check reads something: the engines do bind members, and each spelling outside the
    convention (a private underscore, an abbreviation, a word of one's own) is reported."""
    assert sum(len(bound_members(p.read_text(encoding="utf-8"))) for p in MODEL.rglob("*.py")) > 100
    source = (
        "PLAY = Phase.PLAY\n"
        "RESTART_FALLBACK_ANY_CARD = RestartFallback.ANY_CARD\n"
        "_PLAY = Phase.PLAY\n"
        "WD4, LEFT = UnoValue.WILD_DRAW_FOUR, Direction.LEFT\n"
        "FALLBACK_ANY_CARD = RestartFallback.ANY_CARD\n"
    )
    assert misnamed(source) == [
        "line 3: _PLAY = Phase.PLAY",
        "line 4: WD4 = UnoValue.WILD_DRAW_FOUR",
        "line 5: FALLBACK_ANY_CARD = RestartFallback.ANY_CARD",
    ]
