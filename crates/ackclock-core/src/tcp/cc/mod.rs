//! Congestion control behind Linux's hooks (`struct tcp_congestion_ops`, include/net/tcp.h;
//! ns-3's `TcpCongestionOps` has the same set).
//!
//! The sender owns loss detection, recovery and the rate sampler; an algorithm is a type that
//! implements [`CongestionOps`] and answers the sender's hooks:
//!
//! | hook | Linux | called by the sender | required |
//! |---|---|---|---|
//! | [`CongestionOps::ssthresh`] | `ssthresh` | on a loss (fast retransmit, ECN echo, timeout) | yes |
//! | [`CongestionOps::cong_avoid`] | `cong_avoid` | on a new ACK outside recovery, when cwnd may grow | yes (may be empty with `cong_control`) |
//! | [`CongestionOps::pkts_acked`] | `pkts_acked` | on every ACK that acknowledges new data | no |
//! | [`CongestionOps::set_state`] | `set_state` | entering fast recovery (`Recovery`), leaving it (`Open`), on a timeout (`Loss`) | no |
//! | [`CongestionOps::cwnd_event`] | `cwnd_event` | `TxStart` (new data with nothing in flight), `Loss` (a timeout, before `ssthresh`) | no |
//! | [`CongestionOps::cong_control`] | `cong_control` | on every ACK, before loss recovery, with a rate sample, if [`CongestionOps::CONG_CONTROL`] | no |
//! | [`CongestionOps::undo_cwnd`] | `undo_cwnd` | when the `rack` sender (the `linux` profile) undoes a spurious reduction (`tcp_undo_cwnd_reduction`) | no (Reno's default) |
//! | [`CongestionOps::in_ack_event`] | `in_ack_event` | on every ACK that acknowledges new data, before the sender reacts to its ECN-Echo | no |
//!
//! An algorithm that owns cwnd and pacing (BBR) sets `CONG_CONTROL = true`: the sender then
//! keeps a delivery-rate sampler for it and hands it each ACK's [`RateSample`]; it never names
//! the algorithm. State lives inside the algorithm's value, inline in the sender.
//!
//! Adding an algorithm: one file in this directory with its parameters as a typed struct
//! (one `crate::params!` block: a field per parameter, with its declaration) and a type that
//! implements [`CongestionOps`] (its [`CcInfo`]: name, ns-3 classes, the struct's `PARAMS`;
//! `type Params`), and one line in the `algorithms!` list below. The list makes the `AnyCc`
//! enum and its dispatch (no hand-written arms), `CcConfig` (a flow's congestion control as
//! the scenario gives it, typed: a variant per algorithm with the parameters given, read from
//! `cc` and `cc_params` once, when the document is) and [`REGISTRY`], which the Python front
//! end reads through the binding (`ackclock._core.cc_registry()`) to check and document
//! parameters.

use std::collections::BTreeMap;

pub use crate::params::{Bounds, Described, Given, Param, ParamSet, Range};
use crate::tcp::delivery_rate::RateSample;
use crate::time::{SimDuration, SimTime};

/// The connection state congestion control reads and writes, in segments: Linux's
/// `tp->snd_cwnd`, `tp->snd_ssthresh`, the receiver's window and `sk->sk_pacing_rate`.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub cwnd: f64,
    pub ssthresh: f64,
    /// The receiver's advertised window.
    pub rwnd: f64,
    /// RFC 3742's max_ssthresh in segments (0 = off): a TCP parameter that every algorithm
    /// slow-starting with [`slow_start`] honours.
    pub max_ssthresh: f64,
    /// Segments per second to pace at, set by `cong_control` (0: no pacing from congestion
    /// control).
    pub pacing_rate: f64,
    /// Set by `cong_control` to mark what is in flight application-limited, so that rate
    /// samples until it is delivered say so (Linux's BBR writes `tp->app_limited` in
    /// ProbeRTT, `bbr_update_min_rtt`); the sender clears it.
    pub app_limited: bool,
    /// The segment size in bytes when per-ACK growth is ns-3's `TcpNewReno`'s in whole bytes
    /// (the TCP parameter `ns3_newreno_growth` with a class derived from `TcpNewReno`: ns-3's
    /// cwnd is a `uint32_t` of bytes, and [`reno_increase`] adds whole bytes); 0 otherwise.
    pub ns3_mss: f64,
    /// What is in flight when a loss or an ECN echo reduces the window, as the sender's
    /// scoreboard counts it (RFC 5681 eq. (4)'s FlightSize with RFC 6675's pipe: sent, less
    /// SACKed and lost, plus retransmitted; ns-3.44's `TcpTxBuffer::BytesInFlight`), in
    /// segments; set only for the `ssthresh` call (`rfc6675_recovery`), `None` otherwise.
    pub flight: Option<f64>,
}

impl Window {
    /// A window of `cwnd` segments, threshold `ssthresh`, receiver window `rwnd`, without
    /// limited slow start or pacing.
    pub const fn new(cwnd: f64, ssthresh: f64, rwnd: f64) -> Window {
        Window {
            cwnd,
            ssthresh,
            rwnd,
            max_ssthresh: 0.0,
            pacing_rate: 0.0,
            app_limited: false,
            ns3_mss: 0.0,
            flight: None,
        }
    }

