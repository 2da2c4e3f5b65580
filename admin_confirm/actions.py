"""Admin actions that move chips or end things (close a table, reverse a transfer) ask first: the action
answers a confirmation page listing what it will touch, and does its work only when that page is posted."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

CONFIRM_FIELD = "confirmed"


def confirmation(
    modeladmin: admin.ModelAdmin,  # type: ignore[type-arg]
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    title: Any,
    consequence: Any,
) -> TemplateResponse | None:
    """None once the admin has confirmed; until then the page that asks."""
    if request.POST.get(CONFIRM_FIELD) == "yes":
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "consequence": consequence,
        "objects": list(queryset),
        "action": action,
        "opts": modeladmin.model._meta,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "confirm_field": CONFIRM_FIELD,
    }
    return TemplateResponse(request, "admin/ramino/confirm_action.html", context)
