"""The site's form renderer: every form and field is drawn by templates/forms/ (issue 22),
so a label, its help and its error sit in the same place on every page."""

from __future__ import annotations

from django.forms.renderers import TemplatesSetting


class SiteFormRenderer(TemplatesSetting):
    form_template_name = "forms/form.html"
    field_template_name = "forms/field.html"
