#!/usr/bin/env bash
# The pruning experiments of the journal paper (000) and the thesis on the HCW19 data: mean ± 95%
# CI over 30 trials, queue size 6. Usage: scripts/repro-pruning.sh [HCW19_DIR] (default
# ../shared/data/hcw19). Each block prints one table; every line is one replay over 30 trials.
set -euo pipefail
data=${1:-../shared/data/hcw19}
bin=${HCREPLAY:-bin/hcreplay}
pet="$data/classes_2.etc"
agg='
import sys, json, statistics as st
rows = [json.loads(l) for l in sys.stdin]
def ci(xs):
    xs = [x for x in xs if x is not None]
    return st.mean(xs), 2.045 * st.stdev(xs) / len(xs) ** 0.5
r, rc = ci([d["robustness"] for d in rows])
v, vc = ci([d["fairness_variance"] for d in rows])
print("%-34s robustness %6.2f ± %5.2f   fairness variance %7.1f ± %6.1f" % (sys.argv[1], r, rc, v, vc))'
run() { # label trace-glob replay-flags...
  local label=$1 glob=$2; shift 2
  "$bin" replay -q --json --pet "$pet" --trace "$glob" --queue-size 6 "$@" | python3 -c "$agg" "$label"
}
c19="$data/constant.zip#arr/arr19k_*.dat"; c34="$data/constant.zip#arr/arr34k_*.dat"

echo "== PAM vs PAMF: fairness factor (19k)"
for f in 0 0.05 0.10 0.15 0.20 0.25; do run "PAM-P fairness=$f" "$c19" -H PAM --prune both --fairness "$f"; done

echo "== Thresholds: dropping x deferring (34k, PAM-P)"
for d in 0.25 0.5 0.75; do
  for g in 0 0.05 0.1 0.15; do
    def=$(python3 -c "print(min(0.9, $d + $g))")
    run "drop $d defer $def" "$c34" -H PAM --prune both --drop-threshold "$d" --defer "static:$def"
  done
done

echo "== Toggle: lambda and Schmitt (34k, PAM-P)"
for l in 1 0.9 0.5 0.1; do
  run "threshold:1 lambda=$l" "$c34" -H PAM --prune both --toggle threshold:1 --lambda "$l"
  run "schmitt:1 lambda=$l" "$c34" -H PAM --prune both --toggle schmitt:1 --lambda "$l"
done

echo "== Deferring: dynamic vs static (PAM-P), constant 19k and spiky 20k"
s20="$data/spiky.zip#spk/spk20k800_*.dat"
for w in "constant19k:$c19" "spiky20k:$s20"; do
  name=${w%%:*}; glob=${w#*:}
  for d in static:0.5 static:0.6 static:0.75 static:0.9 dynamic:0.05; do run "$name defer $d" "$glob" -H PAM --prune both --defer "$d"; done
done
