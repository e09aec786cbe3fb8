//! Fixed-interval time series, sampled into columns that keep repeated values as runs.

use std::mem;

use crate::queue::AqmState;
use crate::results::{Codes, Labels, RunsOrPlain, Table};

/// One flow's state at a sample instant. TCP-only fields are NaN for UDP flows.
#[derive(Clone, Copy, Debug)]
pub struct FlowSample {
    pub cwnd: f64,
    pub ssthresh: f64,
    pub srtt_s: f64,
    pub rttvar_s: f64,
    pub rto_s: f64,
    pub backoff: f64,
    pub delivered_bytes: u64,
    pub received_bytes: u64,
    /// The last RTT sample (ns-2 `rtt_`) and the window in use, min(cwnd + inflation, rwnd).
    pub rtt_s: f64,
    pub window: f64,
}

/// A value column: runs while its rows repeat (a sample's time over every flow's row, the
/// empty queues of a large topology's many links, a DropTail link's AQM state), else plain,
/// preallocated for the whole run (`RunsOrPlain`).
type Series<T> = RunsOrPlain<T>;

#[derive(Clone, Debug)]
pub struct Sampler {
    interval_s: f64,
    last_received: Vec<u64>,
    time_s: Series<f64>,
    /// The flow of each row, as an index into `flow_names` (a name per row would be an
    /// allocation per sample and most of the series' memory): a cycle over the flows.
    flow: Codes,
    flow_names: Vec<String>,
    cwnd: Series<f64>,
    ssthresh: Series<f64>,
    srtt_s: Series<f64>,
    rttvar_s: Series<f64>,
    rto_s: Series<f64>,
    backoff: Series<f64>,
    delivered_bytes: Series<u64>,
    throughput_mbps: Series<f64>,
    rtt_s: Series<f64>,
    window: Series<f64>,
    /// The queue rows expected over the run.
    queue_rows: usize,
    q_time_s: Series<f64>,
    /// The link of each queue row, as an index into `link_names`: a cycle over the links.
    q_link: Codes,
    link_names: Vec<String>,
    q_packets: Series<u64>,
    q_bytes: Series<u64>,
    q_avg: Series<f64>,
    q_prob: Series<f64>,
    q_dropping: Series<f64>,
    /// Columns of the state disciplines written in Python declare (NaN on other links).
    q_own: Vec<(String, Vec<f64>)>,
}

impl Default for Sampler {
    fn default() -> Sampler {
        Sampler::new(0.0, 0, 0, 0)
    }
}

impl Sampler {
    pub fn new(interval_s: f64, samples: usize, flows: usize, links: usize) -> Sampler {
        let nf = samples * flows;
        let nq = samples * links;
        Sampler {
            interval_s,
            last_received: vec![0; flows],
            time_s: Series::with_capacity(nf),
            flow: Codes::cycle(flows),
            flow_names: Vec::new(),
            cwnd: Series::with_capacity(nf),
            ssthresh: Series::with_capacity(nf),
            srtt_s: Series::with_capacity(nf),
            rttvar_s: Series::with_capacity(nf),
            rto_s: Series::with_capacity(nf),
            backoff: Series::with_capacity(nf),
            delivered_bytes: Series::with_capacity(nf),
            throughput_mbps: Series::with_capacity(nf),
            rtt_s: Series::with_capacity(nf),
            window: Series::with_capacity(nf),
            queue_rows: nq,
            q_time_s: Series::with_capacity(nq),
            q_link: Codes::cycle(links),
            link_names: Vec::new(),
            q_packets: Series::with_capacity(nq),
            q_bytes: Series::with_capacity(nq),
            q_avg: Series::with_capacity(nq),
            q_prob: Series::with_capacity(nq),
            q_dropping: Series::with_capacity(nq),
            q_own: Vec::new(),
        }
    }

