"""Card values: how often each building is built, and what building it is worth in win rate.

Plays 4-player games of each game (greedy against random), then fits a logistic regression of
winning on the cards each player built (nesim.stats.card_stats) and draws each card's marginal
value with its 95% interval. Usage: python experiments/card_values.py [--games N]
"""

from pathlib import Path

from _common import arguments, figure_tag, plt, simulate, table_html, write_page

from nesim import stats as S

args = arguments(__doc__.splitlines()[0], 20_000)
out = Path(args.out)
parts = []
for game in ("progress", "mecenat", "glory"):
    d = simulate(out / "experiments-data" / f"cards-{game}-4p", game, 4, ["greedy", "greedy", "random", "random"],
                 args.games, args.seed, args.jobs)
    players = S.read_table([d], "players")
    builds = S.read_table([d], "builds", reduce=S.first_builds)
    cs = S.card_stats(players, builds).sort_values("coef")
    fig, ax = plt.subplots(figsize=(7, 0.28 * len(cs) + 1))
    ax.errorbar(cs.coef, range(len(cs)), xerr=1.96 * cs.coef_se, fmt="o", ms=3)
    ax.set_yticks(range(len(cs)), cs.name)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_xlabel("log-odds of winning when built (controlling for other cards and seat), 95% interval")
    ax.set_title(f"{game.capitalize()}, 4 players")
    parts.append(f"<h2>{game.capitalize()}</h2>" + figure_tag(fig, f"{game} card marginal values"))
    cols = ["name", "cost", "asset_value", "build_rate", "mean_round", "win_built", "win_not", "coef", "coef_se"]
    parts.append(table_html(cs.sort_values("coef", ascending=False)[cols]))
write_page(out / "card_values.html", "Card values",
           "Marginal value of each building: a logistic regression of winning on built-card indicators.", parts)
