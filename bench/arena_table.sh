#!/usr/bin/env bash
# Every arena pairing the README's AI table reports, one summary row each (run by hand; about
# 75 minutes on 2 cores). Budgets and game counts per line: the long games (rings, triple-domino,
# three-stones' hard search) play fewer games or a smaller budget, as the README says. Morris plays
# no random opening: four random placements can leave the second player a double mill threat it
# cannot stop; the players' seeded move order makes its games differ (the arena counts them).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
arena() { "$PY" bench/arena.py "$@" --seed 1 --jobs "${JOBS:-2}" --quiet | tail -n 1; }

echo "| game | pairing (A vs B) | budget | games | A W/D/L | A wins of decided (95% CI) | mean margin | ms/move A / B |"
echo "|---|---|---|---|---|---|---|---|"
for game in three-stones morris rings sage-stones triple-domino; do
  arena "$game" medium easy --games 200
  arena "$game" easy random --games 200
done
arena sage-stones hard medium --games 200
arena sage-stones hard random --games 200
arena three-stones hard medium --games 100 --seconds 0.25
arena three-stones hard random --games 100 --seconds 0.25
arena morris hard random --games 200 --seconds 0.1
arena triple-domino hard medium --games 100 --seconds 0.1
arena triple-domino hard random --games 60 --seconds 0.1
# rings' medium and hard players leave nothing to chance: four random placements first (the same
# for both seatings of a pair) make the games differ
arena rings hard medium --games 60 --opening 4
arena rings hard random --games 40
arena morris hard medium --games 100
