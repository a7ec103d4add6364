"""``nesim tune``: search the knobs of a tune file toward its targets, and propose the change.

A tune file (docs/TUNE.md) names the game(s), player counts, strategies, seed, a budget, the knobs
and the targets. ``load_tune(path)`` reads and checks all of it before anything runs (every
problem is one line naming the file, the key and the reason); ``run_tune`` then searches:

- **Knobs** are sweep keys (``cards.K.cost``, ``rules.P``, ``params.S.P``), checked by the very
  functions that check a sweep variant (nesim/sweep.py), at every end of their range. Effect
  arguments become knobs when sweep variants accept them: nothing here names the card fields.
- **The search** is an Optuna study (TPE sampler, seeded) in ``DIR/study.journal``, a journal
  file that records each candidate as it is told; ``--resume`` reopens it, so no evaluated
  candidate is lost. The baseline is always candidate 0.
- **Common random numbers**: every candidate plays games 0, 1, 2, ... of each player count, and
  game ``i`` has the same seed for all of them (nesim/rng.py), so candidates differ by their
  knobs, not by their deals.
- **Racing** (spends games where the answer is still open): a candidate plays a first rung of
  games, then three times more at each rung up to ``games``. After each rung every target figure
  is "met" (its 95% interval inside the band), "missed" (wholly outside) or "open"; a candidate
  with a missed figure, or with every figure met, stops there. One still open after ``games``
  is judged by its point estimates.
- **The proposal** is, among the candidates that met every target, the one that changes least:
  fewest knobs moved from the baseline, then the smallest move (each knob's move in units of its
  range, or of its list of choices), then the smallest loss. When none met the targets, the one
  with the smallest loss (summed distance of the estimates outside their bands, in band widths)
  is written, marked as not meeting them.

Outputs, written at the end, each whole (staged, then renamed): ``DIR/trials.parquet``,
``DIR/report.html`` and last ``DIR/proposal.toml``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import numpy as np
import pandas as pd

from nesim.errors import NesimError
from nesim.sweep import (Sweep, Variant, _check_variant, _err, _int, _one_or_more, _game, _player_count,
                         _set_dotted, _strategies)

TOP_KEYS = {"game", "players", "strategies", "seed", "games", "first_games", "budget", "knobs", "target",
            "baseline"}
TARGET_KEYS = {"card_value", "seat_balance", "winning_score"}
RUNG_FACTOR = 3  # each racing rung plays this many times the games of the one before
JOURNAL = "study.journal"
STATE = "tune.json"
OUTPUTS = ("trials.parquet", "report.html", "proposal.toml")
MAX_REPEATS = 50  # proposals of already evaluated candidates in a row before the space counts as exhausted


# ============================================================================ the tune file


@dataclass(frozen=True)
class Knob:
    key: str                        # a sweep key, e.g. cards.mansion.cost
    low: float | None = None        # an inclusive range ...
    high: float | None = None
    choices: tuple | None = None    # ... or a list of choices
    baseline: Any = None            # the value the baseline plays

    @property
    def is_float(self) -> bool:
        return self.choices is None and (isinstance(self.low, float) or isinstance(self.high, float))

    def values(self) -> list | None:
        """Every value the knob can take, or None for a continuous range."""
        if self.choices is not None:
            return list(self.choices)
        return None if self.is_float else list(range(int(self.low), int(self.high) + 1))

    def move(self, value) -> float:
        """How far ``value`` is from the baseline, in units of the knob's range (0 = unchanged)."""
        if _same(value, self.baseline):
            return 0.0
        if self.choices is not None:
            if self.baseline in self.choices and len(self.choices) > 1:
                return abs(self.choices.index(value) - self.choices.index(self.baseline)) / (len(self.choices) - 1)
            return 1.0
        width = self.high - self.low
        return abs(float(value) - float(self.baseline)) / width if width > 0 else 1.0


@dataclass(frozen=True)
class Target:
    kind: str                 # card_value, seat_balance, winning_score
    cards: tuple[str, ...] = ()
    within: float = 0.0       # a fraction (3 pp = 0.03)
    around: float = 0.0       # card_value: the band's centre, a fraction
    low: float = 0.0          # winning_score: the band
    high: float = 0.0


