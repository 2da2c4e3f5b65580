"""Practice tables: one player against server bots, any preset, the same clocks and rules as a ring table, no
chips and no rating (docs/tables.md "Practice tables")."""
