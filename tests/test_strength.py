"""The strength knob of the state machines and walks (:mod:`strength`)."""

from __future__ import annotations

import pytest
from strength import FULL_FACTOR, _factor, machine_settings


def test_the_fast_slice_is_the_default_and_full_scales_it() -> None:
    assert _factor(None) == 1
    assert _factor("") == 1
    assert _factor("fast") == 1
    assert _factor("full") == FULL_FACTOR > 1


def test_an_unknown_strength_is_refused_naming_the_two_it_accepts() -> None:
    with pytest.raises(ValueError, match="REGELVERK_STRENGTH='ful': expected one of fast, full"):
        _factor("ful")


def test_machine_settings_keep_the_steps_and_drop_the_deadline() -> None:
    chosen = machine_settings(12, 100)
    assert chosen.stateful_step_count == 100
    assert chosen.deadline is None
    assert chosen.max_examples % 12 == 0
