"""Card tables and rule parameters: loading them from the data files and checking them.

The tables live in ``nesim/data/`` as one CSV per game plus ``common.csv`` (initial workplaces,
round cards, consumer items) and ``rules.toml`` (wages, starting money, limits ...). A designer
can read and edit them; a sweep changes them through :meth:`GameData.with_changes`.

Building types are numbered in file order (their *type id*); both engines and the decision logs
use that order, so it must not depend on anything but the file.
"""

from __future__ import annotations

import csv
import dataclasses
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from nesim.errors import NesimError

GAMES = ("progress", "mecenat", "glory")
DATA_DIR = Path(__file__).resolve().parent / "data"
CONSUMER = "consumer_item"

# The number of building cards each game's deck must hold (revival rulebook).
DECK_SIZES = {"progress": 64, "mecenat": 73, "glory": 71}

# Variable-cost rules: kind -> number of integer parameters.
COST_RULES = {
    "if_agriculture": 1,  # -R if you own an agriculture-icon building
    "per_industry": 1,  # -R per industry-icon building you own
    "if_vp": 2,  # -R if you hold at least T VP tokens  (if_vp:T:R)
}
# End-game rules: kind -> number of integer parameters. The kernel numbers them in this order
# (nesim/kernel/tables.py, END_RULE_IDS): a new rule goes at the end.
END_RULES = {
    "per_building": 1,
    "per_consumer_item": 1,
    "per_worker": 1,
    "per_lock": 1,
    "per_industry": 1,
    "empty_hand": 1,
    "double_vp": 0,
    "forgive_unpaid": 1,
    "min_buildings": 2,
    "min_agriculture": 2,
    "min_industry": 2,
    "min_lock": 2,
    "min_vp": 2,
    "min_workers": 2,
    "min_consumer_items": 2,
    "agriculture_value": 2,
    "industry_value": 2,
    "agriculture_and_industry": 1,
    "only_lock": 1,
    "per_no_sale": 1,  # per building with the no-sale icon: lock cards and Burnt Field
}



@dataclass(frozen=True)
class EffectKind:
    """One kind of card effect: the names of its whole-number arguments and what it does."""

    args: tuple[str, ...]
    meaning: str
    workplace: bool = True  # False: it acts when the card is built (lock cards)


