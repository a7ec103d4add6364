"""The ``nesim`` command line.

Commands are added to the group ``cli`` elsewhere with ``@cli.command()``. The console script
``nesim`` runs :func:`main`.

User errors are one line: a :class:`~nesim.errors.NesimError` raised anywhere inside a command,
and click's own usage errors (unknown command or option, bad value, missing argument), print
exactly ``nesim: error: <message>`` on stderr and exit with status 2, without a traceback and
without click's usage block. ``--help`` and ``--version`` behave as usual (exit 0).
"""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Iterator

import click

from nesim import __version__
from nesim.errors import NesimError

PROG = "nesim"
USER_ERROR_EXIT = 2

# click >= 8.2 raises this (a UsageError) for a group called without a command; it shows the
# help text and is left as click handles it.
_NoArgsIsHelpError = getattr(click.exceptions, "NoArgsIsHelpError", None)


def one_line(message: str) -> str:
    """The message with its lines joined, so that an error is always shown on one line."""
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip())


class UserError(click.ClickException):
    """A user error as shown to the user: one line ``nesim: error: ...``, exit status 2."""

    exit_code = USER_ERROR_EXIT

    def show(self, file=None) -> None:  # noqa: ANN001 - click's signature
        click.echo(f"{PROG}: error: {one_line(self.format_message())}", file=file, err=True)


def _message(exc: BaseException) -> str:
    if isinstance(exc, click.ClickException):
        text = exc.format_message()
    else:
        text = str(exc)
    return one_line(text) or type(exc).__name__


@contextlib.contextmanager
def _one_line_errors() -> Iterator[None]:
    """Turn NesimError and click's exceptions into :class:`UserError`."""
    try:
        yield
    except UserError:
        raise
    except click.ClickException as exc:
        if _NoArgsIsHelpError is not None and isinstance(exc, _NoArgsIsHelpError):
            raise
        raise UserError(_message(exc)) from exc
    except NesimError as exc:
        raise UserError(_message(exc)) from exc


class NesimGroup(click.Group):
    """A click group whose errors, from parsing or from any command below it, are one line."""

    def make_context(self, info_name, args, parent=None, **extra):  # noqa: ANN001
        with _one_line_errors():
            return super().make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx: click.Context):
        with _one_line_errors():
            return super().invoke(ctx)


@click.group(
    cls=NesimGroup,
    name=PROG,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, "--version", prog_name=PROG, message="%(prog)s %(version)s")
