"""Turning a traced game's events into the readable log of ``nesim play`` and ``nesim replay``."""

from __future__ import annotations

import json
from typing import Iterable, Iterator

from nesim.cards import CONSUMER, GameData

# Events that belong to the placement before them and are printed on its line.
EFFECT_EVENTS = {"draw", "take_items", "income", "pay_budget", "vp", "hire", "discard", "paid",
                 "build", "design_office", "brewery", "doll", "start_player", "reshuffle"}


def card_name(data: GameData, key: str) -> str:
    if key == CONSUMER:
        return "consumer item"
    if data.is_building(key):
        return data.building(key).name
    return data.common_card(key).name


def _cards(data: GameData, keys: Iterable[str]) -> str:
    keys = list(keys)
    items = keys.count(CONSUMER)
    names = [card_name(data, k) for k in keys if k != CONSUMER]
    if items:
        names.append(f"{items} consumer item{'s' * (items != 1)}")
    return ", ".join(names) if names else "nothing"


def effect_phrase(data: GameData, ev: dict) -> str:
    kind = ev["event"]
    if kind == "draw":
        return f"draws {_cards(data, ev['cards'])}"
    if kind == "take_items":
        return f"takes {ev['count']} consumer item{'s' * (ev['count'] != 1)}"
    if kind == "income":
        return f"takes ${ev['amount']} from the Budget"
    if kind == "pay_budget":
        return f"returns ${ev['amount']} to the Budget"
    if kind == "vp":
        return f"takes {ev['count']} VP token{'s' * (ev['count'] != 1)}"
    if kind == "hire":
        return f"hires {ev['count']} worker{'s' * (ev['count'] != 1)}" + ("" if ev["ready"] else " (in training)")
    if kind == "discard":
        return f"discards {_cards(data, ev['cards'])}"
    if kind == "paid":
        return f"pays {_cards(data, ev['cards'])}" if ev["cards"] else "pays nothing"
    if kind == "build":
        return f"builds {card_name(data, ev['card'])}"
    if kind == "design_office":
        return f"reveals {_cards(data, ev['revealed'])}, keeps {card_name(data, ev['kept'])}"
    if kind == "brewery":
        return f"puts {ev['count']} consumer items on the Brewery for next round"
    if kind == "doll":
        return "gains a mechanical doll"
    if kind == "start_player":
        return "takes the start player marker"
    if kind == "reshuffle":
        return f"(the discard pile, {ev['cards']} cards, is shuffled into a new deck)"
    return kind


def placement_head(data: GameData, ev: dict) -> str:
    """The start of a placement's line; its effects' phrases follow it, joined by '; '."""
    where = "" if ev["public"] else " (own)"
    return f"  seat {ev['seat']} -> {card_name(data, ev['workplace'])}{where}: "


def _state_line(ev: dict) -> str:
    parts = [f"Budget ${ev['budget']}"]
    for p in ev["players"]:
        extra = f", {p['vp']} VP" if p["vp"] else ""
        extra += f", {p['dolls']} doll{'s' * (p['dolls'] != 1)}" if p["dolls"] else ""
        extra += f", {p['unpaid']} unpaid" if p["unpaid"] else ""
        parts.append(f"seat {p['seat']}: ${p['money']}, {p['hand']} cards, {p['workers']} workers, "
                     f"{len(p['buildings'])} buildings{extra}")
    return "    " + " | ".join(parts)


def text_lines(data: GameData, events: list[dict], title: str) -> Iterator[str]:
    """The game round by round: placements with their effects, payday, final scores."""
    yield title
    head: str | None = None  # the placement being described, with its effects gathered
    effects: list[str] = []
    previous = ""
    for ev in events:
        kind = ev["event"]
        if kind in EFFECT_EVENTS and head is not None:
            effects.append(effect_phrase(data, ev))
            continue
        if head is not None:
            yield head + "; ".join(effects or ["no effect"])
            head, effects = None, []
        if kind == "place":
            head = placement_head(data, ev)
        elif kind == "state" and previous in ("wages", "sell", "burnt_field_discarded"):
            yield _state_line(ev)  # the position after each payday
        else:
            yield from event_lines(data, ev)
        previous = kind
    if head is not None:
        yield head + "; ".join(effects or ["no effect"])


def event_lines(data: GameData, ev: dict) -> Iterator[str]:
    """The lines of an event that is neither a placement, one of its effects nor a state."""
    kind = ev["event"]
    if kind == "setup":
        yield f"Setup: {ev['deck']} cards left in the deck after dealing."
    elif kind == "round":
        new = f", new workplace: {card_name(data, ev['new_workplace'])}" if ev["new_workplace"] else ""
        yield f"Round {ev['round']} (wage ${ev['wage']}, start player seat {ev['start_player']}{new})"
    elif kind == "blocked":
        yield f"    solo: {card_name(data, ev['workplace'])} is turned sideways"
    elif kind == "stuck":
        yield f"  seat {ev['seat']} has no legal placement left this round"
    elif kind == "wages":
        unpaid = f", {ev['unpaid']} unpaid wage cards" if ev["unpaid"] else ""
        yield f"  payday: seat {ev['seat']} owes ${ev['owed']}, pays ${ev['paid']}{unpaid}"
    elif kind == "sell":
        yield f"  payday: seat {ev['seat']} sells {card_name(data, ev['card'])} for ${ev['price']}"
    elif kind == "discard" and ev.get("purpose") == "hand_limit":
        yield f"  payday: seat {ev['seat']} {effect_phrase(data, ev)} (hand limit)"
    elif kind == "burnt_field_discarded":
        yield f"  seat {ev['seat']}'s worked Burnt Field goes to the discard pile"
    elif kind == "end":
        yield "Final scores"
        for s in ev["scores"]:
            won = " - winner" if s["rank"] == 1 and len(ev["scores"]) > 1 else ""
            if s["solo_cleared"] is not None:
                won = " - solo goal reached" if s["solo_cleared"] else " - solo goal missed"
            yield (f"  seat {s['seat']}: {s['total']} points (buildings {s['building_points']}, "
                   f"bonuses {s['bonus_points']}, money {s['money']}, VP {s['vp_points']} from "
                   f"{s['vp_tokens']} tokens, unpaid wages {-s['unpaid_penalty']}), rank {s['rank']}{won}")


def json_lines(events: list[dict]) -> Iterator[str]:
    for ev in events:
        yield json.dumps(ev, separators=(",", ":"))
