"""``survey`` on a real Dask cluster: a ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1, started as separate processes the way they run on separate machines; one worker is
killed in the middle of the run, and every deal must still be recorded exactly once."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the survey extra (dask.distributed) is not installed")

from solitaire.cli.survey import duration, progress_line

ROOT = Path(__file__).resolve().parent.parent
DEALS = 80


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(*args: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "dask", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: killed whole, like a lost machine
    )


def wait_for_port(port: int, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listens on port {port}")


def survey_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "solitaire", "survey", "russian", *args]


def lines(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_survey_on_a_cluster_survives_a_dead_worker(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py"), "PYTHONDONTWRITEBYTECODE": "1"}
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    worker = ("worker", address, "--nworkers", "1", "--nthreads", "1", "--no-nanny")
    scheduler = start(
        "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard", env=env
    )
    workers: list[subprocess.Popen[bytes]] = []
    try:
        wait_for_port(port, 30)
        workers = [start(*worker, env=env), start(*worker, env=env)]
        out = tmp_path / "russian.jsonl"
        run = subprocess.Popen(
            survey_command(
                "1", str(DEALS), "--budget", "0.1", "--scheduler", address, "--out", str(out)
            ),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        # kill one worker (its whole process group) once the survey is well under way
        end = time.monotonic() + 60
        while len(lines(out)) < DEALS // 4 and run.poll() is None and time.monotonic() < end:
            time.sleep(0.05)
        assert run.poll() is None, "the survey ended before a worker could be killed"
        os.killpg(workers[0].pid, signal.SIGKILL)
        workers[0].wait(10)
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err.decode()
        records = lines(out)
        times = Counter(int(str(r["deal"])) for r in records)
        assert set(times) == set(range(1, DEALS + 1))
        assert max(times.values()) == 1, "a deal was written twice"
        assert all(r["result"] in ("winnable", "unwinnable", "unknown") for r in records)
        assert all(r["clock"] == "cpu" for r in records)  # CPU-second budgets by default
        # resumable: a second run against the cluster has nothing left to do
        again = subprocess.run(
            survey_command("1", str(DEALS), "--scheduler", address, "--out", str(out)),
            env=env,
            capture_output=True,
            timeout=60,
        )
        assert again.returncode == 0, again.stderr.decode()
        assert len(lines(out)) == DEALS
    finally:
        for proc in (*workers, scheduler):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)


def test_survey_without_a_scheduler_says_so() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    nobody = f"tcp://127.0.0.1:{free_port()}"
    done = subprocess.run(
        survey_command("1", "2", "--scheduler", nobody, "--connect-timeout", "2"),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error:")
    assert "Traceback" not in done.stderr


def test_progress_text() -> None:
    assert progress_line(0, 120, 0.0) == "0/120 deals (0.0 %)"
    assert progress_line(30, 120, 15.0) == "30/120 deals (25.0 %), 2.0/s, 45 s left"
    assert duration(250) == "4 min 10 s"
    assert duration(3900) == "1 h 05 min"


def test_a_paused_local_worker_is_kept() -> None:
    """The survey's own cluster keeps a worker that is paused (SIGSTOP, as while benchmarks
    run) for longer than the scheduler's heartbeat TTL, and the worker solves on when it is
    resumed. The TTL is set to 1 s here (the scheduler then drops a silent worker after
    about 5 s, ten heartbeats); ``local_cluster`` must switch it off."""
    import dask
    from dask.distributed import Client

    from solitaire.cli.survey import local_cluster

    with dask.config.set({"distributed.scheduler.worker-ttl": "1s"}):
        cluster = local_cluster(1)
    try:
        with Client(cluster) as client:
            (address,) = client.scheduler_info()["workers"]
            pid = client.run(os.getpid)[address]
            os.kill(pid, signal.SIGSTOP)
            try:
                time.sleep(8)
            finally:
                os.kill(pid, signal.SIGCONT)
            assert client.submit(os.getpid, pure=False).result(timeout=30) == pid
            assert set(client.scheduler_info()["workers"]) == {address}
    finally:
        cluster.close()


def test_a_local_cluster_starts_while_port_8787_is_taken() -> None:
    """Two surveys (or a survey and this suite) run side by side: the survey's own cluster
    does not take the default dashboard port, which would warn, here an error, once it is
    in use (here it is taken on purpose, unless something else already holds it)."""
    from dask.distributed import Client

    from solitaire.cli.survey import local_cluster

    with socket.socket() as holder:
        with contextlib.suppress(OSError):
            holder.bind(("127.0.0.1", 8787))
            holder.listen()
        cluster = local_cluster(1)
        try:
            with Client(cluster) as client:
                assert client.submit(abs, -3, pure=False).result(timeout=30) == 3
        finally:
            cluster.close()
