"""A planted imbalance through ``nesim tune``: does the search bring a card made far too cheap back
into its band, within the budget, and how long does it take on this machine?

    .venv/bin/python experiments/tune_planted.py [--spec experiments/sweeps/tune/mansion.toml]
        [--out reports/tune-mansion] [--jobs 2] [--check-seed 2]

Runs ``nesim tune SPEC --out OUT --jobs J`` (the time is the wall clock of that command), prints
the candidates, the proposal and its target figures, then plays the proposal file again with
``nesim sweep`` on another seed (``--check-seed``; 0 skips it) and prints the card value there, so
the verdict does not rest on the games the search chose from. The report is OUT/report.html.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default=str(ROOT / "experiments" / "sweeps" / "tune" / "mansion.toml"))
    ap.add_argument("--out", default=str(ROOT / "reports" / "tune-mansion"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check-seed", type=int, default=2)
    args = ap.parse_args()
    import pandas as pd

    from nesim import stats as S
    from nesim.tune import load_tune

    spec = load_tune(args.spec)
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    nesim = [sys.executable, "-m", "nesim"]
    cmd = nesim + ["tune", args.spec, "--out", str(out), "--jobs", str(args.jobs)]
    print("$", " ".join(cmd), flush=True)
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    seconds = time.perf_counter() - start
    trials = pd.read_parquet(out / "trials.parquet")
    knobs = [k.key for k in spec.knobs]
    per = trials.drop_duplicates("trial")
    print(f"\n{len(per)} candidates, {int(per['games'].sum()):,} games per player count in all, "
          f"{seconds / 60:.1f} minutes wall clock")
    print(per[["trial", *knobs, "games", "verdict", "decided_by", "loss"]].to_string(index=False))
    prop = trials[trials["proposal"]]
    base = trials[trials["role"] == "baseline"]
    cols = ["target", "item", "n_players", "value", "lo", "hi", "band_lo", "band_hi", "status"]
    print("\nbaseline:\n" + base[cols].to_string(index=False))
    print("proposal " + ", ".join(f"{k} = {prop[k].iloc[0]}" for k in knobs) + ":\n" + prop[cols].to_string(index=False))
    if args.check_seed:
        check = out.parent / (out.name + "-check")
        text = (out / "proposal.toml").read_text().replace(f"seed = {spec.seed}\n", f"seed = {args.check_seed}\n")
        (out.parent / (out.name + "-check.toml")).write_text(text)
        shutil.rmtree(check, ignore_errors=True)
        subprocess.run(nesim + ["sweep", str(out.parent / (out.name + "-check.toml")), "--out", str(check),
                                "--jobs", str(args.jobs), "--quiet"], check=True)
        p, b = S.read_table([check], "players"), S.read_table([check], "builds")
        values = S.card_value_pp(S.card_stats(p, b))
        cards = [c for t in spec.targets if t.kind == "card_value" for c in t.cards]
        print(f"\nplayed again on seed {args.check_seed} ({spec.max_games:,} games per variant):")
        print(values[values["card"].isin(cards)][["variant", "card", "value", "lo", "hi"]].to_string(index=False))


if __name__ == "__main__":
    main()
