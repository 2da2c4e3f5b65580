"""The SVG charts: well-formed markup with no script, labels escaped, the values in the picture."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from xml.etree import ElementTree

from audit import charts

SVG = "{http://www.w3.org/2000/svg}"


def _parse(markup: str) -> ElementTree.Element:
    root = ElementTree.fromstring(markup)
    assert root.tag == f"{SVG}svg"
    assert not list(root.iter(f"{SVG}script"))
    assert not any(name.startswith("on") for el in root.iter() for name in el.attrib)
    return root


def test_the_step_chart_draws_each_series_and_ends_at_its_last_value() -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    series = {
        "wallet": [(t0, 100), (t0 + timedelta(hours=1), 40)],
        "<all>": [(t0, 100), (t0 + timedelta(hours=2), 180)],
    }
    root = _parse(charts.step_chart(title="x & y", series=series))
    assert len(list(root.iter(f"{SVG}polyline"))) == 2
    labels = {
        el.get("data-series"): el.get("data-last") for el in root.iter(f"{SVG}text") if el.get("data-series")
    }
    assert labels == {"wallet": "40", "<all>": "180"}
    assert root.find(f"{SVG}title").text == "x & y"  # type: ignore[union-attr]
    assert "no entries" in charts.step_chart(title="t", series={"wallet": []})


def test_the_bar_chart_puts_losses_left_of_the_zero_line() -> None:
    root = _parse(charts.bar_chart(title="standings", rows=[("ann", 120), ("<b>", -80)]))
    bars = {
        el.get("data-bar"): int(el.get("data-value") or 0)
        for el in root.iter(f"{SVG}text")
        if el.get("data-bar")
    }
    assert bars == {"ann": 120, "<b>": -80}
    zero = float(next(el for el in root.iter(f"{SVG}line") if el.get("data-zero")).get("x1") or 0)
    rects = list(root.iter(f"{SVG}rect"))
    assert float(rects[0].get("x") or 0) == zero  # a gain starts at zero
    assert float(rects[1].get("x") or 0) + float(rects[1].get("width") or 0) == zero  # a loss ends there
    assert "nothing yet" in charts.bar_chart(title="t", rows=[])


def test_the_flow_matrix_has_a_cell_per_payer_and_payee() -> None:
    root = _parse(charts.flow_matrix(title="t", players=["ann", "bob"], paid={("ann", "bob"): 30}))
    cells = {
        (el.get("data-from"), el.get("data-to")): el.text or ""
        for el in root.iter(f"{SVG}text")
        if el.get("data-from")
    }
    assert cells == {("ann", "ann"): "", ("ann", "bob"): "30", ("bob", "ann"): "0", ("bob", "bob"): ""}
    assert "no chips moved" in charts.flow_matrix(title="t", players=["ann"], paid={})