    /// Adds a column of the queue time series for each of `names` not there yet: a
    /// discipline's declared state.
    pub fn declare_queue_columns(&mut self, names: &[String]) {
        for n in names {
            if !self.q_own.iter().any(|(c, _)| c == n) {
                self.q_own
                    .push((n.clone(), Vec::with_capacity(self.queue_rows)));
            }
        }
    }

    /// Whether some discipline declared state columns.
    pub fn has_own_queue_columns(&self) -> bool {
        !self.q_own.is_empty()
    }

    /// Sets the declared column `name` of the queue row recorded last.
    pub fn set_queue_column(&mut self, name: &str, value: f64) {
        if let Some((_, v)) = self.q_own.iter_mut().find(|(c, _)| c == name) {
            if let Some(last) = v.last_mut() {
                *last = value;
            }
        }
    }

    /// Records flow `i`; throughput is over the interval that ends now (wire bytes received).
    pub fn flow(&mut self, t: f64, i: usize, name: &str, s: FlowSample) {
        let got = s.received_bytes - self.last_received[i];
        self.last_received[i] = s.received_bytes;
        self.time_s.push(t);
        self.flow.push(code(&mut self.flow_names, i, name));
        self.cwnd.push(s.cwnd);
        self.ssthresh.push(s.ssthresh);
        self.srtt_s.push(s.srtt_s);
        self.rttvar_s.push(s.rttvar_s);
        self.rto_s.push(s.rto_s);
        self.backoff.push(s.backoff);
        self.delivered_bytes.push(s.delivered_bytes);
        let mbps = if t > 0.0 {
            got as f64 * 8.0 / self.interval_s.min(t) / 1e6
        } else {
            0.0
        };
        self.throughput_mbps.push(mbps);
        self.rtt_s.push(s.rtt_s);
        self.window.push(s.window);
    }

    /// Records link `j` (named `link`).
    pub fn queue(&mut self, t: f64, j: usize, link: &str, packets: u64, bytes: u64, aqm: AqmState) {
        self.q_time_s.push(t);
        self.q_link.push(code(&mut self.link_names, j, link));
        self.q_packets.push(packets);
        self.q_bytes.push(bytes);
        self.q_avg.push(aqm.avg);
        self.q_prob.push(aqm.prob);
        self.q_dropping.push(aqm.dropping);
        for (_, v) in &mut self.q_own {
            v.push(f64::NAN);
        }
    }

    /// The series recorded so far.
    pub fn tables(&self) -> (Table, Table) {
        self.clone().take_tables()
    }

    /// The series recorded so far, handed over: the sampler is left empty.
    pub fn take_tables(&mut self) -> (Table, Table) {
        let mut ts = Table::default();
        ts.data("time_s", self.time_s.take_column())
            .labels(
                "flow",
                Labels {
                    values: mem::take(&mut self.flow_names),
                    codes: mem::take(&mut self.flow),
                },
            )
            .data("cwnd", self.cwnd.take_column())
            .data("ssthresh", self.ssthresh.take_column())
            .data("srtt_s", self.srtt_s.take_column())
            .data("rttvar_s", self.rttvar_s.take_column())
            .data("rto_s", self.rto_s.take_column())
            .data("backoff", self.backoff.take_column())
            .data("delivered_bytes", self.delivered_bytes.take_column())
            .data("throughput_mbps", self.throughput_mbps.take_column())
            .data("rtt_s", self.rtt_s.take_column())
            .data("window", self.window.take_column());
        let mut qs = Table::default();
        qs.data("time_s", self.q_time_s.take_column())
            .labels(
                "link",
                Labels {
                    values: mem::take(&mut self.link_names),
                    codes: mem::take(&mut self.q_link),
                },
            )
            .data("queue_packets", self.q_packets.take_column())
            .data("queue_bytes", self.q_bytes.take_column())
            .data("red_avg", self.q_avg.take_column())
            .data("drop_prob", self.q_prob.take_column())
            .data("codel_dropping", self.q_dropping.take_column());
        for (name, v) in mem::take(&mut self.q_own) {
            qs.f64(name, v);
        }
        (ts, qs)
    }
}

