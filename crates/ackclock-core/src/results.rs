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
}

/// A column of repeated strings: `values[codes[row]]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Labels {
    pub values: Vec<String>,
    pub codes: Vec<u32>,
}

impl Labels {
    /// Row `r`'s string.
    pub fn get(&self, r: usize) -> &str {
        &self.values[self.codes[r] as usize]
    }

    /// Adds a row of `values[code]`.
    pub fn push(&mut self, code: u32) {
        self.codes.push(code);
    }
}

impl ColumnData {
    pub fn len(&self) -> usize {
        match self {
            ColumnData::F64(v) => v.len(),
            ColumnData::U64(v) => v.len(),
            ColumnData::Str(v) => v.len(),
            ColumnData::Labels(v) => v.codes.len(),
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
    pub fn f64(&mut self, name: impl Into<Cow<'static, str>>, v: Vec<f64>) -> &mut Self {
        self.columns.push(Column {
            name: name.into(),
            data: ColumnData::F64(v),
        });
        self
    }
    pub fn u64(&mut self, name: impl Into<Cow<'static, str>>, v: Vec<u64>) -> &mut Self {
        self.columns.push(Column {
            name: name.into(),
            data: ColumnData::U64(v),
        });
        self
    }
    pub fn str(&mut self, name: impl Into<Cow<'static, str>>, v: Vec<String>) -> &mut Self {
        self.columns.push(Column {
            name: name.into(),
            data: ColumnData::Str(v),
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

    pub fn f64_column(&self, name: &str) -> Option<&[f64]> {
        match self.column(name)? {
            ColumnData::F64(v) => Some(v),
            _ => None,
        }
    }

    pub fn u64_column(&self, name: &str) -> Option<&[u64]> {
        match self.column(name)? {
            ColumnData::U64(v) => Some(v),
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
