"""How many games does `nesim sweep --until-decided` save, for the same decisions?

Runs one sweep file twice: whole (every variant plays the file's `games`) and with
`--until-decided` (each variant stops once decided). Both play the same seeds, so the games of the
second are the first games of the first. For every variant it prints the decision of the fixed-size
sweep (Student's t interval of the paired difference on all its games, at the same error rate per
variant) beside the sequential decision and the games it needed, then the games of both runs and
their ratio. A sequential decision agrees with the fixed one when both say the variant differs
(with the same sign), or both say it lies within the margin.

Usage: python experiments/until_decided.py [--spec FILE] [--on FIGURE] [--margin M] [--jobs J] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from _common import REPORTS, ROOT

import numpy as np

from nesim import stats as S
from nesim.runner import decision_pairs, sequential_decision_of, units_from_manifest


def run_sweep(spec: str, out: Path, jobs: int, *extra: str) -> None:
    """Runs (or finishes: --resume) one sweep into ``out``."""
    cmd = [sys.executable, "-m", "nesim", "sweep", spec, "--out", str(out), "--jobs", str(jobs),
           "--resume", "--quiet", *extra]
    subprocess.run(cmd, check=True)


def per_game(out: Path, figure) -> dict[int, np.ndarray]:
    """The figure of every game of the dataset, per unit, in game-index order."""
    manifest = json.loads((out / "manifest.json").read_text())
    units = units_from_manifest(manifest)
    players = S.read_table([out], "players")
    builds = S.read_table([out], "builds") if figure.kind == "card_edge" else None
    values = {}
    for i, u in enumerate(units):
        sub = players[(players["variant"] == u.variant) & (players["game"] == u.game)
                      & (players["n_players"] == u.n_players)]
        v = S.game_figure(figure, sub, builds)
        arr = np.full(u.games, np.nan)
        arr[v.index.to_numpy(np.int64) - u.id_base] = v.to_numpy(float)
        values[i] = arr
    return values


def agrees(seq: dict, fixed: dict) -> bool:
    """The sequential decision is one the fixed-size interval also supports."""
    if seq["status"] == "differs":
        return (fixed["lo"] > 0 or fixed["hi"] < 0) and np.sign(seq["estimate"]) == np.sign(fixed["estimate"])
    if seq["status"] == "within margin":
        return -seq["margin"] < fixed["lo"] and fixed["hi"] < seq["margin"]
    return fixed["status"] == "open"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--spec", default=str(ROOT / "experiments" / "sweeps" / "progress_start_player.toml"))
    p.add_argument("--on", default="first_seat_win")
    p.add_argument("--margin", type=float, help="nesim sweep's --margin (default: its own)")
    p.add_argument("--replay-margins", type=lambda t: [float(x) for x in t.split(",")], default=[],
                   help="also replay the decision rule on the fixed sweep's games at these margins (e.g. 0.02,0.04)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default=str(REPORTS / "experiments-data"))
    args = p.parse_args()
    stem = Path(args.spec).stem
    fixed_dir, seq_dir = Path(args.out) / f"{stem}-fixed", Path(args.out) / f"{stem}-until-decided"
    margin = ["--margin", str(args.margin)] if args.margin is not None else []
    run_sweep(args.spec, seq_dir, args.jobs, "--until-decided", "--on", args.on, *margin)
    run_sweep(args.spec, fixed_dir, args.jobs)

    seq = json.loads((seq_dir / "manifest.json").read_text())
    manifest = json.loads((fixed_dir / "manifest.json").read_text())
    units = units_from_manifest(manifest)
    pairs = decision_pairs(units, manifest["config"]["baseline"])
    figure = S.parse_figure(seq["config"]["until_decided"]["on"])
    values = per_game(fixed_dir, figure)
    decided = {(d["variant"], d["game"], d["n_players"]): d for d in seq["decisions"].values()}
    print(f"figure {figure.name}; error rate {seq['config']['until_decided']['alpha']} over "
          f"{len(pairs)} variants; margin {seq['config']['until_decided']['margin']:g}\n")
    print("| variant | players | fixed: difference [interval] | fixed decision | sequential decision | games needed | agree |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    n_agree = 0
    for v, b in pairs.items():
        u = units[v]
        d = decided[(u.variant, u.game, u.n_players)]
        f = S.fixed_decision(values[v] - values[b], d["alpha"], d["margin"])
        fixed_says = " and ".join(w for w, holds in (("differs", f["lo"] > 0 or f["hi"] < 0),
                                                      ("within margin", -d["margin"] < f["lo"] and f["hi"] < d["margin"]))
                                  if holds)
        ok = agrees(d, f)
        n_agree += ok
        print(f"| {u.variant} | {u.n_players} | {f['estimate']:+.4f} [{f['lo']:+.4f}, {f['hi']:+.4f}] | "
              f"{fixed_says.strip() or 'open'} | {d['status']} | {d['games']:,} of {u.games:,} | {'yes' if ok else 'NO'} |")
    fixed_games = sum(u.games for u in units)
    seq_games = sum(d["games"] for d in seq["decisions"].values()) + sum(
        u.games for i, u in enumerate(units_from_manifest(seq)) if str(i) not in seq["decisions"])
    print(f"\n{n_agree} of {len(pairs)} decisions agree. Games: fixed-size sweep {fixed_games:,}, "
          f"until decided {seq_games:,} (baseline included): {fixed_games / seq_games:.1f} times fewer.")
    settings = seq["config"]["until_decided"]
    batch = seq["config"]["chunk_size"]
    replayed = {v: replay(values[v] - values[b], decided_of(units[v], decided)["alpha"], settings["margin"],
                          units[v].games, batch) for v in pairs}
    same = all(replayed[v][0] == decided_of(units[v], decided)["status"] and
               replayed[v][1] == decided_of(units[v], decided)["games"] for v in pairs)
    print(f"\nThe decision rule replayed on the fixed sweep's games (the sequential run's games are their "
          f"first ones) gives {'the same' if same else 'OTHER'} decisions and games as the run.")
    for margin in args.replay_margins:
        out = {v: replay(values[v] - values[b], decided_of(units[v], decided)["alpha"], margin, units[v].games, batch)
               for v in pairs}
        agree = sum(agrees({"status": st, "estimate": est, "margin": margin},
                           S.fixed_decision(values[v] - values[pairs[v]], decided_of(units[v], decided)["alpha"], margin))
                    for v, (st, games, est) in out.items())
        needed = sum(g for _, g, _ in out.values())
        base = {b: max(out[v][1] for v in pairs if pairs[v] == b) for b in set(pairs.values())}
        total = needed + sum(base.values())
        print(f"margin {margin:g}: " + ", ".join(f"{units[v].variant} {st} at {g:,}" for v, (st, g, _) in out.items())
              + f"; {agree} of {len(pairs)} agree with the fixed sweep; {total:,} games: "
              f"{fixed_games / total:.1f} times fewer.")


def decided_of(unit, decided: dict) -> dict:
    return decided[(unit.variant, unit.game, unit.n_players)]


def replay(diffs: np.ndarray, alpha: float, margin: float, cap: int, batch: int) -> tuple[str, int, float]:
    """What `--until-decided` decides on these paired differences: looks after every batch, as
    nesim/runner.py does (the same function, sequential_decision_of)."""
    for t in range(batch, cap + batch, batch):
        t = min(t, cap)
        played = diffs[:t]
        d = sequential_decision_of(played[~np.isnan(played)], alpha, margin, cap)
        if d["status"] != "open":
            return d["status"], t, d["estimate"]
    return "undecided", cap, d["estimate"]


if __name__ == "__main__":
    main()
