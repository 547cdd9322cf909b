"""Command line: ``python -m hearts replay FILE``.

``replay FILE`` reads one JSON record (or a JSON list of records, or JSON lines) and prints
each record's result; ``replay -`` reads JSON lines from standard input, one record a line.
A bad record never stops the batch. Exit status: 0 every record is valid, 1 some are invalid,
2 the input cannot be read (or the command line is wrong, or the output is closed),
3 an internal error (a bug: one short line on standard error, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from .errors import RecordError
from .hand import Hand
from .match import Match
from .records import MAX_JSON_DEPTH, json_depth, load_record
from .seats import SEATS

__all__ = ["main", "replay", "replay_lines", "Tally"]


def _records(text: str) -> Iterator[tuple[str, Any]]:
    """(label, parsed JSON or an error string) for a whole document or JSON lines."""
    stripped = text.strip()
    try:
        whole = json.loads(stripped) if stripped and json_depth(stripped, MAX_JSON_DEPTH) <= MAX_JSON_DEPTH else None
    except (ValueError, RecursionError):
        whole = None
    else:
        if isinstance(whole, list):
            for i, item in enumerate(whole, 1):
                yield f"record {i}", item
            return
        if isinstance(whole, dict):
            yield "record 1", whole
            return
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if json_depth(line, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:  # never to the parser (see hearts.records)
            yield f"line {number}", ("not_json", "nested too deeply")
            continue
        try:
            yield f"line {number}", json.loads(line)
        except RecursionError:
            yield f"line {number}", ("not_json", "nested too deeply")
        except ValueError as exc:
            yield f"line {number}", ("not_json", str(exc))


def _text(message: str) -> str:
    """``message`` printable anywhere: lone surrogates (from JSON such as "\\ud800") escaped."""
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


def _describe(game: Match | Hand) -> str:
    if isinstance(game, Match):
        totals = " ".join(f"{s.key}={game.scores[s]}" for s in SEATS)
        state = (
            "over, winners " + ",".join(s.key for s in game.winners)
            if game.is_over
            else f"in progress ({game.phase.value})"
        )
        return f"ok  match, {len(game.hands)} hand(s), totals {totals}; {state}"
    if game.result is None:
        return f"ok  hand in progress ({game.phase.value}, trick {game.trick_number + 1})"
    points = " ".join(f"{s.key}={game.result.points[s]}" for s in SEATS)
    moon = f"; moon by {game.result.moon.key}" if game.result.moon is not None else ""
    return f"ok  hand, points {points}{moon}"


@dataclass
class Tally:
    valid: int = 0
    invalid: int = 0
    internal: int = 0

    @property
    def status(self) -> int:
        return 3 if self.internal else 1 if self.invalid or not self.valid else 0


def replay(text: str, out: TextIO) -> Tally:
    """Replay every record in ``text`` and print one line each (a bug in one record is reported
    on its line and the batch goes on)."""
    tally = Tally()
    for label, item in _records(text):
        if isinstance(item, tuple):
            tally.invalid += 1
            line = f"{label}: INVALID not_json: {item[1]}"
        else:
            try:
                game = load_record(item)
                line = f"{label}: {_describe(game)}"
                tally.valid += 1
            except RecordError as exc:
                tally.invalid += 1
                where = f" at {exc.step}" if exc.step else ""
                line = f"{label}: INVALID{where}: {exc.code.value}: {exc.message}"
            except RecursionError:
                tally.invalid += 1
                line = f"{label}: INVALID not_json: nested too deeply"
            except Exception as exc:  # noqa: BLE001 - a bug: say so, on this record's line only
                tally.internal += 1
                line = f"{label}: ERROR internal: {type(exc).__name__}: {str(exc)[:200]}"
        print(_text(line), file=out)
    if not (tally.valid or tally.invalid or tally.internal):
        print("no records found", file=out)
    return tally


def replay_lines(text: str, out: TextIO) -> int:
    """Replay every record in ``text``; print one line each; return the number of bad ones
    (invalid or failed), 1 when there are no records at all."""
    tally = replay(text, out)
    return tally.invalid + tally.internal or (0 if tally.valid else 1)


def _read(name: str) -> str:
    raw = sys.stdin.buffer.read() if name == "-" else open(name, "rb").read()
    return raw.decode("utf-8-sig")


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(prog="python -m hearts", description="Hearts engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay records and print each result")
    rp.add_argument("file", help="a JSON record file, or - for JSON lines on standard input")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay_command(args.file)
    return 2  # pragma: no cover


def _replay_command(name: str) -> int:
    try:
        text = _read(name)
    except (OSError, UnicodeDecodeError) as exc:
        print(_text(f"cannot read {name}: {exc}"), file=sys.stderr)
        return 2
    try:
        return replay(text, sys.stdout).status
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        try:
            sys.stdout = open(os.devnull, "w")  # nothing more to write; no error at exit
        except OSError:
            pass
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug outside any one record
        print(_text(f"internal error: {type(exc).__name__}: {str(exc)[:200]}"), file=sys.stderr)
        return 3
