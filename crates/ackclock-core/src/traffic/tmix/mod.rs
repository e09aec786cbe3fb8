//! Tmix replay: M. C. Weigle, P. Adurthi, F. Hernandez-Campos, K. Jeffay, F. D. Smith,
//! "Tmix: A Tool for Generating Realistic TCP Application Workloads in ns-2", ACM CCR 36(3),
//! 2006.
//!
//! A connection vector describes one TCP connection as application data units (ADUs) and
//! the waits between them. Each connection runs as two TCP half-connections (initiator ->
//! acceptor and back), each a sender/sink pair with the flow's TCP configuration; the
//! initiator's half opens with a SYN. ACKs are not piggybacked on data, unlike ns-2's
//! FullTcp, which Tmix uses: a difference of ACK packets on the wire, not of ADU timing.
//!
//! - SEQ (sequential) connections take turns: an ADU is written `wait` after its peer's
//!   previous ADU has been received in full, or `wait` after the writer's own previous ADU
//!   when one side writes twice in a row. The first ADU is written `wait` after the start.
//! - CONC (concurrent) connections: each side writes its ADUs in order, each `wait` after its
//!   previous one, whatever the other side does. With a FIN wait (ns-2.35's Tmix, below),
//!   each side writes its first ADU at the start, whatever its wait (`TmixApp::start` arms the
//!   timer at 0 when the ADU waits for nothing received, `send_first`), and an acceptor with
//!   ADUs opens too: both Tmix agents `listen()`, and a write in LISTEN sends a SYN
//!   (`FullTcpAgent::advance_bytes`), so the SYNs cross and each side, in SYN_SENT, answers
//!   the other's with a SYN-ACK (`FullTcpAgent::recv`, RFC 9293 3.5 figure 7, simultaneous
//!   open). Each half-connection then opens with its own SYN, acknowledged by the peer:
//!   the same times as ns-2.35's (data one round trip after the SYNs), a pure ACK in place
//!   of the SYN-ACK.
//! - Once all ADUs are delivered (SEQ), or a side has written its last (CONC), the side(s)
//!   write a FIN, a header-only segment; the connection completes when both FINs have been
//!   received.
//! - With a FIN wait (`fin_wait`, ns-2.35's Tmix, whose connections close as its
//!   `Tmix::read_one_cvec` and `TmixApp::timeout` close them): the vector's reader gives the
//!   side of the vector's last ADU a closing "FIN ADU", due `fin_time_` (1 s unless
//!   `set-fin-time`) after that side's last write. When it is due, the side writes 2 bytes
//!   and its FIN (`sendmsg(2, "MSG_EOF")`) if the other side has written its last ADU; this is
//!   an application write like any other (`FullTcpAgent::advance_bytes`, `send_much` with
//!   `maxburst_`), so while a long last ADU is still going out it sends up to `maxburst_`
//!   more segments at once. The other side, on writing its own last ADU, adds its FIN to it
//!   if the closing ADU has already come due (`sendmsg(size, "MSG_EOF")`). A side that
//!   receives the peer's FIN writes its own (FullTcp without `halfclose_` closes in
//!   CLOSE-WAIT, `FullTcpAgent::recv`), without waiting for its data to be acknowledged as
//!   FullTcp does. A side with no ADUs at all is done from the start (`TmixApp::start` asks
//!   for its first ADU, and `get_current_ADU`, finding none, marks it done).
//! - Tmix_DelayBox: each connection's packets wait `(rtt - path RTT) / 2` extra in each
//!   direction, so that the connection's base RTT is its vector's minimum RTT, and are lost
//!   with the sending side's loss rate (see `DelayLine`).
//!
//! `vectors.rs` reads connection-vector files fast for the front end.

pub mod vectors;

use std::collections::VecDeque;

use crate::ids::FlowId;
use crate::packet::{Packet, PacketKind};
use crate::rng::RandomStream;
use crate::scenario::{TmixAdus, TmixVectors};
use crate::time::{SimDuration, SimTime};

/// Side 0 is the initiator, 1 the acceptor; half-connection d carries side d's data.
pub const INITIATOR: usize = 0;
pub const ACCEPTOR: usize = 1;

