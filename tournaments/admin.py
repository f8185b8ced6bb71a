"""Django admin for the tournament models: a back door for organisers' mistakes.

Result versions are read-only here: a correction is a new version made through the
result workflow (tournaments/results/), never an edit. A change saved or deleted here
bumps the state version of the tournaments whose public pages show it
(``tournaments.models.state_version``), in the admin's transaction; a bulk delete from a
list does not (those pages follow within ``page_cache.PAGE_CACHE_S``).
"""

from __future__ import annotations

from django.contrib import admin

from tournaments.models.entries import ForbiddenPair
from tournaments.models.imports import ArchiveImport
from tournaments.models.people import Player, PlayerClaim
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.state_version import (
    bump_state_version,
    bump_state_version_of_round,
    bump_tournaments_of_players,
)
from tournaments.models.tournament import Entry, Tournament
from tournaments.views_admin import mark_rated


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "country", "rating", "user"]
    search_fields = ["name", "club"]
    # What a free-text country that named no country held (migration 0021).
    readonly_fields = ["country_as_typed"]

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        bump_tournaments_of_players([form.instance.pk])


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "format", "variant", "status", "owner", "rated", "copy_of"]
    list_filter = ["format", "variant", "status"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["referees"]
    inlines = [EntryInline]
    actions = [mark_rated]

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)  # the entries too
        bump_state_version(form.instance.pk)

    def get_readonly_fields(self, request, obj=None):
        # A copy is never rated (``Tournament.copy_never_rated``): its box is not offered.
        shown = ["imported", "copy_of", "fingerprint"]
        return [*shown, "rated"] if obj is not None and obj.is_copy else shown


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "published_at"]
    list_filter = ["status"]

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        bump_state_version(form.instance.tournament_id)

    def delete_model(self, request, obj) -> None:
        bump_state_version(obj.tournament_id)
        super().delete_model(request, obj)


class ResultVersionInline(admin.TabularInline):
    model = ResultVersion
    fk_name = "match"
    extra = 0
    can_delete = False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "player_a", "player_b", "result_status"]
    list_filter = ["result_status"]
    list_select_related = ["round__tournament", "player_a__player", "player_b__player"]
    readonly_fields = ["confirmed_version", "lock_version", "result_status"]
    inlines = [ResultVersionInline]

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        bump_state_version_of_round(form.instance.round_id)

    def delete_model(self, request, obj) -> None:
        bump_state_version_of_round(obj.round_id)
        super().delete_model(request, obj)


admin.site.register(ForbiddenPair)
admin.site.register(PlayerClaim)


@admin.register(ArchiveImport)
class ArchiveImportAdmin(admin.ModelAdmin):
    """Archive uploads and their jobs, to look at (the uploader's page follows each one)."""

    list_display = ["pk", "file_name", "uploaded_by", "state", "step", "created_at", "tournament"]
    list_filter = ["state"]
    exclude = ["data"]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("data")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
