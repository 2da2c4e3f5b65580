"""A tournament's format settings of this concern, checked (the one check, `setup.validate`, calls it): a
satellite's target (a tournament taking entries, with a face value, never the satellite itself nor one of its
own satellites: steps go one way) or a recurring template, and the `tickets_only` entry rule."""

from __future__ import annotations

from typing import Any

from tournaments.errors import InvalidRequest, PlayCode
from tournaments.tickets import targets
from tournaments.tournament.models import Tournament, TournamentTemplate

MAX_STEPS = 20


def _invalid(field_name: str, message: str) -> InvalidRequest:
    return InvalidRequest(message, code=PlayCode.TOURNAMENT_INVALID, details={"field": field_name})


def _id(field_name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _invalid(field_name, f"{field_name} must be the id of one.")
    return int(value)


def check(
    *, satellite_target: Any, satellite_template: Any, tickets_only: Any, own_id: int | None = None
) -> dict[str, Any]:
    """The fields as `Tournament` stores them, or 400 `tournament.invalid` naming the field."""
    target_id = _id("satellite_target", satellite_target)
    template_id = _id("satellite_template", satellite_template)
    if target_id is not None and template_id is not None:
        raise _invalid(
            "satellite_target", "A satellite has one target: a tournament or a recurring tournament."
        )
    if tickets_only is None:
        tickets_only = False
    if not isinstance(tickets_only, bool):
        raise _invalid("tickets_only", "tickets_only must be true or false.")
    if target_id is not None:
        target = Tournament.objects.filter(pk=target_id).first()
        if target is None or target.status in targets.OVER:
            raise _invalid("satellite_target", "The target must be a tournament still to be played.")
        if target.buy_in + target.fee <= 0:
            raise _invalid(
                "satellite_target", "The target must have a buy-in or a fee (a ticket's face value)."
            )
        _no_loop(target, own_id)
    if template_id is not None:
        template = TournamentTemplate.objects.filter(pk=template_id).first()
        if template is None:
            raise _invalid("satellite_template", "No such recurring tournament.")
        if targets.template_face_value(template) <= 0:
            raise _invalid(
                "satellite_template", "The target must have a buy-in or a fee (a ticket's face value)."
            )
    return {
        "satellite_target_id": target_id,
        "satellite_template_id": template_id,
        "tickets_only": tickets_only,
    }


def _no_loop(target: Tournament, own_id: int | None) -> None:
    step: Tournament | None = target
    for _ in range(MAX_STEPS):
        if step is None:
            return
        if own_id is not None and step.pk == own_id:
            raise _invalid("satellite_target", "A satellite cannot lead back to itself.")
        step = step.satellite_target
    raise _invalid("satellite_target", f"Steps go at most {MAX_STEPS} satellites deep.")
