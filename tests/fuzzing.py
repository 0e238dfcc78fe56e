"""Fuzz cases for the CLI (issue 12): mutated specs, variants, scenarios, replay logs and
argument lists, each written into a scratch folder and run through `main()` in process;
and for the library (issue 24): scripts of random calls on Game, State and the
PettingZoo and OpenSpiel wrappers, run by `run_api`; and sessions of HTTP requests to
`rulespec serve` (issue 24, tests/fuzzing_serve.py).

Shared by tests/test_fuzz.py (a short, deterministic run in the suite) and
benchmarks/fuzz.py (a campaign of N minutes). A case is built from one integer seed, so
the seed and the kind are the whole reproducer; `Case.describe()` prints the files too.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from rulespec.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
SCENARIOS = ROOT / "tests" / "scenarios"
SPEC_SOURCES = (
    sorted(GAMES.glob("*.yaml"))
    + sorted((ROOT / "tests" / "valid").glob("*.yaml"))
    + sorted((ROOT / "tests" / "broken").glob("*.yaml"))
)
VARIANT_SOURCES = sorted((GAMES / "variants").rglob("*.yaml"))
SCENARIO_SOURCES = sorted(SCENARIOS.rglob("*.yaml"))
SMALL_GAME = ROOT / "tests" / "valid" / "coin_grab.yaml"  # the log cases replay this game
KINDS = ("spec", "variant", "scenario", "log", "argv", "api", "serve")

# Values a scalar is swapped for: other types, extremes, YAML's own tricks.
SCALARS = [
    "1.5",
    "-1",
    "0",
    "-0",
    "99999999999999999999999999",
    "1e308",
    "-1e400",
    ".nan",
    ".inf",
    "-.inf",
    "0x7fffffffffffffff",
    "0o777",
    "1_000_000",
    "null",
    "~",
    "true",
    "no",
    "''",
    '""',
    "[]",
    "{}",
    "[[[]]]",
    "x" * 5000,
    '"\\x00\\x07\\x1b[2J"',
    '"\\u202e\\ud800"',
    "!!binary aGVsbG8=",
    "!!timestamp 2001-12-14",
    "!!set {a, b}",
    "!!float 3",
    "!!str 3",
    "!!python/object:os.system x",
    "&a [1, 2]",
    "*a",
    "*undefined_alias",
    "!custom tag",
    "? complex key",
    "|\n  block\n  text",
    "'10**10**10'",
    "9" * 4400,
    "-" + "9" * 30,
    "1/0",
    "count(",
    "((((((1))))))",
    "$x",
    "é∂ƒ©",
]
EXPRESSION_NOISE = [
    "10 ** 10 ** 10",
    "9" * 5000,
    "-(" * 200 + "1" + ")" * 200,
    "(" * 2000 + "1" + ")" * 2000,
    "1 / 0",
    "1 % 0",
    "not not not " * 300 + "true",
    "a." * 500 + "b",
    "\x00",
    "1.5e309",
    "count(hand(current), nothing)",
    "random_player(players - players)",
    "999999999999 * 999999999999",
]
ALIAS_BOMB = (
    "\n".join(
        ["bomb0: &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        + [f"bomb{i}: &b{i} [{', '.join(f'*b{i - 1}' for _ in range(9))}]" for i in range(1, 10)]
    )
    + "\n"
)


@dataclass
class Case:
    """One fuzz case: files to write (relative to the scratch folder) and the argv."""

    kind: str
    seed: int
    argv: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: str = ""

    def write(self, where: Path) -> list[str]:
        """Write the files under `where` and return the argv with {tmp} filled in."""
        for rel, data in self.files.items():
            path = where / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return [a.replace("{tmp}", str(where)) for a in self.argv]

    def describe(self, limit: int = 4000) -> str:
        lines = [f"fuzz case kind={self.kind} seed={self.seed}", f"argv: {self.argv!r}"]
        if self.stdin:
            lines.append(f"stdin: {self.stdin[:200]!r}")
        for rel, data in self.files.items():
            text = data.decode("utf-8", "replace")
            cut = "" if len(text) <= limit else f"\n... ({len(text) - limit} more characters)"
            lines.append(f"--- {rel} ({len(data)} bytes)\n{text[:limit]}{cut}")
        return "\n".join(lines)


# ---------------------------------------------------------------- text mutations


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _expression_lines(rng: random.Random) -> list[str]:
    donor = _lines(rng.choice(SPEC_SOURCES).read_text(encoding="utf-8"))
    found = [ln for ln in donor if re.search(r"\b(effect|condition|when|if|count|win)\b", ln)]
    return found or donor


def _retype(rng: random.Random, lines: list[str]) -> None:
    """Change one scalar (after `key:` or `- `) to another type or an extreme value."""
    spots = [i for i, ln in enumerate(lines) if re.search(r"(:\s+\S|^\s*-\s+\S)", ln)]
    if not spots:
        return
    i = rng.choice(spots)
    m = re.match(r"^(\s*(?:-\s+)?[^:#]*:\s+|\s*-\s+)(.*)$", lines[i])
    if m:
        lines[i] = m.group(1) + rng.choice(SCALARS)


def _numbers(rng: random.Random, lines: list[str]) -> None:
    """Replace one integer in the text by a negative, huge or fractional one."""
    spots = [(i, m) for i, ln in enumerate(lines) for m in re.finditer(r"\b\d+\b", ln)]
    if spots:
        i, m = rng.choice(spots)
        new = rng.choice(
            ["-1", "0", "-99999", "1.5", "10000000000000000000000", "9" * 400, "1e9", "65536"]
        )
        lines[i] = lines[i][: m.start()] + new + lines[i][m.end() :]


def _splice(rng: random.Random, lines: list[str]) -> None:
    """Insert or overwrite a line with an expression line from another spec."""
    donor = rng.choice(_expression_lines(rng))
    i = rng.randrange(len(lines) + 1)
    if rng.random() < 0.5 and i < len(lines):
        lines[i] = donor
    else:
        lines.insert(i, donor)


def _noise(rng: random.Random, lines: list[str]) -> None:
    """Put an extreme expression where an expression was."""
    spots = [i for i, ln in enumerate(lines) if re.search(r"(effect|condition|when):\s+\S", ln)]
    if spots:
        i = rng.choice(spots)
        key = lines[i].split(":", 1)[0]
        lines[i] = f"{key}: {json.dumps(rng.choice(EXPRESSION_NOISE))}"
    else:
        lines.append(f"  {rng.choice(EXPRESSION_NOISE)}")


def _deepen(rng: random.Random, lines: list[str]) -> None:
    """Nest a value deeply, in YAML flow style or in expression brackets."""
    depth = rng.choice([50, 500, 5000, 50000])
    spots = [i for i, ln in enumerate(lines) if ":" in ln]
    if not spots:
        return
    i = rng.choice(spots)
    key = lines[i].split(":", 1)[0]
    style = rng.randrange(3)
    if style == 0:
        value = "[" * depth + "1" + "]" * depth
    elif style == 1:
        value = "{a: " * depth + "1" + "}" * depth
    else:
        value = json.dumps("(" * depth + "1" + ")" * depth)
    lines[i] = f"{key}: {value}"


def _indent_block(rng: random.Random, lines: list[str]) -> None:
    """Re-indent a run of lines (block structure changes meaning or breaks)."""
    i = rng.randrange(len(lines))
    j = min(len(lines), i + rng.randint(1, 6))
    pad = rng.choice(["  ", "\t", " ", "    " * 20])
    for k in range(i, j):
        lines[k] = pad + lines[k] if rng.random() < 0.7 else lines[k].lstrip()


def _anchors(rng: random.Random, lines: list[str]) -> None:
    """Anchors, aliases, merge keys, a self-reference or an alias bomb."""
    choice = rng.randrange(4)
    if choice == 0:
        lines.insert(0, ALIAS_BOMB)
    elif choice == 1:
        i = rng.randrange(len(lines))
        lines.insert(i, "<<: *nowhere")
    elif choice == 2:
        spots = [i for i, ln in enumerate(lines) if re.match(r"^\w[\w_]*:\s*$", ln)]
        if spots:
            i = rng.choice(spots)
            lines[i] = lines[i] + " &top"
            lines.append(lines[i].split(":")[0] + "_again: *top")
    else:
        lines.insert(0, "selfref: &s [*s]")


def _bytes_noise(rng: random.Random, lines: list[str]) -> None:
    """Control characters, a BOM, a NUL, a lone surrogate escape, a truncation."""
    i = rng.randrange(len(lines))
    j = rng.randrange(len(lines[i]) + 1)
    junk = rng.choice(
        [
            "\x00",
            "\x1b[31m",
            "\ufeff",
            "\r",
            "\x85",
            "\u2028",
            "\x7f",
            "\t",
            "%YAML 9.9\n---\n",
            "\n---\n",
            "\n...\n",
            "'",
            '"',
            "{",
            "[",
            "#",
            "&",
            "*",
            "!",
            "|",
            ">",
            "@",
            "`",
        ]
    )
    lines[i] = lines[i][:j] + junk + lines[i][j:]


def _structure(rng: random.Random, lines: list[str]) -> None:
    """Delete, duplicate, swap or move lines, or truncate the file."""
    op = rng.randrange(5)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    if op == 0 and len(lines) > 1:
        del lines[i : i + rng.randint(1, 4)]
    elif op == 1:
        lines[i:i] = lines[i : i + rng.randint(1, 8)]
    elif op == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines.insert(j, lines.pop(i))
    else:
        del lines[i:]


MUTATORS = [
    _retype,
    _numbers,
    _splice,
    _noise,
    _deepen,
    _indent_block,
    _anchors,
    _bytes_noise,
    _structure,
]


def mutate_text(rng: random.Random, text: str, rounds: int | None = None) -> bytes:
    lines = _lines(text) or [""]
    for _ in range(rounds if rounds is not None else rng.choice([1, 1, 1, 2, 3, 6])):
        if not lines:
            lines = [""]
        rng.choice(MUTATORS)(rng, lines)
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if rng.random() < 0.03:  # not UTF-8 at all
        k = rng.randrange(len(data) + 1)
        data = data[:k] + bytes(rng.randrange(128, 256) for _ in range(4)) + data[k:]
    return data


# ---------------------------------------------------------------- numbers and flags


def small_or_wild(rng: random.Random, small: tuple[int, int], wild: float = 0.25) -> str:
    """A count for a flag: usually small enough to run fast, sometimes one validation must refuse."""
    if rng.random() < wild:
        return rng.choice(
            [
                "-1",
                "0",
                "",
                "1.5",
                "1e3",
                "nan",
                "99999999999999999999",
                "-99999999999",
                "0x10",
                " 2",
                "\uff12",  # a fullwidth 2
                "1_0",
                "+3",
                "--",
                "-",
            ]
        )
    return str(rng.randint(*small))


def _game_flags(rng: random.Random, players=True) -> list[str]:
    flags = []
    if players and rng.random() < 0.5:
        flags += ["--players", small_or_wild(rng, (1, 7))]
    if rng.random() < 0.6:
        flags += [
            "--seed",
            rng.choice([str(rng.randint(0, 99)), "-5", "99999999999999999999999", "x"]),
        ]
    if rng.random() < 0.3:
        flags += [
            "--agents",
            rng.choice(
                [
                    "random",
                    "greedy",
                    "random,greedy",
                    "",
                    ",",
                    "nobody",
                    "random," * 9,
                    "greedy,greedy,greedy,greedy,greedy,greedy,greedy,greedy",
                ]
            ),
        ]
    return flags


def _variant_flags(rng: random.Random) -> list[str]:
    if rng.random() < 0.7:
        return []
    return [
        "--variant",
        rng.choice(
            [
                "two_player",
                "long_5",
                "advanced",
                "long_4",
                "reverse",
                "nope",
                "",
                "../take_the_gold",
                "/etc/passwd",
                "advanced.yaml",
                "x" * 300,
            ]
        ),
    ]


def _mangle_argv(rng: random.Random, argv: list[str], files: list[str]) -> list[str]:
    """Unknown flags, missing values, repeated flags, a path that is missing or a folder."""
    argv = list(argv)
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        op = rng.randrange(7)
        if op == 0:
            argv.insert(
                rng.randrange(len(argv) + 1),
                rng.choice(
                    [
                        "--bogus",
                        "-x",
                        "--",
                        "-",
                        "--json=1",
                        "--seed",
                        "--players=",
                        "---",
                        "--help",
                    ]
                ),
            )
        elif op == 1 and len(argv) > 1:  # a flag loses its value
            flags = [i for i, a in enumerate(argv) if a.startswith("--") and i + 1 < len(argv)]
            if flags:
                del argv[rng.choice(flags) + 1]
        elif op == 2:
            paths = [i for i, a in enumerate(argv) if a in files]
            if paths:
                argv[rng.choice(paths)] = rng.choice(
                    [
                        "{tmp}/missing.yaml",
                        "{tmp}",
                        "{tmp}/",
                        "",
                        "{tmp}/sub/../missing",
                        "{tmp}/\x00bad",
                    ]
                )
        elif op == 3 and len(argv) > 1:
            del argv[rng.randrange(1, len(argv))]
        elif op == 4:
            argv += argv[1:3]
        elif op == 5:
            argv.insert(0, rng.choice(["run", "nope", "", "RUN", "-v"]))
        elif argv:
            i = rng.randrange(len(argv))
            argv[i] = argv[i] + rng.choice(["\x00", "\n", " ", "é", "\x1b"])
    return argv


# ---------------------------------------------------------------- the five kinds


def _copy_tree(files: dict[str, bytes], src: Path, rel: str) -> None:
    for p in sorted(src.rglob("*.yaml")):
        files[f"{rel}/{p.relative_to(src)}"] = p.read_bytes()


def _spec_case(rng: random.Random, seed: int) -> Case:
    src = rng.choice(SPEC_SOURCES)
    data = mutate_text(rng, src.read_text(encoding="utf-8"))
    spec = "{tmp}/spec.yaml"
    other = "{tmp}/other.yaml"
    files = {"spec.yaml": data, "other.yaml": src.read_bytes()}
    cmd = rng.choice(
        ["validate", "validate", "lint", "lint", "run", "diff", "graph", "compile", "simulate"]
    )
    if cmd == "validate":
        argv = ["validate", spec] + (["--json"] if rng.random() < 0.3 else [])
    elif cmd == "lint":
        argv = ["lint", spec] + rng.choice(
            [
                [],
                [],
                ["--explore", "--depth", "2", "--max-states", "300"],
                ["--simulate", "2"],
                ["--format", "sarif"],
                ["--format", "json"],
            ]
        )
    elif cmd == "run":
        argv = ["run", spec, "--max-turns", "30"] + rng.choice(
            [[], ["--json"], ["--log", "{tmp}/out.jsonl"]]
        )
    elif cmd == "diff":
        argv = ["diff", other, spec] if rng.random() < 0.5 else ["diff", spec, other]
        argv += rng.choice([[], ["--json"], ["--simulate", "2"]])
    elif cmd == "graph":
        argv = ["graph", spec, "--format", rng.choice(["dot", "mermaid", "json"])]
    elif cmd == "compile":
        argv = ["compile", spec] + rng.choice([[], ["--show"], ["--show", "x"]])
    else:
        argv = ["simulate", spec, "--games", "2", "--max-turns", "30"]
    return Case("spec", seed, argv, files)


def _variant_case(rng: random.Random, seed: int) -> Case:
    src = rng.choice(VARIANT_SOURCES)
    game = src.parent.name  # variants/<game>/NAME.yaml
    files: dict[str, bytes] = {f"games/{game}.yaml": (GAMES / f"{game}.yaml").read_bytes()}
    _copy_tree(files, GAMES / "variants" / game, f"games/variants/{game}")
    files[f"games/variants/{game}/{src.name}"] = mutate_text(rng, src.read_text(encoding="utf-8"))
    if rng.random() < 0.2:  # a second variant, mutated too, composed with the first
        other = rng.choice(sorted((GAMES / "variants" / game).glob("*.yaml")))
        files[f"games/variants/{game}/{other.name}"] = mutate_text(
            rng, other.read_text(encoding="utf-8")
        )
    names = [src.stem] + (
        [rng.choice(sorted(p.stem for p in (GAMES / "variants" / game).glob("*.yaml")))]
        if rng.random() < 0.3
        else []
    )
    spec = f"{{tmp}}/games/{game}.yaml"
    vflags = [x for n in names for x in ("--variant", n)]
    cmd = rng.choice(["validate", "lint", "run", "diff", "compile", "run"])
    if cmd == "diff":
        argv = ["diff", spec, f"{{tmp}}/games/variants/{game}/{src.name}"]
    elif cmd == "run":
        argv = ["run", spec, *vflags, "--max-turns", "20"]
    else:
        argv = [cmd, spec, *vflags]
    return Case("variant", seed, argv, files)


def _scenario_case(rng: random.Random, seed: int) -> Case:
    src = rng.choice(SCENARIO_SOURCES)
    files: dict[str, bytes] = {}
    _copy_tree(files, GAMES, "games")  # scenarios name their spec as ../../../games/NAME.yaml
    rel = f"tests/scenarios/{src.relative_to(SCENARIOS)}"
    files[rel] = mutate_text(rng, src.read_text(encoding="utf-8"))
    argv = ["test", f"{{tmp}}/{rel}"]
    if rng.random() < 0.2:
        argv.append("--json")
    if rng.random() < 0.15:  # the whole folder, with the mutated file among the good ones
        sub = src.parent
        for p in sorted(sub.glob("*.yaml"))[:4]:
            files.setdefault(f"tests/scenarios/{p.relative_to(SCENARIOS)}", p.read_bytes())
        argv[1] = f"{{tmp}}/tests/scenarios/{sub.relative_to(SCENARIOS)}"
    return Case("scenario", seed, argv, files)


_LOG_CACHE: dict[tuple, list[str]] = {}


def pristine_log(games: int = 1) -> list[str]:
    """The lines of a `run --log` of the small game, made once per process."""
    key = (games,)
    if key not in _LOG_CACHE:
        import io
        import tempfile

        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / "game.jsonl"
            code = main(
                [
                    "run",
                    str(SMALL_GAME),
                    "--max-turns",
                    "12",
                    "--games",
                    str(games),
                    "--log",
                    str(log),
                ],
                stdout=io.StringIO(),
                stderr=io.StringIO(),
            )
            assert code == 0, "the small game must run to make the log cases"
            _LOG_CACHE[key] = log.read_text(encoding="utf-8").splitlines()
    return _LOG_CACHE[key]


def _wild_json(rng: random.Random):
    return rng.choice(
        [
            None,
            True,
            -1,
            0,
            1.5,
            float("inf"),
            10**30,
            -(10**30),
            "",
            "x" * 100000,
            "\x00\x1b",
            [],
            {},
            [1, 2],
            {"a": 1},
            "P99",
            "P0",
            "hand[P9]",
            "nowhere",
            2**63,
            json.loads("[" * 200 + "]" * 200),
        ]
    )


def _mutate_log(rng: random.Random, lines: list[str]) -> list[str]:
    lines = list(lines)
    for _ in range(rng.choice([1, 1, 2, 3, 5])):
        op = rng.randrange(9)
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines.append("{}")
        else:
            _LOG_MUTATIONS[op](rng, lines, i)
    return lines


def _retype_field(rng: random.Random, lines: list[str], i: int) -> None:
    """Retype or drop a field of line i."""
    try:
        record = json.loads(lines[i])
    except (ValueError, RecursionError):  # a line an earlier round made bad or deep
        return
    if not (isinstance(record, dict) and record):
        return
    key = rng.choice(sorted(record))
    if rng.random() < 0.2:
        del record[key]
    elif key == "result" and isinstance(record[key], dict) and record[key] and rng.random() < 0.5:
        sub = rng.choice(sorted(record[key]))
        record[key][sub] = _wild_json(rng)
    elif key == "spec" and rng.random() < 0.5:
        record[key] = rng.choice(
            [
                "{tmp}",
                "{tmp}/missing.yaml",
                "{tmp}/game.jsonl",
                "",
                str(ROOT / "games" / "pirates_wild.yaml"),
            ]
        )
    else:
        record[key] = _wild_json(rng)
    lines[i] = json.dumps(record)


def _drop_lines(rng: random.Random, lines: list[str], i: int) -> None:
    del lines[i : i + rng.randint(1, 3)]


def _repeat_line(rng: random.Random, lines: list[str], i: int) -> None:
    lines.insert(i, lines[rng.randrange(len(lines))])


def _swap_lines(rng: random.Random, lines: list[str], i: int) -> None:
    j = rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]


def _huge_line(rng: random.Random, lines: list[str], i: int) -> None:
    """Insert deep or long JSON."""
    depth = rng.choice([100, 1000, 100000])
    lines.insert(
        i,
        rng.choice(
            [
                "[" * depth + "]" * depth,
                '{"a":' * depth + "1" + "}" * depth,
                json.dumps({"event": "move", "cards": ["x"] * 200000}),
                json.dumps("y" * 2_000_000),
            ]
        ),
    )


def _junk_line(rng: random.Random, lines: list[str], i: int) -> None:
    lines.insert(
        i, rng.choice(["", "not json", "{", "null", "[]", "1e999", "NaN", '"\\ud800"', "\x00"])
    )


def _cut_line(rng: random.Random, lines: list[str], i: int) -> None:
    lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]


# what _mutate_log does for each op it draws, 0 to 8
_LOG_MUTATIONS = (
    *[_retype_field] * 3,
    _drop_lines,
    _repeat_line,
    _swap_lines,
    _huge_line,
    _junk_line,
    _cut_line,
)


def _log_case(rng: random.Random, seed: int) -> Case:
    base = pristine_log(rng.choice([1, 1, 2]))
    lines = _mutate_log(rng, base)
    spec_line = str(SMALL_GAME)
    text = "\n".join(ln.replace("tests/valid/coin_grab.yaml", spec_line) for ln in lines) + "\n"
    files = {"game.jsonl": text.replace("{tmp}", "@TMP@").encode("utf-8", "surrogatepass")}
    argv = ["replay", "{tmp}/game.jsonl"] + (["--json"] if rng.random() < 0.3 else [])
    case = Case("log", seed, argv, files)
    return case


def _argv_case(rng: random.Random, seed: int) -> Case:
    game = rng.choice(["take_the_gold", "pirates_wild"])
    files: dict[str, bytes] = {}
    _copy_tree(files, GAMES, "games")
    files["coin_grab.yaml"] = SMALL_GAME.read_bytes()
    files["game.jsonl"] = (
        ("\n".join(pristine_log()) + "\n")
        .replace("tests/valid/coin_grab.yaml", str(SMALL_GAME))
        .encode()
    )
    spec = rng.choice(
        [f"{{tmp}}/games/{game}.yaml", "{tmp}/coin_grab.yaml", "{tmp}/coin_grab.yaml"]
    )
    paths = [spec, "{tmp}/game.jsonl", "{tmp}/out.jsonl", "{tmp}/out.svg"]
    cmd = rng.choice(
        [
            "run",
            "run",
            "simulate",
            "validate",
            "lint",
            "diff",
            "graph",
            "test",
            "replay",
            "play",
            "compile",
            "schema",
            "",
        ]
    )
    out_file = rng.choice(
        ["{tmp}/out.jsonl", spec, "{tmp}", "{tmp}/missing/dir/x", "{tmp}/game.jsonl"]
    )
    build = _ARGV_BUILDERS.get(cmd)
    argv = build(rng, spec, game, out_file) if build else []
    stdin = _play_stdin(rng) if cmd == "play" else ""
    argv = _mangle_argv(rng, argv, paths)
    return Case("argv", seed, argv, files, stdin)


def _run_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    argv = [
        "run",
        spec,
        *_game_flags(rng),
        *_variant_flags(rng),
        "--max-turns",
        small_or_wild(rng, (1, 40)),
    ]
    if rng.random() < 0.3:
        argv += ["--games", small_or_wild(rng, (1, 3))]
    if rng.random() < 0.3:
        argv += ["--log", out_file]
    if rng.random() < 0.3:
        argv += [
            "--as",
            rng.choice(["P1", "P2", "P0", "P9", "p1", "", "1", "P-1", "P99999999999999"]),
        ]
    if rng.random() < 0.3:
        argv.append("--json")
    return argv


def _simulate_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    argv = [
        "simulate",
        spec,
        *_game_flags(rng),
        *_variant_flags(rng),
        "--games",
        small_or_wild(rng, (1, 4)),
        "--max-turns",
        small_or_wild(rng, (1, 30)),
    ]
    if rng.random() < 0.2:  # process pools stay small: a huge count would fork that many
        argv += ["--workers", rng.choice(["1", "2", "0", "-1", "", "1.5"])]
    if rng.random() < 0.3:
        argv.append("--json")
    if rng.random() < 0.15:
        argv += ["--plot", rng.choice(["{tmp}/plot.png", "{tmp}", spec])]
    return argv


def _validate_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    return [
        "validate",
        spec,
        *rng.choice([[], [spec], ["{tmp}/games"], ["{tmp}/game.jsonl"]]),
        *_variant_flags(rng),
    ]


def _lint_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    argv = ["lint", spec, *_variant_flags(rng)]
    if rng.random() < 0.4:
        argv += [
            "--explore",
            "--depth",
            small_or_wild(rng, (0, 3)),
            "--max-states",
            small_or_wild(rng, (1, 400)),
        ]
    if rng.random() < 0.3:
        argv += [
            "--timeout",
            rng.choice(["0.5", "1", "0", "-1", "nan", "inf", "1e-9", "", "x"]),
        ]
    if rng.random() < 0.3:
        argv += ["--simulate", small_or_wild(rng, (0, 3))]
    if rng.random() < 0.3:
        argv += ["--format", rng.choice(["text", "json", "sarif", "xml", ""])]
    if rng.random() < 0.3:
        argv += ["--fail-on", rng.choice(["info", "warning", "error", "fatal"])]
    if rng.random() < 0.3:
        argv += [
            rng.choice(["--select", "--ignore"]),
            rng.choice(["RS", "RS7", "", ",", "RS1,,RS2", "*", "x" * 99]),
        ]
    return argv


def _diff_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    other = rng.choice(
        [
            f"{{tmp}}/games/{game}.yaml",
            "{tmp}/coin_grab.yaml",
            f"{{tmp}}/games/variants/{game}/"
            + ("advanced.yaml" if game == "take_the_gold" else "reverse.yaml"),
        ]
    )
    argv = ["diff", spec, other]
    if rng.random() < 0.3:
        argv += ["--simulate", small_or_wild(rng, (0, 3))]
    if rng.random() < 0.3:
        argv += ["--players", small_or_wild(rng, (1, 7))]
    if rng.random() < 0.3:
        argv += ["--fail-on", rng.choice(["info", "warning", "error", "x"])]
    if rng.random() < 0.3:
        argv.append("--json")
    return argv


def _graph_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    argv = ["graph", spec, "--format", rng.choice(["dot", "mermaid", "json", "svg"])]
    if rng.random() < 0.4:
        argv += ["--output", out_file]
    if rng.random() < 0.2:
        argv += [
            "--render",
            rng.choice(["{tmp}/out.svg", "{tmp}", spec, "{tmp}/missing/x.svg"]),
        ]
    return argv


def _test_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    return [
        "test",
        rng.choice(["{tmp}/games", spec, "{tmp}/game.jsonl", "{tmp}", "{tmp}/missing"]),
    ]


def _replay_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    return ["replay", rng.choice(["{tmp}/game.jsonl", spec, "{tmp}", "{tmp}/missing.jsonl"])]


def _play_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    return [
        "play",
        spec,
        "--as",
        rng.choice(["P1", "P2", "P0", "P9", "", "x"]),
        *_game_flags(rng),
        "--max-turns",
        small_or_wild(rng, (1, 10)),
    ]


def _compile_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    return [
        "compile",
        spec,
        *rng.choice([[], ["--show"], ["--show", "setup"], ["--show", ""]]),
        *rng.choice([[], ["--players", small_or_wild(rng, (1, 7))]]),
        *_variant_flags(rng),
    ]


def _schema_argv(rng: random.Random, spec: str, game: str, out_file: str) -> list[str]:
    return ["schema"]


def _play_stdin(rng: random.Random) -> str:
    """What a person might type at `play`'s prompts."""
    return "\n".join(
        rng.choice(["1", "0", "-1", "99", "", "x", "1.5", "9" * 50, "\x00", "?", "quit"])
        for _ in range(rng.randint(0, 40))
    )


