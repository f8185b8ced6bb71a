"""Player cards and the printable list of links: per entry the name, the club and the
player's personal link (``organising.personal_links``) as a full URL and as a QR code.
The cards are a PDF for the hall; the list is an organiser's page with print CSS.

The QR code is segno's inline SVG (no file, no fetch: the PDF renderer reads only our
static files), drawn from the absolute URL the caller builds from the request.

Wrapping, on paper and on screen: a name wraps between its words, never inside one (a
card's name gets a smaller type when its longest word would not fit the card's width,
``name_size_pt``); a URL wraps only after one of its slashes (``breakable_url``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import segno
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

from tournaments.models.tournament import Tournament
from tournaments.organising.personal_links import personal_links

#: The largest type of a name on a card (points), and the smallest it shrinks to.
NAME_PT, NAME_MIN_PT = 14.0, 6.0
#: About how many points of a card's width one character of its name takes at 1 pt (bold
#: DejaVu Sans, capitals included, with room to spare) times the characters a line holds:
#: the card's text is 85 mm (241 pt) wide, a character of bold DejaVu Sans at most
#: ~0.7 em, so a line holds about 340 / size characters.
LINE_CHARS_AT_1PT = 340.0


@dataclass(frozen=True)
class PlayerCard:
    name: str
    club: str
    url: str
    qr_svg: SafeString

    @property
    def url_html(self) -> SafeString:
        return breakable_url(self.url)

    @property
    def name_pt(self) -> float:
        return name_size_pt(self.name)


def qr_svg(url: str) -> SafeString:
    """A QR code of ``url`` as inline SVG (error correction M: a folded card still reads),
    with a viewBox and no size of its own: the page's CSS sizes it, and it scales whole
    (a fixed width and height would clip it to the CSS box)."""
    # segno writes the SVG itself from the URL's bits: nothing of the URL is markup.
    return mark_safe(segno.make(url, error="m").svg_inline(scale=4, border=4, omitsize=True))


def breakable_url(url: str) -> SafeString:
    """``url`` escaped, breakable after a slash only: each piece up to a slash is kept on
    one line (``nobreak``: a browser would otherwise break after a "-" in a token or a
    host name, which reads as a hyphen) and a ``<wbr>`` follows each slash.

    >>> str(breakable_url("https://thud.example.org/p/Ab-c_d/"))
    '<span class="nobreak">https://thud.example.org/</span><wbr><span class="nobreak">p/</span><wbr><span class="nobreak">Ab-c_d/</span>'
    >>> str(breakable_url("http://x/p/<b>"))
    '<span class="nobreak">http://x/</span><wbr><span class="nobreak">p/</span><wbr><span class="nobreak">&lt;b&gt;</span>'
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        scheme, rest = "", scheme
    pieces = [piece + "/" for piece in rest.split("/")]
    pieces[-1] = pieces[-1][:-1]  # the last piece has no slash after it
    pieces[0] = scheme + sep + pieces[0]
    return format_html_join(
        mark_safe("<wbr>"), '<span class="nobreak">{}</span>', ((p,) for p in pieces if p)
    )


def name_size_pt(name: str) -> float:
    """The type size of a name on a card: 14 pt, smaller when its longest word would not
    fit on a line or the whole name would need more than about two lines.

    >>> name_size_pt("Carrot Ironfoundersson"), name_size_pt("Ironfoundersonsonsonsonsonsonson")
    (14.0, 10.5)
    >>> name_size_pt("x" * 120)
    6.0
    """
    words = name.split() or [""]
    longest = max(len(word) for word in words)
    size = min(
        NAME_PT, LINE_CHARS_AT_1PT / max(longest, 1), 2 * LINE_CHARS_AT_1PT / max(len(name), 1)
    )
    return max(NAME_MIN_PT, int(size * 2) / 2)  # in half points, rounded down


def player_cards(tournament: Tournament, absolute: Callable[[str], str]) -> list[PlayerCard]:
    """A card per entry, in seed order; ``absolute`` turns a path into a full URL."""
    cards = []
    for entry, path in personal_links(tournament):
        url = absolute(path)
        cards.append(PlayerCard(entry.player.name, entry.player.club, url, qr_svg(url)))
    return cards
