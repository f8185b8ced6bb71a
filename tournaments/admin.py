"""Django admin for the tournament models: a back door for organisers' mistakes.

Result versions are read-only here: a correction is a new version made through the
result workflow (tournaments/results/), never an edit.
"""

from __future__ import annotations

from django.contrib import admin

from tournaments.models.entries import ForbiddenPair
from tournaments.models.imports import ArchiveImport
from tournaments.models.people import Player, PlayerClaim
from tournaments.models.results import ResultVersion
from tournaments.models.rounds import Match, Round
from tournaments.models.tournament import Entry, Tournament
from tournaments.views_admin import mark_rated


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "country", "rating", "user"]
    search_fields = ["name", "club"]
    # What a free-text country that named no country held (migration 0021).
    readonly_fields = ["country_as_typed"]


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

    def get_readonly_fields(self, request, obj=None):
        # A copy is never rated (``Tournament.copy_never_rated``): its box is not offered.
        shown = ["imported", "copy_of", "fingerprint"]
        return [*shown, "rated"] if obj is not None and obj.is_copy else shown


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "published_at"]
    list_filter = ["status"]


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