# the arguments of each command (the others: none)
_ARGV_BUILDERS = {
    "run": _run_argv,
    "simulate": _simulate_argv,
    "validate": _validate_argv,
    "lint": _lint_argv,
    "diff": _diff_argv,
    "graph": _graph_argv,
    "test": _test_argv,
    "replay": _replay_argv,
    "play": _play_argv,
    "compile": _compile_argv,
    "schema": _schema_argv,
}


# ---------------------------------------------------------------- the library API (issue 24)
# Random calls on Game and State, and on the PettingZoo and OpenSpiel wrappers, from a
# script of calls written as data: a choice among the options is a fraction of their
# number, so the script does not depend on the game it meets. A call may end normally,
# or with IllegalChoice or ValueError saying why (the documented refusals); any other
# exception, or a refusal without a message, escapes run_api and fails the case.

API_SPECS = sorted(GAMES.glob("*.yaml")) + sorted((ROOT / "tests" / "valid").glob("*.yaml"))
ODD_SEATS = [-1, -(2**70), 2**70, True, False, "P1", "", 1.5]
ODD_ACTIONS = [-1, -12, 10**6, 2**70, True, "10", "", "pass", 1.5, None, [0]]
API_OPS = ("play", "play", "play", "illegal", "chance", "observe", "log", "clone", "key", "redeal")


