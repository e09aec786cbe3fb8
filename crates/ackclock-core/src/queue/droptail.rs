//! DropTail: admit an arriving packet while the buffer has room, drop it otherwise.
//!
//! Two accountings are offered. The plain one counts waiting packets against the limit (a
//! limit of n holds n waiting packets plus the one on the wire, as a Linux qdisc or an
//! ns-3 queue does). The `ns2` one reproduces ns-2.35's `DropTail::enque`, which drops when
//! `length + 1 >= limit` (or `bytes + size >= limit * mean_pktsize` in byte mode): a limit
//! of n holds n-1 waiting packets, as seed 002 observes.

use super::{Arrival, Backlog, QdiscInfo, QueueDiscipline, QueueSetup, Service, Verdict};

// 40 bytes, as when it held its two limits as `Option`s, and a `bool` whose spare values
// hold `AnyQueue`'s tag: a link keeps its discipline in the same line as its rate
// (`net/link/tests.rs`, `layout_tests`).
#[derive(Clone, Debug)]
pub struct DropTail {
    /// The limits under the accounting, as the bounds an arrival's backlog must stay below
    /// (made by [`DropTail::bounds`]), so that a hop's admission is two compares: the waiting
    /// packets, and the waiting bytes with the arrival's. `u64::MAX` without a limit (no
    /// backlog reaches it).
    below_packets: u64,
    below_bytes: u64,
    /// The limits as given (valid under [`HAS_PACKETS`] and [`HAS_BYTES`] in `has`).
    limit_packets: u64,
    limit_bytes: u64,
    /// [`HAS_PACKETS`], [`HAS_BYTES`].
    has: u8,
    /// ns-2.35's accounting (see the file's head).
    ns2: bool,
}

/// In [`DropTail::flags`]: there is a packet limit.
const HAS_PACKETS: u8 = 1;
/// There is a byte limit.
const HAS_BYTES: u8 = 2;

crate::params! {
    /// The `DropTail` discipline has no parameters.
    pub struct DropTailSettings {}
}

impl QueueDiscipline for DropTail {
    const INFO: QdiscInfo = QdiscInfo {
        limit_bytes: true,
        ..QdiscInfo::new(
            "droptail",
            Service::Enqueue,
            "a FIFO that drops arrivals when full (ns-2 DropTail, Linux pfifo/bfifo)",
        )
    };

    type Params = DropTailSettings;

    fn new(_p: &DropTailSettings, setup: &QueueSetup) -> DropTail {
        DropTail::with_limits(setup.limit_packets, setup.limit_bytes, setup.ns2)
    }

    #[inline]
    fn admit(&mut self, a: &Arrival) -> Verdict {
        if self.fits(a.backlog, a.size) {
            Verdict::Admit
        } else {
            Verdict::Drop
        }
    }

    fn limits(&self) -> (Option<u64>, Option<u64>) {
        (
            self.limit_packets(),
            (self.has & HAS_BYTES != 0).then_some(self.limit_bytes),
        )
    }
}

impl DropTail {
    /// A DropTail queue of at most `limit_packets` packets and `limit_bytes` bytes (None: no
    /// such limit), counted as ns-2 counts them with `ns2` (see the file's head).
    pub fn with_limits(limit_packets: Option<u64>, limit_bytes: Option<u64>, ns2: bool) -> Self {
        let packets = u8::from(limit_packets.is_some()) * HAS_PACKETS;
        let has = packets | (u8::from(limit_bytes.is_some()) * HAS_BYTES);
        let mut q = DropTail {
            below_packets: 0,
            below_bytes: 0,
            limit_packets: limit_packets.unwrap_or(0),
            limit_bytes: limit_bytes.unwrap_or(0),
            has,
            ns2,
        };
        q.bounds();
        q
    }

    /// The packet limit (ns-2's `limit_`).
    pub fn limit_packets(&self) -> Option<u64> {
        (self.has & HAS_PACKETS != 0).then_some(self.limit_packets)
    }