/// What the controller asks of the simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Write `bytes` on `side`'s half-connection (with `tag` FIN: the FIN, 0 bytes, or 2
    /// under a FIN wait's close, ns-2.35's `sendmsg(2, "MSG_EOF")`).
    Write { side: usize, bytes: u64, tag: u32 },
    /// Wake `side` at `at` to write its next ADU.
    Wake { side: usize, at: SimTime },
}

/// Tag of a FIN in the pending lists.
pub const FIN: u32 = u32::MAX;

/// A connection as it runs. Its vector stays in its application's columns
/// ([`TmixVectors`]), which the simulator passes in as a [`Vector`]: seed 003's study runs
/// replay millions of connections, a few thousand open at a time.
#[derive(Clone, Debug)]
pub struct TmixConn {
    pub parent: FlowId,
    pub halves: [FlowId; 2],
    /// Where it stands while open (None before its start and once finished).
    progress: Option<Box<Progress>>,
    /// Payload bytes delivered, per side that wrote them.
    pub delivered: [u64; 2],
    pub adus_delivered: u32,
    /// When it started and finished; `NEVER` (not an `Option`, 8 bytes a connection more).
    started: SimTime,
    finished: SimTime,
}

const NEVER: SimTime = SimTime(u64::MAX);

// Seed 003's study runs hold 6.5 million of them.
const _: () = assert!(std::mem::size_of::<TmixConn>() == 56);

/// A connection's vector, read from its application's columns.
#[derive(Clone, Copy, Debug)]
pub struct Vector<'a> {
    pub concurrent: bool,
    pub adus: TmixAdus<'a>,
}

impl<'a> Vector<'a> {
    /// Connection `j` of `v`.
    pub fn of(v: &'a TmixVectors, j: usize) -> Vector<'a> {
        Vector {
            concurrent: v.concurrent(j),
            adus: v.adus(j),
        }
    }
}

/// An open connection's progress through its vector.
#[derive(Clone, Debug, Default)]
struct Progress {
    /// SEQ: the next ADU to write; CONC: the next ADU index per side.
    next: usize,
    next_side: [usize; 2],
    /// Written, not yet delivered: (one past the last segment, ADU index or FIN), per side.
    pending: [VecDeque<(u64, u32)>; 2],
    fin_written: [bool; 2],
    fin_delivered: [bool; 2],
    /// The FIN wait, when the connection closes as ns-2.35's Tmix (see the top of the file).
    fin_wait: Option<SimDuration>,
    /// Under a FIN wait: each side has written its last ADU (the closing side: its closing
    /// ADU has come due), ns-2.35's `TmixApp::sent_last_ADU_`.
    done_writing: [bool; 2],
    /// Under a FIN wait: the closing side's closing ADU is due at its next wake.
    closing: bool,
}

fn side_of(adus: &TmixAdus<'_>, i: usize) -> usize {
    usize::from(adus.side[i])
}

/// The index of `side`'s k-th ADU (CONC).
fn nth_of_side(adus: &TmixAdus<'_>, side: usize, k: usize) -> Option<usize> {
    (0..adus.len()).filter(|&i| side_of(adus, i) == side).nth(k)
}

fn wait(adus: &TmixAdus<'_>, i: usize) -> SimDuration {
    SimDuration(adus.wait_ps[i])
}

fn write(adus: &TmixAdus<'_>, i: usize, acts: &mut Vec<Action>) {
    acts.push(Action::Write {
        side: side_of(adus, i),
        bytes: adus.bytes[i],
        tag: i as u32,
    });
}

fn write_fin(p: &mut Progress, side: usize, acts: &mut Vec<Action>) {
    write_fin_with(p, side, 0, acts);
}

fn write_fin_with(p: &mut Progress, side: usize, bytes: u64, acts: &mut Vec<Action>) {
    if !p.fin_written[side] {
        p.fin_written[side] = true;
        acts.push(Action::Write {
            side,
            bytes,
            tag: FIN,
        });
    }
}

/// The side whose ADU is the vector's last: the one ns-2.35's reader gives the closing ADU
/// (`last_direction` in `Tmix::read_one_cvec`).
fn closing_side(adus: &TmixAdus<'_>) -> Option<usize> {
    (!adus.is_empty()).then(|| side_of(adus, adus.len() - 1))
}

/// Under a FIN wait, `side` has just written its last ADU at `now` (ns-2.35's
/// `TmixApp::timeout`): the closing side's closing ADU comes due `wait` later; the other side
/// is done writing, and closes with its ADU if the closing ADU has already come due.
fn wrote_last(
    p: &mut Progress,
    adus: &TmixAdus<'_>,
    side: usize,
    now: SimTime,
    wait: SimDuration,
    acts: &mut Vec<Action>,
) {
    if closing_side(adus) == Some(side) {
        p.closing = true;
        acts.push(Action::Wake {
            side,
            at: now + wait,
        });
    } else {
        p.done_writing[side] = true;
        if p.done_writing[1 - side] {
            write_fin(p, side, acts);
        }
    }
}

/// Under a FIN wait, the closing side's closing ADU is due: done writing, it closes with 2
/// bytes if the other side is done too, else waits for the other side's FIN.
fn close_due(p: &mut Progress, side: usize, acts: &mut Vec<Action>) {
    p.closing = false;
    p.done_writing[side] = true;
    if p.done_writing[1 - side] {
        write_fin_with(p, side, 2, acts);
    }
}

impl TmixConn {
    pub fn new(parent: FlowId, halves: [FlowId; 2]) -> TmixConn {
        TmixConn {
            parent,
            halves,
            progress: None,
            delivered: [0; 2],
            adus_delivered: 0,
            started: NEVER,
            finished: NEVER,
        }
    }

