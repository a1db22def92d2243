"""The `attnviz` command: the app for one person, the app for a class, the NLI trainer.

    attnviz run [--host 127.0.0.1] [--port 8501]      the app on this machine (`make run`)
    attnviz serve [--replicas N] [--host] [--port]   the app for a class (attnviz.serve)
    attnviz train-nli [--data ...] [--out ...]       train the NLI classifier (attnviz.nli.cli)

`run` and `serve` start Streamlit with every setting of the app's `.streamlit/config.toml`
given as flags (`attnviz.serve.streamlit_command`), so they hold in whatever folder the
command is started from.
"""

from __future__ import annotations

import argparse
import os
import sys

COMMANDS = {
    "run": "the app on this machine only (127.0.0.1 unless --host)",
    "serve": "the app for a class: every interface, one process or replicas behind HAProxy",
    "train-nli": "train the NLI classifier and write a checkpoint",
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="attnviz", description="attnviz, an interactive attention explorer."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = commands.add_parser("run", help=COMMANDS["run"], description=COMMANDS["run"])
    run.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    run.add_argument("--port", type=int, default=8501, help="port (default 8501)")
    # The other two parse their own arguments: `attnviz serve --help` is attnviz.serve's help.
    for name in ("serve", "train-nli"):
        commands.add_parser(name, help=COMMANDS[name], add_help=False)
    return parser


def run(host: str, port: int) -> int:
    """Replace this process with Streamlit serving the app (Ctrl-C and signals reach it)."""
    from attnviz.serve import app_environment, streamlit_command, where

    command = streamlit_command(host, port, headless=False)
    print(f"attnviz: serving on {where(host, port)}", flush=True)
    os.execve(command[0], command, app_environment())
    return 0  # not reached


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args, rest = _parser().parse_known_args(argv)
    if args.command == "serve":
        from attnviz import serve

        return serve.main(rest)
    if args.command == "train-nli":
        from attnviz.nli import cli as nli_cli

        return nli_cli.main(rest)
    if rest:
        _parser().error(f"unrecognized arguments: {' '.join(rest)}")
    return run(args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
