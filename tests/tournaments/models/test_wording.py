"""The pure rules' messages are translated at the edge (``tournaments.models.wording.say``):
the message and its text values (a field's label) in the active language, the other values
as they are."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.models.wording import say
from tournaments.rules import lifecycle
from tournaments.rules.result import MatchResult, MatchResultError


def test_a_refused_result_is_said_in_the_active_language_label_and_all():
    with pytest.raises(MatchResultError) as caught:
        MatchResult(33, 0, 0, 0, game="thud")
    assert str(caught.value) == "Battle 1 surviving dwarfs must be between 0 and 32, not 33."
    with translation.override("it"):
        assert say(caught.value) == (
            "Nani superstiti nella battaglia 1: serve un numero tra 0 e 32, non 33."
        )
    with translation.override("en"):
        assert say(caught.value) == str(caught.value)


def test_a_refused_transition_is_said_in_the_active_language():
    with pytest.raises(lifecycle.LifecycleError) as caught:
        lifecycle.publish(lifecycle.RoundFacts(number=2, status=lifecycle.PUBLISHED))
    with translation.override("it"):
        assert say(caught.value) == "Si può pubblicare solo un turno in bozza."
    with translation.override("en"):
        assert say(caught.value) == "Only a draft round can be published."
