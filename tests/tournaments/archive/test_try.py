import pytest
from django.utils import timezone
from tests.tournaments.archive.event import build_event
from tournaments.archive.document import build_document, dumps

pytestmark = pytest.mark.django_db


def test_try():
    e = build_event(6)
    doc = build_document(e.t, now=timezone.now())
    open("/tmp/arc_doc.json", "w").write(dumps(doc))
