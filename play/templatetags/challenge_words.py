"""``{% challenge_words challenge %}``: a challenge's line as the page's user reads it."""

from __future__ import annotations

from django import template

from play.wording import words_for

register = template.Library()


@register.simple_tag(takes_context=True)
def challenge_words(context, challenge) -> str:
    return words_for(challenge, reader=context["request"].user)
