"""What the engines work out once per frozen object (an options object, a table of players)
and look up on every action afterwards.

A frozen options object has some thirty fields: hashing it on every move would cost more than
the lookup saves, so :func:`by_identity` keys on the object's identity instead. Each entry
keeps its key object alive, so no other object can take the same ``id`` while the entry
stands; the store is emptied when it reaches its limit, so that a long run meeting many option
sets cannot make it grow without end. The entry last asked for is tried first, by identity
alone, without ``id`` or the store: a game in play asks again and again for the same options
object (or the same tuple of players).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["by_identity"]

K = TypeVar("K")
V = TypeVar("V")


def by_identity(make: Callable[[K], V], *, limit: int) -> Callable[[K], V]:
    """A function ``get(key)`` returning ``make(key)``, made once per key object (while at most
    ``limit`` are kept).

    >>> made = []
    >>> get = by_identity(lambda key: made.append(key) or len(made), limit=2)
    >>> first, second = ["a"], ["a"]
    >>> get(first), get(first), get(second), get(first), made == [first, second]
    (1, 1, 2, 1, True)
    >>> third = ["a"]
    >>> get(third), get(first), len(made)  # the third key empties the store
    (3, 4, 4)
    """
    store: dict[int, tuple[K, V]] = {}
    last: tuple[K, V] | None = None

    def get(key: K) -> V:
        nonlocal last
        entry = last
        if entry is not None and entry[0] is key:
            return entry[1]
        entry = store.get(id(key))
        if entry is None or entry[0] is not key:
            if len(store) >= limit:
                store.clear()
            entry = store[id(key)] = (key, make(key))
        last = entry
        return entry[1]

    return get
