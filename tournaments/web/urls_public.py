"""Public pages and downloads: a tournament, its rounds, bracket, standings, players,
statistics, crosstable and report, its CSV and PDF files (the score slips for referees)."""

from __future__ import annotations

from django.urls import path

from tournaments.web import (
    views_bracket,
    views_checkin_self,
    views_downloads,
    views_hall,
    views_public,
    views_ratings,
    views_reports,
)

urlpatterns = [
    path("t/<slug:slug>/", views_public.tournament, name="tournament"),
    path("t/<slug:slug>/check-in/", views_checkin_self.check_in_self, name="check_in_self"),
    path("t/<slug:slug>/skip-round/", views_checkin_self.skip_round_self, name="skip_round_self"),
    path("t/<slug:slug>/rounds/<int:number>/", views_public.round_pairings, name="round_pairings"),
    path("t/<slug:slug>/bracket/", views_bracket.bracket, name="bracket"),
    path("t/<slug:slug>/hall/", views_hall.hall, name="hall"),
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
    path(
        "t/<slug:slug>/rounds/<int:number>/table-cards.pdf",
        views_downloads.table_cards_pdf,
        name="table_cards_pdf",
    ),
    path("t/<slug:slug>/stats/", views_reports.tournament_stats, name="tournament_stats"),
    path("t/<slug:slug>/crosstable/", views_reports.crosstable, name="crosstable"),
    path("t/<slug:slug>/report/", views_reports.report, name="report"),
    path("stats/", views_reports.site_stats, name="site_stats"),
    path("players/<int:player_id>/stats/", views_reports.player_stats, name="player_stats"),
    path("ratings/", views_ratings.rating_list, name="ratings"),
    path("players/<int:player_id>/ratings/", views_ratings.player_ratings, name="player_ratings"),
    path("t/<slug:slug>/report.pdf", views_downloads.report_pdf, name="report_pdf"),
]
