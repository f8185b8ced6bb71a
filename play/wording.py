"""How a challenge reads to one person: who plays which side, who moves first, the clock.

Terminology:
- The *reader* is the user the words are for: the challenged user (a challenge received,
  or its e-mail), the challenger (a challenge or seek they made), or anyone else looking
  at a seek (who would become the opponent by accepting it).
- The *sides* are the game's own (``Game.sides``, first side moves first), named by the
  game and translated here: nothing in ``play`` names a game's pieces.
- The *time control* is the clock the battle will get (``ClockWords``): casual quickfire
  battles get the ``Battle`` model's default clock (``create_casual_battle`` sets no other)
  and the challenge's move limit, correspondence ``days`` per move.

``challenge_words`` and ``time_words`` are pure over their arguments (no database, no
clock); ``words_for`` reads a ``Challenge`` and the game registry and calls them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines import registry
from games.models.battle import Battle

from .models import Challenge


@dataclass(frozen=True)
class ClockWords:
    """What a player needs to know of a battle's clock before accepting it."""

    timing: str
    think_ms: int = 0
    move_ms: int = 0
    max_plies: int | None = None
    days: int = 0


def _default(name: str) -> int:
    field = Battle._meta.get_field(name)
    default = getattr(field, "default", None)
    assert isinstance(default, int), name
    return default


def casual_quickfire(move_limit: int) -> ClockWords:
    """The clock of a casual quickfire battle: the model's defaults, which
    ``games.battles.starting.create_casual_battle`` leaves as they are, and the move
    limit (``move_limit`` moves per side)."""
    return ClockWords(
        timing=Battle.Timing.QUICKFIRE,
        think_ms=_default("think_ms"),
        move_ms=_default("move_ms"),
        max_plies=2 * move_limit,
    )


def _seconds(ms: int) -> str:
    """``15000`` -> ``"15"``, ``2500`` -> ``"2.5"``."""
    return f"{ms // 1000}" if ms % 1000 == 0 else f"{ms / 1000:g}"


def time_words(clock: ClockWords) -> str:
    """The time control in words: "quickfire: 15 s to think, then 5 s to move"."""
    if clock.timing == Battle.Timing.CORRESPONDENCE:
        return ngettext(
            "correspondence: %(days)d day per move",
            "correspondence: %(days)d days per move",
            clock.days,
        ) % {"days": clock.days}
    if clock.move_ms:
        text = _("quickfire: %(think)s s to think, then %(move)s s to move") % {
            "think": _seconds(clock.think_ms),
            "move": _seconds(clock.move_ms),
        }
    else:
        text = _("quickfire: %(think)s s per move") % {"think": _seconds(clock.think_ms)}
    if clock.max_plies:
        each = clock.max_plies // 2
        text += ", " + ngettext("%(n)d move each", "%(n)d moves each", each) % {"n": each}
    return text


def challenge_words(
    *,
    challenger: str,
    opponent: str | None,
    reader_is_challenger: bool,
    game: str,
    sides: tuple[str, str],
    first: str,
    clock: ClockWords,
    rated_match: bool = False,
) -> str:
    """The whole line of a challenge as ``reader`` reads it.

    ``opponent``: the challenged user's name, ``None`` for a seek; ``game``: the game's
    translated name; ``sides``: its sides' translated names in turn order; ``first``: a
    ``Challenge.First`` value (for a ``rated_match``, in battle 1).
    """
    if opponent is None and reader_is_challenger:
        head = _("You seek a game of %(game)s") % {"game": game}
    elif opponent is None:
        head = _("%(user)s seeks a game of %(game)s") % {"user": challenger, "game": game}
    elif reader_is_challenger:
        head = _("You challenged %(user)s to %(game)s") % {"user": opponent, "game": game}
    else:
        head = _("%(user)s challenges you to %(game)s") % {"user": challenger, "game": game}
    sides_text = _side_words(challenger, opponent, reader_is_challenger, sides, first)
    line = f"{head}: {sides_text} · {time_words(clock)}"
    if rated_match:
        line += " · " + _("rated match: two battles, sides swapped")
    return line


def _side_words(
    challenger: str,
    opponent: str | None,
    reader_is_challenger: bool,
    sides: tuple[str, str],
    first: str,
) -> str:
    if first == Challenge.First.RANDOM:
        return _("sides by coin toss when accepted")
    reader_first = (first == Challenge.First.CHALLENGER) == reader_is_challenger
    mine, theirs = sides if reader_first else (sides[1], sides[0])
    other = opponent if reader_is_challenger else challenger
    names = {"mine": mine, "theirs": theirs, "other": other}
    if other is None:  # your own seek: the opponent is whoever accepts it
        if reader_first:
            return _("you play %(mine)s and move first, your opponent %(theirs)s") % names
        return _("you play %(mine)s, your opponent %(theirs)s and moves first") % names
    if reader_first:
        return _("you play %(mine)s and move first, %(other)s plays %(theirs)s") % names
    return _("you play %(mine)s, %(other)s plays %(theirs)s and moves first") % names


def clock_of(challenge: Challenge) -> ClockWords:
    if challenge.timing == Battle.Timing.CORRESPONDENCE:
        return ClockWords(timing=challenge.timing, days=challenge.days)
    return casual_quickfire(challenge.move_limit)


def words_for(
    challenge: Challenge,
    *,
    reader,
    challenger_name: str | None = None,
    opponent_name: str | None = None,
) -> str:
    """``challenge_words`` for ``challenge`` as the user ``reader`` reads it. The names
    are the users' (``challenger_name``, ``opponent_name``: other words in their places,
    for a page that marks them up, ``play.templatetags.challenge_words``)."""
    game = registry.get(challenge.game)
    opponent = challenge.opponent
    return challenge_words(
        challenger=challenger_name or challenge.challenger.get_username(),
        opponent=(opponent_name or opponent.get_username()) if opponent else None,
        reader_is_challenger=reader is not None and reader.pk == challenge.challenger_id,
        game=_(game.name),  # noqa: INT001
        sides=(_(game.sides[0].name), _(game.sides[1].name)),  # noqa: INT001
        first=challenge.first,
        clock=clock_of(challenge),
        rated_match=challenge.rated_match,
    )
