"""The pure rules as the site shows them: translated at the edge.

Terminology and invariants:
- ``tournaments.rules`` is pure: its messages are English catalogue keys with their values
  (``tournaments.rules.messages``), its scales hold English text. Everything that
  translates them is here, on the Django side: a refused rule's message (``say``), a
  scale's labels and wording (``label_of``, ``form_label_of``, ``words``) and the model
  choices of the games and their options (``game_choices``, ``capture_policy_choices``).
- In ``models`` as the lowest Django room: the models' choices need it, and every adapter
  above (rounds, results, the forms, the archive) translates through it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.rules.messages import RuleError
from tournaments.rules.scales import FIELDS, GameScale, registered


def say(error: RuleError) -> str:
    """A refused rule's message in the active language, filled in (its text values
    translated too)."""
    message = _(error.message)
    if not error.values:
        return message
    values = {
        name: _(value) if name in error.texts and isinstance(value, str) else value
        for name, value in error.values.items()
    }
    return message % values


def game_choices() -> list[tuple[str, str]]:
    """``(key, translated name)`` of every game a tournament may play (model choices)."""
    return [(key, _(scale.name)) for key, scale in registered().items()]


def option_choices(option: str) -> list[tuple[str, str]]:
    """``(value, translated label)`` of a rule option's choices (model choices), from the
    games that have the option (Thud's capture policy)."""
    return [
        (value, _(label))
        for scale in registered().values()
        for value, label in scale.options.get(option, ())
    ]


def capture_policy_choices() -> list[tuple[str, str]]:
    return option_choices("capture_policy")


def label_of(scale: GameScale, field: str) -> str:
    """``field``'s name in error messages, translated."""
    return str(_(scale.labels[FIELDS.index(field)]))


def form_label_of(scale: GameScale, field: str) -> str:
    """``field``'s label on the entry form, translated."""
    return str(_(scale.form_labels[FIELDS.index(field)]))


def words(scale: GameScale) -> dict[str, str]:
    """``wording`` in the active language (templates: ``tournament.words.pairing_note``)."""
    return {key: str(_(text)) for key, text in scale.wording.items()}
