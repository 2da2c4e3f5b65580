from csp.decorators import csp_update
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import JavaScriptCatalog, set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from api.machine import read_only_endpoint
from operations.health import health, ready
from operations.views import metrics
from play.views import LandingView, favicon

REDOC_LOGO_HOST = "https://cdn.redoc.ly"

api_v1: list[URLPattern | URLResolver] = [
    path("", include("accounts.urls")),
    path("", include("ledger.urls")),
    path("", include("tournaments.urls")),
    path("", include("integrity.urls")),
    path("", include("ratings.urls")),
    path("", include("chat.urls")),
    path("", include("notifications.urls")),
    path("", include("responsible.limits.urls")),
    path("", include("responsible.sessions.urls")),
    path("", include("responsible.breaks.urls")),
    path("", include("responsible.verification.urls")),
]

urlpatterns = [
    path("", LandingView.as_view(), name="landing"),
    path("favicon.ico", favicon, name="favicon"),
    path("play/", include("play.urls")),
    path("audit/", include("audit.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script from a URL of its own: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    # ReDoc from the sidecar's static bundle, in a page of our own (drf-spectacular's loads Google Fonts).
    # The bundle hard-codes its footer logo's URL: that one image may come from Redocly's CDN (offline
    # it is simply missing); every script is still ours.
    path(
        "api/redoc/",
        csp_update({"img-src": [REDOC_LOGO_HOST]})(
            SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html")
        ),
        name="redoc",
    ),
    # The language switch (POST, remembered in a cookie) and the JavaScript catalog the player client reads.
    # Without a CSRF token: a forged post could only change a browser's language, and a token would make the
    # player client's shell differ per visitor (it is the same bytes for everyone; docs/web.md, "Languages").
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    # The machine endpoints answer GET and HEAD, and any other method the envelope's 405 before a CSRF check
    # could answer Django's HTML page (api/machine.py).
    path("jsi18n/", read_only_endpoint(JavaScriptCatalog.as_view()), name="javascript-catalog"),
    path("health/", read_only_endpoint(health), name="health"),
    path("ready/", read_only_endpoint(ready), name="ready"),
    # Prometheus' scrape: loopback (RAMINO_METRICS_NETWORKS) or the token only (docs/operations.md, "Metrics");
    # it checks who asks before the method (a client it does not serve gets 404 whatever it sends).
    path("metrics", csrf_exempt(metrics), name="metrics"),
]

handler400 = "api.errors.bad_request"
handler403 = "api.errors.permission_denied"
handler404 = "api.errors.not_found"
handler500 = "api.errors.server_error"
