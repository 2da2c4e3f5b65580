"""Who may enter a tournament (docs/rules.md "Entry rules"): a rating band in the game's family, newcomers only,
private tournaments joined with a code. The pure decision (`rules`), its settings (`options`), the check at
registration (`services`) and the join by code's view."""