def _api_case(rng: random.Random, seed: int) -> Case:
    spec = rng.choice(API_SPECS)
    script = {
        "spec": str(spec.relative_to(ROOT)),
        "players": rng.choice([None] * 6 + [2, 3, 4] + [0, -1, 1, 5, 7, 65]),  # None: the default
        "seed": rng.choice([0, 1, rng.randrange(1000), -5, 2**64]),
        "wrapper": rng.choice(["state", "state", "pettingzoo", "openspiel"]),
        "calls": [
            {"op": rng.choice(API_OPS), "pick": rng.random(), "odd": rng.random() < 0.3}
            for _ in range(rng.randint(1, 80))
        ],
    }
    data = json.dumps(script, indent=1).encode()
    return Case("api", seed, ["{tmp}/calls.json"], {"calls.json": data})


def run_api(argv, stdout=None, stderr=None, stdin=None) -> int:
    """Run an API case's script (argv: its file); 0 when every call ended as documented.
    A wrapper that is not installed is left for the State itself."""
    from rulespec import load_spec
    from rulespec.interpreter import Game

    script = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    spec = load_spec(ROOT / script["spec"])
    players = script["players"] or spec.default_players
    if players not in spec.player_counts:
        _refused(Game, spec, players, always=True)
        return 0
    game, wrapper = Game(spec, players), script["wrapper"]
    if importlib.util.find_spec(_WRAPPERS[wrapper][0]) is None:
        wrapper = "state"
    _WRAPPERS[wrapper][1](game, script["seed"], script["calls"])
    return 0


