"""Pair two ``tools/bench_openspiel.py --out`` runs played on the same deals (row by deal and seat).

    python3 tools/openspiel_pair.py bench/out/openspiel-v1-deals400.jsonl bench/out/openspiel-v5-deals400.jsonl

Prints, for the seat-hands both runs played: moons allowed (an ISMCTS seat shot) and shot by the
bot, the moons only one run allowed with a two-sided sign test, and the paired difference of
(bot - ISMCTS) per deal, A minus B, with a 95% interval.
"""
from __future__ import annotations

import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any


def load(path: Path) -> dict[tuple[int, int], dict[str, Any]]:
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {(r["deal"], r["seat"]): r for r in rows}


def sign_test(a: int, b: int) -> float:
    n = a + b
    if not n:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(a, b) + 1))
    return min(1.0, 2.0 * tail / float(2 ** n))


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    a, b = load(Path(argv[0])), load(Path(argv[1]))
    common = sorted(set(a) & set(b))
    if not common:
        print("no seat-hands in common")
        return 1

    def allowed(r: dict[str, Any]) -> bool:
        return bool(r["moon"] >= 0 and r["moon"] != r["seat"])

    print(f"{len(common)} seat-hands in both")
    for name, run in (("A", a), ("B", b)):
        rows = [run[k] for k in common]
        print(f"{name} {rows[0]['bot']}: moons allowed {sum(map(allowed, rows))}, shot "
              f"{sum(r['moon'] == r['seat'] for r in rows)}, {sum(r['hard'] for r in rows) / len(rows):.3f} points/hand")
    only_a = sum(1 for k in common if allowed(a[k]) and not allowed(b[k]))
    only_b = sum(1 for k in common if allowed(b[k]) and not allowed(a[k]))
    print(f"moons allowed only by A {only_a}, only by B {only_b} (sign test p={sign_test(only_a, only_b):.2g})")
    per: dict[int, list[float]] = defaultdict(list)
    for k in common:
        per[k[0]].append((a[k]["hard"] - a[k]["them"]) - (b[k]["hard"] - b[k]["them"]))
    d = [sum(v) / len(v) for v in per.values()]
    m = sum(d) / len(d)
    half = 1.96 * math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) if len(d) > 1 else math.inf
    print(f"A - B, (bot - ISMCTS) per deal: {m:+.3f} ± {half:.3f} (n={len(d)} deals)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
