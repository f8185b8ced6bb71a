"""The tournament archive's upload form (``organiser/archive.py``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

#: An archive is text: a big event with every move of every battle is a few megabytes.
MAX_ARCHIVE_BYTES = 50 * 1024 * 1024


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
        # Refuse an oversized upload by its size, without reading it.
        if upload.size > MAX_ARCHIVE_BYTES:
            raise forms.ValidationError(
                _("The file is too large: at most %(megabytes)d MB.")
                % {"megabytes": MAX_ARCHIVE_BYTES // (1024 * 1024)}
            )
        return upload.read()
