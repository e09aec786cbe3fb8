//! The pacing rate of a window-based sender with `pacing = true`, as Linux sets it.
//!
//! Linux recomputes a flow's pacing rate after each ACK from its window and smoothed RTT
//! (`tcp_update_pacing_rate`, net/ipv4/tcp_input.c): mss x max(snd_cwnd, packets_out) / srtt,
//! times `tcp_pacing_ss_ratio` (200%) while snd_cwnd < snd_ssthresh / 2 and
//! `tcp_pacing_ca_ratio` (120%) from there on ("approaching the end of slow start", so the
//! last doubling before ssthresh is paced at 120% already). It paces only after the
//! connection's first ten data segments (`tcp_update_skb_after_send`, net/ipv4/tcp_output.c,
//! as the original `sch_fq`). The sender applies the rate (`sender.rs`: a segment leaves no
//! sooner than 1 / rate after the previous one); the rate is in segments per second.
//!
//! ns-3.44's `TcpSocketBase::UpdatePacingRate` has the same ratios and threshold and takes
//! max(cWnd, m_bytesInFlight), and what it leaves unpaced is the initial window
//! (`PaceInitialWindow` false), not ten segments: the sender applies packets_out and the ten
//! segments only with Linux's recovery (`rack`, the `linux` profile), to whatever rate paces
//! the flow (BBR's too, as Linux does); other senders take cwnd alone, which differs from
//! ns-3's only while the flight exceeds cwnd, when a window-limited sender sends nothing
//! (tried on tcp-pacing: every measure unchanged, docs/validation.md). Before the first RTT
//! sample no flow is paced.
//!
//! Not modelled: the credit Linux gives back when a segment leaves late
//! (`tcp_update_skb_after_send` shortens the next gap by up to half), and the ratios as
//! parameters (the sysctls' defaults are used).

/// Data segments a connection sends before pacing applies (`tcp_update_skb_after_send`:
/// `tp->data_segs_out >= 10`).
pub const UNPACED_SEGMENTS: u64 = 10;

/// Linux's `tcp_pacing_ss_ratio` and `tcp_pacing_ca_ratio` defaults, as factors.
const SS_RATIO: f64 = 2.0;
const CA_RATIO: f64 = 1.2;

/// The pacing rate in segments per second (`tcp_update_pacing_rate`): `cwnd` and `ssthresh`
/// in segments (ssthresh infinite before the first loss), `packets_out` the segments sent
/// and not cumulatively acknowledged, `srtt_s` the smoothed RTT in seconds (positive).
/// snd_ssthresh / 2 is an integer division in Linux: the threshold is whole segments.
#[inline]
pub fn linux_pacing_rate(cwnd: f64, ssthresh: f64, packets_out: u64, srtt_s: f64) -> f64 {
    let ratio = if cwnd < (ssthresh / 2.0).floor() {
        SS_RATIO
    } else {
        CA_RATIO
    };
    ratio * cwnd.max(packets_out as f64).max(1.0) / srtt_s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twice_the_window_per_rtt_below_half_of_ssthresh() {
        // Slow start before any loss: ssthresh infinite, 2 x 20 segments / 0.1 s.
        assert_eq!(linux_pacing_rate(20.0, f64::INFINITY, 20, 0.1), 400.0);
        // cwnd 49 < 100 / 2: still 200%.
        assert_eq!(linux_pacing_rate(49.0, 100.0, 49, 0.1), 980.0);
    }

    #[test]
    fn from_half_of_ssthresh_on_the_rate_is_120_percent() {
        // cwnd 50 = 100 / 2: 120% although still in slow start (cwnd < ssthresh).
        let r = linux_pacing_rate(50.0, 100.0, 50, 0.1);
        assert!((r - 600.0).abs() < 1e-9, "{r}");
        // snd_ssthresh / 2 truncates: ssthresh 5, cwnd 2 is not below 5 / 2 = 2.
        let r = linux_pacing_rate(2.0, 5.0, 2, 1.0);
        assert!((r - 2.4).abs() < 1e-12, "{r}");
        // Congestion avoidance.
        let r = linux_pacing_rate(80.0, 70.0, 80, 0.2);
        assert!((r - 480.0).abs() < 1e-9, "{r}");
    }

    #[test]
    fn more_segments_out_than_cwnd_set_the_rate() {
        // After a reduction packets_out can exceed cwnd: max(snd_cwnd, packets_out).
        let r = linux_pacing_rate(10.0, 10.0, 30, 0.1);
        assert!((r - 360.0).abs() < 1e-9, "{r}");
    }
}
