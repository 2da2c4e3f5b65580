"""A round's life: dealt (`start`), advanced after every change (`advance`), ended and settled (`end`), the
game between rounds (`between`), instant rounds for simulations (`instant`), and finished rounds read back
(`history`, `replays`)."""
