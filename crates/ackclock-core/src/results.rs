//! Result tables as named columns, ready for CSV, Parquet or a DataFrame.

use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq)]
pub enum ColumnData {
    F64(Vec<f64>),
    U64(Vec<u64>),
    Str(Vec<String>),
    /// Strings of a few distinct values, each row its value's index: a Tmix replay's
    /// connections table names each row's flow and kind (seed 003's study runs: 6.5 million
    /// rows, whose two strings each took some 56 bytes a row). Read as `Str` is.
    Labels(Labels),
    /// Floats in runs of equal values: a time series' time (one per sample over every flow's
    /// row), a queue that stays empty, a DropTail link's AQM columns. Read as `F64` is.
    F64Runs(Runs<f64>),
    /// [`ColumnData::F64Runs`] for integers.
    U64Runs(Runs<u64>),
}

/// A value that runs compare by: floats by their bits (a run of NaN is one run, and -0.0
/// is not 0.0: a row reads back exactly what was pushed).
pub trait RunValue: Copy {
    fn same(self, other: Self) -> bool;
}

impl RunValue for f64 {
    fn same(self, other: f64) -> bool {
        self.to_bits() == other.to_bits()
    }
}

impl RunValue for u64 {
    fn same(self, other: u64) -> bool {
        self == other
    }
}

/// A column as runs of equal values: run `k` holds `values[k]` up to row `ends[k]`
/// (exclusive), from the end of the run before it.
#[derive(Clone, Debug, PartialEq)]
pub struct Runs<T> {
    pub values: Vec<T>,
    pub ends: Vec<usize>,
}

impl<T: RunValue> Runs<T> {
    /// The number of rows.
    pub fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Adds a row of `v`.
    pub fn push(&mut self, v: T) {
        match (self.values.last(), self.ends.last_mut()) {
            (Some(&last), Some(end)) if last.same(v) => *end += 1,
            _ => {
                let n = self.len();
                self.values.push(v);
                self.ends.push(n + 1);
            }
        }
    }

    /// Row `r`'s value.
    pub fn get(&self, r: usize) -> T {
        self.values[self.ends.partition_point(|&e| e <= r)]
    }

    /// The values row by row.
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        self.values
            .iter()
            .zip(starts.zip(&self.ends))
            .flat_map(|(&v, (start, &end))| std::iter::repeat_n(v, end - start))
    }

    /// The rows as a plain vector.
    pub fn to_vec(&self) -> Vec<T> {
        let mut v = Vec::with_capacity(self.len());
        v.extend(self.iter());
        v
    }
}

/// `v` as runs when they take at most the room of its values (a run is a value and an end:
/// at most one run per two rows), else `v` itself. A large topology's result tables repeat
/// down their columns: of a 10 000-flow dumbbell's 40 002 link directions, most never drop,
/// lose or mark a packet, and most never queue.
pub fn as_runs<T: RunValue>(v: Vec<T>) -> Result<Runs<T>, Vec<T>> {
    let runs = v.windows(2).filter(|w| !w[0].same(w[1])).count() + 1;
    if v.is_empty() || 2 * runs > v.len() {
        return Err(v);
    }
    let mut r = Runs {
        values: Vec::with_capacity(runs),
        ends: Vec::with_capacity(runs),
    };
    for x in v {
        r.push(x);
    }
    Ok(r)
}

/// A column pushed row by row that keeps its rows as runs while they take no more room
/// than plain values would (a run holds a value and an end: twice a row's bytes), and as a
/// plain vector from the push that would make them take more. A sampler's columns: most of
/// a 10 000-flow dumbbell's series repeat (its 40 002 links' empty queues), some vary.
#[derive(Clone, Debug)]
pub enum RunsOrPlain<T> {
    /// The runs so far, and the rows the column is expected to reach (its plain vector's
    /// capacity, if it becomes one).
    Runs(Runs<T>, usize),
    Plain(Vec<T>),
}

impl<T: RunValue> RunsOrPlain<T> {
    /// Runs below this many stay runs whatever the rows (a short column).
    const FEW_RUNS: usize = 16;

