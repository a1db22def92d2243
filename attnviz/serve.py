"""Serve attnviz for a class: one app process, or N replicas behind HAProxy.

    attnviz serve [--replicas N] [--host 0.0.0.0] [--port 8501]

`make serve REPLICAS=N PORT=...` runs this (so does `python -m attnviz.serve`). It binds every
interface by default (a class on one network reaches it; `attnviz run` and `make run` stay on
127.0.0.1 for a personal copy) and says so.

With N > 1 the replicas listen on 127.0.0.1, ports port + 1 .. port + N, and HAProxy (Debian's
`haproxy` package) listens on host:port in front of them:
- cookie stickiness (ATTNVIZ_REPLICA): a session's websocket, its media (downloads) and its
  uploads all reach the replica that holds the session;
- health checks on /_stcore/health; a replica that dies is taken out, and its users' browsers
  reconnect to another (`option redispatch`), where the page restores their settings from the
  URL and says what was lost (attnviz.app.page.failover_notice);
- one `server.cookieSecret` for every replica, generated for this run and handed over in the
  environment: it is never written to a file or a command line.

The generated HAProxy configuration lives in a temporary folder for the run; `--check` writes
it and runs `haproxy -c` on it instead of serving. The process prints one line per replica
(`replica r1 pid 1234 port 8502`) and stops them all on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.request
from pathlib import Path

from attnviz.paths import APP_ROOT, DASHBOARD, STREAMLIT_CONFIG

OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
COOKIE = "ATTNVIZ_REPLICA"  # HAProxy's stickiness cookie; its value names the replica
REPLICA_ENV = "ATTNVIZ_REPLICA"  # each replica's own name, for the failover notice
HAPROXY = os.environ.get("ATTNVIZ_HAPROXY", "haproxy")
CONFIG = """\
global
    maxconn 4000

defaults
    mode http
    option http-server-close
    option redispatch
    retries 2
    timeout connect 5s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    timeout http-request 30s

frontend attnviz
    bind {host}:{port}
    default_backend replicas

backend replicas
    balance leastconn
    cookie {cookie} insert nocache httponly attr "SameSite=Lax"
    option httpchk GET /_stcore/health
    http-check expect status 200
{servers}
"""


def haproxy_config(host: str, port: int, replica_ports: list[int]) -> str:
    """HAProxy's configuration for replicas on 127.0.0.1 at `replica_ports`."""
    servers = "\n".join(
        f"    server r{i} 127.0.0.1:{p} check inter 1s fall 2 rise 2 cookie r{i}"
        for i, p in enumerate(replica_ports, start=1)
    )
    return CONFIG.format(host=host, port=port, cookie=COOKIE, servers=servers)


def config_flags(config: Path = STREAMLIT_CONFIG) -> dict[str, str]:
    """The app's `.streamlit/config.toml` as `streamlit run` flags: Streamlit reads that file
    only from the folder it is started in, and an installed attnviz starts anywhere. A list of
    tables (`[[theme.fontFaces]]`) becomes JSON, which Streamlit reads from a flag."""
    flags: dict[str, str] = {}
    for section, options in tomllib.loads(config.read_text(encoding="utf-8")).items():
        for option, value in options.items():
            if isinstance(value, bool):
                text = str(value).lower()
            elif isinstance(value, list):
                text = json.dumps(value)
            else:
                text = str(value)
            flags[f"--{section}.{option}"] = text
    return flags


def streamlit_command(host: str, port: int, *, headless: bool = True) -> list[str]:
    """`streamlit run` of the app with every setting of its config file, on host:port."""
    flags = config_flags() | {"--server.address": host, "--server.port": str(port)}
    if headless:
        flags["--server.headless"] = "true"
    return [sys.executable, "-m", "streamlit", "run", str(DASHBOARD),
            *(part for flag in flags.items() for part in flag)]  # fmt: skip


def app_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment for the app: the model is read from disk, never fetched, and
    OpenMP's threads start at one (torch's intra-op threads: attnviz.app.loading)."""
    return {"OMP_NUM_THREADS": "1"} | os.environ | OFFLINE | (extra or {})


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def wait_healthy(url: str, process: subprocess.Popen[bytes], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not healthy(url):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not become healthy")
        time.sleep(0.1)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="attnviz serve", description="Serve attnviz for a class.")
    parser.add_argument("--replicas", type=int, default=1, help="app processes (HAProxy if > 1)")
    parser.add_argument("--host", default="0.0.0.0", help="interface to bind (0.0.0.0: all)")
    parser.add_argument("--port", type=int, default=8501)
    parser.add_argument("--check", action="store_true", help="write the HAProxy file, haproxy -c")
    args = parser.parse_args(argv)
    if args.replicas < 1:
        parser.error("--replicas must be at least 1")
    return args


def where(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::"):
        return f"every interface, port {port} (http://<this machine's address>:{port})"
    return f"http://{host}:{port}"


def serve(args: argparse.Namespace) -> int:
    """Start the replicas (and HAProxy), print where, wait until stopped or one of them ends."""
    env = app_environment({"STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32)})
    if args.replicas == 1 and not args.check:
        print(f"attnviz: serving on {where(args.host, args.port)}", flush=True)
        return subprocess.call(streamlit_command(args.host, args.port), cwd=APP_ROOT, env=env)
    if shutil.which(HAPROXY) is None:
        print("error: haproxy is missing: apt-get install haproxy", file=sys.stderr)
        return 2
    ports = [args.port + i for i in range(1, args.replicas + 1)]
    signal.signal(signal.SIGTERM, _interrupt)  # stopped while starting: still stop every child
    with tempfile.TemporaryDirectory(prefix="attnviz-serve-") as folder:
        config = Path(folder) / "haproxy.cfg"
        config.write_text(haproxy_config(args.host, args.port, ports))
        if args.check:
            return subprocess.call([HAPROXY, "-c", "-f", str(config)])
        processes: list[subprocess.Popen[bytes]] = []
        try:
            for i, port in enumerate(ports, start=1):
                replica = env | {REPLICA_ENV: f"r{i}"}
                process = subprocess.Popen(streamlit_command("127.0.0.1", port), cwd=APP_ROOT,
                                           env=replica)  # fmt: skip
                processes.append(process)
                print(f"replica r{i} pid {process.pid} port {port}", flush=True)
            for port, process in zip(ports, processes, strict=True):
                wait_healthy(f"http://127.0.0.1:{port}", process)
            balancer = subprocess.Popen([HAPROXY, "-db", "-f", str(config)])
            processes.append(balancer)
            local = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
            wait_healthy(f"http://{local}:{args.port}", balancer, timeout=30)  # checks passed
            print(f"attnviz: {args.replicas} replicas behind HAProxy on "
                  f"{where(args.host, args.port)}", flush=True)  # fmt: skip
            return _wait(balancer)
        finally:
            for process in processes:
                if process.poll() is None:
                    process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _wait(balancer: subprocess.Popen[bytes]) -> int:
    """Until SIGTERM / Ctrl-C or HAProxy ends (a replica that dies is HAProxy's to route around)."""
    try:
        while balancer.poll() is None:
            time.sleep(0.2)
    except KeyboardInterrupt:
        return 0
    return int(balancer.returncode or 0)


def main(argv: list[str] | None = None) -> int:
    return serve(_arguments(argv))


if __name__ == "__main__":
    sys.exit(main())
