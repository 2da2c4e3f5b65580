"""Server-rendered SVG charts for the audit pages: no script, no external file, so the strict CSP holds.

Each function takes plain values and returns markup (every label escaped) to place inline in a page."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from django.utils import formats, timezone
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

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


def nice_ticks(low: float, high: float, count: int = 5) -> list[int]:
    """Round values spanning [low, high]: steps of 1, 2 or 5 times a power of ten, about `count` of them."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, count - 1)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    steps = (1, 2, 2.5, 5, 10) if magnitude >= 10 else (1, 2, 5, 10)
    step = next((m * magnitude for m in steps if m * magnitude >= raw), 10 * magnitude)
    step = max(1, int(step))
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(int(first), int(last) + 1, step))


TIME_STEPS = (
    (timedelta(seconds=1), "H:i:s"),
    (timedelta(seconds=5), "H:i:s"),
    (timedelta(seconds=15), "H:i:s"),
    (timedelta(seconds=30), "H:i:s"),
    (timedelta(minutes=1), "H:i"),
    (timedelta(minutes=5), "H:i"),
    (timedelta(minutes=15), "H:i"),
    (timedelta(hours=1), "H:i"),
    (timedelta(hours=3), "H:i"),
    (timedelta(hours=6), "j M H:i"),
    (timedelta(days=1), "j M"),
    (timedelta(days=7), "j M"),
    (timedelta(days=30), "M Y"),
    (timedelta(days=365), "Y"),
)


def time_ticks(start: datetime, end: datetime, count: int = 6) -> list[tuple[datetime, str]]:
    """Round moments between start and end (every minute, 5 minutes, ... a year), each with its label."""
    span = max(end - start, timedelta(seconds=1))
    step, fmt = next(((s, f) for s, f in TIME_STEPS if span / s <= count), TIME_STEPS[-1])
    start_local = timezone.localtime(start)
    seconds = step.total_seconds()
    epoch = start_local.timestamp()
    offset = start_local.utcoffset() or timedelta()
    first = math.ceil((epoch + offset.total_seconds()) / seconds) * seconds - offset.total_seconds()
    ticks: list[tuple[datetime, str]] = []
    at = datetime.fromtimestamp(first, tz=start_local.tzinfo)
    while at <= end and len(ticks) < 2 * count:
        ticks.append((at, formats.date_format(timezone.localtime(at), fmt)))
        at += step
    if not ticks:
        ticks.append((start, formats.date_format(start_local, "j M H:i")))
    return ticks


def _number(value: int) -> str:
    return formats.number_format(value, force_grouping=True)


def step_chart(
    *, title: str, series: Mapping[str, Sequence[tuple[datetime, int]]], width: int = 760, height: int = 280
) -> SafeString:
    """Balances over time, one stepped line per series (a balance holds until the next entry), on a value
    axis of round numbers (chips) and a time axis with ticks."""
    points = [point for values in series.values() for point in values]
    if not points:
        return _svg(
            width,
            40,
            title,
            [f'<text x="8" y="24">{escape(title)}: {escape(_("no entries"))}</text>'],
            "step",
        )
    left, right, top, bottom = 84, width - 16, 34, height - 48
    start = min(t for t, _v in points)
    end = max(t for t, _v in points)
    t0, t1 = start.timestamp(), end.timestamp()
    # The axis spans the values (not from zero): a balance that moves by a few chips out of thousands
    # still shows its steps.
    ticks = nice_ticks(min(v for _, v in points), max(v for _, v in points))
    low, high = ticks[0], ticks[-1]

    def x(at: datetime) -> float:
        return left + (right - left) * ((at.timestamp() - t0) / (t1 - t0) if t1 > t0 else 1.0)

    def y(value: int) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    body = [
        f'<g data-axis="value"><line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#8a969e"/>',
        f'<text x="14" y="{(top + bottom) / 2:.0f}" text-anchor="middle" transform="rotate(-90 14 '
        f'{(top + bottom) / 2:.0f})" fill="#5f6b73">{escape(_("chips"))}</text>',
    ]
    for tick in ticks:
        body.append(
            f'<line x1="{left - 4}" y1="{y(tick):.1f}" x2="{right}" y2="{y(tick):.1f}" stroke="#e3e8eb"/>'
            f'<text x="{left - 8}" y="{y(tick) + 4:.1f}" text-anchor="end" data-tick="{tick}">'
            f"{escape(_number(tick))}</text>"
        )
    body.append("</g>")
    body.append(
        f'<g data-axis="time"><line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#8a969e"/>'
        f'<text x="{(left + right) / 2:.0f}" y="{height - 6}" text-anchor="middle" fill="#5f6b73">'
        f"{escape(_('time'))}</text>"
    )
    for at, label in time_ticks(start, end):
        body.append(
            f'<line x1="{x(at):.1f}" y1="{bottom}" x2="{x(at):.1f}" y2="{bottom + 5}" stroke="#8a969e"/>'
            f'<text x="{x(at):.1f}" y="{bottom + 18}" text-anchor="middle" data-tick="{at.isoformat()}">'
            f"{escape(label)}</text>"
        )
    body.append("</g>")
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
            label = f"{name}: {_number(last)}"
            body.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(path)}"/>'
                f'<rect x="{legend_x}" y="8" width="12" height="12" fill="{colour}"/>'
                f'<text x="{legend_x + 16}" y="18" data-series="{escape(name)}" data-last="{last}">'
                f"{escape(label)}</text>"
            )
            legend_x += 16 + 7 * len(label) + 24
    return _svg(width, height, title, body, "step")


