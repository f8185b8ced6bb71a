"""The tournament archive on the web: its organisers download it, anyone allowed to create
tournaments uploads one, and a worker imports it while the uploader watches the job's page
(``tournaments.archive``; README, "Run the event on a laptop, publish it afterwards")."""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from thud_site.http import AuthedRequest
from tournaments.archive.document import build_document, dumps
from tournaments.archive.jobs import TooLarge, is_stuck, queue_import, recent_imports, resend
from tournaments.permissions.roles import can_create_tournament, can_organise
from tournaments.permissions.tournament_gates import (
    access_archive_import,
    access_tournament_for_organiser,
)
from tournaments.tasks import publish_archive_import
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
    """Stores the file as a job and sends it to a worker: nothing is read here but its size."""
    if not can_create_tournament(request.user):
        raise PermissionDenied
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            job = queue_import(
                form.cleaned_data["file"],
                file_name=form.file_name,
                slug=form.cleaned_data["slug"],
                language=request.LANGUAGE_CODE,
                by=request.user,
                now=timezone.now(),
            )
        except TooLarge as exc:
            form.add_error("file", str(exc))
        else:
            transaction.on_commit(partial(publish_archive_import, job.pk))
            return redirect(reverse("organiser_archive_import", args=[job.pk]))
    status = 400 if form.errors else 200
    context = {
        "form": form,
        "imports": recent_imports(request.user),
        "max_bytes": settings.MAX_ARCHIVE_BYTES,
    }
    return render(request, "tournaments/organiser_import.html", context, status=status)


@login_required
@require_GET
def archive_import(request: AuthedRequest, job_id: int) -> HttpResponse:
    """The job's progress, refreshing itself until it is over; its uploader's only."""
    job = access_archive_import(request.user, job_id)
    template = "tournaments/organiser_import_job.html"
    context = {
        "job": job,
        "stuck": is_stuck(job, now=timezone.now()),
        "organises": job.tournament is not None and can_organise(request.user, job.tournament),
    }
    if request.htmx:
        template += "#import-job"
    response = render(request, template, context)
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def resend_archive_import(request: AuthedRequest, job_id: int) -> HttpResponse:
    """A stopped job sent to a worker again."""
    job = access_archive_import(request.user, job_id)
    if resend(job.pk, now=timezone.now()):
        transaction.on_commit(partial(publish_archive_import, job.pk))
    else:
        messages.info(request, _("This import has not stopped: it cannot be sent again."))
    return redirect(reverse("organiser_archive_import", args=[job.pk]))
