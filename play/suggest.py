"""Username suggestions for the challenge form's opponent field (``/play/users/?q=``).

Terminology and invariants:
- The *asker* is the logged-in user typing an opponent's name. The answer lists at most
  ``MAX_SUGGESTIONS`` usernames of *active* users other than the asker (the computer's
  user is inactive, so it is never offered: nobody can challenge it), the names that
  start with ``q`` first, then those that contain it, each group in alphabetical order (any case).
- ``q`` is checked before any query (``clean_query``): an empty ``q`` asks for nothing
  and gets no names; one longer than a username may be, or holding a NUL (PostgreSQL
  refuses it in any text), is a ``SuggestError`` with a message for the asker.
- Each request counts against ``LIMIT`` per ``WINDOW_S`` per asker (``thud_site.limits``),
  counted before the work, bad ones too: typing a name costs a request per pause, and a
  script walking the user list is cut off.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Case, IntegerField, Value, When
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from thud_site import limits

MAX_SUGGESTIONS = 10
SCOPE = "play-user-suggest"
LIMIT = 60
WINDOW_S = 60


class SuggestError(Exception):
    """A ``q`` that cannot be a part of a username; ``message`` says why."""

    def __init__(self, message) -> None:
        super().__init__(str(message))
        self.message = message


def _username_field() -> models.CharField:
    field = get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD)
    assert isinstance(field, models.CharField) and field.max_length is not None
    return field


def allowed(asker) -> bool:
    """Count one request by ``asker``; False beyond ``LIMIT`` in the window."""
    return limits.allow(SCOPE, str(asker.pk), limit=LIMIT, window_s=WINDOW_S)


def clean_query(q: str) -> str:
    """``q`` stripped; ``SuggestError`` for text no username can contain."""
    q = q.strip()
    longest = _username_field().max_length
    assert longest is not None
    if len(q) > longest:
        raise SuggestError(_("Type at most %(max)d characters of a username.") % {"max": longest})
    if "\x00" in q:
        raise SuggestError(_("A username cannot contain that character."))
    return q


def usernames(q: str, *, asker) -> list[str]:
    """Up to ``MAX_SUGGESTIONS`` active usernames containing ``q`` (a cleaned one), those
    starting with it first; never ``asker``'s. No names for an empty ``q``."""
    if not q:
        return []
    name = _username_field().name
    rows = (
        get_user_model()
        .objects.filter(is_active=True, **{f"{name}__icontains": q})
        .exclude(pk=asker.pk)
        .annotate(
            later=Case(
                When(**{f"{name}__istartswith": q}, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            )
        )
        .order_by("later", Lower(name), name)
        .values_list(name, flat=True)[:MAX_SUGGESTIONS]
    )
    return list(rows)
