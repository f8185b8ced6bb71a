"""Read-only JSON API (stable, DESIGN.md §8)."""

from __future__ import annotations

from django.urls import path

from tournaments.web import views_api, views_ratings

urlpatterns = [
    path("tournaments/", views_api.tournament_list, name="api_tournaments"),
    path("tournaments/<slug:slug>/", views_api.tournament_detail, name="api_tournament"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/pairings",
        views_api.round_pairings,
        name="api_round_pairings",
    ),
    path("tournaments/<slug:slug>/standings", views_api.standings, name="api_standings"),
    path("tournaments/<slug:slug>/stats", views_api.tournament_stats, name="api_tournament_stats"),
    path("stats", views_api.site_stats, name="api_stats"),
    path("players/<int:player_id>/stats", views_api.player_stats, name="api_player_stats"),
    path("ratings", views_ratings.api_rating_list, name="api_ratings"),
    path(
        "players/<int:player_id>/ratings",
        views_ratings.api_player_ratings,
        name="api_player_ratings",
    ),
]
