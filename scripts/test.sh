#!/usr/bin/env bash
# Installs everything the tests need and runs the whole test suite.
# The README's second command and CI (.ci/run) both run exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

# ns-2 (Debian package ns2) for the live parity tests in tests/validation/, and tshark
# (Debian package tshark) for the pcap tests in tests/integration/test_traces.py.
if { ! command -v ns >/dev/null 2>&1 || ! command -v tshark >/dev/null 2>&1; } \
    && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq ns2 tshark >/dev/null
fi

# Builds the engine (release) and installs the package with its test tools.
python3 -m pip install --quiet --disable-pip-version-check ".[test]"

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test -p ackclock-core --quiet
# The invariant checker catches a deliberately broken counter (docs/reliability.md).
cargo test -p ackclock-core --quiet --features inject-accounting-bug --test invariants
ruff check python tests
python3 -m pytest -q
