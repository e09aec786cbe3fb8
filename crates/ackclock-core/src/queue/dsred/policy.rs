//! The edge's policy and policer tables (ns-2.35 diffserv/dsPolicy.cc, `PolicyClassifier`):
//! which meter and marker each source-destination pair goes through, and the code points
//! each marker's colors give.
//!
//! - `PolicyClassifier::getPolicyTableEntry`: the first entry, in the order added, whose
//!   source and destination match the packet's (an entry's `ANY_HOST`, here None, matches
//!   any node).
//! - `PolicyClassifier::getPolicerTableEntry`: the first policer entry of the policy's kind
//!   and initial code point.
//! - `PolicyClassifier::mark`: the policy's meter, then its marker, then the packet's code
//!   point is the color's (ns-2's `iph->prio_`).

use super::{srtcm, token_bucket, trtcm, tsw};
use crate::ids::NodeId;
use crate::rng::Uniform;

/// A marker's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    /// In profile: the initial code point.
    Green,
    /// The first downgrade (ns-2's `downgrade1`).
    Yellow,
    /// The second downgrade (`downgrade2`).
    Red,
}

/// A policer kind (dsPolicy.h's `policerType`, those ackclock has).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum PolicerKind {
    /// ns-2's Null (or Dumb): no meter, every packet keeps its initial code point.
    Null,
    /// Time sliding window, two colors.
    Tsw2cm,
    /// Time sliding window, three colors (RFC 2859).
    Tsw3cm,
    /// Token bucket (ns-2's TokenBucket).
    TokenBucket,
    /// Single rate three color marker (RFC 2697).
    Srtcm,
    /// Two rate three color marker (RFC 2698).
    Trtcm,
}

/// One policy's meter state and rates (dsPolicy.h's `policyTableEntry`): rates in bytes per
/// second, sizes in bytes, times in seconds.
#[derive(Clone, Copy, Debug, Default)]
pub struct PolicyState {
    pub cir: f64,
    pub cbs: f64,
    pub ebs: f64,
    pub pir: f64,
    pub pbs: f64,
    pub c_bucket: f64,
    pub e_bucket: f64,
    pub p_bucket: f64,
    pub avg_rate: f64,
    pub win_len: f64,
    pub arrival: f64,
}

impl PolicyState {
    /// As `PolicyClassifier::addPolicyEntry` sets an entry up: buckets full, the average
    /// rate at CIR, the last arrival at 0.
    pub fn new(cir: f64, cbs: f64, ebs: f64, pir: f64, pbs: f64, win_len: f64) -> PolicyState {
        PolicyState {
            cir,
            cbs,
            ebs,
            pir,
            pbs,
            c_bucket: cbs,
            e_bucket: ebs,
            p_bucket: pbs,
            avg_rate: cir,
            win_len,
            arrival: 0.0,
        }
    }
}

/// One policy of the table, built.
#[derive(Clone, Debug)]
pub struct Policy {
    pub src: Option<NodeId>,
    pub dst: Option<NodeId>,
    pub kind: PolicerKind,
    pub state: PolicyState,
    /// The code points of green, yellow and red (its policer entry's; None: it has none).
    pub code_points: Option<[u8; 3]>,
}

/// The policy table of one edge queue.
#[derive(Clone, Debug, Default)]
pub struct PolicyTable {
    pub policies: Vec<Policy>,
}

impl PolicyTable {
    /// `PolicyClassifier::mark` for a packet of `size` bytes from `src` to `dst` at `now`:
    /// its new code point, None when no policy matches (ns-2 prints an error and exits) or
    /// the policy has no policer entry (ns-2 crashes on its null entry).
    pub fn mark(
        &mut self,
        src: NodeId,
        dst: NodeId,
        size: u32,
        now: f64,
        rng: &mut Uniform,
    ) -> Option<u8> {
        let p = self
            .policies
            .iter_mut()
            .find(|p| p.src.is_none_or(|s| s == src) && p.dst.is_none_or(|d| d == dst))?;
        let size = size as f64;
        let s = &mut p.state;
        let color = match p.kind {
            PolicerKind::Null => {
                s.arrival = now; // NullPolicy::applyMeter
                Color::Green
            }
            PolicerKind::Tsw2cm => {
                tsw::meter(s, now, size);
                tsw::police_2cm(s, rng)
            }
            PolicerKind::Tsw3cm => {
                tsw::meter(s, now, size);
                tsw::police_3cm(s, rng)
            }
            PolicerKind::TokenBucket => {
                token_bucket::meter(s, now);
                token_bucket::police(s, size)
            }
            PolicerKind::Srtcm => {
                srtcm::meter(s, now);
                srtcm::police(s, size)
            }
            PolicerKind::Trtcm => {
                trtcm::meter(s, now);
                trtcm::police(s, size)
            }
        };
        p.code_points.map(|c| c[color as usize])
    }
}