# What a card does, by kind (the ``effect`` column, ``kind:arg:arg``). Both engines read this
# column; each kind has one function in ``nesim/reference/effects/kinds.py`` and one branch in
# the kernel (``nesim/kernel/core.py``, ids in ``nesim/kernel/tables.py``).
EFFECT_KINDS = {
    "take_items": EffectKind(("items",), "take ITEMS consumer items"),
    "take_items_once": EffectKind(("items",), "take ITEMS consumer items; the building is discarded "
                                  "after the payday of a round it was worked in"),
    "fill_hand": EffectKind(("size",), "take consumer items until the hand holds SIZE cards; "
                            "not with SIZE or more"),
    "items_more_if_holding": EffectKind(("items", "holding"), "take ITEMS consumer items, or "
                                        "HOLDING if the hand holds one"),
    "items_by_parity": EffectKind(("even", "odd"), "take EVEN consumer items if the hand size is "
                                  "even, ODD if odd"),
    "items_next_round": EffectKind(("items",), "put ITEMS consumer items aside; they join the hand "
                                   "at the start of the next round"),
    "items_or_trade": EffectKind(("items", "discard", "draw"), "either take ITEMS consumer items, "
                                 "or discard DISCARD consumer items and draw DRAW buildings"),
    "items_and_vp": EffectKind(("items", "vp"), "take ITEMS consumer items and VP VP tokens"),
    "relics": EffectKind(("items", "vp"), "take ITEMS consumer items and VP VP tokens (priced by "
                         "the weight strategies as the Relics workplace)"),
    "draw": EffectKind(("cards",), "draw CARDS buildings"),
    "mine_draw": EffectKind(("cards",), "draw CARDS buildings (the Mine: never full; Ironwork "
                            "asks for it)"),
    "draw_and_lead": EffectKind(("cards",), "draw CARDS buildings and become start player at once"),
    "draw_if_on_mine": EffectKind(("cards",), "draw CARDS buildings; only with a unit on the Mine "
                                  "this round"),
    "draw_more_if_empty": EffectKind(("cards", "empty"), "draw CARDS buildings, or EMPTY if the "
                                     "hand is empty"),
    "draw_and_vp": EffectKind(("cards", "vp"), "draw CARDS buildings and take VP VP tokens"),
    "discard_then_draw": EffectKind(("discard", "draw"), "discard DISCARD cards, then draw DRAW "
                                    "buildings"),
    "reveal_keep_one": EffectKind(("reveal",), "reveal REVEAL cards from the deck, keep 1, "
                                  "discard the rest"),
    "money": EffectKind(("money",), "take $MONEY from the Budget"),
    "discard_for_money": EffectKind(("discard", "money"), "discard DISCARD cards, take $MONEY "
                                    "from the Budget"),
    "money_per_item": EffectKind(("money",), "take $MONEY from the Budget per consumer item in "
                                 "hand (kept)"),
    "money_more_if_last_unit": EffectKind(("money", "last"), "take $MONEY from the Budget, or "
                                          "$LAST if this was the player's last unit this round"),
    "money_if_hand_size": EffectKind(("size", "money", "otherwise"), "take $MONEY from the Budget "
                                     "with exactly SIZE cards in hand, else $OTHERWISE"),
    "lottery": EffectKind(("take", "back"), "needs $TAKE in the Budget: take $TAKE, return $BACK"),
    "hire": EffectKind(("workers",), "hire WORKERS workers (usable next round); not at the "
                       "worker cap"),
    "hire_ready": EffectKind(("workers",), "hire WORKERS workers who can be placed this round; "
                             "not at the worker cap"),
    "hire_up_to": EffectKind(("workers",), "hire up to a total of WORKERS workers (usable next "
                             "round); not with that many"),
    "construct": EffectKind(("terms",), "build from hand on the TERMS of CONSTRUCT_TERMS "
                            "(construct:TERMS or construct:TERMS:N)"),
    "vp_on_build": EffectKind(("vp",), "lock card: take VP VP tokens when it is built",
                              workplace=False),
    "doll_on_build": EffectKind(("dolls",), "lock card: gain DOLLS mechanical dolls (unpaid units)"
                                " when it is built", workplace=False),
}
# The terms of a ``construct`` effect: the name of their number (None: none) and their meaning.
# Every construction pays its cost in cards from hand unless the terms say otherwise.
CONSTRUCT_TERMS = {
    "plain": (None, "build 1 building at full cost"),
    "discount": ("cards", "build 1 building paying CARDS cards less (not below 0)"),
    "free_agriculture": (None, "build 1 agriculture building for free"),
    "free_up_to_value": ("value", "build 1 building with asset value VALUE or less for free"),
    "free": (None, "build 1 building for free"),
    "then_draw": ("cards", "build 1 building at full cost, then draw CARDS buildings"),
    "lock_then_draw": ("cards", "build 1 lock building at full cost, then draw CARDS buildings"),
    "then_vp": ("vp", "build 1 building at full cost, then take VP VP tokens"),
    "then_items": ("items", "build 1 building at full cost, then take ITEMS consumer items"),
    "then_draw_if_empty": ("cards", "build 1 building at full cost; draw CARDS if the hand is "
                           "then empty"),
    "pair_same_cost": (None, "build 2 buildings of equal cost, paying the cost of one"),
    "pair_then_draw_if_empty": ("cards", "build 2 buildings paying both costs; draw CARDS if the "
                                "hand is then empty"),
    "items_double": (None, "build 1 building; each consumer item paid counts as 2 cards (an "
                     "odd cost paid in items alone may overshoot by 1)"),
}

BUILDING_FIELDS = ("key", "name_en", "aka", "name_ja", "cost", "asset_value", "copies",
                   "agriculture", "industry", "facility", "sellable", "workable",
                   "workers_needed", "cost_rule", "end_game", "effect", "text")
COMMON_FIELDS = ("key", "name_en", "aka", "name_ja", "kind", "round", "games", "effect", "shared_from",
                 "text")
COMMON_KINDS = ("consumer", "initial", "round")


