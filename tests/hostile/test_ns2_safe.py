"""``ackclock ns2 --safe`` (issue 32, item 9): a script runs under Tcl's safe-interpreter rules
(python/ackclock/ns2/safe.py): no exec, sockets or loading, files opened or sourced only
inside the current folder; what it may do gives the same output as without --safe."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _hostile import Cli, snapshot

SCRIPT = """\
set ns [new Simulator]
set tr [open out.tr w]
$ns trace-all $tr
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [new Agent/TCP]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
proc finish {} {
    global ns tr
    $ns flush-trace
    close $tr
    puts "done [expr {1.0/3}]"
    exit 0
}
$ns at 0.0 "$ftp start"
$ns at 0.5 "finish"
$ns run
"""


def test_a_script_that_keeps_to_its_folder_runs_the_same(cli: Cli, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for d in ("a", "b"):
        (tmp_path / d / "s.tcl").write_text(SCRIPT)
    cli.cwd = tmp_path / "a"
    assert cli("ns2", "s.tcl")[0] == 0
    plain = capsys.readouterr().out
    cli.cwd = tmp_path / "b"
    assert cli("ns2", "--safe", "s.tcl") == (0, [])
    assert (tmp_path / "a" / "out.tr").read_bytes() == (tmp_path / "b" / "out.tr").read_bytes()
    del plain


ESCAPES = {
    "exec": ('exec touch /tmp/h32-pwned', 'invalid command name "exec"'),
    "exec in an event": ('$ns at 0.1 "exec touch pwned"', 'invalid command name "exec"'),
    "open a pipe": ('open "|touch pwned" w', "--safe runs no commands"),
    "open absolute": ("open /etc/passwd r", "--safe allows only relative paths"),
    "open absolute for writing": ("open /tmp/h32-pwned w", "--safe allows only relative"),
    "open ..": ("open ../outside w", "--safe allows only relative paths"),
    "open through a link": ("open link/x w", "leads out through a link"),
    "source absolute": ("source /etc/hostname", "--safe allows only relative paths"),
    "source ..": ("source ../x.tcl", "--safe allows only relative paths"),
    "socket": ("socket localhost 80", 'invalid command name "socket"'),
    "load": ("load libc.so.6", 'invalid command name "load"'),
    "cd": ("cd /", 'invalid command name "cd"'),
    "glob": ("glob /*", 'invalid command name "glob"'),
    "file delete": ("file delete s.tcl", "file"),
    "file mkdir": ("file mkdir newdir", "file"),
    "interp invokehidden": ("interp invokehidden {} exec touch pwned",
                            "not allowed to invoke hidden"),
    "interp expose": ("interp expose {} exec", "expose"),
    "pwd": ("pwd", 'invalid command name "pwd"'),
}


@pytest.mark.parametrize("name", list(ESCAPES))
def test_a_script_cannot_leave_its_folder(cli: Cli, tmp_path: Path, name: str) -> None:
    line, expected = ESCAPES[name]
    work = tmp_path / "work"
    work.mkdir()
    os.symlink(tmp_path, work / "link")
    (work / "s.tcl").write_text(SCRIPT.replace("$ns run", f"{line}\n$ns run"))
    cli.cwd = work
    before = snapshot(tmp_path)
    status, lines = cli("ns2", "--safe", "s.tcl")
    assert status == 1, lines
    assert len(lines) == 1 and lines[0].startswith("ackclock: error: s.tcl:"), lines
    assert expected in lines[0], lines
    after = snapshot(tmp_path)
    # Only the script's own trace file may have appeared, inside its folder.
    assert set(after) - set(before) <= {"work/out.tr"}
    assert not Path("/tmp/h32-pwned").exists() and not (work / "pwned").exists()
    assert (work / "s.tcl").is_file()


def test_the_script_itself_may_be_anywhere(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "work").mkdir()
    (tmp_path / "scripts" / "s.tcl").write_text(SCRIPT)
    cli.cwd = tmp_path / "work"
    assert cli("ns2", "--safe", str(tmp_path / "scripts" / "s.tcl")) == (0, [])
    assert (tmp_path / "work" / "out.tr").is_file()
