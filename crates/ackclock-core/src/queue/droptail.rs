//! DropTail: admit an arriving packet while the buffer has room, drop it otherwise.
//!
//! Two accountings are offered. The plain one counts waiting packets against the limit (a
//! limit of n holds n waiting packets plus the one on the wire, as a Linux qdisc or an
//! ns-3 queue does). The `ns2` one reproduces ns-2.35's `DropTail::enque`, which drops when
//! `length + 1 >= limit` (or `bytes + size >= limit * mean_pktsize` in byte mode): a limit
//! of n holds n-1 waiting packets, as seed 002 observes.

use super::{Arrival, Backlog, QdiscInfo, QueueDiscipline, QueueSetup, Service, Verdict};

#[derive(Clone, Debug)]
pub struct DropTail {
    pub limit_packets: Option<u64>,
    pub limit_bytes: Option<u64>,
    pub ns2: bool,
}

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
        DropTail {
            limit_packets: setup.limit_packets,
            limit_bytes: setup.limit_bytes,
            ns2: setup.ns2,
        }
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
        (self.limit_packets, self.limit_bytes)
    }
}

impl DropTail {
    /// Whether a packet of `size` bytes fits behind `backlog`.
    #[inline]
    pub fn fits(&self, backlog: Backlog, size: u32) -> bool {
        if let Some(limit) = self.limit_packets {
            let fits = if self.ns2 {
                backlog.packets + 1 < limit
            } else {
                backlog.packets < limit
            };
            if !fits {
                return false;
            }
        }
        if let Some(limit) = self.limit_bytes {
            let after = backlog.bytes + size as u64;
            let fits = if self.ns2 {
                after < limit
            } else {
                after <= limit
            };
            if !fits {
                return false;
            }
        }
        true
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
        let q = DropTail {
            limit_packets: Some(3),
            limit_bytes: None,
            ns2: false,
        };
        assert!(q.fits(b(2, 0), 1000));
        assert!(!q.fits(b(3, 0), 1000));
    }

    #[test]
    fn ns2_limit_holds_one_less() {
        let q = DropTail {
            limit_packets: Some(3),
            limit_bytes: None,
            ns2: true,
        };
        assert!(q.fits(b(1, 0), 1000));
        assert!(!q.fits(b(2, 0), 1000));
        // ns-2 drops everything with a limit of 1.
        let one = DropTail {
            limit_packets: Some(1),
            limit_bytes: None,
            ns2: true,
        };
        assert!(!one.fits(b(0, 0), 40));
    }

    #[test]
    fn byte_limit() {
        let q = DropTail {
            limit_packets: None,
            limit_bytes: Some(3000),
            ns2: false,
        };
        assert!(q.fits(b(2, 2000), 1000));
        assert!(!q.fits(b(2, 2001), 1000));
        let n = DropTail {
            limit_packets: None,
            limit_bytes: Some(3000),
            ns2: true,
        };
        assert!(!n.fits(b(2, 2000), 1000));
    }
}