@dataclass(frozen=True)
class TuneSpec:
    path: str
    games: tuple[str, ...]
    players: tuple[int, ...]
    strategies: tuple[str, ...]
    seed: int
    max_games: int
    first_games: int
    budget: int
    knobs: tuple[Knob, ...]
    targets: tuple[Target, ...]
    baseline_changes: dict      # the design being tuned: variant changes against the data files
    text_hash: str

    def rungs(self) -> list[int]:
        """The game counts after which a candidate is judged: first_games, x3, x9, ..., max_games."""
        out = [self.first_games]
        while out[-1] * RUNG_FACTOR < self.max_games:
            out.append(out[-1] * RUNG_FACTOR)
        if len(out) > 1 and self.max_games < 1.5 * out[-1]:
            out[-1] = self.max_games  # no last rung of a handful of games (2,222 x 9 = 19,998 of 20,000)
        elif out[-1] != self.max_games:
            out.append(self.max_games)
        return out

    def variant(self, name: str, values: dict[str, Any]) -> Variant:
        """The baseline's changes with the knobs set to ``values``, checked as a sweep variant."""
        raw = _deep_copy(self.baseline_changes)
        for key, value in values.items():
            _set_dotted(self.path, raw, key, value, "knobs.")
        return _check_variant(self.path, f"knobs ({name})", {"name": name, **raw}, self.games)

    def sweep(self, variants: tuple[Variant, ...]) -> Sweep:
        return Sweep(self.path, self.games, self.players, self.max_games, self.seed, self.strategies, variants)

    def baseline_values(self) -> dict[str, Any]:
        return {k.key: k.baseline for k in self.knobs}


def _same(a, b) -> bool:
    return json.dumps(a) == json.dumps(b) if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)) \
        else (a == b)


def _deep_copy(d):
    return json.loads(json.dumps(d))