def cli() -> None:
    """nesim: simulate the National Economy card games (Progress, Mecenat, Glory) and
    analyse their balance."""


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run :data:`cli` and exit with its status."""
    try:
        cli.main(args=argv, prog_name=PROG)
    except NesimError as exc:  # raised outside any command, e.g. by a context close callback
        click.echo(f"{PROG}: error: {_message(exc)}", err=True)
        sys.exit(USER_ERROR_EXIT)


# ---------------------------------------------------------------------------- commands


def announces_compiles(command=None, *, plays: bool = True):
    """For a command that runs the kernel (``plays``) or loads strategies: on a cold Numba cache
    (a first run) it compiles for minutes, and says so on stderr (nesim/compiling.py); warm, it
    is silent."""
    if command is None:
        return functools.partial(announces_compiles, plays=plays)

    @functools.wraps(command)
    def announcing(*args, **kwargs):
        from nesim.compiling import announce_compiles

        with announce_compiles(lambda line: click.echo(line, err=True), plays):
            return command(*args, **kwargs)

    return announcing


GAME_CHOICE = click.Choice(["progress", "mecenat", "glory"])


def _load(game: str, data_dir: str | None):
    from nesim.cards import load_game

    return load_game(game, data_dir)


data_option = click.option("--data", "data_dir", type=click.Path(file_okay=False), default=None,
                           help="Read the card tables and rules from this folder instead of the built-in ones.")


def _checked_seed(ctx, param, value):  # noqa: ANN001 - click's callback signature
    """--seed as the generator can hold it (0 to 2**64-1), so that titles and data agree."""
    from nesim.rng import check_seed

    return value if value is None else check_seed(value, "--seed")


def _players_count(value: int) -> int:
    if not 1 <= value <= 4:
        raise NesimError(f"--players must be 1 to 4, got {value}")
    return value


def _traced_game(data, log):
    from nesim.reference.replay import replay

    return replay(data, log, trace=True)


def _kernel_log(data, n: int, specs, seed: int):
    """Plays one game in the kernel with the given strategies and returns its decision log."""
    from nesim.kernel import batch
    from nesim.registry import game_table, param_matrix

    params = param_matrix(specs)
    res = batch.play(data, n, [seed], [s.choose for s in specs], params, with_log=True,
                     table=game_table(data, specs))
    return res.decision_log(0), res


def _check_html_out(html_out: str | None) -> None:
    """Refuses a game page that could not be written, before the game is played."""
    if html_out is not None:
        from pathlib import Path

        from nesim.report.build import check_writable

        check_writable(Path(html_out), option="--html")


def _write_html(html_out: str | None, data, game, title: str) -> None:
    if html_out is not None:
        from nesim.report.viewer import write_viewer

        write_viewer(html_out, data, game.events, title)
        click.echo(f"game viewer written to {html_out}", err=True)


def _print_log(data, game, as_json: bool, title: str) -> None:
    from nesim.playlog import json_lines, text_lines

    lines = json_lines(game.events) if as_json else text_lines(data, game.events, title)
    click.echo("\n".join(lines))


@cli.command()
@click.option("--game", required=True, type=GAME_CHOICE, help="Which game to play.")
@click.option("--players", "n_players", required=True, type=int, help="Number of players, 1-4 (1 = solo).")
@click.option("--strategies", default="random", show_default=True,
              help="Comma-separated strategy per seat, or one for every seat.")
@click.option("--seed", default=0, show_default=True, type=int, callback=_checked_seed,
              help="The game's seed, 0 to 2**64-1.")
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON lines.")
@click.option("--html", "html_out", default=None, type=click.Path(dir_okay=False, path_type=str),
              help="Also write a page that steps through the game (self-contained HTML).")
@data_option
@announces_compiles
def play(game: str, n_players: int, strategies: str, seed: int, as_json: bool, html_out: str | None,
         data_dir: str | None) -> None:
    """Play one game and print its log round by round.

    The kernel plays the game with the strategies; the reference engine replays its decisions
    and prints what happened, so the log is also a check of the kernel.
    """
    from nesim.registry import resolve_seats

    _check_html_out(html_out)

    n = _players_count(n_players)
    data = _load(game, data_dir)
    if n == 1:
        data.check_solo()
    specs = resolve_seats(strategies, n)
    log, _ = _kernel_log(data, n, specs, seed)
    labels = ", ".join(s.label for s in specs)
    title = f"{game.capitalize()}, {n} player{'s' * (n != 1)}, seed {seed}, strategies {labels}"
    game = _traced_game(data, log)
    _print_log(data, game, as_json, title)
    _write_html(html_out, data, game, title)


def _card_rows(data) -> list[dict]:
    rows = []
    for b in data.buildings:
        rows.append({"key": b.key, "name": b.name, "name_ja": b.name_ja, "cost": b.cost,
                     "asset_value": b.asset_value, "copies": b.copies, "agriculture": b.agriculture,
                     "industry": b.industry, "facility": b.facility, "sellable": b.sellable,
                     "workable": b.workable, "workers_needed": b.workers_needed,
                     "cost_rule": str(b.cost_rule or ""), "end_game": str(b.end_game or ""),
                     "effect": str(b.effect or ""), "text": b.text})
    return rows


def _spec_game(sw, game: str | None) -> str:
    """The game whose card table ``nesim cards --spec`` prints: --game, which the sweep file must
    play, or the file's only game."""
    if game is None:
        if len(sw.games) > 1:
            raise NesimError(f"{sw.path} plays {', '.join(sw.games)}: say which with --game")
        return sw.games[0]
    if game not in sw.games:
        raise NesimError(f"{sw.path} plays {', '.join(sw.games)}, not {game}: its variants do not apply to {game}")
    return game


def _rule_text(value) -> str:
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