    /// When it started, if it has.
    pub fn started_at(&self) -> Option<SimTime> {
        (self.started != NEVER).then_some(self.started)
    }

    /// When it finished (both FINs received), if it has.
    pub fn finished_at(&self) -> Option<SimTime> {
        (self.finished != NEVER).then_some(self.finished)
    }

    /// The connection, of vector `v`, starts at `now`; with `fin_wait` it closes as ns-2.35's
    /// Tmix (see the top of the file).
    pub fn start(
        &mut self,
        now: SimTime,
        v: Vector<'_>,
        fin_wait: Option<SimDuration>,
        acts: &mut Vec<Action>,
    ) {
        self.started = now;
        let p = self.progress.insert(Box::default());
        p.fin_wait = fin_wait;
        let adus = &v.adus;
        if fin_wait.is_some() {
            // ns-2.35's `TmixApp::get_current_ADU`, as `start` calls it: no ADU, done.
            for side in [INITIATOR, ACCEPTOR] {
                p.done_writing[side] = !adus.side.iter().any(|&s| usize::from(s) == side);
            }
        }
        if v.concurrent {
            for side in [INITIATOR, ACCEPTOR] {
                match nth_of_side(adus, side, 0) {
                    // ns-2.35 writes each side's first ADU at the start, whatever its wait
                    // (`TmixApp::start`: `send_first`, no wait to receive, `resched(0)`).
                    Some(_) if fin_wait.is_some() => acts.push(Action::Wake { side, at: now }),
                    Some(i) => acts.push(Action::Wake {
                        side,
                        at: now + wait(adus, i),
                    }),
                    // ns-2.35: a side without ADUs is done, its FIN an answer to the peer's.
                    None if fin_wait.is_some() => {}
                    None => write_fin(p, side, acts),
                }
            }
        } else {
            let side = side_of(adus, 0);
            acts.push(Action::Wake {
                side,
                at: now + wait(adus, 0),
            });
        }
    }

    /// `side` wakes at `now` to write its next ADU.
    pub fn wake(&mut self, now: SimTime, side: usize, v: Vector<'_>, acts: &mut Vec<Action>) {
        let Some(p) = self.progress.as_deref_mut() else {
            return; // finished
        };
        let adus = &v.adus;
        if v.concurrent {
            let k = p.next_side[side];
            let Some(i) = nth_of_side(adus, side, k) else {
                if p.closing && closing_side(adus) == Some(side) {
                    close_due(p, side, acts);
                }
                return;
            };
            p.next_side[side] += 1;
            write(adus, i, acts);
            match (nth_of_side(adus, side, k + 1), p.fin_wait) {
                (Some(j), _) => acts.push(Action::Wake {
                    side,
                    at: now + wait(adus, j),
                }),
                (None, Some(w)) => wrote_last(p, adus, side, now, w, acts),
                (None, None) => write_fin(p, side, acts),
            }
        } else {
            let i = p.next;
            if i >= adus.len() && p.closing && closing_side(adus) == Some(side) {
                close_due(p, side, acts);
                return;
            }
            if i >= adus.len() || side_of(adus, i) != side {
                return;
            }
            p.next += 1;
            write(adus, i, acts);
            // The same side writes again after its own wait; a turn waits for delivery.
            if p.next < adus.len() && side_of(adus, p.next) == side {
                acts.push(Action::Wake {
                    side,
                    at: now + wait(adus, p.next),
                });
            }
            if let Some(w) = p.fin_wait {
                // This side's last ADU: none of its own follows.
                if adus.side.iter().rposition(|&s| usize::from(s) == side) == Some(i) {
                    wrote_last(p, adus, side, now, w, acts);
                }
            }
        }
    }