@dataclass(frozen=True)
class Rule:
    """A parsed ``kind:a:b`` rule from the cost_rule or end_game column."""

    kind: str
    args: tuple[int, ...] = ()

    @classmethod
    def parse(cls, text: str, table: Mapping[str, int], where: str) -> "Rule | None":
        if not text:
            return None
        kind, *raw = text.split(":")
        if kind not in table:
            raise NesimError(f"{where}: unknown rule {kind!r} (known: {', '.join(sorted(table))})")
        if len(raw) != table[kind]:
            raise NesimError(f"{where}: rule {kind!r} takes {table[kind]} number(s), got {len(raw)}")
        return cls(kind, _whole_numbers(raw, text, where, "rule", "parameter"))

    def __str__(self) -> str:
        return ":".join([self.kind, *map(str, self.args)])


@dataclass(frozen=True)
class Effect:
    """A parsed ``kind:arg:...`` from the effect column. A ``construct`` effect keeps its terms
    apart and their number (0 when the terms have none) in ``args``."""

    kind: str
    args: tuple[int, ...] = ()
    terms: str = ""

    @classmethod
    def parse(cls, text: str, where: str) -> "Effect | None":
        if not text:
            return None
        kind, *raw = text.split(":")
        if kind not in EFFECT_KINDS:
            raise NesimError(f"{where}: unknown effect kind {kind!r} (`nesim effects` lists them)")
        if kind == "construct":
            return cls._parse_construct(text, raw, where)
        want = EFFECT_KINDS[kind].args
        if len(raw) != len(want):
            raise NesimError(f"{where}: effect {kind!r} takes {len(want)} argument(s) "
                             f"({':'.join(want) or 'none'}), got {len(raw)}")
        return cls(kind, _whole_numbers(raw, text, where))

    @classmethod
    def _parse_construct(cls, text: str, raw: list[str], where: str) -> "Effect":
        terms = raw[0] if raw else ""
        if terms not in CONSTRUCT_TERMS:
            raise NesimError(f"{where}: construct terms {terms!r} unknown "
                             f"(known: {', '.join(CONSTRUCT_TERMS)})")
        number = CONSTRUCT_TERMS[terms][0]
        if len(raw) - 1 != (number is not None):
            raise NesimError(f"{where}: construct:{terms} takes "
                             f"{'1 argument (' + number + ')' if number else 'no argument'}, got {len(raw) - 1}")
        return cls("construct", _whole_numbers(raw[1:], text, where) or (0,), terms)

    @property
    def workplace(self) -> bool:
        return EFFECT_KINDS[self.kind].workplace

    def __str__(self) -> str:
        if self.terms:
            numbers = self.args if CONSTRUCT_TERMS[self.terms][0] else ()
            return ":".join([self.kind, self.terms, *map(str, numbers)])
        return ":".join([self.kind, *map(str, self.args)])


def _whole_numbers(raw: list[str], text: str, where: str, what: str = "effect",
                   part: str = "argument") -> tuple[int, ...]:
    """The numbers of a rule or effect column (``kind:n:n``): whole and not negative."""
    try:
        args = tuple(int(a) for a in raw)
    except ValueError:
        raise NesimError(f"{where}: {what} {text!r} has {'an' if part[0] in 'aeiou' else 'a'} {part} "
                         "that is not a whole number") from None
    if any(a < 0 for a in args):
        raise NesimError(f"{where}: {what} {text!r} has a negative {part}")
    return args


@dataclass(frozen=True)
class Building:
    """One building card type of a game's deck."""

    key: str
    name: str
    aka: tuple[str, ...]
    name_ja: str
    cost: int
    asset_value: int
    copies: int
    agriculture: bool
    industry: bool
    facility: bool  # the lock icon: never worked, never sold
    sellable: bool
    workable: bool
    workers_needed: int  # 0 for lock cards
    cost_rule: Rule | None
    end_game: Rule | None
    effect: Effect | None
    text: str


@dataclass(frozen=True)
class CommonCard:
    """An initial workplace, a round card or the consumer item."""

    key: str
    name: str
    aka: tuple[str, ...]
    name_ja: str
    kind: str  # consumer | initial | round
    round: int | None  # the round whose start brings this round card
    games: tuple[str, ...]
    effect: Effect | None
    text: str
    # from this many players on, any number of units may stand on it at once (the Mine: 1, always;
    # the Stall family: 3); None: one unit at a time
    shared_from: int | None = None


