"""IKRSimLib's TCP byte for byte on seed 002's one-source model: do segments shorter than the
MSS explain the study's IKRSimLib lead (+3%, +30%, +49% over ns-2 at p = 0.01, 0.05, 0.1)?

ackclock's `ikr` profile counts its windows in bytes but sends whole segments only; with it IKR's
TCP comes out *behind* ns-2 at high loss (docs/examples/seed002.md). The study names IKR's finer
granularity (a fractional window goes out as a shorter segment) as the cause of its gap. The
engine's sequence space is in segments, so this script answers the question outside it: a small
discrete-event model of seed 002's one-source network (its Appendix B parameter file) with a TCP
that follows the IKR TCP Library's source, as contributed to IT++ (`itpp/protocol/tcp.cpp`,
"Copyright (c) 2000-2004 IKR (formerly IND), University of Stuttgart"), rule by rule:

- sender, all in bytes: `TCP_Sender::HandleACK` (duplicate counting with
  `IgnoreDupACKOnTORecovery` + `CarefulMulFastRtxAvoidance`, fast retransmit at the third
  duplicate with ssthresh + 3 MSS and + MSS per further duplicate (`RenoConservation`), Reno's
  `FinishFastRecovery` back to ssthresh on the next new ACK, growth per new ACK: slow start
  + MSS, congestion avoidance + max(MSS * MSS / cwnd, 1) in integer bytes, capped at MaxCWnd),
  `ReduceSSThresh` (careful: max(2 MSS, min(cwnd, flight, rwnd) / 2)), `HandleRtxTimeout`
  (backoff doubling to MaxBackoff, cwnd = MSS, go-back-N), Karn's rule and the delayed backoff
  reset (`fPendingBackoffReset`), `UpdateRTTVariables` / `CalcRTOValue` (SRTT + 4 RTTVAR rounded
  up to TimerGranularity, times the backoff, at most MaxRTO), `IdleCheck`;
- segment formation, the question here: `GetNextSegmentSize` cuts a segment at
  min(data queued, begin + MSS, SND.UNA + send window), and `SendNewData`'s silly-window and
  Nagle test (RFC 1122) sends it if min(queued, usable window) >= MSS, or (Nagle off) if all the
  queued data fits the usable window, or it is at least half the largest window the receiver
  advertised; otherwise the SWSA timer (SWSATimerValue) sends it later;
- receiver: `TCP_Receiver::ReceiveDataPacket` (out of order: an ACK at once),
  `SendACK` (delayed ACK: an ACK once the window moved by 2 MSS *bytes* or 35% of the buffer,
  else after ACKDelayTime; the receiver's silly-window rule for the advertised window), the
  application reading every in-order byte at once (UserBlockProcessingDelay 0).

The application is the study's "greedy source, ... that delivers to the TCP agent always the
amount of data that it can send according to the TCP algorithm". IKRSimLib's GreedyGenerator
is not public, so two readings are run (`--supply`):

- `blocks`: the socket always holds data (blocks of one MSS, the IT++ generator's default); the
  silly-window test then holds back a fractional window, and segments stay whole (a short one
  only when the 5 s SWSA timer fires): the reading ackclock's `ikr` profile implements;
- `window`: the generator hands over exactly what the window allows, so the queued data always
  fits the usable window and the fractional part goes out at once as a short segment.

Throughput as ackclock reports it (wire bytes of every data packet arriving at the receiver,
retransmissions included) and, since the study's IKRSimLib meter "counts the arrived packets",
also as arrived packets x 1500 bytes (the two agree when every segment is whole).

    python validation/ikr_segments.py [--seconds 1500] [--seeds 5] [--out results/ikr_segments]

Beside the model it runs the same network in ackclock with the `ikr` and `ns2` profiles (the
latter stands for ns-2.35, which it matches within 1.3% on this model: docs/validation.md), on
the same seeds, and writes the table of docs/examples/seed002.md.

Seed 002's network: one sender on a 250 byte/ms (2 Mb/s) access server with an unlimited
buffer, Bernoulli loss p on the data path, the 1250 byte/ms bottleneck with 50 ms delay, ACKs
back through a 1250 byte/ms server with 50 + 40/1250 + 40/250 ms delay (the parameter file's
compensation for ns-2's transmission times), ideal links at the receiver; MSS 1460, 40 bytes of
header, InitialCWnd 2920, InitialSSThresh = MaxCWnd = 46720, InitialRTT 1 s, granularity 200 ms,
SWSATimerValue 5 s, MaxRTO 10 s, MaxBackoff 64, Nagle off, go-back-N, Karn, receiver buffer
65636 bytes, delayed ACK 200 ms, the generator's start uniform in [0, 100] ms, 1500 s.
"""

