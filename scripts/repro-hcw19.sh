#!/usr/bin/env bash
# Robustness (mean ± 95% CI over the 30 trials) of the batch heuristics on the HCW19 data, with
# and without pruning, at 19k and 34k, queue size 6. Usage: scripts/repro-hcw19.sh [HCW19_DIR]
# (default ../shared/data/hcw19). Extra replay flags can follow the folder.
set -euo pipefail
data=${1:-../shared/data/hcw19}; shift || true
bin=${HCREPLAY:-bin/hcreplay}
export HCREPLAY_QUEUE_SIZE=${HCREPLAY_QUEUE_SIZE:-6} # a default that an extra --queue-size overrides
printf '%-10s %-6s %-5s %s\n' heuristic prune level "robustness % (mean ± 95% CI, n)"
for level in 19k 34k; do
  for h in MM MSD MMU MOC MaxMin Sufferage PAM; do
    for p in none both; do
      "$bin" replay -q --json --pet "$data/classes_2.etc" --trace "$data/constant.zip#arr/arr${level}_*.dat" \
        -H "$h" --prune "$p" "$@" |
      python3 -c '
import sys, json, statistics as st
r = [json.loads(l)["robustness"] for l in sys.stdin]
t = {30: 2.045}.get(len(r), 1.96)
print("%-10s %-6s %-5s %6.2f ± %5.2f  (n=%d)" % (sys.argv[1], sys.argv[2], sys.argv[3], st.mean(r), t*st.stdev(r)/len(r)**0.5, len(r)))' "$h" "$p" "$level"
    done
  done
done