@dataclass(frozen=True)
class Rules:
    """Rule parameters of one game (rules.toml, with a variant's changes applied)."""

    rounds: int
    wages: tuple[int, ...]
    start_money: tuple[int, ...]
    solo_start_money: int
    start_hand: int
    start_workers: int
    max_workers: int
    hand_limit: int
    warehouse_hand_bonus: int
    vp_set_size: int
    vp_set_points: int
    unpaid_wage_penalty: int
    carpenters: tuple[int, ...]
    solo_sale_divisor: int
    solo_target: int
    solo_a: str
    solo_b: str

    def wage(self, round_no: int) -> int:
        return self.wages[round_no - 1]


RULE_FIELDS = {f.name: f.type for f in dataclasses.fields(Rules)}


@dataclass(frozen=True)
class GameData:
    """Everything one game needs from the data files: its buildings, the common cards, its rules."""

    game: str
    buildings: tuple[Building, ...]
    common: tuple[CommonCard, ...]
    rules: Rules
    source: str = ""
    index: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {b.key: i for i, b in enumerate(self.buildings)})

    def building(self, key: str) -> Building:
        return self.buildings[self.index[key]]

    def common_card(self, key: str) -> CommonCard:
        for c in self.common:
            if c.key == key:
                return c
        raise KeyError(key)

    def is_building(self, key: str) -> bool:
        return key in self.index

    def round_cards(self) -> dict[int, str]:
        """Round number -> key of the round card that arrives at its start."""
        return {c.round: c.key for c in self.common if c.kind == "round" and c.round is not None}

    def check_solo(self, where: str = "solo") -> None:
        """The solo game sets cards A and B aside; both must exist (a variant may remove them)."""
        for name in ("solo_a", "solo_b"):
            key = getattr(self.rules, name)
            if self.is_building(key):
                if self.building(key).copies < 1:
                    raise NesimError(f"{where}: rules.{name}: the solo game sets aside {key!r}, "
                                     f"which has no copies")
            elif not (name == "solo_a" and any(c.key == key and c.kind == "initial" for c in self.common)):
                raise NesimError(f"{where}: rules.{name}: {key!r} is not a {self.game} building")

    def worked_once_key(self) -> str | None:
        """The building discarded after the payday of a round it was worked in (Burnt Field), if
        any: at most one per game (``_check_playable``), the engines keep one count for it."""
        keys = [b.key for b in self.buildings if b.effect is not None and b.effect.kind == "take_items_once"]
        return keys[0] if keys else None

    def deck_size(self) -> int:
        return sum(b.copies for b in self.buildings)

    def with_changes(self, cards: Mapping[str, Mapping[str, Any]] | None = None,
                     rules: Mapping[str, Any] | None = None, where: str = "variant",
                     new_cards: Mapping[str, Mapping[str, Any]] | None = None) -> "GameData":
        """A copy with some card fields and rule parameters changed and new building types
        appended (after the file's, in the order given), checked like the files."""
        buildings = list(self.buildings)
        for key, changes in (cards or {}).items():
            if key not in self.index:
                raise NesimError(f"{where}: unknown card {key!r} for {self.game}")
            buildings[self.index[key]] = _changed_building(buildings[self.index[key]], changes,
                                                           f"{where}: cards.{key}")
        taken = {b.key for b in buildings} | {c.key for c in self.common}
        for key, fields in (new_cards or {}).items():
            if key in taken:
                raise NesimError(f"{where}: new_cards.{key}: the key already exists in {self.game}")
            buildings.append(new_building(key, fields, f"{where}: new_cards"))
            taken.add(key)
        new_rules = _rules_with(self.rules, rules or {}, where)
        out = dataclasses.replace(self, buildings=tuple(buildings), rules=new_rules)
        _check_playable(out, where)
        return out


CHANGEABLE = ("cost", "asset_value", "copies", "effect")


def _changed_building(b: Building, changes: Mapping[str, Any], where: str) -> Building:
    for name, value in changes.items():
        if name not in CHANGEABLE:
            raise NesimError(f"{where}.{name}: only {', '.join(CHANGEABLE)} can change")
        if name == "effect":
            if not isinstance(value, str):
                raise NesimError(f"{where}.effect: must be text such as 'draw:3', got {value!r}")
            b = dataclasses.replace(b, effect=Effect.parse(value, f"{where}.effect"))
            _check_effect_fits(b, where)
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise NesimError(f"{where}.{name}: must be a whole number >= 0, got {value!r}")
        b = dataclasses.replace(b, **{name: value})
    return b


