"""Play sessions and reality checks (docs/rules.md "Responsible play"): seated stretches with no gap over 15 minutes,
read from the seats; every 15, 30 or 60 minutes the client shows time played and net result, and the player
acknowledges or leaves."""
