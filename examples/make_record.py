"""Play a match with the bots and write its record: the file ``python3 -m hearts replay`` reads.

    python3 examples/make_record.py                      # writes examples/match.json and examples/hand.json
    python3 examples/make_record.py --rules standard --seed my-seed --out /tmp/match.json

A record holds the rules, the seed the deals come from, and every pass and play, so loading it
replays the whole game through the rules (a tampered record is refused at its first illegal step).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere in the repository

from hearts import PRESETS, Match  # noqa: E402
from hearts.bots import make_bot  # noqa: E402
from hearts.bots.player import BotPlayer  # noqa: E402
from hearts.records import hand_to_record, match_to_record  # noqa: E402
from hearts.table import play, run_sync  # noqa: E402

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="king", choices=sorted(PRESETS), help="rules preset (default: king, to 50)")
    parser.add_argument("--seed", default="example", help="the seed the deals come from")
    parser.add_argument("--out", type=Path, default=HERE / "match.json", help="where the match record goes")
    parser.add_argument("--hand-out", type=Path, default=HERE / "hand.json", help="where its first hand goes alone")
    args = parser.parse_args(argv)
    match = Match(PRESETS[args.rules], seed=args.seed)
    seats = [BotPlayer(make_bot(level), seed=args.seed) for level in ("medium", "easy", "medium", "easy")]
    run_sync(play(match, seats))
    args.out.write_text(json.dumps(match_to_record(match), indent=1) + "\n", encoding="utf-8")
    first = match.hands[0]
    args.hand_out.write_text(json.dumps(hand_to_record(first), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(match.hands)} hands) and {args.hand_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
