#!/usr/bin/env bash
# Fuzzes the scenario loader and the engine for a time budget (default 300 s); not part of
# the default test suite. Needs the package installed with its test extras (hypothesis).
#   scripts/fuzz.sh [SECONDS] [--seed N]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
shift || true
exec python3 scripts/fuzz.py --seconds "$seconds" "$@"