def _refused(function, *args, always=False) -> None:
    """Call function(*args), which may end normally (not when `always`), or be refused
    with IllegalChoice or ValueError and a message."""
    from rulespec.interpreter import IllegalChoice

    try:
        function(*args)
    except (IllegalChoice, ValueError) as exc:
        if not str(exc).strip():
            raise AssertionError(f"a refusal without a message: {exc!r}") from exc
        return
    if always:
        raise AssertionError(f"{function.__name__}{args!r:.200} was not refused")


def _pick(options, fraction: float):
    options = list(options)
    return options[int(fraction * len(options))] if options else None


def _api_state(game, seed, calls) -> None:
    from rulespec.table.encoding import ActionSpace

    state, labels = game.new_initial_state(seed), list(ActionSpace(game).labels)
    for call in calls:
        op, pick, odd = call["op"], call["pick"], call["odd"]
        if op == "play" and not state.is_terminal():
            if state.chance_is_sampled() or (state.is_chance_node() and odd):
                state.sample_chance(random.Random(pick) if odd else None)
            else:
                option = _pick(state.legal_actions(), pick)
                state.apply_action(option.label if odd else option)
        elif op == "illegal":
            _refused(state.apply_action, _pick(ODD_ACTIONS + labels, pick))
        elif op == "chance":
            _refused(state.chance_outcomes if odd else state.sample_chance)
        elif op == "observe":
            seat = _pick(ODD_SEATS + [game.n] if odd else [*range(game.n), None], pick)
            _refused(state.observation, seat, always=odd)
        elif op == "log":
            state.log_for(_pick([*range(game.n), None], pick), _pick([0, 1, -1, 10**9], pick))
        elif op == "clone":
            state = state.clone(log=not odd)
        elif op == "key":
            state.key(_pick([None, 0, 1, 8, -1], pick))
        elif op == "redeal" and state.current_player() >= 0:
            # the seat to act, as a search agent re-deals: re-dealing another seat's cards
            # leaves the options already offered stale (for the interpreter to settle)
            state.redeal(state.current_player(), random.Random(pick), canonical=odd)


