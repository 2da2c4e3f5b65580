"""What a ticket is a ticket to: a tournament (`ticket:tournament:<id>`) or the next tournament created from a
recurring template (`ticket:template:<id>`), and its face value (that tournament's `buy_in + fee`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ledger.models import ticket_chip_type
from tournaments.tournament.models import Tournament, TournamentStatus, TournamentTemplate

OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
_CHIP_TYPE = re.compile(r"ticket:(tournament|template):(\d+)")


@dataclass(frozen=True)
class Target:
    chip_type: str
    face_value: int
    name: str
    tournament_id: int | None = None
    template_id: int | None = None


def tournament_chip_type(tournament_id: int) -> str:
    return ticket_chip_type(f"tournament:{tournament_id}")


def template_chip_type(template_id: int) -> str:
    return ticket_chip_type(f"template:{template_id}")


def template_face_value(template: TournamentTemplate) -> int:
    settings: dict[str, Any] = template.tournament_settings or {}
    return int(settings.get("buy_in") or 0) + int(settings.get("fee") or 0)


def of_tournament(tournament: Tournament) -> Target:
    return Target(
        chip_type=tournament_chip_type(tournament.pk),
        face_value=tournament.buy_in + tournament.fee,
        name=tournament.name,
        tournament_id=tournament.pk,
    )


def of_template(template: TournamentTemplate) -> Target:
    return Target(
        chip_type=template_chip_type(template.pk),
        face_value=template_face_value(template),
        name=template.name,
        template_id=template.pk,
    )


def accepted_by(tournament: Tournament) -> list[str]:
    """The ticket chip types that pay an entry into `tournament`: its own, then its template's."""
    chip_types = [tournament_chip_type(tournament.pk)]
    if tournament.template_id is not None:
        chip_types.append(template_chip_type(tournament.template_id))
    return chip_types


def satellite_target(tournament: Tournament) -> Target | None:
    """A satellite's target (None: not a satellite)."""
    if tournament.satellite_target_id is not None:
        return of_tournament(Tournament.objects.get(pk=tournament.satellite_target_id))
    if tournament.satellite_template_id is not None:
        return of_template(TournamentTemplate.objects.get(pk=tournament.satellite_template_id))
    return None


def parse(chip_type: str) -> tuple[str, int] | None:
    """("tournament" | "template", id) of a ticket chip type; None for any other chip type."""
    found = _CHIP_TYPE.fullmatch(chip_type)
    return (found.group(1), int(found.group(2))) if found else None


def target_named(chip_type: str) -> Target | None:
    """The target a ticket chip type names, if it exists."""
    parsed = parse(chip_type)
    if parsed is None:
        return None
    what, pk = parsed
    if what == "tournament":
        tournament = Tournament.objects.filter(pk=pk).first()
        return of_tournament(tournament) if tournament else None
    template = TournamentTemplate.objects.filter(pk=pk).first()
    return of_template(template) if template else None
