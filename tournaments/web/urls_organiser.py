"""Organiser pages; every view checks a ``permissions.access_*`` gate."""

from __future__ import annotations

from django.urls import path, re_path

from tournaments.web import views_organiser as v

T = "t/<slug:slug>/"
R = T + "rounds/<int:number>/"
RR = r"^t/(?P<slug>[-a-zA-Z0-9_]+)/rounds/(?P<number>[0-9]+)/"

urlpatterns = [
    path("organisers/", v.organiser_roles, name="organiser_roles"),
    path("organisers/grant/", v.grant_organiser_role, name="organiser_grant_role"),
    path("organisers/<int:user_id>/revoke/", v.revoke_organiser_role, name="organiser_revoke_role"),
    path("t/new/", v.new_tournament, name="organiser_new"),
    path(T, v.dashboard, name="organiser_dashboard"),
    path(T + "settings/", v.tournament_settings, name="organiser_settings"),
    path(T + "settings/tiebreaks/", v.tiebreak_order, name="organiser_tiebreaks"),
    path(T + "close/", v.close, name="organiser_close"),
    path(T + "players/add/", v.add_player, name="organiser_add_player"),
    path(T + "players/upload/", v.upload_players, name="organiser_upload_players"),
    path(T + "players/<int:entry_id>/check-in/", v.check_in, name="organiser_check_in"),
    path(T + "players/<int:entry_id>/withdraw/", v.withdraw, name="organiser_withdraw"),
    path(T + "forbidden/", v.forbid_pair, name="organiser_forbid_pair"),
    path(T + "referees/", v.appoint_referee, name="organiser_appoint_referee"),
    path(T + "referees/<int:user_id>/remove/", v.remove_referee, name="organiser_remove_referee"),
    path(T + "co-organisers/", v.appoint_co_organiser, name="organiser_appoint_co_organiser"),
    path(
        T + "co-organisers/<int:user_id>/remove/",
        v.remove_co_organiser,
        name="organiser_remove_co_organiser",
    ),
    path(T + "rounds/generate/", v.generate_round, name="organiser_generate_round"),
    path(R, v.round_detail, name="organiser_round"),
    path(R + "swap/", v.round_swap, name="organiser_round_swap"),
    path(R + "bye/", v.round_bye, name="organiser_round_bye"),
    re_path(
        RR + r"(?P<action>publish|unpublish|discard)/$",
        v.round_action,
        name="organiser_round_action",
    ),
    re_path(RR + r"print/(?P<kind>pairings|slips)/$", v.round_print, name="organiser_round_print"),
]
