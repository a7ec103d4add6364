"""The skill ladder: do card values, seat win rates and a sweep's verdicts hold as the players
get stronger?

Plays a game (or every variant of a sweep file) again with players of rising strength, each rung
in mirror games (its strategy in every seat), through `nesim sweep` and a `[ladder]` table, and
prints per game, player count and variant: the rungs and their games, the rank correlation
(Spearman) of the card values of consecutive rungs, the card values per rung, the seat win rates
per rung and the verdicts (each variant against the baseline) that change between rungs. The
numbers are the report's own (nesim/report/ladder.py on nesim.stats); the whole report, with its
skill-ladder section, is written beside the data.

    .venv/bin/python experiments/skill_ladder.py --game mecenat --players 2 [--games 4000]
        [--searched-games 1000] [--rungs "random;greedy;strong"] [--jobs 2] [--out DIR]
    .venv/bin/python experiments/skill_ladder.py --spec experiments/sweeps/FILE.toml

Searched rungs (a strategy with search=N) play about a hundred times slower than the others, so
they play --searched-games (default a quarter of --games): their intervals are wider. A sweep
file that has its own [ladder] is played as it is. The default rungs are the registered ones of
nesim.sweep.DEFAULT_RUNGS (random, greedy, strong, expert once registered, strong searched at two
budgets); --rungs names others, weakest first, separated by ';'. Seeds are fixed (--seed, or the
file's); a second run with the same options reuses the data (`nesim sweep --resume`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from _common import REPORTS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import pandas as pd

from nesim.registry import resolve_all
from nesim.report.ladder import ladder_numbers, rung_numbers
from nesim.sweep import default_rungs, searched


def arguments() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--game", choices=["progress", "mecenat", "glory"])
    what.add_argument("--spec", help="a sweep file: every variant of it climbs the ladder")
    p.add_argument("--players", type=int, default=2, help="with --game: players per game (2-4)")
    p.add_argument("--rungs", help="strategy specs separated by ';', weakest first [default: the registered "
                   "ones of " + ", ".join(default_rungs()) + "]")
    p.add_argument("--games", type=int, default=4000, help="games per variant and player count of an "
                   "unsearched rung")
    p.add_argument("--searched-games", type=int, help="of a searched rung [default: --games / 4]")
    p.add_argument("--seed", type=int, default=1, help="with --game: the master seed")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", help="folder of the data and the report [default: reports/skill-ladder-<name>]")
    return p.parse_args()


def toml_list(values) -> str:
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def ladder_table(rungs: list[str], games: int, searched_games: int) -> str:
    counts = [searched_games if searched(s) else games for s in resolve_all(rungs)]
    return f"\n[ladder]\nrungs = {toml_list(rungs)}\ngames = {toml_list(counts)}\n"


def sweep_file(args, rungs: list[str], folder: Path) -> Path:
    """The sweep file to play: the one given (with a [ladder] added unless it has one), or one
    variant of one game whose sweep line-up is the first rung."""
    searched_games = args.searched_games or max(1, args.games // 4)
    if args.spec:
        text = Path(args.spec).read_text()
        if "ladder" not in tomllib.loads(text):
            text += ladder_table(rungs, args.games, searched_games)
    else:
        text = (f'game = "{args.game}"\nplayers = [{args.players}]\ngames = {args.games}\nseed = {args.seed}\n'
                f"strategies = {toml_list(rungs[:1])}\n" + ladder_table(rungs, args.games, searched_games))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sweep.toml"
    path.write_text(text)
    return path


def show(df: pd.DataFrame) -> str:
    return df.to_string(index=False, float_format=lambda x: f"{x:.3f}") if len(df) else "(none)"


def main() -> None:
    args = arguments()
    rungs = [r.strip() for r in args.rungs.split(";")] if args.rungs else default_rungs()
    name = Path(args.spec).stem if args.spec else f"{args.game}-{args.players}p"
    folder = Path(args.out) if args.out else REPORTS / f"skill-ladder-{name}"
    spec = sweep_file(args, rungs, folder)
    data = folder / "data"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "nesim", "sweep", str(spec), "--out", str(data), "--jobs",
                    str(args.jobs), "--resume", "--quiet"], check=True)
    played = time.perf_counter() - start
    manifest = json.loads((data / "manifest.json").read_text())
    numbers = [rung_numbers(r["rung"], r["strategy"], r["games"], str(data / r["dataset"]))
               for r in manifest["ladder"]["rungs"]]
    t = ladder_numbers(numbers)
    names = {r.number: f"{r.number}. {r.strategy}" for r in numbers}
    print(f"sweep {spec} into {data} ({played:.0f} s to play or find)")
    print("\nRungs (games per variant and player count; a rung of fewer games has wider intervals):")
    print(show(pd.DataFrame([{"rung": names[r.number], "games": r.games, "played in all": r.played}
                             for r in numbers])))
    corr = t["correlations"].assign(pair=lambda d: [f"{names[a]} -> {names[b]}" for a, b in zip(d.rung_a, d.rung_b)])
    print("\nRank correlation (Spearman) of the card values of consecutive rungs, 95% interval:")
    print(show(corr[["game", "n_players", "variant", "pair", "n", "rho", "lo", "hi", "p"]]))
    values = t["values"]
    for (game, n, variant), sub in values.groupby(["game", "n_players", "variant"], sort=True):
        wide = sub.pivot_table(index="name", columns="rung", values="value", aggfunc="first")
        wide.columns = [names[c] for c in wide.columns]
        wide = wide.sort_values(wide.columns[-1], ascending=False)
        print(f"\nCard values (log-odds of winning when built, mirror games), {game} {n} players, "
              f"variant {variant}; ordered by the strongest rung:")
        print(wide.to_string(float_format=lambda x: f"{x:+.2f}"))
        margin = sub.assign(width=sub["coef_hi"] - sub["coef_lo"]).groupby("rung")["width"].median()
        print("median width of a card value's 95% interval per rung: " +
              ", ".join(f"{names[r]} {w:.2f}" for r, w in margin.items()))
    seats = t["seats"].assign(rung=lambda d: d["rung"].map(names))
    print("\nWin rate by seat per rung, 95% interval:")
    print(show(seats[["game", "n_players", "variant", "rung", "seat", "n", "rate", "lo", "hi"]]))
    verdicts = t["verdicts"]
    print(f"\nVerdicts (each variant against the baseline): {int(verdicts['changed'].sum()) if len(verdicts) else 0} "
          f"of {len(verdicts)} change between consecutive rungs")
    if len(verdicts):
        shown = verdicts[verdicts["changed"]].rename(columns=names)
        print(show(shown[["game", "n_players", "variant", "item", *names.values(), "changes"]]))
    report = folder / "report.html"
    subprocess.run([sys.executable, "-m", "nesim", "report", str(data), "--out", str(report), "--quiet"], check=True)
    print(f"\nwrote {report}")


if __name__ == "__main__":
    main()
