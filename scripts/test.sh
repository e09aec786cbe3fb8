#!/usr/bin/env bash
# Installs everything the tests need and runs the whole test suite.
# The README's second command and CI (.ci/run) both run exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

# ns-2 (Debian package ns2) for the live parity tests in tests/validation/, tshark
# (Debian package tshark) for the pcap tests in tests/integration/test_traces.py, and iperf3,
# ethtool and gcc for the live comparison with real Linux TCP (tests/validation/test_linux_live.py),
# chromium and chromium-driver for the report opened in a headless browser
# (tests/integration/test_report.py).
if { ! command -v ns >/dev/null 2>&1 || ! command -v tshark >/dev/null 2>&1 \
     || ! command -v iperf3 >/dev/null 2>&1 || ! command -v ethtool >/dev/null 2>&1 \
     || ! command -v gcc >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1 \
     || ! command -v chromedriver >/dev/null 2>&1; } \
    && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq ns2 tshark iperf3 ethtool gcc \
        chromium chromium-driver >/dev/null
fi

# Builds the engine (release) and installs the package with its test tools.
python3 -m pip install --quiet --disable-pip-version-check ".[test,docs]"

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test -p ackclock-core --quiet
# The invariant checker catches a deliberately broken counter (docs/reliability.md).
cargo test -p ackclock-core --quiet --features inject-accounting-bug --test invariants
ruff check python tests validation benchmarks examples
# The documentation site (mkdocs.yml): every page, link and API reference entry must resolve.
NO_MKDOCS_2_WARNING=1 python3 -m mkdocs build --strict --quiet --site-dir "$(mktemp -d)"
python3 -m pytest -q