def _read_toml(path) -> tuple[dict, bytes]:
    p = Path(path)
    try:
        text = p.read_bytes()
    except FileNotFoundError:
        raise NesimError(f"{path}: no such tune file") from None
    except OSError as exc:
        raise NesimError(f"{path}: cannot read ({exc.strerror})") from None
    try:
        return tomllib.loads(text.decode("utf-8")), text
    except UnicodeDecodeError:
        raise NesimError(f"{path}: not UTF-8 text; TOML files must be saved as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise NesimError(f"{path}: not valid TOML ({exc})") from None


def _number(path, key, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _err(path, key, f"must be a number, got {value!r}")
    return value


def _pp(path, key, value, low: float, high: float) -> float:
    """A number of win-rate points in (low, high), returned as a fraction."""
    v = _number(path, key, value)
    if not low < v < high:
        raise _err(path, key, f"must be more than {low:g} and less than {high:g} pp, got {v!r}")
    return v / 100.0


def _baseline_value(path, key: str, games: tuple[str, ...], variant: Variant, sweep: Sweep):
    """The value a knob has in the baseline design (the tune file's [baseline] on the data files).

    The hook for effect arguments as knobs: once the sweep's ``_set_dotted`` and ``_check_variant``
    accept them (the architecture issue's card effects as data), a knob on one is checked with no
    change here; only this function must learn to read the argument's current value."""
    head, *rest = key.split(".")
    if head == "cards":
        for g in games:
            data = sweep.data(variant, g)
            if rest[0] in data.index:
                return getattr(data.building(rest[0]), rest[1])
        raise _err(path, f"knobs.{key}", f"unknown card for {' / '.join(games)}")
    if head == "rules":
        value = getattr(sweep.data(variant, games[0]).rules, rest[0])
        return list(value) if isinstance(value, tuple) else value
    if head == "params":
        from nesim.registry import find

        return float(variant.params.get(rest[0], {}).get(rest[1], find(rest[0]).PARAMS[rest[1]]))
    raise _err(path, f"knobs.{key}", "unknown key")  # pragma: no cover - _set_dotted refused it


def _knob(path, key: str, raw, check: Callable[[dict], None]) -> Knob:
    """One knob: ``[low, high]`` (inclusive), a list of lists (choices), or ``{ choices = [...] }``."""
    where = f"knobs.{key}"
    _set_dotted(path, {}, key, 0, "knobs.")  # the sweep's own check of the key's shape
    if isinstance(raw, dict):
        if set(raw) != {"choices"} or not isinstance(raw["choices"], list):
            raise _err(path, where, "a table must be { choices = [...] }")
        choices = raw["choices"]
    elif isinstance(raw, list) and raw and all(isinstance(v, list) for v in raw):
        choices = raw
    elif isinstance(raw, list) and len(raw) == 2 and not any(isinstance(v, (list, dict)) for v in raw):
        low, high = (_number(path, where, v) for v in raw)
        if low > high:
            raise _err(path, where, f"empty range [{low}, {high}]: the low end is above the high end")
        if (isinstance(low, float) or isinstance(high, float)) and not key.startswith("params."):
            raise _err(path, where, "a card field or rule takes whole numbers; give a range of whole numbers")
        for v in (low, high):
            check({key: v})
        return Knob(key, low, high)
    else:
        raise _err(path, where, "must be a range [low, high], a list of choices [[...], [...]] "
                   "or { choices = [...] }")
    if not choices:
        raise _err(path, where, "the list of choices is empty")
    seen = []
    for v in choices:
        if any(_same(v, s) for s in seen):
            raise _err(path, where, f"lists the choice {v!r} twice")
        seen.append(v)
        check({key: v})
    return Knob(key, choices=tuple(choices))


def _target(path, kind: str, raw, games: tuple[str, ...], players: tuple[int, ...]) -> Target:
    where = f"target.{kind}"
    if kind == "winning_score":
        if not isinstance(raw, list) or len(raw) != 2:
            raise _err(path, where, "must be a range [low, high] of the mean winning score")
        low, high = (_number(path, where, v) for v in raw)
        if low > high:
            raise _err(path, where, f"impossible target: the range [{low}, {high}] is empty")
        if 1 in players:
            raise _err(path, where, "needs 2-4 players (a solo game has no winner to score)")
        return Target(kind, low=float(low), high=float(high))
    if not isinstance(raw, dict):
        raise _err(path, where, "must be a table, e.g. { within_pp = 3 }")
    allowed = {"within_pp"} | ({"cards", "around_pp"} if kind == "card_value" else set())
    for k in raw:
        if k not in allowed:
            raise _err(path, f"{where}.{k}", f"unknown key (allowed: {', '.join(sorted(allowed))})")
    if "within_pp" not in raw:
        raise _err(path, f"{where}.within_pp", "missing")
    within = _pp(path, f"{where}.within_pp", raw["within_pp"], 0, 100)
    if kind == "seat_balance":
        if 1 in players:
            raise _err(path, where, "needs 2-4 players (a solo game has one seat)")
        return Target(kind, within=within)
    cards = raw.get("cards")
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str) for c in cards):
        raise _err(path, f"{where}.cards", "must be a non-empty list of card keys")
    from nesim.cards import load_game

    for c in cards:
        if not any(load_game(g).is_building(c) for g in games):
            raise _err(path, f"{where}.cards", f"unknown card {c!r} for {' / '.join(games)}")
    around = _pp(path, f"{where}.around_pp", raw.get("around_pp", 0), -100, 100) if "around_pp" in raw else 0.0
    return Target(kind, cards=tuple(cards), within=within, around=around)


