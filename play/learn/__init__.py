"""How-to-play pages' illustrations: scripted rounds on stacked decks through the real engine (no Django)."""

from .frames import LEARNER, Frame, MeldView, Script, Step, frames_of, run
from .scripts import SCRIPTS, frames

__all__ = ["LEARNER", "SCRIPTS", "Frame", "MeldView", "Script", "Step", "frames", "frames_of", "run"]
