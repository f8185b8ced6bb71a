"""The over-the-board survivors form: a match's result, entered on the referee's clock
page once both battles are over, in the numbers of the tournament's game.

Its fields, their labels (the players' names) and limits, and its check of the numbers
and of the submission key are the tournament's (``tournaments.for_games``:
``referee_result_fields``, ``referee_entry_errors``); the form only shows them and puts
each error beside its number.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from tournaments.for_games import Match, referee_entry_errors, referee_result_fields


def _number_field(label: str, limit: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=limit,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": limit}),
    )


class SurvivorsForm(forms.Form):
    """The result of the match's two battles and its submission key; bound to ``data``
    when given, else filled with the numbers stored last (the page is shown again after
    an entry, not emptied) and a fresh key."""

    #: The submission's idempotency key: optional, so a form from before keys still works.
    key = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)

    def __init__(self, match: Match, data: Mapping[str, Any] | None = None) -> None:
        fields, initial = referee_result_fields(match)
        super().__init__(data, initial=initial)
        self.match = match
        self.names = [field.name for field in fields]
        # The numbers first, in the result's order, then the key.
        own = dict(self.fields)
        self.fields = {
            field.name: _number_field(field.label, field.limit) for field in fields
        } | own

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        errors = referee_entry_errors(
            self.match, [cleaned.get(name) for name in self.names], key=cleaned.get("key") or ""
        )
        for field, message in errors:
            self.add_error(field, message)
        return cleaned

    def numbers(self) -> list[int]:
        """The four numbers of a valid form, in the result's order."""
        return [self.cleaned_data[name] for name in self.names]

    def survivor_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.names]
