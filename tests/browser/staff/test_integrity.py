"""The integrity page in headless Chromium: a staff member reads a flag the daily job raised from simulated
chip dumping, follows its evidence, and dismisses it with a note, on a phone in Italian and on a desktop in
English; the page fits 390 px and axe-core finds nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone
from selenium.webdriver.support.ui import Select

from devtools import integrity_simulation as simulation
from integrity import services
from integrity.models import Flag
from tests.browser.conftest import DESKTOP, PHONE, Browser
from tests.integrity.writer import write_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "pw-for-tests-1"


def _sign_in(page: Browser, path: str, username: str) -> None:
    page.open(path)
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for(lambda: page.driver.current_url.endswith(path), message=f"back at {path}")


@pytest.fixture
def dumping_flag(db: None) -> Flag:
    sim = simulation.simulate_table(
        table_id=1, behaviour="dumping", players=["dora", "finn"], rounds=25, seed=4
    )
    write_table(sim)
    services.run_checks(now=timezone.now() + timedelta(minutes=5))
    return Flag.objects.get(kind="chip_dumping")


def test_staff_dismiss_a_flag_on_a_phone_in_italian(
    browser: Any, staff_user: Any, dumping_flag: Flag
) -> None:
    page: Browser = browser("staff-it", lang="it")
    page.resize(PHONE)
    _sign_in(page, "/audit/", staff_user.username)
    page.click("[data-role=integrity-link]")
    page.wait_present(f"#flag-{dumping_flag.pk}", "the flag's card")
    assert "Passaggio di fiches" in page.text(f"#flag-{dumping_flag.pk} h2")
    assert "Fiches nette" in page.text(f"#flag-{dumping_flag.pk} dl")
    page.assert_fits("integrity-it")
    page.assert_accessible("integrity-it")
    Select(page.find(f"#flag{dumping_flag.pk}-status")).select_by_value("dismissed")
    page.fill(f"#flag{dumping_flag.pk}-note", "amici che saldano una scommessa")
    page.click(f"#flag-{dumping_flag.pk} button[type=submit]")
    page.wait_for(lambda: "salvata" in page.text("[data-role=saved]"), message="the saved message")
    assert "Archiviata" in page.text(f"#flag-{dumping_flag.pk} .flag-meta")
    page.assert_fits("integrity-it-decided")
    page.assert_accessible("integrity-it-decided")
    dumping_flag.refresh_from_db()
    assert (dumping_flag.status, dumping_flag.note) == ("dismissed", "amici che saldano una scommessa")
    assert LogEntry.objects.filter(object_id=str(dumping_flag.pk), user=staff_user).exists()


def test_staff_follow_the_evidence_on_a_desktop(browser: Any, staff_user: Any, dumping_flag: Flag) -> None:
    page: Browser = browser("staff-en")
    page.resize(DESKTOP)
    _sign_in(page, "/audit/integrity/", staff_user.username)
    page.assert_fits("integrity-en")
    page.assert_accessible("integrity-en")
    first_round = dumping_flag.evidence["rounds"][0]
    page.click(f'#flag-{dumping_flag.pk} a[href="/audit/rounds/{first_round}/"]')
    page.wait_for(
        lambda: page.driver.current_url.endswith(f"/audit/rounds/{first_round}/"), message="the round"
    )
