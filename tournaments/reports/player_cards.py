"""Player cards: one card per entry with the name, the event and a QR code of the
player's personal link (``organising.personal_links``), printed as a PDF for the hall.

The QR code is segno's inline SVG (no file, no fetch: the PDF renderer reads only our
static files), drawn from the absolute URL the caller builds from the request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import segno
from django.utils.safestring import SafeString, mark_safe

from tournaments.models.tournament import Tournament
from tournaments.organising.personal_links import personal_links


@dataclass(frozen=True)
class PlayerCard:
    name: str
    club: str
    url: str
    qr_svg: SafeString


def qr_svg(url: str) -> SafeString:
    """A QR code of ``url`` as inline SVG (error correction M: a folded card still reads)."""
    # segno writes the SVG itself from the URL's bits: nothing of the URL is markup.
    return mark_safe(segno.make(url, error="m").svg_inline(scale=4, border=4))


def player_cards(tournament: Tournament, absolute: Callable[[str], str]) -> list[PlayerCard]:
    """A card per entry, in seed order; ``absolute`` turns a path into a full URL."""
    cards = []
    for entry, path in personal_links(tournament):
        url = absolute(path)
        cards.append(PlayerCard(entry.player.name, entry.player.club, url, qr_svg(url)))
    return cards
