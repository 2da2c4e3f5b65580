"""The how-to-play pages (/play/learn/<preset>/): their illustrations, scripted rounds on stacked decks through the
real engine (`frames.py`, `scripts.py`, `stacking.py`: no Django), and the pages' Django side: the rules
(`rules.py`), the pictures' words (`words.py`) and what a page shows (`pages.py`)."""

from .frames import LEARNER, Frame, MeldView, Script, Step, frames_of, run
from .scripts import SCRIPTS, frames

__all__ = ["LEARNER", "SCRIPTS", "Frame", "MeldView", "Script", "Step", "frames", "frames_of", "run"]