def _api_pettingzoo(game, seed, calls) -> None:
    import numpy as np

    from rulespec.env import RulespecEnv
    from rulespec.table.encoding import ActionSpace

    if not len(ActionSpace(game)):  # a game nobody decides in: refused, saying why
        _refused(RulespecEnv, game.spec, game.n, always=True)
        return
    env = RulespecEnv(game.spec, game.n)
    env.reset(seed=seed % 2**32)
    for call in calls:
        if not env.agents:  # a game played out: every agent has stepped off
            env.reset(seed=seed % 2**32)
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        elif call["odd"]:
            wrong = _pick(ODD_ACTIONS + [len(env.action_labels)], call["pick"])
            _refused(env.step, wrong, always=True)
        else:
            env.step(np.int64(_pick(env.last()[0]["action_mask"].nonzero()[0], call["pick"])))


_REGISTERED: dict[str, str] = {}  # spec file -> its OpenSpiel name, once per process


def _api_openspiel(game, seed, calls) -> None:
    import pyspiel

    from rulespec.spiel import register

    path = game.spec.span.file
    if path not in _REGISTERED:
        _REGISTERED[path] = register(game.spec, f"rulespec_fuzz_{len(_REGISTERED)}")
    state = pyspiel.load_game(_REGISTERED[path], {"players": game.n}).new_initial_state()
    for call in calls:
        if state.is_terminal():
            _refused(state.apply_action, 0, always=True)
            return
        chance = state.is_chance_node()
        legal = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
        if call["odd"]:
            wrong = _pick(ODD_ACTIONS + [max(legal) + 1], call["pick"])
            _refused(state.apply_action, wrong, always=True)
            if type(wrong) is int and abs(wrong) < 2**63:  # pybind11 takes no larger int
                _refused(state.action_to_string, state.current_player(), wrong)
        else:
            state.apply_action(_pick(legal, call["pick"]))


