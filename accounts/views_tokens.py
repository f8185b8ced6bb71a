"""The account's personal access tokens page: the list, a new token, revoking one.

The plain token is in the page answering the POST that made it and nowhere else: no
redirect (it would have to be kept in the session to be shown after), and the answer is
``no-store`` so the browser's history does not keep it either.
Revoking asks first (``data-confirm`` and the site's dialog add ``confirm=1``; without
JavaScript the POST answers a page asking the same question, whose button adds it).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts import tokens
from accounts.forms_tokens import TokenForm
from accounts.models import PersonalAccessToken
from thud_site.http import AuthedRequest

CONFIRM_FIELD = "confirm"


def revoke_question(token: PersonalAccessToken) -> str:
    return _(
        "Revoke the token “%(name)s” (%(prefix)s…)? Every program using it is refused "
        "from now on; this cannot be undone (make a new token instead)."
    ) % {"name": token.name, "prefix": token.prefix}


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def access_tokens(request: AuthedRequest) -> HttpResponse:
    form = TokenForm(request.POST if request.method == "POST" else None)
    new_token = None
    if request.method == "POST" and form.is_valid():
        try:
            new_token = tokens.make_token(
                request.user,
                name=form.cleaned_data["name"],
                scopes=form.cleaned_data["scopes"],
                now=timezone.now(),
            )
        except tokens.TokenError as error:
            form.add_error(None, str(error))
        else:
            form = TokenForm()  # empty, for the next one
    context = {
        "form": form,
        "new_token": new_token,
        "tokens": tokens.tokens_of(request.user),
        "live_max": tokens.LIVE_TOKENS_MAX,
    }
    return render(request, "registration/access_tokens.html", context)


@login_required
@require_POST
def revoke_access_token(request: AuthedRequest, token_id: int) -> HttpResponse:
    try:
        token = tokens.token_of(request.user, token_id)
    except tokens.NoSuchToken as error:
        raise Http404(str(error)) from error
    if request.POST.get(CONFIRM_FIELD) != "1":
        # Nothing done: the same question, on a page of its own (no JavaScript ran).
        context = {
            "question": revoke_question(token),
            "yes": _("Revoke the token"),
            "fields": [],
            "back": reverse("access_tokens"),
        }
        return render(request, "tournaments/confirm.html", context, status=400)
    try:
        tokens.revoke(request.user, token.pk, now=timezone.now())
    except tokens.TokenError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("The token “%(name)s” is revoked: it is refused from now on.") % {"name": token.name},
        )
    return redirect("access_tokens")


def revoke_selected(queryset) -> int:
    """The Django admin's action on tokens (``accounts.admin``), a view too: revoke every
    live token of ``queryset`` now (a leaked token); how many were."""
    return queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
