"""``{% challenge_words challenge %}``: a challenge's line as the page's user reads it,
each name followed by its BOT mark (``play.templatetags.bot_mark``)."""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from play.templatetags.bot_mark import name_with_bot_mark
from play.wording import words_for

register = template.Library()

# Stand-ins for the names while the line is escaped: no translation holds a NUL.
_CHALLENGER, _OPPONENT = "\x00challenger\x00", "\x00opponent\x00"


@register.simple_tag(takes_context=True)
def challenge_words(context, challenge) -> SafeString:
    line = words_for(
        challenge,
        reader=context["request"].user,
        challenger_name=_CHALLENGER,
        opponent_name=_OPPONENT,
    )
    html = str(conditional_escape(line))
    html = html.replace(
        _CHALLENGER, str(conditional_escape(name_with_bot_mark(challenge.challenger)))
    )
    if challenge.opponent is not None:
        html = html.replace(
            _OPPONENT, str(conditional_escape(name_with_bot_mark(challenge.opponent)))
        )
    return mark_safe(html)  # the line escaped, then the names escaped with their marks
