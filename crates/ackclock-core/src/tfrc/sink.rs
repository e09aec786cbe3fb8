//! The TFRC receiver (RFC 5348 sections 5 and 6), as ns-2.35's `TfrcSinkAgent`
//! (tcp/tfrc-sink.cc) behaves; each rule names the function it follows.
//!
//! It keeps a history of packets (received, lost and beginning a loss event, lost within one,
//! ECN-marked), decides which losses begin a new loss event (at least an RTT after the last
//! one began, RFC 5348 section 5.2), and estimates the loss event rate by the average loss
//! interval method (section 5.4: the weighted average of the last n = 8 intervals, weights
//! 1,1,1,1,0.8,0.6,0.4,0.2, the open interval counted only when it raises the average), with
//! history discounting (section 5.5). It reports once per RTT, and at once on a new loss
//! event (section 6).

use super::equation::loss_rate_for;
use super::{DataHeader, Feedback, TfrcConfig};
use crate::packet::{ecn, Packet};

const SMALL: f64 = 0.0000001;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Status {
    Unknown,
    Received,
    /// Lost, beginning a new loss event.
    Lost,
    /// Lost within a loss event.
    NotReceived,
    /// ECN-marked, beginning a new loss event.
    EcnLost,
    /// ECN-marked within a loss event.
    EcnReceived,
}

/// A feedback packet's fields, ready to send.
#[derive(Clone, Copy, Debug)]
pub struct Report {
    pub fb: Feedback,
}

#[derive(Debug)]
pub struct TfrcSink {
    cfg: TfrcConfig,
    rtt: f64,
    tzero: f64,
    psize: f64,
    fsize: f64,
    total_received: u64,
    total_losses: u64,
    total_dropped: u64,
    last_report_sent: f64,
    rcvd_since_last_report: u32,
    losses_since_last_report: u32,
    maxseq: i64,
    max_seq_list: i64,
    num_pkts_so_far: u32,
    last_timestamp: f64,
    last_arrival: f64,
    hsz: usize,
    status: Vec<Status>,
    arrived: Vec<f64>,
    stamp: Vec<f64>,
    lastloss_round_id: i64,
    round_id: i64,
    lastloss: f64,
    // The average loss interval method (WALI).
    numsamples: usize,
    sample: Vec<i64>,
    weights: Vec<f64>,
    mult: Vec<f64>,
    losses: Vec<i64>,
    count_losses: Vec<i64>,
    num_rtts: Vec<i64>,
    mult_factor: f64,
    sample_count: usize,
    last_sample: i64,
    loss_seen_yet: bool,
    false_sample: i64,
    // EWMA.
    avg_loss_int: f64,
    loss_int: i64,
    /// Feedback packets sent so far (their sequence numbers).
    pub reports: u64,
    /// The report timer's change, for the simulator (`TfrcNackTimer`): seconds from now.
    pub timer_op: Option<f64>,
    /// Packets received (ns-2 `bytes_` counts their wire bytes).
    pub bytes: u64,
}

impl TfrcSink {
    pub fn new(cfg: &TfrcConfig) -> TfrcSink {
        let mut s = TfrcSink {
            cfg: cfg.clone(),
            rtt: 0.0,
            tzero: 0.0,
            psize: cfg.packet_size as f64,
            fsize: cfg.fsize as f64,
            total_received: 0,
            total_losses: 0,
            total_dropped: 0,
            last_report_sent: 0.0,
            rcvd_since_last_report: 0,
            losses_since_last_report: 0,
            maxseq: -1,
            max_seq_list: -1,
            num_pkts_so_far: 0,
            last_timestamp: 0.0,
            last_arrival: 0.0,
            hsz: cfg.history_size as usize,
            status: Vec::new(),
            arrived: Vec::new(),
            stamp: Vec::new(),
            lastloss_round_id: -1,
            round_id: 0,
            lastloss: 0.0,
            numsamples: 0,
            sample: Vec::new(),
            weights: Vec::new(),
            mult: Vec::new(),
            losses: Vec::new(),
            count_losses: Vec::new(),
            num_rtts: Vec::new(),
            mult_factor: 1.0,
            sample_count: 1,
            last_sample: 0,
            loss_seen_yet: false,
            false_sample: 0,
            avg_loss_int: -1.0,
            loss_int: 0,
            reports: 0,
            timer_op: None,
            bytes: 0,
        };
        s.init_wali();
        s
    }