    /// ns-3.44's `TcpNewReno::GetSsThresh` (src/internet/model/tcp-congestion-ops.cc), which
    /// `TcpLp` and `TcpHybla` inherit: max(2 segments, bytesInFlight / 2), the bytes in flight
    /// those `TcpSocketBase::EnterRecovery`, `ReTxTimeout` and `EnterCwr` pass
    /// ([`Window::flight`]); cwnd where the sender keeps no scoreboard.
    pub fn ns3_newreno_ssthresh(&self) -> f64 {
        let flight = self.flight.unwrap_or(self.cwnd);
        let half = if self.ns3_mss > 0.0 {
            // uint32_t bytes: bytesInFlight / 2 truncated.
            (flight * self.ns3_mss / 2.0).floor() / self.ns3_mss
        } else {
            flight / 2.0
        };
        half.max(2.0)
    }

    /// ns-3.44's `bytesInFlight` argument of `GetSsThresh` in whole bytes, as segments
    /// (`bytesInFlight / m_segmentSize` is [`f64::floor`] of it): [`Window::flight`], cwnd
    /// where the sender keeps no scoreboard. `None` unless the class is ns-3's
    /// (`ns3_mss` > 0, the `ns3` profile), so that other profiles keep their rules.
    pub fn ns3_bytes_in_flight(&self) -> Option<f64> {
        (self.ns3_mss > 0.0)
            .then(|| (self.flight.unwrap_or(self.cwnd) * self.ns3_mss).round() / self.ns3_mss)
    }
}

/// One new cumulative ACK, as `cong_avoid` sees it (Linux passes `ack` and `acked`; the rest
/// Linux algorithms read from the socket).
#[derive(Clone, Copy, Debug)]
pub struct AckEvent {
    pub now: SimTime,
    /// Segments newly acknowledged.
    pub acked: u64,
    /// Growth credit of this ACK in segments: 1 per ACK with packet-counted windows (ns-2),
    /// the segments it acknowledges with byte-counted ones (RFC 3465, as ns-3 and
    /// IKRSimLib count bytes acknowledged).
    pub credit: f64,
    /// The RTT estimator's sample, when this ACK gave one.
    pub rtt: Option<SimDuration>,
    /// This ACK's own round-trip time (now minus the echoed send time of the segment it
    /// answers): the delay signal of Vegas and FAST.
    pub delay: Option<SimDuration>,
    /// The cumulative ACK after this one (first unacknowledged segment), and one past the
    /// highest segment sent so far: HyStart's rounds.
    pub una: u64,
    pub sent: u64,
    /// Grow per ACK, not per segment, where ns-3's `TcpNewReno` does ([`slow_start`] adds one
    /// segment, [`reno_increase`] 1/cwnd, however many segments the ACK covers): the TCP
    /// parameter `ns3_newreno_growth` with an ns-3 class derived from `TcpNewReno`.
    pub per_ack: bool,
}

#[cfg(test)]
impl AckEvent {
    /// A test ACK of one segment, one unit of credit, at `now`, with the delay sample `delay`.
    pub fn one_segment(now: SimTime, delay: Option<SimDuration>) -> AckEvent {
        AckEvent {
            now,
            acked: 1,
            credit: 1.0,
            rtt: None,
            delay,
            una: 0,
            sent: 0,
            per_ack: false,
        }
    }

    /// A test ACK at time zero covering `acked` segments (as much credit), no samples;
    /// `per_ack` as the ns3 profile's TcpNewReno-derived growth sets it.
    pub fn segments(acked: u64, per_ack: bool) -> AckEvent {
        AckEvent {
            acked,
            credit: acked as f64,
            per_ack,
            ..AckEvent::one_segment(SimTime::ZERO, None)
        }
    }
}

/// What `pkts_acked` learns of an ACK (Linux's `struct ack_sample`).
#[derive(Clone, Copy, Debug)]
pub struct AckSample {
    pub now: SimTime,
    /// Segments newly acknowledged by the cumulative ACK (`pkts_acked`).
    pub acked: u64,
    /// The RTT sample this ACK gave (`rtt_us`; None where Linux passes -1). (Linux's sample
    /// also carries `in_flight`; [`Conn`] has it where a hook needs it.)
    pub rtt: Option<SimDuration>,
    /// The one-way delay the ACK's timestamps tell (its TSval, when the receiver sent it,
    /// less its TSecr, when the segment it echoes was sent: RFC 6817's and ns-3's
    /// `m_rcvTimestampValue - m_rcvTimestampEchoReply`); None without timestamps. Under
    /// `ns3_ts_ms`, in whole milliseconds of the two timestamps, as ns-3's are.
    pub owd: Option<SimDuration>,
    /// When the segment the ACK's TSecr echoes was sent (ns-3's `m_rcvTimestampEchoReply`);
    /// None without timestamps.
    pub echo: Option<SimTime>,
    /// Under `ns3_srtt_samples`, ns-3.44's `tcb->m_minRtt`: the smallest smoothed RTT since
    /// the handshake's sample (`TcpSocketBase::EstimateRtt`), which `rtt` (the smoothed RTT)
    /// then equals only when it is the smallest yet; else None.
    pub min_rtt: Option<SimDuration>,
}

