"""The BOT mark after a bot account's name (``play.bots``): ``{{ user|bot_mark }}`` is the
mark alone ("" for a person, or no user), ``{{ user|name_with_bot_mark }}`` the username
followed by it. Load the users with ``select_related("…__profile")``: the mark then costs
no query (``play.bots.is_bot``)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from play.bots import is_bot

register = template.Library()


@register.filter
def bot_mark(user) -> str:
    if not is_bot(user):
        return ""
    return the_bot_mark()


@register.simple_tag
def the_bot_mark() -> SafeString:
    """The mark itself, for a page that knows already whose name it follows (the battle
    page's seats: ``{% casual_bot_sides %}``)."""
    return format_html(
        ' <abbr class="bot-mark" title="{}">BOT</abbr>',
        gettext("A program plays this account"),
    )


@register.filter
def name_with_bot_mark(user) -> SafeString | str:
    if user is None:
        return ""
    mark = bot_mark(user)
    if not mark:
        return user.get_username()
    return format_html("{}{}", user.get_username(), mark)
