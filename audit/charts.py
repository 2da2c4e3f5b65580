"""Server-rendered SVG charts for the audit pages: no script, no external file, so the strict CSP holds.

Each function takes plain values and returns markup (every label escaped) to place inline in a page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

GAIN = "#1e7b4f"
LOSS = "#c0392b"
LINE_COLOURS = ("#0b5cad", "#b8860b", "#6a3d9a", "#1e7b4f")
FONT = 'font-family="system-ui, sans-serif" font-size="12"'


def _svg(width: int, height: int, title: str, body: list[str], role: str) -> SafeString:
    # every piece is built from escaped values
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{escape(title)}" data-chart="{role}" {FONT}>'
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def step_chart(
    *, title: str, series: Mapping[str, Sequence[tuple[datetime, int]]], width: int = 760, height: int = 260
) -> SafeString:
    """Balances over time, one stepped line per series (a balance holds until the next entry)."""
    points = [point for values in series.values() for point in values]
    if not points:
        return _svg(width, 40, title, [f'<text x="8" y="24">{escape(title)}: no entries</text>'], "step")
    left, right, top, bottom = 70, width - 12, 34, height - 28
    t0 = min(t for t, _ in points).timestamp()
    t1 = max(t for t, _ in points).timestamp()
    # The axis spans the values (not from zero): a balance that moves by a few chips out of thousands
    # still shows its steps.
    low = min(v for _, v in points)
    high = max(v for _, v in points)
    pad = max(1, (high - low) // 10)
    low, high = low - pad, high + pad

    def x(at: datetime) -> float:
        return left + (right - left) * ((at.timestamp() - t0) / (t1 - t0) if t1 > t0 else 1.0)

    def y(value: int) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    body = [
        f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#8a969e"/>',
        f'<text x="{left - 6}" y="{y(high) + 4:.1f}" text-anchor="end">{high}</text>',
        f'<text x="{left - 6}" y="{y(low) + 4:.1f}" text-anchor="end">{low}</text>',
        f'<text x="{left}" y="{height - 8}">{min(t for t, _ in points):%Y-%m-%d %H:%M}</text>',
        f'<text x="{right}" y="{height - 8}" text-anchor="end">{max(t for t, _ in points):%Y-%m-%d %H:%M}</text>',
    ]
    legend_x = left
    for index, (name, values) in enumerate(series.items()):
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        path: list[str] = []
        previous: float | None = None
        for at, value in values:
            if previous is not None:
                path.append(f"{x(at):.1f},{previous:.1f}")
            previous = y(value)
            path.append(f"{x(at):.1f},{previous:.1f}")
        if values:
            path.append(f"{right:.1f},{previous:.1f}")
            last = values[-1][1]
            label = f"{name}: {last}"
            body.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(path)}"/>'
                f'<rect x="{legend_x}" y="8" width="12" height="12" fill="{colour}"/>'
                f'<text x="{legend_x + 16}" y="18" data-series="{escape(name)}" data-last="{last}">'
                f"{escape(label)}</text>"
            )
            legend_x += 16 + 8 * len(label) + 24
    return _svg(width, height, title, body, "step")


def bar_chart(*, title: str, rows: Sequence[tuple[str, int]], width: int = 760) -> SafeString:
    """Signed horizontal bars around a zero line: gains to the right, losses to the left (standings,
    a player's result per table)."""
    if not rows:
        return _svg(width, 40, title, [f'<text x="8" y="24">{escape(title)}: nothing yet</text>'], "bars")
    bar, gap, label_width = 20, 6, 160
    height = len(rows) * (bar + gap) + 12
    most = max(1, *(abs(value) for _, value in rows))
    has_negative = any(value < 0 for _, value in rows)
    # room for the value printed beside each bar, on the left too when a bar points left
    plot_left, plot_right = label_width + (56 if has_negative else 4), width - 56
    zero = (plot_left + plot_right) / 2 if has_negative else plot_left
    scale = (plot_right - plot_left) / (2 * most if has_negative else most)
    body = [f'<line x1="{zero:.1f}" y1="0" x2="{zero:.1f}" y2="{height}" stroke="#8a969e"/>']
    for index, (label, value) in enumerate(rows):
        top = 6 + index * (bar + gap)
        length = abs(value) * scale
        start = zero if value >= 0 else zero - length
        colour = GAIN if value >= 0 else LOSS
        text_x = zero + length + 4 if value >= 0 else zero - length - 4
        anchor = "start" if value >= 0 else "end"
        body.append(
            f'<text x="{label_width - 8}" y="{top + 15}" text-anchor="end">{escape(label)}</text>'
            f'<rect x="{start:.1f}" y="{top}" width="{max(length, 1):.1f}" height="{bar}" fill="{colour}"/>'
            f'<text x="{text_x:.1f}" y="{top + 15}" text-anchor="{anchor}" data-bar="{escape(label)}" '
            f'data-value="{value}">{value:+d}</text>'
        )
    return _svg(width, height, title, body, "bars")


def flow_matrix(*, title: str, players: Sequence[str], paid: Mapping[tuple[str, str], int]) -> SafeString:
    """Who paid whom: one row per payer, one column per payee, each cell the chips paid (shaded by size)."""
    if not paid:
        return _svg(480, 40, title, [f'<text x="8" y="24">{escape(title)}: no chips moved</text>'], "flow")
    cell, label = 72, 120
    width = label + cell * len(players) + 8
    height = 40 + cell // 2 * len(players) + 8
    row_height = cell // 2
    most = max(paid.values())
    body = [f'<text x="{label - 8}" y="16" text-anchor="end" fill="#5f6b73">paid \u2193 to \u2192</text>']
    for column, payee in enumerate(players):
        body.append(
            f'<text x="{label + column * cell + cell / 2:.0f}" y="32" text-anchor="middle">{escape(payee)}</text>'
        )
    for row, payer in enumerate(players):
        top = 40 + row * row_height
        body.append(f'<text x="{label - 8}" y="{top + 22}" text-anchor="end">{escape(payer)}</text>')
        for column, payee in enumerate(players):
            chips = paid.get((payer, payee), 0)
            opacity = 0.08 if chips == 0 else 0.2 + 0.8 * chips / most
            fill = "#e7ecef" if payer == payee else LOSS
            body.append(
                format_html(
                    '<rect x="{}" y="{}" width="{}" height="{}" fill="{}" fill-opacity="{}" stroke="#fff"/>'
                    '<text x="{}" y="{}" text-anchor="middle" data-from="{}" data-to="{}">{}</text>',
                    label + column * cell,
                    top,
                    cell,
                    row_height,
                    fill,
                    f"{opacity:.2f}",
                    label + column * cell + cell // 2,
                    top + 22,
                    payer,
                    payee,
                    chips if payer != payee else "",
                )
            )
    return _svg(width, height, title, body, "flow")
