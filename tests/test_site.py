from __future__ import annotations

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


@pytest.mark.django_db
def test_home_page_lists_tournaments(client):
    from tournaments.models.tournament import Tournament

    Tournament.objects.create(name="Koom Valley Cup", slug="koom")
    response = client.get("/")
    assert response.status_code == 200
    assert b"Koom Valley Cup" in response.content
    assert b"htmx" in response.content  # the base template loads django-htmx's script


def test_celery_is_never_eager():
    assert settings.CELERY_TASK_ALWAYS_EAGER is False


def test_settings_refuse_missing_secret_without_debug(monkeypatch):
    import importlib

    import thud_site.settings as site_settings

    monkeypatch.delenv("DJANGO_SECRET_KEY", raising=False)
    monkeypatch.setenv("DJANGO_DEBUG", "0")
    with pytest.raises(ImproperlyConfigured):
        importlib.reload(site_settings)
    monkeypatch.setenv("DJANGO_SECRET_KEY", "x")
    importlib.reload(site_settings)


def test_settings_read_database_url(monkeypatch):
    import importlib

    import thud_site.settings as site_settings

    monkeypatch.setenv("DJANGO_SECRET_KEY", "x")
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db.example:5433/thud")
    reloaded = importlib.reload(site_settings)
    assert reloaded.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert reloaded.DATABASES["default"]["PORT"] == 5433
    monkeypatch.undo()
    importlib.reload(site_settings)
