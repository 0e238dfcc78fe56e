"""Shell completion scripts, written by shtab from the argument parser itself, so they
never fall behind the commands: subcommands, options, and where a command takes a
SPEC, spec files (*.yaml) and the bundled games' names."""

from __future__ import annotations

from .table import bundled

SHELLS = ("bash", "zsh", "fish")

# what an argument completes to, per shell: the name of a preamble function below
SPEC = {"bash": "_rulespec_specs", "zsh": "_rulespec_specs", "fish": "(__rulespec_specs)"}
FILE = {
    "bash": "_shtab_compgen_files",
    "zsh": "_files",
    "fish": "(__fish_complete_path (commandline -ct))",
}
DIR = {"bash": "_shtab_compgen_dirs", "zsh": "_files -/", "fish": "(__fish_complete_directories)"}

_PREAMBLE = {
    "bash": """
_rulespec_specs() {{
  compgen -W "{names}" -- "$1"
  compgen -d -S / -- "$1"
  compgen -f -X '!*.yaml' -- "$1"
  return 0
}}
""",
    "zsh": """
_rulespec_specs() {{
  _alternative 'games:bundled game:({names})' 'files:spec file:_files -g "*.yaml"'
}}
""",
    "fish": """
function __rulespec_specs
  printf '%s\\n' {names}
  __fish_complete_suffix .yaml
end
""",
}


def script(parser, shell: str) -> str:
    import shtab  # a dependency (small, pure Python) only this command loads

    names = " ".join(row["name"] for row in bundled.listing())
    return shtab.complete(parser, shell, preamble=_PREAMBLE[shell].format(names=names))
