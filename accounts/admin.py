"""The admin of accounts: users (with the look-alike username check) and their profiles."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from accounts.models import UserProfile
from accounts.usernames import validate_not_look_alike


@admin.register(UserProfile)
class UserProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "language"]
    list_filter = ["language"]
    search_fields = ["user__username"]


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
