"""``$defaultRNG``, ``new RNG`` and ``RandomVariable/*``: ns-2.35's random numbers.

ns-2.35 draws from L'Ecuyer's MRG32k3a combined multiple-recursive generator, split into
streams and substreams (P. L'Ecuyer, R. Simard, E. J. Chen, W. D. Kelton, "An Object-Oriented
Random-Number Package with Many Long Streams and Substreams", Operations Research 50(6),
2002; ns-2.35's tools/rng.cc, `RNG::U01`, `RNG::init`, `RNG::reset_next_substream`). Each
``new RNG`` takes the package's next stream (the previous one advanced by 2^127 steps);
tcl/lib/ns-random.tcl makes ``$defaultRNG`` at start-up and seeds it with 1 (every component
of its state 1). The methods are ns-2's: ``uniform``, ``integer`` and ``exponential`` are
its Tcl instprocs on ``next-random`` (`RNG::rand_int` over [0, 2^31 - 1]), ``normal`` and
``lognormal`` its C++ polar method (`RNG::normal`, whose saved second value is shared by all
generators, as in ns-2), and a random variable's ``value`` its `tools/ranvar.cc` formula on
the generator it uses (``$defaultRNG`` unless ``use-rng``).

ns-2's own agents draw from ``$defaultRNG`` too: each TCP agent takes ``boot_time_`` =
uniform(0, ``tcpTick_``) when it is made and again when ``$ns run`` resets it
(`TcpAgent::reset`), which offsets the tick grid its RTT samples are read on
(`TcpAgent::rtt_update`); the front end draws these in ns-2's order (`draw_boot_time`).
``seed 0`` seeds from the clock in ns-2; here from the object's name (reproducible, and
as arbitrary as ns-2's).
"""

from __future__ import annotations

import hashlib
import math
from typing import TYPE_CHECKING, Any

from .errors import Location, Ns2Error, unsupported
from .objects import TclError, TclObject
from .values import fmt_tcl_double, to_float, to_int

if TYPE_CHECKING:
    from .interp import Context

# MRG32k3a (tools/rng.cc): moduli, multipliers and the jump matrices A^(2^76) (next
# substream) and A^(2^127) (next stream) of its two components.
M1 = 4294967087
M2 = 4294944443
NORM = 1.0 / (M1 + 1.0)
A12, A13N, A21, A23N = 1403580, 810728, 527612, 1370589
A1P76 = ((82758667, 1871391091, 4127413238), (3672831523, 69195019, 1871391091),
         (3672091415, 3528743235, 69195019))
A2P76 = ((1511326704, 3759209742, 1610795712), (4292754251, 1511326704, 3889917532),
         (3859662829, 4292754251, 3708466080))
A1P127 = ((2427906178, 3580155704, 949770784), (226153695, 1230515664, 3580155704),
          (1988835001, 986791581, 1230515664))
A2P127 = ((1464411153, 277697599, 1610723613), (32183930, 1464411153, 1022607788),
          (2824425944, 32183930, 2093834863))
MAXINT = 2147483647  # ns-2's MAXINT (2^31 - 1)


def _matmul(a: tuple[tuple[int, ...], ...], b: tuple[tuple[int, ...], ...],
            m: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) % m for j in range(3))
                 for i in range(3))


def _power(a: tuple[tuple[int, ...], ...], n: int, m: int) -> tuple[tuple[int, ...], ...]:
    """a^n mod m by squaring (the jump of n steps, as `RNG::MatPowModM` makes A^(2^76))."""
    result: tuple[tuple[int, ...], ...] = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    while n:
        if n & 1:
            result = _matmul(result, a, m)
        a = _matmul(a, a, m)
        n >>= 1
    return result


# One step of each component as a matrix on its last three values (`RNG::U01`'s recurrences).
A1 = ((0, 1, 0), (0, 0, 1), (M1 - A13N, A12, 0))
A2 = ((0, 1, 0), (0, 0, 1), (M2 - A23N, 0, A21))


def _jump(state: list[int], a1: tuple[tuple[int, ...], ...],
          a2: tuple[tuple[int, ...], ...]) -> list[int]:
    """The state advanced by the jump matrices (exact integers: ns-2's MultModM is exact)."""
    s1, s2 = state[:3], state[3:]
    return ([sum(a * s for a, s in zip(row, s1, strict=True)) % M1 for row in a1]
            + [sum(a * s for a, s in zip(row, s2, strict=True)) % M2 for row in a2])


