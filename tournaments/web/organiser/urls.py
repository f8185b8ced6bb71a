"""Organiser pages; every view checks a ``permissions.access_*`` gate."""

from __future__ import annotations

from django.urls import path, re_path

from tournaments.web import views_downloads
from tournaments.web.organiser import (
    archive,
    dashboard,
    hall,
    links,
    players,
    rounds,
    staff,
    tournament_settings,
)

T = "t/<slug:slug>/"
R = T + "rounds/<int:number>/"
RR = r"^t/(?P<slug>[-a-zA-Z0-9_]+)/rounds/(?P<number>[0-9]+)/"

urlpatterns = [
    path("organisers/", staff.organiser_roles, name="organiser_roles"),
    path("organisers/grant/", staff.grant_organiser_role, name="organiser_grant_role"),
    path(
        "organisers/<int:user_id>/revoke/",
        staff.revoke_organiser_role,
        name="organiser_revoke_role",
    ),
    path("t/new/", dashboard.new_tournament, name="organiser_new"),
    path("import/", archive.upload_archive, name="organiser_import_archive"),
    path("import/<int:job_id>/", archive.archive_import, name="organiser_archive_import"),
    path(
        "import/<int:job_id>/resend/",
        archive.resend_archive_import,
        name="organiser_resend_archive_import",
    ),
    path(T, dashboard.dashboard, name="organiser_dashboard"),
    path(T + "settings/", tournament_settings.tournament_settings, name="organiser_settings"),
    path(T + "settings/tiebreaks/", tournament_settings.tiebreak_order, name="organiser_tiebreaks"),
    path(T + "close/", dashboard.close, name="organiser_close"),
    path(T + "hall/announcement/", hall.announcement, name="organiser_announcement"),
    path(T + "hall/timer/<str:action>/", hall.round_timer, name="organiser_round_timer"),
    path(T + "players/add/", players.add_player, name="organiser_add_player"),
    path(T + "players/add-bot/", players.add_bot, name="organiser_add_bot"),
    path(T + "players/upload/", players.upload_players, name="organiser_upload_players"),
    path(T + "players/reseed/", players.reseed, name="organiser_reseed"),
    path(T + "players/<int:entry_id>/edit/", players.edit_player, name="organiser_edit_player"),
    path(T + "players/<int:entry_id>/check-in/", players.check_in, name="organiser_check_in"),
    path(T + "players/<int:entry_id>/withdraw/", players.withdraw, name="organiser_withdraw"),
    path(
        T + "players/<int:entry_id>/revoke-link/",
        players.revoke_link,
        name="organiser_revoke_link",
    ),
    path(T + "links/", links.links_list, name="organiser_links"),
    path(T + "links/email/", links.email_links, name="organiser_email_links"),
    path(T + "archive.json", archive.download_archive, name="organiser_archive"),
    path(T + "player-cards.pdf", views_downloads.player_cards_pdf, name="player_cards_pdf"),
    path(T + "forbidden/", players.forbid_pair, name="organiser_forbid_pair"),
    path(T + "referees/", staff.appoint_referee, name="organiser_appoint_referee"),
    path(
        T + "referees/<int:user_id>/remove/", staff.remove_referee, name="organiser_remove_referee"
    ),
    path(T + "co-organisers/", staff.appoint_co_organiser, name="organiser_appoint_co_organiser"),
    path(
        T + "co-organisers/<int:user_id>/remove/",
        staff.remove_co_organiser,
        name="organiser_remove_co_organiser",
    ),
    path(T + "rounds/generate/", rounds.generate_round, name="organiser_generate_round"),
    path(R, rounds.round_detail, name="organiser_round"),
    path(R + "swap/", rounds.round_swap, name="organiser_round_swap"),
    path(R + "bye/", rounds.round_bye, name="organiser_round_bye"),
    re_path(
        RR + r"(?P<action>publish|unpublish|discard)/$",
        rounds.round_action,
        name="organiser_round_action",
    ),
    re_path(
        RR + r"print/(?P<kind>pairings|slips)/$", rounds.round_print, name="organiser_round_print"
    ),
]