/// The optional hooks on the sender's per-segment and per-ACK paths that an algorithm
/// implements ([`CongestionOps::PKTS_ACKED`], [`CongestionOps::IN_ACK_EVENT`],
/// [`CongestionOps::CWND_EVENT`]); the sender calls such a hook only if it is set, as Linux
/// tests the hook's pointer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcHooks {
    pub pkts_acked: bool,
    pub in_ack_event: bool,
    pub cwnd_event: bool,
}

/// What `in_ack_event` learns of an ACK that acknowledges new data (Linux passes the ACK's
/// flags, `CA_ACK_ECE` among them; DCTCP counts the bytes ECN-Echo covers from them).
#[derive(Clone, Copy, Debug)]
pub struct AckFlags {
    pub now: SimTime,
    /// Segments newly acknowledged by the cumulative ACK.
    pub acked: u64,
    /// The ACK carries ECN-Echo.
    pub ece: bool,
    /// The cumulative ACK after this one, and one past the highest segment sent so far.
    pub una: u64,
    pub sent: u64,
}

/// What the connection knows that `set_state` and `cong_control` may read (Linux reads these
/// from `struct tcp_sock`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Conn {
    pub now: SimTime,
    /// Segments delivered so far (`tp->delivered`; 0 without a rate sampler).
    pub delivered: u64,
    /// Segments in flight (`tcp_packets_in_flight`), after this ACK where one is handled.
    pub in_flight: u64,
    /// The smoothed RTT in seconds (0: none yet).
    pub srtt_s: f64,
    /// The sender's congestion state (`icsk_ca_state`).
    pub ca_state: CaState,
    /// Segments marked lost so far (`tp->lost`: each segment marked, and each retransmission
    /// marked again; `rack` senders only, else 0).
    pub lost: u64,
    /// The connection's minimum RTT in seconds (`tcp_min_rtt`: every clean sample since the
    /// handshake's, the SYN's included; `rack` senders only, else 0).
    pub min_rtt_s: f64,
}

/// Linux's congestion-avoidance states (`enum tcp_ca_state`), in its order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum CaState {
    #[default]
    Open,
    Disorder,
    Cwr,
    Recovery,
    Loss,
}

/// Linux's congestion-window events (`enum tcp_ca_event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaEvent {
    /// First transmission when nothing is in flight (`CA_EVENT_TX_START`).
    TxStart,
    /// Congestion window restart after idle (`CA_EVENT_CWND_RESTART`; not raised yet).
    CwndRestart,
    /// The end of a window reduction (`CA_EVENT_COMPLETE_CWR`; not raised yet).
    CompleteCwr,
    /// A retransmission timeout (`CA_EVENT_LOSS`).
    Loss,
}

/// One ns-3.44 class an algorithm stands for, accepted as a `cc` value (ns-3's TypeId name,
/// `TcpNewReno`, `TcpCubic`, ...).
#[derive(Clone, Copy, Debug)]
pub struct Ns3Class {
    pub name: &'static str,
    /// The class grows as `TcpNewReno` does (`TcpNewReno::SlowStart` adds one segment per ACK
    /// however many it acknowledges, `TcpNewReno::CongestionAvoidance` 1/cwnd per ACK): the
    /// sender then counts ACKs, not segments, when the TCP parameter `ns3_newreno_growth` is on.
    pub per_ack: bool,
    /// The class's `IncreaseWindow` returns without growth unless `m_isCwndLimited` (ns-3.44's
    /// `TcpCubic`, and `TcpLinuxReno` with its default `m_suppressIncreaseIfCwndLimited`;
    /// `TcpDctcp` turns it off): the TCP parameter `ns3_cwnd_limited`.
    pub cwnd_gated: bool,
    /// With `cwnd_gated`: whether slow start is held back too. `TcpCubic::IncreaseWindow`
    /// checks `m_isCwndLimited` before anything; `TcpLinuxReno` only in its
    /// `CongestionAvoidance`, so its `SlowStart` grows a window the receiver's window or the
    /// application keeps unused.
    pub gates_slow_start: bool,
}

impl Ns3Class {
    /// A class that grows per ACK (derived from `TcpNewReno`).
    pub const fn newreno(name: &'static str) -> Ns3Class {
        Ns3Class {
            name,
            per_ack: true,
            cwnd_gated: false,
            gates_slow_start: false,
        }
    }

    /// A class that counts segments acknowledged (`TcpLinuxReno`, `TcpCubic`, ...).
    pub const fn segments(name: &'static str) -> Ns3Class {
        Ns3Class {
            name,
            per_ack: false,
            cwnd_gated: false,
            gates_slow_start: false,
        }
    }

    /// The same class, growing only while `m_isCwndLimited` (see `cwnd_gated`).
    pub const fn cwnd_gated(self) -> Ns3Class {
        Ns3Class {
            cwnd_gated: true,
            gates_slow_start: true,
            ..self
        }
    }