def load_tune(path: str | Path) -> TuneSpec:
    """Reads and checks a whole tune file; every problem is a NesimError naming the key."""
    raw, text = _read_toml(path)
    for k in raw:
        if k not in TOP_KEYS:
            raise _err(path, k, f"unknown key (allowed: {', '.join(sorted(TOP_KEYS))})")
    for k in ("game", "players", "strategies", "games", "budget", "knobs", "target"):
        if k not in raw:
            raise _err(path, k, "missing")
    from nesim.rng import check_seed

    games = tuple(_one_or_more(path, "game", raw["game"], _game))
    players = tuple(_one_or_more(path, "players", raw["players"], _player_count))
    strategies = _strategies(path, "strategies", raw["strategies"])
    seed = check_seed(raw.get("seed", 0), f"{path}: seed")
    max_games = _int(path, "games", raw["games"], 1)
    first = _int(path, "first_games", raw.get("first_games", -(-max_games // RUNG_FACTOR ** 2)), 1)
    if first > max_games:
        raise _err(path, "first_games", f"must be at most games ({max_games}), got {first}")
    budget = _int(path, "budget", raw["budget"], 1)
    base_raw = raw.get("baseline", {})
    if not isinstance(base_raw, dict) or "name" in base_raw:
        raise _err(path, "baseline", "must be a table of changes such as cards.mansion = { cost = 1 }")
    base = _check_variant(path, "baseline", {"name": "baseline", **base_raw}, games)
    sweep = Sweep(str(path), games, players, max_games, seed, strategies, (base,))
    for n in players:
        try:
            sweep.line_up(base, n)
        except NesimError as exc:
            raise _err(path, "strategies", str(exc)) from None
    base_changes = {k: v for k, v in base_raw.items() if k != "strategies"}
    if "strategies" in base_raw:
        raise _err(path, "baseline.strategies", "the line-up is the file's strategies")

    def check(values: dict) -> None:
        raw_v = _deep_copy(base_changes)
        for key, value in values.items():
            _set_dotted(path, raw_v, key, value, "knobs.")
        _check_variant(path, "knobs." + ",".join(values), {"name": "check", **raw_v}, games)

    if not isinstance(raw["knobs"], dict) or not raw["knobs"]:
        raise _err(path, "knobs", "must be a table of at least one knob, e.g. \"cards.mansion.cost\" = [2, 8]")
    knobs = []
    for key, spec in raw["knobs"].items():
        k = _knob(path, key, spec, check)
        knobs.append(Knob(k.key, k.low, k.high, k.choices,
                          _baseline_value(path, key, games, base, sweep)))
    if not isinstance(raw["target"], dict) or not raw["target"]:
        raise _err(path, "target", "must name at least one of " + ", ".join(sorted(TARGET_KEYS)))
    targets = []
    for kind, spec in raw["target"].items():
        if kind not in TARGET_KEYS:
            raise _err(path, f"target.{kind}", f"unknown target (known: {', '.join(sorted(TARGET_KEYS))})")
        targets.append(_target(path, kind, spec, games, players))
    return TuneSpec(str(path), games, players, strategies, seed, max_games, first, budget, tuple(knobs),
                    tuple(targets), base_changes, hashlib.sha256(text).hexdigest()[:16])


# ============================================================================ judging one candidate


def target_figures(spec: TuneSpec, players: pd.DataFrame, builds: pd.DataFrame) -> pd.DataFrame:
    """Every target's figures for the games played so far: one row per (target, game, player
    count, item) with value, lo, hi, the band and its status (nesim/stats.py computes them all)."""
    from nesim import stats as S

    rows = []
    for t in spec.targets:
        if t.kind == "card_value":
            cv = S.card_value_pp(S.card_stats(players, builds))
            for game, n in itertools.product(spec.games, spec.players):
                for card in t.cards:
                    sel = cv[(cv["game"] == game) & (cv["n_players"] == n) & (cv["card"] == card)]
                    if not len(sel) and card not in _cards_of(game):
                        continue  # a card of another game of the file
                    r = sel.iloc[0] if len(sel) else {"value": np.nan, "lo": np.nan, "hi": np.nan}
                    rows.append(("card_value", game, n, card, r["value"], r["lo"], r["hi"],
                                 t.around - t.within, t.around + t.within))
        elif t.kind == "seat_balance":
            for _, r in S.seat_win_rates(players).iterrows():
                rows.append(("seat_balance", r["game"], int(r["n_players"]), f"seat {int(r['seat'])}",
                             r["rate"], r["lo"], r["hi"], r["fair"] - t.within, r["fair"] + t.within))
        else:
            for _, r in S.winning_score(players).iterrows():
                rows.append(("winning_score", r["game"], int(r["n_players"]), "", r["mean"], r["lo"],
                             r["hi"], t.low, t.high))
    df = pd.DataFrame(rows, columns=["target", "game", "n_players", "item", "value", "lo", "hi",
                                     "band_lo", "band_hi"])
    df["status"] = S.band_status(df["lo"], df["hi"], df["band_lo"], df["band_hi"])
    df["distance"] = S.band_distance(df["value"], df["band_lo"], df["band_hi"])
    return df


def _cards_of(game: str) -> set[str]:
    from nesim.cards import load_game

    return set(load_game(game).index)


def verdict(figures: pd.DataFrame, last_rung: bool) -> tuple[str, str]:
    """(verdict, how decided) of a candidate after a rung: "missed" as soon as one figure's
    interval lies outside its band, "met" once every interval lies inside; "open" otherwise,
    except after the last rung, where the point estimates decide."""
    status = figures["status"]
    if (status == "missed").any():
        return "missed", "interval"
    if (status == "met").all():
        return "met", "interval"
    if not last_rung:
        return "open", ""
    return ("met" if (figures["distance"] == 0).all() else "missed"), "estimate"


@dataclass
class Evaluation:
    values: dict
    games: int                 # games per player count played
    verdict: str
    decided_by: str
    loss: float
    figures: pd.DataFrame
    rungs: list = field(default_factory=list)  # (games, loss, verdict) after each rung


def evaluate(spec: TuneSpec, values: dict, play: Callable, report: Callable[[int, float], None] = lambda g, l: None,
             name: str = "candidate") -> Evaluation:
    """Plays one candidate rung by rung (``play(unit, first, count)`` -> tables) until its verdict
    is decided or it has played ``games``; the same game indices, so the same seeds, for all."""
    from nesim.stats import first_builds

    variant = spec.variant(name, values)
    units = spec.sweep((variant,)).units()
    players, builds = [], []
    done, history = 0, []
    rungs = spec.rungs()
    for i, upto in enumerate(rungs):
        for u in units:
            tables = play(u, done, upto - done)
            players.append(tables["players"].to_pandas())
            builds.append(first_builds(tables["builds"].to_pandas()))
        done = upto
        p = pd.concat(players, ignore_index=True)
        b = pd.concat(builds, ignore_index=True)  # rungs play disjoint games: first builds stay first
        figures = target_figures(spec, p, b)
        loss = float(figures["distance"].sum())
        v, how = verdict(figures, i == len(rungs) - 1)
        history.append((done, loss, v))
        report(done, loss)
        if v != "open":
            return Evaluation(values, done, v, how, loss, figures, history)
    raise AssertionError("the last rung always decides")  # pragma: no cover


def change_size(spec: TuneSpec, values: dict) -> tuple[int, float]:
    """(knobs moved from the baseline, their summed move in units of each knob's range)."""
    moves = [k.move(values[k.key]) for k in spec.knobs]
    return sum(m > 0 for m in moves), float(sum(moves))


# ============================================================================ the search


def _storage(out: Path):
    import optuna
    from optuna.storages.journal import JournalFileBackend, JournalStorage

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return JournalStorage(JournalFileBackend(str(out / JOURNAL)))


def _suggest(trial, knob: Knob):
    if knob.choices is not None:
        return knob.choices[trial.suggest_categorical(knob.key, list(range(len(knob.choices))))]
    if knob.is_float:
        return trial.suggest_float(knob.key, float(knob.low), float(knob.high))
    return trial.suggest_int(knob.key, int(knob.low), int(knob.high))


def _space_size(spec: TuneSpec) -> float:
    size = 1.0
    for k in spec.knobs:
        vals = k.values()
        size *= math.inf if vals is None else len(vals)
    return size


def _key(values: dict) -> str:
    return json.dumps(values, sort_keys=True)


def prepare_dir(spec: TuneSpec, out: Path, resume: bool) -> bool:
    """Checks ``--out`` before anything runs; True when a search is there to resume."""
    if out.exists() and not out.is_dir():
        raise NesimError(f"--out {out}: exists and is not a directory")
    existing = out.is_dir() and any(out.iterdir())
    if not existing:
        probe = next((p for p in (out, *out.parents) if p.exists()), Path("."))
        import os

        if not os.access(probe, os.W_OK | os.X_OK):
            raise NesimError(f"--out {out}: cannot write to {probe}")
        return False
    if not resume:
        raise NesimError(f"--out {out}: directory is not empty (use --resume to go on with the search in it)")
    try:
        state = json.loads((out / STATE).read_text())
    except (OSError, ValueError):
        raise NesimError(f"--out {out}: not a nesim tune directory (no readable {STATE})") from None
    if state.get("spec_hash") != spec.text_hash:
        raise NesimError(f"--resume {out}: the search was started from a different tune file "
                         f"({state.get('spec')}); resume it with that file")
    return True


@dataclass
class TuneResult:
    spec: TuneSpec
    trials: pd.DataFrame        # one row per candidate
    figures: pd.DataFrame       # one row per candidate and figure
    baseline: int               # trial number of the baseline
    proposal: int               # trial number of the proposal
    proposal_meets: bool
    stopped: str                # why the search ended


def run_tune(spec: TuneSpec, out: str | Path, *, jobs: int = 1, backend: str = "loky", resume: bool = False,
             say: Callable[[str], None] = lambda m: None, command: list[str] | None = None) -> TuneResult:
    """Runs (or resumes) the search and writes DIR/trials.parquet, report.html, proposal.toml."""
    from nesim import dataset as ds
    from nesim import runner

    out = Path(out)
    if jobs < 1:
        raise NesimError(f"--jobs must be at least 1, got {jobs}")
    resuming = prepare_dir(spec, out, resume)
    base_units = spec.sweep((spec.variant("baseline", spec.baseline_values()),)).units()
    datas = [u.data() for u in base_units]
    runner.warm_up(base_units, [runner.unit_table(u, d) for u, d in zip(base_units, datas)], datas)
    import optuna

    with runner.backend_context(backend, jobs, None) as n_jobs:
        out.mkdir(parents=True, exist_ok=True)
        if not resuming:
            ds.write_whole(out, out / STATE, json.dumps(
                {"spec": spec.path, "spec_hash": spec.text_hash, "command": command or []}).encode())
        study = optuna.create_study(study_name="tune", storage=_storage(out), direction="minimize",
                                    load_if_exists=True,
                                    sampler=optuna.samplers.TPESampler(seed=spec.seed % 2 ** 32,
                                                                       n_startup_trials=5))
        _requeue_interrupted(study, spec)

        def play(unit, first, count):
            return runner.play_in_memory(unit, spec.seed, first, count, n_jobs, backend)

        stopped = _search(study, spec, play, say)
    result = collect(study, spec, stopped)
    _write_outputs(result, out, ds)
    return result


def _requeue_interrupted(study, spec: TuneSpec) -> None:
    """A candidate cut off by a kill is marked failed and queued again, so it is played anew."""
    from optuna.trial import TrialState

    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING, TrialState.WAITING)):
        if t.state == TrialState.RUNNING:
            study._storage.set_trial_state_values(t._trial_id, state=TrialState.FAIL)
            if t.params:
                study.enqueue_trial(t.params, user_attrs={"requeued_from": t.number})


def _completed(study):
    from optuna.trial import TrialState

    return study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))


