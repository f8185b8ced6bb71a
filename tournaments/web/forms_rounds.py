"""The pairing forms: two players to swap in a draft round or never to pair, a bye, and
the higher seeds' choice of sides for a playoff."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models.rounds import Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.rounds.edits import bye_candidates


class _EntryField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Entry) -> str:
        return obj.player.name


class TwoEntriesForm(forms.Form):
    """Swap two players in a draft round, or forbid a pair."""

    first = _EntryField(
        label=_("Player"),
        queryset=Entry.objects.none(),
        help_text=_("One of the two players, chosen by name."),
    )
    second = _EntryField(
        label=_("Other player"),
        queryset=Entry.objects.none(),
        help_text=_("The second player; it must be someone else."),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        entries = tournament.entries.select_related("player").order_by("player__name")
        # self.fields holds this form's copies of the declared fields, typed as plain Fields.
        cast(_EntryField, self.fields["first"]).queryset = entries
        cast(_EntryField, self.fields["second"]).queryset = entries

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class ByeForm(forms.Form):
    """The bye in a draft round: only players present and paired in it are offered."""

    entry = _EntryField(
        label=_("Player"),
        queryset=Entry.objects.none(),
        help_text=_("This player sits out the round; a bye scores as a won match."),
        error_messages={"invalid_choice": _("Choose a player present and paired in this round.")},
    )

    def __init__(self, *args, round_: Round, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(_EntryField, self.fields["entry"]).queryset = bye_candidates(round_)


class PlayoffSidesForm(forms.Form):
    """The higher seeds' choice of sides for the playoff matches about to be paired:
    checked = that higher seed takes the second side in battle 1 (default: the first).
    Each choice names the game's sides (``GameScale.wording["playoff_choice"]``)."""

    second_side_first = forms.TypedMultipleChoiceField(
        label=_("Playoff: the higher seed chooses sides"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Tick a match only if its higher seed chose to start on the other side."),
    )

    def __init__(self, *args, choices: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.TypedMultipleChoiceField, self.fields["second_side_first"]).choices = choices
