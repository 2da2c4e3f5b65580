"""The API's paginations, strict about their parameters: junk `page`, `page_size` or `cursor` is a 400
(`request.invalid_parameter`), never silently replaced by a default (DRF's habit) nor a 404."""

from __future__ import annotations

import base64
from typing import Any

from django.core.paginator import Paginator
from django.utils.translation import gettext_noop as N_
from rest_framework import pagination
from rest_framework.exceptions import NotFound
from rest_framework.request import Request

from api.params import MAX_POSITIVE, InvalidParameter, positive_int_param


def _query(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    # An empty value is no value (api.params), which OpenAPI says with `allowEmptyValue`.
    return {
        "name": name,
        "required": False,
        "in": "query",
        "description": description,
        "schema": schema,
        "allowEmptyValue": True,
    }


class _StrictPageSize:
    page_size: int | None
    page_size_query_param: str | None
    max_page_size: int | None

    def get_page_size(self, request: Request) -> int | None:
        if not self.page_size_query_param:
            return self.page_size
        size = positive_int_param(request, self.page_size_query_param, maximum=self.max_page_size)
        return size if size is not None else self.page_size

    def page_size_parameter(self, description: str) -> dict[str, Any]:
        assert self.page_size_query_param is not None and self.max_page_size is not None
        return _query(
            self.page_size_query_param,
            description,
            {"type": "integer", "minimum": 1, "maximum": self.max_page_size},
        )


class PageNumberPagination(_StrictPageSize, pagination.PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 500
    page_query_description = "A page number (from 1, or `last`); a page past the end is 404."
    page_size_query_description = "Results per page, 1 to 500."

    def get_page_number(self, request: Request, paginator: Paginator[Any]) -> Any:
        if request.query_params.get(self.page_query_param) in self.last_page_strings:
            return paginator.num_pages
        # A well-formed page past the end stays DRF's 404: that page does not exist.
        return positive_int_param(request, self.page_query_param) or 1

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        page = {
            "oneOf": [
                {"type": "integer", "minimum": 1, "maximum": MAX_POSITIVE},
                {"type": "string", "enum": list(self.last_page_strings)},
            ]
        }
        return [
            _query(self.page_query_param, str(self.page_query_description), page),
            self.page_size_parameter(str(self.page_size_query_description)),
        ]


class CursorPagination(_StrictPageSize, pagination.CursorPagination):
    """For append-only streams (statements, transfers): stable under concurrent inserts."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000
    ordering = "id"
    page_size_query_description = "Results per page, 1 to 1000 (default 100)."

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return [
            _query(self.cursor_query_param, str(self.cursor_query_description), {"type": "string"}),
            self.page_size_parameter(str(self.page_size_query_description)),
        ]

    def decode_cursor(self, request: Request) -> pagination.Cursor | None:
        invalid = InvalidParameter(self.cursor_query_param, N_("The cursor is invalid."))
        encoded = request.query_params.get(self.cursor_query_param)
        try:
            # DRF's decoding skips characters outside the alphabet, so `%%%` would read as the first page.
            if encoded is not None:
                base64.b64decode(encoded.encode("ascii"), validate=True)
            return super().decode_cursor(request)
        except (NotFound, ValueError):  # binascii.Error and UnicodeError are ValueErrors
            raise invalid from None