def _search(study, spec: TuneSpec, play: Callable, say: Callable[[str], None]) -> str:
    """Asks the study for candidates and evaluates them until the budget is spent; why it stopped."""
    done = {t.user_attrs["key"]: t for t in _completed(study) if "repeat_of" not in t.user_attrs}
    if not any(t.user_attrs.get("role") == "baseline" for t in done.values()):
        trial = study.ask()
        _tell(study, trial, spec, spec.baseline_values(), "baseline", play, say, done)
        _enqueue_one_knob_probes(study, spec)
    repeats = 0
    while True:
        base = next(t for t in done.values() if t.user_attrs.get("role") == "baseline")
        if base.user_attrs["verdict"] == "met":
            return "the baseline meets the targets: nothing can change less"
        if len(done) >= spec.budget:
            return f"the budget of {spec.budget} candidates is spent"
        if len(done) >= _space_size(spec):
            return f"every one of the {len(done)} possible candidates was evaluated"
        if repeats >= MAX_REPEATS:
            return f"the sampler proposed only evaluated candidates {MAX_REPEATS} times in a row"
        trial = study.ask()
        values = {k.key: _suggest(trial, k) for k in spec.knobs}
        if _key(values) in done:  # told the known loss, so the sampler learns, but not played again
            prior = done[_key(values)]
            trial.set_user_attr("key", _key(values))
            trial.set_user_attr("repeat_of", prior.number)
            study.tell(trial, prior.value)
            repeats += 1
            continue
        repeats = 0
        _tell(study, trial, spec, values, "search", play, say, done)


