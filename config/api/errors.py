"""Django-level error pages in the API's envelope (for paths outside DRF views)."""

from django.http import HttpRequest, JsonResponse


def _envelope(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "details": {}}}, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _envelope("request.malformed", "Bad request.", 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _envelope("auth.forbidden", "You do not have permission to perform this action.", 403)


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _envelope("not_found", "Not found.", 404)


def server_error(request: HttpRequest) -> JsonResponse:
    return _envelope("server.error", "Internal server error.", 500)