# A new card's fields (a sweep's new_cards.<key>): required, then optional with their defaults
# (``None``: derived from the effect and icons, as a data row would say it).
NEW_CARD_REQUIRED = ("name", "cost", "asset_value", "copies")
NEW_CARD_OPTIONAL = {"effect": "", "icons": [], "sellable": None, "workable": None,
                     "workers_needed": None, "cost_rule": "", "end_game": "", "text": "",
                     "name_ja": ""}
ICONS = {"agriculture": "agriculture", "industry": "industry", "lock": "facility"}


def new_building(key: str, fields: Mapping[str, Any], where: str) -> Building:
    """A building type defined outside the data files, as one data row, checked like one."""
    w = f"{where}.{key}"
    if not _KEY.match(key):
        raise NesimError(f"{w}: the key must be a lower-case identifier")
    if not isinstance(fields, Mapping):
        raise NesimError(f"{w}: must be a table such as {{ name = \"Bank\", cost = 3, ... }}")
    for name in fields:
        if name not in NEW_CARD_REQUIRED and name not in NEW_CARD_OPTIONAL:
            raise NesimError(f"{w}.{name}: unknown field (allowed: "
                             f"{', '.join(NEW_CARD_REQUIRED + tuple(NEW_CARD_OPTIONAL))})")
    for name in NEW_CARD_REQUIRED:
        if name not in fields:
            raise NesimError(f"{w}.{name}: missing (a new card needs {', '.join(NEW_CARD_REQUIRED)})")
    f = {**NEW_CARD_OPTIONAL, **fields}
    for name in ("name", "effect", "cost_rule", "end_game", "text", "name_ja"):
        if not isinstance(f[name], str):
            raise NesimError(f"{w}.{name}: must be text, got {f[name]!r}")
    for name in ("cost", "asset_value", "copies") + (("workers_needed",) if f["workers_needed"] is not None else ()):
        if isinstance(f[name], bool) or not isinstance(f[name], int):
            raise NesimError(f"{w}.{name}: must be a whole number, got {f[name]!r}")
    for name in ("sellable", "workable"):
        if f[name] is not None and not isinstance(f[name], bool):
            raise NesimError(f"{w}.{name}: must be true or false, got {f[name]!r}")
    icons = f["icons"]
    if not isinstance(icons, list) or any(i not in ICONS for i in icons):
        raise NesimError(f"{w}.icons: must be a list of {', '.join(ICONS)}, got {icons!r}")
    effect = Effect.parse(f["effect"], f"{w}.effect")
    lock = "lock" in icons
    workable = f["workable"] if f["workable"] is not None else bool(effect and effect.workplace)
    row = {"key": key, "name_en": f["name"], "aka": "", "name_ja": f["name_ja"],
           "cost": str(f["cost"]), "asset_value": str(f["asset_value"]), "copies": str(f["copies"]),
           "agriculture": str(int("agriculture" in icons)), "industry": str(int("industry" in icons)),
           "facility": str(int(lock)),
           "sellable": str(int(f["sellable"] if f["sellable"] is not None else not lock)),
           "workable": str(int(workable)),
           "workers_needed": str(f["workers_needed"] if f["workers_needed"] is not None else int(workable)),
           "cost_rule": f["cost_rule"], "end_game": f["end_game"], "effect": f["effect"],
           "text": f["text"] or (f"Effect {f['effect']}." if f["effect"] else "")}
    return _parse_building(row, where)


def _as_bool(value: str, where: str) -> bool:
    if value not in ("0", "1"):
        raise NesimError(f"{where}: must be 0 or 1, got {value!r}")
    return value == "1"