@cli.command()
@click.option("--game", type=GAME_CHOICE, help="Which game's card table (with --spec: the file's game by default).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per building type.")
@click.option("--spec", type=click.Path(dir_okay=False, path_type=str), help="A sweep file (TOML).")
@click.option("--variant", help="The sweep file's variant whose card table to print.")
@data_option
def cards(game: str | None, as_json: bool, spec: str | None, variant: str | None, data_dir: str | None) -> None:
    """Print a game's building cards: cost, asset value, copies, icons, effect, rules.

    With --spec and --variant, the table as that variant changes it; changed values are marked *,
    the variant's new cards "(new card)", and the rule parameters the variant changes follow the
    table (in --json: ``changed`` and ``new`` in every row, and ``rules_changed``, parameter ->
    new value).
    """
    import json

    changed: dict = {}
    new_keys: set = set()
    rules_changed: dict = {}
    if spec or variant:
        if not (spec and variant):
            raise NesimError("--spec and --variant go together")
        from nesim.sweep import load_sweep

        sw = load_sweep(spec)
        v = sw.variant(variant)
        game = _spec_game(sw, game)
        base = _load(game, data_dir)
        changed = v.changes_for(base).get("cards", {})
        new_keys = set(v.changes_for(base).get("new_cards", {}))
        data = sw.data(v, game, base)
        rules_changed = {name: (getattr(base.rules, name), getattr(data.rules, name)) for name in v.rules}
    elif game is None:
        raise NesimError("--game is needed (or --spec with --variant)")
    else:
        data = _load(game, data_dir)
    rows = _card_rows(data)
    if as_json:
        for r in rows:
            r["changed"] = sorted(changed.get(r["key"], {}))
            r["new"] = r["key"] in new_keys
            r["rules_changed"] = {name: (list(new) if isinstance(new, tuple) else new)
                                  for name, (_, new) in rules_changed.items()}
        click.echo(json.dumps(rows, ensure_ascii=False, indent=1))
        return
    icons = lambda r: "".join(c for c, f in (("A", "agriculture"), ("I", "industry"), ("L", "facility")) if r[f])
    head = f"{'key':<24} {'name':<28} {'cost':>4} {'value':>5} {'copies':>6} {'icons':<5} {'units':>5}  effect, rules"
    out = [f"{game.capitalize()}: {len(rows)} building types, {data.deck_size()} cards", head, "-" * len(head)]
    mark = lambda r, f: f"{r[f]}{'*' if f in changed.get(r['key'], {}) else ''}"
    for r in rows:
        rules = " ".join(x for x in ("(new card)" if r["key"] in new_keys else "",
                                     r["effect"] and mark(r, "effect"),
                                     r["cost_rule"] and f"cost[{r['cost_rule']}]",
                                     r["end_game"] and f"end[{r['end_game']}]") if x)
        out.append(f"{r['key']:<24} {r['name'][:28]:<28} {mark(r, 'cost'):>4} {mark(r, 'asset_value'):>5} "
                   f"{mark(r, 'copies'):>6} {icons(r):<5} {r['workers_needed'] or '-':>5}  {rules}")
    if rules_changed:
        out += ["", f"Rule parameters variant {variant!r} changes:"]
        out += [f"{name:<24} {_rule_text(new)}*  (data files: {_rule_text(old)})"
                for name, (old, new) in rules_changed.items()]
    click.echo("\n".join(out))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per kind.")
def effects(as_json: bool) -> None:
    """List the effect kinds a card's effect column may name, with their arguments.

    A card's effect is ``kind:arg:...`` (e.g. ``discard_for_money:1:15``); a construct effect
    names its terms, then their number if they have one (``construct:discount:1``).
    """
    import json

    from nesim.cards import CONSTRUCT_TERMS, EFFECT_KINDS

    rows = [{"kind": kind, "args": list(k.args), "meaning": k.meaning,
             "when": "worked" if k.workplace else "built"} for kind, k in EFFECT_KINDS.items()]
    terms = [{"terms": name, "args": [number] if number else [], "meaning": meaning}
             for name, (number, meaning) in CONSTRUCT_TERMS.items()]
    if as_json:
        click.echo(json.dumps({"kinds": rows, "construct_terms": terms}, indent=1))
        return
    out = [f"{':'.join([r['kind'], *r['args']]):<40} {r['meaning']}" for r in rows]
    out += ["", "construct terms (construct:TERMS or construct:TERMS:N):"]
    out += [f"{':'.join(['construct', t['terms'], *t['args']]):<40} {t['meaning']}" for t in terms]
    click.echo("\n".join(out))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--strategy", default="random", show_default=True,
              help="Strategy every seat plays, with parameters as in simulate (greedy:reserve=8).")
