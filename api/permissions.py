"""Roles of docs/api.md "Authentication and roles", for every app's views: staff (`is_staff`) audit, admins
(`is_superuser`) configure."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request


class IsStaff(BasePermission):
    message = _("Only staff may do this.")

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)


class IsAdmin(BasePermission):
    message = _("Only admins may do this.")

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_superuser)
