"""Destructive actions ask first: the question each one asks, and the server's half of it.

The page's button carries the question in ``data-confirm``; the site's dialog
(``static/js/site.js``) adds ``confirm=1`` to the form when the organiser says yes. A POST
without it (no JavaScript, a script, a stale page) changes nothing and answers a page that
asks the same question, whose button posts the form again with ``confirm=1``.
The questions' texts are the templates' own (one translation each).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from thud_site.http import AuthedRequest

#: The form field the dialog (or the confirmation page) adds when the answer is yes.
CONFIRM_FIELD = "confirm"


def close_question() -> str:
    return _("Close the tournament? No further round can be paired and the standings become final.")


def discard_question(number: int) -> str:
    return _(
        "Discard the draft of round %(n)s? Its pairings are deleted; you can pair the round again."
    ) % {"n": number}


def withdraw_question(name: str) -> str:
    return _(
        "Withdraw %(name)s? They will not be paired in later rounds; their results so far stay."
    ) % {"name": name}


def revoke_question(name: str) -> str:
    return _(
        "Revoke the personal link of %(name)s? The old link stops working at once, "
        "wherever it was handed out (copied, printed on a card or a list, e-mailed); "
        "a new link replaces it (hand it out again)."
    ) % {"name": name}


def ask_first(request: AuthedRequest, question: str, yes: str, *, back: str) -> HttpResponse | None:
    """None when the POST carries the confirmation; else the question, and nothing done."""
    if request.POST.get(CONFIRM_FIELD) == "1":
        return None
    fields = [
        (k, v)
        for k, values in request.POST.lists()
        if k not in ("csrfmiddlewaretoken", CONFIRM_FIELD)
        for v in values
    ]
    context = {"question": question, "yes": yes, "fields": fields, "back": back}
    return render(request, "tournaments/confirm.html", context, status=400)
