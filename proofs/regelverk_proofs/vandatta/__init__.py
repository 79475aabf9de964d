"""The proofs about the Vändåtta engine (vvv8 and vandatta), in the skeleton every family shares.

* :mod:`.text`: the small tables the encodings read, derived from ``spec/``, never from the
  engine;
* :mod:`.encoding`: the rules as Z3 terms, at the granularity the theorems need;
* :mod:`.binding`: what ties each encoding to the engine, over a stated, counted universe;
* :mod:`.theorems`: the theorems and the scenarios for ``regelverk ask --can``; the modules
  the rulebook descriptors name in ``proofs`` hold ``THEOREMS`` and ``SCENARIOS``.

Each role imports only the roles listed before it (the contract ``proofs-skeleton`` in
``pyproject.toml``), and the families never import each other.
"""