    /// The same class, growing in congestion avoidance only while `m_isCwndLimited`, in
    /// slow start always (see `gates_slow_start`).
    pub const fn ca_gated(self) -> Ns3Class {
        Ns3Class {
            cwnd_gated: true,
            gates_slow_start: false,
            ..self
        }
    }
}

/// An algorithm's registry entry: the name `cc` selects it by, its parameters (their
/// `profile_defaults` for `"ns3"` are ns-3.44's attribute defaults, taken with the TCP
/// parameter `ns3_cc_defaults`; for `"linux"` Linux's, taken by a sender that recovers as
/// Linux does, `rack`: [`CcSetup::profile`]), the ns-3 classes that name it too (the first is the one a
/// canonical name stands for under `ns3_newreno_growth`), and whether it needs ECN with the
/// receiver echoing every segment's CE mark (RFC 8257 section 3.2): such an algorithm turns
/// ECN on by itself, as ns-3's `TcpDctcp::Init` does.
#[derive(Clone, Copy, Debug)]
pub struct CcInfo {
    pub name: &'static str,
    pub params: &'static [Param],
    pub ns3: &'static [Ns3Class],
    pub ecn_per_segment: bool,
}

impl Described for CcInfo {
    fn name(&self) -> &'static str {
        self.name
    }

    fn params(&self) -> &'static [Param] {
        self.params
    }

    fn key(&self) -> &'static str {
        "cc_params"
    }
}

/// What building an algorithm needs from the flow's TCP configuration besides its own
/// parameters.
#[derive(Clone, Copy, Debug, Default)]
pub struct CcSetup {
    /// The initial window in segments (BBR's estimate before any sample).
    pub initial_window: f64,
    /// HyStart's rules for algorithms that may use it (CUBIC), None for off.
    pub hystart: Option<hystart::Rules>,
    /// The sender recovers as Linux does (`rack`): algorithms with a Linux-specific model
    /// (BBR, `bbr/linux.rs`) run it, and parameters not given take their `"linux"` profile
    /// defaults (CUBIC's `linux_arith`).
    pub linux: bool,
    /// The segment size in bytes.
    pub mss: f64,
    /// Missing parameters take ns-3.44's defaults (the TCP parameter `ns3_cc_defaults`).
    pub ns3_defaults: bool,
}

impl CcSetup {
    /// Whose defaults the parameters not given take (their `profile_defaults`): ns-3.44's
    /// attribute defaults under `ns3_cc_defaults`, else Linux's for a sender that recovers as
    /// Linux does (`linux`: CUBIC's `linux_arith`), else the definition's.
    pub fn profile(&self) -> Option<&'static str> {
        if self.ns3_defaults {
            Some("ns3")
        } else if self.linux {
            Some("linux")
        } else {
            None
        }
    }
}

/// An empty trace slot.
pub const NO_TRACE: (&str, f64) = ("", f64::NAN);

/// Linux's `struct tcp_congestion_ops`: the hooks the sender calls. Those with a body are
/// optional and default to what Linux does when the hook is absent.
pub trait CongestionOps: Sized {
    /// Name and parameters, for the registry.
    const INFO: CcInfo;

    /// Whether the algorithm owns cwnd and pacing through [`CongestionOps::cong_control`]
    /// (Linux: `cong_control` is set). The sender then keeps a rate sampler.
    const CONG_CONTROL: bool = false;

    /// Whether the algorithm implements [`CongestionOps::pkts_acked`] (Linux: the hook's
    /// pointer is set). The sender builds the sample and calls the hook only then, so an ACK
    /// of an algorithm without it costs no dispatch; `hook_flags_match_the_hooks` (a test)
    /// fails for an algorithm whose hook changes its state while this says false.
    const PKTS_ACKED: bool = false;

    /// Whether the algorithm implements [`CongestionOps::in_ack_event`] (as `PKTS_ACKED`).
    const IN_ACK_EVENT: bool = false;

    /// Whether the algorithm implements [`CongestionOps::cwnd_event`] (as `PKTS_ACKED`).
    const CWND_EVENT: bool = false;

    /// Its parameters as one typed struct (made by [`crate::params!`] in its file; an empty
    /// one for an algorithm without any), whose declaration is `INFO.params`.
    type Params: ParamSet;

    /// The algorithm with parameters `p` (each checked against its range when the scenario
    /// was read, defaults filled in for its profile).
    fn new(p: &Self::Params, setup: &CcSetup) -> Self;

    /// Required. A loss was detected at `now`: the reduced window W' the sender takes
    /// ssthresh from (it keeps at least 2 segments and, with packet-counted windows, whole
    /// segments) and, in fast recovery, cwnd. Reno: W/2. Linux: `u32 (*ssthresh)(struct sock
    /// *sk)`.
    fn ssthresh(&mut self, w: &Window, now: SimTime) -> f64;

