"""The API's errors as RFC 9457 problem details: one shape for every refusal of ``/api/v1/``.

An answer is ``application/problem+json`` with ``type``, ``title``, ``status`` and
``detail`` (and ``errors``, the parameters that failed, for a 422). ``type`` is
``about:blank`` (RFC 9457 §4.2.1: the status says it all), so ``title`` is the status's
English phrase; ``detail`` is the message the old JSON API gave in ``error`` (in the
reader's language when the site translates it, like the old API's). Language-neutral
keys, as the rest of the API (DESIGN.md §7).
"""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from ninja import Schema

CONTENT_TYPE = "application/problem+json"


class Problem(Schema):
    """RFC 9457 problem details."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    #: For a 422: which parameter failed and why (pydantic's error list).
    errors: list[dict[str, Any]] | None = None


def problem(status: int, detail: str, *, errors: list[dict[str, Any]] | None = None) -> Problem:
    return Problem(title=HTTPStatus(status).phrase, status=status, detail=detail, errors=errors)


def problem_response(
    status: int, detail: str, *, errors: list[dict[str, Any]] | None = None
) -> HttpResponse:
    body = problem(status, detail, errors=errors).model_dump(exclude_none=True)
    return HttpResponse(
        json.dumps(body, cls=DjangoJSONEncoder), status=status, content_type=CONTENT_TYPE
    )


#: The refusals an operation documents: a missing object, bad parameters.
NOT_FOUND: dict[int, type[Problem]] = {404: Problem}
INVALID: dict[int, type[Problem]] = {422: Problem}
