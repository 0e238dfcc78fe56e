"""A fuzz campaign over the CLI (issue 12), the library API and `rulespec serve` over HTTP
(issue 24): the generators of tests/fuzzing.py for N minutes, each case run through main()
(an API case through fuzzing.run_api, a serve case as a session of requests to a server on
127.0.0.1) in a worker process with its address space capped (RLIMIT_AS: its size when the
case starts plus 1 GB), so a blow-up is a MemoryError or a dead worker, never a dead
machine. A case still running after --hang seconds is a hang: the
worker is killed and replaced.

    python benchmarks/fuzz.py --minutes 30 --seed 1 --out /tmp/fuzz-out

Prints the cases tried, tracebacks, hangs, memory blow-ups and the exit-code
distribution; writes each failure class's smallest case (files, argv, traceback) under
--out. Exit status 1 when anything failed.
"""

import argparse
import collections
import contextlib
import json
import multiprocessing as mp
import os
import re
import resource
import shutil
import sys
import tempfile
import time
from multiprocessing.connection import wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import fuzzing

GIB = 2**30


def _worker(conn, scratch: str, hang: float) -> None:
    base = Path(scratch)
    while True:
        job = conn.recv()
        if job is None:
            return
        kind, seed = job
        case = fuzzing.make_case(kind, seed)
        where = fuzzing.fresh_dir(base, "case")
        outcome = fuzzing.run_guarded(case, where, hang, GIB)
        conn.send(
            (
                outcome.code,
                outcome.failure,
                # an exit code outside 0, 1, 2 comes with what the command printed
                outcome.error or outcome.stderr[-2000:],
                outcome.seconds,
                resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            )
        )


class Worker:
    def __init__(self, ctx, scratch: Path, hang: float):
        self.conn, child = ctx.Pipe()
        self.scratch = Path(tempfile.mkdtemp(dir=scratch))
        self.proc = ctx.Process(target=_worker, args=(child, str(self.scratch), hang), daemon=True)
        self.proc.start()
        self.job, self.started = None, 0.0

    def give(self, job) -> None:
        self.job, self.started = job, time.monotonic()
        self.conn.send(job)

    def stop(self, kill=False) -> None:
        if kill:
            self.proc.kill()
        else:
            with contextlib.suppress(OSError):
                self.conn.send(None)
        self.proc.join(5)
        shutil.rmtree(self.scratch, ignore_errors=True)


