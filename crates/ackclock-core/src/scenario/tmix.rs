//! Tmix connection vectors (M. C. Weigle et al., "Tmix: A Tool for Generating Realistic TCP
//! Application Workloads in ns-2", ACM CCR 36(3), 2006) as the engine holds them: one array
//! per field, the ADUs of all an application's connections in order, as the document carries
//! them (`connections`: docs/traffic.md).
//!
//! A replay holds up to millions of connections (seed 003's study runs: 6.5 million of 5 ADUs
//! on average). Held as columns a connection takes 45 bytes and an ADU 17, where a record per
//! connection with its own list of ADUs took about 80 and 24, and a heap allocation each. The
//! front end hands the columns to the binding as arrays, without JSON text
//! ([`TmixVectors::from_columns`]); a document given as text reads them through serde.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

// The columns as the document carries them (and its schema describes them).
#[derive(Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Columns {
    pub start_ps: Vec<u64>,
    pub concurrent: Vec<bool>,
    pub rtt_ps: Vec<u64>,
    pub loss_initiator: Vec<f64>,
    pub loss_acceptor: Vec<f64>,
    /// Each side's window in bytes (0: the flow's); absent: none has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub window_initiator: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub window_acceptor: Vec<u32>,
    /// Each connection's own wait before its closing write (a SEQ vector's trailing `t`, ns-2.35's
    /// per-connection `fin_time_`); 0: the application's `fin_wait`; absent: none has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fin_wait_ps: Vec<u64>,
    // How many ADUs each connection has.
    pub adus: Vec<u32>,
    /// 0: written by the initiator, 1: by the acceptor.
    pub adu_side: Vec<u8>,
    pub adu_bytes: Vec<u64>,
    pub adu_wait_ps: Vec<u64>,
}

/// The columns as `serialize` writes them (the same fields, in the same order).
#[derive(Serialize)]
struct ColumnsRef<'a> {
    start_ps: &'a [u64],
    concurrent: &'a [bool],
    rtt_ps: &'a [u64],
    loss_initiator: &'a [f64],
    loss_acceptor: &'a [f64],
    #[serde(skip_serializing_if = "<[u32]>::is_empty")]
    window_initiator: &'a [u32],
    #[serde(skip_serializing_if = "<[u32]>::is_empty")]
    window_acceptor: &'a [u32],
    #[serde(skip_serializing_if = "<[u64]>::is_empty")]
    fin_wait_ps: &'a [u64],
    adus: Vec<u32>,
    adu_side: &'a [u8],
    adu_bytes: &'a [u64],
    adu_wait_ps: &'a [u64],
}

/// An application's connection vectors; connection `j`'s ADUs are
/// `first[j]..first[j + 1]` of the ADU columns.
#[derive(Clone, Debug, Default)]
pub struct TmixVectors {
    start_ps: Vec<u64>,
    concurrent: Vec<bool>,
    rtt_ps: Vec<u64>,
    loss: [Vec<f64>; 2],
    /// Empty when no connection has a window of its own.
    window: [Vec<u32>; 2],
    /// Empty when no connection has a closing wait of its own.
    fin_wait_ps: Vec<u64>,
    first: Vec<u64>,
    side: Vec<u8>,
    bytes: Vec<u64>,
    wait_ps: Vec<u64>,
}

/// One connection's ADUs: who writes each (0 the initiator, 1 the acceptor), its bytes, and
/// the wait before it (see `traffic/tmix/`).
#[derive(Clone, Copy, Debug)]
pub struct TmixAdus<'a> {
    pub side: &'a [u8],
    pub bytes: &'a [u64],
    pub wait_ps: &'a [u64],
}

impl TmixAdus<'_> {
    pub fn len(&self) -> usize {
        self.side.len()
    }

    pub fn is_empty(&self) -> bool {
        self.side.is_empty()
    }
}

impl TmixVectors {
    /// The columns checked for lengths and sides; a message names the column
    /// (`connections.adu_bytes: 8 values for 9 ADUs`).
    pub fn from_columns(c: Columns) -> Result<TmixVectors, String> {
        let n = c.start_ps.len();
        for (name, len) in [
            ("concurrent", c.concurrent.len()),
            ("rtt_ps", c.rtt_ps.len()),
            ("loss_initiator", c.loss_initiator.len()),
            ("loss_acceptor", c.loss_acceptor.len()),
            ("adus", c.adus.len()),
        ] {
            if len != n {
                return Err(format!(
                    "connections.{name}: {len} values for {n} connections"
                ));
            }
        }
        for (name, len) in [
            ("window_initiator", c.window_initiator.len()),
            ("window_acceptor", c.window_acceptor.len()),
            ("fin_wait_ps", c.fin_wait_ps.len()),
        ] {
            if len != 0 && len != n {
                return Err(format!(
                    "connections.{name}: {len} values for {n} connections"
                ));
            }
        }
        let mut first = Vec::with_capacity(n + 1);
        let mut total = 0u64;
        first.push(0);
        for &k in &c.adus {
            total += u64::from(k);
            first.push(total);
        }
        for (name, len) in [
            ("adu_side", c.adu_side.len()),
            ("adu_bytes", c.adu_bytes.len()),
            ("adu_wait_ps", c.adu_wait_ps.len()),
        ] {
            if len as u64 != total {
                return Err(format!("connections.{name}: {len} values for {total} ADUs"));
            }
        }
        if let Some(k) = c.adu_side.iter().position(|&s| s > 1) {
            return Err(format!(
                "connections.adu_side[{k}]: expected 0 (initiator) or 1 (acceptor)"
            ));
        }
        // One window column given without the other: the other's windows are 0 (the flow's).
        let mut window = [c.window_initiator, c.window_acceptor];
        if window.iter().all(|w| w.iter().all(|&x| x == 0)) {
            window = [Vec::new(), Vec::new()];
        } else {
            for w in &mut window {
                w.resize(n, 0);
            }
        }
        let mut fin_wait_ps = c.fin_wait_ps;
        if fin_wait_ps.iter().all(|&x| x == 0) {
            fin_wait_ps = Vec::new();
        }
        Ok(TmixVectors {
            start_ps: c.start_ps,
            concurrent: c.concurrent,
            rtt_ps: c.rtt_ps,
            loss: [c.loss_initiator, c.loss_acceptor],
            window,
            fin_wait_ps,
            first,
            side: c.adu_side,
            bytes: c.adu_bytes,
            wait_ps: c.adu_wait_ps,
        })
    }

