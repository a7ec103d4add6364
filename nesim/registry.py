"""The strategy registry: finds the modules of the ``strategies`` package and parses specs.

A spec is ``name`` or ``name:param=value,param=value`` (``greedy:reserve=8,build_bias=1.5``).
Each strategy module defines ``NAME``, ``DESCRIPTION`` (one line), ``PARAMS`` (name -> default)
and ``choose``, compiled with ``@njit(STRATEGY_SIG, cache=True)``, and may define ``table_rows``
(rows of its own data for the card table, see :func:`game_table`); see strategies/README.md.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from nesim.cards import GameData
from nesim.compiling import expect_strategies
from nesim.errors import NesimError
from nesim.kernel.batch import MAXPARAMS


@dataclass(frozen=True)
class Strategy:
    name: str
    description: str
    defaults: dict[str, float]
    choose: Any  # the compiled decision function
    values: tuple[float, ...]  # every parameter, in the order of PARAMS
    table_rows: Any = None  # data -> rows for below the card table, or None; see game_table

    @property
    def label(self) -> str:
        """The name with the parameters that differ from their defaults, e.g. ``greedy:reserve=8``."""
        changed = [f"{k}={_fmt(v)}" for (k, d), v in zip(self.defaults.items(), self.values) if v != d]
        return self.name + (":" + ",".join(changed) if changed else "")

    def param_row(self) -> np.ndarray:
        row = np.zeros(MAXPARAMS)
        row[:len(self.values)] = self.values
        return row


def param_matrix(strategies: "list[Strategy]") -> np.ndarray:
    """The (4, MAXPARAMS) parameter array the kernel takes: one row per seat, unused seats zero."""
    rows = np.zeros((4, MAXPARAMS))
    for seat, s in enumerate(strategies):
        rows[seat] = s.param_row()
    return rows


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


@lru_cache(maxsize=None)
def modules() -> dict[str, ModuleType]:
    """Every strategy, by name. This imports (and so compiles, on a cold cache) every strategy
    module: only for listing them all; a run loads the ones it uses with :func:`find`."""
    found = {}
    for module_name in _module_names():
        mod = _import(module_name)
        if mod is not None:
            found[mod.NAME] = mod
    return dict(sorted(found.items()))


def _module_names() -> dict[str, Path]:
    """Module name -> its source file, for every module of the strategies package."""
    import strategies

    folder = Path(strategies.__path__[0])
    return {info.name: folder / info.name / "__init__.py" if info.ispkg else folder / f"{info.name}.py"
            for info in pkgutil.iter_modules(strategies.__path__) if not info.name.startswith("_")}


@lru_cache(maxsize=None)
def _import(module_name: str) -> ModuleType | None:
    """The module ``strategies.<module_name>`` if it is a strategy, else None.

    Each ``choose`` has an explicit signature, so importing a module compiles it (or loads it
    from Numba's cache) at once: a piece the first run announces (nesim/compiling.py)."""
    try:
        mod = importlib.import_module(f"strategies.{module_name}")
    except Exception as exc:  # a broken strategy file is the user's to fix: name it, one line
        raise NesimError(f"strategies/{module_name}.py does not load: {type(exc).__name__}: {exc}") from None
    if not all(hasattr(mod, a) for a in ("NAME", "DESCRIPTION", "PARAMS", "choose")):
        return None
    if len(mod.PARAMS) > MAXPARAMS:
        raise NesimError(f"strategy {mod.NAME}: at most {MAXPARAMS} parameters")
    return mod


@lru_cache(maxsize=None)
def _declared_names() -> dict[str, str | None]:
    """Module name -> the ``NAME = "..."`` its source declares (None when not a plain string),
    read without importing, so that finding one strategy compiles no other."""
    import ast

    names = {}
    for module_name, path in _module_names().items():
        names[module_name] = None
        try:
            tree = ast.parse(path.read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue  # a broken file: importing it tells what is wrong
        for node in tree.body:
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "NAME" for t in node.targets)
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
                names[module_name] = node.value.value
    return names


def find(name: str) -> ModuleType | None:
    """The module of strategy ``name``, importing only it; None when there is no such strategy."""
    declared = _declared_names()
    for module_name, declared_name in declared.items():
        if declared_name == name:
            mod = _import(module_name)
            if mod is not None and mod.NAME == name:
                return mod
    if None in declared.values():  # a module whose name only importing tells
        return modules().get(name)
    return None


def known_names() -> list[str]:
    """The names of every strategy, for error messages; imports none unless a module's NAME is
    not a plain string."""
    declared = _declared_names()
    if None in declared.values():
        return list(modules())
    return sorted(declared.values())


def param_value(raw: str | float, where: str) -> float:
    """A strategy parameter, as text (``greedy:reserve=8``) or a number (a sweep file), refused
    with one line naming ``where`` unless it is a finite number >= 0.

    Every strategy reads its parameters as counts, rounds, weights or shares: NaN would make each
    comparison false and a negative weight turn a preference around, silently in both cases.
    """
    try:
        value = float(raw)
    except ValueError:
        raise NesimError(f"{where}: must be a number, got {raw!r}") from None
    if not (math.isfinite(value) and value >= 0):
        raise NesimError(f"{where}: must be a finite number >= 0, got {raw!r}")
    return value


def resolve(spec: str) -> Strategy:
    """The strategy a spec names, with its parameters set; a bad spec is a user error."""
    name, _, rest = spec.strip().partition(":")
    mod = find(name)
    if mod is None:
        raise NesimError(f"unknown strategy {name!r} (known: {', '.join(known_names())})")
    values = dict(mod.PARAMS)
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, raw = item.partition("=")
        if not eq:
            raise NesimError(f"strategy {spec!r}: expected param=value, got {item!r}")
        if key not in values:
            known = ", ".join(mod.PARAMS) or "none"
            raise NesimError(f"strategy {name}: unknown parameter {key!r} (known: {known})")
        values[key] = param_value(raw, f"strategy {name}: parameter {key}")
    return Strategy(name, mod.DESCRIPTION, dict(mod.PARAMS), mod.choose, tuple(values.values()),
                    getattr(mod, "table_rows", None))


def game_table(data: GameData, strategies: "list[Strategy]") -> np.ndarray:
    """The card table the kernel plays ``data`` from with these strategies at the table: the
    game's own rows, then the rows of its own data a strategy brings (``table_rows(data)``,
    e.g. strong's learned corrections), which it reads from row ``NROWS`` on.

    Every strategy that brings rows reads them at the same place, so a mix may hold only one
    such strategy (any number of its seats).
    """
    from nesim.kernel.tables import build_table

    table = build_table(data)
    # strategies that bring the same rows (expert reads strong's) may sit at one table
    bringers: dict = {}
    for s in strategies:
        if s.table_rows is not None:
            bringers.setdefault(s.table_rows, set()).add(s.name)
    if len(bringers) > 1:
        names = sorted(min(names) for names in bringers.values())
        raise NesimError(f"strategies {' and '.join(names)} both add rows to the card table; "
                         "a game may seat only one of them")
    for rows_of in bringers:
        rows = rows_of(data)
        if rows is not None:
            table = np.vstack([table, rows.astype(np.int64)])
    return table


def resolve_seats(spec: str, n: int) -> list[Strategy]:
    """One strategy per seat from a list separated by ';' or ',' between names.

    Commas also separate parameters, so ``greedy:reserve=8,random`` is read as two strategies
    when the part after the comma is a strategy name.
    """
    parts: list[str] = []
    for piece in spec.split(";") if ";" in spec else spec.split(","):
        piece = piece.strip()
        if not piece:
            continue
        if "=" in piece.split(":")[0] and parts:  # a parameter of the strategy before it
            parts[-1] += "," + piece
        else:
            parts.append(piece)
    if len(parts) == 1:
        parts *= n
    if len(parts) != n:
        raise NesimError(f"--strategies names {len(parts)} strategies for {n} players")
    return resolve_all(parts)


def resolve_all(specs: "list[str]") -> list[Strategy]:
    """Each spec resolved in turn; on a first run, the line announcing the compile names them all."""
    expect_strategies(dict.fromkeys(spec.strip().partition(":")[0] for spec in specs))
    return [resolve(spec) for spec in specs]
