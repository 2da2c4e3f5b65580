"""The practice tables' task names (sent by name: services never import `tournaments.tasks`)."""

BOT_MOVE = "tournaments.practice_bot_move"
CLOSE_PRACTICE = "tournaments.close_practice"
PURGE_GUESTS = "tournaments.purge_guests"
