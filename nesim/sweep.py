"""Sweep files: TOML that names games, player counts, strategies and variants of cards and rules.

``load_sweep(path)`` reads and checks the whole file before anything runs and returns a
:class:`Sweep` whose ``units()`` the runner plays. Every problem is one line naming the file,
the key and the reason. A variant changes, against the data files::

    cards.<key>.{cost, asset_value, copies, effect}   e.g.  cards.cathedral = { cost = 8 }
    new_cards.<key> = { name, cost, asset_value, copies, effect, ... }   a new building type
    rules.<parameter>                           e.g.  rules.wages = [2,2,3,3,3,4,4,5,5]
    params.<strategy>.<parameter>               e.g.  params.greedy.reserve = 2
    strategies = [...]                          a whole new line-up

``[grid]`` maps such dotted keys to lists of values; their cartesian product adds one variant per
combination, named from its values. ``baseline`` (no changes) is added first unless given.

``[sensitivity]`` maps dotted keys (knobs) to a step: each knob moved one step down and one step
up from the baseline adds two variants, named like grid variants (``mansion.cost=3``); a list
rule (wages, start_money) moves every entry. Its optional ``figures`` (default: winning_score,
first_seat_win, and card_edge of each card knob) and ``control`` ("holm" or "bh") say what the
report's sensitivity section compares, paired game by game (nesim/stats.py).

``[ladder]`` names rungs, strategies of rising strength (default :data:`DEFAULT_RUNGS`, those of
them that are registered), and the games each plays (``games``: one number, or one per rung):
each rung plays the sweep's variants again at its multiplayer counts with the rung's strategy in
every seat (mirror games), into a dataset of its own inside the sweep's ``--out``
(``ladder/<rung>-<strategy>``); the report's skill-ladder section compares them.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from nesim.cards import GAMES, RULE_FIELDS, GameData, load_game
from nesim.errors import NesimError
from nesim.rng import check_seed

TOP_KEYS = {"game", "players", "games", "seed", "strategies", "variant", "grid", "baseline", "sensitivity",
            "ladder"}
VARIANT_KEYS = {"name", "cards", "new_cards", "rules", "params", "strategies"}
CARD_FIELDS = ("cost", "asset_value", "copies", "effect")
DEFAULT_MAX_VARIANTS = 1000


@dataclass(frozen=True)
class Variant:
    name: str
    cards: dict  # key -> {field: value}
    rules: dict  # parameter -> value
    params: dict  # strategy name -> {parameter: value}
    strategies: tuple[str, ...] | None  # a line-up replacing the sweep's, or None
    new_cards: dict = dataclasses.field(default_factory=dict)  # key -> its fields (and game = ...)

    def changes_for(self, data: GameData) -> dict:
        """The card and rule changes that apply to one game (a card of another game is left out,
        and a new card whose ``game`` names another game)."""
        out = {}
        cards = {k: v for k, v in self.cards.items() if k in data.index}
        if cards:
            out["cards"] = cards
        new = {k: {f: x for f, x in v.items() if f != "game"} for k, v in self.new_cards.items()
               if v.get("game", data.game) == data.game}
        if new:
            out["new_cards"] = new
        if self.rules:
            out["rules"] = self.rules
        return out


@dataclass(frozen=True)
class Rung:
    strategy: str  # the strategy's label (name and the parameters that differ from its defaults)
    games: int  # per variant, game and player count

    def dataset(self, number: int) -> str:
        """The rung's dataset folder, inside the sweep's --out."""
        slug = "".join(c if c.isalnum() or c in "_." else "-" for c in self.strategy)
        return f"ladder/{number}-{slug}"


@dataclass(frozen=True)
class Sweep:
    path: str
    games: tuple[str, ...]
    players: tuple[int, ...]
    games_per_variant: int
    seed: int
    strategies: tuple[str, ...]
    variants: tuple[Variant, ...]
    baseline: str = "baseline"
    sensitivity: dict | None = None  # the [sensitivity] knobs, steps and figures (manifest key)
    ladder: tuple[Rung, ...] = ()  # the [ladder] rungs, weakest first

    def line_up(self, variant: Variant, n: int) -> tuple[str, ...]:
        """The variant's strategies for n seats, with its parameter changes applied."""
        from nesim.registry import resolve_seats

        names = variant.strategies or self.strategies
        seats = [names[i % len(names)] for i in range(n)]  # a longer line-up is cut, a shorter one cycled
        specs = []
        for s in resolve_seats(";".join(seats), n):
            values = dict(zip(s.defaults, s.values))
            values.update(variant.params.get(s.name, {}))
            # the registry's label writes each value so that it reads back exactly
            specs.append(dataclasses.replace(s, values=tuple(values.values())).label)
        return tuple(specs)

    def units(self, games: int | None = None):
        """One unit per variant, game and player count, of ``games`` games each (default: the
        file's ``games``; ``--max-games`` gives another cap to a sweep run until decided)."""
        from nesim.runner import Unit

        games = self.games_per_variant if games is None else games
        units, base = [], 0
        for v in self.variants:
            for game in self.games:
                for n in self.players:
                    units.append(Unit(v.name, game, n, self.line_up(v, n), games, base,
                                      v.changes_for(load_game(game))))
                    base += games
        return units

    def rung_units(self, rung: Rung):
        """The units a ladder rung plays: every variant at every multiplayer count with the rung's
        strategy in every seat (with the variant's parameter changes), ``rung.games`` games each.
        A variant that plays the very same games as one before it at this rung (it changes only
        the line-up, or parameters of another strategy) is left out: its verdict would be "no
        difference" by construction. The baseline comes first, so it is the one kept."""
        from nesim.runner import Unit

        order = sorted(self.variants, key=lambda v: v.name != self.baseline)
        units, seen, base = [], set(), 0
        for v in order:
            rung_variant = dataclasses.replace(v, strategies=(rung.strategy,))
            mine = []
            for game in self.games:
                for n in (n for n in self.players if n > 1):
                    mine.append(Unit(v.name, game, n, self.line_up(rung_variant, n), rung.games, 0,
                                     v.changes_for(load_game(game))))
            same = json.dumps([(u.game, u.n_players, u.strategies, u.changes) for u in mine], sort_keys=True)
            if same in seen:
                continue
            seen.add(same)
            for u in mine:
                units.append(dataclasses.replace(u, id_base=base))
                base += u.games
        return units

    def ladder_record(self) -> dict | None:
        """What the manifest records of the ladder: each rung's strategy, games, dataset folder
        (inside the sweep's --out) and units, so that --resume can finish it without the file."""
        if not self.ladder:
            return None
        from nesim.runner import describe_units

        return {"rungs": [{"rung": i + 1, "strategy": r.strategy, "games": r.games, "dataset": r.dataset(i + 1),
                           "units": describe_units(self.rung_units(r))} for i, r in enumerate(self.ladder)]}

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        raise NesimError(f"{self.path}: no variant named {name!r} (variants: "
                         f"{', '.join(v.name for v in self.variants[:20])})")

    def data(self, variant: Variant, game: str, base: GameData | None = None) -> GameData:
        """The game's data as the variant changes it: the built-in data files, or ``base``."""
        base = load_game(game) if base is None else base
        changes = variant.changes_for(base)
        return base.with_changes(cards=changes.get("cards"), rules=changes.get("rules"),
                                 where=f"{self.path}: variant {variant.name!r}",
                                 new_cards=changes.get("new_cards"))