    /// The number of connections.
    pub fn len(&self) -> usize {
        self.start_ps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.start_ps.is_empty()
    }

    /// Connection `j`'s start, after the application's.
    pub fn start_ps(&self, j: usize) -> u64 {
        self.start_ps[j]
    }

    /// CONC (both sides write independently) rather than SEQ (request/response turns).
    pub fn concurrent(&self, j: usize) -> bool {
        self.concurrent[j]
    }

    /// The connection's minimum round-trip time (Tmix_DelayBox); 0: the path's own.
    pub fn rtt_ps(&self, j: usize) -> u64 {
        self.rtt_ps[j]
    }

    /// Loss rates of the packets the initiator and the acceptor send.
    pub fn loss(&self, j: usize) -> [f64; 2] {
        [self.loss[0][j], self.loss[1][j]]
    }

    /// The initiator's and the acceptor's window in bytes (the vector's `w` line), each
    /// capping its own side's sending as ns-2.35's Tmix sets each FullTcp agent's `window_`
    /// (`ConnVector::set_init_win`, `Tmix instproc setup-tcp`); 0: the flow's.
    pub fn window(&self, j: usize) -> [u32; 2] {
        let [a, b] = &self.window;
        if a.is_empty() {
            return [0, 0];
        }
        [a[j], b[j]]
    }

    /// Connection `j`'s own wait before its closing write (a SEQ vector's trailing `t`: ns-2.35's
    /// `Tmix::read_one_cvec` makes it the closing ADU's wait in place of `fin_time_`); None:
    /// the application's.
    pub fn fin_wait_ps(&self, j: usize) -> Option<u64> {
        self.fin_wait_ps.get(j).copied().filter(|&w| w > 0)
    }

    /// Connection `j`'s ADUs.
    pub fn adus(&self, j: usize) -> TmixAdus<'_> {
        let r = self.first[j] as usize..self.first[j + 1] as usize;
        TmixAdus {
            side: &self.side[r.clone()],
            bytes: &self.bytes[r.clone()],
            wait_ps: &self.wait_ps[r],
        }
    }

    /// Each side's ADU bytes in connection `j`'s vector (initiator's, acceptor's).
    pub fn total_bytes(&self, j: usize) -> [u64; 2] {
        let a = self.adus(j);
        let mut t = [0; 2];
        for (&s, &b) in a.side.iter().zip(a.bytes) {
            t[usize::from(s)] += b;
        }
        t
    }

    /// The rules the engine relies on, the first broken one named at its connection
    /// (`connections[j]...`).
    pub fn check(&self) -> Result<(), String> {
        for j in 0..self.len() {
            let p = format!("connections[{j}]");
            if self.first[j] == self.first[j + 1] {
                return Err(format!("{p}: a connection needs at least one ADU"));
            }
            if self.loss(j).iter().any(|x| !(0.0..=1.0).contains(x)) {
                return Err(format!("{p}.loss: must be probabilities in [0, 1]"));
            }
            if self.adus(j).bytes.iter().any(|&b| b > 1 << 40) {
                return Err(format!("{p}: an ADU larger than 2^40 bytes"));
            }
        }
        Ok(())
    }
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Box<TmixVectors>, D::Error> {
    use serde::de::Error;
    TmixVectors::from_columns(Columns::deserialize(d)?)
        .map(Box::new)
        .map_err(D::Error::custom)
}

pub fn serialize<V, S>(v: &V, s: S) -> Result<S::Ok, S::Error>
where
    V: std::ops::Deref<Target = TmixVectors>,
    S: Serializer,
{
    ColumnsRef {
        start_ps: &v.start_ps,
        concurrent: &v.concurrent,
        rtt_ps: &v.rtt_ps,
        loss_initiator: &v.loss[0],
        loss_acceptor: &v.loss[1],
        window_initiator: &v.window[0],
        window_acceptor: &v.window[1],
        fin_wait_ps: &v.fin_wait_ps,
        adus: v.first.windows(2).map(|w| (w[1] - w[0]) as u32).collect(),
        adu_side: &v.side,
        adu_bytes: &v.bytes,
        adu_wait_ps: &v.wait_ps,
    }
    .serialize(s)
}
