"""The report's skill-ladder section: the sweep played again by players of rising strength (a
sweep file's ``[ladder]``, each rung a dataset of mirror games inside the sweep's folder), with
the card values, seat win rates and verdicts of each rung side by side, the rank correlation of
card values between consecutive rungs and the verdicts that change from one rung to the next.

Each rung's numbers are the report's own: the rung's dataset is read as the report reads any
dataset (:class:`ReportData`), its card values are the Cards section's (``card_stats``) and its
verdicts the Sweeps section's (``sweep_comparison``); :mod:`nesim.stats` lines them up."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from nesim import stats as S
from nesim.errors import NesimError
from nesim.report.build import (ReportData, Section, _group_label, _order_variants, _slug, incomplete_datasets,
                                make_table)


@dataclass
class RungNumbers:
    """One rung's numbers, multiplayer groups only."""

    number: int
    strategy: str
    games: int  # per variant, game and player count, as the [ladder] asked
    played: int  # games found in its dataset
    cards: pd.DataFrame  # card_stats
    seats: pd.DataFrame  # seat_win_rates
    verdicts: pd.DataFrame  # verdict_rows of its sweep_comparison
    baseline: str
    incomplete: list[str]  # what incomplete_datasets says of its dataset


def rung_numbers(number: int, strategy: str, games: int, folder: str) -> RungNumbers:
    """Reads one rung's dataset and computes its card values, seat win rates and verdicts as the
    Cards, Seats and Sweeps sections do. Raises NesimError when the dataset is missing or empty."""
    manifest = S.read_manifest(folder)
    rd = ReportData([folder], [manifest])
    multi = lambda df: df[df["n_players"].astype(int) > 1]
    # every seat plays the rung's strategy; a variant's parameter changes relabel it, which would
    # keep its mean score from meeting the baseline's, so the rung's name stands for them all
    players = rd.players.assign(strategy=pd.Categorical([strategy] * len(rd.players)))
    comparison = S.sweep_comparison(players, rd.baseline, tables={
        "strategy_win_rates": S.strategy_win_rates(players), "seat_win_rates": rd.seats,
        "score_summary": S.score_summary(players), "card_stats": rd.cards})
    return RungNumbers(number, strategy, games, int(len(rd.games)), multi(rd.cards), multi(rd.seats),
                       multi(S.verdict_rows(comparison)), rd.baseline, incomplete_datasets([folder], [manifest]))


def ladder_numbers(rungs: list[RungNumbers]) -> dict[str, pd.DataFrame]:
    """The ladder's tables: ``values`` (card values per rung, long), ``correlations`` (consecutive
    rungs), ``seats`` (seat win rates per rung, long) and ``verdicts`` (a column per rung)."""
    numbers = [r.number for r in rungs]
    values = pd.concat([r.cards.assign(rung=r.number) for r in rungs], ignore_index=True)
    values["value"] = values["coef"]
    for c in S.GROUP + ["card", "name"]:
        values[c] = values[c].astype(str) if c != "n_players" else values[c].astype(int)
    seats = pd.concat([r.seats.assign(rung=r.number) for r in rungs], ignore_index=True)
    verdicts = pd.concat([r.verdicts.assign(rung=r.number) for r in rungs], ignore_index=True)
    return {"values": values, "correlations": S.ladder_correlations(values, numbers), "seats": seats,
            "verdicts": S.ladder_verdicts(verdicts, numbers)}


def _rung_name(r: RungNumbers) -> str:
    return f"{r.number}. {r.strategy}"


def ladder_section(dirs: list[str], manifests: list[dict], say: Callable[[str], None] = lambda m: None
                   ) -> Section | None:
    """The skill-ladder section of the datasets whose sweep had a ``[ladder]``; None when none had."""
    with_ladder = [(d, m) for d, m in zip(dirs, manifests) if isinstance(m.get("ladder"), dict)]
    if not with_ladder:
        return None
    say("skill ladder")
    sec = Section("ladder", "Skill ladder",
                  "The sweep played again by players of rising strength: each rung plays every variant "
                  "with the same strategy in every seat (mirror games), on the sweep's seeds. Card values "
                  "are the Cards section's value in mirror games (log-odds of winning when the card is "
                  "built, with 95% intervals); verdicts are the Sweeps section's (each variant against "
                  "the baseline, Holm-adjusted), per rung. Where the card values of two consecutive "
                  "rungs rank the cards alike (Spearman's rho near 1) and a verdict holds on every rung, "
                  "it is about the cards; where it changes, it is about the players. Searched rungs "
                  "play fewer games, so their intervals are wider and fewer of their differences are "
                  "flagged: a verdict that turns into \"no difference\" on a rung of few games may "
                  "only lack the games to show.")
    for d, m in with_ladder:
        _dataset_ladder(sec, d, m["ladder"], len(with_ladder) > 1)
    return sec