def signature(error: str) -> str:
    """A failure class: the exception's type and the innermost project frame."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', error)
    ours = [f for f in frames if "/rulespec/" in f[0] or "/interpreter/" in f[0]] or frames
    last = error.strip().splitlines()[-1] if error.strip() else "?"
    kind = last.split(":", 1)[0]
    if ours:
        path, line, func = ours[-1]
        where = re.sub(r".*/(rulespec|interpreter)/", r"\1/", path)
        return f"{kind} at {where}:{line} in {func}"
    return kind


def save(out: Path, name: str, case, error: str) -> Path:
    folder = out / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    case.write(folder / "files")
    (folder / "case.txt").write_text(case.describe(limit=10**9) + "\n", encoding="utf-8")
    (folder / "argv.json").write_text(json.dumps(case.argv) + "\n")
    (folder / "traceback.txt").write_text(error + "\n", encoding="utf-8")
    return folder


def campaign(minutes: float, seed: int, out: Path, workers: int, hang: float) -> int:
    run = _Campaign(seed, workers, hang)
    deadline = time.monotonic() + minutes * 60
    while time.monotonic() < deadline or any(w.job for w in run.pool):
        run.hand_out(deadline)
        busy = [w for w in run.pool if w.job]
        if not busy:
            break
        ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout=1.0)
        for i, w in enumerate(run.pool):
            if w.job is not None:
                run.collect(i, w, ready)
    run.close()
    return run.report(minutes, out)


class _Campaign:
    """The workers, the cases handed out and what came back."""

    def __init__(self, seed: int, workers: int, hang: float):
        self.ctx = mp.get_context("fork")
        self.scratch = Path(tempfile.mkdtemp(prefix="rulespec-fuzz-"))
        self.seed, self.workers, self.hang = seed, workers, hang
        self.pool = [Worker(self.ctx, self.scratch, hang) for _ in range(workers)]
        self.counter = 0
        self.tried, self.codes = collections.Counter(), collections.Counter()
        self.failures = collections.Counter()  # traceback / hang / memory
        self.classes: dict[str, list] = {}  # signature -> [count, smallest case, error, size]
        self.slowest = (0.0, None)

    def hand_out(self, deadline: float) -> None:
        """A new case to each idle worker, the kinds in turn, until the deadline."""
        for w in self.pool:
            if w.job is None and time.monotonic() < deadline:
                kinds = fuzzing.KINDS
                kind = kinds[self.counter % len(kinds)]
                w.give((kind, self.seed * 10**9 + self.counter // len(kinds)))
                self.counter += 1

    def collect(self, i: int, w: Worker, ready) -> None:
        """Worker i's outcome, if it has one: an answer, its death, or a hang."""
        job = w.job
        if w.conn in ready:
            self._answer(i, w)
        elif w.proc.sentinel in ready or not w.proc.is_alive():
            self.tried[job[0]] += 1
            self.record(job, "memory", "worker died (killed or out of memory)")
            self.replace(i)
        elif time.monotonic() - w.started > self.hang + 15:  # stuck where SIGALRM cannot reach
            self.tried[job[0]] += 1
            self.record(job, "hang", "")
            self.replace(i)

    def _answer(self, i: int, w: Worker) -> None:
        job = w.job
        try:
            code, failure, error, seconds, rss = w.conn.recv()
        except EOFError:
            code, failure, error, seconds, rss = None, "died", None, 0.0, 0
        self.tried[job[0]] += 1
        w.job = None
        if seconds > self.slowest[0]:
            self.slowest = (seconds, job)
        if failure == "died":
            self.record(job, "memory", "worker died (killed or out of memory)")
            self.replace(i)
        elif failure in ("hang", "memory", "traceback"):
            self.record(job, failure, error)
        else:
            self.codes[code] += 1
            if failure:  # an exit code outside 0, 1, 2: with what the command printed
                self.record(job, "traceback", f"{failure}\n{error}")
        if rss > 2 * GIB:  # the cap was not enough to stop it: start afresh
            self.replace(i)

    def replace(self, i: int) -> None:
        self.pool[i].stop(kill=True)
        self.pool[i] = Worker(self.ctx, self.scratch, self.hang)

    def record(self, kind_seed, what, error) -> None:
        """A failure, under its class; the class keeps its smallest case."""
        self.failures[what] += 1
        sig = (
            f"{what}: {signature(error)}"
            if what != "hang"
            else f"hang: {signature(error) if error else 'in C code'}"
        )
        case = fuzzing.make_case(*kind_seed)
        size = sum(len(d) for d in case.files.values()) + len(" ".join(case.argv))
        entry = self.classes.setdefault(sig, [0, None, None, None])
        entry[0] += 1
        if entry[1] is None or size < entry[3]:
            entry[1:] = [case, error, size]

    def close(self) -> None:
        for w in self.pool:
            w.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def report(self, minutes: float, out: Path) -> int:
        """Prints the tallies and saves each failure class's smallest case; 1 if any."""
        tried, failures, hang = self.tried, self.failures, self.hang
        total = sum(tried.values())
        print(f"fuzz campaign: {minutes:g} minutes, seed {self.seed}, {self.workers} workers")
        print(f"cases tried: {total} ({', '.join(f'{k} {tried[k]}' for k in fuzzing.KINDS)})")
        print(f"tracebacks: {failures['traceback']}")
        print(f"hangs (> {hang:g} s): {failures['hang']}")
        print(f"memory blow-ups (> 1 GB): {failures['memory']}")
        print(
            "exit codes: "
            + ", ".join(f"{c}: {n}" for c, n in sorted(self.codes.items(), key=lambda x: str(x[0])))
        )
        seconds, job = self.slowest
        if job:
            print(f"slowest case: {seconds:.1f} s ({job[0]} seed {job[1]})")
        if self.classes:
            out.mkdir(parents=True, exist_ok=True)
            print(f"\n{len(self.classes)} failure classes (smallest case of each under {out}):")
            for k, (sig, (count, case, error, _)) in enumerate(
                sorted(self.classes.items(), key=lambda x: -x[1][0])
            ):
                folder = save(out, f"{k:02d}", case, error or "hang")
                print(f"  {count:5d}  {sig}\n         {case.kind} seed {case.seed}: {folder}")
        return 1 if self.classes else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "rulespec-fuzz-out")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument(
        "--hang", type=float, default=30.0, help="seconds before a case counts as a hang"
    )
    args = ap.parse_args(argv)
    if args.minutes <= 0 or args.workers < 1 or args.hang <= 0:
        ap.error("--minutes, --workers and --hang must be positive")
    return campaign(args.minutes, args.seed, args.out, args.workers, args.hang)


if __name__ == "__main__":
    sys.exit(main())