def bar_chart(*, title: str, rows: Sequence[tuple[str, int]], width: int = 760) -> SafeString:
    """Signed horizontal bars around a zero line: gains to the right, losses to the left (standings,
    a player's result per table), over a value axis of round numbers (chips)."""
    if not rows:
        return _svg(
            width,
            40,
            title,
            [f'<text x="8" y="24">{escape(title)}: {escape(_("nothing yet"))}</text>'],
            "bars",
        )
    bar, gap, label_width = 20, 6, 160
    plot_height = len(rows) * (bar + gap) + 6
    height = plot_height + 44
    most = max(1, *(abs(value) for _, value in rows))
    has_negative = any(value < 0 for _, value in rows)
    ticks = nice_ticks(-most if has_negative else 0, most, count=5 if has_negative else 4)
    span = max(abs(ticks[0]), abs(ticks[-1]))
    # room for the value printed beside each bar, on the left too when a bar points left
    plot_left, plot_right = label_width + (56 if has_negative else 4), width - 56
    zero = (plot_left + plot_right) / 2 if has_negative else plot_left
    scale = (plot_right - plot_left) / (2 * span if has_negative else span)
    body = [
        f'<g data-axis="value"><line x1="{plot_left}" y1="{plot_height}" x2="{plot_right}" y2="{plot_height}" stroke="#8a969e"/>'
    ]
    for tick in ticks:
        tx = zero + tick * scale
        if not plot_left - 0.5 <= tx <= plot_right + 0.5:
            continue
        body.append(
            f'<line x1="{tx:.1f}" y1="0" x2="{tx:.1f}" y2="{plot_height + 4}" stroke="#e3e8eb"/>'
            f'<text x="{tx:.1f}" y="{plot_height + 18}" text-anchor="middle" data-tick="{tick}">'
            f"{escape(_number(tick))}</text>"
        )
    body.append(
        f'<text x="{(plot_left + plot_right) / 2:.0f}" y="{height - 6}" text-anchor="middle" fill="#5f6b73">'
        f"{escape(_('chips'))}</text></g>"
    )
    body.append(
        f'<line x1="{zero:.1f}" y1="0" x2="{zero:.1f}" y2="{plot_height}" stroke="#8a969e" data-zero="1"/>'
    )
    for index, (label, value) in enumerate(rows):
        top = 6 + index * (bar + gap)
        length = abs(value) * scale
        start = zero if value >= 0 else zero - length
        colour = GAIN if value >= 0 else LOSS
        text_x = zero + length + 4 if value >= 0 else zero - length - 4
        anchor = "start" if value >= 0 else "end"
        shown = ("+" if value > 0 else "") + _number(value)
        body.append(
            f'<text x="{label_width - 8}" y="{top + 15}" text-anchor="end">{escape(label)}</text>'
            f'<rect x="{start:.1f}" y="{top}" width="{max(length, 1):.1f}" height="{bar}" fill="{colour}"/>'
            f'<text x="{text_x:.1f}" y="{top + 15}" text-anchor="{anchor}" data-bar="{escape(label)}" '
            f'data-value="{value}">{escape(shown)}</text>'
        )
    return _svg(width, height, title, body, "bars")


def flow_matrix(*, title: str, players: Sequence[str], paid: Mapping[tuple[str, str], int]) -> SafeString:
    """Who paid whom: one row per payer, one column per payee, each cell the chips paid (shaded by size)."""
    if not paid:
        return _svg(
            480,
            40,
            title,
            [f'<text x="8" y="24">{escape(title)}: {escape(_("no chips moved"))}</text>'],
            "flow",
        )
    cell, label = 72, 150
    width = label + cell * len(players) + 8
    height = 40 + cell // 2 * len(players) + 8
    row_height = cell // 2
    most = max(paid.values())
    corner = escape(_("paid ↓ to →"))
    body = [f'<text x="{label - 8}" y="16" text-anchor="end" fill="#5f6b73">{corner}</text>']
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
