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
# End-game rules: kind -> number of integer parameters.
END_RULES = {
    "per_building": 1,
    "per_consumer_item": 1,
    "per_worker": 1,
    "per_lock": 1,
    "per_no_sale": 1,  # per building with the no-sale icon: lock cards and Burnt Field
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
}

BUILDING_FIELDS = ("key", "name_en", "aka", "name_ja", "cost", "asset_value", "copies",
                   "agriculture", "industry", "facility", "sellable", "workable",
                   "workers_needed", "cost_rule", "end_game", "text")
COMMON_FIELDS = ("key", "name_en", "aka", "name_ja", "kind", "round", "games", "text")
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
        try:
            args = tuple(int(a) for a in raw)
        except ValueError:
            raise NesimError(f"{where}: rule {text!r} has a parameter that is not a whole number") from None
        if any(a < 0 for a in args):
            raise NesimError(f"{where}: rule {text!r} has a negative parameter")
        return cls(kind, args)

    def __str__(self) -> str:
        return ":".join([self.kind, *map(str, self.args)])


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
    text: str


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

    def deck_size(self) -> int:
        return sum(b.copies for b in self.buildings)

    def with_changes(self, cards: Mapping[str, Mapping[str, Any]] | None = None,
                     rules: Mapping[str, Any] | None = None, where: str = "variant") -> "GameData":
        """A copy with some card fields and rule parameters changed, checked like the files."""
        buildings = list(self.buildings)
        for key, changes in (cards or {}).items():
            if key not in self.index:
                raise NesimError(f"{where}: unknown card {key!r} for {self.game}")
            b = buildings[self.index[key]]
            for name, value in changes.items():
                if name not in ("cost", "asset_value", "copies"):
                    raise NesimError(f"{where}: cards.{key}.{name}: only cost, asset_value and copies can change")
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise NesimError(f"{where}: cards.{key}.{name}: must be a whole number >= 0, got {value!r}")
                b = dataclasses.replace(b, **{name: value})
            buildings[self.index[key]] = b
        new_rules = _rules_with(self.rules, rules or {}, where)
        out = dataclasses.replace(self, buildings=tuple(buildings), rules=new_rules)
        _check_playable(out, where)
        return out


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
        text=row["text"],
    )
    if b.facility and (b.workable or b.sellable):
        raise NesimError(f"{w}: field facility: a lock card can be neither worked nor sold")
    if b.workable != (b.workers_needed > 0):
        raise NesimError(f"{w}: field workers_needed: must be 1 or 2 for a workable card and 0 otherwise")
    if b.workers_needed > 2:
        raise NesimError(f"{w}: field workers_needed: at most 2, got {b.workers_needed}")
    return b


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
    return CommonCard(key=key, name=row["name_en"], aka=tuple(a for a in row["aka"].split(";") if a),
                      name_ja=row["name_ja"], kind=row["kind"], round=rnd, games=games, text=row["text"])


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


def _check_effects(data: GameData, where: str) -> None:
    from nesim.reference.effects import implemented_keys  # the rules decide what is implemented

    known = implemented_keys(data.game)
    for key in [b.key for b in data.buildings] + [c.key for c in data.common if data.game in c.games]:
        if key not in known:
            raise NesimError(f"{where}: card {key}: no effect is implemented for this key")


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
    _check_effects(data, str(path))
    return data
