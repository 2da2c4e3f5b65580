"""The pure planning of multi-table tournaments: seating plan, table sizes, levels, bust ranking. Plain values
in, plain values out: no database, no Django."""
