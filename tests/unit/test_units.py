"""Exact unit conversion, and an error naming the key for every malformed value."""

from fractions import Fraction

import pytest

from ackclock.errors import ScenarioError
from ackclock.units import parse_int, parse_rate, parse_size, parse_time


@pytest.mark.parametrize(
    ("text", "bps"),
    [
        ("10Mb/s", 10**7),
        ("10Mbps", 10**7),
        ("10Mb", 10**7),  # ns-2 style
        ("10 Mb/s", 10**7),
        ("1Gb/s", 10**9),
        ("1Gbps", 10**9),
        ("100kb/s", 10**5),
        ("100Kb", 10**5),
        ("64kbps", 64_000),
        ("1.5Mb/s", 1_500_000),
        ("1Tb/s", 10**12),
        ("300b/s", 300),
        ("300bps", 300),
        ("300bit/s", 300),
        ("1MB/s", 8 * 10**6),  # bytes, as ns-2's bw_parse reads a B
        ("1MBps", 8 * 10**6),
        ("2.5e6", 2_500_000),
        (2.5e6, 2_500_000),
        (10_000_000, 10**7),
        ("1e25Mb", 10**31),  # ns-2 scripts' "infinite" rate
        ("0.1Mb/s", 100_000),
    ],
)
def test_rates_convert_exactly(text: object, bps: int) -> None:
    assert parse_rate(text, "link[0].rate") == Fraction(bps)


def test_rate_keeps_fractions_of_a_bit() -> None:
    assert parse_rate("1.0000001b/s") == Fraction(10000001, 10**7)


@pytest.mark.parametrize(
    ("value", "ps"),
    [
        ("29ms", 29_000_000_000),
        ("1.5s", 1_500_000_000_000),
        ("100us", 100_000_000),
        ("100\u00b5s", 100_000_000),
        ("10ns", 10_000),
        ("250ps", 250),
        ("2", 2_000_000_000_000),
        (2, 2_000_000_000_000),
        (0.1, 100_000_000_000),  # the float 0.1 means the decimal 0.1, not its binary value
        (0.029, 29_000_000_000),
        ("0.1s", 100_000_000_000),
        ("0s", 0),
        (0, 0),
        ("1e-3s", 1_000_000_000),
        ("29 ms", 29_000_000_000),
        ("1500s", 1_500_000_000_000_000),
        ("0.5ps", 0),  # nearest picosecond, half to even
        ("1.5ps", 2),
    ],
)
def test_times_convert_exactly_to_picoseconds(value: object, ps: int) -> None:
    result = parse_time(value, "run.duration")
    assert result == ps
    assert isinstance(result, int)


@pytest.mark.parametrize(
    ("value", "size"),
    [
        ("1000B", 1000),
        (1460, 1460),
        ("1460", 1460),
        ("64KB", 64_000),
        ("64kB", 64_000),
        ("64KiB", 65_536),
        ("1MB", 10**6),
        ("1MiB", 2**20),
        ("1GB", 10**9),
        ("1GiB", 2**30),
        ("1.5KB", 1500),
        ("0B", 0),
        (1460.0, 1460),
    ],
)
def test_sizes_convert_to_bytes(value: object, size: int) -> None:
    assert parse_size(value, "flow[0].packet_size") == size


def _error(fn, value: object, path: str = "link[1].rate") -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(ScenarioError) as info:
        fn(value, path)
    err = info.value
    assert err.path == path
    text = str(err)
    assert text.startswith(f"{path}: ")
    assert "\n" not in text
    return text


def test_malformed_rate_message_names_key_expectation_and_value() -> None:
    assert _error(parse_rate, "10Mbs").startswith(
        'link[1].rate: expected a rate like "10Mb/s"'
    )
    assert _error(parse_rate, "10Mbs").endswith('got "10Mbs"')


@pytest.mark.parametrize(
    "value",
    ["10Mbs", "fast", "", "Mb/s", "10mb/s", "10 M b/s", "10Mb/s/s", "inf", "nan", "1e",
     "10Mb/", "10kbit", True, None, [10], {"rate": 1}, float("inf"), float("nan")],
)
def test_malformed_rates(value: object) -> None:
    assert "expected a rate like" in _error(parse_rate, value)


@pytest.mark.parametrize("value", ["-10Mb/s", -5, "-1e6", "0", 0, "0Mb/s", 0.0, "0.0Gb/s"])
def test_negative_and_zero_rates(value: object) -> None:
    assert "expected a positive rate" in _error(parse_rate, value)


@pytest.mark.parametrize(
    "value", ["fast", "29sec", "10 min", "1h", "1.5.0s", "", "ms", "29MS", True, None, [1],
              float("inf"), "1s2"]
)
def test_malformed_times(value: object) -> None:
    assert "expected a time like" in _error(parse_time, value, "run.duration")


@pytest.mark.parametrize("value", ["-1s", -0.5, "-29ms"])
def test_negative_times(value: object) -> None:
    assert "expected a non-negative time" in _error(parse_time, value, "run.warmup")


@pytest.mark.parametrize("value", ["big", "10b", "64kiB", "64Kib", "1KBytes", "", True, None])
def test_malformed_sizes(value: object) -> None:
    assert "expected a size like" in _error(parse_size, value, "defaults.tcp.packet_size")


def test_negative_size() -> None:
    text = _error(parse_size, "-1B", "flow[0].packet_size")
    assert "expected a non-negative size" in text


@pytest.mark.parametrize("value", ["1.5B", "1.0001KB", 1460.5])
def test_sizes_must_be_whole_bytes(value: object) -> None:
    assert "whole number of bytes" in _error(parse_size, value, "flow[0].packet_size")


def test_parse_int() -> None:
    assert parse_int(20, "flow[0].window", minimum=1) == 20
    for bad in (True, 1.5, "3", None):
        with pytest.raises(ScenarioError, match=r"^flow\[0\]\.window: expected an integer"):
            parse_int(bad, "flow[0].window", minimum=1)
    with pytest.raises(ScenarioError, match=r"expected an integer >= 1, got 0"):
        parse_int(0, "flow[0].window", minimum=1)


def test_scenario_error_is_one_line_of_file_path_and_message() -> None:
    err = ScenarioError("expected x", path="link[1].rate", file="scenario.toml")
    assert str(err) == "scenario.toml: link[1].rate: expected x"
    assert str(ScenarioError("bad")) == "bad"
    assert str(ScenarioError("bad", path="run")) == "run: bad"
    # A file already named is kept.
    assert ScenarioError("m", file="a.toml").in_file("b.toml").file == "a.toml"
    assert ScenarioError("m").in_file("b.toml").file == "b.toml"
