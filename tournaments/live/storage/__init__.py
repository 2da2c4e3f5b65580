"""A game's rows: the play lock and the seats changed under it (`locks`), the event log (`events`), the
hand-written reads (`rows`) and the redacted reads shared by the views and the admin (`selectors`)."""