class Mrg32k3a:
    """One MRG32k3a stream: its current state, and the start of its current substream.
    Once the run starts, ``$defaultRNG``'s state lives in the engine, which draws from it too
    (RED's early drops, TFRC's send gaps: ``attach``)."""

    def __init__(self, seed: list[int]):
        self.start = list(seed)
        self._state = list(seed)
        self.engine: Any = None

    @property
    def state(self) -> list[int]:
        if self.engine is not None:
            return list(self.engine.ns2_rng_state())
        return self._state

    @state.setter
    def state(self, value: list[int]) -> None:
        if self.engine is not None:
            self.engine.use_ns2_rng(value)
        else:
            self._state = list(value)

    def attach(self, engine: Any) -> None:
        """The engine draws from this stream from now on; its state is kept there."""
        engine.use_ns2_rng(self._state)
        self.engine = engine

    def u01(self) -> float:
        """`RNG::U01`, in ns-2's double arithmetic (every intermediate is an exact integer
        below 2^53, so integer arithmetic gives the same values)."""
        s = self.state
        p1 = (A12 * s[1] - A13N * s[0]) % M1
        p2 = (A21 * s[5] - A23N * s[3]) % M2
        self.state = [s[1], s[2], p1, s[4], s[5], p2]
        return ((p1 - p2) * NORM) if p1 > p2 else ((p1 - p2 + M1) * NORM)

    def next_random(self) -> int:
        """`RNG::next` = rand_int(0, MAXINT): a uniform integer in [0, 2^31 - 1]."""
        return int((MAXINT + 1) * self.u01())

    def next_substream(self) -> None:
        self.start = _jump(self.start, A1P76, A2P76)
        self.state = list(self.start)


class Streams:
    """The package's next stream seed (`RNG::next_seed_`), per script run; and the saved
    second value of `RNG::normal` (a static in ns-2, shared by every generator)."""

    def __init__(self) -> None:
        self.next_seed = [12345] * 6
        self.normal_saved: float | None = None

    def take(self) -> list[int]:
        """`RNG::init`: the next stream, and the package's seed advanced past it."""
        seed = self.next_seed
        self.next_seed = _jump(seed, A1P127, A2P127)
        return list(seed)


class Rng(TclObject):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.stream = Mrg32k3a(ctx.rng_streams.take())
        # The seed the script gave (ns-2.35's start-up `seed 1` aside): the engine's own
        # random numbers (loss models, RED) are seeded from it.
        self.seed_value = 12345

    def reseed(self, value: int) -> None:
        """`RNG::set_seed(long)`: the package seed becomes (value x 6), this generator takes
        it as its stream (`init`), and the package moves on past it."""
        streams = self.ctx.rng_streams
        streams.next_seed = [value] * 6
        engine = self.stream.engine
        self.stream = Mrg32k3a(streams.take())
        if engine is not None:
            self.stream.attach(engine)

    def cmd_seed(self, *args: str) -> int:
        if not args:
            return self.stream.state[0]
        if len(args) == 2:
            # `seed raw N` is `seed N`; `seed heuristic x` is `seed 0`.
            if args[0] not in ("raw", "heuristic"):
                raise Ns2Error(unsupported(f"RNG seed {args[0]}"))
            args = ("0",) if args[0] == "heuristic" else args[1:]
        try:
            value = to_int(args[0], "a seed")
        except ValueError as e:
            raise TclError(str(e)) from None
        if value < 0 or value >= MAXINT:
            raise TclError("Setting random number seed to known bad value.")
        self.seed_value = value
        if value == 0:
            # ns-2 seeds from the time of day and discards 128 values (HEURISTIC_SEED_SOURCE).
            digest = hashlib.sha256(f"{self.handle}:heuristic".encode()).digest()
            self.reseed(int.from_bytes(digest[:4], "big") & 0x7FFFFFFF or 1)
            for _ in range(128):
                self.stream.next_random()
        else:
            self.reseed(value)
        return value

    def cmd_next_random(self) -> int:
        return self.stream.next_random()

    def cmd_next_substream(self) -> None:
        self.stream.next_substream()

    def cmd_reset_start_substream(self) -> None:
        self.stream.state = list(self.stream.start)

    def cmd_uniform(self, a: str, b: str) -> str:
        # RNG instproc uniform: a + (b - a) * (next-random * 1.0 / 0x7fffffff)
        lo, hi = to_float(a), to_float(b)
        return fmt_tcl_double(lo + ((hi - lo) * (self.stream.next_random() * 1.0 / MAXINT)))

    def cmd_exponential(self, mean: str = "1.0") -> str:
        # RNG instproc exponential: -mu * log((next-random + 1.0) / (0x7fffffff + 1.0))
        mu = to_float(mean)
        return fmt_tcl_double(-mu * math.log((self.stream.next_random() + 1.0) / (MAXINT + 1.0)))

    def cmd_integer(self, n: str) -> int:
        return self.stream.next_random() % abs(to_int(n))

    def uniform(self) -> float:
        """`RNG::uniform()` (C++): one U01 draw."""
        return self.stream.u01()

    def normal(self, avg: float, std: float) -> float:
        """`RNG::normal`: the polar method, its second value saved for the next call."""
        if std == 0:
            return avg
        streams = self.ctx.rng_streams
        if streams.normal_saved is None:
            while True:
                s1 = 2 * self.uniform() - 1
                s2 = 2 * self.uniform() - 1
                rad = s1 * s1 + s2 * s2
                if rad < 1:
                    break
            rad = math.sqrt((-2 * math.log(rad)) / rad)
            streams.normal_saved = s2 * rad
            return s1 * rad * std + avg
        saved, streams.normal_saved = streams.normal_saved, None
        return saved * std + avg

    def cmd_normal(self, mean: str, std: str) -> str:
        return f"{self.normal(to_float(mean), to_float(std)):g}"

    def cmd_lognormal(self, mean: str, std: str) -> str:
        return f"{math.exp(self.normal(to_float(mean), to_float(std))):g}"

    def cmd_test(self) -> None:
        """`$rng test`: ns-2.35's `RNGTest::verbose_mil` (tools/rng.cc). Two generators made
        as `RNG(source, seed)` makes them, from raw seed 188312339 and from predefined seed 1
        (which is 188312339 in `RNG::set_seed`'s table; the table itself is not reproduced,
        so `seed predef N` stays unsupported), each drawing 5 million values
        (`uniform_positive_int`); the first 100 and every millionth go to temp.rands, each as
        `%10lu `, one line per generator. The millions between are jumped over (A^n mod m),
        which gives the states the draws would."""
        lines = []
        for label in ("default: ", "predef source  1: "):
            streams = self.ctx.rng_streams
            streams.next_seed = [188312339] * 6  # `RNG::set_seed(long)`: the package seed
            gen = Mrg32k3a(streams.take())  # `RNG::init`: the stream, the package moves on
            drawn = [gen.next_random() for _ in range(100)]
            done = 100
            for k in range(1, 5):
                s = gen.state
                j1, j2 = _power(A1, k * 1_000_000 - done, M1), _power(A2, k * 1_000_000 - done, M2)
                gen.state = _jump(s, j1, j2)
                drawn.append(gen.next_random())
                done = k * 1_000_000 + 1
            lines.append(label + "".join(f"{r:10d} " for r in drawn) + "\n")
        # C's fopen/fprintf into temp.rands, through Tcl's open so that --safe's rules hold.
        tcl = self.ctx.tcl
        chan = tcl.call("open", "temp.rands", "w")
        tcl.call("puts", "-nonewline", chan, "".join(lines))
        tcl.call("close", chan)


