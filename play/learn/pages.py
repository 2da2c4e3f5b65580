"""What a how-to-play page shows (play/templates/play/learn.html): the game's rules (play/learn/words.py) and its
illustrations, each frame of play/learn/ turned into cards to draw, a caption and, at the end, the scores. Every
card and figure comes from the engine's frames; this module only puts them into words and boxes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from play.learn import LEARNER, Frame, frames
from play.learn.rules import GAMES
from play.learn.words import caption, card_face, player_name

PRESETS: tuple[str, ...] = tuple(GAMES)


def _marked(codes: Sequence[str], touched: Counter[str], *, from_end: bool = False) -> list[dict[str, Any]]:
    """The cards as faces, those the step touched marked (each touched card once; the pile's from its top)."""
    left = Counter(touched)
    faces: list[dict[str, Any]] = [dict(card_face(c), touched=False) for c in codes]
    for face in reversed(faces) if from_end else faces:
        if left[face["code"]] > 0:
            face["touched"] = True
            left[face["code"]] -= 1
    return faces


def _where(frame: Frame) -> str:
    """Where the step's cards lie afterwards: on the table, in the hand, or on the pile."""
    kind = (frame.move or {}).get("type")
    if kind in ("meld", "lay_off", "swap_joker"):
        return "melds"
    if kind == "draw":
        return "hand"
    if kind in ("discard", "close"):
        return "pile"
    return ""


def _scores(preset: str, frame: Frame) -> dict[str, Any]:
    """The round's result as a small table: what the engine's result says, for each player."""
    result = frame.view["result"]
    details = result["details"]
    players = [p["username"] for p in frame.view["players"]]
    if preset == "board":
        heads = [_("Player"), _("Closing hand"), _("Trump bonus"), _("Game points")]
        cells: list[list[Any]] = []
        for p in players:
            bonus = sum(b["points"] for b in result["bonuses"] if b["player"] == p)
            cells.append([player_name(p), result["scores"][p], bonus, result["game_points"][p]])
        return {"heads": heads, "rows": [{"cells": r, "hand": []} for r in cells], "hand_column": None}
    if preset.startswith("rummy500"):
        heads = [_("Player"), _("Cards placed"), _("Left in hand"), _("Score")]
        rows = [
            {
                "cells": [
                    player_name(p),
                    details["players"][p]["placed_value"],
                    -details["players"][p]["hand_value"],
                    result["scores"][p],
                ],
                "hand": [card_face(c) for c in details["players"][p]["hand"]],
            }
            for p in players
        ]
        return {"heads": heads, "rows": rows, "hand_column": 2}
    heads = [_("Player"), _("Left in hand"), _("Game points")]
    rows = [
        {
            "cells": [player_name(p), details["players"][p]["hand_value"], result["game_points"][p]],
            "hand": [card_face(c) for c in details["players"][p]["hand"]],
        }
        for p in players
    ]
    return {"heads": heads, "rows": rows, "hand_column": 1}


def frame_context(preset: str, number: int, frame: Frame) -> dict[str, Any]:
    where = _where(frame)
    touched = Counter(frame.touched)
    none: Counter[str] = Counter()
    melds = []
    for m in frame.melds:
        mine = frame.meld is None or frame.meld == m.id
        faces = _marked(m.cards, touched if where == "melds" and mine else none)
        for face, placer in zip(faces, m.placers, strict=True):
            face["placer"] = player_name(placer) if placer != m.owner else ""
        melds.append({"id": m.id, "owner": player_name(m.owner), "mine": m.owner == LEARNER, "cards": faces})
    trump = frame.view.get("trump")
    result = frame.view.get("result")
    groups = []  # Board Rummy's close: the 14 tiles as the engine read them (its best arrangement)
    if frame.key == "close" and result and "arrangement" in result["details"]:
        groups = [[card_face(t) for t in g] for g in result["details"]["arrangement"]["groups"]]
    return {
        "number": number,
        "key": frame.key,
        "caption": caption(preset, frame),
        "hand": _marked(frame.hand, touched if where == "hand" else none),
        "hand_count": len(frame.hand),
        "melds": melds,
        "groups": groups,
        "pile": _marked(frame.pile, touched if where == "pile" else none, from_end=True),
        "stock_count": frame.stock_count,
        "trump": card_face(trump) if trump else None,
        "tiles": preset == "board",
        "scores": _scores(preset, frame) if frame.view.get("result") and frame.key == "score" else None,
    }


def page(preset: str) -> dict[str, Any]:
    game = GAMES[preset]
    return {
        "preset": preset,
        "game_name": game["name"],
        "game_meta": game["meta"],
        "rules": [{"heading": h, "paragraphs": ps} for h, ps in game["rules"]],
        "frames": [frame_context(preset, i, f) for i, f in enumerate(frames(preset), start=1)],
        "other_games": [{"preset": p, "name": GAMES[p]["name"]} for p in PRESETS if p != preset],
        "has_demo": preset == "rummy500",
    }
