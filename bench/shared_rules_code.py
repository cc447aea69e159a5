"""The rules code the three rulesets now share (saved-state envelope, action registry, scenario reading,
step runner, footprints): the same work on this tree and on a reference commit from before the
consolidation, timed in one run, interleaved, each in its own interpreter.

Workloads (each a few hundred milliseconds): play each ruleset's example script from its scenario
file to the end (scenario reading, every action through the dispatch, the step runner); save and load
each final state 20 times (the envelope); 2000 SetPose + EditUnit actions on the Down Range example.
Prints milliseconds per workload for both trees and their ratio (this tree / reference), the median of
``--rounds`` alternating rounds. Also checks the outputs agree: every saved state is the same bytes.

    .venv/bin/python bench/shared_rules_code.py [--reference 847e272] [--rounds 5]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Runs inside a fresh interpreter with the tree to measure first on sys.path; prints JSON.
WORKER = r'''
import hashlib, json, sys, time
sys.path.insert(0, sys.argv[1])
from rules.downrange import actions as DA
from rules.downrange.examples import in_depth
from rules.forceonforce.examples import patrol
from rules.generic.examples import solo
from rules.serialize import to_jsonable

def timed(fn):
    t0 = time.perf_counter(); out = fn(); return out, (time.perf_counter() - t0) * 1000

out = {}
finals = {}
for name, script in (("down-range", in_depth), ("force-on-force", patrol), ("generic", solo)):
    records, ms = timed(lambda: list(script.play()))
    finals[name] = records[-1].state
    out[f"play the {name} example"] = ms
def save_load():
    digest = hashlib.sha256()
    for state in finals.values():
        for _ in range(20):
            text = state.dumps()
            assert type(state).loads(text) == state
        digest.update(text.encode())
    return digest.hexdigest()
check, out["save + load the final states x20"] = timed(save_load)
def edits():
    s = in_depth.initial_state()
    for i in range(1000):
        s = s.apply(DA.SetPose(10, 18.0 + (i % 7), 20.0, 90.0))
        s = s.apply(DA.EditUnit(10, {"reaction_ready": i % 2 == 0}))
    return s
_, out["2000 SetPose + EditUnit"] = timed(edits)
import rules
print(json.dumps({"ms": out, "check": check, "rules": rules.__file__}))
'''


def _reference_tree(commit: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "rules"], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def _run(tree: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", WORKER, str(tree)], check=True, capture_output=True, text=True,
                          cwd=tree)
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", default="847e272", help="commit before the consolidation (default 847e272)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ref = _reference_tree(args.reference, Path(tmp))
        times: dict[str, dict[str, list[float]]] = {"this tree": {}, "reference": {}}
        checks = set()
        for _ in range(args.rounds):
            for label, tree in (("this tree", ROOT), ("reference", ref)):
                result = _run(tree)
                assert Path(result["rules"]).is_relative_to(tree), f"{label} ran {result['rules']}"
                checks.add((label, result["check"]))
                for key, ms in result["ms"].items():
                    times[label].setdefault(key, []).append(ms)
    same = len({c for _, c in checks}) == 1
    print(f"reference {args.reference} vs this tree, median of {args.rounds} interleaved rounds (ms)")
    print(f"{'workload':36} {'reference':>10} {'this tree':>10} {'ratio':>7}")
    for key in times["reference"]:
        a, b = statistics.median(times["reference"][key]), statistics.median(times["this tree"][key])
        print(f"{key:36} {a:10.1f} {b:10.1f} {b / a:7.2f}")
    print(f"saved states byte-identical between the trees: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
