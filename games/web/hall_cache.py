"""The hall screen's live battles, paid for once per change (issue 44), not once per
screen and not once per battle.

Ten hall screens fetch the battles they show after every change of any of them; rendered
for each, a round of 1,000 battles saturated a small machine. Terminology and invariants:

- A **slide** (``Slide``) is what a screen shows at a time: ``BATTLES_PER_SLIDE`` battles
  of the round, by table. A screen asks for the one it shows (``?slide=``, hall.js);
  the others come as empty places, so that it knows how many there are to rotate
  through.
- A **line** (one battle, ``games/hall_battles.html#battle``) holds no moment
  (``presenters_hall``), so it is cached under what decides it: the battle's pk, its row's
  last write (``clock_version`` and ``updated_at``: a move, a touch, a clock event and
  the end are compare-and-set writes that raise both, ``games.battles.store``), the
  match's confirmed result (an over-the-board score), the tournament's state version
  (the players' names and the tables: their writers bump it) and the language. The keys
  come from one narrow read of the slide (no rows made into models), the lines from one
  ``get_many``; only the missing battles are read whole and rendered.
- The **fragment** is a ``thud_site.page_cache.CachedPage`` under the tournament's state
  version, the language and the slide's **summary**: the number of slides (a battle
  opened for its players joins the hall by a write that raises no version) and its rows.
  A screen that holds it is answered 304, so a change elsewhere in the round costs a
  screen two small queries.
- A write between the slide's read and the lines' read only puts newer lines under an
  older key: never stale, the next read's summary misses.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.db.models import QuerySet
from django.template.loader import get_template, render_to_string
from django.utils.safestring import mark_safe

from games.models.battle import Battle
from games.web import presenters_hall
from games.web.presenters_hall import BATTLES_PER_SLIDE
from thud_site.page_cache import PAGE_CACHE_S


def shown_battles(round_) -> QuerySet[Battle]:
    """The round's battles being played or waiting for their players, or finished (not
    the ones nobody opened)."""
    return Battle.objects.filter(match__round=round_).exclude(
        status=Battle.Status.PENDING, awaits_players=False
    )


@dataclass(frozen=True)
class Slide:
    """One slide of the round's live battles, as a screen showing it asks for it: how many
    slides the round has, which one this is (the last one if the round has fewer now), and
    the rows of its battles (pk, ``clock_version``, ``updated_at``, the confirmed result):
    what decides their lines, so what its cache key and ETag are made of."""

    count: int
    index: int
    rows: tuple[tuple, ...]

    @property
    def summary(self) -> tuple:
        """What changes whenever this slide does (the number of slides too: its heading)."""
        rows = tuple((pk, v, int(w.timestamp() * 1e6) if w else 0, r) for pk, v, w, r in self.rows)
        return (self.count, self.index, rows)


def slide_of(round_, index: int) -> Slide:
    """Live-battles slide ``index`` of the round (the first is 0), in two small queries
    whatever the round's size (issue 44: a screen shows one slide of six battles; a round
    of 1,000 battles was 700 KB to every screen after every press)."""
    if round_ is None:
        return Slide(0, 0, ())
    shown = shown_battles(round_)
    count = -(-shown.count() // BATTLES_PER_SLIDE)
    index = max(0, min(index, count - 1))
    start = index * BATTLES_PER_SLIDE
    rows = shown.order_by("match__table", "number").values_list(
        "pk", "clock_version", "updated_at", "match__confirmed_version_id"
    )[start : start + BATTLES_PER_SLIDE]
    return Slide(count, index, tuple(rows))


def line_key(
    pk: int, version: int, written: datetime | None, confirmed: int | None, *, extra: str
) -> str:
    """The cache key of a battle's line, from its pk, ``clock_version``, ``updated_at``
    and its match's ``confirmed_version_id``; ``extra``: the tournament's state version
    and the language (``_extra``).

    >>> from datetime import UTC
    >>> line_key(7, 3, datetime(2026, 1, 1, tzinfo=UTC), None, extra="s2-nb")
    'hall-line-7-v3-1767225600000000-r0-s2-nb'
    """
    micros = int(written.timestamp() * 1_000_000) if written else 0
    return f"hall-line-{pk}-v{version}-{micros}-r{confirmed or 0}-{extra}"


def _key_of(battle: Battle, extra: str) -> str:
    confirmed = battle.match.confirmed_version_id if battle.match is not None else None
    return line_key(battle.pk, battle.clock_version, battle.updated_at, confirmed, extra=extra)


def fragment(round_, slide: Slide, *, state_version: int, language: str) -> str:
    """The round's live-battles slides, the lines of ``slide`` in its place and the others
    empty (call in ``language``): the lines from one ``get_many``, and only the missing
    battles read whole and rendered (under their keys as read then: a battle written in
    between is rendered as it is now, never older)."""
    extra = f"s{state_version}-{language}"
    keys = [line_key(*row, extra=extra) for row in slide.rows]
    found = cache.get_many(keys)
    wanted = [row[0] for row, key in zip(slide.rows, keys, strict=True) if key not in found]
    rendered: dict[int, str] = {}
    if wanted:
        template = get_template("games/hall_battles.html#battle")
        fresh = {}
        for battle in (
            shown_battles(round_)
            .filter(pk__in=wanted)
            .select_related(
                "match__confirmed_version", "first_entry__player", "second_entry__player"
            )
        ):
            line = template.render({"line": presenters_hall.hall_line(battle)})
            fresh[_key_of(battle, extra)] = rendered[battle.pk] = line
        cache.set_many(fresh, PAGE_CACHE_S)
    # Our own rendering, escaped when it was rendered.
    lines = [
        mark_safe(found[key]) if key in found else rendered[row[0]]  # noqa: S308
        for row, key in zip(slide.rows, keys, strict=True)
        if key in found or row[0] in rendered
    ]
    slides: list[list] = [[] for _ in range(slide.count)]
    if slides:
        slides[slide.index] = lines
    return render_to_string("games/hall_battles.html", {"slides": slides})