    /// Required (may be empty when `CONG_CONTROL`). A new cumulative ACK outside loss
    /// recovery, when cwnd may grow (the sender checks cwnd validation, RFC 7661, and skips
    /// the ACK that carried an ECN echo). Linux: `void (*cong_avoid)(struct sock *sk, u32 ack,
    /// u32 acked)`.
    fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent);

    /// Optional. Every ACK that acknowledges new data, in recovery or not, with its RTT
    /// sample. Linux: `void (*pkts_acked)(struct sock *sk, const struct ack_sample *sample)`.
    #[inline]
    fn pkts_acked(&mut self, _w: &mut Window, _sample: &AckSample) {}

    /// Optional. The congestion state changes: `Recovery` when fast recovery starts, `Open`
    /// when it ends, `Loss` on a retransmission timeout (after `ssthresh`, before cwnd drops
    /// to one segment). Linux: `void (*set_state)(struct sock *sk, u8 new_state)`.
    #[inline]
    fn set_state(&mut self, _w: &mut Window, _state: CaState, _conn: &Conn) {}

    /// Optional. A cwnd event (see [`CaEvent`] for those raised). Linux: `void
    /// (*cwnd_event)(struct sock *sk, enum tcp_ca_event ev)`.
    #[inline]
    fn cwnd_event(&mut self, _w: &mut Window, _event: CaEvent) {}

    /// Optional. Every ACK (new or duplicate) with the rate sample it gave, before loss
    /// recovery handles it, when [`CongestionOps::CONG_CONTROL`]: the algorithm sets cwnd and
    /// `pacing_rate` itself. Linux: `void (*cong_control)(struct sock *sk, u32 ack, int flag,
    /// const struct rate_sample *rs)`.
    #[inline]
    fn cong_control(&mut self, _w: &mut Window, _rs: &RateSample, _conn: &Conn) {}

    /// Optional. Every ACK that acknowledges new data, with its flags, before the sender
    /// reacts to an ECN-Echo it carries (Linux: `void (*in_ack_event)(struct sock *sk, u32
    /// flags)`, called from `tcp_in_ack_event` before `tcp_fastretrans_alert` enters CWR).
    #[inline]
    fn in_ack_event(&mut self, _w: &mut Window, _ack: &AckFlags) {}

    /// Optional. The window to restore when a reduction proves spurious (the `rack` sender's
    /// `tcp_undo_cwnd_reduction`: timestamps or F-RTO); Linux's `tcp_reno_undo_cwnd`: the
    /// larger of cwnd and the window before the reduction. Linux: `u32 (*undo_cwnd)(struct sock
    /// *sk)`.
    #[inline]
    fn undo_cwnd(&mut self, w: &Window, prior_cwnd: f64) -> f64 {
        w.cwnd.max(prior_cwnd)
    }

    /// Internal state for traces: (name, value) pairs; empty names are unused slots.
    #[inline]
    fn trace(&self) -> [(&'static str, f64); 4] {
        [NO_TRACE; 4]
    }
}

