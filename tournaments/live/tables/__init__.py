"""Tables and seats: creating a table and its settings (with the clock options), sitting, joining and leaving,
freeing a seat, the guards other apps add to a seat, play now, the house grant's hold, and the table policy that
says what each kind of table decides."""
