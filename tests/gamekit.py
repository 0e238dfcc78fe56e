"""Shared helpers for tests: compiled game definitions are cached per (game, player count)."""

import signal
import subprocess
from functools import cache
from io import StringIO
from pathlib import Path

import pytest
import yaml

from rulespec import SpecError, load_spec
from rulespec.cli import main
from rulespec.interpreter import Game

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


# libyaml's safe loader and dumper where PyYAML has them, for YAML a test only carries data
# in (a base spec to merge into, a file checked against a schema as an editor would): the
# pure-Python ones take a tenth of a second for a whole spec
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
YAML_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@cache
def game_for(name: str, players: int) -> Game:
    return Game(load_spec(GAMES / f"{name}.yaml"), players)


def edited(text: str, *pairs) -> str:
    """text with each (old, new) replaced; each old occurs once."""
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def spec_errors(text: str, name: str = "spec.yaml") -> list[tuple[str, str]]:
    """(code, message) of each problem a spec that must be refused has."""
    with pytest.raises(SpecError) as exc:
        load_spec(name, text)
    return [(d.code, d.message) for d in exc.value.diagnostics]


def zone(state, label: str) -> list[str]:
    """A zone's cards by type name, as an omniscient spectator sees them."""
    return state.observation(None)["zones"][label]


def counter(state, name: str) -> int:
    return state.observation(None)["counters"][name]


def settled(state):
    """The state once its pending shuffles are sampled from its own seed."""
    while state.chance_is_sampled():
        state.sample_chance()
    return state


def cli(*argv) -> tuple[int, str, str]:
    """Run the CLI as a function: (exit code, standard output, standard error)."""
    out, err = StringIO(), StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def foreground() -> None:
    """A subprocess's preexec_fn: the child takes Ctrl-C as a terminal's foreground job
    does, even when the test run itself was started in the background (a shell without
    job control starts background jobs with SIGINT ignored, and children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def bash_completes(cwd: Path, line: str) -> set[str]:
    """What bash offers at the end of `line`, with cwd/completion.bash (`rulespec
    completion bash`) sourced: the words of COMPREPLY."""
    done = subprocess.run(
        [
            "bash",
            "-c",
            f"source completion.bash; COMP_LINE='{line}'; "
            "COMP_WORDS=($COMP_LINE); [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=(''); "
            "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_POINT=${#COMP_LINE}; "
            "_shtab_rulespec; printf '%s\\n' \"${COMPREPLY[@]}\"",
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    return set(done.stdout.split())


def only_bound_notes(findings) -> bool:
    """Lint's findings (JSON) hold nothing but, where exploration met its depth, state or
    time bound, the note that says so (RL203)."""
    return all(
        f["code"] == "RL203" and f["severity"] == "info" and "stopped at its bounds" in f["message"]
        for f in findings
    )


# a game whose first option's rule fails (a counter past ±10^18, RS701) at 16:18
BOOM = """\
rulespec: 1
name: Boom
players: {min: 2, max: 2}
hand: hand
deck:
  cards: {stone: {count: 4}}
zones:
  pile: {visibility: hidden, start: true}
  hand: {per_player: true, visibility: owner}
counters:
  score: {initial: 0}
turn:
  - step: act
    effect: |
      choose(current) {
        "boom" { score += 900000000000000000 * 2 }
        "fine" { move(top(pile, 1), hand(current)) }
      }
end_conditions:
  out:
    when: size(pile) == 0
    effect: end_game()
"""