def _probe_values(knob: Knob, count: int) -> list:
    """``count`` values of one knob spread evenly inside its range (or its choices), the
    baseline's excluded: the points that cut it into ``count + 1`` equal parts."""
    vals = knob.values()
    if vals is None:  # a continuous range
        return [knob.low + (knob.high - knob.low) * (i + 1) / (count + 1) for i in range(count)]
    vals = [v for v in vals if not _same(v, knob.baseline)]
    if len(vals) <= count:
        return vals
    return [vals[round((i + 1) * (len(vals) - 1) / (count + 1))] for i in range(count)]


def _choice_index(knob: Knob, value) -> int:
    return next(i for i, c in enumerate(knob.choices) if _same(value, c))


def _in_domain(knob: Knob, value) -> bool:
    if knob.choices is not None:
        return any(_same(value, c) for c in knob.choices)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and knob.low <= value <= knob.high


def _enqueue_one_knob_probes(study, spec: TuneSpec) -> None:
    """Before the sampler searches every knob at once, each knob is tried alone at a few values
    (the others at the baseline): the proposal that changes least is most often a one-knob change,
    and a sampler moving all knobs together rarely proposes one. At most half the budget."""
    if not all(_in_domain(k, k.baseline) for k in spec.knobs):
        return  # a baseline the sampler cannot express: no one-knob change from it either
    room = max(0, (spec.budget - 1) // 2)
    per_knob = max(1, room // len(spec.knobs))
    probes = []
    for knob in spec.knobs:
        for v in _probe_values(knob, per_knob):
            values = {k.key: k.baseline for k in spec.knobs}
            values[knob.key] = v
            probes.append({k.key: (_choice_index(k, values[k.key]) if k.choices is not None else values[k.key])
                           for k in spec.knobs})
    for params in probes[:room]:
        study.enqueue_trial(params, user_attrs={"probe": True}, skip_if_exists=True)


def _tell(study, trial, spec: TuneSpec, values: dict, role: str, play, say, done: dict) -> None:
    ev = evaluate(spec, values, play, lambda g, loss: trial.report(loss, g), name=f"trial {trial.number}")
    n_changed, move = change_size(spec, values)
    attrs = {"key": _key(values), "values": values, "role": role, "games": ev.games, "verdict": ev.verdict,
             "decided_by": ev.decided_by, "n_changed": n_changed, "change": move,
             "rungs": ev.rungs, "figures": json.loads(ev.figures.to_json(orient="records"))}
    for k, v in attrs.items():
        trial.set_user_attr(k, v)
    study.tell(trial, ev.loss)
    done[attrs["key"]] = study.get_trials(deepcopy=False)[trial.number]
    say(f"nesim: candidate {trial.number} ({role}): {_describe(values)}: {ev.verdict} after {ev.games:,} "
        f"games per player count (loss {ev.loss:.3f})")


def _describe(values: dict) -> str:
    return ", ".join(f"{k} = {json.dumps(v)}" for k, v in values.items())


# ============================================================================ results


def collect(study, spec: TuneSpec, stopped: str) -> TuneResult:
    """The study's evaluated candidates as tables, and the proposal among them."""
    rows, figs = [], []
    for t in _completed(study):
        a = t.user_attrs
        if "repeat_of" in a:
            continue
        row = {"trial": t.number, "role": a["role"], "games": a["games"], "verdict": a["verdict"],
               "decided_by": a["decided_by"], "loss": t.value, "n_changed": a["n_changed"], "change": a["change"],
               "rungs": json.dumps(a["rungs"])}
        for k in spec.knobs:
            v = a["values"][k.key]
            row[k.key] = json.dumps(v) if isinstance(v, (list, str)) else v
        rows.append(row)
        f = pd.DataFrame(a["figures"])
        f.insert(0, "trial", t.number)
        figs.append(f)
    trials = pd.DataFrame(rows).sort_values("trial", ignore_index=True)
    figures = pd.concat(figs, ignore_index=True)
    baseline = int(trials.loc[trials["role"] == "baseline", "trial"].iloc[0])
    met = trials[trials["verdict"] == "met"]
    if len(met):
        best = met.sort_values(["n_changed", "change", "loss", "trial"]).iloc[0]
    else:
        best = trials.sort_values(["loss", "n_changed", "change", "trial"]).iloc[0]
    return TuneResult(spec, trials, figures, baseline, int(best["trial"]), bool(len(met)), stopped)


def proposal_values(result: TuneResult) -> dict:
    row = result.trials.loc[result.trials["trial"] == result.proposal].iloc[0]
    return {k.key: (json.loads(row[k.key]) if isinstance(row[k.key], str) else _plain(row[k.key]))
            for k in result.spec.knobs}


def _plain(v):
    """A numpy scalar of the trials table as the Python number it was."""
    return v.item() if hasattr(v, "item") else v


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, float) and v.is_integer():
        return repr(v)
    return str(v)


def _toml_changes(changes: dict) -> list[str]:
    """A variant's changes as TOML lines: cards.K = { f = v }, rules.P = v, params.S = { p = v }."""
    lines = []
    for key, fields in sorted(changes.get("cards", {}).items()):
        lines.append(f"cards.{key} = {{ " + ", ".join(f"{f} = {_toml_value(v)}" for f, v in fields.items()) + " }")
    for key, value in sorted(changes.get("rules", {}).items()):
        lines.append(f"rules.{key} = {_toml_value(value)}")
    for strat, params in sorted(changes.get("params", {}).items()):
        lines.append(f"params.{strat} = {{ " + ", ".join(f"{p} = {_toml_value(v)}" for p, v in params.items()) + " }")
    return lines


def proposal_toml(result: TuneResult) -> str:
    """The proposal as a sweep file: the baseline and, unless nothing changes, the proposed variant."""
    spec = result.spec
    values = proposal_values(result)
    moved = {k: v for k, v in values.items() if not _same(v, spec.baseline_values()[k])}
    base = spec.variant("baseline", {})  # the file's [baseline] alone, as the knobs left it
    prop = spec.variant("proposal", moved)
    said = ("meets every target" if result.proposal_meets
            else "is the closest candidate found; NO candidate met every target")
    head = [f"# nesim tune proposal from {spec.path}: candidate {result.proposal} {said}.",
            f"# Search: {len(result.trials)} candidates evaluated; {result.stopped}.",
            "# Play both variants with: nesim sweep proposal.toml --out DIR",
            f"game = {_toml_value(list(spec.games))}", f"players = {_toml_value(list(spec.players))}",
            f"games = {spec.max_games}", f"seed = {spec.seed}", f"strategies = {_toml_value(list(spec.strategies))}",
            "", "[[variant]]", 'name = "baseline"']
    head += _toml_changes({"cards": base.cards, "rules": base.rules, "params": base.params})
    if not moved:
        head += ["", "# No change proposed: " + ("the baseline meets the targets." if result.proposal_meets
                                                    else "no candidate did better than the baseline.")]
    else:
        head += ["", "[[variant]]", 'name = "proposal"',
                 "# " + _describe(moved)]
        head += _toml_changes({"cards": prop.cards, "rules": prop.rules, "params": prop.params})
    return "\n".join(head) + "\n"


def trials_table(result: TuneResult) -> pd.DataFrame:
    """trials.parquet: one row per candidate and target figure, with the candidate's knobs,
    games, verdict, loss and change size."""
    t = result.trials.drop(columns=["rungs"])
    out = t.merge(result.figures, on="trial", how="left")
    out["proposal"] = out["trial"] == result.proposal
    return out


def _write_outputs(result: TuneResult, out: Path, ds) -> None:
    """Makes all three outputs in memory first, then writes each whole; proposal.toml comes last,
    so its presence says the search finished."""
    from nesim.report.tune import tune_report_html

    payloads = {"trials.parquet": ds.parquet_bytes(_arrow(trials_table(result))),
                "report.html": tune_report_html(result).encode("utf-8"),
                "proposal.toml": proposal_toml(result).encode("utf-8")}
    try:
        for name in OUTPUTS:
            ds.write_whole(out, out / name, payloads[name])
    except ds.WriteError as exc:
        raise NesimError(f"{exc}; the search itself is kept: write again with --resume") from None
    ds.remove_staging(out)


def _arrow(df: pd.DataFrame):
    import pyarrow as pa

    return pa.Table.from_pandas(df, preserve_index=False)
