//! The scenario's TCP configuration resolved into what the engine runs: its congestion control
//! built from the registry (`tcp::cc`), and TCP's own parameters (`tcp::TcpParams`), with
//! what depends on the algorithm's name decided here, once per flow as the simulator is
//! built. TCP code reads only `TcpParams`.

use super::{Recovery, TcpConfig};
use crate::time::SimDuration;

impl TcpConfig {
    /// The initial window in segments: `window_init`, or with `window_init_by_size` the one
    /// the segment size gives (`tcp::sender::window_init_for_size`).
    pub fn initial_window(&self) -> u32 {
        if self.window_init_by_size {
            crate::tcp::sender::window_init_for_size(self.packet_size)
        } else {
            self.window_init
        }
    }

    /// The congestion control `cc` names, with `cc_params` checked against its registry entry;
    /// an error names what is wrong.
    pub fn congestion_control(&self) -> Result<crate::tcp::cc::AnyCc, String> {
        let setup = crate::tcp::cc::CcSetup {
            initial_window: self.initial_window() as f64,
            hystart: self.hystart.rules(),
            linux: self.rack && self.variant == Recovery::Sack,
            mss: self.packet_size as f64,
            ns3_defaults: self.ns3_cc_defaults,
        };
        crate::tcp::cc::AnyCc::new(&self.cc, &self.cc_params, &setup)
    }

    /// The congestion control needs the receiver to echo every segment's CE mark (DCTCP,
    /// RFC 8257 3.2), and so turns ECN on whatever `ecn` says.
    pub fn ecn_per_segment(&self) -> bool {
        crate::tcp::cc::info(&self.cc).is_some_and(|i| i.ecn_per_segment)
    }

    /// cwnd grows only while ns-3's `m_isCwndLimited` holds (`ns3_cwnd_limited` with a class
    /// whose `IncreaseWindow` checks it).
    pub fn ns3_cwnd_limited(&self) -> bool {
        self.ns3_cwnd_limited && crate::tcp::cc::ns3_cwnd_gated(&self.cc)
    }

    /// Growth counts ACKs, not segments (`growth_per_ack`, or `ns3_newreno_growth` with a
    /// class derived from ns-3's `TcpNewReno`).
    pub fn growth_per_ack(&self) -> bool {
        self.growth_per_ack || (self.ns3_newreno_growth && crate::tcp::cc::ns3_per_ack(&self.cc))
    }

    /// The parameters TCP's sender and sink take, with what depends on `cc`'s registry entry
    /// resolved: built once, when the flow is.
    pub fn params(&self) -> crate::tcp::params::TcpParams {
        crate::tcp::params::TcpParams {
            packet_size: self.packet_size,
            header_size: self.header_size,
            ack_size: self.ack_size,
            window: self.window,
            window_init: self.initial_window(),
            window_init_by_size: self.window_init_by_size,
            window_init_fixed: self.window_init,
            first_loss: self.ns2_first_loss,
            ns2_ecn: self.ns2_ecn,
            rtx_timer_before_sample: self.rtx_timer_before_sample,
            initial_ssthresh: self.initial_ssthresh,
            max_ssthresh: self.max_ssthresh,
            dupack_threshold: self.dupack_threshold,
            min_rto: SimDuration(self.min_rto_ps),
            max_rto: SimDuration(self.max_rto_ps),
            initial_rto: SimDuration(self.initial_rto_ps),
            timer_granularity: SimDuration(self.timer_granularity_ps),
            rto_rule: self.rto_rule,
            ns2_rtt_timer: self.ns2_rtt_timer,
            ns2_boot_time: SimDuration(self.ns2_boot_time_ps),
            limited_transmit: self.limited_transmit,
            syn: self.syn,
            max_burst: self.max_burst,
            bug_fix: self.bug_fix,
            ns2_full_tcp: self.ns2_full_tcp,
            bare_first_segment: self.bare_first_segment,
            precision_reduce: self.precision_reduce,
            partial_deflation: self.partial_deflation,
            slow_but_steady: self.slow_but_steady,
            timestamps: self.timestamps,
            window_unit: self.window_unit,
            integer_cwnd: self.integer_cwnd,
            ecn: self.ecn,
            ecn_per_segment: self.ecn_per_segment(),
            growth_per_ack: self.growth_per_ack(),
            ns3_cwnd_limited: self.ns3_cwnd_limited(),
            ns3_srtt_samples: self.ns3_srtt_samples,
            ns3_ts_ms: self.ns3_ts_ms,
            ns3_rate_sample: self.ns3_rate_sample,
            rcv_buffer_bytes: self.rcv_buffer_bytes,
            snd_buffer_bytes: self.snd_buffer_bytes,
            app_read_rate_bps: self.app_read_rate_bps,
            pacing: self.pacing,
            psh: self.psh,
            cwnd_validation: self.cwnd_validation,
            prr: self.prr,
            rfc6675_recovery: self.rfc6675_recovery,
            rack: self.rack,
            sink: self.sink,
            delayed_ack: self.delayed_ack,
            segs_per_ack: self.segs_per_ack,
            ack_delay: SimDuration(self.ack_delay_ps),
            delack_syn: self.delack_syn,
            delack_repeat: self.delack_repeat,
            quick_acks: self.quick_acks,
            sack_block_bytes: self.sack_block_bytes,
            adaptive_ack_delay: self.adaptive_ack_delay,
            sack_compression: self.sack_compression,
            ts_echo_rfc7323: self.ts_echo_rfc7323,
        }
    }
}
