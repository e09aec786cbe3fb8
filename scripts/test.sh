#!/usr/bin/env bash
# Installs everything the tests need and runs the whole test suite.
# The README's second command and CI (.ci/run) both run exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

# Builds the engine (release) and installs the package with its test tools.
python3 -m pip install --quiet --disable-pip-version-check ".[test]"

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test -p ackclock-core --quiet
ruff check python tests
python3 -m pytest -q
