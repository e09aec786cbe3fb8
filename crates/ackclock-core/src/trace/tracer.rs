//! Event-driven traces of TCP variables: a row each time a traced variable changes, as
//! ns-2's `$tcp trace cwnd_` writes them, instead of fixed-interval samples.

use crate::results::{Labels, Table};

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

/// Rows of (time, flow, variable, value), appended only when a value changes. A row keeps
/// its flow's index and its variable's code (22 bytes), not their names: with a `String`
/// each, every traced change allocated twice and a row took about 130 bytes (cwnd traced on
/// 10 000 flows writes some 80 000 rows per simulated second).
#[derive(Debug, Default)]
pub struct Tracer {
    time_s: Vec<f64>,
    flow: Vec<u32>,
    /// Below `TRACEABLE.len()`, that variable; above, `others`' entry.
    variable: Vec<u16>,
    value: Vec<f64>,
    /// Variables pushed by name that are not in [`TRACEABLE`] (`cwnd_step`, a congestion
    /// control's declared state), in the order first seen.
    others: Vec<String>,
}

impl Tracer {
    /// Records the variables of `mask` whose value differs from `last`, and updates `last`;
    /// `flow` is the flow's index in the scenario.
    pub fn record(
        &mut self,
        t: f64,
        flow: u32,
        mask: TraceMask,
        last: &mut [f64; 10],
        now: [f64; 10],
    ) {
        for i in 0..TRACEABLE.len() {
            // NaN never equals itself: compare bit patterns so "no sample yet" is stable.
            if mask.0 & (1 << i) != 0 && last[i].to_bits() != now[i].to_bits() {
                last[i] = now[i];
                self.row(t, flow, i as u16, now[i]);
            }
        }
    }

    /// Appends one row of flow `flow`'s `variable`.
    pub fn push(&mut self, t: f64, flow: u32, variable: &str, value: f64) {
        let code = match TRACEABLE.iter().position(|v| *v == variable) {
            Some(i) => i,
            None => match self.others.iter().position(|v| v == variable) {
                Some(i) => TRACEABLE.len() + i,
                None => {
                    self.others.push(variable.to_string());
                    TRACEABLE.len() + self.others.len() - 1
                }
            },
        };
        self.row(t, flow, code as u16, value);
    }

    #[inline]
    fn row(&mut self, t: f64, flow: u32, variable: u16, value: f64) {
        self.time_s.push(t);
        self.flow.push(flow);
        self.variable.push(variable);
        self.value.push(value);
    }

    /// The rows so far as a table, leaving the tracer empty; `name(i)` is flow i's name.
    pub fn take<'a>(&mut self, name: impl Fn(u32) -> &'a str) -> Table {
        let t = self.table(name);
        *self = Tracer::default();
        t
    }

    /// The rows as a table (time_s, flow, variable, value), the flow and variable columns as
    /// labels holding only the names that occur.
    pub fn table<'a>(&self, name: impl Fn(u32) -> &'a str) -> Table {
        let variable_name = |code: u16| match TRACEABLE.get(code as usize) {
            Some(v) => *v,
            None => self.others[code as usize - TRACEABLE.len()].as_str(),
        };
        let mut t = Table::default();
        t.f64("time_s", self.time_s.clone())
            .labels("flow", labels(&self.flow, name))
            .labels("variable", labels(&self.variable, variable_name))
            .f64("value", self.value.clone());
        t
    }
}

/// A labels column of `codes`, each distinct code's `name` kept once, in the order first seen.
fn labels<'a, C: Copy + Into<u32>>(codes: &[C], name: impl Fn(C) -> &'a str) -> Labels {
    let mut out = Labels::default();
    let mut seen: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for &c in codes {
        let code = *seen.entry(c.into()).or_insert_with(|| {
            out.values.push(name(c).to_string());
            out.values.len() as u32 - 1
        });
        out.push(code);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::ColumnData;

    #[test]
    fn rows_read_back_with_their_flow_and_variable_names() {
        let names = ["a", "b", "c"];
        let mut tr = Tracer::default();
        let mask = TraceMask::from_names(&["cwnd".to_string(), "rto".to_string()]).unwrap();
        let mut last = [f64::NAN; 10];
        let mut now = [1.0; 10];
        tr.record(0.5, 2, mask, &mut last, now);
        now[5] = 2.0;
        tr.record(0.75, 2, mask, &mut last, now); // only rto changed
        tr.push(1.0, 0, "cwnd_step", 3.0);
        tr.push(1.5, 1, "alpha", 0.25);
        tr.push(2.0, 0, "cwnd_step", 4.0);
        let t = tr.table(|f| names[f as usize]);
        let rows: Vec<(f64, &str, &str, f64)> = (0..t.columns[0].data.len())
            .map(|r| {
                let s = |c: usize| t.columns[c].data.str_at(r).unwrap();
                let f = |c: usize| t.f64_column(["time_s", "", "", "value"][c]).unwrap()[r];
                (f(0), s(1), s(2), f(3))
            })
            .collect();
        assert_eq!(
            rows,
            [
                (0.5, "c", "cwnd", 1.0),
                (0.5, "c", "rto", 1.0),
                (0.75, "c", "rto", 2.0),
                (1.0, "a", "cwnd_step", 3.0),
                (1.5, "b", "alpha", 0.25),
                (2.0, "a", "cwnd_step", 4.0),
            ]
        );
        // Only the names that occur are kept, once each.
        let ColumnData::Labels(flows) = &t.columns[1].data else {
            panic!("flow column not labels")
        };
        assert_eq!(flows.values, ["c", "a", "b"]);
        assert_eq!(tr.take(|f| names[f as usize]).columns[0].data.len(), 6);
        assert_eq!(tr.table(|f| names[f as usize]).columns[0].data.len(), 0);
    }
}