    /// The simulator wrote what `Action::Write` asked; `end` is one past its last segment.
    pub fn wrote(&mut self, side: usize, end: u64, tag: u32) {
        let p = self.progress.as_deref_mut().expect("written while open");
        p.pending[side].push_back((end, tag));
    }

    /// The receiver of `side`'s half-connection has everything before segment `rcv_nxt`.
    pub fn received(
        &mut self,
        now: SimTime,
        side: usize,
        rcv_nxt: u64,
        v: Vector<'_>,
        acts: &mut Vec<Action>,
    ) {
        let Some(p) = self.progress.as_deref_mut() else {
            return; // finished: nothing pending
        };
        let adus = &v.adus;
        while let Some(&(end, tag)) = p.pending[side].front() {
            if end > rcv_nxt {
                break;
            }
            p.pending[side].pop_front();
            if tag == FIN {
                p.fin_delivered[side] = true;
                if p.fin_wait.is_some() {
                    // FullTcp in CLOSE-WAIT closes in turn (`FullTcpAgent::recv`).
                    write_fin(p, 1 - side, acts);
                }
                if p.fin_delivered == [true, true] {
                    // Both FINs were the last of their sides' lists: nothing is pending.
                    self.finished = now;
                    self.progress = None;
                    return;
                }
                continue;
            }
            let i = tag as usize;
            self.delivered[side] += adus.bytes[i];
            self.adus_delivered += 1;
            if v.concurrent {
                continue;
            }
            if p.next < adus.len() {
                let other = side_of(adus, p.next);
                if other != side && i + 1 == p.next {
                    acts.push(Action::Wake {
                        side: other,
                        at: now + wait(adus, p.next),
                    });
                }
            } else if i + 1 == adus.len() && p.fin_wait.is_none() {
                write_fin(p, INITIATOR, acts);
                write_fin(p, ACCEPTOR, acts);
            }
        }
    }
}

/// Tmix_DelayBox for one half-connection: its packets (data one way, ACKs the other) wait
/// `delay` before entering the network, in order, and are lost with the sender's loss rate.
#[derive(Clone, Debug)]
pub struct DelayLine {
    pub delay: SimDuration,
    /// Loss rates of this half's data packets and of its ACKs.
    pub loss: [f64; 2],
    rng: RandomStream,
    queue: VecDeque<(SimTime, Packet)>,
}

impl DelayLine {
    pub fn new(delay: SimDuration, loss: [f64; 2], rng: RandomStream) -> DelayLine {
        DelayLine {
            delay,
            loss,
            rng,
            queue: VecDeque::new(),
        }
    }

    /// Packets held back now.
    pub fn held_packets(&self) -> usize {
        self.queue.len()
    }

    /// Calls `f` on every packet held back (for the invariant checker).
    pub fn for_each_packet(&self, f: &mut dyn FnMut(&Packet)) {
        self.queue.iter().for_each(|(_, p)| f(p));
    }

    /// Takes a packet sent at `now`: None when it is lost, else whether the head event must
    /// be scheduled (at the returned time).
    pub fn push(&mut self, now: SimTime, pkt: Packet) -> Result<Option<SimTime>, Packet> {
        let p = if pkt.kind == PacketKind::TcpAck {
            self.loss[1]
        } else {
            self.loss[0]
        };
        if p > 0.0 && self.rng.next_f64() < p {
            return Err(pkt);
        }
        let at = now + self.delay;
        self.queue.push_back((at, pkt));
        Ok((self.queue.len() == 1).then_some(at))
    }