def _err(path, key: str, reason: str) -> NesimError:
    return NesimError(f"{path}: {key}: {reason}")


def _int(path, key, value, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err(path, key, f"must be a whole number, got {value!r}")
    if low is not None and value < low:
        raise _err(path, key, f"must be at least {low}, got {value}")
    return value


def _first_repeat(values: list) -> Any:
    """The first value met a second time in the list, or None."""
    seen: list = []
    for v in values:
        if v in seen:
            return v
        seen.append(v)
    return None


def _one_or_more(path, key, value, check) -> list:
    """A key that takes one value or a list of them: ``check(path, key, v)`` on each, at least one,
    none twice (a repeated game or player count would play the same seeds again under new game
    ids and narrow every interval as if they were new games)."""
    values = value if isinstance(value, list) else [value]
    if not values:
        raise _err(path, key, "is empty; give at least one value")
    for v in values:
        check(path, key, v)
    dup = _first_repeat(values)
    if dup is not None:
        raise _err(path, key, f"lists {dup!r} twice")
    return values


def _game(path, key, value) -> None:
    if not isinstance(value, str) or value not in GAMES:
        raise _err(path, key, f"unknown game {value!r} (known: {', '.join(GAMES)})")


def _player_count(path, key, value) -> None:
    _int(path, key, value, 1)
    if value > 4:
        raise _err(path, key, f"must be 1 to 4, got {value}")


def _strategies(path, key, value) -> tuple[str, ...]:
    from nesim.registry import resolve_all

    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(x, str) for x in value):
        raise _err(path, key, "must be a list of strategy names (with parameters, e.g. 'greedy:reserve=2')")
    try:
        resolve_all(value)
    except NesimError as exc:
        raise _err(path, key, str(exc)) from None
    return tuple(value)


