"""A Redis cache that never takes a page down: Redis accelerates, it never gates.

``ResilientRedisCache`` is Django's ``RedisCache`` in which a Redis error (refused,
timed out, reset) is answered without Redis:

- ``OPTIONS["fallback"] = "miss"`` (the default cache): a read is a miss, a write is
  dropped, ``add`` answers "not added", ``incr`` raises ``ValueError`` as for a missing
  key. Callers compute what they would have cached; nothing is ever wrong, only slower.
- ``OPTIONS["fallback"] = "local"`` (the ``limits`` cache): every operation goes to a
  cache in this process's memory instead. Counters keep counting while Redis is down,
  per process, so a rate limit stays in force (looser by the number of web processes)
  rather than failing open or locking everyone out.

After an error Redis is left alone for ``RETRY_AFTER_S``, so a Redis that hangs costs a
request at most one socket timeout, not one per cache call. Keys written locally during
an outage are not copied back to Redis when it returns (a limit's window restarts).
"""

from __future__ import annotations

import functools
import logging
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_AFTER_S = 1.0
#: The socket timeouts of the cache's connections (seconds): a Redis that stops
#: answering costs a request this much once, then ``RETRY_AFTER_S`` of misses.
DEFAULT_TIMEOUTS = {"socket_connect_timeout": 0.25, "socket_timeout": 0.5}

# What each method answers without Redis in "miss" mode (``incr``/``decr`` raise).
_MISS: dict[str, Any] = {
    "get": lambda *a, default=None, **kw: a[1] if len(a) > 1 else default,
    "get_many": lambda *a, **kw: {},
    "has_key": lambda *a, **kw: False,
    "add": lambda *a, **kw: False,
    "set": lambda *a, **kw: None,
    "touch": lambda *a, **kw: False,
    "delete": lambda *a, **kw: False,
    "set_many": lambda keys, *a, **kw: list(keys),
    "delete_many": lambda *a, **kw: None,
    "clear": lambda *a, **kw: None,
}


def _missing(key, *args, **kwargs):
    raise ValueError(f"Key '{key}' not found")


class ResilientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = dict(params)
        options = {**DEFAULT_TIMEOUTS, **params.get("OPTIONS", {})}
        self.fallback_mode = options.pop("fallback", "miss")
        if self.fallback_mode not in {"miss", "local"}:
            raise ValueError(f"fallback must be 'miss' or 'local', not {self.fallback_mode!r}")
        params["OPTIONS"] = options
        super().__init__(server, params)
        self._local = LocMemCache(f"resilient-{id(self)}", params)
        self._down_until = 0.0
        # Instance attributes shadow RedisCache's methods with their guarded versions.
        for name in _GUARDED:
            setattr(self, name, self._guarded(name))

    @property
    def redis_down(self) -> bool:
        """True while Redis is being left alone after an error."""
        return time.monotonic() < self._down_until

    def _without_redis(self, name: str, args, kwargs):
        if self.fallback_mode == "local":
            return getattr(self._local, name)(*args, **kwargs)
        if name in {"incr", "decr"}:
            return _missing(*args, **kwargs)
        return _MISS[name](*args, **kwargs)

    def _guarded(self, name: str):
        method = getattr(RedisCache, name).__get__(self)

        @functools.wraps(method)
        def call(*args, **kwargs):
            if self.redis_down:
                return self._without_redis(name, args, kwargs)
            try:
                return method(*args, **kwargs)
            except RedisError as exc:
                if not self.redis_down:
                    log.warning("cache: Redis unavailable (%s); answering without it", exc)
                self._down_until = time.monotonic() + RETRY_AFTER_S
                return self._without_redis(name, args, kwargs)

        return call


_GUARDED = frozenset([*_MISS, "incr", "decr"])
