"""How an organiser's POST answers: an htmx request gets the updated fragment with its
notes; the same POST without htmx gets the notes as flash messages and a redirect."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render

from thud_site.http import AuthedRequest

Notes = list[tuple[int, str]]


def form_errors(form: forms.BaseForm) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def respond(
    request: AuthedRequest,
    url: str,
    fragment: str,
    context: Callable[[], dict[str, Any]],
    notes: Notes,
) -> HttpResponse:
    """htmx: the updated fragment with its notes; otherwise flash the notes and redirect."""
    if request.htmx:
        return render(request, fragment, {**context(), "notes": notes})
    for level, text in notes:
        messages.add_message(request, level, text)
    return redirect(url)