from __future__ import annotations

import argparse
import heapq
import math
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

MSS = 1460
HEADER = 40
INITIAL_CWND = 2920
MAX_CWND = 46720  # also InitialSSThresh
INITIAL_RTO = 1.0
GRANULARITY = 0.2
SWSA_TIMER = 5.0
MAX_RTO = 10.0
MAX_BACKOFF = 64
DUPACKS = 3
RCV_BUFFER = 65636
ACK_DELAY = 0.2
ACCESS_RATE = 250_000.0  # bytes per second
BOTTLENECK_RATE = 1_250_000.0
DATA_DELAY = 0.050
ACK_DELAY_LINK = 0.050 + 40 / 1_250_000 + 40 / 250_000


class Sim:
    """A minimal event list: (time, order) keys, callbacks, cancellable timers by generation."""

    def __init__(self) -> None:
        self.now = 0.0
        self._q: list[tuple[float, int, Callable[[], None]]] = []
        self._n = 0

    def at(self, t: float, fn: Callable[[], None]) -> None:
        self._n += 1
        heapq.heappush(self._q, (t, self._n, fn))

    def run(self, until: float) -> None:
        while self._q and self._q[0][0] <= until:
            t, _, fn = heapq.heappop(self._q)
            self.now = t
            fn()
        self.now = until


class Timer:
    """IKR's timer: Set re-arms (a pending expiry is dropped), Reset cancels."""

    def __init__(self, sim: Sim, fire: Callable[[], None]) -> None:
        self.sim, self.fire, self.gen, self.pending = sim, fire, 0, False

    def set(self, delay: float) -> None:
        self.gen += 1
        self.pending = True
        g = self.gen
        self.sim.at(self.sim.now + delay, lambda: self._expire(g))

    def reset(self) -> None:
        self.gen += 1
        self.pending = False

    def _expire(self, g: int) -> None:
        if g == self.gen and self.pending:
            self.pending = False
            self.fire()


class Server:
    """A FIFO server of `rate` bytes/s (unlimited buffer) followed by a fixed delay."""

    def __init__(self, sim: Sim, rate: float, delay: float,
                 deliver: Callable[[tuple[int, int]], None]) -> None:
        self.sim, self.rate, self.delay, self.deliver = sim, rate, delay, deliver
        self.free_at = 0.0

    def send(self, pkt: tuple[int, int], size: int) -> None:
        start = max(self.sim.now, self.free_at)
        self.free_at = start + size / self.rate
        self.sim.at(self.free_at + self.delay, lambda: self.deliver(pkt))


@dataclass
class Stats:
    arrived_packets: int = 0
    arrived_wire_bytes: int = 0
    short_segments: int = 0
    sent_segments: int = 0
    timeouts: int = 0
    fast_retransmits: int = 0
    sizes: list[int] = field(default_factory=list)