@click.option("--no-startup", is_flag=True, help="Skip timing a fresh process's first game.")
@click.option("--kernel-games", default=20_000, show_default=True, type=click.IntRange(1),
              help="Games the kernel plays per configuration.")
@click.option("--reference-games", default=200, show_default=True, type=click.IntRange(1),
              help="Of those, games the reference engine replays.")
@click.option("--repeats", default=5, show_default=True, type=click.IntRange(1),
              help="Times each engine plays its games, taking turns; the best time is kept.")
@click.option("--against", type=click.Path(exists=True, file_okay=False), default=None,
              help="Another nesim checkout: time its kernel against this one's on the same games, "
                   "the two taking turns (no reference engine).")
@announces_compiles
def bench(as_json: bool, strategy: str, no_startup: bool, kernel_games: int, reference_games: int,
          repeats: int, against: str | None) -> None:
    """Games per second and ns per decision of the kernel, on the games simulate plays, against
    the reference engine on the same games (or, with --against, against another checkout)."""
    from nesim import bench as b
    from nesim.registry import resolve_seats

    for _, players in b.CONFIGS:
        resolve_seats(strategy, players)  # a bad name is a user error before anything runs
    if against is not None:
        _bench_against(against, strategy, kernel_games, repeats, as_json)
        return
    results = b.run(strategy, kernel_games, min(reference_games, kernel_games), repeats)
    warm = None if no_startup else b.warm_start_seconds()
    if as_json:
        click.echo(json.dumps(b.as_json(results, warm)))
        return
    click.echo(f"{'game':<10} {'players':>7} {'strategy':<12} {'kernel games/s':>15} {'ns/decision':>12} "
               f"{'decisions/game':>15} {'reference games/s':>18} {'ratio':>8}")
    for r in results:
        click.echo(f"{r.game:<10} {r.players:>7} {r.strategy:<12} {r.kernel_games_per_s:>15,.0f} "
                   f"{r.kernel_ns_per_decision:>12,.1f} {r.decisions_per_game:>15,.1f} "
                   f"{r.reference_games_per_s:>18,.1f} {r.ratio:>8,.0f}")
    if warm is not None:
        click.echo(f"warm start: {warm:.2f} s from a new process to its first kernel game")


@cli.command(context_settings={"ignore_unknown_options": True, "help_option_names": []})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def learn(args: tuple[str, ...]) -> None:
    """Learn strong's corrections from searched games: teach, roll-in, fit, judge, export.

    `nesim learn -h` and `nesim learn SUBCOMMAND -h` give the details (nesim/learn.py).
    """
    from nesim import learn as learning

    learning.main(list(args))


def _bench_against(against: str, strategy: str, games: int, repeats: int, as_json: bool) -> None:
    from dataclasses import asdict

    from nesim import bench as b

    results = b.compare(against, strategy, games, repeats)
    if as_json:
        click.echo(json.dumps({"against": str(against), "results": [asdict(r) for r in results]}))
        return
    click.echo(f"this checkout ({b.checkout_root()}) against {against}: {games:,} games per "
               f"configuration, best of {repeats} turns each")
    click.echo(f"{'game':<10} {'players':>7} {'strategy':<12} {'ns/decision':>12} {'against':>12} "
               f"{'speed-up':>9}  same games")
    for r in results:
        click.echo(f"{r.game:<10} {r.players:>7} {r.strategy:<12} {r.ns_per_decision:>12,.1f} "
                   f"{r.against_ns_per_decision:>12,.1f} {r.speedup:>8.2f}x  {'yes' if r.same_games else 'NO'}")


