"""The production password hasher: the suite hashes with MD5 (tests/conftest.py) to save
~0.8 s a hash, so this is the one test that hashes as the site does."""

from __future__ import annotations

import importlib

from django.conf import global_settings
from django.contrib.auth.hashers import check_password, identify_hasher, make_password
from django.test import override_settings


def production_hashers() -> list[str]:
    site = importlib.import_module("thud_site.settings")
    return getattr(site, "PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)


def test_the_site_hashes_passwords_with_pbkdf2_at_django_s_iterations():
    hashers = production_hashers()
    assert hashers[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert "MD5" not in " ".join(hashers)
    with override_settings(PASSWORD_HASHERS=hashers):
        encoded = make_password("n3w-Secret-pass")
        hasher = identify_hasher(encoded)
        assert hasher.algorithm == "pbkdf2_sha256"
        assert int(encoded.split("$")[1]) >= 1_000_000
        assert check_password("n3w-Secret-pass", encoded)
        assert not check_password("n3w-Secret-pasS", encoded)


def test_the_suite_hashes_with_the_fast_hasher():
    assert identify_hasher(make_password("x")).algorithm == "md5"
