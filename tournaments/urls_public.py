from __future__ import annotations

from django.urls import path

from . import views_bracket, views_public

urlpatterns = [
    path("t/<slug:slug>/", views_public.tournament, name="tournament"),
    path("t/<slug:slug>/rounds/<int:number>/", views_public.round_pairings, name="round_pairings"),
    path("t/<slug:slug>/bracket/", views_bracket.bracket, name="bracket"),
    path("t/<slug:slug>/standings/", views_public.standings, name="standings"),
    path("t/<slug:slug>/players/<int:entry_id>/", views_public.player, name="player"),
]
