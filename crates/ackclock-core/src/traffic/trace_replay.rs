//! Trace replay, as ns-2's `Application/Traffic/Trace`: datagrams of recorded sizes at
//! recorded times (each record's time is measured from the application's start).

#[derive(Clone, Debug)]
pub struct TraceReplay {
    /// (time after start in ps, payload bytes), times non-decreasing.
    records: Vec<(u64, u32)>,
    next: usize,
}

impl TraceReplay {
    pub fn new(records: Vec<(u64, u32)>) -> TraceReplay {
        TraceReplay { records, next: 0 }
    }

    pub fn first_delay(&self) -> u64 {
        self.records.first().map_or(0, |r| r.0)
    }

    /// The current record's payload and the gap to the next record; None after the last.
    #[inline]
    pub fn next_datagram(&mut self) -> (u32, Option<u64>) {
        let (t, size) = self.records[self.next];
        self.next += 1;
        let gap = self.records.get(self.next).map(|&(u, _)| u - t);
        (size, gap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_sizes_and_gaps() {
        let mut g = TraceReplay::new(vec![(5, 100), (5, 200), (12, 300)]);
        assert_eq!(g.first_delay(), 5);
        assert_eq!(g.next_datagram(), (100, Some(0)));
        assert_eq!(g.next_datagram(), (200, Some(7)));
        assert_eq!(g.next_datagram(), (300, None));
    }
}