    /// An empty column expected to reach `rows` rows.
    pub fn with_capacity(rows: usize) -> Self {
        RunsOrPlain::Runs(
            Runs {
                values: Vec::new(),
                ends: Vec::new(),
            },
            rows,
        )
    }

    pub fn push(&mut self, v: T) {
        match self {
            RunsOrPlain::Plain(p) => p.push(v),
            RunsOrPlain::Runs(r, rows) => {
                r.push(v);
                let runs = r.values.len();
                if runs > Self::FEW_RUNS && 2 * runs > r.len() {
                    let mut p = Vec::with_capacity((*rows).max(r.len()));
                    p.extend(r.iter());
                    *self = RunsOrPlain::Plain(p);
                }
            }
        }
    }
}

impl RunsOrPlain<f64> {
    /// The column, handed over: `self` is left empty.
    pub fn take_column(&mut self) -> ColumnData {
        match std::mem::replace(self, Self::with_capacity(0)) {
            RunsOrPlain::Runs(r, _) => ColumnData::F64Runs(r),
            RunsOrPlain::Plain(p) => ColumnData::F64(p),
        }
    }
}

impl RunsOrPlain<u64> {
    /// The column, handed over: `self` is left empty.
    pub fn take_column(&mut self) -> ColumnData {
        match std::mem::replace(self, Self::with_capacity(0)) {
            RunsOrPlain::Runs(r, _) => ColumnData::U64Runs(r),
            RunsOrPlain::Plain(p) => ColumnData::U64(p),
        }
    }
}

/// A column of repeated strings: `values[codes.get(row)]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Labels {
    pub values: Vec<String>,
    pub codes: Codes,
}

/// The codes of a [`Labels`] column: one per row, or the cycle 0, 1, ..., period - 1 over and
/// over, which a time series' flow and link columns are (every flow or link at each sample,
/// in order): 4 bytes a row for nothing (2 million queue rows at 10 000 flows sampled 50
/// times).
#[derive(Clone, Debug, PartialEq)]
pub enum Codes {
    Each(Vec<u32>),
    Cycle { period: u32, rows: usize },
}

impl Default for Codes {
    fn default() -> Codes {
        Codes::Each(Vec::new())
    }
}

impl From<Vec<u32>> for Codes {
    fn from(v: Vec<u32>) -> Codes {
        Codes::Each(v)
    }
}

impl Codes {
    /// No rows yet, expected to cycle through `period` codes (`period` rows a sample).
    pub fn cycle(period: usize) -> Codes {
        match u32::try_from(period) {
            Ok(period) if period > 0 => Codes::Cycle { period, rows: 0 },
            _ => Codes::default(),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Codes::Each(v) => v.len(),
            Codes::Cycle { rows, .. } => *rows,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `r`'s code.
    pub fn get(&self, r: usize) -> u32 {
        match self {
            Codes::Each(v) => v[r],
            Codes::Cycle { period, rows } => {
                assert!(r < *rows, "row {r} of {rows}");
                (r % *period as usize) as u32
            }
        }
    }

    /// Adds a row of `code`; a code off the cycle writes the codes out, one per row.
    pub fn push(&mut self, code: u32) {
        match self {
            Codes::Each(v) => v.push(code),
            Codes::Cycle { period, rows } if (*rows % *period as usize) as u32 == code => {
                *rows += 1;
            }
            Codes::Cycle { .. } => {
                let mut v: Vec<u32> = self.iter().collect();
                v.push(code);
                *self = Codes::Each(v);
            }
        }
    }

    /// The codes row by row.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(|r| self.get(r))
    }
}

impl Labels {
    /// Row `r`'s string.
    pub fn get(&self, r: usize) -> &str {
        &self.values[self.codes.get(r) as usize]
    }

    /// Adds a row of `values[code]`.
    pub fn push(&mut self, code: u32) {
        self.codes.push(code);
    }

