"""Rate limits: count attempts per (scope, key) in a fixed window, in the ``limits`` cache.

Each attempt is counted *before* the work it guards, with one atomic increment, so
parallel attempts cannot all read "below the limit" and slip through together. The
window starts with the first attempt and ends ``window_s`` later.

The ``limits`` cache is Redis with a local fallback (``thud_site.cache``): while Redis is
down the counts go on in each web process's memory, so every limit still holds, per
process. That is the safe direction for both sides: nobody is locked out because Redis
is, and a flood is still cut off (at most the limit times the number of web processes).

Keys are hashed, so an address or an e-mail never appears in Redis in clear.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import caches


def _cache():
    return caches["limits"]


def _key(scope: str, key: str) -> str:
    digest = hashlib.sha256(f"{scope}|{key.strip().lower()}".encode()).hexdigest()
    return f"limit:{scope}:{digest}"


def count(scope: str, key: str, *, window_s: int) -> int:
    """Count one attempt and return the count in the current window, this one included."""
    cache, name = _cache(), _key(scope, key)
    cache.add(name, 0, window_s)  # opens the window; a no-op if one is open
    try:
        attempts = cache.incr(name)
    except ValueError:  # the window ended between add and incr: this attempt opens one
        cache.add(name, 0, window_s)
        attempts = cache.incr(name)
    if attempts == 1:
        # Redis's backend checks EXISTS, then INCR: if the key expired in between, INCR
        # recreates it without an expiry, and the key would never expire.
        cache.touch(name, window_s)
    return attempts


def allow(scope: str, key: str, *, limit: int, window_s: int) -> bool:
    """Count one attempt; False when it is beyond ``limit`` in the window."""
    return count(scope, key, window_s=window_s) <= limit


def forget(scope: str, key: str) -> None:
    """Close the window (e.g. a successful login forgets the failed attempts)."""
    _cache().delete(_key(scope, key))


@dataclass(frozen=True)
class Verdict:
    """One attempt's answer: allowed or not, and when the window ends (whole seconds, at
    least 1: what an HTTP ``Retry-After`` says)."""

    allowed: bool
    retry_after: int


def allow_in_window(scope: str, key: str, *, limit: int, window_s: int, now: datetime) -> Verdict:
    """Count one attempt in a fixed window aligned to the clock (``now`` divided by
    ``window_s``), and say whether it is within ``limit`` and when the window ends.

    Unlike ``allow``'s window, which starts with the first attempt and whose end the cache
    does not tell, this one's end follows from ``now``, so a refusal can say how long to
    wait. The price is a burst of up to twice the limit across a window's edge, which a
    per-minute limit of an API can afford.
    """
    stamp = now.timestamp()
    window = int(stamp // window_s)
    remaining = max(1, math.ceil((window + 1) * window_s - stamp))
    # The key names its window, so the count never outlives it (plus a second of slack).
    attempts = count(scope, f"{key}|{window}", window_s=remaining + 1)
    return Verdict(allowed=attempts <= limit, retry_after=remaining)
