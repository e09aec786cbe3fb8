"""ns-2's Agent/TFRC and Agent/TFRCSink (docs/tfrc.md), run live in ns-2.35 and in
`ackclock ns2`: the packet traces must be ns-2's, byte for byte. Skipped where `ns` is not
installed (the refusals at the end run everywhere)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

live = pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (ns) not installed")


def run(tmp_path: Path, who: str, script: str) -> tuple[Path, subprocess.CompletedProcess[str]]:
    cmd = ["ns"] if who == "ns" else [sys.executable, "-m", "ackclock", "ns2"]
    folder = tmp_path / who
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "s.tcl").write_text(textwrap.dedent(script).lstrip("\n"), encoding="utf-8")
    done = subprocess.run([*cmd, "s.tcl"], cwd=folder, capture_output=True, text=True,
                          check=False, timeout=300)
    return folder, done


def same_as_ns2(tmp_path: Path, script: str) -> str:
    ns_dir, ns = run(tmp_path, "ns", script)
    ac_dir, ac = run(tmp_path, "ac", script)
    assert ns.returncode == 0, ns.stderr
    assert ac.returncode == 0, ac.stderr
    assert ac.stdout == ns.stdout
    trace = (ns_dir / "out.tr").read_text()
    assert trace.count("\n") > 1000  # a real run, data and feedback both ways
    assert (ac_dir / "out.tr").read_text() == trace
    return trace


DUMBBELL = """
    set ns [new Simulator]
    set tr [open out.tr w]
    $ns trace-all $tr
    set n0 [$ns node]
    set n1 [$ns node]
    set n2 [$ns node]
    set n3 [$ns node]
    $ns duplex-link $n0 $n1 10Mb 2ms DropTail
    $ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
    $ns queue-limit $n1 $n2 20
    $ns duplex-link $n2 $n3 10Mb 4ms DropTail
    set tf [$ns create-connection TFRC $n0 TFRCSink $n3 1]
    $ns at 0.0 "$tf start"
    $ns at 9.9 "$tf stop"
    proc dump {} {
        global ns tf
        puts "[$ns now] [$tf set ndatapack_]"
        $ns at [expr [$ns now] + 1.0] dump
    }
    $ns at 0.0 dump
    $ns at 10.0 "flush $tr; exit 0"
    $ns run
"""


@live
def test_slow_start_losses_and_equation_rate_match_ns2(tmp_path: Path) -> None:
    """Slow start from InitRate_, RFC 3390's initial rate, doubling per RTT up to twice the
    receive rate, the first loss (made-up history), then the equation's rate with losses at
    a 20-packet DropTail: every packet and feedback at ns-2's time."""
    trace = same_as_ns2(tmp_path, DUMBBELL)
    assert " d " in trace or trace.startswith("d ") or "\nd " in trace  # losses happened
    assert "tcpFriendCtl" in trace


@live
def test_discount_off_ca_off_and_headers_match_ns2(tmp_path: Path) -> None:
    """Other estimator and sender settings the ns-2 suites use."""
    script = """
        Agent/TFRCSink set discount_ 0
        Agent/TFRCSink set smooth_ 0
        Agent/TFRC set df_ 0.25
        Agent/TFRC set ca_ 0
        Agent/TFRC set useHeaders_ false
    """ + DUMBBELL
    same_as_ns2(tmp_path, script)


@live
def test_an_ftp_feeds_a_data_limited_sender_as_in_ns2(tmp_path: Path) -> None:
    """SndrType_ 1: the FTP's produce and producemore hand packets over; the sender idles
    in between (datalimited_, idleFix_) and resumes at once when data comes."""
    trace = same_as_ns2(tmp_path, """
        Agent/TFRC set SndrType_ 1
        Agent/TFRC set packetSize_ 500
        set ns [new Simulator]
        set tr [open out.tr w]
        $ns trace-all $tr
        set n0 [$ns node]
        set n1 [$ns node]
        set n2 [$ns node]
        $ns duplex-link $n0 $n1 10Mb 2ms DropTail
        $ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
        set tf [$ns create-connection TFRC $n0 TFRCSink $n2 0]
        set ftp [new Application/FTP]
        $ftp attach-agent $tf
        $ns at 0 "$ftp produce 100"
        $ns at 5 "$ftp producemore 100"
        $ns at 10 "flush $tr; exit 0"
        $ns run
    """)
    # 200 data packets each crossing two links: + - r per link.
    data = [x for x in trace.splitlines() if x.startswith("r ") and " tcpFriend " in x]
    assert len(data) == 2 * 200


@pytest.mark.parametrize(("line", "says"), [
    ("Agent/TFRC set printStatus_ 1", "Agent/TFRC variable printStatus_ = 1 is not supported"),
    ("Agent/TFRCSink set algo_ 3", "Agent/TFRCSink algo_ 3"),
    ("Agent/TFRCSink set minlc_ 2", "Agent/TFRCSink variable minlc_ = 2 is not supported"),
])
def test_what_is_not_modelled_is_refused_in_one_line(tmp_path: Path, line: str,
                                                      says: str) -> None:
    _, done = run(tmp_path, "ac", line + "\n" + DUMBBELL)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "s.tcl:" in lines[0], done.stderr


@live
def test_an_errormodule_drops_a_tfrc_flows_packets_as_ns2(tmp_path: Path) -> None:
    """test-suite-friendly.tcl's twoDrops: an ErrorModule bound to the flow's fid drops its
    packets 2 and 3 (ErrorModel/List), the first loss ends slow start."""
    trace = same_as_ns2(tmp_path, DUMBBELL.replace("$ns at 0.0 \"$tf start\"", """
        set em [new ErrorModule Fid]
        set lossy [$ns link $n1 $n2]
        $lossy errormodule $em
        $em default pass
        set errmodel [new ErrorModel/List]
        $errmodel unit pkt
        $errmodel droplist {2 3}
        [$lossy errormodule] insert $errmodel
        [$lossy errormodule] bind $errmodel 1
        $ns at 0.0 "$tf start"
    """))
    first = [x.split() for x in trace.splitlines() if x.startswith("d ")][:2]
    assert [f[10] for f in first] == ["2", "3"], first  # the module's drops, by number


@live
def test_a_udp_agent_receives_as_a_null_agent(tmp_path: Path) -> None:
    """`create-connection UDP $a UDP $b` (test-suite-friendly.tcl's HighLoss): ns-2's
    UdpAgent::recv frees what arrives."""
    same_as_ns2(tmp_path, """
        set ns [new Simulator]
        set tr [open out.tr w]
        $ns trace-all $tr
        set n0 [$ns node]
        set n1 [$ns node]
        $ns duplex-link $n0 $n1 1Mb 10ms DropTail
        set udp [$ns create-connection UDP $n0 UDP $n1 1]
        set cbr [$udp attach-app Traffic/CBR]
        $cbr set rate_ 800Kb
        $ns at 0.1 "$cbr start"
        $ns at 9.0 "$cbr stop"
        $ns at 10.0 "flush $tr; exit 0"
        $ns run
    """)
