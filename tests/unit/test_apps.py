"""Applications as typed objects (ackclock.apps) beside the keyword form of Network.tcp/udp:
each object resolves to the same engine document as the keywords it stands for, and a mistake
in one is reported as the keyword form's is, one line naming the flow's app key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ackclock as ac

ROOT = Path(__file__).resolve().parents[2]


def _net() -> ac.Network:
    net = ac.Network("apps")
    net.nodes("s", "d")
    net.link("s", "d", rate="10Mb/s", delay="5ms")
    return net


def _flows(build: Any) -> list[dict[str, Any]]:
    net = _net()
    build(net)
    return list(ac.resolve(net.scenario(duration="1s"))["flows"])


TRACE = str(ROOT / "examples" / "traces" / "video.txt")
TMIX = str(ROOT / "examples" / "tmix" / "sample.vec")

PAIRS = {
    "ftp": (lambda n: n.tcp("f", "s", "d", size="1MB", start="1s", stop="9s"),
            lambda n: n.tcp("f", "s", "d", app=ac.Ftp(size="1MB", start="1s", stop="9s"))),
    "ftp two-way": (
        lambda n: n.tcp("f", "s", "d", size=1000, reply_size="endless", two_way=True,
                        exchange="concurrent"),
        lambda n: n.tcp("f", "s", "d", two_way=True,
                        app=ac.Ftp(size=1000, reply_size="endless", exchange="concurrent"))),
    "cbr over tcp": (
        lambda n: n.tcp("f", "s", "d", app="cbr", rate="1Mb/s", write_size=500, window=50),
        lambda n: n.tcp("f", "s", "d", app=ac.Cbr(rate="1Mb/s", packet_size=500), window=50)),
    "cbr over udp": (
        lambda n: n.udp("u", "s", "d", rate="1Mb/s", packet_size=500, random=True),
        lambda n: n.udp("u", "s", "d", app=ac.Cbr(rate="1Mb/s", packet_size=500, random=True))),
    "onoff": (
        lambda n: n.udp("u", "s", "d", app="onoff", interval="1ms", packet_size=200,
                        on={"exponential": "500ms"}, off="1s"),
        lambda n: n.udp("u", "s", "d", app=ac.OnOff(on={"exponential": "500ms"}, off="1s",
                                                    interval="1ms", packet_size=200))),
    "poisson": (
        lambda n: n.udp("u", "s", "d", app="poisson", rate="2Mb/s", packet_size=1000),
        lambda n: n.udp("u", "s", "d", app=ac.Poisson(rate="2Mb/s", packet_size=1000))),
    "trace": (
        lambda n: n.udp("u", "s", "d", app="trace", file=TRACE),
        lambda n: n.udp("u", "s", "d", app=ac.Replay(file=TRACE))),
    "tmix": (
        lambda n: n.tcp("f", "s", "d", tmix=TMIX, tmix_losses=False),
        lambda n: n.tcp("f", "s", "d", app=ac.Tmix(file=TMIX, losses=False))),
}


@pytest.mark.parametrize("name", PAIRS)
def test_an_object_resolves_as_its_keywords(name: str) -> None:
    keywords, obj = PAIRS[name]
    assert _flows(obj) == _flows(keywords)


def test_a_mistake_in_an_object_names_the_key() -> None:
    net = _net()
    net.udp("u", "s", "d", app=ac.Cbr(rate="fast", packet_size=100))
    with pytest.raises(ac.ScenarioError) as e:
        net.run(duration="1s")
    assert str(e.value).startswith("flow[0].app.rate: expected a rate")


def test_an_object_and_its_keywords_together_are_refused() -> None:
    net = _net()
    with pytest.raises(ac.ScenarioError) as e:
        net.udp("u", "s", "d", app=ac.Cbr(rate="1Mb/s", packet_size=100), rate="2Mb/s")
    assert str(e.value) == "flow[0].app: give rate in Cbr(...), not beside it"


def test_objects_run() -> None:
    net = _net()
    net.tcp("bulk", "s", "d", app=ac.Ftp(size="200KB"))
    net.udp("voice", "s", "d", app=ac.Cbr(rate="64kb/s", packet_size=160))
    res = net.run(duration="2s")
    flows = res.flows.set_index("flow")
    assert flows.loc["bulk", "completion_s"] > 0
    assert flows.loc["voice", "throughput_mbps"] == pytest.approx(0.064, rel=0.02)


def test_each_application_class_has_its_kinds_keys_of_the_schema() -> None:
    """The objects are the scenario model's applications (Flow.app): each class has exactly
    the keys schema.APP gives its kind (besides start and stop; random_ is ns-2's spelling of
    random, read by the loader), so the file's tables, the keyword form and the objects say
    one thing."""
    from dataclasses import fields

    from ackclock import schema
    from ackclock.apps import BY_KIND

    assert set(BY_KIND) == set(schema.APP_KINDS)
    for kind, cls in BY_KIND.items():
        keys = {f.name for f in fields(cls)} - {"start", "stop"}
        assert keys == set(schema.APP[kind]) - {"random_"}, kind
        assert set(schema.APP_COMMON) == {"kind", "start", "stop"}


def test_a_scenario_files_app_table_becomes_its_object(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text("""
[run]
duration = "1s"
[[node]]
name = "s"
[[node]]
name = "d"
[[link]]
from = "s"
to = "d"
rate = "10Mb/s"
delay = "5ms"
[[flow]]
name = "c"
kind = "udp"
from = "s"
to = "d"
app = { kind = "cbr", rate = "1Mb/s", packet_size = 100, random_ = 1 }
[[flow]]
name = "t"
kind = "tcp"
from = "s"
to = "d"
""")
    sc = ac.load_scenario(f)
    assert sc.flows[0].app == ac.Cbr(rate="1Mb/s", packet_size=100, random=True)
    assert sc.flows[1].app == ac.Ftp()