/// Declares the algorithms: each line `module::Type`, the module a file in this directory
/// whose `Type` implements [`CongestionOps`]. Makes the modules, the `AnyCc` enum, its
/// dispatch and [`REGISTRY`].
macro_rules! algorithms {
    ($($module:ident :: $ty:ident $([$boxed:ident])?),* $(,)?) => {
        $(pub mod $module;)*

        /// One of the algorithms, its state inline (enum dispatch: no allocation, no virtual
        /// call per ACK).
        #[derive(Clone, Debug)]
        pub enum AnyCc {
            $($ty(stored!($module::$ty $(, $boxed)?)),)*
            /// An algorithm written outside the engine (`external.rs`): boxed, called out of
            /// line.
            External(Box<external::External>),
        }

        /// Every algorithm's name and parameters, in the order of the list.
        pub const REGISTRY: &[CcInfo] = &[$(<$module::$ty as CongestionOps>::INFO,)*];

        /// Each algorithm's typed parameters: their fields and declaration.
        #[cfg(test)]
        const PARAM_SETS: &[(&[&str], &[Param])] = &[$((
            < <$module::$ty as CongestionOps>::Params as ParamSet>::FIELDS,
            < <$module::$ty as CongestionOps>::Params as ParamSet>::PARAMS,
        ),)*];

        /// A flow's congestion control as its scenario gives it (`cc` and `cc_params`),
        /// typed: one variant per algorithm with its own parameters ([`Chosen`]: those
        /// given, checked against the algorithm's declaration when the document is read),
        /// or one written in Python (`module:Class`, [`external::ExternalConfig`]). Read
        /// from the document's two keys by [`CcConfig::parse`]; [`CcConfig::build`] makes
        /// the algorithm without looking anything up by name.
        #[derive(Clone, Debug, PartialEq)]
        pub enum CcConfig {
            $($ty(Chosen< <$module::$ty as CongestionOps>::Params >),)*
            External(Box<external::ExternalConfig>),
        }

        impl CcConfig {
            /// The algorithm `name` (its own or one of its ns-3 classes', or `module:Class`
            /// for one written in Python) with the parameters `given` (`cc_params`); an
            /// error names the key and what was expected.
            pub fn parse(name: &str, given: &BTreeMap<String, f64>) -> Result<CcConfig, String> {
                if name.contains(':') {
                    return Ok(CcConfig::External(Box::new(external::ExternalConfig {
                        name: name.to_string(),
                        params: given.clone(),
                    })));
                }
                $(
                    let info = &<$module::$ty as CongestionOps>::INFO;
                    let alias = if name == info.name {
                        Some(0)
                    } else {
                        info.ns3.iter().position(|c| c.name == name).map(|k| k as u8 + 1)
                    };
                    if let Some(alias) = alias {
                        let params = Given::check(info.name, "cc_params", given)?;
                        return Ok(CcConfig::$ty(Chosen { alias, params }));
                    }
                )*
                let names: Vec<&str> = REGISTRY.iter().map(|i| i.name).collect();
                Err(format!(
                    "cc: unsupported congestion control {name:?}; expected one of {}",
                    names.join(", ")
                ))
            }

            /// Its registry entry (None: written in Python).
            pub fn info(&self) -> Option<&'static CcInfo> {
                match self {
                    $(CcConfig::$ty(_) => Some(&<$module::$ty as CongestionOps>::INFO),)*
                    CcConfig::External(_) => None,
                }
            }

            /// Which of its names chose it ([`Chosen::alias`]; 0 for one written in Python).
            fn alias(&self) -> u8 {
                match self {
                    $(CcConfig::$ty(c) => c.alias,)*
                    CcConfig::External(_) => 0,
                }
            }

            /// The name the scenario chose it by: the algorithm's, one of its ns-3
            /// classes', or `module:Class`.
            pub fn name(&self) -> &str {
                match self {
                    $(CcConfig::$ty(c) => c.name(&<$module::$ty as CongestionOps>::INFO),)*
                    CcConfig::External(e) => &e.name,
                }
            }

            /// The parameters given, as the document's `cc_params`.
            pub fn given(&self) -> BTreeMap<String, f64> {
                match self {
                    $(CcConfig::$ty(c) => c.params.to_map(),)*
                    CcConfig::External(e) => e.params.clone(),
                }
            }

            /// The algorithm, its parameters given or at their defaults for `setup`'s
            /// profile ([`CcSetup::profile`]). Only one written in Python may fail (its
            /// module or class cannot be loaded, or it refuses its parameters).
            pub fn build(&self, setup: &CcSetup) -> Result<AnyCc, String> {
                Ok(match self {
                    $(CcConfig::$ty(c) => AnyCc::$ty(store!(<$module::$ty as CongestionOps>::new(&c.params.resolve(setup.profile()), setup) $(, $boxed)?)),)*
                    CcConfig::External(e) => AnyCc::External(Box::new(external::External::new(&e.name, &e.params, setup)?)),
                })
            }
        }

        impl AnyCc {
            /// Whether this algorithm owns cwnd and pacing (`cong_control`).
            #[inline]
            pub fn has_cong_control(&self) -> bool {
                match self {
                    $(AnyCc::$ty(_) => <$module::$ty as CongestionOps>::CONG_CONTROL,)*
                    AnyCc::External(c) => c.hooks().cong_control,
                }
            }

            /// Which of the optional per-segment and per-ACK hooks the algorithm implements
            /// (read once, by the sender, when it is made).
            pub fn hooks(&self) -> CcHooks {
                match self {
                    $(AnyCc::$ty(_) => CcHooks {
                        pkts_acked: <$module::$ty as CongestionOps>::PKTS_ACKED,
                        in_ack_event: <$module::$ty as CongestionOps>::IN_ACK_EVENT,
                        cwnd_event: <$module::$ty as CongestionOps>::CWND_EVENT,
                    },)*
                    AnyCc::External(c) => CcHooks {
                        pkts_acked: c.hooks().pkts_acked,
                        in_ack_event: false,
                        cwnd_event: c.hooks().cwnd_event,
                    },
                }
            }

            /// The algorithm's name.
            pub fn name(&self) -> &str {
                match self {
                    $(AnyCc::$ty(_) => <$module::$ty as CongestionOps>::INFO.name,)*
                    AnyCc::External(c) => c.name(),
                }
            }

            /// [`CongestionOps::ssthresh`].
            #[inline]
            pub fn ssthresh(&mut self, w: &Window, now: SimTime) -> f64 {
                match self {
                    $(AnyCc::$ty(c) => c.ssthresh(w, now),)*
                    AnyCc::External(c) => c.ssthresh(w, now),
                }
            }

            /// [`CongestionOps::cong_avoid`].
            #[inline]
            pub fn cong_avoid(&mut self, w: &mut Window, ev: AckEvent) {
                self.cong_avoid_with(w, || ev)
            }
            /// The same, the event built in the algorithm's arm: Reno (inlined) reads only
            /// cwnd's credit (4 instructions per hop fewer, docs/performance.md).
            #[inline(always)]
            pub fn cong_avoid_with(&mut self, w: &mut Window, ev: impl FnOnce() -> AckEvent) {
                match self {
                    $(AnyCc::$ty(c) => c.cong_avoid(w, ev()),)*
                    AnyCc::External(c) => c.cong_avoid(w, ev()),
                }
            }

            /// [`CongestionOps::pkts_acked`].
            #[inline]
            pub fn pkts_acked(&mut self, w: &mut Window, sample: &AckSample) {
                match self {
                    $(AnyCc::$ty(c) => c.pkts_acked(w, sample),)*
                    AnyCc::External(c) => c.pkts_acked(w, sample),
                }
            }

            /// [`CongestionOps::set_state`].
            #[inline]
            pub fn set_state(&mut self, w: &mut Window, state: CaState, conn: &Conn) {
                match self {
                    $(AnyCc::$ty(c) => c.set_state(w, state, conn),)*
                    AnyCc::External(c) => c.set_state(w, state, conn),
                }
            }

            /// [`CongestionOps::cwnd_event`].
            #[inline]
            pub fn cwnd_event(&mut self, w: &mut Window, event: CaEvent) {
                match self {
                    $(AnyCc::$ty(c) => c.cwnd_event(w, event),)*
                    AnyCc::External(c) => c.cwnd_event(w, event),
                }
            }

            /// [`CongestionOps::cong_control`].
            #[inline]
            pub fn cong_control(&mut self, w: &mut Window, rs: &RateSample, conn: &Conn) {
                match self {
                    $(AnyCc::$ty(c) => c.cong_control(w, rs, conn),)*
                    AnyCc::External(c) => c.cong_control(w, rs, conn),
                }
            }

            /// [`CongestionOps::in_ack_event`] (not offered to external algorithms).
            #[inline]
            pub fn in_ack_event(&mut self, w: &mut Window, ack: &AckFlags) {
                match self {
                    $(AnyCc::$ty(c) => c.in_ack_event(w, ack),)*
                    AnyCc::External(_) => {}
                }
            }

            /// [`CongestionOps::undo_cwnd`].
            #[inline]
            pub fn undo_cwnd(&mut self, w: &Window, prior_cwnd: f64) -> f64 {
                match self {
                    $(AnyCc::$ty(c) => c.undo_cwnd(w, prior_cwnd),)*
                    AnyCc::External(c) => c.undo_cwnd(w, prior_cwnd),
                }
            }

            /// [`CongestionOps::trace`]: `out(name, value)` for each traced variable.
            pub fn state(&self, out: &mut dyn FnMut(&str, f64)) {
                match self {
                    $(AnyCc::$ty(c) => {
                        for (name, value) in c.trace() {
                            if !name.is_empty() {
                                out(name, value);
                            }
                        }
                    })*
                    AnyCc::External(c) => c.state(out),
                }
            }
        }
    };
}