    /// `TfrcSinkAgent::init_WALI`: n intervals (8 unless `NumSamples_`, one more with
    /// `smooth_`), weights 1 for the newer half and falling linearly for the older half.
    fn init_wali(&mut self) {
        let mut n = if self.cfg.num_samples < 0 {
            8
        } else {
            self.cfg.num_samples as usize
        };
        if self.cfg.smooth {
            n += 1;
        }
        self.numsamples = n;
        self.sample = vec![0; n + 1];
        self.losses = vec![0; n + 1];
        self.count_losses = vec![0; n + 1];
        self.num_rtts = vec![0; n + 1];
        self.mult = vec![1.0; n + 1];
        let mid = n / 2;
        let off = if self.cfg.smooth { 0.0 } else { 1.0 };
        self.weights = (0..=n)
            .map(|i| {
                if i < mid {
                    1.0
                } else {
                    1.0 - (i as f64 + off - mid as f64) / (mid as f64 + 1.0)
                }
            })
            .collect();
    }

    fn at(&self, i: i64) -> usize {
        (i as usize) % self.hsz
    }

    /// `TfrcSinkAgent::new_loss`: a loss begins a new loss event if it is more than an RTT
    /// after the beginning of the last one (and, with `PreciseLoss_`, of a newer round).
    fn new_loss(&mut self, i: i64, tstamp: f64) -> bool {
        let since = self.stamp[self.at(i)] - self.lastloss;
        if since > self.rtt && (!self.cfg.precise_loss || self.round_id > self.lastloss_round_id) {
            self.lastloss = tstamp;
            self.lastloss_round_id = self.round_id;
            if since < self.cfg.short_rtts as f64 * self.rtt && self.cfg.algo == 1 {
                self.count_losses[0] = 1;
            }
            if self.rtt > 0.0 && self.cfg.algo == 1 {
                self.num_rtts[0] = ((since / self.rtt).ceil() as i64).max(1);
            }
            true
        } else {
            false
        }
    }

    /// `TfrcSinkAgent::estimate_tstamp`: a lost packet's send time, interpolated.
    fn estimate_tstamp(&self, before: i64, after: i64, i: i64) -> f64 {
        let tb = self.stamp[self.at(before)];
        let delta = (self.stamp[self.at(after)] - tb) / (after - before) as f64;
        tb + (i - before) as f64 * delta
    }