def _set_dotted(path, changes: dict, key: str, value: Any, label: str = "") -> None:
    """Puts one dotted key (cards.X.F, new_cards.X.F, rules.P, params.S.P) of a variant or grid
    into ``changes``."""
    parts = key.split(".")
    head = parts[0]
    if head in ("cards", "new_cards") and len(parts) == 3:
        changes.setdefault(head, {}).setdefault(parts[1], {})[parts[2]] = value
    elif head == "rules" and len(parts) == 2:
        changes.setdefault("rules", {})[parts[1]] = value
    elif head == "params" and len(parts) == 3:
        changes.setdefault("params", {}).setdefault(parts[1], {})[parts[2]] = value
    else:
        raise _err(path, label + key, "unknown key (expected cards.<card>.<field>, "
                   "new_cards.<card>.<field>, rules.<parameter> or params.<strategy>.<parameter>)")


def _check_variant(path, where: str, raw: dict, games: tuple[str, ...]) -> Variant:
    for k in raw:
        if k not in VARIANT_KEYS:
            raise _err(path, f"{where}.{k}", f"unknown key (allowed: {', '.join(sorted(VARIANT_KEYS))})")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _err(path, f"{where}.name", "every variant needs a name")
    cards = raw.get("cards", {})
    if not isinstance(cards, dict):
        raise _err(path, f"{where}.cards", "must be a table of card -> {cost, asset_value, copies}")
    for key, fields in cards.items():
        if not isinstance(fields, dict):
            raise _err(path, f"{where}.cards.{key}", "must be a table such as { cost = 8 }")
        if not any(key in load_game(g).index for g in games):
            raise _err(path, f"{where}.cards.{key}", f"unknown card for {' / '.join(games)}")
        for f, v in fields.items():
            if f not in CARD_FIELDS:
                raise _err(path, f"{where}.cards.{key}.{f}", f"unknown field (allowed: {', '.join(CARD_FIELDS)})")
            if f == "effect":
                if not isinstance(v, str):
                    raise _err(path, f"{where}.cards.{key}.effect", f"must be text such as 'draw:3', got {v!r}")
            else:
                _int(path, f"{where}.cards.{key}.{f}", v, 0)
    new_cards = _new_cards(path, where, raw.get("new_cards", {}), games)
    rules = raw.get("rules", {})
    if not isinstance(rules, dict):
        raise _err(path, f"{where}.rules", "must be a table of rule parameters")
    for r in rules:
        if r not in RULE_FIELDS:
            raise _err(path, f"{where}.rules.{r}", f"unknown rule (known: {', '.join(RULE_FIELDS)})")
    params = raw.get("params", {})
    if not isinstance(params, dict) or not all(isinstance(v, dict) for v in params.values()):
        raise _err(path, f"{where}.params", "must be a table of strategy -> {parameter = number}")
    from nesim.registry import find, known_names, param_value

    for strat, values in params.items():
        mod = find(strat)
        if mod is None:
            raise _err(path, f"{where}.params.{strat}", f"unknown strategy (known: {', '.join(known_names())})")
        for p, v in values.items():
            if p not in mod.PARAMS:
                raise _err(path, f"{where}.params.{strat}.{p}", f"unknown parameter of {strat} "
                           f"(known: {', '.join(mod.PARAMS) or 'none'})")
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise _err(path, f"{where}.params.{strat}.{p}", f"must be a number, got {v!r}")
            param_value(v, f"{path}: {where}.params.{strat}.{p}")
    lineup = _strategies(path, f"{where}.strategies", raw["strategies"]) if "strategies" in raw else None
    # the card and rule changes must make a playable game of every game of the sweep
    variant = Variant(name.strip(), {k: dict(v) for k, v in cards.items()}, dict(rules),
                      {k: {p: float(x) for p, x in v.items()} for k, v in params.items()}, lineup,
                      new_cards)
    for g in games:
        data = load_game(g)
        changes = variant.changes_for(data)
        _check_kernel_limits(path, where, data.with_changes(
            cards=changes.get("cards"), rules=rules, where=f"{path}: {where}",
            new_cards=changes.get("new_cards")))
    return variant


