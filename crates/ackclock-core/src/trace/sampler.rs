//! Fixed-interval time series, sampled into preallocated columns.

use std::mem;

use crate::queue::AqmState;
use crate::results::{Labels, Table};

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

#[derive(Clone, Debug, Default)]
pub struct Sampler {
    interval_s: f64,
    last_received: Vec<u64>,
    time_s: Vec<f64>,
    /// The flow of each row, as an index into `flow_names` (a name per row would be an
    /// allocation per sample and most of the series' memory).
    flow: Vec<u32>,
    flow_names: Vec<String>,
    cwnd: Vec<f64>,
    ssthresh: Vec<f64>,
    srtt_s: Vec<f64>,
    rttvar_s: Vec<f64>,
    rto_s: Vec<f64>,
    backoff: Vec<f64>,
    delivered_bytes: Vec<u64>,
    throughput_mbps: Vec<f64>,
    rtt_s: Vec<f64>,
    window: Vec<f64>,
    q_time_s: Vec<f64>,
    /// The link of each queue row, as an index into `link_names`.
    q_link: Vec<u32>,
    link_names: Vec<String>,
    q_packets: Vec<u64>,
    q_bytes: Vec<u64>,
    q_avg: Vec<f64>,
    q_prob: Vec<f64>,
    q_dropping: Vec<f64>,
    /// Columns of the state disciplines written in Python declare (NaN on other links).
    q_own: Vec<(String, Vec<f64>)>,
}

impl Sampler {
    pub fn new(interval_s: f64, samples: usize, flows: usize, links: usize) -> Sampler {
        let nf = samples * flows;
        let nq = samples * links;
        Sampler {
            interval_s,
            last_received: vec![0; flows],
            time_s: Vec::with_capacity(nf),
            flow: Vec::with_capacity(nf),
            flow_names: Vec::new(),
            cwnd: Vec::with_capacity(nf),
            ssthresh: Vec::with_capacity(nf),
            srtt_s: Vec::with_capacity(nf),
            rttvar_s: Vec::with_capacity(nf),
            rto_s: Vec::with_capacity(nf),
            backoff: Vec::with_capacity(nf),
            delivered_bytes: Vec::with_capacity(nf),
            throughput_mbps: Vec::with_capacity(nf),
            rtt_s: Vec::with_capacity(nf),
            window: Vec::with_capacity(nf),
            q_time_s: Vec::with_capacity(nq),
            q_link: Vec::with_capacity(nq),
            link_names: Vec::new(),
            q_packets: Vec::with_capacity(nq),
            q_bytes: Vec::with_capacity(nq),
            q_avg: Vec::with_capacity(nq),
            q_prob: Vec::with_capacity(nq),
            q_dropping: Vec::with_capacity(nq),
            q_own: Vec::new(),
        }
    }

    /// Adds a column of the queue time series for each of `names` not there yet: a
    /// discipline's declared state.
    pub fn declare_queue_columns(&mut self, names: &[String]) {
        for n in names {
            if !self.q_own.iter().any(|(c, _)| c == n) {
                self.q_own
                    .push((n.clone(), Vec::with_capacity(self.q_dropping.capacity())));
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
        ts.f64("time_s", mem::take(&mut self.time_s))
            .labels(
                "flow",
                Labels {
                    values: mem::take(&mut self.flow_names),
                    codes: mem::take(&mut self.flow),
                },
            )
            .f64("cwnd", mem::take(&mut self.cwnd))
            .f64("ssthresh", mem::take(&mut self.ssthresh))
            .f64("srtt_s", mem::take(&mut self.srtt_s))
            .f64("rttvar_s", mem::take(&mut self.rttvar_s))
            .f64("rto_s", mem::take(&mut self.rto_s))
            .f64("backoff", mem::take(&mut self.backoff))
            .u64("delivered_bytes", mem::take(&mut self.delivered_bytes))
            .f64("throughput_mbps", mem::take(&mut self.throughput_mbps))
            .f64("rtt_s", mem::take(&mut self.rtt_s))
            .f64("window", mem::take(&mut self.window));
        let mut qs = Table::default();
        qs.f64("time_s", mem::take(&mut self.q_time_s))
            .labels(
                "link",
                Labels {
                    values: mem::take(&mut self.link_names),
                    codes: mem::take(&mut self.q_link),
                },
            )
            .u64("queue_packets", mem::take(&mut self.q_packets))
            .u64("queue_bytes", mem::take(&mut self.q_bytes))
            .f64("red_avg", mem::take(&mut self.q_avg))
            .f64("drop_prob", mem::take(&mut self.q_prob))
            .f64("codel_dropping", mem::take(&mut self.q_dropping));
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
        assert_eq!(s.flow, [0, 1, 0, 1]);
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
}