_WRAPPERS = {  # wrapper: (the module it needs, what plays the script through it)
    "state": ("rulespec", _api_state),
    "pettingzoo": ("pettingzoo", _api_pettingzoo),
    "openspiel": ("pyspiel", _api_openspiel),
}
RUNNERS = {"api": run_api}  # the kinds that run something else than main()


def _serve_case(rng: random.Random, seed: int) -> Case:
    import fuzzing_serve

    return fuzzing_serve.build(rng, seed)


BUILDERS = {
    "spec": _spec_case,
    "variant": _variant_case,
    "scenario": _scenario_case,
    "log": _log_case,
    "argv": _argv_case,
    "api": _api_case,
    "serve": _serve_case,
}


def make_case(kind: str, seed: int) -> Case:
    return BUILDERS[kind](random.Random(f"{kind}:{seed}"), seed)


def prepare(case: Case, where: Path) -> list[str]:
    """Write a case's files into `where` (a fresh scratch folder) and return its argv."""
    argv = case.write(where)
    for rel in case.files:  # logs name the scratch folder by a placeholder
        path = where / rel
        if path.suffix == ".jsonl":
            path.write_bytes(path.read_bytes().replace(b"@TMP@", str(where).encode()))
    return argv


def fresh_dir(base: Path, name: str) -> Path:
    where = base / name
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    return where


