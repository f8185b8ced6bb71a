"""The forms of /play/: a challenge or seek, playing the computer, the notifications.

A side is asked for by the game's own names (``Game.sides``), not by who moves first:
the first side moves first, so choosing it is choosing to move first
(``Challenge.first``, ``computer.YOU_FIRST``). One form offers every game, so each
side's label names it in each game ("<side> (<game>) · <side> (<other game>)"); with
JavaScript (static/js/play_start.js) only the chosen game's name shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django import forms
from django.contrib.auth import get_user_model
from django.urls import reverse_lazy
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import UserProfile
from games.engines import registry
from games.models.battle import CASUAL_MOVE_LIMITS, DEFAULT_MOVE_LIMIT, MAX_CORRESPONDENCE_DAYS
from games.rules.interface import Game

from . import challenges, computer
from .models import Challenge

#: Between one game's name of a side and the next game's (hidden by the script).
_SIDE_SEPARATOR = mark_safe('<span class="side-separator" data-side-extra> · </span>')


def side_label(games: Sequence[Game], index: int) -> SafeString:
    """The label of the side ``index`` (0: the first, which moves first) in every game of
    ``games``, each in a span the script shows alone when its game is chosen."""
    return format_html_join(
        _SIDE_SEPARATOR,
        '<span data-side-for="{}">{}<span data-side-extra> ({})</span></span>',
        (
            (game.key, _(game.sides[index].name), _(game.name))  # noqa: INT001
            for game in games
        ),
    )


def move_limit_choices() -> list[tuple[int, str]]:
    return [
        (n, ngettext("%(n)d move each", "%(n)d moves each", n) % {"n": n})
        for n in CASUAL_MOVE_LIMITS
    ]


def _radios(form: forms.BaseForm, *names: str) -> None:
    for name in names:
        field = form.fields[name]
        assert isinstance(field, forms.ChoiceField)  # model fields with choices
        # django-stubs types the choices getter as the setter's input (a list here).
        field.widget = forms.RadioSelect(choices=field.choices)  # type: ignore[arg-type]


class ChallengeForm(forms.ModelForm):
    """A challenge to a named user, or a public seek when the username is left empty."""

    username = forms.CharField(
        label=_("Opponent's username"),
        required=False,
        max_length=150,
        help_text=_("Leave empty to open a seek any player may accept."),
        # The script offers the names of players (play:users) in a list of suggestions;
        # without it this is a plain text field.
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "data-suggest-url": reverse_lazy("play:users")}
        ),
    )
    days = forms.IntegerField(
        label=_("Days per move"),
        min_value=1,
        max_value=MAX_CORRESPONDENCE_DAYS,
        initial=3,
        help_text=_("Correspondence only."),
    )

    class Meta:
        model = Challenge
        fields = ["game", "timing", "move_limit", "days", "first", "rated_match"]
        labels = {"first": _("Your side"), "move_limit": _("Move limit")}
        help_texts = {
            "move_limit": _(
                "Quickfire only: the battle ends after this many moves by each side and "
                "is scored as it stands."
            ),
        }

    field_order = ["username", "game", "first", "timing", "move_limit", "days", "rated_match"]

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        games = registry.all_games()
        first = self.fields["first"]
        assert isinstance(first, forms.ChoiceField)
        first.choices = [
            (Challenge.First.CHALLENGER, side_label(games, 0)),
            (Challenge.First.OPPONENT, side_label(games, 1)),
            (Challenge.First.RANDOM, _("Random")),
        ]
        first.help_text = _("The first side named moves first; in a rated match, sides swap.")
        limit = self.fields["move_limit"]
        assert isinstance(limit, forms.ChoiceField)
        limit.choices = move_limit_choices()
        limit.required = False  # a page from before the choice: the default
        _radios(self, "game", "timing", "move_limit", "first")
        first.widget.attrs["data-sides"] = ""

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        if not name:
            return None
        try:
            opponent = get_user_model().objects.get(username__iexact=name, is_active=True)
        except get_user_model().DoesNotExist:
            raise forms.ValidationError(_("There is no user with that name.")) from None
        if opponent.pk == self.user.pk:
            raise forms.ValidationError(_("You cannot challenge yourself."))
        return opponent

    def clean_move_limit(self) -> int:
        return self.cleaned_data["move_limit"] or DEFAULT_MOVE_LIMIT

    def create(self, *, by, now: datetime) -> Challenge:
        """The challenge (or seek) these valid choices make, through the one domain call;
        ``challenges.ChallengeError`` for what the offers' state refuses."""
        data = self.cleaned_data
        return challenges.create_challenge(
            by=by,
            opponent=data["username"],
            game=data["game"],
            timing=data["timing"],
            days=data["days"],
            first=data["first"],
            move_limit=data["move_limit"],
            rated_match=data["rated_match"],
            now=now,
        )


class NotificationsForm(forms.ModelForm):
    class Meta:
        model = UserProfile
        fields = ["email_notifications"]


class ComputerForm(forms.Form):
    """A battle against the computer: game, level, side, time control, move limit."""

    game = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    level = forms.TypedChoiceField(
        label=_("Level"),
        coerce=int,
        choices=[(n, str(n)) for n in (1, 2, 3, 4, 5)],
        initial=1,
        help_text=_("1 is a beginner who blunders; 5 plays as well as it can."),
        widget=forms.RadioSelect,
    )
    side = forms.ChoiceField(
        label=_("Your side"),
        help_text=_("The first side named moves first."),
        initial=computer.RANDOM,
        widget=forms.RadioSelect(attrs={"data-sides": ""}),
    )
    time_control = forms.ChoiceField(
        label=_("Time control"),
        choices=[
            (computer.QUICKFIRE, _("Quickfire: 15 s to think, then 5 s to move")),
            (computer.UNTIMED, _("Quickfire without a clock")),
            (computer.CLASSIC, _("Classic: no clock and no move limit")),
        ],
        initial=computer.QUICKFIRE,
        widget=forms.RadioSelect,
    )
    move_limit = forms.TypedChoiceField(
        label=_("Move limit"),
        coerce=int,
        initial=DEFAULT_MOVE_LIMIT,
        required=False,  # a page from before the choice: the default
        help_text=_(
            "Quickfire only: the battle ends after this many moves by each side and is "
            "scored as it stands."
        ),
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, **kwargs) -> None:
        # Beside the challenge form on one page: ids of its own, or the labels of one
        # form's game buttons would check the other's.
        kwargs.setdefault("auto_id", "computer_%s")
        super().__init__(*args, **kwargs)
        offered = computer.games_offered()
        field = self.fields["game"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(game.key, _(game.name)) for game in offered]  # noqa: INT001
        if offered:
            field.initial = offered[0].key
        side = self.fields["side"]
        assert isinstance(side, forms.ChoiceField)
        side.choices = [
            (computer.YOU_FIRST, side_label(offered, 0)),
            (computer.COMPUTER_FIRST, side_label(offered, 1)),
            (computer.RANDOM, _("Toss a coin")),
        ]
        limit = self.fields["move_limit"]
        assert isinstance(limit, forms.ChoiceField)
        limit.choices = move_limit_choices()

    def clean_move_limit(self) -> int:
        return self.cleaned_data["move_limit"] or DEFAULT_MOVE_LIMIT