def draw_boot_time(ctx: Context) -> float:
    """A TCP agent's ``boot_time_`` as a fraction of ``tcpTick_`` (`TcpAgent::reset`:
    ``Random::uniform(tcp_tick_)``), drawn from the default generator."""
    return ctx.default_rng().uniform()


class RandomVariable(TclObject):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.rng: Rng | None = None

    def cmd_use_rng(self, rng: str) -> None:
        r = self.ctx.lookup(rng, Rng, "an RNG")
        assert isinstance(r, Rng)
        self.rng = r

    def cmd_value(self) -> str:
        # RandomVariable::command "value": resultf("%6e", value()).
        return f"{self.value():6e}"

    def value(self) -> float:
        """``RandomVariable::value()``: tools/ranvar.cc's formulas on the generator's C++
        methods (what C++ objects draw, unrounded)."""
        g = self.rng if self.rng is not None else self.ctx.default_rng()
        v = self.vars
        kind = self.cls.split("/", 1)[1]
        if kind == "Uniform":
            lo, hi = to_float(v["min_"]), to_float(v["max_"])
            x = lo + (hi - lo) * g.uniform()
        elif kind == "Exponential":
            x = to_float(v["avg_"]) * -math.log(g.uniform())
        elif kind == "Constant":
            x = to_float(v["val_"])
        elif kind == "Normal":
            x = g.normal(to_float(v["avg_"]), to_float(v["std_"]))
        elif kind == "Pareto":
            shape = to_float(v["shape_"])
            scale = to_float(v["avg_"]) * (shape - 1) / shape
            x = scale * (1.0 / math.pow(g.uniform(), 1.0 / shape))
        elif kind == "HyperExponential":
            x = self._hyperexponential(to_float(v["avg_"]), to_float(v["cov_"]))
        else:
            raise Ns2Error(unsupported(self.cls))
        return x

    def _hyperexponential(self, avg: float, cov: float) -> float:
        """HyperExponentialRandomVariable::value (tools/ranvar.cc): a mix, with alpha_ 0.95, of
        two exponentials with the mean avg_ and coefficient of variation cov_, drawn from
        ns-2's default generator (`Random::uniform`, `Random::exponential`), whatever
        generator the variable was given."""
        alpha = 0.95
        g = self.ctx.default_rng()
        temp = math.sqrt((cov * cov - 1.0) / (2.0 * alpha * (1.0 - alpha)))
        if g.uniform() < alpha:
            mean = avg - temp * (1.0 - alpha) * avg
        else:
            mean = avg + temp * alpha * avg
        return (-mean) * math.log(g.uniform())

    def cmd_test(self, count: str) -> None:
        """``RandomVariable instproc test count`` (tcl/lib/ns-random.tcl): count values,
        one per line on stdout."""
        for _ in range(to_int(count)):
            self.ctx.tcl.call("puts", "stdout", self.cmd_value())