    /// Sets the packet limit (ns-2's `$queue set limit_` during the run).
    pub fn set_limit_packets(&mut self, limit: u64) {
        self.limit_packets = limit;
        self.has |= HAS_PACKETS;
        self.bounds();
    }

    /// Brings `below_packets` and `below_bytes` up to date with the limits. The plain
    /// accounting admits while the waiting packets are below the limit and the bytes with
    /// the arrival's at most the limit; ns-2's (`DropTail::enque`) while `length + 1 <
    /// limit` and `bytes + size < limit`.
    fn bounds(&mut self) {
        let (p, b) = (self.limit_packets, self.limit_bytes);
        self.below_packets = match self.has & HAS_PACKETS {
            0 => u64::MAX,
            _ if self.ns2 => p.saturating_sub(1),
            _ => p,
        };
        self.below_bytes = match self.has & HAS_BYTES {
            0 => u64::MAX,
            _ if self.ns2 => b,
            _ => b.saturating_add(1),
        };
    }

    /// Whether a packet of `size` bytes fits behind `backlog`.
    #[inline]
    pub fn fits(&self, backlog: Backlog, size: u32) -> bool {
        backlog.packets < self.below_packets && backlog.bytes + u64::from(size) < self.below_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(packets: u64, bytes: u64) -> Backlog {
        Backlog { packets, bytes }
    }

    #[test]
    fn plain_limit_counts_waiting_packets() {
        let q = DropTail::with_limits(Some(3), None, false);
        assert!(q.fits(b(2, 0), 1000));
        assert!(!q.fits(b(3, 0), 1000));
    }

    #[test]
    fn ns2_limit_holds_one_less() {
        let q = DropTail::with_limits(Some(3), None, true);
        assert!(q.fits(b(1, 0), 1000));
        assert!(!q.fits(b(2, 0), 1000));
        // ns-2 drops everything with a limit of 1.
        let one = DropTail::with_limits(Some(1), None, true);
        assert!(!one.fits(b(0, 0), 40));
    }

    /// The two bounds admit exactly what ns-2.35's `DropTail::enque` and the plain rule
    /// (the limits compared one by one) admit, at the limits' edges included.
    #[test]
    fn the_bounds_are_the_rules() {
        let limits = [None, Some(0), Some(1), Some(2), Some(1500), Some(u64::MAX)];
        let counts = [0, 1, 2, 3, 1499, 1500, 1501, u64::MAX - 1501];
        for lp in limits {
            for lb in limits {
                for ns2 in [false, true] {
                    let q = DropTail::with_limits(lp, lb, ns2);
                    for packets in counts {
                        for bytes in counts {
                            for size in [0u32, 1, 1500] {
                                let after = bytes + u64::from(size);
                                let by_packets = match lp {
                                    None => true,
                                    Some(l) if ns2 => packets + 1 < l,
                                    Some(l) => packets < l,
                                };
                                let by_bytes = match lb {
                                    None => true,
                                    Some(l) if ns2 => after < l,
                                    Some(l) => after <= l,
                                };
                                assert_eq!(
                                    q.fits(b(packets, bytes), size),
                                    by_packets && by_bytes,
                                    "{lp:?} {lb:?} {ns2} {packets} {bytes} {size}"
                                );
                            }
                        }
                    }
                }
            }
        }
        let mut q = DropTail::with_limits(Some(10), None, true);
        assert_eq!(q.limits(), (Some(10), None));
        q.set_limit_packets(3);
        assert_eq!(q.limits(), (Some(3), None));
        let bytes_only = DropTail::with_limits(None, Some(9), false);
        assert_eq!(bytes_only.limits(), (None, Some(9)));
        assert_eq!(std::mem::size_of::<DropTail>(), 40);
        assert!(q.fits(b(1, 0), 1000) && !q.fits(b(2, 0), 1000));
    }

    #[test]
    fn byte_limit() {
        let q = DropTail::with_limits(None, Some(3000), false);
        assert!(q.fits(b(2, 2000), 1000));
        assert!(!q.fits(b(2, 2001), 1000));
        let n = DropTail::with_limits(None, Some(3000), true);
        assert!(!n.fits(b(2, 2000), 1000));
    }
}
