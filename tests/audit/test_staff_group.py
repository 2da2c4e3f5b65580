"""The staff group: view permissions only, kept by every migrate; the demo staff login sees the ledger and
the tables in the admin (read-only) and opens the audit pages."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client

from audit.services import STAFF_GROUP, ensure_staff_group

pytestmark = pytest.mark.django_db


def test_the_staff_group_holds_view_permissions_only() -> None:
    group = ensure_staff_group()
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {
        "view_transfer",
        "view_account",
        "view_entry",
        "view_table",
        "view_round",
        "view_seat",
    } <= codenames
    assert all(name.startswith("view_") for name in codenames)
    # a permission granted by hand is taken back
    from django.contrib.auth.models import Permission

    group.permissions.add(Permission.objects.get(codename="change_table"))
    assert "change_table" not in set(ensure_staff_group().permissions.values_list("codename", flat=True))


def test_migrate_creates_the_group() -> None:
    Group.objects.filter(name=STAFF_GROUP).delete()
    call_command("migrate", verbosity=0, stdout=io.StringIO())
    assert Group.objects.get(name=STAFF_GROUP).permissions.exists()


def test_the_demo_staff_login_sees_the_ledger_and_the_audit_pages() -> None:
    call_command("load_demo", stdout=io.StringIO())
    staff = get_user_model().objects.get(username="staff")
    assert staff.groups.filter(name=STAFF_GROUP).exists()
    browser = Client()
    assert browser.login(username="staff", password="staff-pass-123")
    index = browser.get("/admin/").content.decode()
    assert "have permission to view or edit anything" not in index
    for path in ("/admin/ledger/transfer/", "/admin/ledger/account/", "/admin/tournaments/table/", "/audit/"):
        assert browser.get(path).status_code == 200, path
    # read-only: no add button, no change form, no adjustment
    assert (
        'href="/admin/tournaments/table/add/"'
        not in browser.get("/admin/tournaments/table/").content.decode()
    )
    assert browser.get("/admin/tournaments/table/add/").status_code == 403
    # the admin's "View site" leads to the landing page
    assert 'href="/"' in index and "View site" in index