    /// A column of `strings`, each distinct one kept once (a flows table's kinds and
    /// variants: a few values over 10 000 rows).
    pub fn of<'a>(strings: impl IntoIterator<Item = &'a str>) -> Labels {
        let mut labels = Labels::default();
        let mut seen: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
        for s in strings {
            let code = *seen.entry(s).or_insert_with(|| {
                labels.values.push(s.to_string());
                labels.values.len() as u32 - 1
            });
            labels.push(code);
        }
        labels
    }
}

impl ColumnData {
    pub fn len(&self) -> usize {
        match self {
            ColumnData::F64(v) => v.len(),
            ColumnData::U64(v) => v.len(),
            ColumnData::Str(v) => v.len(),
            ColumnData::Labels(v) => v.codes.len(),
            ColumnData::F64Runs(v) => v.len(),
            ColumnData::U64Runs(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `r` of a column of strings (`Str` or `Labels`).
    pub fn str_at(&self, r: usize) -> Option<&str> {
        match self {
            ColumnData::Str(v) => Some(&v[r]),
            ColumnData::Labels(v) => Some(v.get(r)),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Fixed for the engine's own columns; a discipline's declared state names its own.
    pub name: Cow<'static, str>,
    pub data: ColumnData,
}

/// A table of equally long named columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<Column>,
}

impl Table {
    /// A column of floats, kept as runs where that takes less room (see [`as_runs`]).
    pub fn f64(&mut self, name: impl Into<Cow<'static, str>>, v: Vec<f64>) -> &mut Self {
        let data = match as_runs(v) {
            Ok(runs) => ColumnData::F64Runs(runs),
            Err(v) => ColumnData::F64(v),
        };
        self.data(name, data)
    }

    /// [`Table::f64`] for integers.
    pub fn u64(&mut self, name: impl Into<Cow<'static, str>>, v: Vec<u64>) -> &mut Self {
        let data = match as_runs(v) {
            Ok(runs) => ColumnData::U64Runs(runs),
            Err(v) => ColumnData::U64(v),
        };
        self.data(name, data)
    }
    pub fn str(&mut self, name: impl Into<Cow<'static, str>>, v: Vec<String>) -> &mut Self {
        self.columns.push(Column {
            name: name.into(),
            data: ColumnData::Str(v),
        });
        self
    }
    pub fn data(&mut self, name: impl Into<Cow<'static, str>>, data: ColumnData) -> &mut Self {
        self.columns.push(Column {
            name: name.into(),
            data,
        });
        self
    }
    pub fn labels(&mut self, name: impl Into<Cow<'static, str>>, v: Labels) -> &mut Self {
        self.columns.push(Column {
            name: name.into(),
            data: ColumnData::Labels(v),
        });
        self
    }

    /// A column of one value per row of `rows`, given by `f`: a table is then written as a
    /// name and a getter per column (`sim/report.rs`).
    pub fn u64_of<R>(
        &mut self,
        name: &'static str,
        rows: &[R],
        f: impl Fn(&R) -> u64,
    ) -> &mut Self {
        self.u64(name, rows.iter().map(f).collect())
    }

    /// [`Table::u64_of`] for a column of floats.
    pub fn f64_of<R>(
        &mut self,
        name: &'static str,
        rows: &[R],
        f: impl Fn(&R) -> f64,
    ) -> &mut Self {
        self.f64(name, rows.iter().map(f).collect())
    }

    /// A column of the values `v` yields, one per row: a column computed from the run's
    /// state without a row type collected first (`sim/report.rs`: a row per link direction).
    pub fn u64_iter(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        v: impl Iterator<Item = u64>,
    ) -> &mut Self {
        self.u64(name, v.collect())
    }

    /// [`Table::u64_iter`] for a column of floats.
    pub fn f64_iter(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        v: impl Iterator<Item = f64>,
    ) -> &mut Self {
        self.f64(name, v.collect())
    }

    /// [`Table::u64_of`] for a column of strings.
    pub fn str_of<R>(
        &mut self,
        name: &'static str,
        rows: &[R],
        f: impl Fn(&R) -> String,
    ) -> &mut Self {
        self.str(name, rows.iter().map(f).collect())
    }

    pub fn column(&self, name: &str) -> Option<&ColumnData> {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .map(|c| &c.data)
    }

    /// A column of floats, row by row (runs written out).
    pub fn f64_column(&self, name: &str) -> Option<Cow<'_, [f64]>> {
        match self.column(name)? {
            ColumnData::F64(v) => Some(Cow::Borrowed(v)),
            ColumnData::F64Runs(v) => Some(Cow::Owned(v.to_vec())),
            _ => None,
        }
    }

    /// A column of integers, row by row (runs written out).
    pub fn u64_column(&self, name: &str) -> Option<Cow<'_, [u64]>> {
        match self.column(name)? {
            ColumnData::U64(v) => Some(Cow::Borrowed(v)),
            ColumnData::U64Runs(v) => Some(Cow::Owned(v.to_vec())),
            _ => None,
        }
    }

    /// Writes the table as CSV (floats in Rust's shortest round-trip form, so identical
    /// runs give identical bytes).
    pub fn to_csv(&self) -> String {
        let mut s = String::new();
        let names: Vec<&str> = self.columns.iter().map(|c| c.name.as_ref()).collect();
        s.push_str(&names.join(","));
        s.push('\n');
        let rows = self.columns.first().map_or(0, |c| c.data.len());
        for r in 0..rows {
            for (i, c) in self.columns.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                match &c.data {
                    ColumnData::F64(v) => s.push_str(&v[r].to_string()),
                    ColumnData::U64(v) => s.push_str(&v[r].to_string()),
                    ColumnData::Str(v) => s.push_str(&v[r]),
                    ColumnData::Labels(v) => s.push_str(v.get(r)),
                    ColumnData::F64Runs(v) => s.push_str(&v.get(r).to_string()),
                    ColumnData::U64Runs(v) => s.push_str(&v.get(r).to_string()),
                }
            }
            s.push('\n');
        }
        s
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub name: String,
    pub profile: String,
    pub seed: u64,
    pub duration_s: f64,
    pub warmup_s: f64,
    /// Scheduler events processed over the whole run.
    pub events: u64,
    /// Packets that crossed a link, data and ACKs, over the whole run.
    pub packet_hops: u64,
    /// Data packets that reached their receivers over the whole run.
    pub packets_delivered: u64,
    pub version: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub summary: Summary,
    pub flows: Table,
    pub queues: Table,
    pub timeseries: Table,
    pub queue_timeseries: Table,
    /// Event-driven TCP variable traces (empty unless a flow asks for them).
    pub tcp_trace: Table,
    /// One row per Tmix connection (empty without Tmix traffic).
    pub connections: Table,
    /// Per flow and direction, like ns-3's FlowMonitor (flows_detail.csv).
    pub flows_detail: Table,
    /// Congestion-control state per sample time: (time_s, flow, variable, value).
    pub cc_state: Table,
    /// Per-flow queue monitors of the links that ask for them.
    pub queue_flows: Table,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes stay a cycle while each row's is the next of the cycle, and are written out,
    /// reading the same, from the first that is not.
    #[test]
    fn codes_cycle_until_a_row_breaks_it() {
        let mut c = Codes::cycle(3);
        for k in [0, 1, 2, 0, 1, 2, 0] {
            c.push(k);
        }
        assert_eq!(c, Codes::Cycle { period: 3, rows: 7 });
        assert_eq!(c.iter().collect::<Vec<_>>(), [0, 1, 2, 0, 1, 2, 0]);
        c.push(2);
        assert_eq!(c, Codes::Each(vec![0, 1, 2, 0, 1, 2, 0, 2]));
        c.push(1);
        assert_eq!(c.get(8), 1);
        let mut first = Codes::cycle(2);
        first.push(1);
        assert_eq!(first, Codes::Each(vec![1]));
        assert_eq!(Codes::cycle(0), Codes::Each(Vec::new()));
    }

    /// Runs read back exactly the rows pushed, NaN and the sign of zero included, row by
    /// row, in order and written out.
    #[test]
    fn runs_read_back_what_was_pushed() {
        let rows = [1.5, 1.5, f64::NAN, f64::NAN, 0.0, -0.0, -0.0, 2.0];
        let mut r = Runs {
            values: Vec::new(),
            ends: Vec::new(),
        };
        assert!(r.is_empty() && r.iter().next().is_none());
        for x in rows {
            r.push(x);
        }
        assert_eq!(r.ends, [2, 4, 5, 7, 8]);
        assert_eq!(r.len(), rows.len());
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&r.to_vec()), bits(&rows));
        let got: Vec<f64> = (0..rows.len()).map(|i| r.get(i)).collect();
        assert_eq!(bits(&got), bits(&rows));
    }