def repo_snapshot() -> str:
    """A digest of (path, size, mtime) of every file in the checkout outside .git,
    caches and a virtual environment kept in it (.venv: walking its packages took most
    of the fuzz tests' time in a developer's checkout): a case that writes outside its
    scratch folder changes it."""
    import hashlib

    snap = {}
    skipped = (".git", "__pycache__", ".hypothesis", ".pytest_cache", ".venv")
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d not in skipped]
        for name in filenames:
            p = os.path.join(dirpath, name)
            try:
                st = os.stat(p)
            except OSError:
                continue
            snap[p] = (st.st_size, st.st_mtime_ns)
    return hashlib.sha256(repr(sorted(snap.items())).encode()).hexdigest()


# ---------------------------------------------------------------- running one case under guards


class Timeout(BaseException):
    """Raised in the main thread by SIGALRM; a BaseException so no `except Exception` eats it."""


@dataclass
class Outcome:
    code: int | None  # None when main did not return
    error: str | None  # the traceback of an exception that escaped main, or "timeout" and where
    seconds: float
    stdout: str
    stderr: str

    @property
    def failure(self) -> str | None:
        """Why this case fails the fuzz guard ("hang", "memory", "traceback", an exit
        code), or None."""
        if self.error is None:
            return None if self.code in (0, 1, 2) else f"exit code {self.code!r}"
        if self.error.startswith("timeout"):
            return "hang"
        if "MemoryError" in self.error.strip().splitlines()[-1]:
            return "memory"
        return "traceback"


