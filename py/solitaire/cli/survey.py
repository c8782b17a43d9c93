"""``python -m solitaire survey``: solve a range of deals, one JSON line per deal, on Dask.

The deals are tasks of a Dask cluster (``dask.distributed``, the optional ``survey`` extra):

- with no ``--scheduler``, a ``LocalCluster`` of one single-threaded worker process per core
  (``--jobs``) is started on this machine and closed at the end;
- with ``--scheduler tcp://host:8786``, the deals go to an existing cluster (a ``dask scheduler``
  and any number of ``dask worker`` processes on other machines, each with this package
  installed).

Each result is appended to the output file as it arrives (``--out``, e.g. ``survey/GAME.jsonl``)
and flushed, so an interrupted survey loses nothing it had received; run again, it skips the
deals already in the file. A worker that dies loses only the deals it was solving: the
scheduler gives them to another worker (up to Dask's ``allowed-failures``; a deal that keeps
killing workers is recorded as an error). No deal is written twice in one run.

Budgets are CPU seconds of the solving process by default (``--wall`` for wall-clock
seconds), so a verdict does not depend on how loaded the machine was.

``--jobs 1`` without a scheduler solves in this process, without Dask.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

from ..position import Position
from ..rules import GAMES
from ..solver import UNKNOWN, UNWINNABLE, VERSION, WINNABLE, Result, set_clock, solve
from . import deal_number
from .solve import budget_seconds

Job = tuple[str, int, float, "int | None", bool]

#: Seconds to wait for the scheduler named by --scheduler before giving up (--connect-timeout).
CONNECT_TIMEOUT = 30.0


def solve_deal_record(job: Job) -> dict[str, Any]:
    """Solve one deal and return its survey record (run on a worker: module-level so that Dask
    sends it by name)."""
    game, deal, budget, max_nodes, cpu = job
    # CPU time: a busy machine then takes wall time from a survey, not search from a deal.
    set_clock(time.process_time if cpu else time.perf_counter)
    try:
        result: Result = solve(Position.deal_of(game, deal), budget, max_nodes)
    except Exception as error:  # a solver bug must not stop a long survey; it is recorded
        return {"game": game, "deal": deal, "result": "error", "error": repr(error)}
    finally:
        set_clock(time.perf_counter)
    return {
        "game": game,
        "deal": deal,
        "result": result.result,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
        "moves": None if result.line is None else len(result.line),
        "budget": budget,
        "clock": "cpu" if cpu else "wall",
        "max_nodes": max_nodes,
        "solver": VERSION,
    }


def read_survey(path: str) -> dict[int, dict[str, Any]]:
    """The records of a survey output file by deal; when a deal appears more than once
    (a later pass with a bigger budget), the last record wins. Torn lines are ignored."""
    records: dict[int, dict[str, Any]] = {}
    if not os.path.exists(path):
        return records
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
                records[int(rec["deal"])] = rec
            except (ValueError, KeyError, TypeError):
                continue
    return records


def done_deals(
    path: str,
    retry_unknown: bool = False,
    budget: float | None = None,
    clock: str = "cpu",
    max_nodes: int | None = None,
) -> set[int]:
    """Deals already in a survey output file, which a run skips.

    With ``retry_unknown`` an unknown deal is solved again, unless it was already searched at
    least as hard as this run would: same solver, same clock, a budget no smaller than
    ``budget`` and no tighter node cap. So a bigger-budget pass that is stopped and started
    again resumes where it stopped instead of repeating the deals it left unknown. Errors
    are always retried."""
    return skipped_deals(read_survey(path), retry_unknown, budget, clock, max_nodes)


def skipped_deals(
    records: dict[int, dict[str, Any]],
    retry_unknown: bool,
    budget: float | None,
    clock: str,
    max_nodes: int | None,
) -> set[int]:
    """:func:`done_deals` over records already read."""
    return {
        d
        for d, rec in records.items()
        if not retry_unknown
        or rec.get("result") in (WINNABLE, UNWINNABLE)
        or (rec.get("result") == UNKNOWN and searched_as_hard(rec, budget, clock, max_nodes))
    }


def searched_as_hard(
    rec: dict[str, Any], budget: float | None, clock: str, max_nodes: int | None
) -> bool:
    """Whether an unknown record's search covers what a run with these settings would do: the
    solver's search order is deterministic, so the same solver with no more time (on a machine
    of like speed) or positions gets no further and ends unknown again."""
    if budget is None or rec.get("solver") != VERSION or rec.get("clock") != clock:
        return False
    try:
        if float(rec["budget"]) < budget:
            return False
    except (KeyError, TypeError, ValueError):
        return False
    cap = rec.get("max_nodes")
    return cap is None or (max_nodes is not None and isinstance(cap, int) and cap >= max_nodes)


def end_torn_line(path: str) -> None:
    """A torn last line (an interrupted write) must not glue onto the next record."""
    if os.path.exists(path) and os.path.getsize(path):
        with open(path, "rb") as fb:
            fb.seek(-1, os.SEEK_END)
            torn = fb.read(1) != b"\n"
        if torn:
            with open(path, "a", encoding="utf-8") as f:
                f.write("\n")


def progress_line(done: int, total: int, seconds: float) -> str:
    """``"37/120 deals (30.8 %), 2.1/s, 40 s left"``: the progress bar's text."""
    share = 100.0 * done / total if total else 100.0
    text = f"{done}/{total} deals ({share:.1f} %)"
    if done and seconds > 0:
        rate = done / seconds
        left = (total - done) / rate
        text += f", {rate:.1f}/s, {duration(left)} left"
    return text


