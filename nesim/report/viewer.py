"""A game viewer: one self-contained HTML page that steps through a game of a dataset.

``nesim replay DIR GAME_ID --html FILE`` regenerates the game, replays its decisions through the
reference engine with tracing on, and cuts the trace into steps: the start of each round, each
placement with what it did, each round's payday, and the final scores. Every step carries the
position after it (the Budget, the public row with the units standing on it, each player's money,
workers, hand, VP tokens and buildings), so the page only draws what it is given; the wording of
each step is the game log's (nesim/playlog.py), so the page and ``nesim replay`` say the same.
"""

from __future__ import annotations

import json
from pathlib import Path

from nesim.cards import CONSUMER, GameData
from nesim.playlog import EFFECT_EVENTS, card_name, effect_phrase, event_lines, placement_head

PAYDAY_EVENTS = {"hand_limit", "wages", "sell", "burnt_field_discarded"}


def _new_step(kind: str, ev: dict, state: dict | None, occupied: dict[int, list[int]]) -> dict:
    return {"kind": kind, "round": ev.get("round", 0), "seat": ev.get("seat"), "lines": [],
            "state": state, "occupied": {str(k): list(v) for k, v in occupied.items()}}


def viewer_steps(data: GameData, events: list[dict]) -> list[dict]:
    """The traced game's events as steps, each with its caption lines and the position after it."""
    steps: list[dict] = []
    state: dict | None = None
    occupied: dict[int, list[int]] = {}  # public row slot -> seats of the units placed there this round
    placing = False  # the last step is a placement whose effects are still arriving
    for ev in events:
        kind = ev["event"]
        if kind == "state":
            state = {k: ev[k] for k in ("budget", "row", "players")}
            if steps:
                steps[-1]["state"] = state
            placing = False
            continue
        if kind == "discard" and ev.get("purpose") == "hand_limit":
            kind = "hand_limit"  # the payday's first act, not an effect of the last placement
        if kind in EFFECT_EVENTS and placing:
            steps[-1]["effects"].append(effect_phrase(data, ev))
            continue
        placing = False
        if kind == "round":
            occupied = {}
        if kind == "place":
            if ev["public"]:
                occupied.setdefault(ev["slot"], []).append(ev["seat"])
            step = _new_step("place", ev, state, occupied)
            step["head"], step["effects"] = placement_head(data, ev).strip(), []
            steps.append(step)
            placing = True
            continue
        if kind in PAYDAY_EVENTS:
            occupied = {}  # payday takes every unit home
            if not steps or steps[-1]["kind"] != "payday" or steps[-1]["round"] != ev.get("round", 0):
                steps.append(_new_step("payday", ev, state, occupied))
            steps[-1]["lines"].extend(event_lines(data, ev))
            continue
        lines = list(event_lines(data, ev)) if kind not in EFFECT_EVENTS else [effect_phrase(data, ev)]
        if lines:
            step = _new_step(kind, ev, state, occupied)
            step["lines"] = lines
            if kind == "end":
                step["scores"] = ev["scores"]
            steps.append(step)
    for step in steps:
        if step["kind"] == "place":
            step["lines"] = [step.pop("head") + " " + "; ".join(step.pop("effects") or ["no effect"])]
    _fill_missing_states(steps)
    return steps


def _fill_missing_states(steps: list[dict]) -> None:
    """Steps before the first traced position (the setup) show the first one there is."""
    first = next((s["state"] for s in steps if s["state"] is not None), None)
    for s in steps:
        if s["state"] is None:
            s["state"] = first
        else:
            break


def card_names(data: GameData) -> dict[str, str]:
    keys = [b.key for b in data.buildings] + [c.key for c in data.common] + [CONSUMER]
    return {k: card_name(data, k) for k in keys}


def viewer_html(data: GameData, events: list[dict], title: str) -> str:
    """The page: the steps and card names as JSON inside one HTML file with its own CSS and script."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("nesim.report", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]))
    payload = {"title": title, "names": card_names(data), "steps": viewer_steps(data, events)}
    # "</" cannot end the script element early once written as "<\/" (same JSON value)
    blob = json.dumps(payload, separators=(",", ":")).replace("</", "<\\/")
    return env.get_template("viewer.html.j2").render(title=title,
                                                     payload=jinja2.utils.markupsafe.Markup(blob))


def write_viewer(path: str | Path, data: GameData, events: list[dict], title: str) -> None:
    """Writes the page whole or not at all (the report's own writer: a hidden temporary, renamed)."""
    from nesim.report.build import _write

    _write(Path(path), viewer_html(data, events, title), option="--html")
