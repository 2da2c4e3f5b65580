"""A block keeps the blocked player out of the private tables the blocker creates (docs/rules.md "Chat"):
`tournaments/live/tables.sit` asks here (through `seat_guards`, registered by `ChatConfig.ready`) before a new
seat at a private table; "play now" (`tournaments/live/tables/play_now.py`) never seats a player at a table where someone
they blocked, or who blocked them, sits (`blocked_either_way`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop as N_

from chat.errors import ChatCode, NotAllowed
from chat.models import Mute


def refuse_if_blocked(*, creator_id: int | None, user: Any) -> None:
    """403 `chat.blocked` when the private table's creator has blocked `user`."""
    if creator_id is None or creator_id == user.pk:
        return
    if Mute.objects.filter(owner_id=creator_id, target_id=user.pk, block=True).exists():
        raise NotAllowed(N_("The table's creator has blocked you."), code=ChatCode.BLOCKED)


def blocked_either_way(*, user: Any) -> set[int]:
    """The ids of the players `user` blocked and of those who blocked `user`."""
    if user is None or not getattr(user, "pk", None):
        return set()
    mine = Mute.objects.filter(owner_id=user.pk, block=True).values_list("target_id", flat=True)
    theirs = Mute.objects.filter(target_id=user.pk, block=True).values_list("owner_id", flat=True)
    return set(mine) | set(theirs)