def duration(seconds: float) -> str:
    """``"1 h 05 min"``, ``"4 min 10 s"``, ``"12 s"``."""
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    if s >= 60:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s} s"


class Progress:
    """A one-line progress bar on a terminal (nothing when ``stream`` is not a terminal)."""

    def __init__(self, label: str, total: int, stream: TextIO, on: bool) -> None:
        self.label, self.total, self.stream, self.on = label, total, stream, on
        self.done = 0
        self.t0 = time.monotonic()
        self.shown = 0.0

    def step(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.on and (now - self.shown >= 0.5 or self.done == self.total):
            self.shown = now
            text = progress_line(self.done, self.total, now - self.t0)
            self.stream.write(f"\r{self.label}: {text}\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        if self.on and self.shown:
            self.stream.write("\n")


def solve_in_process(jobs: list[Job]) -> Iterator[dict[str, Any]]:
    for job in jobs:
        yield solve_deal_record(job)


def local_cluster(workers: int) -> Any:
    """A ``LocalCluster`` of ``workers`` single-threaded worker processes (the solver is pure
    Python: one process per core) whose scheduler never drops a worker for missing
    heartbeats (``distributed.scheduler.worker-ttl`` off). Why: a survey runs at the lowest
    priority and is paused (SIGSTOP to its workers) while benchmarks run; with the default
    5-minute TTL the scheduler restarts every paused worker, and its restart hangs on a
    stopped process. A worker that dies is still noticed at once (its connection closes).
    Its scheduler's HTTP server (no dashboard is shown) listens on a free port, not the
    default 8787, so that two surveys, or a survey and the tests, run side by side."""
    import dask
    from dask.distributed import LocalCluster

    with dask.config.set({"distributed.scheduler.worker-ttl": None}):
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": ":0"},
        )


def solve_on_dask(
    jobs: list[Job], scheduler: str | None, workers: int, connect_timeout: float = CONNECT_TIMEOUT
) -> Iterator[dict[str, Any]]:
    """The records of ``jobs`` in the order they finish, solved on a Dask cluster (started here
    when ``scheduler`` is None). Raises ImportError when Dask is not installed."""
    from dask.distributed import Client, as_completed

    cluster = None
    if scheduler is None:
        cluster = local_cluster(workers)
        client = Client(cluster)
    else:
        client = Client(scheduler, timeout=connect_timeout)
    try:
        futures = [client.submit(solve_deal_record, job, pure=False) for job in jobs]
        by_key = {f.key: job for f, job in zip(futures, jobs, strict=True)}
        for future in as_completed(futures):
            error = future.exception()
            if error is None:
                record = future.result()
            else:  # e.g. KilledWorker: this deal took down workers more than Dask allows
                game, deal = by_key[future.key][:2]
                record = {"game": game, "deal": deal, "result": "error", "error": repr(error)}
            future.release()
            yield record
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def survey(
    game: str,
    first: int,
    last: int,
    budget: float,
    out: str | None,
    jobs: int | None,
    quiet: bool = False,
    max_nodes: int | None = None,
    retry_unknown: bool = False,
    cpu: bool = True,
    scheduler: str | None = None,
    progress: bool | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
) -> int:
    """Solve deals ``first``..``last`` of ``game``, appending one record per deal to ``out``
    (stdout when None). Returns the exit code."""
    todo = list(range(first, last + 1))
    if out:
        on_file = read_survey(out)
        skip = skipped_deals(on_file, retry_unknown, budget, "cpu" if cpu else "wall", max_nodes)
        if retry_unknown and not quiet:
            kept = sum(1 for d in todo if d in skip and on_file[d].get("result") == UNKNOWN)
            if kept:
                print(
                    f"{kept} unknown deals already searched with this solver and a "
                    f"{budget:g} s budget or more: not solved again",
                    file=sys.stderr,
                )
        todo = [d for d in todo if d not in skip]
        end_torn_line(out)
    work: list[Job] = [(game, d, budget, max_nodes, cpu) for d in todo]
    workers = jobs or os.cpu_count() or 1
    if progress is None:
        progress = not quiet and bool(out) and sys.stderr.isatty()
    bar = Progress(f"{game} {first}-{last}", len(work), sys.stderr, progress)
    counts = {WINNABLE: 0, UNWINNABLE: 0, UNKNOWN: 0, "error": 0}
    written: set[int] = set()
    t0 = time.time()
    sink = open(out, "a", encoding="utf-8") if out else sys.stdout  # noqa: SIM115
    try:
        if scheduler is None and (workers == 1 or len(work) <= 1):
            records = solve_in_process(work)
        else:
            records = solve_on_dask(work, scheduler, workers, connect_timeout)
        for record in records:
            if record["deal"] in written:  # a retried task whose first answer also arrived
                continue
            written.add(record["deal"])
            sink.write(json.dumps(record) + "\n")
            sink.flush()
            counts[record["result"]] += 1
            bar.step()
    except ImportError:
        print(
            "error: a survey on several processes runs on Dask: "
            "pip install -e '.[survey]' (or use --jobs 1)",
            file=sys.stderr,
        )
        return 2
    finally:
        bar.close()
        if out:
            sink.close()
    if not quiet:
        print(
            f"{game} {first}-{last}: {len(written)} solved now in {time.time() - t0:.0f} s: "
            + ", ".join(f"{k} {v}" for k, v in counts.items()),
            file=sys.stderr,
        )
    return 0


def cmd_survey(args: argparse.Namespace) -> int:
    if args.game not in GAMES:
        print(f"error: unknown game {args.game!r}", file=sys.stderr)
        return 2
    if not 1 <= args.first <= args.last:
        print("error: need 1 <= FROM <= TO", file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print("error: --jobs needs at least 1", file=sys.stderr)
        return 2
    try:
        return survey(
            args.game,
            args.first,
            args.last,
            args.budget,
            args.out,
            args.jobs,
            max_nodes=args.max_nodes,
            retry_unknown=args.retry_unknown,
            cpu=not args.wall,
            scheduler=args.scheduler,
            progress=False if args.no_progress else None,
            connect_timeout=args.connect_timeout,
        )
    except OSError as error:  # e.g. no scheduler at the address
        print(f"error: {error}", file=sys.stderr)
        return 2


def add_commands(sub: Any) -> None:
    s = sub.add_parser(
        "survey",
        help="solve a range of deals on a Dask cluster, one JSON line per deal (resumable)",
        description=(
            "Without --scheduler, a local Dask cluster of --jobs processes is started; with it, "
            "the deals go to that cluster. Budgets are CPU seconds unless --wall."
        ),
    )
    s.add_argument("game", metavar="GAME")
    s.add_argument("first", type=deal_number, metavar="FROM")
    s.add_argument("last", type=deal_number, metavar="TO")
    s.add_argument("--budget", type=budget_seconds, default=10.0, metavar="SECONDS")
    s.add_argument("--out", metavar="FILE", help="append JSON lines here; deals in it are skipped")
    s.add_argument(
        "--max-nodes",
        type=int,
        default=None,
        metavar="N",
        help="also stop each deal after N positions",
    )
    s.add_argument(
        "--retry-unknown",
        action="store_true",
        help=(
            "solve again the deals recorded as unknown, except those already searched with "
            "this solver, clock and at least this budget (so a stopped pass resumes)"
        ),
    )
    s.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes of the local cluster (default: cores; 1: no Dask)",
    )
    s.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="an existing Dask scheduler, e.g. tcp://10.0.0.5:8786",
    )
    s.add_argument(
        "--connect-timeout",
        type=budget_seconds,
        default=CONNECT_TIMEOUT,
        metavar="SECONDS",
        help=f"give up when the scheduler does not answer (default {CONNECT_TIMEOUT:g})",
    )
    clock = s.add_mutually_exclusive_group()
    clock.add_argument(
        "--cpu",
        action="store_true",
        help="count --budget in CPU seconds of the solving process (the default)",
    )
    clock.add_argument(
        "--wall",
        action="store_true",
        help="count --budget in wall-clock seconds",
    )
    s.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    s.set_defaults(run=cmd_survey)


def _register() -> None:
    from .. import cli

    if add_commands not in cli.EXTRA_COMMANDS:
        cli.EXTRA_COMMANDS.append(add_commands)


_register()