def _address_space() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def run_guarded(
    case: Case, where: Path, seconds: float = 10.0, memory: int = 300 * 2**20
) -> Outcome:
    """Run one case through main() in this process, in `where` as the working folder,
    stopped after `seconds` of CPU time (SIGPROF: what a busy machine cannot stretch)
    or six times that of wall time (SIGALRM: a case blocked on a read uses no CPU),
    with the address space capped (RLIMIT_AS) at its size now plus `memory` bytes, so
    a blow-up is a MemoryError, not a dead machine."""
    import io
    import resource
    import signal
    import time
    import traceback

    argv = prepare(case, where)
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()

    def on_alarm(signum, frame):
        raise Timeout()

    previous = {s: signal.signal(s, on_alarm) for s in (signal.SIGALRM, signal.SIGPROF)}
    limits = resource.getrlimit(resource.RLIMIT_AS)
    cap = _address_space() + memory
    code, error = None, None
    start = time.monotonic()
    try:
        os.chdir(where)
        resource.setrlimit(
            resource.RLIMIT_AS,
            (cap if limits[1] == resource.RLIM_INFINITY else min(cap, limits[1]), limits[1]),
        )
        signal.setitimer(signal.ITIMER_PROF, seconds)
        signal.setitimer(signal.ITIMER_REAL, 6 * seconds)
        try:
            if case.kind == "serve":  # a session of requests, not a command line
                import fuzzing_serve

                code = fuzzing_serve.run(case, where, out)
            else:
                run = RUNNERS.get(case.kind, main)
                code = run(argv, stdout=out, stderr=err, stdin=io.StringIO(case.stdin))
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            resource.setrlimit(resource.RLIMIT_AS, limits)
    except Timeout:
        error = "timeout\n" + traceback.format_exc()
    except BaseException:
        error = traceback.format_exc()
    finally:
        elapsed = time.monotonic() - start
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        os.chdir(cwd)
    return Outcome(code, error, elapsed, out.getvalue(), err.getvalue())