@cli.command("strategies")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
@announces_compiles(plays=False)
def strategies_cmd(as_json: bool) -> None:
    """List the strategies with their idea and parameters."""
    import json

    from nesim.compiling import expect_strategies
    from nesim.registry import known_names, modules

    expect_strategies(known_names())  # importing every one compiles them on a first run

    rows = [{"name": m.NAME, "description": m.DESCRIPTION, "params": dict(m.PARAMS)}
            for m in modules().values()]
    if as_json:
        click.echo(json.dumps(rows))
        return
    for r in rows:
        params = ", ".join(f"{k}={v:g}" for k, v in r["params"].items()) or "no parameters"
        click.echo(f"{r['name']:<12} {r['description']}\n{'':<12} {params}")


def _check_run_options(chunk_size, resume, force, backend, scheduler) -> None:
    """The options simulate and sweep share, refused with one line when they cannot work."""
    if chunk_size is not None and chunk_size < 1:
        raise NesimError(f"--chunk-size must be at least 1, got {chunk_size}")
    if resume and force:
        raise NesimError("--resume and --force exclude each other")
    if scheduler and backend != "dask":
        raise NesimError("--scheduler needs --backend dask")


def _simulate_options_stored(out: str) -> dict:
    """--resume: the options of the simulate run whose dataset is in --out (empty when there is
    none yet), so that an interrupted run is finished without retyping them."""
    from nesim.runner import resumable_manifest, units_from_manifest

    manifest = resumable_manifest(out)
    if manifest is None:
        return {}
    units = units_from_manifest(manifest)
    if len(units) != 1 or units[0].variant != "baseline" or units[0].changes:
        raise NesimError(f"--resume {out}: the dataset was made by nesim sweep; finish it with "
                         f"nesim sweep --out {out} --resume")
    u, config = units[0], manifest["config"]
    return {"game": u.game, "n_players": u.n_players, "strategies": ";".join(u.strategies),
            "n_games": u.games, "seed": config["seed"], "chunk_size": config["chunk_size"]}


@cli.command()
@click.option("--game", type=GAME_CHOICE, help="Which game to play.  [required unless resuming]")
@click.option("--players", "n_players", type=int, help="Players per game, 1-4 (1 = solo).  [required unless resuming]")
@click.option("--strategies", help="Strategy per seat (comma-separated), or one for every seat; seats "
              "rotate game by game.  [default: random]")
@click.option("--games", "n_games", type=int, help="Number of games.  [required unless resuming]")
@click.option("--seed", type=int, callback=_checked_seed,
              help="Master seed, 0 to 2**64-1.  [default: 0]")
@click.option("--out", required=True, type=click.Path(path_type=str), help="Dataset directory to write.")
@click.option("--jobs", default=1, show_default=True, type=int, help="Parallel worker processes.")
@click.option("--backend", default="loky", show_default=True, type=click.Choice(["loky", "dask"]),
              help="joblib backend: loky on this machine, dask for a dask.distributed cluster.")
@click.option("--scheduler", default=None, help="dask scheduler address (tcp://host:port); "
              "with --backend dask and no address, a local cluster of --jobs workers.")
@click.option("--chunk-size", default=None, type=int, help="Games per chunk (default 10,000).")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out; the options not "
              "given are those it was started with, those given must be the same.")
