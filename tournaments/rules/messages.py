"""The messages of the pure rules: English text, translated at the edge.

Terminology and invariants:
- A rule that refuses raises a :class:`RuleError` carrying its **message** (the English
  text, which is the translation catalogue's key, with ``%(name)s`` placeholders) and the
  **values** that fill it in. ``str()`` of the error is the English text, filled in.
- Pure code marks its messages with :func:`_` (the way ``gettext_noop`` does: the text is
  returned unchanged, and the catalogue's extraction finds it); the Django side translates
  the message and then fills it in (``tournaments.models.wording.say``).
- A value that is itself an English text to translate (a field's label) is named in
  ``texts``; every other value is shown as it is.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping


def _(message: str) -> str:
    """Mark ``message`` for the catalogue; it is translated where it is shown."""
    return message


class RuleError(ValueError):
    """A rule refused: ``message`` (English, a catalogue key) filled in with ``values``."""

    def __init__(
        self,
        message: str,
        values: Mapping[str, object] | None = None,
        *,
        field: str | None = None,
        texts: Collection[str] = (),
    ) -> None:
        self.message = message
        self.values: dict[str, object] = dict(values or {})
        #: The field the message is about (a form error's field), if any.
        self.field = field
        #: The names of the values that are English texts to translate too.
        self.texts = frozenset(texts)
        super().__init__(self.english())

    def english(self) -> str:
        """The message in English, filled in (``str()`` of the error)."""
        return self.message % self.values if self.values else self.message