    /// The packets due at `now`, and when the next one is.
    pub fn release(&mut self, now: SimTime, out: &mut Vec<Packet>) -> Option<SimTime> {
        while let Some(&(at, _)) = self.queue.front() {
            if at > now {
                return Some(at);
            }
            let (_, p) = self.queue.pop_front().expect("peeked");
            out.push(p);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::TmixColumns;

    /// One connection's vector: (side, bytes, wait) per ADU.
    fn vectors(concurrent: bool, adus: &[(u8, u64, u64)]) -> TmixVectors {
        TmixVectors::from_columns(TmixColumns {
            start_ps: vec![0],
            concurrent: vec![concurrent],
            rtt_ps: vec![0],
            loss_initiator: vec![0.0],
            loss_acceptor: vec![0.0],
            window_initiator: Vec::new(),
            window_acceptor: Vec::new(),
            fin_wait_ps: Vec::new(),
            adus: vec![adus.len() as u32],
            adu_side: adus.iter().map(|a| a.0).collect(),
            adu_bytes: adus.iter().map(|a| a.1).collect(),
            adu_wait_ps: adus.iter().map(|a| a.2).collect(),
        })
        .expect("one connection's columns")
    }

    fn conn() -> TmixConn {
        TmixConn::new(FlowId(0), [FlowId(1), FlowId(2)])
    }

    #[test]
    fn sequential_connections_take_turns_then_close() {
        let v = vectors(false, &[(0, 300, 5), (1, 2000, 7), (0, 10, 0)]);
        let mut c = conn();
        let mut acts = Vec::new();
        c.start(SimTime(100), Vector::of(&v, 0), None, &mut acts);
        assert_eq!(
            acts,
            vec![Action::Wake {
                side: 0,
                at: SimTime(105)
            }]
        );
        acts.clear();
        c.wake(SimTime(105), 0, Vector::of(&v, 0), &mut acts);
        assert_eq!(
            acts,
            vec![Action::Write {
                side: 0,
                bytes: 300,
                tag: 0
            }]
        );
        c.wrote(0, 2, 0);
        acts.clear();
        // The request arrives: the response is written after its wait.
        c.received(SimTime(200), 0, 2, Vector::of(&v, 0), &mut acts);
        assert_eq!(
            acts,
            vec![Action::Wake {
                side: 1,
                at: SimTime(207)
            }]
        );
        acts.clear();
        c.wake(SimTime(207), 1, Vector::of(&v, 0), &mut acts);
        c.wrote(1, 2, 1);
        acts.clear();
        c.received(SimTime(300), 1, 2, Vector::of(&v, 0), &mut acts);
        assert_eq!(
            acts,
            vec![Action::Wake {
                side: 0,
                at: SimTime(300)
            }]
        );
        acts.clear();
        c.wake(SimTime(300), 0, Vector::of(&v, 0), &mut acts);
        c.wrote(0, 3, 2);
        acts.clear();
        c.received(SimTime(400), 0, 3, Vector::of(&v, 0), &mut acts);
        assert_eq!(
            acts,
            vec![
                Action::Write {
                    side: 0,
                    bytes: 0,
                    tag: FIN
                },
                Action::Write {
                    side: 1,
                    bytes: 0,
                    tag: FIN
                }
            ]
        );
        c.wrote(0, 4, FIN);
        c.wrote(1, 3, FIN);
        acts.clear();
        c.received(SimTime(450), 0, 4, Vector::of(&v, 0), &mut acts);
        assert!(c.finished_at().is_none());
        c.received(SimTime(460), 1, 3, Vector::of(&v, 0), &mut acts);
        assert_eq!(c.finished_at(), Some(SimTime(460)));
        assert_eq!(c.delivered, [310, 2000]);
        assert_eq!(c.adus_delivered, 3);
        // Finished: its progress is let go; the table reads the vector's bytes.
        assert!(c.progress.is_none());
        assert_eq!(v.total_bytes(0), [310, 2000]);
    }

    #[test]
    fn concurrent_sides_write_on_their_own_clocks() {
        let v = vectors(true, &[(0, 100, 1), (1, 50, 2), (0, 100, 10)]);
        let mut c = conn();
        let mut acts = Vec::new();
        c.start(SimTime(0), Vector::of(&v, 0), None, &mut acts);
        assert_eq!(
            acts,
            vec![
                Action::Wake {
                    side: 0,
                    at: SimTime(1)
                },
                Action::Wake {
                    side: 1,
                    at: SimTime(2)
                }
            ]
        );
        acts.clear();
        c.wake(SimTime(1), 0, Vector::of(&v, 0), &mut acts);
        assert_eq!(
            acts,
            vec![
                Action::Write {
                    side: 0,
                    bytes: 100,
                    tag: 0
                },
                Action::Wake {
                    side: 0,
                    at: SimTime(11)
                }
            ]
        );
        acts.clear();
        c.wake(SimTime(2), 1, Vector::of(&v, 0), &mut acts);
        // The acceptor's only ADU, then its FIN.
        assert_eq!(
            acts,
            vec![
                Action::Write {
                    side: 1,
                    bytes: 50,
                    tag: 1
                },
                Action::Write {
                    side: 1,
                    bytes: 0,
                    tag: FIN
                }
            ]
        );
    }

    /// ns-2.35's Tmix close (`Tmix::read_one_cvec`'s closing ADU, `TmixApp::timeout`): the
    /// side of the last ADU writes 2 bytes and its FIN the FIN wait after its last write,
    /// whether or not that ADU has been delivered; the other side answers the FIN.
    #[test]
    fn fin_wait_closes_from_the_last_writer_after_its_last_write() {
        let v = vectors(false, &[(0, 300, 0), (1, 68_522_666, 1000)]);
        let mut c = conn();
        let w = Some(SimDuration(1_000_000));
        let mut acts = Vec::new();
        c.start(SimTime(0), Vector::of(&v, 0), w, &mut acts);
        acts.clear();
        c.wake(SimTime(0), 0, Vector::of(&v, 0), &mut acts);
        // The initiator's last ADU: it is done writing, the acceptor is not, no FIN.
        assert_eq!(
            acts,
            vec![Action::Write {
                side: 0,
                bytes: 300,
                tag: 0
            }]
        );
        c.wrote(0, 2, 0);
        acts.clear();
        c.received(SimTime(50), 0, 2, Vector::of(&v, 0), &mut acts);
        acts.clear();
        c.wake(SimTime(1050), 1, Vector::of(&v, 0), &mut acts);
        // The vector's last ADU, then its closing ADU's wake a FIN wait later.
        assert_eq!(
            acts,
            vec![
                Action::Write {
                    side: 1,
                    bytes: 68_522_666,
                    tag: 1
                },
                Action::Wake {
                    side: 1,
                    at: SimTime(1_001_050)
                }
            ]
        );
        c.wrote(1, 46_934, 1);
        acts.clear();
        // Due while the response is still going out: 2 bytes and the FIN behind it.
        c.wake(SimTime(1_001_050), 1, Vector::of(&v, 0), &mut acts);
        assert_eq!(
            acts,
            vec![Action::Write {
                side: 1,
                bytes: 2,
                tag: FIN
            }]
        );
        c.wrote(1, 46_935, FIN);
        acts.clear();
        // The response delivered: no FIN of its own from the delivery.
        c.received(SimTime(2_000_000), 1, 46_934, Vector::of(&v, 0), &mut acts);
        assert!(acts.is_empty());
        assert_eq!(c.delivered, [300, 68_522_666]);
        // The acceptor's FIN arrives: the initiator closes in turn.
        c.received(SimTime(2_000_010), 1, 46_935, Vector::of(&v, 0), &mut acts);
        assert_eq!(
            acts,
            vec![Action::Write {
                side: 0,
                bytes: 0,
                tag: FIN
            }]
        );
        c.wrote(0, 3, FIN);
        acts.clear();
        c.received(SimTime(2_000_100), 0, 3, Vector::of(&v, 0), &mut acts);
        assert_eq!(c.finished_at(), Some(SimTime(2_000_100)));
    }

    #[test]
    fn fin_wait_concurrent_sides_close_when_both_are_done() {
        // The acceptor's ADU is the vector's last: its closing ADU comes due 100 after it.
        let v = vectors(true, &[(0, 100, 1), (1, 50, 2)]);
        let mut c = conn();
        let mut acts = Vec::new();
        c.start(
            SimTime(0),
            Vector::of(&v, 0),
            Some(SimDuration(100)),
            &mut acts,
        );
        acts.clear();
        c.wake(SimTime(2), 1, Vector::of(&v, 0), &mut acts);
        assert_eq!(
            acts[1],
            Action::Wake {
                side: 1,
                at: SimTime(102)
            }
        );
        c.wrote(1, 2, 1);
        acts.clear();
        // Due before the initiator is done: nothing written, the acceptor is done.
        c.wake(SimTime(102), 1, Vector::of(&v, 0), &mut acts);
        assert!(acts.is_empty());
        // The initiator's last ADU carries its FIN (`sendmsg(size, "MSG_EOF")`).
        c.wake(SimTime(200), 0, Vector::of(&v, 0), &mut acts);
        assert_eq!(
            acts,
            vec![
                Action::Write {
                    side: 0,
                    bytes: 100,
                    tag: 0
                },
                Action::Write {
                    side: 0,
                    bytes: 0,
                    tag: FIN
                }
            ]
        );
        // A side without ADUs is done from the start (ns-2.35's TmixApp::get_current_ADU):
        // the other side closes at its closing ADU, with 2 bytes.
        for concurrent in [true, false] {
            let v1 = vectors(concurrent, &[(0, 100, 1)]);
            let mut one = conn();
            acts.clear();
            one.start(
                SimTime(0),
                Vector::of(&v1, 0),
                Some(SimDuration(100)),
                &mut acts,
            );
            // A CONC side's first ADU goes at the start, its wait ignored (`TmixApp::start`).
            let first = SimTime(u64::from(!concurrent));
            assert_eq!(acts, vec![Action::Wake { side: 0, at: first }]);
            acts.clear();
            one.wake(first, 0, Vector::of(&v1, 0), &mut acts);
            one.wake(first + SimDuration(100), 0, Vector::of(&v1, 0), &mut acts);
            assert_eq!(
                acts[2],
                Action::Write {
                    side: 0,
                    bytes: 2,
                    tag: FIN
                }
            );
        }
    }

    #[test]
    fn fin_wait_concurrent_sides_write_their_first_adus_at_the_start() {
        // ns-2.35's TmixApp::start: each side's first ADU at once, whatever its wait; the
        // waits before later ADUs stand. Without a FIN wait, the first waits stand too.
        let v = vectors(true, &[(0, 100, 7), (1, 50, 9), (0, 30, 5)]);
        for (fin_wait, at) in [(Some(SimDuration(100)), [10, 10]), (None, [17, 19])] {
            let mut c = conn();
            let mut acts = Vec::new();
            c.start(SimTime(10), Vector::of(&v, 0), fin_wait, &mut acts);
            assert_eq!(
                acts,
                vec![
                    Action::Wake {
                        side: 0,
                        at: SimTime(at[0])
                    },
                    Action::Wake {
                        side: 1,
                        at: SimTime(at[1])
                    }
                ]
            );
            acts.clear();
            c.wake(SimTime(at[0]), 0, Vector::of(&v, 0), &mut acts);
            assert_eq!(
                acts[1],
                Action::Wake {
                    side: 0,
                    at: SimTime(at[0] + 5)
                }
            );
        }
    }

    #[test]
    fn delay_line_keeps_order_and_drops_at_its_rate() {
        let mut d = DelayLine::new(SimDuration(10), [0.0, 0.0], RandomStream::named(1, "d"));
        let p = |seq: u64| Packet {
            id: seq,
            flow: FlowId(0),
            kind: PacketKind::TcpData,
            flags: 0,
            src: crate::ids::NodeId(0),
            dst: crate::ids::NodeId(1),
            size: 100,
            seq,
            ack: 0,
            sent_at: SimTime::ZERO,
            ts_echo: SimTime::ZERO,
            retransmit: false,
            sack: crate::packet::SackBlocks::NONE,
            nth: 0,
            rwnd: 0,
            ecn: 0,
        };
        assert_eq!(d.push(SimTime(0), p(0)).unwrap(), Some(SimTime(10)));
        assert_eq!(d.push(SimTime(3), p(1)).unwrap(), None);
        let mut out = Vec::new();
        assert_eq!(d.release(SimTime(10), &mut out), Some(SimTime(13)));
        assert_eq!(out.len(), 1);
        let mut lossy = DelayLine::new(SimDuration(1), [0.5, 0.0], RandomStream::named(2, "l"));
        let lost = (0..10_000)
            .filter(|&i| lossy.push(SimTime(i), p(i)).is_err())
            .count();
        assert!((lost as i64 - 5000).abs() < 300, "{lost}");
    }
}