// The registry: one line per algorithm.
algorithms! {
    reno::Reno,
    highspeed::HighSpeed,
    scalable::Scalable,
    bic::Bic,
    cubic::Cubic,
    westwood::Westwood,
    westwood_original::WestwoodOriginal,
    vegas::Vegas,
    fast::Fast,
    htcp::Htcp,
    bbr::Bbr [boxed],
    hybla::Hybla,
    veno::Veno,
    yeah::Yeah,
    illinois::Illinois,
    ledbat::Ledbat [boxed],
    lp::Lp,
    dctcp::Dctcp,
}

pub mod external;
pub mod hystart;

pub use reno::Reno;

impl AnyCc {
    /// Gives the algorithm the flow's own random stream: Linux's BBR draws ProbeBW's start
    /// phase from it (`bbr_reset_probe_bw_mode`); the others draw nothing.
    pub fn set_random(&mut self, rng: crate::rng::RandomStream) {
        if let AnyCc::Bbr(b) = self {
            b.set_random(rng);
        }
    }

    /// The algorithm named `name` with its default parameters, for tests.
    pub fn by_name(name: &str) -> AnyCc {
        let cc: CcConfig = name.parse().expect("a registered name");
        cc.build(&CcSetup::default()).expect("a built-in algorithm")
    }
}

impl std::str::FromStr for CcConfig {
    type Err = String;

    /// The algorithm `name` with no parameters given.
    fn from_str(name: &str) -> Result<CcConfig, String> {
        CcConfig::parse(name, &BTreeMap::new())
    }
}

/// One algorithm's configuration: the parameters given, and which of its names chose it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chosen<P> {
    /// 0: its own name; k: its k-th ns-3 class (`CcInfo::ns3[k - 1]`).
    pub alias: u8,
    pub params: Given<P>,
}

impl<P> Chosen<P> {
    fn name(&self, info: &'static CcInfo) -> &'static str {
        match self.alias {
            0 => info.name,
            k => info.ns3[k as usize - 1].name,
        }
    }
}

impl CcConfig {
    /// The ns-3 class it stands for: the one named, or for its own name its first.
    fn ns3_class(&self) -> Option<&'static Ns3Class> {
        let info = self.info()?;
        match self.alias() {
            0 => info.ns3.first(),
            k => info.ns3.get(k as usize - 1),
        }
    }

    /// Whether the algorithm needs ECN with every segment's CE mark echoed
    /// ([`CcInfo::ecn_per_segment`]).
    pub fn ecn_per_segment(&self) -> bool {
        self.info().is_some_and(|i| i.ecn_per_segment)
    }

    /// Whether it grows only while ns-3's `m_isCwndLimited` holds ([`Ns3Class::cwnd_gated`]).
    pub fn ns3_cwnd_gated(&self) -> bool {
        self.ns3_class().is_some_and(|c| c.cwnd_gated)
    }

