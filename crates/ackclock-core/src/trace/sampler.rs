//! Fixed-interval time series, sampled into preallocated columns.

use crate::queue::AqmState;
use crate::results::Table;

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

#[derive(Debug, Default)]
pub struct Sampler {
    interval_s: f64,
    last_received: Vec<u64>,
    time_s: Vec<f64>,
    flow: Vec<String>,
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
    q_link: Vec<String>,
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
        self.flow.push(name.to_string());
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

    pub fn queue(&mut self, t: f64, link: &str, packets: u64, bytes: u64, aqm: AqmState) {
        self.q_time_s.push(t);
        self.q_link.push(link.to_string());
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
        let mut ts = Table::default();
        ts.f64("time_s", self.time_s.clone())
            .str("flow", self.flow.clone())
            .f64("cwnd", self.cwnd.clone())
            .f64("ssthresh", self.ssthresh.clone())
            .f64("srtt_s", self.srtt_s.clone())
            .f64("rttvar_s", self.rttvar_s.clone())
            .f64("rto_s", self.rto_s.clone())
            .f64("backoff", self.backoff.clone())
            .u64("delivered_bytes", self.delivered_bytes.clone())
            .f64("throughput_mbps", self.throughput_mbps.clone())
            .f64("rtt_s", self.rtt_s.clone())
            .f64("window", self.window.clone());
        let mut qs = Table::default();
        qs.f64("time_s", self.q_time_s.clone())
            .str("link", self.q_link.clone())
            .u64("queue_packets", self.q_packets.clone())
            .u64("queue_bytes", self.q_bytes.clone())
            .f64("red_avg", self.q_avg.clone())
            .f64("drop_prob", self.q_prob.clone())
            .f64("codel_dropping", self.q_dropping.clone());
        for (name, v) in &self.q_own {
            qs.f64(name.clone(), v.clone());
        }
        (ts, qs)
    }
}
