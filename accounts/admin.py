"""The admin of accounts: users (with the look-alike username check), their profiles and
their personal access tokens (listed, never made here; an administrator may revoke one)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import views_tokens
from accounts.models import PersonalAccessToken, UserProfile
from accounts.usernames import validate_not_look_alike


@admin.register(UserProfile)
class UserProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "language", "is_bot"]
    list_filter = ["language", "is_bot"]
    search_fields = ["user__username"]
    # Set once by its owner (``play.bots.become_bot``), never turned off: shown, not edited.
    readonly_fields = ["is_bot", "became_bot_at"]


TOKEN_FIELDS: tuple[str, ...] = (
    "user",
    "name",
    "prefix",
    "scopes",
    "created_at",
    "last_used_at",
    "revoked_at",
)


@admin.register(PersonalAccessToken)
class PersonalAccessTokenAdmin(admin.ModelAdmin):
    # The hash is no use to anyone and the plain token is nowhere: the admin shows what the
    # owner's page shows, and a leaked token can be revoked here too.
    list_display = ["name", "user", "prefix", "scopes", "created_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "name", "prefix"]
    fields = readonly_fields = TOKEN_FIELDS
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:
        return False  # made by their owner only, on the account page (shown once)

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request, queryset) -> None:
        count = views_tokens.revoke_selected(queryset)
        self.message_user(request, gettext("Tokens revoked: %(n)d.") % {"n": count})


# The admin is the other place a username is chosen: it refuses look-alikes too.


class UserCreationFormRefusingLookAlikes(AdminUserCreationForm):
    def clean_username(self):
        username = super().clean_username()  # None when taken in another case (said so)
        if username:
            validate_not_look_alike(username)
        return username


class UserChangeFormRefusingLookAlikes(UserChangeForm):
    def clean_username(self):
        username = self.cleaned_data["username"]
        if username != self.instance.username:  # a rename; other edits keep the name
            validate_not_look_alike(username, exclude_pk=self.instance.pk)
        return username


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class UserAdmin(auth_admin.UserAdmin):
    add_form = UserCreationFormRefusingLookAlikes
    form = UserChangeFormRefusingLookAlikes
