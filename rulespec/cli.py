"""The command line, as a function: main(argv, stdout, stderr) -> exit code.

Exit codes: 0 ok; 1 findings (validate, lint, diff) or failed checks (test, replay);
2 usage or tool errors.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import importlib.util
import json
import os
import signal
import sys
import textwrap
import traceback
from pathlib import Path

# Only what every command needs is imported here: each command imports the rest (the
# runtime, the analyses, multiprocessing) itself, so that `rulespec validate` starts
# fast (docs/cli.md#start-up-time; benchmarks/bench_startup.py).
from . import completion, config, formats
from .lang import source
from .lang.diagnostics import Diagnostic, SpecError, did_you_mean, silenced, visible
from .lang.limits import MAX_BYTES, MAX_TURN_LIMIT
from .lang.pipeline import load_spec, spec_files
from .lang.schema import KINDS as SCHEMA_KINDS
from .table import bundled
from .table.files import OutputError, check_output, replacing

EXAMPLES = """examples: (GAME is a bundled game's name, as 'rulespec games' lists, or a spec file)
  rulespec games                                      the bundled games and their variants
  rulespec new my_game                                write my_game.yaml, a starter spec that plays
  rulespec run GAME                                   a narrated game
  rulespec run GAME --players 3 --seed 7 --agents random,first,random
  rulespec run GAME --format json --log game.jsonl    machine-readable
  rulespec run GAME --games 3                         a match of three games
  rulespec run GAME --variant NAME --variant OTHER    variants compose in order
  rulespec simulate GAME --games 1000 --workers 2     statistics over many games
  rulespec validate GAME my_game.yaml                 check specs, list every problem
  rulespec lint GAME --explore                        find dead rules, unwinnable ends
  rulespec lint GAME --format github                  findings as GitHub Actions annotations
  rulespec graph GAME --format dot                    the spec as a graph
  rulespec diff GAME my_variant.yaml                  what a rule change changes
  rulespec test tests/scenarios --format junit        run rules scenarios, JUnit XML for CI
  rulespec play GAME --as P1                          play a game yourself
  rulespec serve                                      play, watch and replay in the browser
  rulespec replay game.jsonl                          re-run a logged game and check it
  rulespec compile GAME --show RULE                   the Python a rule compiles to
  rulespec schema variant                             the JSON Schema of variant files
  rulespec completion bash                            shell completion (bash, zsh, fish)
  rulespec lsp                                        a language server for editors

settings: [tool.rulespec] in pyproject.toml, or rulespec.toml
documentation: every command and option at {cli}, the rest at {docs}
""".format(cli=formats.DOCS_URL + "cli", docs=formats.DOCS_URL)


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    out = sys.stdout  # where --help goes; main() points it at its stdout

    def _print_message(self, message, file=None):
        if message:
            _Parser.out.write(message)

    def error(self, message):
        raise UsageError(f"{self.prog}: {message}\n(see '{self.prog} --help')")

    def exit(self, status=0, message=None):
        raise _Exit(status, message)


class _Command(_Parser):
    """A command's parser: what it does not take is its own usage error, naming the
    command (argparse would hand it on to the top parser, whose error cannot)."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


class _Version(argparse.Action):
    """--version, whose number is read (from the installed metadata, which takes a
    while) only when it is asked for."""

    def __init__(self, option_strings, dest, help=None):
        super().__init__(
            option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, nargs=0, help=help
        )

    def __call__(self, parser, namespace, values, option_string=None):
        from . import __version__

        parser._print_message(f"rulespec {__version__}\n")
        parser.exit()


class _Exit(Exception):
    def __init__(self, status, message):
        self.status, self.message = status, message


MAX_MATCH = 10_000  # run --games: a result per game is kept, for the tally and --format json
MAX_GAMES = config.MAX_GAMES  # simulate --games, lint and diff --simulate
MAX_SECONDS = 86_400  # lint --timeout: a day
LINT_GAMES = 100  # lint --simulate without a number
SEVERITIES = formats.SEVERITIES
MAX_WORKERS = 256  # simulate --workers: processes
BAR = 20  # characters of a progress bar
MAX_EXPLORE_MEMORY = 2 * 2**30  # lint --explore, bytes: 80,000 states of Blackjack take 1.6 GB


def _whole(low: int, high: int | None = None):
    """An argparse type: a whole number from low up to high, else a usage error that
    names the option."""

    def whole(text: str) -> int:
        try:
            if not text.isascii():  # int() reads '٣' as 3: a number is written in ASCII digits
                raise ValueError
            value = int(text)
        except ValueError:
            # `lint --simulate spec.yaml`: an optional number took the file that followed
            hint = (
                " (a file: put the spec files before the option, or give the option its number)"
                if text.endswith((".yaml", ".yml")) or os.path.isfile(text)
                else ""
            )
            raise argparse.ArgumentTypeError(f"invalid int value: {text!r}{hint}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}")
        return value

    return whole


def _seconds(text: str) -> float:
    """An argparse type: a time in seconds, above 0 and at most a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number of seconds: {text!r}") from None
    if not 0 < value <= MAX_SECONDS:  # NaN fails too
        raise argparse.ArgumentTypeError(f"must be above 0 and at most {MAX_SECONDS:,}, not {text}")
    return value


def _formats(parser, *kinds: str) -> None:
    """--format, one spelling on every command; --json stays as its alias, so the
    scripts written before --format keep working."""
    parser.add_argument(
        "--format",
        choices=("text",) + kinds,
        default="text",
        help="output: text for people (default), " + ", ".join(kinds),
    )
    parser.add_argument(
        "--json",
        dest="format",
        action="store_const",
        const="json",
        help="the same as --format json (kept for older scripts)",
    )


def _spec(
    parser,
    name="spec",
    help="a spec file, a bundled game's name (rulespec games), or - for standard input",
    metavar="SPEC",
    **kw,
) -> None:
    parser.add_argument(
        name, type=bundled.spec_argument, help=help, metavar=metavar, **kw
    ).complete = completion.SPEC


def _variants(
    parser, help="apply a variant (a file, or NAME from variants/<spec>/); repeatable"
) -> None:
    parser.add_argument("--variant", action="append", default=[], metavar="NAME", help=help)


AGENTS_HELP = (
    "one agent for all seats, or one per seat, comma-separated: random, first, "
    "greedy, ismcts; options as NAME:KEY=VALUE[:KEY=VALUE] (ismcts:iterations=400)"
)


def _simulation_options(parser) -> None:
    """--seed, --agents, --workers and --dask: alike on every command that plays many
    games."""
    parser.add_argument(
        "--seed", type=int, default=0, metavar="SEED", help="game k is seeded SEED + k (default 0)"
    )
    parser.add_argument("--agents", default="random", metavar="AGENTS", help=AGENTS_HELP)
    parser.add_argument(
        "--workers",
        type=_whole(1, MAX_WORKERS),
        default=1,
        metavar="N",
        help="worker processes (default 1)",
    )
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play the games on a Dask cluster (needs rulespec[dask] here and on its "
        "workers); results are the same as a local run",
    )


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="rulespec",
        description="A rules language and interpreter for card games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action=_Version, help="show program's version number and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Command)

    def command(name, help, description, example):
        # raw, so the example keeps its line; the description is wrapped here instead
        return sub.add_parser(
            name,
            help=help,
            description=textwrap.fill(description, 79),
            epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    run = command(
        "run",
        "play one game and narrate it",
        "Play one game (or a match with --games) with seeded agents and narrate it.",
        "rulespec run GAME --players 3 --seed 7",
    )
    _spec(run)
    _variants(run)
    run.add_argument(
        "--players", type=_whole(1), metavar="N", help="number of players (default: the spec's)"
    )
    run.add_argument(
        "--seed", type=int, default=0, metavar="SEED", help="seed of the game's RNG (default 0)"
    )
    run.add_argument("--agents", default="random", metavar="AGENTS", help=AGENTS_HELP)
    run.add_argument(
        "--log", metavar="LOG", help="write the full event log here (JSON lines, for replay)"
    )
    _formats(run, "json")
    run.add_argument(
        "--max-turns",
        type=_whole(1, MAX_TURN_LIMIT),
        metavar="N",
        help="turn limit (default: the spec's, or 2000)",
    )
    run.add_argument(
        "--as",
        dest="seat",
        metavar="SEAT",
        help="narrate as this seat sees the game (e.g. P2); default: everything",
    )
    run.add_argument(
        "--games",
        type=_whole(1, MAX_MATCH),
        metavar="N",
        default=1,
        help="play a match of N games (seeds S, S+1, ...), each shown as it ends; "
        "counters marked match: true carry over",
    )

    sim = command(
        "simulate",
        "play many seeded games and report statistics",
        "Play many seeded games, locally or on a Dask cluster, and report end reasons, "
        "lengths, seat wins, rules fired and cards played.",
        "rulespec simulate GAME --games 1000 --players 3 --agents greedy --workers 2",
    )
    _spec(sim)
    _variants(sim)
    sim.add_argument(
        "--games",
        type=_whole(1, MAX_GAMES),
        metavar="N",
        help=f"how many games, 1 to {MAX_GAMES:,} (default: simulate.games in the config, "
        "else 1000)",
    )
    sim.add_argument(
        "--players", type=_whole(1), metavar="N", help="number of players (default: the spec's)"
    )
    _simulation_options(sim)
    sim.add_argument(
        "--max-turns",
        type=_whole(1, MAX_TURN_LIMIT),
        metavar="N",
        help="turn limit (default: the spec's)",
    )
    _formats(sim, "json")
    sim.add_argument(
        "--plot",
        metavar="FILE",
        help="draw end reasons, game lengths and seat win rates (needs rulespec[plot]); the "
        "suffix names the format: .png, .svg, .pdf",
    )

    val = command(
        "validate",
        "check specs and report every problem",
        "Load and check specs (YAML, schema, expressions, references) and report "
        "every problem, each with its file, line and column.",
        "rulespec validate games/*.yaml --format github",
    )
    _spec(val, "specs", nargs="+", help="spec files or bundled games' names")
    _variants(val)
    _formats(val, "json", "sarif", "github")

    test = command(
        "test",
        "run rules scenario files",
        "Run rules scenarios (YAML files of a setup, choices and what must follow) "
        "and report each as passed or failed.",
        "rulespec test tests/scenarios --format junit > scenarios.xml",
    )
    test.add_argument(
        "paths", nargs="+", metavar="PATH", help="scenario files or folders of them"
    ).complete = completion.FILE
    _formats(test, "json", "junit")

    lint = command(
        "lint",
        "check specs for unreachable states, dead rules, unwinnable ends and trigger loops",
        "Check specs: layer 1 reads the rules, layer 2 (--explore) plays every choice "
        "of small games, layer 3 (--simulate) covers random games. Settings in "
        "[tool.rulespec] of pyproject.toml (or rulespec.toml) apply; flags win.",
        "rulespec lint games/*.yaml --explore --format sarif",
    )
    _spec(lint, "specs", nargs="+", help="spec files or bundled games' names")
    _variants(lint)
    lint.add_argument(
        "--explore",
        action="store_true",
        help="layer 2: bounded exploration of small games at each player count (seconds)",
    )
    lint.add_argument(
        "--depth",
        type=_whole(1),
        metavar="N",
        help="exploration depth in choices (default: explore.depth in the config, else 8)",
    )
    lint.add_argument(
        "--max-states",
        type=_whole(1, config.MAX_STATES),
        metavar="N",
        help="exploration stops after N states and says so, at most 80,000 (default: "
        "explore.max-states in the config, else 40000)",
    )
    lint.add_argument(
        "--timeout",
        type=_seconds,
        metavar="SECONDS",
        help="give up exploring after this long: no result, exit 2 (default: none; "
        "the result never depends on machine speed)",
    )
    lint.add_argument(
        "--simulate",
        type=_whole(0, MAX_GAMES),
        metavar="N",
        nargs="?",
        const=LINT_GAMES,
        default=0,
        help=f"layer 3: coverage over N seeded games (random agents by default; "
        f"{LINT_GAMES} when N is left out)",
    )
    _simulation_options(lint)
    _formats(lint, "json", "sarif", "github")
    lint.add_argument(
        "--fail-on",
        choices=SEVERITIES,
        help="exit 1 when a finding has at least this severity (default: lint.fail-on "
        "in the config, else error)",
    )
    lint.add_argument(
        "--players",
        type=_whole(1),
        metavar="N",
        help="--simulate's games at this player count only (default: spread over every "
        "count), and --explore's games (default: every count, sharing --max-states)",
    )
    lint.add_argument(
        "--select",
        type=_codes,
        metavar="CODES",
        help="only these codes (comma-separated, prefixes allowed)",
    )
    lint.add_argument(
        "--ignore",
        type=_codes,
        metavar="CODES",
        help="never these codes (comma-separated, prefixes allowed)",
    )

    df = command(
        "diff",
        "what a rule change changes: parts, findings, outcomes",
        "Compare two specs: the parts that differ, the lint findings NEW adds or fixes, "
        "and with --simulate the outcomes of seeded random games of each.",
        "rulespec diff GAME my_variant.yaml --simulate 500",
    )
    _spec(df, "old", "the spec before the change (a file, a bundled game, or -)", "OLD")
    _spec(df, "new", "the spec after the change (a file, a bundled game, or -)", "NEW")
    df.add_argument(
        "--fail-on",
        choices=SEVERITIES,
        help="exit 1 when NEW adds a finding of at least this severity (default: "
        "lint.fail-on in the config, else error)",
    )
    df.add_argument(
        "--simulate",
        type=_whole(0, MAX_GAMES),
        metavar="N",
        default=0,
        help="also compare outcomes over N seeded games of each (random agents by default)",
    )
    df.add_argument(
        "--players", type=_whole(1), metavar="N", help="players for --simulate (default: OLD's)"
    )
    df.add_argument(
        "--plot",
        metavar="FILE",
        help="draw --simulate's end reasons, game lengths and seat win rates, OLD's and "
        "NEW's side by side (needs rulespec[plot]); the suffix names the format",
    )
    _variants(
        df, "apply a variant to both specs (a file, or NAME from variants/<OLD>/); repeatable"
    )
    _simulation_options(df)
    _formats(df, "json")

    gr = command(
        "graph",
        "export the spec as a graph",
        "Export the rules graph (zones, phases, rules, counters and what links them) "
        "as Graphviz dot, Mermaid or JSON.",
        "rulespec graph GAME --format dot --render g.svg",
    )
    _spec(gr)
    _variants(gr)
    gr.add_argument(
        "--focus",
        metavar="RULE",
        help="only this rule (or any part: zone:deck) and its neighbourhood; a name "
        "several parts share means the rule, KIND:NAME any one of them",
    )
    gr.add_argument(
        "--depth",
        dest="reach",  # not `depth`: lint's --depth takes its default from the config
        type=_whole(0),
        metavar="N",
        help="--focus's neighbourhood: the parts at most N edges away (default 1)",
    )
    gr.add_argument(
        "--kind",
        metavar="KINDS",
        help="only these kinds of node and the edges between them, comma-separated: "
        "rules, definitions, cards, zones, counters, memories, params, goals",
    )
    gr.add_argument(
        "--changes",
        metavar="BASE",
        type=bundled.spec_argument,
        help="only what SPEC (with its variants) changed against the spec BASE, and "
        "what that touches: added, changed and removed parts and edges coloured",
    ).complete = completion.SPEC
    gr.add_argument(
        "--format",
        choices=["dot", "mermaid", "json"],
        default="dot",
        help="the graph's notation (default dot)",
    )
    gr.add_argument("--output", "-o", metavar="FILE", help="write here instead of standard output")
    gr.add_argument(
        "--render",
        metavar="FILE",
        help="also render the graph as SVG with Graphviz 'dot' (when it is installed)",
    )

    sc = command(
        "schema",
        "print the JSON Schema of spec, variant, scenario or log files",
        "Print the JSON Schema (draft 2020-12) that a kind of file is checked against, "
        f"for editors that complete and check YAML ({formats.DOCS_URL}editor): spec files, variant "
        "files, rules scenarios, or the lines of a game log. With --output DIR, write "
        "every schema (or KIND's) to DIR/KIND.schema.json instead.",
        "rulespec schema variant > variant.schema.json; rulespec schema --output schemas",
    )
    sc.add_argument(
        "kind",
        nargs="?",
        choices=SCHEMA_KINDS,
        metavar="KIND",
        help=f"the kind of file: {', '.join(SCHEMA_KINDS)} (default spec)",
    )
    sc.add_argument(
        "--output",
        "-o",
        metavar="DIR",
        help="write KIND.schema.json files into this folder (made if missing) instead of "
        "printing one schema: every kind, or KIND when given",
    ).complete = completion.DIR

    gm = command(
        "games",
        "list the games that ship with rulespec",
        "List the bundled games: a name any command takes in place of a spec file, the "
        "title, the player counts and the variants (--variant NAME).",
        "rulespec games; rulespec run GAME --variant NAME",
    )
    _formats(gm, "json")

    mg = command(
        "migrate",
        "rename a spec's names that Language v2 or v3 reserved",
        "Rename each name a spec gives that the language reserved after "
        "`rulespec: 1` was released (such as range or reveal), at its declaration "
        "and every use, to a free name (range_). Prints a unified diff, or with "
        "--write changes the file. Exit 0: nothing to do; 1: changed, or would "
        "change; 2: the spec has other problems.",
        "rulespec migrate old_game.yaml --write",
    )
    mg.add_argument(
        "specs", nargs="+", metavar="SPEC", help="spec files"
    ).complete = completion.FILE
    mg.add_argument("--write", action="store_true", help="change the files in place (atomically)")

    nw = command(
        "new",
        "write a small commented starter spec that validates and plays",
        "Write NAME.yaml, a small commented spec to start a game from: it validates, "
        "lints clean and plays.",
        "rulespec new my_game && rulespec run my_game.yaml",
    )
    nw.add_argument(
        "name", metavar="NAME", help="the game's name: lower case letters, digits and _ (my_game)"
    )
    nw.add_argument("--output", metavar="FILE", help="where to write it (default: NAME.yaml here)")

    pl = command(
        "play",
        "play a game yourself at one seat, agents at the others",
        "Play at one seat, typing the number of your choice; agents play the others.",
        "rulespec play GAME --as P1 --players 3",
    )
    _spec(pl)
    pl.add_argument("--as", dest="seat", metavar="SEAT", required=True, help="your seat, e.g. P1")
    pl.add_argument(
        "--players", type=_whole(1), metavar="N", help="number of players (default: the spec's)"
    )
    pl.add_argument("--seed", type=int, default=0, metavar="SEED", help="random seed (default 0)")
    pl.add_argument(
        "--agents",
        default="random",
        metavar="AGENTS",
        help="the agent at the other seats, or one per seat, comma-separated "
        "(yours is ignored): random, first, greedy, ismcts, with options "
        "as for run",
    )
    pl.add_argument(
        "--max-turns",
        type=_whole(1, MAX_TURN_LIMIT),
        metavar="N",
        help="end the game as turn_limit after N turns",
    )
    pl.add_argument(
        "--log",
        metavar="LOG",
        help="write the game's event log here, for rulespec replay",
    )
    _variants(pl)

    rp = command(
        "replay",
        "re-run a game log and check it plays out the same",
        "Re-run each game of a log written by 'rulespec run --log' with its recorded "
        "choices and check every event comes out the same.",
        "rulespec replay game.jsonl --as P2",
    )
    rp.add_argument(
        "log", metavar="LOG", help="a log written by rulespec run --log"
    ).complete = completion.FILE
    rp.add_argument(
        "--as",
        dest="seat",
        metavar="SEAT",
        help="also narrate each game replayed as this seat saw it (e.g. P2), or all of it: all",
    )
    _formats(rp, "json")

    cp = command(
        "compile",
        "show the Python a rule compiles to, line by line against the spec",
        "Print the Python source generated for a rule (its conditions and its effect's "
        "ops), each line marked with the spec line:col it came from. Without a RULE, "
        "list the rules that have generated code.",
        "rulespec compile GAME --show RULE --players 3",
    )
    _spec(cp)
    cp.add_argument(
        "--show",
        metavar="RULE",
        nargs="?",
        const="",
        help="the rule to show: a step, action, reaction, end condition, trigger, "
        "procedure or condition, setup, evaluation, rounds.setup (scoring, starter), "
        "counters.NAME or checks; without RULE, list them",
    )
    cp.add_argument(
        "--players", type=_whole(1), metavar="N", help="number of players (default: the spec's)"
    )
    _variants(cp)

    sv = command(
        "serve",
        "play, watch and replay games in the browser",
        "Serve a local web app: a lobby to start a game of the bundled games (or the "
        "SPEC files given) with people and agents at its seats, the table as each seat "
        "sees it, watching agents play, replaying a log, and the rules graph. Needs "
        "pip install 'rulespec[serve]'.",
        "rulespec serve GAME my_game.yaml --port 8000",
    )
    _spec(
        sv,
        "specs",
        nargs="*",
        help="spec files or bundled games' names (default: every bundled game)",
    )
    sv.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="HOST",
        help="the address to listen on (default 127.0.0.1)",
    )
    sv.add_argument(
        "--port",
        type=_whole(0, 65535),
        metavar="PORT",
        default=8000,
        help="the port (default 8000; 0: any free port)",
    )
    sv.add_argument(
        "--saves",
        metavar="DIR",
        default=".",
        help="where 'Save game' writes its logs (default .)",
    )

    cm = command(
        "completion",
        "print a shell completion script",
        "Print the completion script of a shell: it completes commands, options, spec "
        "files (*.yaml) and bundled games' names.",
        "rulespec completion bash > ~/.local/share/bash-completion/completions/rulespec",
    )
    cm.add_argument("shell", choices=completion.SHELLS, help="the shell: bash, zsh or fish")

    ls = command(
        "lsp",
        "a language server for editors, over stdio",
        "Serve an editor (VS Code, Neovim, ...) over standard input and output: "
        "diagnostics as you type, completion, hover, go to definition, references, "
        "rename and quick fixes in spec, variant and scenario files (install "
        f"rulespec[lsp]; see {formats.DOCS_URL}editor).",
        "rulespec lsp   (started by the editor, not by hand)",
    )
    ls.add_argument("--stdio", action="store_true", help="the transport (the only one)")
    debug = "on an internal error (a bug, exit 3), print its traceback"
    p.add_argument("--debug", action="store_true", help=debug)
    for (
        command
    ) in sub.choices.values():  # `rulespec run SPEC --debug` as well as `rulespec --debug run`
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=debug)
    return p


def main(argv=None, stdout=None, stderr=None, stdin=None) -> int:
    """Run one command. Everything it prints goes through _Stream; a stream that
    cannot be written (closed, a full disk) ends it with one line on standard error
    and exit 2, or none when standard error is the one that failed. A pipe whose
    reader left (`rulespec run ... | head`) is no error."""
    out = _Stream(stdout or sys.stdout, "standard output")
    err = _Stream(stderr or sys.stderr, "standard error")
    try:
        code = _main(argv, out, err, stdin)
        out.flush()
        return code
    except _StreamFailed as exc:
        if exc.stream is out and isinstance(exc.error, BrokenPipeError):
            return 0
        if exc.stream is out:
            with contextlib.suppress(_StreamFailed):
                print(
                    f"rulespec: cannot write {out.name}: "
                    f"{getattr(exc.error, 'strerror', None) or exc.error}",
                    file=err,
                )
        return 2


class _StreamFailed(Exception):
    def __init__(self, stream, error):
        self.stream, self.error = stream, error


class _Stream:
    """Standard output or error as the commands write to them: the control characters
    a spec or a log may hold are made visible (line breaks, tabs and the carriage
    return of a progress line stay), and a write or flush that fails, or a stream that
    is closed, raises _StreamFailed."""

    def __init__(self, stream, name: str):
        self.stream, self.name = stream, name

    def _do(self, action, *args):
        try:
            if self.stream is None:  # the program was started with it closed (>&-)
                raise OSError(errno.EBADF, "it is closed")
            return getattr(self.stream, action)(*args)
        except (OSError, ValueError) as exc:  # ValueError: a file closed since
            raise _StreamFailed(self, exc) from None

    def write(self, text: str):
        return self._do("write", visible(text, keep="\n\r\t"))

    def flush(self) -> None:
        self._do("flush")

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()


class _ReaderMayLeave:
    """Standard output of a command whose file matters more than what it prints (`run
    --log`): once the pipe's reader has left (`| head -1`), the rest is dropped and the
    command goes on, so that the file is still written whole."""

    def __init__(self, out: _Stream):
        self.out, self.left = out, False

    def _do(self, action, *args):
        if self.left:
            return None
        try:
            return getattr(self.out, action)(*args)
        except _StreamFailed as exc:
            if not isinstance(exc.error, BrokenPipeError):
                raise
            self.left = True
            return None

    def write(self, text: str):
        return self._do("write", text)

    def flush(self) -> None:
        self._do("flush")

    def isatty(self) -> bool:
        return self.out.isatty()


def _main(argv, stdout, stderr, stdin) -> int:
    _Parser.out = stdout
    try:
        args = _parser().parse_args(argv)
    except UsageError as exc:
        print(exc, file=stderr)
        return 2
    except _Exit as exc:  # --help
        if exc.message:
            print(exc.message, file=stderr, end="")
        return exc.status
    if args.command is None:
        _parser().print_help(stdout)
        return 2
    args.stdin = stdin or sys.stdin  # where `play` reads the person's choices
    name = _nul_argument(args)
    if name is not None:
        print(
            f"rulespec {args.command}: {name.replace('_', '-')}: a NUL character cannot be "
            "in an argument",
            file=stderr,
        )
        return 2
    return _run_command(args, stdout, stderr)


def _nul_argument(args) -> str | None:
    """The first argument holding NUL, which no file name, nor any other argument, holds."""
    for name, value in vars(args).items():
        if any(
            "\0" in v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)
        ):
            return name
    return None


def _run_command(args, stdout, stderr) -> int:
    """The command's exit code; each kind of failure as one line (or a diagnostic) on
    standard error and its exit code."""
    try:
        _take_standard_input(args)
        _check_lint_flags(args)
        _settle(args)
        return COMMANDS[args.command](args, stdout, stderr)
    except config.ConfigError as exc:
        print(f"rulespec {args.command}: {exc}", file=stderr)
        return 2
    except SpecError as exc:
        print(exc.render(), file=stderr)
        return 2
    except _rule_error() as exc:  # a rule failed as a game ran: the spec's place, as for SpecError
        print(
            Diagnostic(exc.code, exc.message, exc.span).render(_source_lines(exc.span.file)),
            file=stderr,
        )
        return 2
    except UsageError as exc:
        print(f"rulespec {args.command}: {exc}", file=stderr)
        return 2
    except OSError as exc:  # a file or folder the system refuses: no permission, a name too long
        print(
            f"rulespec {args.command}: {exc.filename or 'error'}: {exc.strerror or exc}",
            file=stderr,
        )
        return 2
    except KeyboardInterrupt:  # Ctrl-C: the workers are stopped on the way out (simulation.py)
        print(f"rulespec {args.command}: interrupted", file=stderr)
        return 130
    except _StreamFailed:
        raise
    except Exception as exc:  # a bug: one line, and the traceback only when asked for
        if args.debug:
            traceback.print_exception(exc, file=stderr)
        print(
            f"rulespec {args.command}: internal error ({type(exc).__name__}: {exc}); this is a bug "
            "in rulespec: please report it with the command and its files"
            + ("" if args.debug else " (--debug shows the traceback)"),
            file=stderr,
        )
        return 3


class _NoRuleError(Exception):
    """Stands for RuleError when the runtime was never loaded, so none was raised."""


def _rule_error() -> type[Exception]:
    """The runtime's RuleError, looked up only as an exception is matched (an except
    clause's expression is evaluated then): a command that never loaded the runtime
    does not load it to find out."""
    runtime = sys.modules.get("rulespec.interpreter")
    return getattr(runtime, "RuleError", _NoRuleError)


# what the config file may set: argument -> (Config field, the default without a file)
_SETTINGS = {
    "games": ("games", 1000),
    "depth": ("depth", 8),
    "max_states": ("max_states", 40_000),
    "fail_on": ("fail_on", "error"),
}


def _check_lint_flags(args) -> None:
    """lint's flags that bound what it plays, given without --explore or --simulate:
    usage errors, as graph's --depth without --focus (before the settings fill them
    in); its agents checked whether or not games are played."""
    if args.command not in ("lint", "diff"):
        return
    if args.agents:
        from rulespec.interpreter.agents import parse_agent

        for name in args.agents.split(","):
            try:
                parse_agent(name)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
    if args.command == "diff" or args.explore:
        return
    bounds = (
        ("--depth", args.depth),
        ("--max-states", args.max_states),
        ("--timeout", args.timeout),
    )
    for flag, value in bounds:
        if value is not None:
            raise UsageError(f"{flag} bounds --explore: give --explore as well")
    if args.players is not None and not args.simulate:
        raise UsageError("--players is the player count of --explore or --simulate: give one")


def _settle(args) -> None:
    """Give the arguments no flag set their value from the project's config file,
    else the built-in default: flags win over the file. Only the commands it speaks
    of read it, so a broken config never stops `rulespec games`."""
    args.config = config.load() if args.command in ("lint", "diff", "simulate") else config.Config()
    for name, (setting, default) in _SETTINGS.items():
        if getattr(args, name, default) is None:
            from_file = getattr(args.config, setting)
            setattr(args, name, default if from_file is None else from_file)


def _take_standard_input(args) -> None:
    """`-` as a spec: read standard input once, and serve it as the file <stdin>."""
    fields = [k for k in ("spec", "specs", "old", "new", "changes") if hasattr(args, k)]
    dashes = sum(
        (v if isinstance(v, list) else [v]).count("-") for v in (getattr(args, k) for k in fields)
    )
    if not dashes:
        return
    if dashes > 1:
        raise UsageError("'-' (standard input) can stand for one spec only")
    if args.command == "play":
        raise UsageError("'-' cannot be the spec of play: standard input carries your choices")
    if args.command == "migrate" and args.write:
        raise UsageError(
            "--write changes files, and standard input is none: leave --write out to "
            "print the changes"
        )
    closed = UsageError("'-' stands for standard input, which is closed")
    if args.stdin is None:  # started with it closed (<&-): Python gives no stream at all
        raise closed
    try:
        text = args.stdin.read(MAX_BYTES + 1)
    except UnicodeDecodeError as exc:
        raise UsageError(f"standard input is not UTF-8 ({exc.reason})") from None
    except ValueError:  # a stream closed since
        raise closed from None
    if len(text) > MAX_BYTES:
        raise UsageError(f"standard input is over {MAX_BYTES} bytes, the most a spec may be")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # surrogates stand for the bytes the stream could not read
        try:  # (a C locale's ASCII): its bytes, read as UTF-8
            text = text.encode(args.stdin.encoding or "utf-8", "surrogateescape").decode()
        except (UnicodeError, LookupError):
            raise UsageError("standard input is not UTF-8") from None
    source.give(source.STDIN, text)
    for k in fields:
        value = getattr(args, k)
        setattr(
            args,
            k,
            [source.STDIN if v == "-" else v for v in value]
            if isinstance(value, list)
            else source.STDIN
            if value == "-"
            else value,
        )


def _load(path, variants, err):
    """The spec; the warnings it loaded with (RS212) go to err."""
    try:
        spec = load_spec(path, variants=variants)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    for d in spec.notices if err is not None else ():
        print(d.render(_source_lines(d.span.file)), file=err)
    return spec


def _source_lines(path: str) -> list[str] | None:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError):
        return None  # the message stands without the source line


def _inputs(args, *flags, specs=None) -> list[str]:
    """The files the command reads (its spec, what it extends, the variants; or those of
    each (spec, variants) in `specs`), once the output files named by the flags are
    checked: none of them, no folder, a name."""
    specs = [(args.spec, getattr(args, "variant", []))] if specs is None else specs
    inputs = [f for path, variants in specs for f in spec_files(path, variants)]
    if source.STDIN in (path for path, _ in specs):  # `run - --log F < F` must not write over F
        inputs += _standard_input_file(args.stdin)
    for flag in flags:
        path = getattr(args, flag.lstrip("-"))
        if path is not None:
            try:
                check_output(path, inputs)
            except OutputError as exc:
                raise UsageError(f"{flag}: {exc}") from None
    return inputs


def _standard_input_file(stream) -> list[str]:
    """Standard input by a name that stands for the file it reads, if it reads one
    (/dev/stdin, or /dev/fd/N when main() was given another stream), for the check that
    no output is written over an input."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # no file descriptor: a StringIO, closed
        return []
    return ["/dev/stdin" if fd == 0 else f"/dev/fd/{fd}"]


