"""The tournament archive on the web: its organisers download it, anyone allowed to create
tournaments uploads one (``tournaments.archive``; README, "Run the event on a laptop,
publish it afterwards")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from thud_site.http import AuthedRequest
from tournaments.archive.document import build_document, dumps
from tournaments.archive.validation import ArchiveError, read_archive
from tournaments.archive.writer import import_archive
from tournaments.permissions.roles import can_create_tournament, can_organise
from tournaments.permissions.tournament_gates import access_tournament_for_organiser
from tournaments.web.forms_archive import ArchiveUploadForm


@login_required
@require_GET
def download_archive(request: AuthedRequest, slug: str) -> HttpResponse:
    """The whole tournament as one archive file, for its organisers only (it names every
    user who entered a result)."""
    t = access_tournament_for_organiser(request.user, slug)
    response = HttpResponse(
        dumps(build_document(t, now=timezone.now())), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{t.slug}-archive.json"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def upload_archive(request: AuthedRequest) -> HttpResponse:
    if not can_create_tournament(request.user):
        raise PermissionDenied
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            document = read_archive(form.cleaned_data["file"])
            t = import_archive(
                document, slug=form.cleaned_data["slug"], by=request.user, now=timezone.now()
            )
        except ArchiveError as exc:
            form.add_error("file", _("Nothing was imported: %(problem)s") % {"problem": exc})
        else:
            messages.success(request, _("Tournament %(name)s imported.") % {"name": t.name})
            if can_organise(request.user, t):
                return redirect(reverse("organiser_dashboard", args=[t.slug]))
            return redirect(reverse("tournament", args=[t.slug]))
    status = 400 if form.errors else 200
    return render(request, "tournaments/organiser_import.html", {"form": form}, status=status)
