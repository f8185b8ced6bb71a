"""Pages of a list on a page that shows several: each list has its own query parameter.

``/play/`` shows the seeks (``?page=``), the challenges received (``?received=``) and
those made (``?made=``). A link to another page of one list keeps the others' pages,
and jumps to the list (``#anchor``). A missing, malformed or too-large number shows the
first or last page (``Paginator.get_page``), never an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

PAGE_SIZE = 20


@dataclass(frozen=True)
class Listing:
    page: Page
    previous_url: str | None
    next_url: str | None


def paginate(request: HttpRequest, rows, *, param: str, anchor: str) -> Listing:
    """The requested page of ``rows`` (a queryset: one COUNT and one sliced SELECT)."""
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get(param))

    def url(number: int) -> str:
        query = request.GET.copy()
        query[param] = str(number)
        return f"?{query.urlencode()}#{anchor}"

    return Listing(
        page=page,
        previous_url=url(page.previous_page_number()) if page.has_previous() else None,
        next_url=url(page.next_page_number()) if page.has_next() else None,
    )
