//! Event-driven traces of TCP variables: a row each time a traced variable changes, as
//! ns-2's `$tcp trace cwnd_` writes them, instead of fixed-interval samples.

use crate::results::Table;

/// The variables that can be traced, in column order: `inflight` is the data the sender has
/// in the network (segments, or bytes with byte-counted windows, as cwnd; ns-3's
/// `BytesInFlight` trace), `pacing_rate` the rate pacing spaces segments at, in bits per
/// second on the wire (0: not pacing; ns-3's `PacingRate` trace).
pub const TRACEABLE: [&str; 10] = [
    "cwnd",
    "ssthresh",
    "rtt",
    "srtt",
    "rttvar",
    "rto",
    "backoff",
    "window",
    "inflight",
    "pacing_rate",
];

/// A set of traced variables, one bit per entry of [`TRACEABLE`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceMask(pub u16);

impl TraceMask {
    /// The mask for these names; the first unknown name is the error.
    pub fn from_names<'a>(
        names: impl IntoIterator<Item = &'a String>,
    ) -> Result<TraceMask, String> {
        let mut m = 0u16;
        for n in names {
            let i = TRACEABLE
                .iter()
                .position(|t| t == n)
                .ok_or_else(|| n.clone())?;
            m |= 1 << i;
        }
        Ok(TraceMask(m))
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Rows of (time, flow, variable, value), appended only when a value changes.
#[derive(Debug, Default)]
pub struct Tracer {
    time_s: Vec<f64>,
    flow: Vec<String>,
    variable: Vec<String>,
    value: Vec<f64>,
}

impl Tracer {
    /// Records the variables of `mask` whose value differs from `last`, and updates `last`.
    pub fn record(
        &mut self,
        t: f64,
        flow: &str,
        mask: TraceMask,
        last: &mut [f64; 10],
        now: [f64; 10],
    ) {
        for i in 0..TRACEABLE.len() {
            // NaN never equals itself: compare bit patterns so "no sample yet" is stable.
            if mask.0 & (1 << i) != 0 && last[i].to_bits() != now[i].to_bits() {
                last[i] = now[i];
                self.time_s.push(t);
                self.flow.push(flow.to_string());
                self.variable.push(TRACEABLE[i].to_string());
                self.value.push(now[i]);
            }
        }
    }

    /// Appends one row.
    pub fn push(&mut self, t: f64, flow: &str, variable: &str, value: f64) {
        self.time_s.push(t);
        self.flow.push(flow.to_string());
        self.variable.push(variable.to_string());
        self.value.push(value);
    }

    /// The rows so far as a table, leaving the tracer empty.
    pub fn take(&mut self) -> Table {
        let t = self.table();
        *self = Tracer::default();
        t
    }

    pub fn table(&self) -> Table {
        let mut t = Table::default();
        t.f64("time_s", self.time_s.clone())
            .str("flow", self.flow.clone())
            .str("variable", self.variable.clone())
            .f64("value", self.value.clone());
        t
    }
}
