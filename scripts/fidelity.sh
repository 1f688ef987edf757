#!/usr/bin/env bash
# Regenerates the numbers of docs/fidelity.md on the HCW19 data: for each paper, the sweeps
# behind its table, once under the semantics its `figures` preset uses and once under the
# defaults of `hcreplay replay`, then one line per number: KEY<TAB>mean ± 95% CI half-width.
#
# Usage: scripts/fidelity.sh [--quick] [HCW19_DIR] [OUT_DIR]
#   HCW19_DIR  the folder of classes_2.etc and constant.zip (default ../shared/data/hcw19)
#   OUT_DIR    where the sweeps and their reports go (default fidelity-runs; reused: delete it
#              to rerun)
#   --quick    2 trials a level (the test suite's smoke run: numbers, not results)
# HCREPLAY names the binary (default bin/hcreplay); PAPERS the tables to make (default all:
# thesis journal conference batch2010). The full run takes about an hour on two cores.
set -euo pipefail
quick=0
if [ "${1:-}" = --quick ]; then quick=1; shift; fi
data=${1:-../shared/data/hcw19}
out=${2:-fidelity-runs}
bin=${HCREPLAY:-bin/hcreplay}
trials=()
batch_trials=20
if [ "$quick" = 1 ]; then trials=(--trials 2); batch_trials=2; fi
mkdir -p "$out"

# The semantics of each preset (cmd/hcreplay/figures.go) and the defaults, as sweep keys.
defaults=(--set drop_model=evict --set defer_at=after --set drop_running=evict --set sufferage_expired=false)
thesis=(--set drop_model=pending --set defer_at=after-rejudge --set drop_running=always --set sufferage_expired=false)
journal=(--set drop_model=pending --set defer_at=after --set drop_running=always --set sufferage_expired=false)
conference=("${journal[@]}")
batch2010=(--set drop_model=none --set defer_at=after --set drop_running=evict --set sufferage_expired=false)

level() { echo "$1=$data/constant.zip#arr/arr$1_*.dat"; }

# run NAME SWEEP-ARGS...: one sweep into OUT_DIR/NAME and its aggregate.csv, unless done.
run() {
  local name=$1; shift
  if [ ! -f "$out/$name/report/aggregate.csv" ]; then
    "$bin" sweep -q --pet "$data/classes_2.etc" --out "$out/$name" "$@" >/dev/null
    "$bin" report -q "$out/$name" --out "$out/$name/report" --formats svg --tables csv >/dev/null
  fi
}

# num NAME METRIC COLUMN=VALUE...: the metric's mean ± 95% half-width in the first row of
# NAME's aggregate.csv that matches every COLUMN=VALUE.
num() {
  awk -F, -v metric="$2" -v conds="${*:3}" '
    /^#/ { next } # the provenance line: time unit, version
    !header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; next }
    {
      n = split(conds, c, " ")
      for (k = 1; k <= n; k++) { split(c[k], kv, "="); if ($(col[kv[1]]) != kv[2]) next }
      printf "%.2f ± %.2f\n", $(col[metric "_mean"]), $(col[metric "_ci95"]); found = 1; exit
    }
    END { if (!found) print "missing" }' "$out/$1/report/aggregate.csv"
}

# ratio NAME METRIC A B LEVEL: the ratio of the means of names A and B at LEVEL.
ratio() {
  awk -F, -v metric="$2" -v a="$3" -v b="$4" -v lv="$5" '
    /^#/ { next }
    !header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; next }
    $(col["level"]) == lv && $(col["name"]) == a { x = $(col[metric "_mean"]) }
    $(col["level"]) == lv && $(col["name"]) == b { y = $(col[metric "_mean"]) }
    END { if (y > 0) printf "%.2f\n", x / y; else print "missing" }' "$out/$1/report/aggregate.csv"
}

say() { printf '%s\t%s\n' "$1" "$2"; }
papers=" ${PAPERS:-thesis journal conference batch2010} "
want() { [[ $papers == *" $1 "* ]]; }