    /// A column pushed row by row holds the rows a plain vector would, whether it stays runs
    /// or becomes plain on the way; it stays runs while runs take no more room than rows.
    #[test]
    fn runs_or_plain_holds_the_rows_of_a_plain_vector() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut kept = [0, 0]; // cases that stayed runs, that became plain
        for case in 0..300 {
            // A new value about every row, every second or third, or up to every hundredth.
            let change = if case % 2 == 0 {
                1 + case % 3
            } else {
                1 + case % 100
            };
            let n = (next() % 3000) as usize;
            let mut col = RunsOrPlain::with_capacity(n);
            let mut plain = Vec::new();
            let mut v = 0u64;
            for _ in 0..n {
                if next() % change as u64 == 0 {
                    v = next() % 4;
                }
                col.push(v);
                plain.push(v);
            }
            let runs = plain.windows(2).filter(|w| w[0] != w[1]).count() + usize::from(n > 0);
            match col.take_column() {
                ColumnData::U64Runs(r) => {
                    assert_eq!(r.to_vec(), plain, "case {case}");
                    assert_eq!(r.values.len(), runs);
                    // Every prefix kept few runs, the whole column included.
                    assert!(runs <= RunsOrPlain::<u64>::FEW_RUNS || 2 * runs <= n);
                    kept[0] += 1;
                }
                ColumnData::U64(p) => {
                    assert_eq!(p, plain, "case {case}");
                    assert!(runs > RunsOrPlain::<u64>::FEW_RUNS);
                    kept[1] += 1;
                }
                other => panic!("case {case}: {other:?}"),
            }
            assert!(
                col.take_column().is_empty(),
                "taking leaves the column empty"
            );
        }
        assert!(kept[0] > 30 && kept[1] > 30, "{kept:?}");
    }

    /// A table's column is kept as runs when they take at most half the rows, else as given;
    /// both read back the values.
    #[test]
    fn table_columns_are_runs_where_smaller() {
        let mut t = Table::default();
        t.u64("idle", vec![0, 0, 0, 7, 0, 0])
            .u64("busy", vec![1, 2, 3, 4])
            .f64("none", Vec::new())
            .f64("nan", vec![f64::NAN; 3]);
        assert!(matches!(t.column("idle"), Some(ColumnData::U64Runs(r)) if r.values.len() == 3));
        assert!(matches!(t.column("busy"), Some(ColumnData::U64(_))));
        assert!(matches!(t.column("none"), Some(ColumnData::F64(v)) if v.is_empty()));
        assert!(matches!(t.column("nan"), Some(ColumnData::F64Runs(_))));
        assert_eq!(*t.u64_column("idle").unwrap(), [0, 0, 0, 7, 0, 0]);
        assert_eq!(*t.u64_column("busy").unwrap(), [1, 2, 3, 4]);
        assert!(t.f64_column("nan").unwrap().iter().all(|x| x.is_nan()));
    }

    #[test]
    fn labels_keep_each_distinct_string_once() {
        let l = Labels::of(["tcp", "udp", "tcp", "tcp", ""]);
        assert_eq!(l.values, ["tcp", "udp", ""]);
        assert_eq!(l.codes, Codes::Each(vec![0, 1, 0, 0, 2]));
        assert_eq!(l.get(3), "tcp");
    }
}
