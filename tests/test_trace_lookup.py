"""The quick look-ups behind ``regelverk clause`` and ``ask`` give what the whole trace and the
whole spec give: code links read from the source equal the marks the imported modules carry,
one clause's trace equals its entry in the whole trace, and one rulebook's registry holds the
same entries as the whole spec's."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import regelverk
from regelverk.books import RULEBOOKS
from regelverk.marks import CLAUSES_ATTRIBUTE
from regelverk.registry import (
    default_registry,
    load,
    registry_for,
    rulebook_of,
    rulebook_registry,
)
from regelverk.trace import links_from_code, trace, trace_of


def _members(module: object) -> Iterator[tuple[str, object]]:
    for name, member in vars(module).items():
        if getattr(member, "__module__", None) != getattr(module, "__name__", None):
            continue
        if inspect.isfunction(member) or inspect.isclass(member):
            yield name, member
        if inspect.isclass(member):
            for attr, inner in vars(member).items():
                func = inner.__func__ if isinstance(inner, staticmethod | classmethod) else inner
                if inspect.isfunction(func):
                    yield f"{name}.{attr}", func


def _imported_marks() -> set[tuple[str, str, str, int]]:
    """The oracle: import every module and read the marks :func:`implements` set."""
    found: set[tuple[str, str, str, int]] = set()
    for info in pkgutil.walk_packages(regelverk.__path__, prefix="regelverk."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, member in _members(module):
            for ident in getattr(member, CLAUSES_ATTRIBUTE, ()):
                source = Path(inspect.getsourcefile(member) or "")  # type: ignore[arg-type]
                line = inspect.getsourcelines(member)[1]  # type: ignore[arg-type]
                found.add((ident, f"{info.name}.{name}", source.name, line))
    return found


def test_code_links_read_from_the_source_are_the_marks_the_modules_carry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("REGELVERK_CACHE", "off")
    read = {(k.clause, k.target, Path(k.path).name, k.line) for k in links_from_code()}
    assert len(read) > 400
    assert read == _imported_marks()


def test_one_clause_trace_is_its_entry_in_the_whole_trace() -> None:
    registry = default_registry()
    whole = trace(registry)
    statuses = {item.status for item in whole}
    sample = [item for n, item in enumerate(whole) if n % 6 == 0]
    sample += [next(i for i in whole if i.status is status) for status in statuses]
    for item in sample:
        assert trace_of(registry, item.clause.id) == item, item.clause.id


def test_the_trace_from_the_cache_is_the_trace_read_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = default_registry()
    monkeypatch.setenv("REGELVERK_CACHE", "off")
    fresh = trace(registry)
    monkeypatch.setenv("REGELVERK_CACHE", str(tmp_path))
    assert trace(registry) == fresh
    assert len(list(tmp_path.glob("trace-*.json"))) > 100, "each source file's reading is kept"
    assert trace(registry) == fresh
    (tmp_path / "ignored.tmp").write_text("", encoding="utf-8")
    for cached in tmp_path.glob("trace-*.json"):
        cached.write_text("[[1, 2", encoding="utf-8")
    assert trace(registry) == fresh, "broken cache files are passed over"


def test_a_mention_filter_keeps_only_links_of_files_naming_the_id() -> None:
    links = links_from_code(mentioning="UNO-WIN-GAME-500")
    assert any(link.clause == "UNO-WIN-GAME-500" for link in links)
    assert {Path(link.path).parent.name for link in links} == {"uno"}, links


@pytest.mark.parametrize("book", RULEBOOKS)
def test_one_rulebook_registry_holds_the_whole_spec_entries_of_that_rulebook(book: str) -> None:
    alone = load(rulebooks=(book,))
    assert alone.rulebook(book) == default_registry().rulebook(book)
    assert rulebook_registry(book).rulebook(book) == default_registry().rulebook(book)


def test_an_id_is_looked_up_in_its_own_rulebook() -> None:
    assert rulebook_of("V8-EIGHT-ON-ANY-CARD") == "vvv8"
    assert rulebook_of("vg-amb-game-winner") == "viggo"
    assert rulebook_of("NOPE-1") is None
    assert registry_for("VA-AMB-EXAMPLE-ACE-OFF-SUIT").rulebooks[0].id == "vandatta"
    with pytest.raises(regelverk.errors.UnknownClauseError, match="V8-EIGHT-ON-ANY-CARD"):
        registry_for("V8-EIGHT-ON-ANY-CARDS").clause("V8-EIGHT-ON-ANY-CARDS")


def test_a_parsed_spec_file_from_the_cache_is_the_file_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from regelverk.paths import spec_dir
    from regelverk.registry import _parsed_toml

    monkeypatch.setenv("REGELVERK_CACHE", str(tmp_path / "cache"))
    source = spec_dir() / "viggo.toml"
    fresh = _parsed_toml(source)
    (written,) = (tmp_path / "cache").iterdir()
    assert _parsed_toml(source) == fresh
    written.write_text("{not json", encoding="utf-8")
    assert _parsed_toml(source) == fresh, "a broken cache file is passed over"
    assert load(rulebooks=("viggo",)).rulebook("viggo") == default_registry().rulebook("viggo")


def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from regelverk.paths import spec_dir
    from regelverk.registry import _parsed_toml

    monkeypatch.setenv("REGELVERK_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    _parsed_toml(spec_dir() / "uno.toml")
    assert not list(tmp_path.iterdir())


def test_a_changed_spec_file_is_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from regelverk.registry import _parsed_toml

    monkeypatch.setenv("REGELVERK_CACHE", str(tmp_path / "cache"))
    spec = tmp_path / "x.toml"
    spec.write_text('a = "one"\n', encoding="utf-8")
    assert _parsed_toml(spec) == {"a": "one"}
    spec.write_text('a = "two"\n', encoding="utf-8")
    assert _parsed_toml(spec) == {"a": "two"}