def _dataset_ladder(sec: Section, folder: str, ladder: dict, name_dataset: bool) -> None:
    if name_dataset:
        sec.h3(f"Dataset {folder}")
    rungs, missing = [], []
    for r in ladder.get("rungs") or []:
        path = str(Path(folder) / r["dataset"])
        try:
            rungs.append(rung_numbers(int(r["rung"]), str(r["strategy"]), int(r["games"]), path))
        except NesimError as exc:
            missing.append(f"rung {r['rung']} ({r['strategy']}): {exc}")
    for r in rungs:
        missing += r.incomplete
    if missing:
        sec.p("Rungs missing or incomplete (nesim sweep --resume --out " + folder + " finishes them): " +
              "; ".join(missing))
    sec.table(make_table(f"tab-ladder-rungs-{_slug(folder)}", "The rungs, weakest first", pd.DataFrame([
        {"rung": r.number, "strategy": r.strategy, "games": r.games, "played": r.played} for r in rungs]), [
        ("rung", "rung", "int"), ("strategy in every seat", "strategy", "str"),
        ("games per variant and player count", "games", "int"), ("games played in all", "played", "int")]))
    if len(rungs) < 2:
        sec.p("Fewer than two rungs were played: nothing to compare.")
        return
    t = ladder_numbers(rungs)
    names = {r.number: _rung_name(r) for r in rungs}
    baseline = rungs[0].baseline
    _correlations(sec, folder, t["correlations"], names, baseline)
    _card_values(sec, folder, t["values"], names, baseline)
    _seats(sec, folder, t["seats"], names, baseline)
    _verdicts(sec, folder, t["verdicts"], names)


def _correlations(sec, folder, corr: pd.DataFrame, names: dict, baseline: str) -> None:
    corr = corr.assign(pair=[f"{names[a]} → {names[b]}" for a, b in zip(corr["rung_a"], corr["rung_b"])])
    sec.table(make_table(f"tab-ladder-corr-{_slug(folder)}", "Rank correlation of the card values of "
                         "consecutive rungs", _order_variants(corr, baseline), [
        ("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
        ("rungs", "pair", "str"), ("cards valued on both", "n", "int"), ("Spearman's rho", "rho", "f2"),
        ("95% CI", ("lo", "hi"), "ci"), ("p", "p", "p")],
        note="The interval (Fisher's z, Bonett-Wright variance) takes each card value as exact; "
             "their own noise pulls rho toward 0, the more so on rungs of few games."))


def _card_values(sec, folder, values: pd.DataFrame, names: dict, baseline: str) -> None:
    rungs = list(names)
    for (game, n, variant), sub in values.groupby(["game", "n_players", "variant"], sort=True):
        wide = sub.pivot_table(index=["card", "name"], columns="rung", values=["value", "coef_lo", "coef_hi"],
                               aggfunc="first").reset_index()
        wide.columns = [f"{a}_{b}" if b != "" else a for a, b in wide.columns]
        for r in rungs:
            for c in ("value", "coef_lo", "coef_hi"):
                if f"{c}_{r}" not in wide:
                    wide[f"{c}_{r}"] = np.nan
        wide = wide.sort_values(f"value_{rungs[-1]}", ascending=False, na_position="last")
        cols = [("card", "name", "str")]
        for r in rungs:
            cols += [(names[r], f"value_{r}", "signed"), ("95% CI", (f"coef_lo_{r}", f"coef_hi_{r}"), "ci")]
        sec.table(make_table(f"tab-ladder-cards-{_slug(folder, game, n, variant)}",
                             f"Card values per rung: {_group_label(game, n)}, variant {variant}", wide, cols,
                             note="Log-odds of winning when the card is built, in mirror games of each "
                                  "rung; ordered by the strongest rung. – where a rung never (or always) "
                                  "built the card.", collapsed=variant != baseline))


def _seats(sec, folder, seats: pd.DataFrame, names: dict, baseline: str) -> None:
    rungs = list(names)
    seats = seats.assign(**{c: seats[c].astype(str) for c in ("game", "variant")})
    wide = seats.pivot_table(index=["game", "n_players", "variant", "seat"], columns="rung",
                             values=["rate", "lo", "hi", "n"], aggfunc="first", observed=True).reset_index()
    wide.columns = [f"{a}_{b}" if b != "" else a for a, b in wide.columns]
    cols = [("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
            ("seat", "seat", "int")]
    for r in rungs:
        for c in ("rate", "lo", "hi"):
            if f"{c}_{r}" not in wide:
                wide[f"{c}_{r}"] = np.nan
        cols += [(names[r], f"rate_{r}", "pct"), ("95% CI", (f"lo_{r}", f"hi_{r}"), "ci_pct")]
    sec.table(make_table(f"tab-ladder-seats-{_slug(folder)}", "Win rate by seat per rung",
                         _order_variants(wide, baseline), cols,
                         note="Seat 0 is the start player; the fair share is 1/N."))


def _verdicts(sec, folder, verdicts: pd.DataFrame, names: dict) -> None:
    rungs = list(names)
    if not len(verdicts):
        sec.p("The sweep has no variant besides its baseline that plays other games on the rungs, so "
              "there are no verdicts to follow.")
        return
    changed = int(verdicts["changed"].sum())
    sec.p(f"{changed} of {len(verdicts)} verdicts change between consecutive rungs (highlighted, first).")
    shown = verdicts.assign(**{f"v_{r}": verdicts[r].fillna("–") for r in rungs})
    shown = shown.sort_values(["changed", "game", "n_players", "variant", "table"],
                              ascending=[False, True, True, True, True], kind="stable")
    cols = [("game", "game", "str"), ("players", "n_players", "int"), ("variant", "variant", "str"),
            ("about", "item", "str")] + [(names[r], f"v_{r}", "str") for r in rungs] + \
           [("changes between rungs", "changes", "str")]
    sec.table(make_table(f"tab-ladder-verdicts-{_slug(folder)}", "Verdicts per rung: each variant against "
                         "the baseline", shown, cols, flag="changed",
                         note="higher / lower: the variant differs from the baseline after the Holm "
                              "adjustment; – where the rung gave no verdict (e.g. a card it never built)."))
