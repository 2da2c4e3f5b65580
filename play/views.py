"""The browser pages. The landing page is for players: what Ramino is, the games and their short rules, Play, and
the next tournaments open for registration (read on the server from the tournaments' selector, for no one in
particular). The player client is a static shell: it learns everything through the public API with the
player's own token (docs/web.md), so its view reads nothing and knows no one."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.generic import TemplateView

from api.machine import csrf_refused, is_machine_path
from play.learn import pages as learn_pages
from tournaments.games import GAME_NAMES
from tournaments.tournament import selectors as tournament_selectors

# How many tournaments open for registration the landing page lists.
LANDING_TOURNAMENTS = 5

# A tournament's kind, as a person reads it (its game: tournaments.games; the lobby names both the same way).
KIND_NAMES = {
    "quick": _("Quick game"),
    "single": _("Sit-and-go"),
    "multi": _("Multi-table tournament"),
}


class LandingView(TemplateView):
    template_name = "play/landing.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        rows = tournament_selectors.open_for_registration(limit=LANDING_TOURNAMENTS)
        context["tournaments"] = [
            {
                "row": row,
                "game": GAME_NAMES.get(row.tournament.game, row.tournament.game),
                "kind": KIND_NAMES.get(row.tournament.kind, row.tournament.kind),
            }
            for row in rows
        ]
        return context


class ClientView(TemplateView):
    template_name = "play/client.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        # Where the client opens the live room's socket; empty: this site's /ws/v1/ (play/js/socket.js).
        context["socket_url"] = settings.RAMINO_SOCKET_URL
        return context


class ServiceWorkerView(TemplateView):
    """The service worker that shows Web Push notifications (/play/sw.js: at this path its scope is the whole
    player client). The same bytes for everyone; browsers check it for updates themselves."""

    template_name = "play/sw.js"
    content_type = "text/javascript; charset=utf-8"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["icon"] = static("play/favicon.svg")
        return context


def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest (/play/manifest.webmanifest, docs/web.md "Installing on a phone"): what a phone needs
    to put Ramino on its home screen and open it as an app (its name in the request's language, the icons
    `play/icons.py` draws, the player client as the start, standalone). Linked from every page's head."""
    icons = [
        {
            "src": static(f"play/icons/{name}"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for name, size, purpose in (
            ("icon-192.png", 192, "any"),
            ("icon-512.png", 512, "any"),
            ("maskable-512.png", 512, "maskable"),
        )
    ]
    body = {
        "name": "Ramino",
        "short_name": "Ramino",
        "description": str(_("Rummy online: ring tables, tournaments and practice against bots.")),
        "lang": get_language() or settings.LANGUAGE_CODE,
        "id": "/play/",
        "start_url": "/play/#/lobby",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#eef2f4",
        "theme_color": "#0f5132",
        "icons": icons,
        "categories": ["games"],
    }
    response = JsonResponse(
        body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    response["Vary"] = "Accept-Language, Cookie"
    return response


class LearnView(TemplateView):
    """How to play one preset (/play/learn/<preset>/): its rules in a few paragraphs and a round on a stacked deck,
    step by step, every picture the engine's own view of it (play/learn/). Server-rendered: it reads nothing of
    anyone, works without JavaScript and is the same page for every visitor in a language."""

    template_name = "play/learn.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        preset = kwargs["preset"]
        if preset not in learn_pages.PRESETS:
            raise Http404
        context.update(learn_pages.page(preset))
        return context


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """`CSRF_FAILURE_VIEW`: a form without its token (or with a stale one) gets a page of the site in the
    person's language (LocaleMiddleware runs before the CSRF check), never Django's own page; a machine endpoint
    gets the API's envelope (api.machine). 403 either way; `reason` (Django's, in English) is not shown."""
    if is_machine_path(request.path):
        return csrf_refused(request, reason)
    return render(request, "play/csrf_failure.html", status=403)


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """`/favicon.ico`, which browsers ask for on pages that name no icon (the Django admin's): the site's icon,
    the SVG every page of ours links (`play/base.html`). A temporary redirect, kept a day: the static file's
    name changes with its content in production."""
    return HttpResponseRedirect(static("play/favicon.svg"))
