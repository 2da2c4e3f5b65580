"""Cursor pagination for statements and transfers, with an RFC 8288 Link header for CSV exports."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response

from api.pagination import CursorPagination


class LedgerCursorPagination(CursorPagination):
    """Stable under concurrent postings (the ledger only appends); 100 a page, `page_size` up to 1000."""

    def get_paginated_response(self, data: Any) -> Response:
        response = super().get_paginated_response(data)
        self.add_link_header(response)
        return response

    def add_link_header(self, response: Response) -> None:
        # A CSV body has no room for `next`; the header keeps an export walkable page by page.
        links = []
        if (next_link := self.get_next_link()) is not None:
            links.append(f'<{next_link}>; rel="next"')
        if (previous_link := self.get_previous_link()) is not None:
            links.append(f'<{previous_link}>; rel="prev"')
        if links:
            response["Link"] = ", ".join(links)


class NewestFirstCursorPagination(LedgerCursorPagination):
    """A player's history reads from the latest line back."""

    ordering = "-id"
    page_size = 50
    max_page_size = 500
