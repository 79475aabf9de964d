"""The Vändåtta theorems and scenarios: the modules the rulebook descriptors name in ``proofs``
hold ``THEOREMS`` and ``SCENARIOS``; the others hold parts of them."""
