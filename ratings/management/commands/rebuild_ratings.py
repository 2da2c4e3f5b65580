"""`manage.py rebuild_ratings`: every rating recomputed from the recorded results (`--check` compares only)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings import services


class Command(BaseCommand):
    help = "Rebuild every rating and its history from the recorded results, in the order they were applied."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="Change nothing: replay the results and fail if any stored rating differs.",
        )

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        if check:
            wrong = services.differences()
            for d in wrong[:20]:
                self.stderr.write(f"player {d.player_id} {d.family}: stored {d.stored}, rebuilt {d.rebuilt}")
            if wrong:
                raise CommandError(f"{len(wrong)} ratings differ from a rebuild")
            self.stdout.write("every stored rating equals its rebuild")
            return
        replayed = services.rebuild()
        self.stdout.write(f"rebuilt the ratings from {replayed} results")
