#!/bin/sh
# Duplicate tournaments of Smear (issue 10): the smear heuristic against random in every preset
# and player count, 5,000 deals each. Run from the repository root: sh results/smear/run.sh
set -e
run() {  # preset players agents
  .venv/bin/python -m hearts_cli tournament --preset "$1" --players "$2" --agents "$3" \
    --deals 5000 --tables 250 --seed 10 --quiet --json "results/smear/$1-$2.json"
}
for n in 3 5 7; do run smear_partnership $n smear,random,random; done
for n in 4 8; do run smear_partnership $n smear,random; done
run smear_partnership 6 smear,random,random
run smear_nine_card 3 smear,random,random
run smear_nine_card 4 smear,random
run smear_nine_card 5 smear,random,random
run smear_nine_card 6 smear,random,random
run smear_widow 3 smear,random,random
run smear_widow 4 smear,random
for n in 4 6 8; do run smear_five_point $n smear,random; done