if want thesis; then
  for sem in thesis defaults; do
    eval "set_=(\"\${${sem}[@]}\")"
    common=("${trials[@]}" "${set_[@]}" --set drop_threshold=0.75 --set defer=static:0.75)
    run "thesis-levels-$sem" --trace "$(level 19k)" --trace "$(level 34k)" -H MM,MSD,MMU,MOC,PAM --prune none,both "${common[@]}"
    run "thesis-retrofit-$sem" --trace "$(level 19k)" --trace "$(level 34k)" -H MM,MSD,MMU --prune defer "${common[@]}"
    run "thesis-toggle-$sem" --trace "$(level 19k)" -H PAM --prune both --set toggle=never,threshold:4,threshold:2,threshold:1,threshold:0 "${common[@]}"
    run "thesis-fairness-$sem" --trace "$(level 19k)" -H PAM --prune both --set fairness=0,0.05 "${common[@]}"
    r=thesis-levels-$sem
    for h in MM MSD MMU PAM; do say "thesis.$h.19k.$sem" "$(num "$r" robustness name=$h level=19k)"; done
    for h in MM MSD MMU; do say "thesis.$h.34k.$sem" "$(num "$r" robustness name=$h level=34k)"; done
    for lv in 19k 34k; do
      for h in MM-P MSD-P MMU-P PAM-P MOC; do say "thesis.$h.$lv.$sem" "$(num "$r" robustness name=$h level=$lv)"; done
      for h in MM-D MSD-D MMU-D; do say "thesis.$h.$lv.$sem" "$(num "thesis-retrofit-$sem" robustness name=$h level=$lv)"; done
    done
    say "thesis.PAM-P/MOC.34k.$sem" "$(ratio "$r" on_time PAM-P MOC 34k)"
    say "thesis.PAM-P/MM.34k.$sem" "$(ratio "$r" on_time PAM-P MM 34k)"
    say "thesis.toggle-never.19k.$sem" "$(num "thesis-toggle-$sem" robustness toggle=never)"
    for t in 4 2 1 0; do say "thesis.toggle-$t.19k.$sem" "$(num "thesis-toggle-$sem" robustness toggle=threshold:$t)"; done
    for f in 0 0.05; do
      say "thesis.fairness-$f.robustness.$sem" "$(num "thesis-fairness-$sem" robustness fairness=$f)"
      say "thesis.fairness-$f.variance.$sem" "$(num "thesis-fairness-$sem" fairness_variance fairness=$f)"
    done
  done
fi

if want journal; then
  for sem in journal defaults; do
    eval "set_=(\"\${${sem}[@]}\")"
    common=("${trials[@]}" "${set_[@]}" --set queue_size=3)
    run "journal-lambda-$sem" --trace "$(level 25k)" -H PAM --prune both --set lambda=0.1,0.5,1 --set toggle=threshold:1,schmitt:1:0.8 "${common[@]}"
    run "journal-fairness-$sem" --trace "$(level 15k)" --trace "$(level 30k)" -H PAM --prune both --set fairness=0,0.1 "${common[@]}"
    run "journal-robustness-$sem" --trace "$(level 15k)" --trace "$(level 30k)" -H MM,MSD,MMU,MOC,PAM --prune none,both "${common[@]}"
    for t in threshold:1 schmitt:1:0.8; do
      for l in 0.1 1; do say "journal.lambda-$l.$t.25k.$sem" "$(num "journal-lambda-$sem" robustness lambda=$l toggle=$t)"; done
    done
    for lv in 15k 30k; do
      for f in 0 0.1; do
        say "journal.fairness-$f.robustness.$lv.$sem" "$(num "journal-fairness-$sem" robustness fairness=$f level=$lv)"
        say "journal.fairness-$f.stddev.$lv.$sem" "$(num "journal-fairness-$sem" fairness_stddev fairness=$f level=$lv)"
      done
      for h in PAM-P MOC MM MSD MMU MM-P MSD-P MMU-P MOC-P; do say "journal.$h.$lv.$sem" "$(num "journal-robustness-$sem" robustness name=$h level=$lv)"; done
    done
  done
