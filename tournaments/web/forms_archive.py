"""The tournament archive's upload form (``organiser/archive.py``)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournaments.archive.jobs import too_large_message


class ArchiveUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Tournament archive (JSON file)"),
        help_text=_("A file downloaded with Download archive, here or on another installation."),
        error_messages={"required": _("Choose a tournament archive to upload.")},
    )
    slug = forms.SlugField(
        label=_("New address (optional)"),
        max_length=80,
        required=False,
        help_text=_("Leave empty to keep the archive's address."),
    )

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        # Refuse an oversized upload by its size, without reading it (the limit is what the
        # import job does in about a minute: settings.MAX_ARCHIVE_BYTES).
        if upload.size > settings.MAX_ARCHIVE_BYTES:
            raise forms.ValidationError(too_large_message())
        self.file_name = upload.name or ""
        return upload.read()