    /// Whether its slow start is held back too ([`Ns3Class::gates_slow_start`]).
    pub fn ns3_gates_slow_start(&self) -> bool {
        self.ns3_class()
            .is_some_and(|c| c.cwnd_gated && c.gates_slow_start)
    }

    /// Whether it grows per ACK in ns-3 (a class derived from `TcpNewReno`).
    pub fn ns3_per_ack(&self) -> bool {
        self.ns3_class().is_some_and(|c| c.per_ack)
    }
}

/// Reno's slow start (RFC 5681, L = 2 with byte counting), shared by the loss-based
/// algorithms below their own regime, with RFC 3742 limited slow start: above
/// `w.max_ssthresh` segments (0 = off) each ACK adds 1/K segment, K = floor(cwnd /
/// (max_ssthresh / 2)), so the window grows by at most max_ssthresh/2 segments per round trip.
/// `max_ssthresh` is a TCP parameter, not an algorithm's: every algorithm slow-starting this
/// way honours it.
#[inline]
pub fn slow_start(w: &mut Window, ev: &AckEvent) {
    // RFC 3465 2.2: slow start grows by at most L = 2 segments per ACK; ns-3's
    // TcpNewReno::SlowStart by one segment per ACK.
    let credit = if ev.per_ack { 1.0 } else { ev.credit.min(2.0) };
    let max_ssthresh = w.max_ssthresh;
    if max_ssthresh > 0.0 && w.cwnd > max_ssthresh {
        let k = (w.cwnd / (0.5 * max_ssthresh)).floor();
        w.cwnd += credit / k;
    } else {
        w.cwnd += credit;
    }
}

/// Reno's growth on one ACK: slow start below ssthresh, else congestion avoidance. Under
/// ns-3's `TcpNewReno` growth (`per_ack` with whole bytes) an ACK of more than one segment whose
/// slow-start step brings cwnd to ssthresh also takes one step of congestion avoidance, as
/// ns-3.44's `TcpNewReno::IncreaseWindow` does (`SlowStart` returns segmentsAcked - 1, which
/// `CongestionAvoidance` takes once cwnd >= ssthresh).
#[inline]
pub fn newreno_increase_window(w: &mut Window, ev: &AckEvent) {
    if w.cwnd < w.ssthresh {
        slow_start(w, ev);
        if ns3_slow_start_rest(w, ev) > 0 {
            ns3_newreno_increase(w);
        }
    } else {
        reno_increase(w, ev);
    }
}

/// ns-3.44's `TcpNewReno::IncreaseWindow` for a class with its own `CongestionAvoidance`
/// (`ca`, given the segments acknowledged): slow start below ssthresh, then `ca` with what
/// slow start left of the ACK (maybe nothing) once cwnd is at ssthresh.
#[inline]
pub fn ns3_increase_window(w: &mut Window, ev: &AckEvent, ca: impl FnOnce(&mut Window, u64)) {
    let acked = if w.cwnd < w.ssthresh {
        slow_start(w, ev);
        ns3_slow_start_rest(w, ev)
    } else {
        ev.acked
    };
    if w.cwnd >= w.ssthresh {
        ca(w, acked);
    }
}

/// What ns-3.44's `TcpNewReno::IncreaseWindow` passes on to `CongestionAvoidance` after a
/// slow-start step (the step just taken): the segments the ACK acknowledged less the one
/// `SlowStart` counted (it returns segmentsAcked - 1) when that step brought cwnd to ssthresh,
/// under ns-3's `TcpNewReno` growth (`per_ack` with whole bytes); else 0. The classes that
/// inherit `IncreaseWindow` (`TcpLp`, `TcpHtcp`, `TcpHybla`, ...) pass it to their own
/// `CongestionAvoidance`.
#[inline]
pub fn ns3_slow_start_rest(w: &Window, ev: &AckEvent) -> u64 {
    if ev.per_ack && w.ns3_mss > 0.0 && ev.acked > 1 && w.cwnd >= w.ssthresh {
        ev.acked - 1
    } else {
        0
    }
}

/// Reno's congestion avoidance, 1/cwnd per segment acknowledged.
#[inline]
pub fn reno_increase(w: &mut Window, ev: &AckEvent) {
    if !ev.per_ack {
        w.cwnd += ev.credit / w.cwnd;
    } else if w.ns3_mss > 0.0 {
        ns3_newreno_increase(w);
    } else {
        // Per ACK, whatever it covers (IKRSimLib's TCP_Sender::HandleACK).
        w.cwnd += 1.0 / w.cwnd;
    }
}

/// ns-3.44's `TcpNewReno::CongestionAvoidance` (src/internet/model/tcp-congestion-ops.cc):
/// once per ACK, max(1, MSS^2 / cwnd) bytes, cwnd in bytes, the sum cast to a `uint32_t`: whole
/// bytes, so from a window of MSS segments on one byte per ACK (1/MSS of a segment, not 1/cwnd).
#[cold]
fn ns3_newreno_increase(w: &mut Window) {
    let mss = w.ns3_mss;
    let cwnd_bytes = (w.cwnd * mss + 1e-6).floor().max(1.0);
    w.cwnd += (mss * mss / cwnd_bytes).max(1.0).floor() / mss;
}

#[cfg(test)]
mod tests;
