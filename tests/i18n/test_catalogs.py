"""The .po catalogs in git are complete, well-formed, current, and what the server uses.

English is the source language. Each translated language must have every message
translated, none fuzzy, every placeholder and HTML tag of the English kept, the
language's plural rule in the header, and a compiled .mo that is exactly what msgfmt
makes of the .po now (so a forgotten ``make setup`` cannot serve stale translations).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import polib
import pytest

from .support import DOMAINS, LOCALE, ROOT, TRANSLATED, language_params, po_path

PLURAL_FORMS = {
    "it": "nplurals=2; plural=(n != 1);",
    "nb": "nplurals=2; plural=(n != 1);",
}
# %(name)s / %(name)d / %(name)r, %% and brace-style {name}
PLACEHOLDER = re.compile(r"%%|%\(\w+\)[sdr]|\{\{?\s*\w+\s*\}?\}")
HTML_TAG = re.compile(r"</?\w+[^>]*>")


def test_the_settings_languages_are_the_catalogs_the_makefile_and_the_plural_rules():
    """``settings.LANGUAGES`` is the one list; the others that must name the same
    languages are checked against it."""
    assert TRANSLATED and len(TRANSLATED) == len(set(TRANSLATED))
    assert sorted(p.name for p in LOCALE.iterdir() if p.is_dir()) == sorted(TRANSLATED)
    found = re.search(r"^LANGUAGES_TRANSLATED := (.*)$", (ROOT / "Makefile").read_text(), re.M)
    assert found is not None
    assert found.group(1).split() == [part for code in TRANSLATED for part in ("-l", code)]
    assert sorted(PLURAL_FORMS) == sorted(TRANSLATED)


def catalogs() -> list:
    return [
        pytest.param(p.values[0], domain, id=f"{p.id}-{domain}", marks=p.marks)
        for p in language_params()
        for domain in DOMAINS
    ]


def load(language: str, domain: str) -> polib.POFile:
    path = po_path(language, domain)
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: run `make messages`"
    return polib.pofile(str(path))


def untranslated(po: polib.POFile) -> list[str]:
    """Messages with an empty translation (or an empty plural form)."""
    missing = []
    for entry in po:
        if entry.obsolete:
            continue
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        if not all(forms):
            missing.append(entry.msgid)
    return missing


@pytest.mark.parametrize(("language", "domain"), catalogs())
def test_every_message_is_translated_and_none_is_fuzzy(language, domain):
    po = load(language, domain)
    missing = untranslated(po)
    assert not missing, f"{len(missing)} untranslated in {language}/{domain}.po: {missing[:10]}"
    fuzzy = [e.msgid for e in po if "fuzzy" in e.flags]
    assert not fuzzy, f"fuzzy entries are not served; check and unflag them: {fuzzy[:10]}"
    assert not po.metadata_is_fuzzy, "a fuzzy header hides the plural rule from msgfmt"
    assert not po.obsolete_entries(), "obsolete (#~) entries: run `make messages`"


@pytest.mark.parametrize(("language", "domain"), catalogs())
def test_header_names_the_language_and_its_plural_rule(language, domain):
    po = load(language, domain)
    assert po.metadata.get("Language") == language
    assert po.metadata.get("Plural-Forms") == PLURAL_FORMS[language]
    assert po.metadata.get("Content-Type") == "text/plain; charset=UTF-8"


@pytest.mark.parametrize(("language", "domain"), catalogs())
def test_translations_keep_every_placeholder_and_tag(language, domain):
    problems = []
    for entry in load(language, domain).translated_entries():
        pairs = (
            [
                (entry.msgid if n == 0 else entry.msgid_plural, s)
                for n, s in sorted(entry.msgstr_plural.items())
            ]
            if entry.msgid_plural
            else [(entry.msgid, entry.msgstr)]
        )
        for source, target in pairs:
            for pattern in (PLACEHOLDER, HTML_TAG):
                if Counter(pattern.findall(source)) != Counter(pattern.findall(target)):
                    problems.append(f"{source!r} -> {target!r}")
    assert not problems, "\n".join(problems)


def _msgfmt() -> str:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.fail("msgfmt is missing: `make setup` installs gettext (scripts/ensure-gettext.sh)")
    return msgfmt


@pytest.mark.parametrize(("language", "domain"), catalogs())
def test_compiled_catalog_is_exactly_the_po_compiled_now(language, domain, tmp_path):
    """The .mo Django serves is what msgfmt makes of the .po in git, byte for byte."""
    po = po_path(language, domain)
    served = po.with_suffix(".mo")
    assert served.exists(), f"{served.relative_to(ROOT)} is missing: run `make setup`"
    fresh = tmp_path / f"{language}-{domain}.mo"
    # The same command as `manage.py compilemessages`.
    subprocess.run([_msgfmt(), "--check-format", "-o", fresh, po], check=True)
    assert served.read_bytes() == fresh.read_bytes(), (
        f"{served.relative_to(ROOT)} is stale: run `make setup` (compilemessages)"
    )


SOURCES = (
    "accounts",
    "front",
    "games",
    "outbox",
    "play",
    "ratings",  # imported by tournaments (its pure Glicko-2 core)
    "thud_site",
    "tournaments",
    "templates",
    "static",
    "locale",
)


def _keys(path: Path) -> set[tuple[str | None, str, str]]:
    return {(e.msgctxt, e.msgid, e.msgid_plural) for e in polib.pofile(str(path))}


def test_catalogs_hold_exactly_the_strings_marked_in_the_code(tmp_path):
    """A string marked in the code but not in the catalogs (or a catalog entry whose string
    is gone) means someone forgot `make messages`: makemessages on a copy must change no
    msgid."""
    _msgfmt()
    for name in SOURCES:
        shutil.copytree(
            ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
        )
    shutil.copy(ROOT / "manage.py", tmp_path)
    env = os.environ | {"DJANGO_SETTINGS_MODULE": "thud_site.settings"}
    for domain in DOMAINS:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", "it", "-d", domain]
            + ["--no-obsolete", "--add-location=file", "--verbosity=0"],
            cwd=tmp_path,
            env=env,
            check=True,
        )
        fresh = _keys(tmp_path / "locale" / "it" / "LC_MESSAGES" / f"{domain}.po")
        committed = _keys(po_path("it", domain))
        assert fresh - committed == set(), f"marked but not in {domain}.po: run `make messages`"
        assert committed - fresh == set(), f"in {domain}.po but no longer marked: `make messages`"
