"""``$defaultRNG`` and ``RandomVariable/*``: random numbers for the script's own use.

ns-2 draws from MRG32k3a streams; ackclock draws from Python's Mersenne Twister seeded from
the run seed and the object's creation order, so values are reproducible but not ns-2's.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .errors import Location, Ns2Error, unsupported
from .objects import TclError, TclObject
from .values import fmt_double, to_float, to_int

if TYPE_CHECKING:
    from .interp import Context


class Rng(TclObject):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.seed_value = 12345  # ns-2's default seed
        self.substream = 0
        self.gen = random.Random(self._key())

    def _key(self) -> str:
        return f"{self.handle}:{self.seed_value}:{self.substream}"

    def cmd_seed(self, value: str = "") -> int:
        if value:
            try:
                self.seed_value = to_int(value, "a seed")
            except ValueError as e:
                raise TclError(str(e)) from None
            if self.seed_value < 0:
                raise TclError(f"expected a non-negative seed, got {value}")
            self.gen = random.Random(self._key())
        return self.seed_value

    def cmd_next_substream(self) -> None:
        self.substream += 1
        self.gen = random.Random(self._key())

    def cmd_reset_start_substream(self) -> None:
        self.substream = 0
        self.gen = random.Random(self._key())

    def cmd_uniform(self, a: str, b: str) -> str:
        return fmt_double(self.gen.uniform(to_float(a), to_float(b)))

    def cmd_exponential(self, mean: str = "1") -> str:
        return fmt_double(self.gen.expovariate(1 / to_float(mean)))

    def cmd_integer(self, n: str) -> int:
        return self.gen.randrange(to_int(n))

    def cmd_normal(self, mean: str, std: str) -> str:
        return fmt_double(self.gen.gauss(to_float(mean), to_float(std)))


class RandomVariable(TclObject):
    def __init__(self, ctx: Context, cls: str, handle: str, where: Location, args: list[str]):
        super().__init__(ctx, cls, handle, where, args)
        self.rng: Rng | None = None

    def _gen(self) -> random.Random:
        if self.rng is None:
            rng = self.ctx.default_rng()
            # Each variable has its own stream, keyed by its creation order.
            self._own = random.Random(f"{rng._key()}:{self.handle}")
            self.rng = rng
        return self._own

    def cmd_use_rng(self, rng: str) -> None:
        r = self.ctx.lookup(rng, Rng, "an RNG")
        assert isinstance(r, Rng)
        self.rng = r
        self._own = random.Random(f"{r._key()}:{self.handle}")

    def cmd_value(self) -> str:
        g = self._gen()
        v = self.vars
        kind = self.cls.split("/", 1)[1]
        if kind == "Uniform":
            x = g.uniform(to_float(v["min_"]), to_float(v["max_"]))
        elif kind == "Exponential":
            x = g.expovariate(1 / to_float(v["avg_"]))
        elif kind == "Constant":
            x = to_float(v["val_"])
        elif kind == "Normal":
            x = g.gauss(to_float(v["avg_"]), to_float(v["std_"]))
        elif kind == "Pareto":
            shape = to_float(v["shape_"])
            scale = to_float(v["avg_"]) * (shape - 1) / shape
            x = scale * g.paretovariate(shape)
        else:
            raise Ns2Error(unsupported(self.cls))
        return fmt_double(x)