@click.option("--force", is_flag=True, help="Overwrite an existing dataset in --out.")
@click.option("--quiet", is_flag=True, help="No progress bar and no summary line.")
@announces_compiles
def simulate(game, n_players, strategies, n_games, seed, out, jobs, backend, scheduler, chunk_size,
             resume, force, quiet) -> None:
    """Run many games and write a Parquet dataset (games, players, builds, rounds)."""
    from nesim.registry import resolve_seats
    from nesim.runner import DEFAULT_CHUNK, Unit, run

    _check_run_options(chunk_size, resume, force, backend, scheduler)
    given = {"game": game, "n_players": n_players, "strategies": strategies, "n_games": n_games,
             "seed": seed, "chunk_size": chunk_size}
    opts = {"strategies": "random", "seed": 0, "chunk_size": DEFAULT_CHUNK,
            **(_simulate_options_stored(out) if resume else {}),
            **{k: v for k, v in given.items() if v is not None}}
    missing = [flag for key, flag in (("game", "--game"), ("n_players", "--players"), ("n_games", "--games"))
               if key not in opts]
    if missing:
        raise NesimError(f"missing option {', '.join(missing)} (needed unless --resume finds a run in --out)")
    n = _players_count(opts["n_players"])
    if opts["n_games"] < 1:
        raise NesimError(f"--games must be at least 1, got {opts['n_games']}")
    specs = tuple(s.label for s in resolve_seats(opts["strategies"], n))
    data = _load(opts["game"], None)
    if n == 1:
        data.check_solo()
    unit = Unit("baseline", opts["game"], n, specs, opts["n_games"])
    summary = run([unit], out, opts["seed"], jobs=jobs, backend=backend, scheduler=scheduler, resume=resume,
                  force=force, chunk_size=opts["chunk_size"], progress=not quiet, command=sys.argv[1:])
    if not quiet:
        rate = summary.games / summary.seconds if summary.seconds > 0 else float("inf")
        click.echo(f"{summary.games:,} games written to {out} in {summary.seconds:.1f} s ({rate:,.0f} games/s)")


@cli.command()
@click.argument("directory", type=click.Path(path_type=str))
@click.argument("game_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON lines.")
@click.option("--html", "html_out", default=None, type=click.Path(dir_okay=False, path_type=str),
              help="Also write a page that steps through the game (self-contained HTML).")
@announces_compiles
def replay(directory: str, game_id: int, as_json: bool, html_out: str | None) -> None:
    """Regenerate one game of a dataset from its seed and configuration and print its log."""
    from nesim import dataset as ds
    from nesim.kernel import core
    from nesim.runner import find_chunk, read_run, regenerate, rotation

    _check_html_out(html_out)
    manifest = read_run(directory)
    chunk = find_chunk(manifest, game_id)
    # Only this game's own part is read, and before anything is printed: an unreadable part is
    # then a one-line error, and another chunk's does not matter.
    stored = ds.read_table(directory, "players", ["seat", "score"], [("game_id", "==", game_id)],
                           chunks=[chunk["id"]])
    unit, data, log, res = regenerate(manifest, game_id)
    i = game_id - unit.id_base
    labels = ", ".join(rotation(unit.strategies, i))
    title = (f"{unit.game.capitalize()}, {unit.n_players} player{'s' * (unit.n_players != 1)}, "
             f"game {game_id} of {directory} (variant {unit.variant}, seed {int(res.seeds[0])}), strategies {labels}")
    game = _traced_game(data, log)
    _print_log(data, game, as_json, title)
    _write_html(html_out, data, game, title)
    if stored.num_rows == 0:
        click.echo("(this game's chunk is not written yet, so there are no stored scores to compare)", err=True)
        return
    order = sorted(zip(stored.column("seat").to_pylist(), stored.column("score").to_pylist()))
    again = [int(x) for x in res.players[0, :unit.n_players, core.F_SCORE]]
    if [s for _, s in order] != again:
        click.echo(f"nesim: regenerated scores {again} differ from the stored {[s for _, s in order]}", err=True)
        sys.exit(1)
    if not as_json:
        click.echo(f"regenerated scores {again} equal the stored ones")


def _each_dataset_once(directories: tuple[str, ...]) -> None:
    """Refuses a dataset given twice, however spelled (D, D/, ./D, a link): its games would count
    twice and every interval would narrow as if they were new."""
    import os

    from nesim.dataset import read_manifest

    seen: dict[str, str] = {}
    for d in directories:
        real = os.path.realpath(d)
        if real in seen:
            raise NesimError(f"{d} is the same dataset as {seen[real]}: give each dataset once")
        seen[real] = d
    # A copy elsewhere holds the same games: the games follow from the config (units and seeds).
    played: dict[str, str] = {}
    for d in directories:
        config = json.dumps(read_manifest(d).get("config"), sort_keys=True)
        if config in played:
            raise NesimError(f"{d} holds the same games as {played[config]} (same configuration and "
                             "seeds, a copy?): give each dataset once")
        played[config] = d


