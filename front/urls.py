"""URLs split by audience, so a missing permission check is easy to spot.

- public pages (no login):            tournaments/web/urls_public.py
- organiser pages (``manage/``):      tournaments/web/organiser/urls.py
- referee pages (``referee/``):       tournaments/web/urls_referee.py
- API v1 (``api/v1/``: OpenAPI document, docs): front/api_v1.py, over the apps' routers
- the old read-only JSON API (``api/``, deprecated): tournaments/web/urls_api.py
- accounts (``accounts/``):           accounts/urls.py
- online battles and clocks:          games/urls.py
- game records and battles in the API: games/views_records.py, games/views_api.py
- the language switcher (``i18n/``): accounts/views.py
- the rules of each game (``rules/``: the default game, ``rules/<game>/``): front/views.py
- casual play (``play/``):            play/urls.py
- a player's own page (``p/<token>/``, ``t/<slug>/me/``): front/views_player_page.py
- the JavaScript catalog (``jsi18n/``): Django's JavaScriptCatalog, once per language: front/views.py
- the app shell (``sw.js``, ``manifest.webmanifest``, at the root for the worker's scope):
  thud_site/views_app.py
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.forms import RateLimitedAdminAuthenticationForm
from accounts.views import set_language
from front import api_v1, home, views, views_player_page
from games.web import views_api, views_records
from thud_site import views_app
from tournaments.web import urls_api

# The admin's login guards the most powerful accounts: it shares the site login's limiter.
admin.site.login_form = RateLimitedAdminAuthenticationForm

urlpatterns = [
    path("", home.home, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", api_v1.urls),
    # The old JSON addresses (deprecated: each answer says so and links v1's docs).
    path(
        "api/",
        include(
            api_v1.old_addresses(
                [
                    path("tournaments/<slug:slug>/battles", views_api.battles, name="api_battles"),
                    path("battles/<int:battle_id>", views_api.battle, name="api_battle"),
                    *urls_api.urlpatterns,
                ]
            )
        ),
    ),
    path("manage/", include("tournaments.web.organiser.urls")),
    path("referee/", include("tournaments.web.urls_referee")),
    path("battles/", include("games.urls")),
    # Django's set_language (django.conf.urls.i18n) at its usual address, wrapped so a
    # logged-in user's choice is also saved on their profile.
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", views.javascript_catalog, name="javascript-catalog"),
    path("sw.js", views_app.service_worker, name="service_worker"),
    path("manifest.webmanifest", views_app.manifest, name="manifest"),
    path("rules/", views.rules, name="rules"),
    # Served by games (tournaments never imports games), before the public routes.
    path("t/<slug:slug>/records.txt", views_records.tournament_records, name="records"),
    path("rules/<slug:game>/", views.rules, name="rules_game"),
    path("play/", include("play.urls")),
    # A player's own page: by the secret personal link (no login) or from their account.
    path("p/<str:token>/", views_player_page.personal_page, name="personal_page"),
    path("t/<slug:slug>/me/", views_player_page.my_page, name="my_page"),
    path("", include("tournaments.web.urls_public")),
]
