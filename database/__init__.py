"""Database code shared by the apps: JSON for columns read by hand (json.py) and the row helpers of the
hand-written hot paths (rows.py), what a transient fault is (faults.py). The engines are Django's own."""
