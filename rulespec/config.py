"""Project settings: `[tool.rulespec]` in pyproject.toml, or a rulespec.toml, found by
walking up from the current folder as ruff finds its own. Flags on the command line
win over the file; a bad key or value is a ConfigError with the file and line."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

SEVERITIES = ("info", "warning", "error")
_CODE = re.compile(r"R[LS]\d{3}")
# simulate.games, as the --games flags allow: games are tallied as they end, so memory
# sets no bound; this one only keeps the count sane (ten years of a core's games)
MAX_GAMES = 10**12
MAX_STATES = 80_000  # explore.max-states, as lint --max-states: 10 to 100 kB a state
CODE_PREFIX = re.compile(r"R([LS]\d{0,3})?")


class ConfigError(Exception):
    def __init__(self, file: str, line: int | None, message: str):
        self.file, self.line, self.message = file, line, message
        super().__init__(f"{file}{f':{line}' if line else ''}: {message}")


@dataclass(frozen=True)
class Config:
    """What the file sets; None (or empty) where it is silent."""

    file: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    severity: dict[str, str] = field(default_factory=dict)
    fail_on: str | None = None
    depth: int | None = None
    max_states: int | None = None
    games: int | None = None


def find(start: Path) -> Path | None:
    """The nearest rulespec.toml, or pyproject.toml with a [tool.rulespec] table, in
    start or a folder above it; a rulespec.toml wins in the same folder, as ruff.toml does."""
    for folder in (start, *start.parents):
        own = folder / "rulespec.toml"
        if own.is_file():
            return own
        project = folder / "pyproject.toml"
        if project.is_file() and re.search(r"^\s*\[\s*tool\.rulespec\b", _text(project), re.M):
            return project
    return None


def load(start: Path | None = None) -> Config:
    path = find(start or Path.cwd())
    if path is None:
        return Config()
    if sys.version_info >= (3, 11):  # imported here: most commands read no settings
        import tomllib
    else:  # pragma: no cover - the tomli backport, a dependency on 3.10 only
        import tomli as tomllib

    text = _text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise ConfigError(
            str(path), int(line.group(1)) if line else None, f"not TOML: {exc}"
        ) from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise ConfigError(
            str(path), None, "arrays or tables are nested too deep to read (a setting nests none)"
        ) from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("rulespec", {})
    return _read(data, _Place(str(path), text.splitlines()))


# key: (table, its keys) — every key the file may hold
_KEYS = {
    "lint": {"select", "ignore", "severity", "fail-on"},
    "explore": {"depth", "max-states"},
    "simulate": {"games"},
}


@dataclass
class _Place:
    """Where a key is written, for the message: the first line that sets it."""

    file: str
    lines: list[str]

    def fail(self, key: str, message: str):
        pattern = re.compile(rf'(^|[\s{{,.\[])"?{re.escape(key)}"?\s*[=\].]')
        line = next((i + 1 for i, text in enumerate(self.lines) if pattern.search(text)), None)
        raise ConfigError(self.file, line, message)


def _read(data: dict, place: _Place) -> Config:
    for table, value in data.items():
        if table not in _KEYS:
            place.fail(table, f"unknown setting '{table}' (settings: {', '.join(_KEYS)})")
        if not isinstance(value, dict):
            place.fail(table, f"'{table}' must be a table ([{table}])")
        for key in value:
            if key not in _KEYS[table]:
                place.fail(
                    key,
                    f"unknown setting '{table}.{key}' "
                    f"(settings: {', '.join(sorted(_KEYS[table]))})",
                )
    lint, explore, sim = (data.get(t, {}) for t in ("lint", "explore", "simulate"))
    return Config(
        file=place.file,
        select=_codes(lint, "select", place),
        ignore=_codes(lint, "ignore", place),
        severity=_severities(lint.get("severity", {}), place),
        fail_on=_severity(lint.get("fail-on"), "fail-on", place),
        depth=_whole(explore, "depth", place),
        max_states=_whole(explore, "max-states", place, MAX_STATES),
        games=_whole(sim, "games", place, MAX_GAMES),
    )


def _codes(table, key, place) -> tuple[str, ...] | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(c, str) and CODE_PREFIX.fullmatch(c) for c in value
    ):
        place.fail(
            key, f'\'lint.{key}\' must be a list of codes or prefixes, such as ["RL1", "RS205"]'
        )
    return tuple(value)


def _severities(value, place) -> dict[str, str]:
    if not isinstance(value, dict):
        place.fail(
            "severity", "'lint.severity' must be a table of codes, such as {RL109 = \"error\"}"
        )
    for code, severity in value.items():
        if not _CODE.fullmatch(code):
            place.fail(code, f"'lint.severity': '{code}' is not a code such as RL109")
        _severity(severity, code, place)
    return dict(value)


def _severity(value, key, place) -> str | None:
    if value is not None and value not in SEVERITIES:
        place.fail(key, f"'{key}' must be one of {', '.join(SEVERITIES)}, not {value!r}")
    return value


def _whole(table, key, place, high=None) -> int | None:
    value = table.get(key)
    if value is not None and (type(value) is not int or value < 1 or (high and value > high)):
        place.fail(
            key,
            f"'{key}' must be a whole number from 1{f' to {high:,}' if high else ''}, "
            f"not {value!r}",
        )
    return value


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeError) as exc:
        raise ConfigError(str(path), None, f"cannot read it ({exc})") from None
