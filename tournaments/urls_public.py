from __future__ import annotations

from django.urls import path

from . import views_bracket, views_downloads, views_public

urlpatterns = [
    path("t/<slug:slug>/", views_public.tournament, name="tournament"),
    path("t/<slug:slug>/rounds/<int:number>/", views_public.round_pairings, name="round_pairings"),
    path("t/<slug:slug>/bracket/", views_bracket.bracket, name="bracket"),
    path("t/<slug:slug>/standings/", views_public.standings, name="standings"),
    path("t/<slug:slug>/players/<int:entry_id>/", views_public.player, name="player"),
    path("t/<slug:slug>/standings.csv", views_downloads.standings_csv, name="standings_csv"),
    path("t/<slug:slug>/results.csv", views_downloads.results_csv, name="results_csv"),
    path("t/<slug:slug>/standings.pdf", views_downloads.standings_pdf, name="standings_pdf"),
    path(
        "t/<slug:slug>/rounds/<int:number>/pairings.pdf",
        views_downloads.pairings_pdf,
        name="pairings_pdf",
    ),
    path(
        "t/<slug:slug>/rounds/<int:number>/slips.pdf", views_downloads.slips_pdf, name="slips_pdf"
    ),
]
