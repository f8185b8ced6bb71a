"""Table cards: one card per table of a round, to stand on the table: the table number
large, this round's pairing (who has which side in battle 1) and a QR code of the
table's referee page (``referee_match``), printed as a PDF."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse
from django.utils.safestring import SafeString

from tournaments.models.rounds import Round
from tournaments.reports.player_cards import qr_svg


@dataclass(frozen=True)
class TableCard:
    table: int
    player_a: str
    player_b: str  # empty for a bye
    url: str
    qr_svg: SafeString


def table_cards(round_: Round, absolute: Callable[[str], str]) -> list[TableCard]:
    """A card per match of ``round_``, by table; ``absolute`` turns a path into a URL."""
    slug = round_.tournament.slug
    cards = []
    for m in round_.matches.select_related("player_a__player", "player_b__player").order_by(
        "table"
    ):
        url = absolute(reverse("referee_match", args=[slug, m.pk]))
        b = m.player_b.player.name if m.player_b else ""
        cards.append(TableCard(m.table, m.player_a.player.name, b, url, qr_svg(url)))
    return cards
