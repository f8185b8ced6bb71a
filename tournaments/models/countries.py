"""A player's country: an ISO 3166-1 alpha-2 code (django-countries' ``CountryField``),
shown by name in the reader's language.

``country_code`` is the one place that reads a country from what people type (the forms,
the CSV imports, old archives, the data migration of the free text stored before): an
alpha-2 or alpha-3 code in any case, or a country's name in English, Italian or Norwegian
Bokmål (the site's languages), or one of ``ALIASES``. The parts of the United Kingdom are
read as GB: ISO 3166-1 gives England, Scotland, Wales and Northern Ireland no code of their
own (their ISO 3166-2 subdivision codes, GB-ENG …, are no country codes).
"""

from __future__ import annotations

import functools
import unicodedata

from django.utils import translation
from django.utils.translation import gettext as _
from django_countries import countries

# The longest text read as a country (a typed name); the stored code is two letters.
COUNTRY_TEXT_MAX_LENGTH = 64

# The languages whose country names are read (the site's languages).
NAME_LANGUAGES = ("en", "it", "nb")

# Usual names that are neither a code nor django-countries' name in those languages.
ALIASES = {
    "uk": "GB",
    "u.k.": "GB",
    "great britain": "GB",
    "britain": "GB",
    "gran bretagna": "GB",
    "england": "GB",
    "inghilterra": "GB",
    "scotland": "GB",
    "scozia": "GB",
    "skottland": "GB",
    "wales": "GB",
    "galles": "GB",
    "northern ireland": "GB",
    "irlanda del nord": "GB",
    "nord-irland": "GB",
    "noreg": "NO",
    "holland": "NL",
    "olanda": "NL",
    "usa": "US",
    "u.s.a.": "US",
    "america": "US",
    "stati uniti": "US",
}


class UnknownCountryError(ValueError):
    """A text that names no country; the message says what is accepted."""


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", " ".join(text.split())).casefold()


@functools.cache
def _names() -> dict[str, str]:
    """Every country's name in each of ``NAME_LANGUAGES`` (folded) → its code."""
    found: dict[str, str] = {}
    for language in NAME_LANGUAGES:
        with translation.override(language):
            for code, name in countries:
                found.setdefault(_key(str(name)), code)
    return found


def country_code(text: str) -> str:
    """The alpha-2 code ``text`` names; "" for an empty text.

    Raises ``UnknownCountryError`` for anything else.

    >>> [country_code(t) for t in ("IT", "ita", "Italia", "Norge", "england", "")]
    ['IT', 'IT', 'IT', 'NO', 'GB', '']
    """
    text = text.strip()
    if not text:
        return ""
    if len(text) in (2, 3) and text.isascii() and text.isalpha():
        code = countries.alpha2(text.upper())
        if code:
            return code
    key = _key(text)
    code = ALIASES.get(key) or _names().get(key, "")
    if not code:
        raise UnknownCountryError(
            _("%(text)s is not a country we know: give its name or its ISO code, e.g. IT or NO")
            % {"text": text[:COUNTRY_TEXT_MAX_LENGTH]}
        )
    return code


def code_or_kept(text: str) -> tuple[str, str]:
    """(code, "") for a text that names a country, ("", text) for one that does not: what a
    player's ``country`` and ``country_as_typed`` become when the text comes from before
    codes (migration 0021, an old archive) and must not be lost.

    >>> code_or_kept("Norge"), code_or_kept("Ankh-Morpork")
    (('NO', ''), ('', 'Ankh-Morpork'))
    """
    try:
        return country_code(text), ""
    except UnknownCountryError:
        return "", text.strip()[:COUNTRY_TEXT_MAX_LENGTH]


def country_name(code: str) -> str:
    """The name of the country ``code`` in the active language ("" for no code)."""
    return str(countries.name(code)) if code else ""


def sort_key(name: str) -> str:
    """A name's place in a list: letters without their accents, case folded (Å with A, …)."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)
    ).casefold()
