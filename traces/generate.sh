#!/usr/bin/env bash
# Regenerates the sample data that `hcreplay demo` embeds. Everything here is made by the tool
# itself from fixed seeds; nothing comes from the papers' data. Run from the repository root:
#   make build && traces/generate.sh
set -euo pipefail
bin=${HCREPLAY:-bin/hcreplay}
cd "$(dirname "$0")"
rm -rf demo && mkdir -p demo
"../$bin" pet synth --out demo/pet.json --seed 1 -q
# trace gen refuses a folder that holds another set of trials, so each level is made alone and
# moved in.
for level in 9k 19k 34k; do
  "../$bin" trace gen --pet demo/pet.json --out "demo/$level" --level "$level" --trials 5 --tasks 500 --format csv --seed 1 -q
  mv "demo/$level"/*.csv demo/ && rmdir "demo/$level"
done

# The README's figure: the demo's robustness plot, made from the data above.
tmp=$(mktemp -d)
"../$bin" demo --out "$tmp" -q >/dev/null
cp "$tmp/report/robustness.png" readme-robustness.png
rm -rf "$tmp"
