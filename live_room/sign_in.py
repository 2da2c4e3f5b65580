"""The live socket's sign-in clock (consumer.py): a socket that did not sign in in time is told so and closed (the
rest of a socket's periodic work is its process's sweep's, sweep.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils.translation import gettext_noop as N_

from api.errors import ApiCode, ServiceError
from live_room.topics import SocketRefusal

logger = logging.getLogger("live_room.consumer")

# The close code of a socket that did not sign in, or whose token no longer stands (4000-4999: the
# application's; 4401 reads as HTTP's 401).
CLOSE_UNAUTHENTICATED = 4401


class SignInClock:
    user: Any
    shut: bool
    opened_at: float
    _signed_in: asyncio.Event
    _ticker: asyncio.Task[None] | None

    if TYPE_CHECKING:

        async def _refuse(self, refusal: ServiceError, *, topic: str | None = None) -> None: ...
        async def close(self, code: int | None = None) -> None: ...

    async def _tick(self) -> None:
        """Closes a socket that did not sign in in time (the rest of a socket's periodic work is its process's
        sweep's, sweep.py)."""
        auth_deadline = self.opened_at + float(settings.RAMINO_SOCKET_AUTH_SECONDS)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._signed_in.wait(), max(0.0, auth_deadline - time.monotonic()))
            if self.user is None:
                await self._refuse(
                    SocketRefusal(
                        N_("Sign in first: send auth with the API token."), code=ApiCode.NOT_AUTHENTICATED
                    )
                )
                await self.close(code=CLOSE_UNAUTHENTICATED)
        except asyncio.CancelledError:
            raise
        except OSError:
            # The client left (uvicorn's ClientDisconnected): nothing to tell it; its disconnect cleans up.
            self.shut = True
        except Exception:
            logger.exception("live socket: the sign-in clock stopped; closing the socket")
            with contextlib.suppress(Exception):
                await self.close(code=1011)
        finally:
            self._ticker = None