def _new_cards(path, where: str, raw: Any, games) -> dict:
    """A variant's new_cards table: key -> the fields of a data row, and optionally the game it
    joins (every game of the sweep when absent); the fields are checked with the card data."""
    if not isinstance(raw, dict) or not all(isinstance(v, dict) for v in raw.values()):
        raise _err(path, f"{where}.new_cards", "must be a table of key -> { name = ..., cost = ..., ... }")
    for key, fields in raw.items():
        game = fields.get("game")
        if game is not None and game not in games:
            raise _err(path, f"{where}.new_cards.{key}.game",
                       f"{game!r} is not a game of this sweep ({', '.join(games)})")
    return {k: dict(v) for k, v in raw.items()}


def _check_kernel_limits(path, where: str, data: GameData) -> None:
    from nesim.kernel.tables import MAXDECK, MAXROUNDS, build_table

    if data.rules.rounds > MAXROUNDS:
        raise _err(path, f"{where}.rules.rounds", f"the kernel plays at most {MAXROUNDS} rounds")
    if data.deck_size() > MAXDECK:
        raise _err(path, f"{where}.cards", f"the {data.game} deck would hold {data.deck_size()} cards; "
                   f"the kernel holds at most {MAXDECK}")
    try:
        build_table(data)
    except ValueError as exc:
        raise _err(path, where, str(exc)) from None
    except OverflowError:  # a card field or rule parameter beyond the table's 64-bit numbers
        raise _err(path, where, "a number is too large for the kernel's 64-bit card table") from None


