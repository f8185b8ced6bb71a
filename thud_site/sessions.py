"""The sessions of Django's database engine, read with a query compiled once per process.

Every signed-in request reads its session (a referee's press too, issue 44): the same row,
the same table and the same expiry as ``django.contrib.sessions.backends.db``, whose store
this is, read with :class:`~thud_site.prepared.Prepared`. The expiry is compared with the
database's clock (``Now()``), so the prepared query's one value is the session key.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db.models.functions import Now

from thud_site.prepared import TEXT_STAND_IN, Prepared

_LIVE_BY_KEY = Prepared(
    lambda key: Session.objects.filter(session_key=key, expire_date__gt=Now()),
    TEXT_STAND_IN,
)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        try:
            return _LIVE_BY_KEY.get(self.session_key)
        except Session.DoesNotExist:
            self._session_key = None
            return None