    /// A data packet arrives (`TfrcSinkAgent::recv`): records it, decides which losses
    /// before it begin loss events, and reports at once on a new loss event, on the sender's
    /// urgent flag, or when an RTT has passed since the last report.
    pub fn on_data(&mut self, now: f64, pkt: &Packet, hdr: Option<&DataHeader>) -> Option<Report> {
        let mut p = -1.0;
        let mut ecn_event = false;
        let mut congestion_event = false;
        let mut urgent = false;
        self.rcvd_since_last_report += 1;
        self.total_received += 1;
        self.bytes += pkt.size as u64;
        let seqno = pkt.seq as i64;
        let stamp = hdr.map_or(pkt.sent_at.as_secs_f64(), |h| h.timestamp);
        if self.maxseq < 0 {
            // The first data packet: the history starts here.
            self.maxseq = seqno - 1;
            self.max_seq_list = seqno;
            self.status = vec![Status::Unknown; self.hsz];
            self.arrived = vec![-1.0; self.hsz];
            self.stamp = vec![-1.0; self.hsz];
        }
        if let Some(h) = hdr {
            self.fsize = h.fsize;
        }
        let oldmaxseq = self.maxseq;
        let k = self.at(seqno);
        if seqno > self.maxseq || (seqno > self.max_seq_list && self.status[k] == Status::Unknown) {
            if seqno > self.max_seq_list + 1 {
                self.num_pkts_so_far += 1;
            }
            if let Some(h) = hdr {
                urgent = h.urgent;
                self.round_id = h.round_id;
                self.rtt = h.rtt;
                self.tzero = h.tzero;
            }
            self.last_arrival = now;
            self.last_timestamp = stamp;
            self.arrived[k] = now;
            self.stamp[k] = stamp;
            if pkt.ecn & ecn::ECT != 0 && pkt.ecn & ecn::CE != 0 {
                self.status[k] = Status::EcnReceived;
                self.total_losses += 1;
                self.losses_since_last_report += 1;
                if self.new_loss(seqno, stamp) {
                    ecn_event = true;
                    self.status[k] = Status::EcnLost;
                }
                if self.cfg.algo == 1 {
                    self.losses[0] += 1;
                }
            } else {
                self.status[k] = Status::Received;
            }
        }
        if seqno > self.maxseq {
            for i in self.maxseq + 1..seqno {
                let j = self.at(i);
                self.status[j] = Status::Unknown;
                self.total_losses += 1;
                self.total_dropped += 1;
            }
        }
        let list = self.max_seq_list;
        if seqno > list
            && (ecn_event
                || self.num_pkts_so_far >= self.cfg.num_pkts
                || self.stamp[k] - self.stamp[self.at(list)] > self.rtt)
        {
            // Which of the packets not received begin new loss events.
            for i in list..seqno {
                let j = self.at(i);
                if self.status[j] == Status::Unknown {
                    self.arrived[j] = now;
                    self.stamp[j] = self.estimate_tstamp(oldmaxseq, seqno, i);
                    let t = self.stamp[j];
                    if self.new_loss(i, t) {
                        congestion_event = true;
                        self.status[j] = Status::Lost;
                    } else {
                        self.status[j] = Status::NotReceived;
                    }
                    if self.cfg.algo == 1 {
                        self.losses[0] += 1;
                    }
                    self.losses_since_last_report += 1;
                }
            }
            self.max_seq_list = seqno;
            self.num_pkts_so_far = 0;
        } else if seqno == list + 1 {
            self.max_seq_list = seqno;
            self.num_pkts_so_far = 0;
        }
        if seqno > self.maxseq {
            self.maxseq = seqno;
            // The first loss ends slow start: report it at once, and make up the history.
            if self.cfg.algo == 1 && !self.loss_seen_yet && (seqno - oldmaxseq > 1 || ecn_event) {
                urgent = true;
                self.loss_seen_yet = true;
                if self.cfg.adjust_history_after_ss {
                    p = self.adjust_history(stamp);
                }
            }
            if self.rtt > SMALL && now - self.last_report_sent >= self.rtt / self.cfg.num_feedback {
                urgent = true;
            }
        }
        if urgent || ecn_event || congestion_event {
            return self.nextpkt(now, p);
        }
        None
    }

    /// The report timer (`TfrcNackTimer::expire`).
    pub fn on_timer(&mut self, now: f64) -> Option<Report> {
        self.nextpkt(now, -1.0)
    }

    /// `TfrcSinkAgent::nextpkt`: a report, and the next one 1.5 RTT / NumFeedback_ later.
    fn nextpkt(&mut self, now: f64, p: f64) -> Option<Report> {
        let r = self.sendpkt(now, p);
        if self.rtt > 0.0 && self.cfg.num_feedback > 0.0 {
            self.timer_op = Some(1.5 * self.rtt / self.cfg.num_feedback);
        }
        r
    }