def _fmt(value) -> str:
    if isinstance(value, list):
        return "[" + ",".join(_fmt(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def grid_variants(path, grid: dict, max_variants: int) -> list[dict]:
    """The raw variant tables of a [grid]: one per combination, named from its values."""
    if not isinstance(grid, dict) or not grid:
        raise _err(path, "grid", "must be a table of dotted keys -> lists of values")
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise _err(path, f"grid.{key}", "must be a non-empty list of values")
    total = 1
    for values in grid.values():
        total *= len(values)
    if total > max_variants:
        raise _err(path, "grid", f"expands to {total} variants, more than --max-variants {max_variants}")
    out = []
    keys = list(grid)
    for combo in itertools.product(*(grid[k] for k in keys)):
        changes: dict = {}
        for k, v in zip(keys, combo):
            _set_dotted(path, changes, k, v, "grid.")
        short = [f"{k.split('.', 1)[1]}={_fmt(v)}" for k, v in zip(keys, combo)]
        out.append({"name": " ".join(short), **changes})
    return out


def load_sweep(path: str | Path, max_variants: int = DEFAULT_MAX_VARIANTS) -> Sweep:
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = tomllib.load(f)
    except FileNotFoundError:
        raise NesimError(f"{path}: no such sweep file") from None
    except OSError as exc:
        raise NesimError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise NesimError(f"{path}: not valid TOML ({exc})") from None
    except UnicodeDecodeError as exc:
        raise NesimError(f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start}); "
                         "TOML files must be saved as UTF-8") from None
    for k in raw:
        if k not in TOP_KEYS:
            raise _err(path, k, f"unknown key (allowed: {', '.join(sorted(TOP_KEYS))})")
    for k in ("game", "players", "games", "strategies"):
        if k not in raw:
            raise _err(path, k, "missing")
    games = _one_or_more(path, "game", raw["game"], _game)
    players = _one_or_more(path, "players", raw["players"], _player_count)
    if 1 in players:
        for g in games:
            load_game(g).check_solo(f"{path}: players")
    n_games = _int(path, "games", raw["games"], 1)
    seed = check_seed(raw.get("seed", 0), f"{path}: seed")
    strategies = _strategies(path, "strategies", raw["strategies"])
    baseline = raw.get("baseline", "baseline")
    if not isinstance(baseline, str) or not baseline.strip():
        raise _err(path, "baseline", f"must be the name of a variant (text), got {baseline!r}")
    baseline = baseline.strip()  # as variant names are
    raw_variants = raw.get("variant", [])
    if not isinstance(raw_variants, list):
        raise _err(path, "variant", "must be an array of tables: [[variant]]")
    n_explicit = len(raw_variants)
    if n_explicit > max_variants:
        raise _err(path, "variant", f"{n_explicit} variants, more than --max-variants {max_variants}")
    tables = list(raw_variants)
    if "grid" in raw:
        tables += grid_variants(path, raw["grid"], max_variants - n_explicit)
    variants: list[Variant] = []
    for i, table in enumerate(tables):
        where = f"variant[{i}]" if i < n_explicit else f"grid ({table.get('name')})"
        if not isinstance(table, dict):
            raise _err(path, where, "must be a table")
        variants.append(_check_variant(path, where, table, tuple(games)))
    names = [v.name for v in variants]
    dup = _first_repeat(names)
    if dup is not None:
        raise _err(path, "variant", f"two variants are named {dup!r}")
    if baseline not in names:
        variants.insert(0, Variant(baseline, {}, {}, {}, None))
    sensitivity = None
    if "sensitivity" in raw:
        base = next(v for v in variants if v.name == baseline)
        tables, sensitivity = sensitivity_variants(path, raw["sensitivity"], base, tuple(games), tuple(players))
        variants += [_check_variant(path, f"sensitivity ({t['name']})", t, tuple(games)) for t in tables]
        dup = _first_repeat([v.name for v in variants])
        if dup is not None:
            raise _err(path, "sensitivity", f"its variant {dup!r} has the name of another variant")
    if len(variants) > max_variants:
        raise _err(path, "variant", f"{len(variants)} variants, more than --max-variants {max_variants}")
    ladder = ladder_rungs(path, raw["ladder"], tuple(players), n_games) if "ladder" in raw else ()
    sweep = Sweep(str(path), tuple(games), tuple(players), n_games, seed, strategies, tuple(variants), baseline,
                  sensitivity, ladder)
    for v in variants:  # a line-up that does not fit a player count
        for n in players:
            try:
                sweep.line_up(v, n)
            except NesimError as exc:
                raise _err(path, f"variant {v.name!r} strategies", str(exc)) from None
    return sweep


# ---------------------------------------------------------------------------- one-step sensitivity

SENSITIVITY_OPTIONS = ("figures", "control")