fi

if want conference; then
  for sem in conference defaults; do
    eval "set_=(\"\${${sem}[@]}\")"
    common=("${trials[@]}" "${set_[@]}" --set defer=static:0.9)
    run "conference-lambda-$sem" --trace "$(level 34k)" -H PAM --prune both --set lambda=0.1,0.9,1 "${common[@]}"
    run "conference-fairness-$sem" --trace "$(level 34k)" -H PAM --prune both --set lambda=0.9 --set fairness=0,0.05 "${common[@]}"
    run "conference-robustness-$sem" --trace "$(level 19k)" --trace "$(level 34k)" -H MM,MSD,MMU,MOC --prune none "${common[@]}"
    run "conference-pam-$sem" --trace "$(level 19k)" --trace "$(level 34k)" -H PAM --prune both --set lambda=0.9 "${common[@]}"
    run "conference-pamf-$sem" --trace "$(level 19k)" --trace "$(level 34k)" -H PAMF --prune both --set lambda=0.9 --set fairness=0.05 "${common[@]}"
    for l in 0.1 0.9 1; do say "conference.lambda-$l.34k.$sem" "$(num "conference-lambda-$sem" robustness lambda=$l)"; done
    for f in 0 0.05; do
      say "conference.fairness-$f.robustness.34k.$sem" "$(num "conference-fairness-$sem" robustness fairness=$f)"
      say "conference.fairness-$f.variance.34k.$sem" "$(num "conference-fairness-$sem" fairness_variance fairness=$f)"
    done
    for lv in 19k 34k; do
      say "conference.PAM-P.$lv.$sem" "$(num "conference-pam-$sem" robustness name=PAM-P level=$lv)"
      say "conference.PAMF-P.$lv.$sem" "$(num "conference-pamf-$sem" robustness name=PAMF-P level=$lv)"
      for h in MOC MM MSD MMU; do say "conference.$h.$lv.$sem" "$(num "conference-robustness-$sem" robustness name=$h level=$lv)"; done
    done
  done
fi

if want batch2010; then
  for sem in batch2010 defaults; do
    eval "set_=(\"\${${sem}[@]}\")"
    grid="$out/batch2010-$sem.yaml"
    mkdir -p "$out"
    printf 'heuristics: [MOC, MM, MMU, MSD, MECT]\nqueue_size: 4\ntrim: 0\nlevels:\n  - name: poisson\n    trials: %d\n    seed: 1\n    generate: {rate: 0.1, tasks: 2000, cv: 1, deadline: "best:4"}\n' "$batch_trials" >"$grid"
    # 004 gives no execution-time means, so its load is free: as `figures --preset batch2010`
    # does without --trials, the PET is synthesized (seed 1) and the arrivals generated.
    [ -f "$out/synth-pet.json" ] || "$bin" pet synth -q --seed 1 --out "$out/synth-pet.json" >/dev/null
    if [ ! -f "$out/batch2010-$sem/report/aggregate.csv" ]; then
      "$bin" sweep -q --pet "$out/synth-pet.json" --out "$out/batch2010-$sem" "$grid" "${set_[@]}" >/dev/null
      "$bin" report -q "$out/batch2010-$sem" --out "$out/batch2010-$sem/report" --formats svg --tables csv >/dev/null
    fi
    for h in MOC MM MMU MSD MCT; do say "batch2010.$h.$sem" "$(num "batch2010-$sem" on_time name=$h)"; done
    say "batch2010.MOC/MM.$sem" "$(ratio "batch2010-$sem" on_time MOC MM poisson)"
    say "batch2010.MM/MCT.$sem" "$(ratio "batch2010-$sem" on_time MM MCT poisson)"
  done
fi
