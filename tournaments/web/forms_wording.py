"""The organiser's forms in plain words: every tournament field's label and one-sentence
help, and the choices of the variant, the capture policy and the move unit said so that an
organiser who never read the rules of the clock can choose.

Labels and help live in the forms, not on the model, so that changing the words needs no
migration. The variant's labels are built from the tournament's own clock and move unit
(``variant_choices``): a settings page of a tournament with a 20-second turn says 20 s.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

V = Tournament.Variant

LABELS: dict[str, StrOrPromise] = {
    "name": _("Tournament name"),
    "slug": _("Web address"),
    "format": _("How players are paired"),
    "rounds": _("Number of rounds"),
    "top_cut": _("Knockout after the Swiss rounds"),
    "knockout_draw_rule": _("When a knockout match is drawn"),
    "game": _("Game"),
    "variant": _("Length of a battle and clock"),
    "capture_policy": _("How pieces are captured (Thud only)"),
    "record_otb_moves": _("Referees type in the moves of battles played over the board"),
    "check_in_required": _("Players must check in to be paired"),
    "allow_bots": _("Bot accounts may be entered"),
    "venue": _("Venue"),
    "time_zone": _("Time zone"),
    "start_date": _("First day"),
    "end_date": _("Last day"),
    "points_win": _("Match points for a win"),
    "points_draw": _("Match points for a draw"),
    "points_loss": _("Match points for a loss"),
    "commit_rule": _("Touch rule"),
    "move_unit": _("What counts as a move"),
    "pairing_seed": _("Pairing seed"),
    "join_window_s": _("Time to join an online battle (seconds)"),
}

HELP: dict[str, StrOrPromise] = {
    "join_window_s": _(
        "A timed online battle's clock starts only when both players are on its page. If "
        "one has not come this long after the other, the one waiting can ask a referee to "
        "decide, e.g. 60."
    ),
    "name": _("The name players see on every page, e.g. Dragon Con Thud Open 2026."),
    "slug": _(
        "The last part of the tournament's page address: letters, digits and hyphens, "
        "e.g. dragon-con-2026. Leave it empty to make it from the name."
    ),
    "format": _(
        "Swiss: players on similar scores meet each round; round robin: everyone plays "
        "everyone once; single elimination: a knockout where the loser of a match is out."
    ),
    "rounds": _("How many rounds are played, e.g. 5; a round robin of 6 players needs 5 rounds."),
    "top_cut": _(
        "After the last Swiss round, the best players play a knockout bracket, e.g. top 4: "
        "two semi-finals and a final."
    ),
    "knockout_draw_rule": _(
        "A playoff is another two battles between the same players, repeated until one of "
        "them wins."
    ),
    "game": _("The board game every match of the tournament is played in."),
    "variant": _(
        "Whether a battle stops after a number of moves, and whether each turn is timed; "
        "each choice is explained below."
    ),
    "capture_policy": _(
        "Which pieces a move takes when it ends next to them; each choice is drawn below. "
        "Other games ignore it."
    ),
    "record_otb_moves": _(
        "After a battle on a real board, a referee may type in its moves; they are checked "
        "against the rules and kept in the game record."
    ),
    "check_in_required": _(
        "Only players checked in (by themselves before round 1, or at the desk) are paired; "
        "the others are absent, not withdrawn, and join the next round once checked in."
    ),
    "allow_bots": _(
        "The organiser may enter bot accounts (programs playing through the API) by their "
        "username, on the players' list; their matches never count for anyone's rating."
    ),
    "venue": _("Where it is played, e.g. Ankh-Morpork Library, room 2. Optional."),
    "time_zone": _(
        "The venue's time zone, e.g. Europe/Oslo: every time on the tournament's pages is "
        "shown in it."
    ),
    "start_date": _("Optional; shown on the tournament's page."),
    "end_date": _("Optional; the same as the first day for a one-day event."),
    "points_win": _("Added to a player's score for each match won, e.g. 2."),
    "points_draw": _("Added for each drawn match, e.g. 1; at most the points for a win."),
    "points_loss": _("Added for each match lost, usually 0; at most the points for a draw."),
    "commit_rule": _(
        "With the touch rule, touching a piece ends the time to think: the player then has "
        "only the time to move, with that piece."
    ),
    "move_unit": _(
        "Each side: a limit of 24 moves gives each player 24 turns (48 in all); in total: 24 "
        "turns in all, 12 each."
    ),
    "pairing_seed": _(
        "A number that makes the random choices of pairing repeatable: the same players, "
        "results and seed always give the same pairings. Any number will do."
    ),
}

CLOCK_LABELS: dict[str, StrOrPromise] = {
    "think_s": _("Time to think (seconds)"),
    "move_s": _("Time to move (seconds)"),
    "grace_ms": _("Allowance for network delay (milliseconds)"),
    "max_consecutive_forfeits": _("Missed turns in a row before a referee is called"),
}

CLOCK_HELP: dict[str, StrOrPromise] = {
    "think_s": _("Each turn starts with this much time to think, e.g. 15; unused time is lost."),
    "move_s": _(
        "When the time to think ends, or a piece is touched, the move must be made within "
        "this, e.g. 5."
    ),
    "grace_ms": _(
        "Extra time for a move still on its way over the network before the turn counts as "
        "missed, e.g. 300."
    ),
    "max_consecutive_forfeits": _(
        "After this many turns in a row missed by one player, the battle waits for a "
        "referee, e.g. 3."
    ),
}

MOVE_UNIT_LABELS: dict[str, StrOrPromise] = {
    Tournament.MoveUnit.SIDE: _("Each side's turns (24 moves = 24 turns each)"),
    Tournament.MoveUnit.PLY: _("All turns together (24 moves = 12 turns each)"),
}


def _seconds(ms: int) -> str:
    """``15000`` → ``"15"``, ``2500`` → ``"2.5"`` (``"2,5"`` in Italian): the clock is
    stored in milliseconds."""
    return number_format(Decimal(ms) / 1000)


def variant_choices(
    *, move_unit: str = Tournament.MoveUnit.SIDE, think_ms: int = 15_000, move_ms: int = 5_000
) -> list[tuple[str, str]]:
    """The variants, each saying its move limit and clock in this tournament's units."""
    each = move_unit == Tournament.MoveUnit.SIDE
    clock = {"think": _seconds(think_ms), "move": _seconds(move_ms)}

    def untimed(n: int) -> str:
        if each:
            return _("Quickfire: %(n)d moves each, no clock") % {"n": n}
        return _("Quickfire: %(n)d moves in all, no clock") % {"n": n}

    def timed(n: int) -> str:
        if each:
            text = _(
                "Quickfire with clock: %(n)d moves each, %(think)s s to think + %(move)s s to move"
            )
        else:
            text = _(
                "Quickfire with clock: %(n)d moves in all, %(think)s s to think + %(move)s s "
                "to move"
            )
        return text % ({"n": n} | clock)

    return [
        (V.CLASSIC, str(_("Classic: no move limit, no clock"))),
        (V.QUICKFIRE_24, untimed(24)),
        (V.QUICKFIRE_30, untimed(30)),
        (V.TIMED_24, timed(24)),
        (V.TIMED_30, timed(30)),
    ]