def sensitivity_variants(path, table: Any, base: Variant, games: tuple[str, ...],
                         players: tuple[int, ...]) -> tuple[list[dict], dict]:
    """The raw variant tables of ``[sensitivity]`` (each knob one step down, then up, from the
    baseline variant ``base``) and what the manifest records of it."""
    if not isinstance(table, dict):
        raise _err(path, "sensitivity", "must be a table of dotted keys -> steps")
    knobs = {k: v for k, v in table.items() if k not in SENSITIVITY_OPTIONS}
    if not knobs:
        raise _err(path, "sensitivity", "names no knob (e.g. \"cards.mansion.cost\" = 1)")
    tables, described = [], []
    for key, step in knobs.items():
        value = _knob_value(path, key, base, games)
        whole = not key.startswith("params.")
        if isinstance(step, bool) or not isinstance(step, (int, float)) or step <= 0 or \
                (whole and not isinstance(step, int)):
            kind = "a whole number" if whole else "a number"
            raise _err(path, f"sensitivity.{key}", f"the step must be {kind} above 0, got {step!r}")
        moved = {}
        for direction, sign in (("down", -1), ("up", 1)):
            new = [x + sign * step for x in value] if isinstance(value, list) else value + sign * step
            changes = _raw_changes(base)
            _set_dotted(path, changes, key, new, "sensitivity.")
            name = f"{key.split('.', 1)[1]}={_fmt(new)}"
            tables.append({"name": name, **changes})
            moved[direction], moved[direction + "_value"] = name, new
        described.append({"knob": key, "step": step, "baseline": value, **moved})
    figures = _sensitivity_figures(path, table.get("figures"), knobs, games, players)
    control = table.get("control", "holm")
    if control not in ("holm", "bh"):
        raise _err(path, "sensitivity.control", f"must be \"holm\" or \"bh\", got {control!r}")
    return tables, {"figures": figures, "control": control, "knobs": described}


def _raw_changes(v: Variant) -> dict:
    """A variant's changes as the raw table of a sweep file (for another variant to start from)."""
    out: dict = {"cards": {k: dict(f) for k, f in v.cards.items()}, "rules": dict(v.rules),
                 "params": {k: dict(p) for k, p in v.params.items()}}
    if v.new_cards:
        out["new_cards"] = {k: dict(f) for k, f in v.new_cards.items()}
    if v.strategies is not None:
        out["strategies"] = list(v.strategies)
    return out


def _knob_value(path, key: str, base: Variant, games: tuple[str, ...]):
    """The knob's value in the baseline variant: its own change, else the data files' (or the
    strategy's default); the same in every game of the sweep, or a step has no single start."""
    from nesim.registry import find

    parts = key.split(".")
    where = f"sensitivity.{key}"
    if parts[0] == "params" and len(parts) == 3:
        mod = find(parts[1])
        if mod is None or parts[2] not in mod.PARAMS:
            raise _err(path, where, "unknown strategy or parameter")
        return float(base.params.get(parts[1], {}).get(parts[2], mod.PARAMS[parts[2]]))
    values = []
    if parts[0] == "cards" and len(parts) == 3:
        if parts[2] not in CARD_FIELDS:
            raise _err(path, where, f"unknown field (allowed: {', '.join(CARD_FIELDS)})")
        if parts[2] == "effect":
            raise _err(path, where, "an effect has no single step; vary it in a [[variant]] or a [grid]")
        for g in games:
            data = load_game(g)
            if parts[1] in data.index:
                values.append(base.cards.get(parts[1], {}).get(
                    parts[2], getattr(data.buildings[data.index[parts[1]]], parts[2])))
        if not values:
            raise _err(path, where, f"unknown card for {' / '.join(games)}")
    elif parts[0] == "rules" and len(parts) == 2:
        if parts[1] not in RULE_FIELDS:
            raise _err(path, where, f"unknown rule (known: {', '.join(RULE_FIELDS)})")
        for g in games:
            v = base.rules.get(parts[1], getattr(load_game(g).rules, parts[1]))
            values.append(list(v) if isinstance(v, (tuple, list)) else v)
        if isinstance(values[0], str):
            raise _err(path, where, "names a card, which has no step; vary it in a [[variant]]")
    else:
        raise _err(path, where, "unknown key (expected cards.<card>.<field>, rules.<parameter> or "
                   "params.<strategy>.<parameter>)")
    if any(v != values[0] for v in values):
        raise _err(path, where, f"differs between the games of the sweep ({values}); "
                   "give each game its own sweep file")
    return values[0]


