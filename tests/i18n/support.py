"""Shared helpers of the translation tests: where the catalogs are, and what a reader sees.

``visible_words`` is what a visitor reads on a rendered page: text nodes outside
``<script>``/``<style>``, plus the attributes browsers show (title, placeholder, alt,
aria-label, the value of submit buttons).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
DOMAINS = ("django", "djangojs")
# The source language (the settings' LANGUAGE_CODE) has no catalog; every other language
# of the settings has one. Derived, never listed here (issue 41: one list of languages).
TRANSLATED = tuple(code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE)


def po_path(language: str, domain: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


def language_params() -> list:
    """One test parameter per translated language (a missing catalog fails, never skips)."""
    return [pytest.param(language, id=language) for language in TRANSLATED]


SHOWN_ATTRIBUTES = {"title", "placeholder", "alt", "aria-label"}


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._hidden += 1
        values = dict(attrs)
        for name, value in attrs:
            if name in SHOWN_ATTRIBUTES and value:
                self.parts.append(value)
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.parts.append(values["value"])

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return " ".join(" ".join(parser.parts).split())


def english_leftovers(html: str, words: tuple[str, ...]) -> list[str]:
    """The words of ``words`` (whole words, case as given) a reader sees on the page.

    Case matters: the CSV column names "name,club,country,rating" stay English on
    purpose (files are language-neutral), while the label "Name" must not."""
    text = visible_text(html)
    return sorted({w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)})
