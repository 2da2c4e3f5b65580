"""The leaderboard's pages: page numbers without a count. A count of every established player would cost more
than the page itself at 100,000 players (docs/performance.md, "Leaderboard"); a page asks for one row more
than it shows to know whether another follows."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from api.pagination import PageNumberPagination
from api.params import MAX_POSITIVE, positive_int_param


class UncountedPageNumberPagination(PageNumberPagination):
    """`page` and `page_size` as everywhere (strict, 1 to 500); answers {next, previous, results}. The page is
    at most `max_page`, so that its rows' offset stays a 64-bit integer whatever the page size."""

    max_page = MAX_POSITIVE // PageNumberPagination.max_page_size

    number: int = 1
    size: int = 50
    has_next: bool = False

    def paginate_queryset(self, queryset: QuerySet[Any], request: Request, view: Any = None) -> list[Any]:
        self.request = request
        self.size = self.get_page_size(request) or 50
        self.number = positive_int_param(request, self.page_query_param, maximum=self.max_page) or 1
        offset = (self.number - 1) * self.size
        rows = list(queryset[offset : offset + self.size + 1])
        self.has_next = len(rows) > self.size
        return rows[: self.size]

    @property
    def first_index(self) -> int:
        """The 1-based position of the page's first row (a rank)."""
        return (self.number - 1) * self.size + 1

    def _url(self) -> str:
        assert self.request is not None
        return self.request.build_absolute_uri()

    def get_next_link(self) -> str | None:
        if not self.has_next:
            return None
        return replace_query_param(self._url(), self.page_query_param, self.number + 1)

    def get_previous_link(self) -> str | None:
        if self.number <= 1:
            return None
        url = self._url()
        if self.number == 2:
            return remove_query_param(url, self.page_query_param)
        return replace_query_param(url, self.page_query_param, self.number - 1)

    def get_paginated_response(self, data: Any) -> Response:
        return Response({"next": self.get_next_link(), "previous": self.get_previous_link(), "results": data})

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        full = super().get_paginated_response_schema(schema)
        full["properties"].pop("count", None)
        full["required"] = [name for name in full.get("required", []) if name != "count"]
        return full

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page}
                parameter["description"] = "A page number, from 1; a page past the end is empty."
        return parameters