class Receiver:
    """TCP_Receiver with the parameter file's values; the application reads at once."""

    def __init__(self, sim: Sim, send_ack: Callable[[int, int], None], stats: Stats) -> None:
        self.sim, self.send_ack, self.stats = sim, send_ack, stats
        self.first_byte = 0  # everything below was read by the application
        self.blocks: list[list[int]] = []  # received, unread [begin, end), sorted, disjoint
        self.adv_nxt = 0
        self.adv_wnd = 0
        self.delack = Timer(sim, lambda: self.ack(True))

    def next_expected(self) -> int:
        if self.blocks and self.blocks[0][0] <= self.first_byte:
            return self.blocks[0][1]
        return self.first_byte

    def first_block_size(self) -> int:
        if self.blocks and self.blocks[0][0] == self.first_byte:
            return self.blocks[0][1] - self.blocks[0][0]
        return 0

    def write(self, b: int, e: int) -> None:
        b = max(b, self.first_byte)
        if e <= b:
            return
        merged: list[list[int]] = []
        for blk in self.blocks:
            if blk[1] < b or blk[0] > e:
                merged.append(blk)
            else:  # overlapping or contiguous: combine
                b, e = min(b, blk[0]), max(e, blk[1])
        merged.append([b, e])
        merged.sort()
        self.blocks = merged

    def receive(self, seg: tuple[int, int]) -> None:
        b, e = seg
        self.stats.arrived_packets += 1
        self.stats.arrived_wire_bytes += e - b + HEADER
        nxt = self.next_expected()
        out_of_order = b > nxt or e <= nxt
        self.write(b, e)
        if out_of_order:
            self.ack(True)
        else:
            # IndicateUserMessage, then the application's get_user_message: it reads the first
            # block, and the read sends the ACK (ACKOnBufferRead).
            while self.first_block_size() > 0:
                n = self.first_block_size()
                self.blocks.pop(0)
                self.first_byte += n
                self.ack(False)

    def ack(self, conditionless: bool) -> None:
        nxt = self.next_expected()
        if (conditionless or nxt - self.adv_nxt >= 2 * MSS
                or nxt - self.adv_nxt >= int(0.35 * RCV_BUFFER)):
            if (self.adv_nxt + self.adv_wnd + min(RCV_BUFFER // 2, MSS)
                    <= self.first_byte + RCV_BUFFER):
                self.adv_wnd = RCV_BUFFER - self.first_block_size()
            else:
                self.adv_wnd = self.adv_nxt + self.adv_wnd - nxt
            self.adv_nxt = nxt
            if self.delack.pending:
                self.delack.reset()
            self.send_ack(self.adv_nxt, self.adv_wnd)
        elif not self.delack.pending:
            self.delack.set(ACK_DELAY)


class Sender:
    """TCP_Sender (Reno) with the parameter file's values; `supply` is the generator."""

    def __init__(self, sim: Sim, supply: str, send_seg: Callable[[int, int], None],
                 stats: Stats, real: bool = False) -> None:
        self.sim, self.supply, self.send_seg, self.stats = sim, supply, send_seg, stats
        # IKR's fCWnd and fSSThresh are unsigned bytes; `real` does their arithmetic in real
        # numbers instead, as the engine's byte-counted window (f64) does.
        self.real = real
        self.una = self.nxt = self.max = 0
        self.user_nxt = 0
        self.cwnd, self.ssthresh = INITIAL_CWND, MAX_CWND
        self.rec_wnd, self.max_rec_wnd = MAX_CWND, 0
        self.dupacks = 0
        self.recovery_dup = 0
        self.recovery_to = 0
        self.backoff, self.pending_reset = 1, False
        self.srtt = self.rttvar = 0.0
        self.rto_est = INITIAL_RTO
        self.rttm_pending, self.rttm_byte, self.rttm_start = False, 0, 0.0
        self.tim_una = 0
        self.last_send = 0.0
        self.rtx = Timer(sim, self.on_timeout)
        self.swsa = Timer(sim, lambda: self.send_new(True))

    def send_window(self) -> int:
        return int(min(self.rec_wnd, MAX_CWND, self.cwnd))

    def next_size(self, begin: int) -> int:
        """GetNextSegmentSize: the application's data, one MSS, the window's edge."""
        if self.user_nxt < begin + MSS:
            if self.supply == "blocks":
                while self.user_nxt < begin + MSS:
                    self.user_nxt += MSS
            else:  # exactly what the window lets TCP send, and never less than it had
                self.user_nxt = max(self.user_nxt,
                                    min(begin + MSS, self.una + self.send_window()))
        end = min(self.user_nxt, begin + MSS, self.una + self.send_window())
        return max(0, end - begin)

    def rto(self) -> float:
        return min(self.backoff * self.rto_est * (1 + 1e-8), MAX_RTO)

    def set_rtx(self) -> None:
        self.rtx.set(self.rto())
        self.tim_una = self.una

    def transmit(self, b: int, e: int) -> None:
        self.stats.sent_segments += 1
        if e - b < MSS:
            self.stats.short_segments += 1
        self.last_send = self.sim.now
        self.send_seg(b, e)

    def send_new(self, skip_swsa: bool = False) -> None:
        """SendNewData."""
        if self.max == self.una and self.sim.now - self.last_send > self.rto():
            self.cwnd = INITIAL_CWND  # IdleCheck (RestartAfterIdle)
        while True:
            size = self.next_size(self.nxt)
            if size <= 0:
                break
            queued = self.user_nxt - self.nxt
            usable = max(0, self.una + self.send_window() - self.nxt)
            passes = (min(queued, usable) >= MSS
                      or queued <= usable  # Nagle off
                      or min(queued, usable) >= self.max_rec_wnd / 2
                      or skip_swsa)
            if not passes:
                if not self.swsa.pending:
                    self.swsa.set(SWSA_TIMER)
                break
            b, e = self.nxt, self.nxt + size
            if not self.rttm_pending and self.nxt >= self.max:
                self.rttm_start, self.rttm_byte, self.rttm_pending = self.sim.now, b, True
            self.nxt = e
            self.max = max(self.max, self.nxt)
            if skip_swsa:
                skip_swsa = False
            elif self.swsa.pending:
                self.swsa.reset()
            if not self.rtx.pending:
                self.set_rtx()
            self.transmit(b, e)
        if not self.rtx.pending and self.max > self.una:
            if self.pending_reset:
                self.backoff, self.pending_reset = 1, False
            self.set_rtx()

    def una_retransmit(self) -> None:
        size = self.next_size(self.una)
        if size <= 0:
            return
        b, e = self.una, self.una + size
        self.nxt = max(self.nxt, e)
        self.max = max(self.max, self.nxt)
        if b <= self.rttm_byte and self.rttm_pending:  # Karn
            self.rttm_pending = False
        self.set_rtx()
        self.transmit(b, e)

    def reduce_ssthresh(self) -> None:
        w = min(self.cwnd, self.max - self.una, self.rec_wnd)
        self.ssthresh = max(2 * MSS, w / 2 if self.real else w // 2)

    def finish_fast_recovery(self) -> None:
        self.dupacks = 0
        self.cwnd = self.ssthresh

    def on_ack(self, ack: int, wnd: int) -> None:
        if ack < self.una:
            return
        self.rec_wnd = wnd
        self.max_rec_wnd = max(self.max_rec_wnd, wnd)
        if ack == self.una:
            ignore = self.max == self.una or self.una <= self.recovery_to
            if not ignore:
                self.dupacks += 1
                if self.dupacks == DUPACKS:
                    self.stats.fast_retransmits += 1
                    self.recovery_dup = self.max
                    self.reduce_ssthresh()
                    self.cwnd = self.ssthresh + DUPACKS * MSS
                    self.una_retransmit()
                elif self.dupacks > DUPACKS:
                    self.cwnd += MSS
        else:
            self.una = ack
            self.nxt = max(self.nxt, self.una)
            if self.una > self.tim_una and self.rtx.pending:
                self.rtx.reset()
            if self.pending_reset:
                self.backoff, self.pending_reset = 1, False
            elif self.backoff > 1:
                self.pending_reset = True
            if self.una > self.rttm_byte and self.rttm_pending:
                self.update_rtt(self.sim.now - self.rttm_start)
                self.rttm_pending = False
            if self.dupacks >= DUPACKS:
                self.finish_fast_recovery()
            else:
                self.dupacks = 0
                if self.cwnd < self.ssthresh:
                    self.cwnd = min(self.cwnd + MSS, MAX_CWND)
                else:
                    step = MSS * MSS / self.cwnd if self.real else MSS * MSS // self.cwnd
                    self.cwnd = min(self.cwnd + max(step, 1), MAX_CWND)
        self.send_new()

    def update_rtt(self, r: float) -> None:
        if self.srtt == 0:
            self.srtt, self.rttvar = r, r / 2
        else:
            self.srtt = 0.875 * self.srtt + 0.125 * r
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(r - self.srtt)
        self.rto_est = math.ceil((self.srtt + 4 * self.rttvar) / GRANULARITY) * GRANULARITY

    def on_timeout(self) -> None:
        self.stats.timeouts += 1
        self.backoff = min(MAX_BACKOFF, self.backoff * 2)
        self.pending_reset = False
        if self.dupacks >= DUPACKS:
            self.finish_fast_recovery()
        elif self.dupacks > 0:
            self.dupacks = 0
        self.reduce_ssthresh()
        self.cwnd = MSS
        self.recovery_to = self.max
        self.nxt = self.una  # GoBackN
        self.una_retransmit()


def run(p: float, seconds: float, seed: int, supply: str, *, real: bool = False,
        drops: Collection[int] | None = None, start: float | None = None,
        acks: list[tuple[float, int]] | None = None) -> Stats:
    """One run of seed 002's one-source network with the IKR TCP model. `drops`: the data
    transmissions (numbered from 1) the Dropper discards instead of Bernoulli loss p; `start`:
    the generator's start instead of the uniform draw; `acks`: receives (time, ACK in
    segments) of every ACK reaching the sender; `real`: see `Sender`."""
    rng = random.Random(seed)
    sent = [0]
    sim = Sim()
    stats = Stats()
    ends: dict[str, Callable[[tuple[int, int]], None]] = {}
    bottleneck = Server(sim, BOTTLENECK_RATE, DATA_DELAY, lambda s: ends["rcv"](s))
    ack_link = Server(sim, BOTTLENECK_RATE, ACK_DELAY_LINK, lambda a: ends["snd"](a))

    def after_access(seg: tuple[int, int]) -> None:
        sent[0] += 1
        lost = sent[0] in drops if drops is not None else rng.random() < p
        if not lost:  # the Dropper: Bernoulli loss on the data path
            bottleneck.send(seg, seg[1] - seg[0] + HEADER)

    access = Server(sim, ACCESS_RATE, 0.0, after_access)
    sender = Sender(sim, supply, lambda b, e: access.send((b, e), e - b + HEADER), stats,
                    real)
    receiver = Receiver(sim, lambda a, w: ack_link.send((a, w), HEADER), stats)
    ends["rcv"] = receiver.receive

    def to_sender(a: tuple[int, int]) -> None:
        if acks is not None:
            acks.append((sim.now, a[0] // MSS))
        sender.on_ack(a[0], a[1])

    ends["snd"] = to_sender
    sim.at(rng.uniform(0.0, 0.1) if start is None else start, sender.send_new)
    sim.run(seconds)
    return stats


def ackclock_run(profile: str, p: float, seconds: float, seed: int) -> float:
    """The same one-source network in ackclock (examples/seed002_figures.py's model): the
    receiver's throughput in Mb/s, wire bytes of every data packet arriving."""
    import ackclock as ac

    net = ac.Network(f"seed002-{profile}-p{p}", profile=profile)
    net.nodes("entry", "exit", "s0", "d0")
    net.link("entry", "exit", rate="10Mb/s", delay="50ms", duplex=False, queue_limit=1_000_000,
             loss={"kind": "bernoulli", "p": p})
    net.link("exit", "entry", rate="10Mb/s", delay="50ms", duplex=False)
    net.link("s0", "entry", rate="2Mb/s", delay="0ms")
    net.link("d0", "exit", rate="1e25Mb", delay="0ms")
    net.defaults(packet_size=1460, window=32, sink="delack")
    net.tcp("tcp0", "s0", "d0", start={"uniform": ["0s", "0.1s"]})
    res = net.run(duration=f"{seconds}s", seed=seed, progress=False)
    return float(res.flows.throughput_mbps.sum())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1500.0)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--p", default="0.01,0.05,0.1")
    ap.add_argument("--out", type=Path, default=Path("results/ikr_segments"))
    args = ap.parse_args(argv)
    rows = []
    seeds = range(1, args.seeds + 1)
    ref: dict[tuple[float, str], float] = {}
    for p in [float(x) for x in args.p.split(",")]:
        for profile in ("ns2", "ikr"):
            ref[p, profile] = sum(ackclock_run(profile, p, args.seconds, s) for s in seeds) / len(
                seeds)
            print(f"p={p} ackclock {profile} profile: {ref[p, profile]:.4f} Mb/s", flush=True)
        for supply in ("blocks", "window"):
            wire = pkts = short = sent = to = fr = 0.0
            for seed in seeds:
                s = run(p, args.seconds, seed, supply)
                wire += s.arrived_wire_bytes * 8 / args.seconds / 1e6
                pkts += s.arrived_packets * (MSS + HEADER) * 8 / args.seconds / 1e6
                short += s.short_segments
                sent += s.sent_segments
                to += s.timeouts
                fr += s.fast_retransmits
            k = args.seeds
            rows.append((p, supply, wire / k, pkts / k, short / max(sent, 1), to / k, fr / k))
            print(f"p={p} supply={supply}: {wire / k:.4f} Mb/s (wire bytes), "
                  f"{pkts / k:.4f} Mb/s (packets x 1500 B), "
                  f"short segments {short / max(sent, 1):.1%}, "
                  f"timeouts {to / k:.0f}, fast retransmits {fr / k:.0f}", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    lines = ["| p | ackclock ns2 / ikr profile (Mb/s) | IKR model, supply | Mb/s (wire bytes) | "
             "vs ns2 | Mb/s (packets x 1500 B) | vs ns2 | short segments | timeouts | "
             "fast retransmits | the study (SL over ns) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for p, supply, w, k, sh, to, fr in rows:
        ns2 = ref[p, "ns2"]
        study = {0.01: "+3%", 0.05: "+30%", 0.1: "+49%"}.get(p, "")
        lines.append(f"| {p} | {ns2:.4f} / {ref[p, 'ikr']:.4f} | {supply} | {w:.4f} | "
                     f"{w / ns2 - 1:+.1%} | {k:.4f} | {k / ns2 - 1:+.1%} | {sh:.1%} | {to:.0f} | "
                     f"{fr:.0f} | {study} |")
    (args.out / "ikr_segments.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
