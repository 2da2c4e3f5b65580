"""Refusals other apps add to a new seat at a private table (a chat block: docs/rules.md "Chat"), and to coming
back to one's seat in a running tournament (a break: docs/rules.md "Responsible play").

The apps above live play register their guard when they are ready (`AppConfig.ready`), so live play calls them
without importing them: an arrow from live play up to chat would close a cycle between the apps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# A guard raises the API error that refuses the seat, or returns: (creator_id, user) -> None.
PrivateSeatGuard = Callable[..., None]
_private_seat_guards: list[PrivateSeatGuard] = []


def add_private_seat_guard(guard: PrivateSeatGuard) -> None:
    if guard not in _private_seat_guards:
        _private_seat_guards.append(guard)


def refuse_private_seat(*, creator_id: int | None, user: Any) -> None:
    """Each registered guard's refusal of `user`'s new seat at a private table `creator_id` created."""
    for guard in _private_seat_guards:
        guard(creator_id=creator_id, user=user)


# A guard raises the API error that refuses coming back to a tournament seat, or returns: (user) -> None.
ReturnGuard = Callable[..., None]
_return_guards: list[ReturnGuard] = []


def add_return_guard(guard: ReturnGuard) -> None:
    if guard not in _return_guards:
        _return_guards.append(guard)


def refuse_return(*, user: Any) -> None:
    """Each registered guard's refusal of `user` coming back to their seat in a running tournament."""
    for guard in _return_guards:
        guard(user=user)


# A hook answers the ids of the players `user` should not be seated with by "play now" (a block either way):
# (user) -> set of user ids. Play now never picks a table where one of them sits.
AvoidHook = Callable[..., set[int]]
_avoid_hooks: list[AvoidHook] = []


def add_avoid_hook(hook: AvoidHook) -> None:
    if hook not in _avoid_hooks:
        _avoid_hooks.append(hook)


def avoided_players(*, user: Any) -> set[int]:
    """Every registered hook's players `user` is kept apart from when the server picks a table."""
    out: set[int] = set()
    for hook in _avoid_hooks:
        out |= hook(user=user)
    return out