/// Row code `i` of a names column, naming it `name` the first time (the names are the same
/// at every sample: a flow's or link's own).
fn code(names: &mut Vec<String>, i: usize, name: &str) -> u32 {
    if names.len() <= i {
        names.resize(i + 1, String::new());
    }
    if names[i].is_empty() {
        names[i] = name.to_string();
    }
    i as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::ColumnData;

    fn sample(cwnd: f64, received: u64) -> FlowSample {
        FlowSample {
            cwnd,
            ssthresh: 1.0,
            srtt_s: 0.1,
            rttvar_s: 0.05,
            rto_s: 1.0,
            backoff: 1.0,
            delivered_bytes: received,
            received_bytes: received,
            rtt_s: 0.1,
            window: cwnd,
        }
    }

    /// Names are kept once per flow or link, rows hold codes; `tables` copies what
    /// `take_tables` hands over, which leaves the sampler empty.
    #[test]
    fn rows_name_their_flow_and_link_by_code_and_take_empties_the_sampler() {
        let mut s = Sampler::new(0.5, 2, 2, 1);
        for (k, t) in [0.5, 1.0].into_iter().enumerate() {
            s.flow(t, 0, "a", sample(2.0 + k as f64, 1000 * k as u64));
            s.flow(t, 1, "b", sample(5.0, 0));
            let aqm = AqmState {
                avg: 0.0,
                prob: 0.0,
                dropping: 0.0,
            };
            s.queue(t, 0, "x->y", 3, 4500, aqm);
        }
        assert_eq!(s.flow, Codes::Cycle { period: 2, rows: 4 });
        assert_eq!(s.flow_names, ["a", "b"]);
        let (ts, qs) = s.tables();
        let names = |t: &Table, c: &str| -> Vec<String> {
            let col = t.columns.iter().find(|x| x.name == c).unwrap();
            (0..col.data.len())
                .map(|r| col.data.str_at(r).unwrap().to_string())
                .collect()
        };
        assert_eq!(names(&ts, "flow"), ["a", "b", "a", "b"]);
        assert_eq!(names(&qs, "link"), ["x->y", "x->y"]);
        let (ts2, qs2) = s.take_tables();
        assert_eq!(format!("{ts:?}{qs:?}"), format!("{ts2:?}{qs2:?}"));
        let (empty, _) = s.take_tables();
        assert_eq!(empty.columns[0].data.len(), 0);
    }

    /// A sample's time over its rows and a column that never changes are kept as runs; a
    /// column that changes at every row becomes plain; all read back as pushed.
    #[test]
    fn repeated_values_are_kept_as_runs() {
        let (flows, samples) = (40, 5);
        let mut s = Sampler::new(1.0, samples, flows, 1);
        for k in 0..samples {
            let t = k as f64;
            for i in 0..flows {
                s.flow(t, i, &format!("f{i}"), sample((k * flows + i) as f64, 0));
            }
        }
        let (ts, _) = s.take_tables();
        let col = |c: &str| ts.column(c).unwrap();
        match col("time_s") {
            ColumnData::F64Runs(r) => assert_eq!(r.values, [0.0, 1.0, 2.0, 3.0, 4.0]),
            other => panic!("{other:?}"),
        }
        match col("rto_s") {
            ColumnData::F64Runs(r) => assert_eq!((r.values.len(), r.len()), (1, 200)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(col("cwnd"), ColumnData::F64(_)));
        let cwnd = ts.f64_column("cwnd").unwrap();
        assert!(cwnd.iter().enumerate().all(|(r, &c)| c == r as f64));
        let time = ts.f64_column("time_s").unwrap();
        assert!(time
            .iter()
            .enumerate()
            .all(|(r, &t)| t == (r / flows) as f64));
    }
}