    /// `TfrcSinkAgent::sendpkt`: a report, unless nothing new arrived since the last one.
    fn sendpkt(&mut self, now: f64, p: f64) -> Option<Report> {
        if self.last_arrival < self.last_report_sent {
            return None;
        }
        let flost = if p < 0.0 { self.est_loss(now) } else { p };
        let fb = Feedback {
            seq: self.reports,
            maxseq: self.maxseq,
            echo: self.last_timestamp + (now - self.last_arrival),
            flost,
            rate_since_last_report: self.est_thput(now),
            losses: self.losses_since_last_report,
            true_loss: if self.total_received == 0 {
                0.0
            } else {
                self.total_losses as f64 / (self.total_received + self.total_dropped) as f64
            },
        };
        self.reports += 1;
        self.last_report_sent = now;
        self.rcvd_since_last_report = 0;
        self.losses_since_last_report = 0;
        Some(Report { fb })
    }

    /// `TfrcSinkAgent::est_thput`: packets per second received since the last report if that
    /// was an RTT ago or more, else over the last RTT.
    fn est_thput(&self, now: f64) -> f64 {
        let mut thput = 1.0;
        if self.rtt > 0.0 && now - self.last_report_sent >= self.rtt {
            if self.rcvd_since_last_report > 0 {
                thput = self.rcvd_since_last_report as f64 / (now - self.last_report_sent);
            }
        } else if self.rtt > 0.0 {
            let last = self.arrived[self.at(self.maxseq)];
            let mut rcvd = 0;
            let mut i = self.maxseq;
            while i > 0 {
                let j = self.at(i);
                if self.status[j] == Status::Received {
                    if self.arrived[j] + self.rtt > last {
                        rcvd += 1;
                    } else {
                        break;
                    }
                }
                i -= 1;
            }
            if rcvd > 0 {
                thput = rcvd as f64 / self.rtt;
            }
        }
        thput
    }

    fn est_loss(&mut self, now: f64) -> f64 {
        if self.cfg.algo == 2 {
            self.est_loss_ewma()
        } else {
            self.est_loss_wali(now)
        }
    }

    fn begins_event(&self, i: i64) -> bool {
        matches!(self.status[self.at(i)], Status::Lost | Status::EcnLost)
    }

    /// `TfrcSinkAgent::est_loss_WALI`: the loss event rate by the average loss interval
    /// method, with history discounting when the open interval is long.
    fn est_loss_wali(&mut self, now: f64) -> f64 {
        let n1 = self.numsamples + 1;
        for i in self.last_sample..=self.maxseq {
            self.sample[0] += 1;
            if self.begins_event(i) {
                self.sample_count += 1;
                shift(&mut self.sample, 0);
                shift(&mut self.losses, 1);
                shift(&mut self.count_losses, 1);
                shift(&mut self.num_rtts, 0);
                let f = self.mult_factor;
                self.mult[1..].iter_mut().for_each(|m| *m *= f);
                shift(&mut self.mult, 1.0);
                self.mult_factor = 1.0;
            }
        }
        self.last_sample = self.maxseq + 1;
        let si = self.cfg.short_intervals;
        if si > 0 && now - self.lastloss > self.cfg.short_rtts as f64 * self.rtt {
            self.count_losses[0] = 0;
        }
        if si > 0 && self.rtt > 0.0 {
            self.num_rtts[0] = (((now - self.lastloss) / self.rtt).ceil() as i64).max(1);
        }
        let ds = self.sample_count.min(n1);
        if self.sample_count == 1 && self.false_sample == 0 {
            return 0.0; // no loss yet
        }
        if self.sample_count > 1 && self.cfg.discount && self.sample[0] > 0 {
            let ave = self.weighted_average(1, ds, 1.0);
            let ratio = 2.0 * ave / self.sample[0] as f64;
            if ratio < 1.0 {
                self.mult_factor = ratio.max(self.cfg.min_discount_ratio);
            }
        }
        let mf = self.mult_factor;
        let mut ave = self.weighted_average(0, ds, mf);
        let without_open = self.weighted_average(1, ds, mf);
        // The open interval counts only if it raises the average (and, with short intervals
        // below 10, not when it is short).
        if without_open > ave || (si > 1 && si < 10 && self.count_losses[0] == 1) {
            ave = without_open;
        }
        if ave > 0.0 {
            1.0 / ave
        } else {
            999.0
        }
    }