def _sensitivity_figures(path, figures: Any, knobs: dict, games: tuple[str, ...],
                         players: tuple[int, ...]) -> list[str]:
    from nesim.stats import parse_figure

    if figures is None:
        cards = [k.split(".")[1] for k in knobs if k.startswith("cards.")]
        figures = ["winning_score"] + (["first_seat_win"] if max(players) > 1 else []) + \
            [f"card_edge:{c}" for c in dict.fromkeys(cards)]
    if not isinstance(figures, list) or not figures or not all(isinstance(f, str) for f in figures):
        raise _err(path, "sensitivity.figures", "must be a non-empty list of figure names")
    for f in figures:
        fig = parse_figure(f, f"{path}: sensitivity.figures")
        if fig.kind == "card_edge" and not any(fig.arg in load_game(g).index for g in games):
            raise _err(path, "sensitivity.figures", f"card_edge:{fig.arg}: unknown card for {' / '.join(games)}")
    dup = _first_repeat(figures)
    if dup is not None:
        raise _err(path, "sensitivity.figures", f"lists {dup!r} twice")
    return list(figures)


# ---------------------------------------------------------------------------- the skill ladder

# The rungs of a [ladder] that names none, weakest first: those registered when the file is read
# (expert, the player distilled from the search, joins once it is registered). A new rung is
# one more spec here, in its place by strength.
DEFAULT_RUNGS = ("random", "greedy", "strong", "expert", "strong:search=2,search_sub=1",
                 "strong:search=4,search_sub=2")
LADDER_OPTIONS = ("rungs", "games")
SEARCHED_SHARE = 10  # a searched rung of a [ladder] without games plays the sweep's games / 10


def default_rungs() -> list[str]:
    """DEFAULT_RUNGS that are registered strategies."""
    from nesim.registry import find

    return [r for r in DEFAULT_RUNGS if find(r.partition(":")[0]) is not None]


def searched(strategy) -> bool:
    """Whether a resolved strategy searches by playouts (a parameter ``search`` above 0): about a
    hundred times slower than one-ply play, so it gets fewer games by default."""
    return dict(zip(strategy.defaults, strategy.values)).get("search", 0) > 0


def ladder_rungs(path, table: Any, players: tuple[int, ...], sweep_games: int) -> tuple[Rung, ...]:
    """The rungs of ``[ladder]``: ``rungs`` (strategy specs, weakest first; default: the registered
    DEFAULT_RUNGS) and ``games`` (one number for every rung or one per rung; default: the sweep's
    games, a tenth of them, rounded up, for a searched rung)."""
    from nesim.registry import resolve_all

    if not isinstance(table, dict):
        raise _err(path, "ladder", "must be a table such as [ladder] rungs = [\"random\", \"greedy\"]")
    for k in table:
        if k not in LADDER_OPTIONS:
            raise _err(path, f"ladder.{k}", f"unknown key (allowed: {', '.join(LADDER_OPTIONS)})")
    if not any(n > 1 for n in players):
        raise _err(path, "ladder", "needs a player count of 2 or more (its rungs are mirror games)")
    specs = table.get("rungs", default_rungs())
    if not isinstance(specs, list) or not all(isinstance(x, str) and x.strip() for x in specs):
        raise _err(path, "ladder.rungs", "must be a list of strategy names (with parameters, e.g. "
                   "'strong:search=2,search_sub=1'), weakest first")
    if len(specs) < 2:
        raise _err(path, "ladder.rungs", f"names {len(specs)} rung(s); a ladder compares at least 2")
    try:
        resolved = resolve_all(specs)
    except NesimError as exc:
        raise _err(path, "ladder.rungs", str(exc)) from None
    labels = [s.label for s in resolved]
    dup = _first_repeat(labels)
    if dup is not None:
        raise _err(path, "ladder.rungs", f"lists {dup!r} twice")
    games = table.get("games")
    if games is None:
        games = [math.ceil(sweep_games / SEARCHED_SHARE) if searched(s) else sweep_games for s in resolved]
    elif isinstance(games, list):
        if len(games) != len(specs):
            raise _err(path, "ladder.games", f"gives {len(games)} numbers for {len(specs)} rungs "
                       "(give one number for every rung, or one per rung)")
        games = [_int(path, f"ladder.games[{i}]", g, 1) for i, g in enumerate(games)]
    else:
        games = [_int(path, "ladder.games", games, 1)] * len(specs)
    return tuple(Rung(label, g) for label, g in zip(labels, games))
