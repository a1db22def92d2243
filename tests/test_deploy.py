"""The serving setups without starting them: `make serve`'s HAProxy file and the deployment
files in deploy/ (checked with `haproxy -c` and a YAML parser: no container engine here)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from attnviz import serve

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


def haproxy() -> str:
    found = shutil.which("haproxy")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("haproxy is missing: make test installs it (scripts/ensure_haproxy.sh)")
        pytest.skip("haproxy is missing")
    return found


def test_the_generated_configuration_is_sticky_checked_and_valid():
    config = serve.haproxy_config("0.0.0.0", 8501, [8502, 8503])
    assert "bind 0.0.0.0:8501" in config and "option redispatch" in config
    assert "cookie ATTNVIZ_REPLICA insert" in config and "indirect" not in config
    assert "option httpchk GET /_stcore/health" in config and "timeout tunnel 1h" in config
    servers = re.findall(r"server (r\d) 127\.0\.0\.1:(\d+) check .* cookie (r\d)", config)
    assert servers == [("r1", "8502", "r1"), ("r2", "8503", "r2")]
    haproxy()
    run = subprocess.run(
        [sys.executable, "-m", "attnviz.serve", "--replicas", "3", "--port", "18500", "--check"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0 and "Configuration file is valid" in run.stdout + run.stderr


def test_the_compose_file_runs_two_replicas_with_one_secret_behind_haproxy():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"replica1", "replica2", "balancer"}
    secrets = {services[name]["environment"]["STREAMLIT_SERVER_COOKIE_SECRET"]
               for name in ("replica1", "replica2")}  # fmt: skip
    assert secrets == {"${ATTNVIZ_COOKIE_SECRET:?set ATTNVIZ_COOKIE_SECRET}"}  # one, not committed
    names = [services[name]["environment"]["ATTNVIZ_REPLICA"] for name in ("replica1", "replica2")]
    config = (DEPLOY / "haproxy.cfg").read_text()
    cookies = re.findall(r"server (r\d) (replica\d):8501 check .* cookie (r\d)", config)
    assert cookies == [("r1", "replica1", "r1"), ("r2", "replica2", "r2")] and names == ["r1", "r2"]
    assert services["balancer"]["ports"] == ["8501:8501"]
    command = services["replica1"]["command"]
    assert command[:3] == ["streamlit", "run", "dashboard.py"] and "0.0.0.0" in command
    # the same HAProxy settings as make serve
    generated = serve.haproxy_config("*", 8501, [8502, 8503])
    for line in ("option redispatch", "timeout tunnel 1h", "balance leastconn",
                 "option httpchk GET /_stcore/health"):  # fmt: skip
        assert line in config and line in generated


def test_the_deployment_haproxy_file_is_valid():
    run = subprocess.run([haproxy(), "-c", "-f", str(DEPLOY / "haproxy.cfg")],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


def test_no_cookie_secret_is_committed_and_make_run_is_local():
    for path in (ROOT / ".streamlit" / "config.toml", DEPLOY / "compose.yaml"):
        assert not re.search(r"cookieSecret\s*=|COOKIE_SECRET:\s*[0-9a-f]{16}", path.read_text())
    makefile = (ROOT / "Makefile").read_text()
    run = makefile[makefile.index("\nrun:") :].split("\n\n")[0]
    assert "attnviz run --host 127.0.0.1" in run
    assert "--host $(HOST)" in makefile and "HOST ?= 0.0.0.0" in makefile


def test_stopping_serve_while_it_starts_stops_every_replica():
    haproxy()
    command = [sys.executable, "-m", "attnviz.serve", "--replicas", "2", "--host", "127.0.0.1",
               "--port", "18650"]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    pids = []
    for line in server.stdout:
        found = re.match(r"replica r\d pid (\d+)", line)
        if found:
            pids.append(int(found.group(1)))
        if len(pids) == 2:
            break
    server.send_signal(signal.SIGTERM)  # the replicas are still loading
    assert server.wait(timeout=60) == 0 or server.returncode is not None
    for pid in pids:
        assert (
            not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
        )
