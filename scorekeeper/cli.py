"""The ``scorekeeper`` command: rescore a match file, serve the app, list its matches, back it up,
build the app a phone keeps to score with no network."""
from __future__ import annotations

import argparse
import io
import json
import os
import socket
import sys

import segno

from .engine import MatchError
from .matchfile import rescore


def cmd_rescore(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as handle:
                text = handle.read()
    except OSError as error:
        print(f"{args.file}: cannot read: {error.strerror}", file=sys.stderr)
        return 2
    try:
        result = rescore(text)
    except MatchError as error:
        for line in error.problems:
            # a player's name may hold a line break; each problem stays on its own line
            print("\\n".join(line.splitlines()), file=sys.stderr)
        return 2
    out = json.dumps(result.as_json(), indent=2, ensure_ascii=False) + "\n"
    # A lone surrogate (JSON "\ud800") has no UTF-8: it goes out as that same JSON escape.
    sys.stdout.buffer.write(out.encode("utf-8", "backslashreplace"))
    return 0


def lan_address() -> str | None:
    """This machine's address on the local network, so phones on the same Wi-Fi
    can connect. A UDP "connect" sends nothing; it only picks the outgoing route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def terminal_qr(url: str) -> str:
    """The address as a QR code drawn with half-block characters, so a phone joins by scanning it.
    Light modules are the printed blocks: that reads right on the usual dark terminal background."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue().rstrip("\n")


WORKERS_NEED_SHARED_LIMITS = (
    "--workers {workers}: the rate limits must be shared between the processes, but they are kept in "
    "each process's memory. Set SCOREKEEPER_RATELIMIT_STORAGE_URI to a storage they can share, such as "
    "redis://127.0.0.1:6379 (a Redis server, with the redis package installed: pip install redis), "
    "or run one process (--workers 1).")


def cmd_serve(args: argparse.Namespace) -> int:
    from .serving import serve, serve_workers
    from .web import create_app

    if args.workers < 1:
        print(f"--workers {args.workers}: at least 1 process.", file=sys.stderr)
        return 2
    app = create_app()
    if args.workers > 1 and str(app.config["RATELIMIT_STORAGE_URI"]).startswith("memory://"):
        print(WORKERS_NEED_SHARED_LIMITS.format(workers=args.workers), file=sys.stderr)
        return 2
    print(f"Scorekeeper is running. Database: {app.config['DATABASE']}")
    print(f"  On this machine:  http://{'127.0.0.1' if args.host in ('0.0.0.0', '') else args.host}:{args.port}/")
    lan = lan_address() if args.host in ("0.0.0.0", "") else None
    if lan:
        app.config["LAN_ADDRESS"] = lan  # share links opened on this machine point phones here
        print(f"  On a phone on the same Wi-Fi:  http://{lan}:{args.port}/")
        print("  or scan this with the phone's camera:")
        print(terminal_qr(f"http://{lan}:{args.port}/"))
    if args.workers > 1:
        print(f"  {args.workers} processes of {args.threads} threads; the rate limits in "
              f"{str(app.config['RATELIMIT_STORAGE_URI']).split('://')[0]}://")
        print("Press Ctrl+C to stop.", flush=True)
        return serve_workers(create_app, args.host, args.port, args.threads, args.workers)
    print("Press Ctrl+C to stop.", flush=True)
    serve(app, args.host, args.port, args.threads)
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """A consistent copy of the database, safe while ``scorekeeper serve`` runs."""
    import sqlite3

    from . import store

    source = args.database
    if not source:
        from .web import create_app

        source = create_app().config["DATABASE"]
    folder = os.path.dirname(os.path.abspath(args.file))
    if not os.path.isdir(folder):  # SQLite would only say "unable to open database file"
        print(f"backup failed: {folder}: no such folder (make it first)", file=sys.stderr)
        return 1
    try:
        store.backup(source, args.file)
    except FileNotFoundError:
        print(f"{source}: no such database", file=sys.stderr)
        return 2
    except ValueError as error:  # the target is the live database
        print(f"backup refused: {error}", file=sys.stderr)
        return 2
    except (OSError, sqlite3.Error) as error:
        print(f"backup failed: {error}", file=sys.stderr)
        return 1
    print(f"Backed up {source} to {args.file}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """Every match on this server with its scorer and watcher links: matches are private
    to the phones that have their links, so this is how the person who runs the server
    finds one again (a phone was lost, the history was cleared)."""
    from . import store
    from .names import isolated

    database = args.database
    if not database:
        from .web import create_app

        database = create_app().config["DATABASE"]
    if not os.path.isfile(database):
        print(f"{database}: no such database", file=sys.stderr)
        return 2
    try:
        db = store.connect(database)
    except Exception as error:  # not a database, no permission...
        print(f"{database}: cannot open: {error}", file=sys.stderr)
        return 2
    base = (args.url or f"http://{lan_address() or '127.0.0.1'}:5000").rstrip("/")
    matches = store.all_matches(db, args.search or "")
    for m in matches:
        game = m["played"].title if m["played"] is not None else m["game"]
        state = "finished" if m["finished"] else "in progress"
        hands = f"{m['hands']} hand{'' if m['hands'] == 1 else 's'}"
        # each name isolated, so a right-to-left name never reorders the line round it
        players = ", ".join(isolated(name) for name in m["players"])
        print(f"#{m['id']}  {m['date'] or ''}  {game}  {players}  ({hands}, {state})")
        if m["note"]:
            print(f"    note:    {m['note']}")
        print(f"    scorer:  {base}/s/{m['scorer_token']}")
        print(f"    watcher: {base}/w/{m['watcher_token']}")
    found = f"{len(matches)} match{'' if len(matches) == 1 else 'es'}"
    print(f"{found}{' with a player called ' + repr(args.search) if args.search else ''}.", file=sys.stderr)
    return 0


def cmd_build_offline(args: argparse.Namespace) -> int:
    """The app a phone keeps to score with no network, as static files (offline.py)."""
    from . import offline

    try:
        sizes = offline.build(args.folder)
    except OSError as error:
        print(f"{args.folder}: cannot write: {error.strerror or error}", file=sys.stderr)
        return 2
    print(f"Wrote the offline app to {args.folder}: {len(sizes)} files, {sum(sizes.values()):,} bytes.")
    print("Serve the folder over HTTPS (or on localhost): phones keep the app from its address.")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    rescore_cmd = commands.add_parser("rescore", help="re-score a match file and print the scores as JSON")
    rescore_cmd.add_argument("file", help="the match file, or - for standard input")
    rescore_cmd.set_defaults(run=cmd_rescore)
    serve_cmd = commands.add_parser("serve", help="run the web app (waitress)")
    serve_cmd.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all, so phones can connect)")
    serve_cmd.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    serve_cmd.add_argument("--threads", type=int, default=8, help="worker threads (default 8)")
    serve_cmd.add_argument("--workers", type=int, default=1,
                           help="processes, each with --threads threads (default 1; one per core uses every core; "
                                "more than one needs SCOREKEEPER_RATELIMIT_STORAGE_URI set to a shared storage)")
    serve_cmd.set_defaults(run=cmd_serve)
    backup_cmd = commands.add_parser("backup", help="copy the database consistently, even while the app runs")
    backup_cmd.add_argument("file", help="where to write the copy (replaced if it exists)")
    backup_cmd.add_argument("--database", help="the database to copy (default: the app's, "
                                               "SCOREKEEPER_DATABASE or instance/scorekeeper.sqlite)")
    backup_cmd.set_defaults(run=cmd_backup)
    list_cmd = commands.add_parser("list", help="list every match with its scorer and watcher links")
    list_cmd.add_argument("--search", help="only matches with a player whose name contains this")
    list_cmd.add_argument("--url", help="the address phones use to reach the server, for the links "
                                        "(default: http://<this machine's LAN address>:5000)")
    list_cmd.add_argument("--database", help="the database (default: the app's)")
    list_cmd.set_defaults(run=cmd_list)
    offline_cmd = commands.add_parser("build-offline", help="write the app a phone keeps to score with no network, "
                                                            "as static files any static host can serve")
    offline_cmd.add_argument("folder", help="the folder to write (made if needed)")
    offline_cmd.set_defaults(run=cmd_build_offline)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug of ours must still not show a traceback to a player
        print(f"scorekeeper: internal error ({type(error).__name__}: {error}); please report it", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
