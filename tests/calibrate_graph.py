#!/usr/bin/env python3
"""Synthetic runs for tests/calibrate_graph.sh: every MoE workload of the
given runs files, its "measured" step the one `gpuplan eval` predicts under
a truth catalog.  Usage: calibrate_graph.py GPUPLAN TRUTH_DIR OUT_DIR RUNS.yaml..."""
import json
import os
import subprocess
import sys

import yaml


def main():
    gp, truth, out = sys.argv[1:4]
    for path in sys.argv[4:]:
        plan = yaml.safe_load(open(path))
        res = subprocess.run([gp, "--catalog", truth, "eval", "--json", path],
                             capture_output=True, text=True, check=False)
        steps = {w["name"]: w["step_seconds"]
                 for w in json.loads(res.stdout)["workloads"] if w.get("ok")}
        kept = []
        for w in plan["workloads"]:
            m = w.get("model", {})
            moe = m.get("experts", 1) > 1 or m.get("preset") in ("deepseek-v3", "gpt-oss-120b")
            if not moe or w["name"] not in steps:
                continue
            w = dict(w)
            w.pop("measured_tokens_per_gpu", None)
            w["measured_step"] = round(steps[w["name"]], 6)
            w["measured_source"] = "synthetic: gpuplan eval under the truth catalog"
            kept.append(w)
        plan["workloads"] = kept
        plan["name"] = "synthetic-" + plan["name"]
        with open(os.path.join(out, os.path.basename(path)), "w") as f:
            yaml.safe_dump(plan, f, sort_keys=False)


if __name__ == "__main__":
    main()
