"""ns-2.35's own test suites that exercise the TCP variants, RED, the monitors and (rfc2001) the
retransmission timer, run live under ns-2.35 and under `ackclock ns2` by
validation/ns2_test_suites.py (skipped without `ns`, Debian package ns2). ns-2's outputs are
cached in ~/.cache/ackclock/ns2-test-suites."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("ns2_test_suites",
                                              ROOT / "validation" / "ns2_test_suites.py")
assert spec is not None and spec.loader is not None
suites = importlib.util.module_from_spec(spec)
sys.modules["ns2_test_suites"] = suites
spec.loader.exec_module(suites)

pytestmark = pytest.mark.skipif(
    shutil.which("ns") is None or not suites.NS2_TREE.is_dir(),
    reason="needs ns-2.35 (`ns`, Debian package ns2) and ../shared/ns2-2.35")

# The tests whose output is ns-2's today (identical or after a named normalisation): they must
# stay so. Measured with validation/ns2_test_suites.py; see docs/ns2-scripts.md.
MATCHING: dict[str, set[str]] = {
    "tcpVariants": {
        "onedrop_tahoe",
        "onedrop_SA_tahoe",
        "onedrop_reno",
        "onedrop_SA_reno",
        "onedrop_newreno",
        "onedrop_SA_newreno",
        "twodrops_tahoe",
        "twodrops_SA_tahoe",
        "twodrops_reno",
        "twodrops_SA_reno",
        "twodrops_newreno",
        "twodrops_SA_newreno",
        "threedrops_tahoe",
        "threedrops_SA_tahoe",
        "threedrops_reno",
        "threedrops_SA_reno",
        "threedrops_newreno",
        "threedrops_SA_newreno",
        "fourdrops_tahoe",
        "fourdrops_SA_tahoe",
        "fourdrops_reno",
        "fourdrops_SA_reno",
        "fourdrops_newreno",
        "fourdrops_SA_newreno",
        "multiple_tahoe",
        "multiple_SA_tahoe",
        "multiple_reno",
        "multiple_SA_reno",
        "multiple_newreno",
        "multiple_SA_newreno",
        "multiple2_tahoe",
        "multiple2_reno",
        "multiple2_SA_reno",
        "multiple2_newreno",
        "multiple2_SA_newreno",
    },
    # Each differed from ns-2's by its retransmission timeouts until the ns2 profile took
    # ns-2's fixed-point timer (ns2_rtt_timer, tcp/rtt.rs): all 9 give ns-2's output now.
    "rfc2001": {"reno", "newreno", "reno1", "newreno1", "newreno1_A", "reno2", "reno2_bugfix",
                "newreno2_A", "newreno2_A_bugfix"},
    # Early drops counted apart by the flow monitor (attach-fmon's edrop: the flows_ tests)
    # and mark_p_ above 1 (congested_mark_p); ECN at a window of one segment as ns-2's one-way
    # agents and TCPSink answer it (congested, congested1_mark_p, congested2_mark_p, gentleEcn).
    "red": {"red1", "ecn", "red2", "flows_unforced", "flows_forced", "flows_combined",
            "q_weight", "q_weight_auto", "congested_mark_p", "congested", "congested1_mark_p",
            "congested2_mark_p", "gentleEcn"},
    "monitor": set(),
    # CBR on TFRC agents (CBR_Traffic driving TfrcAgent::sendmsg) and TFRC's on-off sources.
    "quiescent": {"tfrc_onoff", "tfrc_onoff_oldcode", "tfrc_cbr", "tfrc_cbr_conservative"},
}


@pytest.mark.parametrize("suite", sorted(MATCHING))
def test_suite_against_ns2(suite):
    [result] = suites.run_suites([suite], suites.NS2_TREE, "ns",
                                 [sys.executable, "-m", "ackclock", "ns2"], timeout=120.0,
                                 progress=False)
    by_state = {o.test: o for o in result.outcomes}
    # Every test ns-2 runs either runs under ackclock or stops at once with one line naming
    # what ackclock does not support: never a crash, a Tcl error or a timeout.
    failed = [f"{o.test}: {o.detail}" for o in result.outcomes if o.state == "failed"]
    assert not failed, "\n".join(failed)
    lost = [f"{t}: {by_state[t].state} {by_state[t].detail}" for t in sorted(MATCHING[suite])
            if by_state[t].state not in ("identical", "normalised")]
    assert not lost, "\n".join(lost)


# FullTcp with ECN (tcp/tcp-full.cc, docs/ns2-scripts.md): a few tests of ns-2.35's ecn-full and
# ecn-ack suites that are ns-2's today, one per mechanism, run alone (the whole ecn-full suite
# is 84 tests): the ECN-setup SYN (noecn), the window held at window_ and no growth on ACKs
# with ECN-Echo (nodrop), the receiver's echo ended by a retransmission's congestion-action mark
# and Tahoe's dupack_action after an ECN cut (drop), /Reno's and /Newreno's (timeout1), the FTP
# start's boot_time_ draw before RED's (twoecn), FullTcpAgent::newack's backoff reset and the
# timer after a cut below one segment (smallwin, smallwin1Ecn, secondpktEcn), and ecn-ack's
# FullTcp cases.
FULL_TCP_ECN: dict[str, set[str]] = {
    "ecn-full": {"ecn_noecn_tahoe_full", "ecn_nodrop_reno_full", "ecn_drop_tahoe_full",
                 "ecn_timeout1_reno_full", "ecn_timeout1_newreno_full",
                 "ecn_twoecn_sack_full_delack", "ecn_smallwin_tahoe_full",
                 "ecn_smallwin1Ecn_tahoe_full", "ecn_secondpktEcn_reno_full"},
    "ecn-ack": {"ecn_ack_fulltcp", "synack_fulltcp", "synack0_fulltcp"},
}


@pytest.mark.parametrize("suite", sorted(FULL_TCP_ECN))
def test_full_tcp_ecn_suite_tests_against_ns2(suite):
    [result] = suites.run_suites([suite], suites.NS2_TREE, "ns",
                                 [sys.executable, "-m", "ackclock", "ns2"], timeout=120.0,
                                 only=FULL_TCP_ECN[suite], progress=False)
    got = {o.test: f"{o.state} {o.detail}" for o in result.outcomes}
    assert set(got) == FULL_TCP_ECN[suite]
    lost = [f"{t}: {s}" for t, s in sorted(got.items()) if not s.startswith("identical")]
    assert not lost, "\n".join(lost)