@cli.command()
@click.argument("directories", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option("--out", required=True, type=click.Path(dir_okay=False, path_type=str), help="HTML file to write.")
@click.option("--quiet", is_flag=True, help="No progress lines.")
def report(directories: tuple[str, ...], out: str, quiet: bool) -> None:
    """Build one self-contained HTML report from one or more datasets."""
    import os
    from pathlib import Path

    # Arrow reads the tables, numpy and pandas work on them: with one allocator (malloc) the
    # memory one frees the other reuses, where Arrow's own pool keeps it (a fifth of the peak at
    # a million games). Read by Arrow when it loads, so before anything imports it.
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    from nesim.report import build_report

    _each_dataset_once(directories)
    parent = Path(out).resolve().parent
    if not parent.is_dir():
        raise NesimError(f"--out {out}: folder {parent} does not exist")
    progress = None if quiet else (lambda message: click.echo(f"report: {message}", err=True))
    build_report(list(directories), out, progress=progress,
                 warn=lambda message: click.echo(f"{PROG}: warning: {message}", err=True))
    if not quiet:
        click.echo(f"report written to {out}")


@cli.command()
@click.argument("spec", required=False, type=click.Path(dir_okay=False, path_type=str))
@click.option("--out", required=True, type=click.Path(path_type=str), help="Dataset directory to write.")
@click.option("--jobs", default=1, show_default=True, type=int, help="Parallel worker processes.")
@click.option("--backend", default="loky", show_default=True, type=click.Choice(["loky", "dask"]),
              help="joblib backend: loky on this machine, dask for a dask.distributed cluster.")
@click.option("--scheduler", default=None, help="dask scheduler address (tcp://host:port).")
@click.option("--max-variants", default=1000, show_default=True, type=int,
              help="Refuse a sweep that expands to more variants.")
@click.option("--chunk-size", default=None, type=int, help="Games per chunk (default 10,000).")
@click.option("--resume", is_flag=True, help="Finish an interrupted sweep in --out (SPEC may then be "
              "left out; given, it must be the one the sweep was started with).")
@click.option("--force", is_flag=True, help="Overwrite an existing dataset in --out.")
@click.option("--quiet", is_flag=True, help="No progress bar and no summary line.")
@click.option("--until-decided", is_flag=True, help="Play each variant in batches (--chunk-size games, "
              "default 1,000) and stop it once its paired difference from the baseline on --on is decided.")
@click.option("--max-games", type=int, help="With --until-decided: the most games per variant and player "
              "count.  [default: the file's games]")
@click.option("--on", help="With --until-decided: the figure decided on: first_seat_win, win:STRATEGY, "
              "winning_score, card_edge:CARD or mean:COLUMN.  [default: first_seat_win]")
@click.option("--alpha", type=float, help="With --until-decided: the error rate of all the decisions "
              "together.  [default: 0.05]")
@click.option("--margin", type=float, help="With --until-decided: a difference within +-margin counts as "
              "none.  [default: 0.02 for rates, 1 for points]")
@announces_compiles
def sweep(spec, out, jobs, backend, scheduler, max_variants, chunk_size, resume, force, quiet,
          until_decided, max_games, on, alpha, margin) -> None:
    """Run every variant of a sweep file at every player count into one dataset (and the rungs of its
    [ladder], if it has one, each into a dataset of its own in --out/ladder/)."""
    from nesim.runner import (DEFAULT_BATCH, DEFAULT_CHUNK, decide_settings, decision_lines, read_run,
                              resumable_manifest, run, run_ladder, units_from_manifest)
    from nesim.sweep import load_sweep

    _check_run_options(chunk_size, resume, force, backend, scheduler)
    stored = resumable_manifest(out) if resume else None
    sw = load_sweep(spec, max_variants) if spec is not None else None
    decide = (stored or {}).get("config", {}).get("until_decided")  # --resume goes on as it started
    if until_decided:
        cap = max_games if max_games is not None else \
            (decide or {}).get("max_games") or (sw.games_per_variant if sw else 1)
        decide = decide_settings(on or "first_seat_win", 0.05 if alpha is None else alpha, margin, cap)
    elif any(x is not None for x in (max_games, on, alpha, margin)):
        raise NesimError("--max-games, --on, --alpha and --margin need --until-decided")
    extra = {}
    if sw is not None:
        units, seed, baseline = sw.units(decide and decide["max_games"]), sw.seed, sw.baseline
        extra = {k: v for k, v in (("sensitivity", sw.sensitivity), ("ladder", sw.ladder_record())) if v}
        if stored is not None and stored.get("ladder") != json.loads(json.dumps(extra.get("ladder"))):
            raise NesimError(f"--resume {out}: the dataset was made with another [ladder] than {spec}'s "
                             "(its rungs, their games or the variants they play differ)")
    elif stored is not None:
        units = units_from_manifest(stored)
        seed, baseline = stored["config"]["seed"], stored["config"].get("baseline", "baseline")
    else:
        raise NesimError("missing the sweep file SPEC (needed unless --resume finds a run in --out)")
    if chunk_size is None:
        chunk_size = stored["config"]["chunk_size"] if stored is not None else \
            (DEFAULT_BATCH if decide else DEFAULT_CHUNK)
    summary = run(units, out, seed, jobs=jobs, backend=backend, scheduler=scheduler, resume=resume,
                  force=force, chunk_size=chunk_size, progress=not quiet,
                  command=sys.argv[1:], baseline=baseline, decide=decide, extra=extra or None)
    if decide and not quiet:
        click.echo("\n".join(decision_lines(read_run(out))))
    if not quiet:
        rate = summary.games / summary.seconds if summary.seconds > 0 else float("inf")
        count = lambda key: len({getattr(u, key) for u in units})
        click.echo(f"{count('variant')} variants x {count('game')} game(s) x {count('n_players')} player "
                   f"count(s): {summary.games:,} games written to {out} in {summary.seconds:.1f} s ({rate:,.0f} games/s)")
    ladder = extra.get("ladder") if sw is not None else (stored or {}).get("ladder")
    if ladder:  # the rungs of its [ladder], each a dataset of its own inside --out, after the sweep
        say = (lambda line: None) if quiet else (lambda line: click.echo(f"nesim: {line}", err=True))
        rungs = run_ladder(ladder, out, seed, resume=resume, force=force, say=say, jobs=jobs, backend=backend,
                           scheduler=scheduler, chunk_size=chunk_size, progress=not quiet,
                           command=sys.argv[1:], baseline=baseline)
        if not quiet:
            click.echo(f"skill ladder: {len(rungs)} rungs, {sum(r.games for r in rungs):,} games written to "
                       f"{out}/ladder in {sum(r.seconds for r in rungs):.1f} s")


@cli.command()
@click.argument("spec", type=click.Path(dir_okay=False, path_type=str))
@click.option("--out", required=True, type=click.Path(path_type=str), help="Directory of the search and its results.")
@click.option("--jobs", default=1, show_default=True, type=int, help="Parallel worker processes.")
@click.option("--backend", default="loky", show_default=True, type=click.Choice(["loky", "dask"]),
              help="joblib backend: loky on this machine, dask for a local dask.distributed cluster.")
@click.option("--resume", is_flag=True, help="Go on with the search in --out (started from the same SPEC); "
              "every candidate evaluated before is kept.")
@click.option("--quiet", is_flag=True, help="No line per candidate and no summary.")
@announces_compiles
def tune(spec, out, jobs, backend, resume, quiet) -> None:
    """Search a tune file's knobs toward its targets; write proposal.toml, trials.parquet, report.html."""
    from nesim.tune import load_tune, run_tune

    say = (lambda line: None) if quiet else (lambda line: click.echo(line, err=True))
    result = run_tune(load_tune(spec), out, jobs=jobs, backend=backend, resume=resume, say=say,
                      command=sys.argv[1:])
    if not quiet:
        how = "meets every target" if result.proposal_meets else "is the closest found (no candidate met every target)"
        click.echo(f"{len(result.trials)} candidates evaluated ({result.stopped}); candidate {result.proposal} "
                   f"{how}: {out}/proposal.toml, {out}/trials.parquet, {out}/report.html")
