from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 500


class CursorPagination(pagination.CursorPagination):
    """For append-only streams (events, statements, transfers): stable under concurrent inserts."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000
    ordering = "id"