    /// `TfrcSinkAgent::weighted_average1`: sum of factor x mult x weight x interval over
    /// [start, end) divided by the sum of the weights; `smooth_` shifts the weights by one
    /// when the open interval is included.
    fn weighted_average(&self, start: usize, end: usize, factor: f64) -> f64 {
        let shifted = self.cfg.smooth && start == 0;
        let end = if shifted && end == self.numsamples + 1 {
            end - 1
        } else {
            end
        };
        let w = |i: usize| {
            let base = self.mult[i] * self.weights[if shifted { i + 1 } else { i }];
            if i == 0 {
                base
            } else {
                factor * base
            }
        };
        let wsum: f64 = (start..end).map(w).sum();
        let mut answer = 0.0;
        for i in start..end {
            let mut this = self.sample[i];
            if self.count_losses[i] == 1 {
                match self.cfg.short_intervals % 10 {
                    1 if self.losses[i] != 0 => this = self.sample[i] / self.losses[i],
                    3 => this = self.sample_rtts(self.sample[i], self.losses[i], self.num_rtts[i]),
                    _ => {}
                }
            }
            answer += w(i) * this as f64 / wsum;
        }
        answer
    }

    /// `TfrcSinkAgent::get_sample_rtts`: a short interval counts a fraction of its losses
    /// that falls with its length in RTTs.
    fn sample_rtts(&self, old: i64, num_losses: i64, rtts: i64) -> i64 {
        if num_losses == 0 {
            return old;
        }
        let sr = self.cfg.short_rtts as f64;
        let fraction = if sr != 0.0 {
            (sr + 1.0 - rtts as f64) / sr
        } else {
            1.0
        };
        let n = (fraction * num_losses as f64).floor() as i64;
        if n != 0 {
            old / n
        } else {
            old
        }
    }

    /// `TfrcSinkAgent::adjust_history`: at the first loss, an interval made up from the
    /// receive rate so far (the loss rate that gives it by the equation, RFC 5348 section
    /// 6.3.1), which becomes the history.
    fn adjust_history(&mut self, ts: f64) -> f64 {
        for i in (0..=self.maxseq).rev() {
            let j = self.at(i);
            if matches!(self.status[j], Status::Lost | Status::EcnLost) {
                self.status[j] = Status::NotReceived;
            }
            if i == 0 {
                break;
            }
        }
        self.lastloss = ts;
        self.lastloss_round_id = self.round_id;
        let now = self.last_arrival;
        let p = loss_rate_for(
            self.est_thput(now) * self.psize,
            self.rtt,
            self.tzero,
            self.fsize,
            1.0,
        );
        self.false_sample = (1.0 / p) as i64;
        self.sample[1] = self.false_sample;
        self.sample[0] = 0;
        self.losses[1] = 0;
        self.losses[0] = 1;
        self.count_losses[1] = 0;
        self.count_losses[0] = 0;
        self.num_rtts[0] = 0;
        self.num_rtts[1] = 0;
        self.sample_count += 1;
        self.false_sample = -1;
        p
    }