def _as_count(value: str, where: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise NesimError(f"{where}: must be a whole number, got {value!r}") from None
    if n < 0:
        raise NesimError(f"{where}: must not be negative, got {n}")
    return n


def _read_csv(path: Path, fields: tuple[str, ...]) -> list[dict[str, str]]:
    try:
        with path.open(newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            header = tuple(reader.fieldnames or ())
            rows = list(reader)
    except OSError as e:
        raise NesimError(f"{path}: cannot read card file ({e.strerror})") from None
    missing = [c for c in fields if c not in header]
    unknown = [c for c in header if c not in fields]
    if missing:
        raise NesimError(f"{path}: missing column(s) {', '.join(missing)}")
    if unknown:
        raise NesimError(f"{path}: unknown column(s) {', '.join(unknown)}")
    return rows


_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


def _parse_building(row: dict[str, str], path: Path) -> Building:
    key = row["key"]
    if not _KEY.match(key or ""):
        raise NesimError(f"{path}: card key {key!r} is not a lower-case identifier")
    w = f"{path}: card {key}"
    b = Building(
        key=key, name=row["name_en"], aka=tuple(a for a in row["aka"].split(";") if a),
        name_ja=row["name_ja"],
        cost=_as_count(row["cost"], f"{w}: field cost"),
        asset_value=_as_count(row["asset_value"], f"{w}: field asset_value"),
        copies=_as_count(row["copies"], f"{w}: field copies"),
        agriculture=_as_bool(row["agriculture"], f"{w}: field agriculture"),
        industry=_as_bool(row["industry"], f"{w}: field industry"),
        facility=_as_bool(row["facility"], f"{w}: field facility"),
        sellable=_as_bool(row["sellable"], f"{w}: field sellable"),
        workable=_as_bool(row["workable"], f"{w}: field workable"),
        workers_needed=_as_count(row["workers_needed"], f"{w}: field workers_needed"),
        cost_rule=Rule.parse(row["cost_rule"], COST_RULES, f"{w}: field cost_rule"),
        end_game=Rule.parse(row["end_game"], END_RULES, f"{w}: field end_game"),
        effect=Effect.parse(row["effect"], f"{w}: field effect"),
        text=row["text"],
    )
    _check_effect_fits(b, w)
    if b.facility and (b.workable or b.sellable):
        raise NesimError(f"{w}: field facility: a lock card can be neither worked nor sold")
    if b.workable != (b.workers_needed > 0):
        raise NesimError(f"{w}: field workers_needed: must be 1 or 2 for a workable card and 0 otherwise")
    if b.workers_needed > 2:
        raise NesimError(f"{w}: field workers_needed: at most 2, got {b.workers_needed}")
    return b


def _check_effect_fits(b: Building, where: str) -> None:
    """A workable card does something when worked; a lock card at most something when built."""
    if b.workable and (b.effect is None or not b.effect.workplace):
        raise NesimError(f"{where}: field effect: a workable card needs a workplace effect, "
                         f"got {str(b.effect or '') or 'none'!r}")
    if not b.workable and b.effect is not None and b.effect.workplace:
        raise NesimError(f"{where}: field effect: {b.effect.kind!r} is a workplace effect, "
                         f"but the card is not workable")


def _parse_common(row: dict[str, str], path: Path) -> CommonCard:
    key = row["key"]
    w = f"{path}: card {key}"
    if row["kind"] not in COMMON_KINDS:
        raise NesimError(f"{w}: field kind: must be one of {', '.join(COMMON_KINDS)}, got {row['kind']!r}")
    games = tuple(g for g in row["games"].split(";") if g)
    for g in games:
        if g not in GAMES:
            raise NesimError(f"{w}: field games: unknown game {g!r}")
    rnd = _as_count(row["round"], f"{w}: field round") if row["round"] else None
    if row["kind"] == "round" and rnd is None:
        raise NesimError(f"{w}: field round: a round card needs its round")
    effect = Effect.parse(row["effect"], f"{w}: field effect")
    if (effect is None) != (row["kind"] == "consumer") or (effect is not None and not effect.workplace):
        raise NesimError(f"{w}: field effect: a workplace needs a workplace effect, the consumer item none")
    shared = _as_count(row["shared_from"], f"{w}: field shared_from") if row["shared_from"] else None
    if shared is not None and (shared < 1 or effect is None):
        raise NesimError(f"{w}: field shared_from: a workplace's number of players, at least 1, got {shared}")
    return CommonCard(key=key, name=row["name_en"], aka=tuple(a for a in row["aka"].split(";") if a),
                      name_ja=row["name_ja"], kind=row["kind"], round=rnd, games=games, effect=effect,
                      text=row["text"], shared_from=shared)


def _coerce_rule_value(name: str, value: Any, where: str) -> Any:
    kind = RULE_FIELDS[name]
    if kind in ("int", int):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise NesimError(f"{where}: rules.{name}: must be a whole number >= 0, got {value!r}")
        return value
    if kind in ("str", str):
        if not isinstance(value, str):
            raise NesimError(f"{where}: rules.{name}: must be a card key, got {value!r}")
        return value
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value):
        raise NesimError(f"{where}: rules.{name}: must be a list of whole numbers >= 0, got {value!r}")
    return tuple(value)


def _rules_with(base: Rules | None, values: Mapping[str, Any], where: str) -> Rules:
    merged = dataclasses.asdict(base) if base is not None else {}
    for name, value in values.items():
        if name not in RULE_FIELDS:
            raise NesimError(f"{where}: unknown rule parameter {name!r}")
        merged[name] = _coerce_rule_value(name, value, where)
    missing = [n for n in RULE_FIELDS if n not in merged]
    if missing:
        raise NesimError(f"{where}: missing rule parameter(s) {', '.join(missing)}")
    r = Rules(**merged)
    if r.rounds < 1 or len(r.wages) != r.rounds:
        raise NesimError(f"{where}: rules.wages: needs one wage per round ({r.rounds}), got {len(r.wages)}")
    if len(r.start_money) != 4:
        raise NesimError(f"{where}: rules.start_money: needs 4 values (seats 1-4), got {len(r.start_money)}")
    if len(r.carpenters) != 4:
        raise NesimError(f"{where}: rules.carpenters: needs 4 values (1-4 players), got {len(r.carpenters)}")
    if r.start_workers < 1 or r.start_workers > r.max_workers:
        raise NesimError(f"{where}: rules.start_workers: must be between 1 and max_workers ({r.max_workers})")
    if r.vp_set_size < 1:
        raise NesimError(f"{where}: rules.vp_set_size: must be at least 1")
    if r.solo_sale_divisor < 1:
        raise NesimError(f"{where}: rules.solo_sale_divisor: must be at least 1")
    return r


def _load_rules(game: str, path: Path) -> Rules:
    try:
        with path.open("rb") as f:
            table = tomllib.load(f)
    except OSError as e:
        raise NesimError(f"{path}: cannot read rules file ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise NesimError(f"{path}: not valid TOML ({e})") from None
    for section in table:
        if section not in ("default", *GAMES):
            raise NesimError(f"{path}: unknown section [{section}]")
    values = {**table.get("default", {}), **table.get(game, {})}
    return _rules_with(None, values, str(path))


def _check_playable(data: GameData, where: str) -> None:
    """Checks that hold for any card set, edited or not: enough cards to deal four hands."""
    r = data.rules
    deck = data.deck_size()
    if deck < 4 * r.start_hand + 2:
        raise NesimError(f"{where}: the {data.game} deck holds {deck} cards, too few to deal "
                         f"{r.start_hand} to 4 players")
    once = [b.key for b in data.buildings if b.effect is not None and b.effect.kind == "take_items_once"]
    if len(once) > 1:
        raise NesimError(f"{where}: card {once[1]}: effect take_items_once: at most one card of a "
                         f"game may have it ({once[0]} has it)")


def load_game(game: str, data_dir: Path | str | None = None) -> GameData:
    """Loads and checks one game's card table, the common cards and its rules."""
    if game not in GAMES:
        raise NesimError(f"unknown game {game!r} (choose from {', '.join(GAMES)})")
    base = Path(data_dir) if data_dir is not None else DATA_DIR
    path = base / f"{game}.csv"
    buildings = [_parse_building(r, path) for r in _read_csv(path, BUILDING_FIELDS)]
    seen: set[str] = set()
    for b in buildings:
        if b.key in seen:
            raise NesimError(f"{path}: card {b.key}: key appears twice")
        seen.add(b.key)
    cpath = base / "common.csv"
    common = [_parse_common(r, cpath) for r in _read_csv(cpath, COMMON_FIELDS)]
    common = [c for c in common if game in c.games]
    if not any(c.kind == "consumer" for c in common):
        raise NesimError(f"{cpath}: no consumer item card")
    rules_path = base / "rules.toml"
    data = GameData(game=game, buildings=tuple(buildings), common=tuple(common),
                    rules=_load_rules(game, rules_path), source=str(path))
    total = data.deck_size()
    if total != DECK_SIZES[game]:  # the files hold the published game; variants may differ
        raise NesimError(f"{path}: copies add up to {total}, but the {game} deck has {DECK_SIZES[game]} cards")
    rounds = data.round_cards()
    if sorted(rounds) != list(range(2, data.rules.rounds + 1)):
        raise NesimError(f"{cpath}: round cards must cover rounds 2..{data.rules.rounds}, got {sorted(rounds)}")
    _check_playable(data, str(path))
    data.check_solo(str(rules_path))
    return data
