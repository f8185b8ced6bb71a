"""What a tournament's settings may still change to, as pure functions of ``TournamentFacts``.

Terminology and invariants:
- Play has *started* once any round is published: players have seen pairings and may
  have played battles under the tournament's rules. From then on the rules of play
  (variant, capture policy, clock) and the pairing format are *locked*: changing them
  would give players in one tournament different games, or re-pair it half-way.
- The *points scheme* and the *tiebreak order* may always change: standings are
  computed from results on every read (``tournaments.standings.table``), so they are
  simply recomputed. Name, venue and dates are labels and always change.
- The *game* is locked as soon as any round is paired (drafts included): a pairing
  creates battles of that game and results on its scale. So is *rated*: the players
  were paired knowing whether the tournament counts for their site ratings. A copy (an
  import of a tournament the site already holds) is never rated.
- The number of rounds never goes below the last round already paired (drafts
  included): that round exists and cannot be un-paired by a setting.
- A draft round was paired under the current format, so the format is locked while
  a draft exists too (discarding the draft unlocks it).
- A Swiss *top cut* (0, 2, 4 or 8 players: a power of two, at most the number of
  players) and the rule for a drawn knockout match are locked once the knockout has
  started (a knockout round exists, drafts included); so is the number of Swiss rounds.
- *Bots allowed* (``allow_bots``) cannot be turned off while a bot account plays in the
  tournament (an entry of a bot, not withdrawn; ``check_allow_bots``): the organiser
  withdraws it first. A
  withdrawn bot's entry stays, with its results, and is not reinstated while bots are not
  allowed (``rounds.edits.toggle_withdrawal``). So with the setting off no bot is paired.

``locked_fields`` names model fields (``think_ms``, not the form's seconds); the form
maps them to its own fields. The view loads the facts with the tournament row locked,
so a round published at the same moment cannot slip past the guard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.pairing import formats
from tournaments.pairing.elimination import TOP_CUTS
from tournaments.standings.tiebreaks import KEYS

# The quickfire clock as stored on the tournament (DESIGN.md §5).
CLOCK_FIELDS = (
    "think_ms",
    "move_ms",
    "grace_ms",
    "commit_rule",
    "move_unit",
    "max_consecutive_forfeits",
)


class SettingsError(ValueError):
    """A setting refused; the message is shown to the organiser."""


@dataclass(frozen=True)
class TournamentFacts:
    """What the settings guards need to know about one tournament."""

    format: str
    rounds: int  # the configured number of rounds
    players: int = 0  # entries, withdrawn included (the round-robin circle keeps them)
    last_round: int = 0  # highest round number paired, drafts included
    published: int = 0  # rounds published or finished
    draft_round: int | None = None  # the number of the draft round, if one exists
    knockout_started: bool = False  # a knockout or playoff round exists
    copy: bool = False  # an import of a tournament the site already holds (archive.copies)
    allow_bots: bool = False
    bots_playing: tuple[str, ...] = ()  # names of the bot accounts entered, not withdrawn

    @property
    def play_started(self) -> bool:
        return self.published > 0


def locked_fields(facts: TournamentFacts) -> dict[str, str]:
    """Fields that can no longer change, each with the reason shown to the organiser.

    >>> locked_fields(TournamentFacts(format="swiss", rounds=5))
    {}
    >>> started = TournamentFacts(format="swiss", rounds=5, last_round=1, published=1)
    >>> "variant" in locked_fields(started), "tiebreaks" in locked_fields(started)
    (True, False)
    """
    locked: dict[str, str] = {}
    if facts.play_started:
        locked["format"] = _(
            "Rounds have been published, and changing the format half-way would re-pair a "
            "tournament in progress."
        )
        locked["variant"] = _(
            "Rounds have been published, battles are played under this variant, and one "
            "tournament keeps one set of rules."
        )
        locked["capture_policy"] = _(
            "Rounds have been published, battles are played under this capture policy, and "
            "one tournament keeps one set of rules."
        )
        clock = _(
            "Rounds have been published, clocks run with these settings, and every player "
            "of one tournament is timed alike."
        )
        for field in CLOCK_FIELDS:
            locked[field] = clock
    if facts.last_round > 0:
        locked["game"] = _(
            "Round %(n)d is already paired for this game; a tournament plays one game from "
            "its first pairing on."
        ) % {"n": facts.last_round}
        locked["rated"] = _(
            "Round %(n)d is already paired; the players were paired knowing whether the "
            "tournament counts for their ratings."
        ) % {"n": facts.last_round}
    if facts.copy:
        locked["rated"] = _(
            "This tournament is a copy of one already on this site: a copy is never rated."
        )
    if not facts.play_started and facts.draft_round is not None:
        locked["format"] = _(
            "Round %(n)d is paired as a draft under this format; discard it first to change "
            "the format."
        ) % {"n": facts.draft_round}
    if facts.knockout_started:
        reason = _("The knockout has started; its bracket was drawn under these settings.")
        for name in ("top_cut", "knockout_draw_rule", "rounds"):
            locked[name] = reason
    return locked


def check_top_cut(facts: TournamentFacts, fmt: str, top_cut: int) -> None:
    """Raise ``SettingsError`` for a top cut that is not 0, 2, 4 or 8, exceeds the number
    of players, or is set for a format other than Swiss.

    >>> check_top_cut(TournamentFacts(format="swiss", rounds=5, players=8), "swiss", 8)
    >>> check_top_cut(TournamentFacts(format="swiss", rounds=5, players=6), "swiss", 8)
    Traceback (most recent call last):
    ...
    tournaments.organising.settings_changes.SettingsError: A top 8 needs at least 8 players; the tournament has 6.
    """
    if top_cut == 0:
        return
    if top_cut not in TOP_CUTS or top_cut & (top_cut - 1):
        raise SettingsError(_("The top cut must be 2, 4 or 8 players."))
    if fmt != formats.SWISS:
        raise SettingsError(_("Only a Swiss tournament can end with a top cut."))
    if top_cut > facts.players:
        raise SettingsError(
            _("A top %(cut)d needs at least %(cut)d players; the tournament has %(n)d.")
            % {"cut": top_cut, "n": facts.players}
        )


def check_allow_bots(facts: TournamentFacts, allow_bots: bool) -> None:
    """Raise ``SettingsError`` when ``allow_bots`` would turn bots off while one plays.

    Not a locked field: a checkbox left unticked is not posted, so a locked one could not
    be told from one the browser left out (disabled); the organiser unticks it and is
    told whom to withdraw.

    >>> playing = TournamentFacts(format="swiss", rounds=5, allow_bots=True, bots_playing=("b",))
    >>> check_allow_bots(playing, True)
    >>> check_allow_bots(playing, False)
    Traceback (most recent call last):
    ...
    tournaments.organising.settings_changes.SettingsError: Bot accounts play in this tournament (b): withdraw them first, then bot accounts can be disallowed.
    """
    if facts.allow_bots and not allow_bots and facts.bots_playing:
        raise SettingsError(
            _(
                "Bot accounts play in this tournament (%(names)s): withdraw them first, "
                "then bot accounts can be disallowed."
            )
            % {"names": ", ".join(facts.bots_playing)}
        )


def min_rounds(facts: TournamentFacts) -> int:
    """The fewest rounds the tournament may be set to: every paired round stays."""
    return max(1, facts.last_round)


def check_rounds(facts: TournamentFacts, rounds: int) -> None:
    """Raise ``SettingsError`` when ``rounds`` would drop a round already paired."""
    if rounds < facts.last_round:
        raise SettingsError(
            _(
                "Rounds 1 to %(n)d are already paired, so the tournament cannot have fewer "
                "than %(n)d rounds."
            )
            % {"n": facts.last_round}
        )


def check_tiebreak_order(keys: Sequence[str]) -> list[str]:
    """The order as a list, or ``SettingsError`` for an empty, repeated or unknown key.

    >>> check_tiebreak_order(["buchholz", "match_points"])
    ['buchholz', 'match_points']
    """
    keys = list(keys)
    if not keys:
        raise SettingsError(_("Choose at least one tiebreak."))
    unknown = [k for k in keys if k not in KEYS]
    if unknown:
        raise SettingsError(
            _("Unknown tiebreak: %(keys)s.") % {"keys": ", ".join(sorted(set(unknown)))}
        )
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise SettingsError(
            _("Each tiebreak may appear only once: %(keys)s repeated.")
            % {"keys": ", ".join(repeated)}
        )
    return keys


def moved(keys: Sequence[str], index: int, step: int) -> list[str] | None:
    """``keys`` with the key at ``index`` moved ``step`` places (-1 up, +1 down), or None
    when it would leave the list.

    >>> moved(["a", "b", "c"], 2, -1)
    ['a', 'c', 'b']
    >>> moved(["a", "b", "c"], 0, -1) is None
    True
    """
    target = index + step
    if not (0 <= index < len(keys) and 0 <= target < len(keys)):
        return None
    order = list(keys)
    order[index], order[target] = order[target], order[index]
    return order


def round_robin_rounds_needed(players: int) -> int:
    """Rounds for everyone to meet everyone: n - 1 for an even n, n for an odd n (a bye each).

    >>> [round_robin_rounds_needed(n) for n in (1, 2, 3, 4, 7, 8)]
    [0, 1, 3, 3, 7, 7]
    """
    if players < 2:
        return 0
    return players - 1 if players % 2 == 0 else players


def warnings(facts: TournamentFacts) -> list[str]:
    """Settings that are allowed but probably not what the organiser wants."""
    if facts.format != formats.ROUND_ROBIN or facts.players < 2:
        return []
    needed = round_robin_rounds_needed(facts.players)
    if facts.rounds < needed:
        return [
            _(
                "A round robin of %(players)d players needs %(needed)d rounds for everyone to "
                "meet everyone; this tournament has %(rounds)d."
            )
            % {"players": facts.players, "needed": needed, "rounds": facts.rounds}
        ]
    if facts.rounds > needed:
        return [
            _(
                "A round robin of %(players)d players is complete after %(needed)d rounds; "
                "rounds after %(needed)d cannot be paired."
            )
            % {"players": facts.players, "needed": needed}
        ]
    return []