    /// `TfrcSinkAgent::est_loss_EWMA`: an exponentially weighted average of loss intervals.
    fn est_loss_ewma(&mut self) -> f64 {
        let h = self.cfg.history;
        for i in self.last_sample..=self.maxseq {
            self.loss_int += 1;
            if self.begins_event(i) {
                self.avg_loss_int = if self.avg_loss_int < 0.0 {
                    self.loss_int as f64
                } else {
                    h * self.avg_loss_int + (1.0 - h) * self.loss_int as f64
                };
                self.loss_int = 0;
            }
        }
        self.last_sample = self.maxseq + 1;
        let p1 = if self.avg_loss_int < 0.0 {
            0.0
        } else {
            1.0 / self.avg_loss_int
        };
        let p2 = if self.loss_int == 0 || self.avg_loss_int < 0.0 {
            p1
        } else {
            1.0 / (h * self.avg_loss_int + (1.0 - h) * self.loss_int as f64)
        };
        p1.min(p2)
    }
}

/// Moves every entry one place older (the oldest falls off) and puts `fresh` first
/// (`TfrcSinkAgent::shift_array`).
fn shift<T: Copy>(a: &mut [T], fresh: T) {
    a.rotate_right(1);
    a[0] = fresh;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Packet;
    use crate::time::SimTime;

    fn data(seq: u64, sent: f64) -> Packet {
        Packet {
            seq,
            sent_at: SimTime((sent * 1e12) as u64),
            ..Packet::TEST
        }
    }

    fn hdr(seq: u64, rtt: f64, round: i64) -> DataHeader {
        DataHeader {
            seq,
            timestamp: 0.0,
            rtt,
            tzero: 4.0 * rtt,
            rate: 0.0,
            urgent: false,
            round_id: round,
            fsize: 1000.0,
        }
    }

    #[test]
    fn weights_are_rfc5348s() {
        let s = TfrcSink::new(&TfrcConfig {
            smooth: false,
            ..TfrcConfig::default()
        });
        // RFC 5348 section 5.4: w = 1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2 (and 0 for the ninth).
        let want = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2, 0.0];
        for (w, x) in s.weights.iter().zip(want) {
            assert!((w - x).abs() < 1e-12, "{:?}", s.weights);
        }
    }

    /// The last feedback of a receiver without smoothing, discounting or the history's
    /// adjustment after slow start, given packets every 10 ms (RTT 100 ms, one round per 10
    /// packets) of which `lost(seq)` are missing.
    fn last_feedback(lost: impl Fn(u64) -> bool) -> Feedback {
        let mut s = TfrcSink::new(&TfrcConfig {
            smooth: false,
            discount: false,
            adjust_history_after_ss: false,
            ..TfrcConfig::default()
        });
        let mut last = None;
        for seq in (0..2000u64).filter(|&q| !lost(q)) {
            let t = seq as f64 * 0.01;
            let h = DataHeader {
                timestamp: t,
                ..hdr(seq, 0.1, seq as i64 / 10)
            };
            if let Some(r) = s.on_data(t + 0.05, &data(seq, t), Some(&h)) {
                last = Some(r.fb);
            }
        }
        last.expect("reports")
    }

    /// Packets every 10 ms with an RTT of 100 ms; every 100th lost, each a loss event: the
    /// average loss interval is 100 packets, the loss event rate 1/100.
    #[test]
    fn periodic_losses_give_their_rate() {
        let fb = last_feedback(|seq| seq % 100 == 50);
        assert!((fb.flost - 0.01).abs() < 1e-4, "{}", fb.flost);
        // One report per RTT carries the receive rate: 99 of 100 packets per second x 100.
        assert!(
            (fb.rate_since_last_report - 99.0).abs() < 11.0,
            "{}",
            fb.rate_since_last_report
        );
    }

    /// Losses closer than an RTT are one loss event (RFC 5348 section 5.2): two losses 20 ms
    /// apart every 100 packets.
    #[test]
    fn losses_within_an_rtt_are_one_event() {
        let fb = last_feedback(|seq| seq % 100 == 50 || seq % 100 == 52);
        assert!((fb.flost - 0.01).abs() < 1e-4, "{}", fb.flost);
    }
}