def _fit_workers(args, err) -> None:
    """More processes than cores only add overhead: --workers is cut down, saying so."""
    cores = os.cpu_count() or 1
    if args.workers > cores:
        print(
            f"rulespec {args.command}: --workers {args.workers}: this machine has {cores} cores; "
            f"using {cores}",
            file=err,
        )
        args.workers = cores


def _setup(args, err):
    """The spec and player count of run and simulate, with their arguments checked."""
    spec, n = _spec_for_players(args, err)
    _check_agents(args, spec, n, args.spec)
    return spec, n


def _check_agents(args, spec, n: int, path: str) -> tuple[str, ...]:
    """--agents, made once for `spec` at `n` players: a wrong name, option or count,
    or an agent that needs an evaluation the spec lacks, is a usage error."""
    from rulespec.interpreter.agents import make_agents

    try:
        agents = make_agents(args.agents.split(","), n, args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    needs = [a.needs_evaluation for a in agents if getattr(a, "needs_evaluation", None)]
    if needs and spec.evaluation is None:
        raise UsageError(f"{needs[0]} needs an evaluation in the spec; {path} has none")
    return tuple(args.agents.split(","))


def _spec_for_players(args, err):
    """The spec (with its variants) and the player count asked for, checked."""
    spec = _load(args.spec, args.variant, err)
    n = args.players or spec.default_players
    if n not in spec.player_counts:
        raise UsageError(f"{spec.name} is for {spec.player_range()}, not {n}")
    return spec, n


def _players(n: int) -> str:
    """`3 players`, and `1 player` for a game played alone."""
    return _many(n, "player")


def _many(n: int, thing: str) -> str:
    """`3 games`, `1 game`."""
    return f"{n} {thing}{'s' * (n != 1)}"


def _run(args, out, err) -> int:
    from .table.replay import log_writer

    spec, n = _setup(args, err)
    if args.log is not None:  # `run --log game.jsonl | head -1` writes the whole log
        out = _ReaderMayLeave(out)
    inputs = _inputs(args, "--log")
    viewer = None if args.seat is None else _seat_arg(args.seat, n)
    log = (
        contextlib.nullcontext()
        if args.log is None
        else log_writer(
            args.log,
            args.spec,
            args.variant,
            n,
            inputs,
            agents=args.agents,
            max_turns=args.max_turns,
        )
    )
    try:
        with log as record:
            try:
                if args.games == 1:
                    return _one_game(spec, n, args, viewer, record, out)
                return _match(spec, n, args, viewer, record, out, err)
            except _rule_error() as exc:  # the log keeps the game up to the rule that failed
                failed = exc
    except OutputError as exc:
        raise UsageError(f"--log: {exc}") from None
    # the game up to the rule that failed, then the error
    if hasattr(failed, "played"):
        _show_failed(spec, n, args, failed.played, out)
    raise failed


def _show_failed(spec, n, args, played, out) -> None:
    """A game stopped by a rule that failed (RS701), up to it: narrated, so that the
    designer sees the table the rule failed on; or, a game alone, as --json shows a
    game, its result naming the error."""
    from .table.narrate import Titles, narrate

    number, seed, events, result = played
    if args.format == "json":
        if args.games == 1:
            _game_document(spec, n, seed, result, events, out)
        return
    heading = _game_heading(spec, n, seed, args) if args.games == 1 else _match_game(number, seed)
    print(heading, file=out)
    for line in narrate(events, Titles.of(spec)):
        print(line, file=out)
    print("The game stopped here: a rule failed (below).", file=out)


def _games_played(spec, n, args, viewer, record):
    """(number, seed, result, events as the viewer sees them) of each game as it ends,
    written to the log (record) at once: nothing of a game is kept past its turn."""
    from rulespec.interpreter import Game
    from rulespec.interpreter.agents import make_agents, play
    from rulespec.interpreter.observe import log_for

    from .table.replay import stopped

    definition, carried = Game(spec, n), None
    for k in range(args.games):
        seed = args.seed + k
        game = definition.new_initial_state(
            seed=seed, turn_limit=args.max_turns, game_index=k, carried=carried
        )
        try:
            play(game, make_agents(args.agents.split(","), n, seed))
        except _rule_error() as exc:  # logged up to it, to be replayed (replay.stopped)
            result = game.result | {"error": stopped(exc)}
            if record is not None:
                record(k + 1, seed, log_for(game, None), result)
            exc.played = (k + 1, seed, log_for(game, viewer), _seen_result(result, viewer))
            raise
        carried = game.carry()
        events = log_for(game, viewer)
        if record is not None:
            record(k + 1, seed, events if viewer is None else log_for(game, None), game.result)
        yield k + 1, seed, game.result, events


def _seen_result(result: dict, seat: int | None) -> dict:
    """A result as a seat sees it (None: everything): a rule's error keeps its code, rule
    and place but not its message, which may tell a value the rule worked out from cards
    the seat cannot see (the message goes to standard error, the designer's)."""
    if seat is None or "error" not in result:
        return result
    error = {k: v for k, v in result["error"].items() if k != "message"}
    return result | {"error": error}


def _one_game(spec, n, args, viewer, record, out) -> int:
    from .table.narrate import Titles, narrate

    ((_, _, result, events),) = _games_played(spec, n, args, viewer, record)
    if args.format == "json":
        _game_document(spec, n, args.seed, result, events, out)
        return 0
    titles = Titles.of(spec)
    print(_game_heading(spec, n, args.seed, args), file=out)
    for line in narrate(events, titles):
        print(line, file=out)
    return 0


def _game_document(spec, n: int, seed: int, result: dict, events: list, out) -> None:
    """`run --json`'s document of one game."""
    document = {"spec": spec.name, "players": n, "seed": seed, "result": result, "events": events}
    json.dump(document, out, default=list, indent=1)
    out.write("\n")


def _game_heading(spec, n: int, seed: int, args) -> str:
    """The first line of `run`'s narration of one game."""
    return f"{spec.name}: {_players(n)}, seed {seed}, agents {args.agents}"


def _match_game(number: int, seed: int) -> str:
    """The line that opens one game of a match in `run`'s narration."""
    return f"\n== Game {number} (seed {seed})"


def _match(spec, n, args, viewer, record, out, err) -> int:
    """A match, each game narrated as it ends; with --format json, one document of the
    results at the end (a result is a few fields, not the game's events), a game a rule
    stopped last among them."""
    from rulespec.interpreter.choices import seat_name

    from .table.narrate import Titles, narrate

    titles = Titles.of(spec)
    tally = {seat_name(p): 0 for p in range(n)}
    results = []
    # the narration on a terminal is its own progress; a line on standard error when it goes elsewhere
    progress = _progress(err, args.games) if _terminal(err) and not _terminal(out) else None
    text = args.format == "text"
    if text:
        print(
            f"{spec.name}: a match of {args.games} games, {_players(n)}, agents {args.agents}",
            file=out,
        )
    failed = None
    try:
        for number, seed, result, events in _games_played(spec, n, args, viewer, record):
            for winner in result["winners"]:
                tally[winner] += 1
            results.append(result | {"game": number, "seed": seed})
            if text:
                print(_match_game(number, seed), file=out)
                for line in narrate(events, titles):
                    print(line, file=out)
                out.flush()
            if progress is not None:
                progress(number)
    except _rule_error() as exc:  # JSON: the games so far, the last one stopped with its error
        if text:
            raise
        number, seed, _, result = exc.played
        results.append(result | {"game": number, "seed": seed})
        failed = exc
    if not text:
        json.dump(
            {"spec": spec.name, "players": n, "games": results, "tally": tally}, out, indent=1
        )
        out.write("\n")
        if failed is not None:
            raise failed
        return 0
    print(
        "\nMatch: "
        + ", ".join(f"{p} {w}" for p, w in tally.items())
        + f" ({sum(1 for r in results if not r['winners'])} without a winner)",
        file=out,
    )
    return 0


def _terminal(stream) -> bool:
    return getattr(stream, "isatty", lambda: False)()


def _simulate(args, out, err) -> int:
    from .analysis import simulation

    spec, n = _setup(args, err)
    agents = tuple(args.agents.split(","))
    job = simulation.job(spec, n, agents, args.max_turns)
    inputs = _inputs(args, "--plot")
    image = _plot_format(args.plot) if args.plot else None
    tally = simulation.Tally()
    try:
        _played(args, job, args.games, err, tally)
    except KeyboardInterrupt:  # the report of the games played so far, then exit 130
        if tally.games or args.format == "json":  # a script reading JSON gets JSON
            with contextlib.suppress(_StreamFailed):  # a pipe whose reader Ctrl-C ended too
                _print_simulation(args, _simulation_report(args, spec, n, tally), out)
        raise
    if args.plot:
        from .analysis.plots import Side

        side = Side("", tally, args.max_turns or spec.turn_limit)
        title = f"{spec.name}: {_many(tally.games, 'game')}, {_players(n)}, agents {args.agents}"
        _plot(args, [side], n, title, inputs, image)
    _print_simulation(args, _simulation_report(args, spec, n, tally), out)
    _warn_turn_limit(tally, args.agents, n, err, limit=args.max_turns)
    return 0


def _plot(args, sides, n: int, title: str, inputs, image: str) -> None:
    """--plot's charts of these sides, written in place of the file at once."""
    from .analysis import plots

    try:
        with replacing(args.plot, inputs) as temporary:
            plots.draw(sides, n, args.agents, title, str(temporary), image)
    except OutputError as exc:
        raise UsageError(f"--plot: {exc}") from None


def _warn_turn_limit(
    tally, agents: str, n: int, err, side: str = "", limit: int | None = None
) -> None:
    """A warning when most games ended at the turn limit: then the report says more
    about the agents than about the rules, or about the limit `--max-turns` set. Where
    agents that finish games do not, lint's games find a game that stood still (RL304):
    its layer 1 alone found nothing in a Splendor designer's lock-up."""
    if tally.mostly_limited():
        if limit is not None:
            why = f"the limit --max-turns {limit} set ends them; raise it, or leave it out"
        elif "greedy" not in agents:
            why = f"agents {agents} rarely finish this game; try --agents greedy"
        else:
            why = (
                f"agents {agents} rarely finish this game; check that it can end: rulespec "
                f"lint SPEC --simulate {tally.games} --players {n} --agents {agents} "
                "tells a game that stood still (RL304)"
            )
        print(
            f"warning: {side}{tally.limited} of {tally.games} games "
            f"({100 * tally.limited / tally.games:.0f}%) ended at the turn limit, not by a "
            f"rule: {why}",
            file=err,
        )


def _played(args, job, games: int, err, into=None, seed=None):
    """The tally of `games` seeded games of the job (added to `into`, when given, as
    they end), played as --workers and --dask say, with a progress line on a terminal.
    A cluster that cannot play them is a usage error."""
    from .analysis import simulation

    if args.dask is None:
        _fit_workers(args, err)
    elif importlib.util.find_spec("distributed") is None:
        raise UsageError("--dask needs dask.distributed: pip install 'rulespec[dask]'")
    else:  # its client logs the loss of a scheduler as tracebacks: the error says it in one line
        if args.workers != 1:  # the cluster's workers play: say so, as a cut --workers is said
            print(
                f"rulespec {args.command}: --workers {args.workers}: the Dask cluster's "
                "workers play the games; ignored",
                file=err,
            )
        import logging

        logging.getLogger("distributed").setLevel(logging.CRITICAL)
    into = simulation.Tally() if into is None else into
    progress = _progress(err, games) if _terminal(err) else None
    try:
        seed = args.seed if seed is None else seed
        return simulation.simulate(job, games, seed, args.workers, progress, args.dask, into)
    except simulation.ClusterError as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        if progress is not None:
            progress(into.games, final=True)  # the line ends before what follows
        raise


def _simulation_report(args, spec, n: int, tally) -> dict:
    """simulate's report; `partial` when the run was cut short, its games a prefix of the seeds."""
    from .analysis import simulation

    teams = tuple((t.name, seats) for t, seats in zip(spec.teams, spec.teams_for(n)))
    report = {"spec": spec.name, "players": n, "agents": args.agents, "seed": args.seed}
    report["turn_limit"] = args.max_turns or spec.turn_limit  # a game past it ends unwon
    if tally.games < args.games:
        report["partial"] = True
    report |= simulation.summarize(tally, n, teams, spec.rounds is not None)
    # what never fired is what a designer asks of a variant: left out, it went unseen
    report["rules_never_fired"] = sorted(
        part.name
        for kind, part in spec.rules()
        if kind not in ("step", "round") and part.name not in report["rules_fired"]
    )
    return report


def _replay_argv(args, players: int, seed: int) -> str:
    """The `rulespec run` that plays one of simulate's games again, as it was played."""
    import shlex

    words = ["rulespec", "run", args.spec, *(f"--variant={v}" for v in args.variant)]
    words += ["--seed", str(seed), "--players", str(players), "--agents", args.agents]
    words += ["--max-turns", str(args.max_turns)] if args.max_turns else []
    return shlex.join(words)


def _print_simulation(args, report: dict, out) -> None:
    if args.format == "json":
        json.dump(report, out, indent=1)
        out.write("\n")
        return
    games = report["games"]
    played = (
        f"{games} of {_many(args.games, 'game')} (partial: interrupted)"
        if "partial" in report
        else _many(games, "game")
    )
    print(
        f"{report['spec']}: {played}, {_players(report['players'])}, "
        f"agents {args.agents}, seeds {args.seed}..{args.seed + games - 1}",
        file=out,
    )
    looped = None  # the first seed of a game that stopped without an end
    for reason, r in report["end_reasons"].items():
        seeds = r.get("seeds", ())  # a loop's, to replay
        said = f"  seed{'s' * (len(seeds) > 1)} {', '.join(map(str, seeds))}" if seeds else ""
        looped = seeds[0] if seeds and looped is None else looped
        print(
            f"  {reason:<16} {r['count']:>7}  {100 * r['share']:5.1f}%  "
            f"[{100 * r['low']:.1f}, {100 * r['high']:.1f}]{said}",
            file=out,
        )
    if looped is not None:  # replayed only with the same players, agents, limit, variants
        print(f"  replay it        {_replay_argv(args, report['players'], looped)}", file=out)
    _print_lengths(report, out)
    _print_wins(report, out)
    print("  rules fired      (times; share of games)", file=out)
    for rule, f in report["rules_fired"].items():
        print(f"    {rule:<22} {f['times']:>9}  {100 * f['games'] / games:5.1f}%", file=out)
    _print_wrapped(f"    {'(never fired)':<22} ", report["rules_never_fired"], out)
    _print_branches(report["branches_chosen"], games, out)
    # a 52-card deck makes a line of thousands of characters: wrapped to a terminal's
    # width, a card and its count kept on one line
    played = [f"{c}\xa0{k}" for c, k in report["cards_played"].items()]
    # a game played by choices (a pick laid at once) plays no card as an action does
    none = ["none by an action or a reaction (cards chosen and moved are not counted)"]
    _print_wrapped("  cards played     ", played or none, out)


def _print_branches(chosen: list[dict], games: int, out) -> None:
    """How often each branch of each `choose` was taken, under the choice's place (its
    rule and line), and how often as the only one offered; no lines for a spec whose
    games took none."""
    if not chosen:
        return
    print("  branches chosen  (times; share of games)", file=out)
    for i, b in enumerate(chosen):
        if i == 0 or (chosen[i - 1]["rule"], chosen[i - 1]["line"]) != (b["rule"], b["line"]):
            print(f"    {b['rule']}, line {b['line']}", file=out)
        only = f"  {b['only_option']} as the only option" if b["only_option"] else ""
        share = 100 * b["games"] / games
        print(f"      {b['label']:<20} {b['times']:>9}  {share:5.1f}%{only}", file=out)


def _print_wrapped(head: str, items: list[str], out) -> None:
    """A list after its heading, wrapped at 100 columns below it (none: no line); an
    item's non-breaking spaces keep it on one line."""
    lines = textwrap.wrap(", ".join(items), 100 - len(head), break_on_hyphens=False)
    for i, line in enumerate(lines):
        print((head if i == 0 else " " * len(head)) + line.replace("\xa0", " "), file=out)


def _print_lengths(report: dict, out) -> None:
    """Game lengths, and for a spec with rounds the rounds per match and their lengths."""
    rows = [("length (turns)", report["length"])]
    if "rounds" in report:
        rows += [
            ("rounds per match", report["rounds"]["per_match"]),
            ("round (turns)", report["rounds"]["round_length"]),
        ]
    for label, r in rows:
        print(
            f"  {label:<16} mean {r['mean']}, median {r['median']}, p95 {r['p95']}, max {r['max']}",
            file=out,
        )


def _plot_format(path: str) -> str:
    """The image format --plot's suffix names, checked before any game is played: with
    none, matplotlib wrote `chart.png` beside the file `chart`, which was left empty."""
    if importlib.util.find_spec("matplotlib") is None:
        raise UsageError("--plot needs matplotlib: pip install 'rulespec[plot]'")
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = Path(path).suffix.lower()[1:]
    if suffix not in formats:
        raise UsageError(
            f"--plot: {path}: its suffix names the image's format, one of "
            + ", ".join(f".{f}" for f in sorted(formats))
        )
    return suffix


def _print_wins(report: dict, out) -> None:
    """The seat wins of a simulate report, by seat and by turn order (without rounds,
    and with two seats or more), and its team wins when the spec has teams."""
    for label, key in (
        ("seat wins", "seat_wins"),
        ("turn order wins", "turn_order_wins"),
        ("team wins", "team_wins"),
    ):
        alone = key == "turn_order_wins" and len(report.get("seat_wins", ())) < 2  # a solitaire
        if key in report and not alone:
            shares = (f"{x} {100 * w['share']:.1f}%" for x, w in report[key].items())
            print(f"  {label:<16} " + ", ".join(shares), file=out)
            test = report.get(f"{key}_test")
            if test is not None:
                print(f"  {'':<16} {_equal_shares(test)}", file=out)
    others = [
        f"{label} {100 * report[key]['share']:.1f}%"
        for label, key in (("no winner", "no_winner"), ("shared wins", "shared_wins"))
        if report[key]["share"]
    ]
    if others:  # why the seat wins do not add up to 100 %
        print(f"  {'other games':<16} " + ", ".join(others), file=out)
    if "payoff_mean" in report:
        means = (f"{seat} {v:+.2f}" for seat, v in report["payoff_mean"].items())
        print(f"  {'payoff':<16} mean " + ", ".join(means), file=out)


def _equal_shares(test: dict) -> str:
    """A chi-square test of wins against equal shares, in words: does one seat (one
    place in turn order) win more than its share, at 5 %?"""
    p = test["p"]
    said = f"p = {p:.2g}" if p >= 0.0001 else "p < 0.0001"
    verdict = "unequal shares" if p < 0.05 else "no inequality shown"
    return f"{verdict}: {said} against equal shares (chi-square, {test['df']} df)"


def _progress(stream, total, unit="games"):
    """A progress bar on a terminal for work of more than a couple of seconds, redrawn
    at most ten times a second however often it is called."""
    import time

    start = last = time.monotonic()

    def show(done, final=False):  # final: the work ended short of total (a bound, Ctrl-C)
        nonlocal last
        now = time.monotonic()
        ended = final or done >= total
        if (not ended and (now - start < 2 or now - last < 0.1)) or (ended and now - start < 2):
            return
        last = now
        rate = done / (now - start) if now > start else 0
        eta = f", {(total - done) / rate:4.0f} s left" if rate and not ended else ""
        bar = "#" * (BAR * done // total)
        stream.write(f"\r  [{bar:.<{BAR}}] {done:,}/{total:,} {unit}, {rate:,.0f}/s{eta} ")
        if ended:
            stream.write("\n")
        stream.flush()

    return show


def _validate(args, out, err) -> int:
    problems, reports = [], []  # reports: each spec's diagnostics, errors or warnings
    for path in args.specs:
        try:
            notices = list(_load(path, args.variant, None).notices)
            files = {d.span.file for d in notices}
            reports.append(SpecError(notices, {f: _source_lines(f) for f in files}))
        except SpecError as exc:
            problems.append(exc)
            reports.append(exc)
    reports = _told_once(reports)
    diagnostics = [d for e in reports for d in e.diagnostics]
    if args.format != "text":
        out.write(_machine(args.format, diagnostics))
    else:
        for exc in reports:
            if exc.diagnostics:
                print(exc.render(), file=out)
        count = sum(d.severity == "error" for d in diagnostics)
        warned = len(diagnostics) - count
        print(
            f"{len(args.specs)} spec(s) checked, {count} problem(s)"
            + (f", {warned} warning(s)" if warned else ""),
            file=out,
        )
    return 1 if problems else 0


def _told_once(reports: list[SpecError]) -> list[SpecError]:
    """Each spec's diagnostics less those an earlier spec's report told: a base's
    mistake, read again with each of its variants (`validate base.yaml variants/*.yaml`),
    is told once, as lint tells it."""
    told: set = set()
    out = []
    for exc in reports:
        fresh = [d for d in exc.diagnostics if d not in told]
        told.update(fresh)
        out.append(SpecError(fresh, exc.sources))
    return out


def _test(args, out, err) -> int:
    from .table import scenarios

    files = scenarios.collect(args.paths)
    missing = [str(f) for f in files if not Path(f).exists()]
    if missing:
        raise UsageError(f"no such file: {missing[0]}")
    results = []
    for f in files:
        try:
            results.append(scenarios.run(f))
        except SpecError as exc:
            results.append(scenarios.Outcome(str(f), str(f), False, [exc.render()]))
        except ValueError as exc:
            results.append(scenarios.Outcome(str(f), str(f), False, [f"{f}: {exc}"]))
    failed = [r for r in results if not r.passed]
    if args.format == "json":
        json.dump([r.__dict__ for r in results], out, indent=1)
        out.write("\n")
    elif args.format == "junit":
        out.write(formats.junit(results))
    else:
        for r in results:
            named = f": {r.name}" if r.name != r.file else ""  # a file too broken to name itself
            print(f"{'PASS' if r.passed else 'FAIL'} {r.file}{named}", file=out)
            for f in r.failures:  # each line of a failure under its scenario
                print(textwrap.indent(f, "    "), file=out)
        if not results:  # a folder of specs and variants only, say
            print(
                f"no scenario file found in {', '.join(args.paths)} (specs and variants, "
                "the files that declare `rulespec:`, are passed over)",
                file=out,
            )
        print(f"{len(results) - len(failed)} passed, {len(failed)} failed", file=out)
    return 1 if failed or not results else 0


def _codes(text: str) -> list[str]:
    """An argparse type: codes or prefixes, comma-separated (--select, --ignore), each
    checked as the settings file checks them."""
    codes = [c.strip() for c in text.split(",") if c.strip()]
    if not codes:
        raise argparse.ArgumentTypeError("needs codes or prefixes, such as RL1,RS205")
    for c in codes:
        if not config.CODE_PREFIX.fullmatch(c):
            raise argparse.ArgumentTypeError(
                f"'{c}' is not a code or a code's prefix, such as RL1 or RS205"
            )
    return codes


def _lint(args, out, err) -> int:
    from .analysis.lint import CODES as LINT_CODES
    from .lang.codes import CODES

    settings = f"{args.config.file}: lint."
    for flag, codes in (
        ("--select", args.select),
        ("--ignore", args.ignore),
        (f"{settings}select", args.config.select),
        (f"{settings}ignore", args.config.ignore),
        (f"{settings}severity", args.config.severity),
    ):
        for c in codes or ():  # a code that does not exist would keep, or drop, nothing
            if not any(k.startswith(c) for k in (*LINT_CODES, *CODES)):
                raise UsageError(
                    f"{flag}: no code is or begins with '{c}' (lint's codes, "
                    f"{min(LINT_CODES)} to {max(LINT_CODES)}, are listed in docs/lint.md)"
                )
    sources: dict = {}
    found = [(path, _lint_spec(args, path, sources, err)) for path in args.specs]
    findings = _chosen_findings(args, _whose(found))
    if args.format != "text":
        out.write(_machine(args.format, findings))
    else:
        _print_findings(args, findings, sources, out)
    threshold = SEVERITIES.index(args.fail_on)
    failing = [f for f in findings if SEVERITIES.index(f.severity) >= threshold]
    return 1 if failing else 0


def _lint_spec(args, path, sources, err) -> list:
    """One spec's findings, those its comments silence left out (a spec that does not
    load: its diagnostics); adds its files' lines to sources."""
    from .analysis import lint as static
    from .lang.compiler import compile_document
    from .lang.loading import load
    from .lang.variants import load_composed, resolve

    if not Path(path).is_file():
        load(path)  # raises RS001: an unreadable file is a tool error (exit 2)
    try:
        doc = load_composed(path, args.variant) if args.variant else resolve(load(path))
        spec = compile_document(doc)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    except SpecError as exc:
        if any(d.code == "RS001" for d in exc.diagnostics):
            raise  # a file that cannot be read (as one that is not UTF-8): a tool error
        sources.update(exc.sources)
        return [
            static.Finding(d.code, d.severity, d.message, d.span, 0, d.hint)
            for d in exc.diagnostics
        ]
    sources.update(doc.all_sources())
    layer1 = static.static(spec)
    found = [static.Finding(d.code, d.severity, d.message, d.span, 0, d.hint) for d in spec.notices]
    found += layer1
    try:
        if args.explore:  # its notes, and the layer-1 warnings it disproves
            added, gone = _explored(args, spec, path, layer1, err)
            found = [f for f in found if f not in gone] + added
        if args.simulate:
            found += _covered(args, spec, path, err)
    except _rule_error() as exc:  # a rule failed in a game played: a finding, at the rule
        found.append(static.Finding(exc.code, "error", exc.message, exc.span, 0, None))
    return [f for f in found if not silenced(f, sources.get(f.span.file, []))]


def _explored(args, spec, path, layer1, err) -> tuple[list, list]:
    """Layer 2: its own findings (with its verdicts on layer 1's), and the layer-1
    findings it withdraws."""
    from .analysis import explore

    players = _lint_counts(args, spec, path)[0] if args.players is not None else None
    bounds = explore.Bounds(
        players=players,
        depth=args.depth,
        max_states=args.max_states,
        timeout=args.timeout,
        memory=MAX_EXPLORE_MEMORY,
    )
    progress = _progress(err, args.max_states, "states") if _terminal(err) else None
    try:
        report = explore.explore(spec, bounds, progress)
        if progress is not None:
            progress(report.states, final=True)
    except explore.Timeout as exc:
        raise UsageError(
            f"{path}: {exc}; raise --timeout, or lower --depth or --max-states"
        ) from None
    except (explore.OutOfMemory, MemoryError) as exc:  # MemoryError: a machine with less
        raise UsageError(
            f"{path}: {str(exc) or 'exploration ran out of memory: no result is given'}; "
            "lower --max-states or --depth"
        ) from None
    return explore.confirm(spec, layer1, report), explore.withdrawn(layer1, report)


def _covered(args, spec, path, err) -> list:
    """Layer 3: what --simulate's games never reach, spread over the player counts the
    spec allows (--players: one). The first games (PROBE_GAMES) come first: when they
    loop, lint reports it and plays no more; when most of the default random agents'
    games hit the turn limit, the play checks run on greedy games instead."""
    from .analysis import coverage

    counts = _lint_counts(args, spec, path)
    agents = _check_agents(args, spec, counts[0], path)
    games = args.simulate
    first = min(games, coverage.PROBE_GAMES)
    runs = _spread(args, spec, path, counts, agents, first, err)
    if coverage.looped(runs):
        return coverage.coverage_of(spec, runs, agents, stopped=first < games)
    default = args.agents == "random"  # `--agents random,...` asks for random games, rerun or not
    if default and spec.evaluation is not None and coverage.mostly_limited(runs):
        again = _spread(
            args, spec, path, counts, ("greedy",), min(games, coverage.GREEDY_RERUN), err
        )
        before = frozenset().union(*(r.tally.fired.keys() | r.tally.called for r in runs))
        return [
            coverage.rerun_note(spec, runs, agents, again),
            *coverage.limit_findings(spec, runs, agents),
            *coverage.coverage_of(spec, again, ("greedy",), limits=False, fired_before=before),
        ]
    if first < games:
        _spread(args, spec, path, counts, agents, games - first, err, runs)
    return coverage.coverage_of(spec, runs, agents)


def _lint_counts(args, spec, path) -> list[int]:
    """The player counts lint --simulate plays: --players, the count a per-seat list of
    --agents names, or every count the spec allows."""
    if args.players is not None:
        if args.players not in spec.player_counts:
            raise UsageError(
                f"{path}: {spec.name} is for {spec.player_range()}, not {args.players}"
            )
        return [args.players]
    if "," in args.agents:
        return [spec.default_players]
    return list(spec.player_counts)


def _spread(args, spec, path, counts, agents, games, err, runs=None) -> list:
    """`games` seeded games spread over the player counts (the first counts get one
    more when they do not divide evenly), each count's seeds from --seed on; with
    `runs`, added to them, each count's seeds going on from where its run stopped."""
    from .analysis import coverage, simulation

    runs = runs or [coverage.Run(n, 0, simulation.Tally(), args.seed) for n in counts]
    share, extra = divmod(games, len(counts))
    for i, run in enumerate(runs):
        more = share + (i < extra)
        if more:
            job = simulation.job(spec, run.players, tuple(agents))
            _played(args, job, more, err, into=run.tally, seed=args.seed + run.games)
            run.games += more
    return runs


def _chosen_findings(args, findings) -> list:
    """The findings --select and --ignore (else the settings) keep, at the severities
    the settings give, each once, in file order."""
    select = args.select if args.select is not None else args.config.select or ()
    ignore = args.ignore if args.ignore is not None else args.config.ignore or ()
    findings = [
        f
        if _unloadable(f)
        else dataclasses.replace(f, severity=args.config.severity.get(f.code, f.severity))
        for f in findings
    ]
    findings = [
        f
        for f in findings
        if _unloadable(f)
        or (
            (not select or any(f.code.startswith(c) for c in select))
            and not any(f.code.startswith(c) for c in ignore)
        )
    ]
    # a finding in a file that several of the specs share (a base and its variant) once
    unique = {_finding_key(f): f for f in reversed(findings)}
    return sorted(unique.values(), key=lambda f: (f.span.file, f.span.line, f.span.col, f.code))


def _whose(found: list[tuple[str, list]]) -> list:
    """Each spec's findings; where several specs are linted, one placed in another file
    (a base's line, where a variant's change made it) says which spec it is of, unless
    that file's own spec, linted in this run, has it too (a Go Fish designer's variant
    made a finding at the base's line that read as the base's)."""
    if len(found) == 1:
        return found[0][1]
    own = {
        _finding_key(f)
        for path, fs in found
        for f in fs
        if Path(f.span.file).resolve() == Path(path).resolve()
    }
    return [
        f
        if Path(f.span.file).resolve() == Path(path).resolve() or _finding_key(f) in own
        else dataclasses.replace(f, message=f"{f.message} (found linting {path})")
        for path, fs in found
        for f in fs
    ]


def _finding_key(f) -> tuple:
    return (f.code, f.message, f.span.file, f.span.line, f.span.col)


def _unloadable(finding) -> bool:
    """An RS error: the spec does not load. No selection, ignore list or severity setting
    hides it or lowers it, so a spec that does not load always fails the run."""
    return finding.code.startswith("RS") and finding.severity == "error"


def _print_findings(args, findings, sources, out) -> None:
    for f in findings:
        d = Diagnostic(
            f.code,
            f.message + (f" [layer {f.layer}]" if f.layer else ""),
            f.span,
            f.severity,
            f.hint,
        )
        print(d.render(sources.get(f.span.file)), file=out)
        if f.trace:
            print("    reached by: " + "; ".join(f.trace), file=out)
    counts = {s: sum(f.severity == s for f in findings) for s in ("error", "warning", "info")}
    print(
        f"{len(args.specs)} spec(s) linted: {counts['error']} error(s), "
        f"{counts['warning']} warning(s), {counts['info']} note(s)",
        file=out,
    )


def _machine(form: str, findings) -> str:
    """Findings or diagnostics in a format for tools: json, sarif or github."""
    if form == "json":
        return json.dumps([f.as_dict() for f in findings], indent=1) + "\n"
    if form == "sarif":
        from .analysis.lint import CODES

        return formats.sarif(findings, CODES)
    return formats.github(findings)


def _diff(args, out, err) -> int:
    from .analysis import diff

    variants = _both_sides(args)
    old, new = _load(args.old, variants, err), _load(args.new, variants, err)
    if args.plot and not args.simulate:
        raise UsageError("--plot draws the games of --simulate N: give it as well")
    inputs = _inputs(args, "--plot", specs=[(args.old, variants), (args.new, variants)])
    changed = diff.changes(old, new)
    added, fixed = diff.findings_delta(old, new)
    rows, tests = _diff_outcomes(args, old, new, inputs, err) if args.simulate else ([], None)
    if args.format == "json":
        json.dump(
            {
                "changes": [c.as_dict() for c in changed],
                "new_findings": [f.as_dict() for f in added],
                "fixed_findings": [f.as_dict() for f in fixed],
                "outcomes": rows,
                "statistics": tests,
                "verdict": _verdict(rows, tests) if rows else None,
            },
            out,
            indent=1,
        )
        out.write("\n")
    else:
        for c in changed:
            where = " | ".join(
                f"{label} {span}" for label, span in (("old", c.old), ("new", c.new)) if span
            )
            detail = f": {c.detail}" if c.detail else ""
            print(f"{c.what:<8} {c.kind} '{c.name}'{detail}  ({where})", file=out)
        for label, group in (("new", added), ("fixed", fixed)):
            for f in group:
                print(f"{label} finding {f.span}: {f.severity} {f.code}: {f.message}", file=out)
        for line in _outcome_lines(rows, tests) if rows else ():
            print(line, file=out)
        if not (changed or added or fixed or rows):
            print("no semantic differences", file=out)
    threshold = SEVERITIES.index(args.fail_on)
    return 1 if any(SEVERITIES.index(f.severity) >= threshold for f in added) else 0


def _diff_outcomes(args, old, new, inputs, err):
    """diff --simulate's outcome rows and tests; the --plot of both sides' games."""
    from .analysis import diff, simulation

    image = _plot_format(args.plot) if args.plot else None  # checked before any game
    n = args.players or old.default_players
    for spec in (old, new):
        if n not in spec.player_counts:
            raise UsageError(f"{spec.name} is for {spec.player_range()}, not {n}")
    agents = _check_agents(args, old, n, args.old)
    played = [
        _played(args, simulation.job(spec, n, agents), args.simulate, err) for spec in (old, new)
    ]
    for side, tally in zip(("OLD: ", "NEW: "), played):
        _warn_turn_limit(tally, ",".join(agents), n, err, side)
    sides = [
        tuple((t.name, seats) for t, seats in zip(s.teams, s.teams_for(n))) for s in (old, new)
    ]
    rows, tests = diff.compare_outcomes(
        *played,
        n,
        (old.turn_limit, new.turn_limit),
        (old.payoff, new.payoff),
        teams=sides[0] if sides[0] == sides[1] else (),  # the same sides: a row each
        round_ends=list(
            dict.fromkeys(r.name for s in (old, new) if s.rounds for r in s.rounds.end_conditions)
        ),
    )
    if args.plot:
        from .analysis.plots import Side

        sides = [
            Side(label, tally, spec.turn_limit)
            for label, spec, tally in zip(("OLD", "NEW"), (old, new), played)
        ]
        title = f"OLD {old.name} -> NEW {new.name}: {args.simulate} games each, {_players(n)}"
        _plot(args, sides, n, title + f", agents {args.agents}", inputs, image)
    return rows, tests


def _both_sides(args) -> tuple[str, ...]:
    """diff's --variant NAMEs as files, found beside OLD (its base, most often) or else
    beside NEW, so that one file applies to both sides."""
    from .lang.variants import find_variant

    files = []
    for name in args.variant:
        try:
            files.append(str(find_variant(args.old, name)))
        except FileNotFoundError:
            try:
                files.append(str(find_variant(args.new, name)))
            except FileNotFoundError as exc:
                raise UsageError(f"--variant: {exc}") from None
    return tuple(files)


def _outcome_lines(rows, tests):
    """The outcome rows of `diff --simulate`, then the tests and the sample's power."""
    for row in rows:
        if row["p"] is None:  # a distribution point, shown without a test
            yield f"outcome  {row['what']:<24} {row['old']:>8} -> {row['new']:>8}"
            continue
        # a mean to 2 decimals, as it is rounded, a length's interval to 1; a share to 3
        digits, shown = {"mean len": (1, 2), "mean pay": (2, 2)}.get(row["what"][:8], (3, 3))
        mark = "  SIGNIFICANT" if row["significant"] else ""
        yield (
            f"outcome  {row['what']:<24} {row['old']:8.{shown}f} {_interval(row['old_ci'], digits)}"
            f" -> {row['new']:8.{shown}f} {_interval(row['new_ci'], digits)}  p={row['p']:.3g} "
            f"holm={row['p_holm']:.3g}{mark}"
        )
    means = ["length"] + [
        what for what in ("rounds per match", "payoffs") if f"mean {what}" in tests["tests"]
    ]
    yield (
        f"tests    shares: {tests['tests']['shares']}; mean {' and '.join(means)}: "
        f"{tests['tests']['mean length']}; "
        f"Holm's correction over {tests['tested']} rows, SIGNIFICANT when holm < {tests['alpha']}"
    )
    half, mean = tests["detectable_at_half"], tests["detectable_mean"]
    found = [
        f"a change of {100 * half:.1f} points in a 50% share"
        if half is not None
        else "no change in a 50% share"
    ]
    if mean == 0:  # every game of OLD the same length: any change shows
        found.append("any change in the mean length, every game of OLD as long")
    elif mean is not None:
        found.append(f"a change of {mean} turns in the mean length")
    yield (
        f"power    {tests['games'][0]} and {tests['games'][1]} games can detect {', '.join(found)} "
        f"({100 * tests['power']:.0f}% power, alpha {tests['alpha']}/{tests['tested']})"
    )
    yield f"verdict  {_verdict(rows, tests)}"


def _verdict(rows, tests) -> str:
    """One line that sums up the tested rows of `diff --simulate`."""
    tested = [r for r in rows if r["p"] is not None]
    moved = [r["what"] for r in tested if r["significant"]]
    if not moved:
        return f"no significant difference in {len(tested)} measures"
    return f"{len(moved)} of {len(tested)} measures differ significantly: {', '.join(moved)}"


def _interval(ci, digits) -> str:
    low, high = (f"{x:.{digits}f}" for x in ci)
    return f"[{_unsigned_zero(low)}, {_unsigned_zero(high)}]"


def _unsigned_zero(text: str) -> str:
    """'-0.00' as '0.00': a bound just below zero, rounded."""
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _graph(args, out, err) -> int:
    import shutil
    import subprocess

    from .analysis import graph

    g = _graph_view(args, err)
    specs = [(args.spec, args.variant)] + ([(args.changes, [])] if args.changes else [])
    inputs = _inputs(args, "--output", "--render", specs=specs)
    text = {"dot": graph.to_dot, "mermaid": graph.to_mermaid, "json": graph.to_json}[args.format](g)
    if args.render and Path(args.render).suffix.lower() != ".svg":
        raise UsageError(f"--render writes SVG: name its file .svg, not {args.render}")
    if args.render and shutil.which("dot") is None:
        raise UsageError(
            "--render needs Graphviz's 'dot'; install graphviz, or use the "
            "dot text with another renderer"
        )
    if args.render is not None:  # first: a render that fails leaves nothing half done
        try:
            with replacing(args.render, inputs) as temporary:
                done = subprocess.run(
                    ["dot", "-Tsvg", "-o", str(temporary)],
                    input=graph.to_dot(g),
                    text=True,
                    capture_output=True,
                )
                if done.returncode:
                    raise UsageError(f"--render: dot failed: {done.stderr.strip()}")
        except OutputError as exc:
            raise UsageError(f"--render: {exc}") from None
    if args.output is None:
        out.write(text)
        return 0
    try:
        with replacing(args.output, inputs) as temporary:
            temporary.write_text(text, encoding="utf-8")
    except OutputError as exc:
        raise UsageError(f"--output: {exc}") from None
    return 0


def _graph_view(args, err):
    """The graph `graph` exports: the spec's, or what it changed against --changes,
    cut down to --kind and then to --focus's neighbourhood."""
    from .analysis import graph, graph_views

    spec = _load(args.spec, args.variant, err)
    if args.reach is not None and args.focus is None:
        raise UsageError("--depth is the reach of --focus: give --focus RULE as well")
    whole = graph_views.changes(_load(args.changes, [], err), spec) if args.changes else None
    whole = graph.build(spec) if whole is None else whole
    flag, g = "--kind", whole
    try:
        if args.kind is not None:
            g = graph_views.keep_kinds(whole, graph_views.kind_groups(args.kind))
        if args.focus is not None:
            flag = "--focus"
            g = graph_views.focus(g, args.focus, 1 if args.reach is None else args.reach, whole)
    except graph_views.ViewError as exc:
        raise UsageError(f"{flag}: {exc}") from None
    return g


def _schema(args, out, err) -> int:
    from .lang import schema

    if args.output is None:
        json.dump(schema.load_schema(args.kind or "spec"), out, indent=2)
        out.write("\n")
        return 0
    folder = Path(args.output)
    try:
        if not args.output:
            raise OutputError("an empty folder name")
        if folder.exists() and not folder.is_dir():
            raise OutputError(f"{args.output} is not a folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot make {args.output}: {exc.strerror or exc}") from None
        for kind in [args.kind] if args.kind else SCHEMA_KINDS:
            path = folder / f"{kind}.schema.json"
            with replacing(str(path)) as temporary:
                text = json.dumps(schema.load_schema(kind), indent=2) + "\n"
                temporary.write_text(text, encoding="utf-8")
            print(f"wrote {path}", file=out)
    except OutputError as exc:
        raise UsageError(f"--output: {exc}") from None
    return 0


def _games(args, out, err) -> int:
    rows = bundled.listing()
    if args.format == "json":
        json.dump(rows, out, indent=2)
        out.write("\n")
        return 0
    if not rows:
        print("no bundled games found (is rulespec installed with its package data?)", file=out)
        return 0
    for row in rows:
        players = _players_shown(row)
        print(f"{row['name']:<24} {row['title']}  ({players})".replace("  ()", ""), file=out)
        if row["variants"]:
            print(f"{'':<24} variants: {', '.join(row['variants'])}", file=out)
    return 0


def _players_shown(row: dict) -> str:
    """`2-6 players, default 4`, `2 or 4 players, default 4`, or `4 players` for a game
    of one player count."""
    if not row.get("players"):
        return ""
    low, high, default = row["players"]
    counts = row["player_counts"]
    if low == high:
        return _players(low)
    if len(counts) < high - low + 1:  # some counts between are not for the game
        return f"{', '.join(map(str, counts[:-1]))} or {high} players, default {default}"
    return f"{low}-{high} players, default {default}"


def _migrate(args, out, err) -> int:
    from .lang.migrate import migrate

    code = 0
    for path in args.specs:
        try:
            m = migrate(path)
        except SpecError as exc:
            print(exc.render(), file=err)
            code = 2
            continue
        except OSError as exc:
            print(f"{path}: cannot read it: {exc.strerror or exc}", file=err)
            code = 2
            continue
        if not m.renames:
            print(f"{path}: nothing to migrate", file=out)
            continue
        code = max(code, 1)
        renamed = ", ".join(f"{a} -> {b}" for a, b in m.renames.items())
        if args.write:
            try:
                with replacing(path) as target:
                    target.write_text(m.new, encoding="utf-8")
            except OutputError as exc:
                print(f"{path}: {exc}", file=err)
                code = 2
                continue
            print(f"{path}: renamed {renamed}", file=out)
        else:
            out.write(m.diff())
    return code


def _new(args, out, err) -> int:
    if not source.GAME_NAME.fullmatch(args.name):
        raise UsageError(
            f"'{args.name}' is not a game name: use lower case letters, digits "
            "and _, starting with a letter (my_game)"
        )
    if args.output == "":
        raise UsageError("--output needs a file name")
    path = args.output or f"{args.name}.yaml"
    if os.path.isdir(path):
        raise UsageError(f"{path} is a folder: give the file's name, --output {path}/NAME.yaml")
    if os.path.lexists(path):
        raise UsageError(f"{path} exists already: choose another name, or --output FILE")
    try:
        with replacing(path) as target:
            target.write_text(bundled.starter(args.name), encoding="utf-8")
    except OutputError as exc:
        raise UsageError(str(exc)) from None
    print(f"wrote {path}: try 'rulespec run {path}' and 'rulespec lint {path}'", file=out)
    return 0


def _play(args, out, err) -> int:
    from rulespec.interpreter import Game
    from rulespec.interpreter.agents import make_agents, play
    from rulespec.interpreter.choices import seat_name
    from rulespec.interpreter.observe import log_for

    from .table.narrate import Titles
    from .table.replay import stopped
    from .table.seat import InputEnded, Person, Quit

    if args.stdin is None:  # started with it closed (<&-): Python gives no stream at all
        raise UsageError("standard input is closed: play reads your choices from it")
    spec, n = _setup(args, err)
    seat = _seat_arg(args.seat, n)
    inputs = _inputs(args, "--log")
    game = Game(spec, n).new_initial_state(seed=args.seed, turn_limit=args.max_turns)
    agents = make_agents(args.agents.split(","), n, args.seed)
    agents[seat] = person = Person(game, seat, Titles.of(spec), args.stdin, out)
    print(f"{spec.name}: {_players(n)}, seed {args.seed}, you are {seat_name(seat)}", file=out)
    person.start()
    interrupted, failed = False, None
    try:
        with _play_log(args, n, seat, inputs) as record:
            try:
                play(game, agents)
            except Quit:  # quit, or Ctrl-D at a terminal
                person.show()
                print(f"{seat_name(seat)} left the game at turn {game.turn}.", file=out)
            except KeyboardInterrupt:  # Ctrl-C: the log keeps the game so far, then 130
                interrupted = True
            except _rule_error() as exc:  # the log keeps the game up to it, as run --log does
                failed = exc
            if record is not None:
                result = game.result if failed is None else game.result | {"error": stopped(failed)}
                record(1, args.seed, log_for(game, None), result)
    except InputEnded:
        print("", file=out)
        raise UsageError("input ended before the game did") from None
    except OutputError as exc:
        raise UsageError(f"--log: {exc}") from None
    if interrupted:
        print("", file=out)
        raise KeyboardInterrupt
    if failed is not None:  # the table up to the rule, then its place (exit 2)
        person.show()
        print(f"The game stopped at turn {game.turn}: a rule failed (below).", file=out)
        raise failed
    person.finish()
    return 0


def _play_log(args, n: int, seat: int, inputs):
    """The log `play --log` writes, as `run --log` does; the person's seat is named
    `person` among the agents."""
    from .table.replay import log_writer

    if args.log is None:
        return contextlib.nullcontext()
    agents = args.agents.split(",")
    agents = agents * n if len(agents) == 1 else agents
    agents[seat] = "person"
    return log_writer(
        args.log,
        args.spec,
        args.variant,
        n,
        inputs,
        agents=",".join(agents),
        max_turns=args.max_turns,
    )


def _seat_arg(label: str, n: int, other: str = "") -> int:
    """A seat named on the command line (--as): P1, P2, ... in any case."""
    from .table import scenarios

    try:
        return scenarios.parse_seat(label.upper(), n)
    except ValueError:
        digits = label.isascii() and label.isdigit() and len(label) <= 6  # a seat's number
        meant = f": write P{label}" if digits and 0 < int(label) <= n else ""
        raise UsageError(
            f"'{label}' is not a seat of a {n}-player game "
            f"({'P1' if n == 1 else f'P1..P{n}'}){f', or {other}' if other else ''}{meant}"
        ) from None


def _narrator(args, out):
    """`replay --as`: a function that narrates a game replayed the same, as the seat
    saw it (its log) or whole (`all`), under its match heading; JSON gets its events."""
    from rulespec.interpreter.observe import log_for

    from .table.narrate import Titles, narrate

    def narrated(game, header: dict) -> list | None:
        seat = None if args.seat.casefold() == "all" else _seat_arg(args.seat, game.game.n, "all")
        events = log_for(game, seat)
        if args.format == "json":
            return events
        print(f"== Game {header['game']} (seed {header['seed']}), as {args.seat} saw it", file=out)
        for line in narrate(events, Titles.of(game.game.spec)):
            print(line, file=out)
        print("", file=out)
        return None

    return narrated


def _replay(args, out, err) -> int:
    from .table.replay import LogError, records, replay

    seat = None  # one seat's view (--as SEAT), not everything (--as all, or no --as)
    try:
        if args.seat is not None and args.seat.casefold() != "all":  # before any game is played
            seat = _seat_arg(args.seat, next(records(args.log))[1]["players"], "all")
        outcomes = replay(args.log, None if args.seat is None else _narrator(args, out))
    except LogError as exc:
        print(exc, file=err)
        return 2
    if args.format == "json":
        json.dump(
            [
                {
                    "game": o.game,
                    "seed": o.seed,
                    "same": o.same,
                    "events": o.events,
                    "difference": o.difference,
                    "result": _seen_result(o.result, seat),
                    "older": o.older,
                }
                | ({} if o.seen is None else {"seen": o.seen})
                for o in outcomes
            ],
            out,
            indent=1,
        )
        out.write("\n")
    else:
        for o in outcomes:
            if o.same and "error" in o.result:  # stopped as the log's game was
                e = _seen_result(o.result, seat)["error"]
                print(
                    f"game {o.game} (seed {o.seed}): the same as the log, {o.events} events, "
                    f"stopped at turn {o.result['turns']} as it was, by error {e['code']} "
                    f"at line {e['line']}, column {e['col']}"
                    + (f": {e['message']}" if "message" in e else ""),
                    file=out,
                )
            elif o.same:
                r = o.result
                who = ", ".join(r["winners"]) or "no winner"
                print(
                    f"game {o.game} (seed {o.seed}): the same as the log, {o.events} events "
                    f"({who}, {r['reason'] or 'unfinished'}, {r['turns']} "
                    f"turn{'' if r['turns'] == 1 else 's'})",
                    file=out,
                )
            else:
                print(f"game {o.game} (seed {o.seed}): differs at {o.difference}", file=out)
        same = sum(o.same for o in outcomes)
        stopped = "" if outcomes[-1].same else " (the replay stops at the first difference)"
        print(f"{same} of {len(outcomes)} game(s) replayed the same{stopped}", file=out)
        older = sum(o.older for o in outcomes)
        if older:
            print(
                f"note: {older} event(s) logged as an older rulespec logged them (a secret "
                "pick of a set of cards with its size, a shuffle of fewer than "
                "two cards, no_play where a pass is now asked, a step offered again that "
                "ended unasked with only pass left, a pass without its step, a play "
                "without the card it chose from a zone some seat cannot see, or without "
                "where it lay), read as the same",
                file=out,
            )
    return 0 if all(o.same for o in outcomes) else 1


def _compile(args, out, err) -> int:
    from rulespec.interpreter import Game

    spec, n = _spec_for_players(args, err)
    listings: dict[str, list] = {}  # rule -> its generated functions
    for listing in Game(spec, n).exprs.listings:
        listings.setdefault(listing.rule, []).append(listing)
    if not args.show:
        for rule in listings:
            print(rule, file=out)
        return 0
    if args.show not in listings:
        hint = did_you_mean(args.show, listings)
        raise UsageError(
            f"no rule '{args.show}' with generated code in {args.spec}"
            f"{f' ({hint})' if hint else ''}; rules: {', '.join(listings)}"
        )
    shown = sorted(
        listings[args.show], key=lambda f: (f.spans[0].file, f.spans[0].line, f.spans[0].col)
    )
    print(
        f"# {args.show} in {args.spec}, {n} players: {len(shown)} generated "
        f"function{'s' if len(shown) > 1 else ''}, each line marked with its spec line:col",
        file=out,
    )
    sources: dict[str, list[str]] = {}
    for listing in shown:
        span = listing.spans[0]
        if span.file not in sources:
            sources[span.file] = _source_lines(span.file) or []
        source = sources[span.file]
        text = source[span.line - 1].strip() if span.line <= len(source) else ""
        print(f"\n# {span.line}:{span.col}: {text}", *listing.annotated(), sep="\n", file=out)
    return 0


def _serve(args, out, err) -> int:
    if not all(importlib.util.find_spec(m) for m in ("starlette", "uvicorn")):
        raise UsageError("needs the web server packages: pip install 'rulespec[serve]'")
    from .serve.app import serve

    try:
        serve(args.specs, args.host, args.port, args.saves, out, args.debug)
    except ValueError as exc:  # no folder to save in; the address is taken, or not one
        raise UsageError(str(exc)) from None
    return 0


def _lsp(args, out, err) -> int:
    if not all(importlib.util.find_spec(m) for m in ("pygls", "lsprotocol")):
        raise UsageError("needs the language server packages: pip install 'rulespec[lsp]'")
    from . import lsp

    lsp.serve()
    return 0


def _completion(args, out, err) -> int:
    out.write(completion.script(_parser(), args.shell))
    return 0


COMMANDS = {
    "completion": _completion,
    "lsp": _lsp,
    "run": _run,
    "simulate": _simulate,
    "validate": _validate,
    "lint": _lint,
    "diff": _diff,
    "graph": _graph,
    "test": _test,
    "schema": _schema,
    "play": _play,
    "replay": _replay,
    "compile": _compile,
    "games": _games,
    "new": _new,
    "migrate": _migrate,
    "serve": _serve,
}


def entry() -> None:
    # a terminated rulespec unwinds as an interrupted one does: simulate stops its workers
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    for stream in (sys.stdout, sys.stderr):  # an ASCII terminal (a C locale) is shown \u2014
        with contextlib.suppress(AttributeError, OSError, ValueError):  # not reconfigurable
            stream.reconfigure(errors="backslashreplace")
    code = main(sys.argv[1:])
    for stream in (sys.stdout, sys.stderr):  # one that failed would fail again as Python exits
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # ValueError: closed
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    sys.exit(code)
