"""Read-only JSON API (stable, DESIGN.md §8)."""

from __future__ import annotations

from django.urls import path

from . import views_api

urlpatterns = [
    path("tournaments/", views_api.tournament_list, name="api_tournaments"),
    path("tournaments/<slug:slug>/", views_api.tournament_detail, name="api_tournament"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/pairings",
        views_api.round_pairings,
        name="api_round_pairings",
    ),
    path("tournaments/<slug:slug>/standings", views_api.standings, name="api_standings"),
]
