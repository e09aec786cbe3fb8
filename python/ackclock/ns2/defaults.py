"""ns-2.35's class tree and the class defaults (``tcl/lib/ns-default.tcl``) of what ackclock maps.

Each variable has a type, which decides how an instance prints it (ns-2 prints bound ints with
``%d``, doubles with ``%.17g``, TracedDoubles with ``%g``, booleans as 0/1) and how it is read.
Values are the texts ns-2 itself holds as class defaults (checked against ``ns`` 2.35).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

# Class -> parent class ("" for a root).
PARENT: Mapping[str, str] = MappingProxyType(
    {
        "Simulator": "",
        "Node": "",
        "Node/Tmix_DelayBox": "Node",
        "Tmix": "",
        "Tmix_End": "",
        "Link": "",
        "SimpleLink": "Link",
        "DelayLink": "",
        "Delayer": "",
        "RNG": "",
        "Integrator": "",
        "QueueMonitor": "",
        "QueueMonitor/ED": "QueueMonitor",
        "QueueMonitor/ED/Flowmon": "QueueMonitor/ED",
        "QueueMonitor/ED/Flow": "QueueMonitor/ED",
        "Classifier": "",
        "Classifier/Hash": "Classifier",
        "Classifier/Hash/Fid": "Classifier/Hash",
        "Queue": "",
        "Queue/DropTail": "Queue",
        "Queue/RED": "Queue",
        "Queue/CoDel": "Queue",
        "Queue/PIE": "Queue",
        "Queue/PI": "Queue",
        "Queue/REM": "Queue",
        "Queue/Vq": "Queue",
        "Queue/FQ_CoDel": "Queue",
        "Queue/SFQ": "Queue",
        "Queue/FQ": "Queue",
        "Queue/DRR": "Queue",
        "Queue/dsRED": "Queue",
        "Queue/dsRED/edge": "Queue/dsRED",
        "Queue/dsRED/core": "Queue/dsRED",
        "Queue/CBQ": "Queue",
        "Queue/CBQ/WRR": "Queue/CBQ",
        "CBQClass": "",
        "Samples": "",
        "ErrorModel": "",
        "Trace": "",
        "Trace/Drop": "Trace",
        "Trace/Enque": "Trace",
        "Trace/Deque": "Trace",
        "Trace/Recv": "Trace",
        "Trace/Hop": "Trace",
        "ErrorModel/Uniform": "ErrorModel",
        "ErrorModel/TwoState": "ErrorModel",
        "ErrorModel/List": "ErrorModel",
        "ErrorModel/Periodic": "ErrorModel",
        "ErrorModule": "",
        "RandomVariable": "",
        "RandomVariable/Uniform": "RandomVariable",
        "RandomVariable/Exponential": "RandomVariable",
        "RandomVariable/Pareto": "RandomVariable",
        "RandomVariable/Constant": "RandomVariable",
        "RandomVariable/Normal": "RandomVariable",
        "RandomVariable/HyperExponential": "RandomVariable",
        "Agent": "",
        "Agent/Null": "Agent",
        "Agent/LossMonitor": "Agent",
        "Agent/UDP": "Agent",
        "Agent/Ping": "Agent",
        "Agent/MessagePassing": "Agent",
        "Agent/TCP": "Agent",
        "Agent/TCP/Reno": "Agent/TCP",
        "Agent/TCP/Newreno": "Agent/TCP",
        "Agent/TCP/Sack1": "Agent/TCP",
        "Agent/TCP/Fack": "Agent/TCP",
        "Agent/TCP/SackRH": "Agent/TCP",
        "Agent/TCP/RFC793edu": "Agent/TCP",
        "Agent/TCP/Vegas": "Agent/TCP",
        # ns-2.35's RBP agents (tcp/tcp-rbp.cc).
        "Agent/TCP/Reno/RBP": "Agent/TCP/Reno",
        "Agent/TCP/Vegas/RBP": "Agent/TCP/Vegas",
        "Agent/TCP/Linux": "Agent/TCP",
        "Agent/TCP/Fast": "Agent/TCP",
        "Agent/TCP/FullTcp": "Agent/TCP",
        "Agent/TCP/FullTcp/Tahoe": "Agent/TCP/FullTcp",
        "Agent/TCP/FullTcp/Newreno": "Agent/TCP/FullTcp",
        "Agent/TCP/FullTcp/Sack": "Agent/TCP/FullTcp",
        "Agent/TCPSink": "Agent",
        "Agent/QSAgent": "Agent",
        "Agent/TFRC": "Agent",
        "Agent/RAP": "Agent",
        "Agent/TFRCSink": "Agent",
        "Agent/TCPSink/DelAck": "Agent/TCPSink",
        "Agent/TCPSink/Sack1": "Agent/TCPSink",
        "Agent/TCPSink/Sack1/DelAck": "Agent/TCPSink/Sack1",
        "Application": "",
        "Application/FTP": "Application",
        "Source/FTP": "Application",
        "Application/Telnet": "Application",
        "Source/Telnet": "Application/Telnet",
        "Application/Traffic": "Application",
        "Application/Traffic/CBR": "Application/Traffic",
        "Application/Traffic/Exponential": "Application/Traffic",
        "Application/Traffic/Pareto": "Application/Traffic",
    }
)

# Class -> {variable: (default text, type)}. Types: int, double, bool, tdouble (TracedDouble),
# time (a double given with units, e.g. 100ms), bw (a double bandwidth, e.g. 448Kb).
_T = tuple[str, str]
DEFAULTS: Mapping[str, Mapping[str, _T]] = MappingProxyType(
    {
        "Agent": {"fid_": ("0", "int"), "prio_": ("0", "int"), "flags_": ("0", "int"),
                  "ttl_": ("32", "int"), "class_": ("0", "int"), "packetSize_": ("1000", "int"),
                  "agent_addr_": ("-1", "int"), "agent_port_": ("-1", "int"),
                  "dst_addr_": ("-1", "int"), "dst_port_": ("-1", "int"),
                  "debug_": ("false", "bool")},
        "Agent/TCP": {
            "window_": ("20", "int"), "windowInit_": ("2", "int"),
            "packetSize_": ("1000", "int"), "tcpTick_": ("0.01", "double"),
            "maxburst_": ("0", "int"), "maxcwnd_": ("0", "int"),
            "max_ssthresh_": ("0", "int"), "syn_": ("true", "bool"),
            "timestamps_": ("false", "bool"), "minrto_": ("0.2", "double"),
            "maxrto_": ("60", "double"), "singledup_": ("1", "int"),
            "numdupacks_": ("3", "int"), "rtxcur_init_": ("3.0", "double"),
            "windowOption_": ("1", "int"), "overhead_": ("0", "double"),
            "ecn_": ("0", "bool"), "tcpip_base_hdr_size_": ("40", "int"),
            "low_window_": ("38", "int"), "high_window_": ("83000", "int"),
            "scalable_lwnd_": ("16", "int"),
            "high_p_": ("0.0000001", "double"), "high_decrease_": ("0.1", "double"),
            "windowConstant_": ("4", "int"), "decrease_num_": ("0.5", "double"),
            "increase_num_": ("1.0", "double"), "delay_growth_": ("true", "bool"),
            "slow_start_restart_": ("true", "bool"), "bugFix_": ("true", "bool"),
            "precisionReduce_": ("true", "bool"),
            "noFastRetrans_": ("false", "bool"), "frto_enabled_": ("0", "bool"),
            "timerfix_": ("true", "bool"), "QOption_": ("0", "int"),
            # The rest of ns-2.35's Agent/TCP variables (`Agent/TCP info vars`), so that a
            # script setting one away from its default hears that ackclock does not model it.
            "CoarseTimer_": ("0", "int"), "EnblRTTCtr_": ("0", "int"),
            "LimTransmitFix_": ("false", "bool"), "SetCWRonRetransmit_": ("true", "bool"),
            "T_RTTVAR_BITS": ("2", "int"), "T_SRTT_BITS": ("3", "int"),
            "aggressive_maxburst_": ("1", "int"), "bugFix_ack_": ("false", "bool"),
            "bugFix_ts_": ("false", "bool"), "bugfix_ss_": ("1", "int"),
            "control_increase_": ("0", "int"), "cwnd_range_": ("0", "int"), "eln_": ("0", "int"),
            "eln_rxmit_thresh_": ("1", "int"), "exitFastRetrans_": ("true", "bool"),
            "k_parameter_": ("0.0", "double"), "l_parameter_": ("1.0", "double"),
            "lessCareful_": ("false", "bool"), "max_connects_": ("-1", "int"),
            "nam_tracevar_": ("false", "bool"), "numdupacksFrac_": ("-1", "int"),
            "oldCode_": ("false", "bool"), "old_ecn_": ("0", "bool"),
            "partial_ack_": ("false", "bool"), "print_request_": ("false", "bool"),
            "qs_enabled_": ("false", "bool"), "qs_request_mode_": ("1", "int"),
            "qs_rtt_": ("50", "int"), "qs_thresh_": ("4", "int"), "rate_request_": ("0", "int"),
            "restart_bugfix_": ("true", "bool"), "rfc2988_": ("true", "bool"),
            "rttvar_exp_": ("2", "int"), "rttvar_init_": ("12", "int"),
            "sfrto_enabled_": ("0", "bool"), "spurious_response_": ("1", "int"),
            "srtt_init_": ("0", "int"), "tcp_qs_recovery_": ("true", "bool"),
            "trace_all_oneline_": ("false", "bool"), "ts_option_size_": ("10", "int"),
            "ts_resetRTO_": ("false", "bool"), "updated_rttvar_": ("true", "bool"),
            "useHeaders_": ("true", "bool"), "windowInitOption_": ("1", "int"),
            "windowThresh_": ("0.002", "double"),
            # State variables: read from the engine once the run has started.
            "cwnd_": ("0", "tdouble"), "ssthresh_": ("0", "int"), "awnd_": ("0", "double"),
            "rtt_": ("0", "int"), "srtt_": ("0", "int"), "rttvar_": ("0", "int"),
            "backoff_": ("0", "int"), "dupacks_": ("0", "int"), "t_seqno_": ("0", "int"),
            "ack_": ("0", "int"), "maxseq_": ("0", "int"),
            "ndatapack_": ("0", "int"), "ndatabytes_": ("0", "int"),
            "nrexmitpack_": ("0", "int"), "nrexmitbytes_": ("0", "int"),
            "nrexmit_": ("0", "int"), "nackpack_": ("0", "int"),
            "ncwndcuts_": ("0", "int"), "ncwndcuts1_": ("0", "int"),
            "necnresponses_": ("0", "int"), "seqno_": ("0", "int"),
        },
        # FackTcpAgent's window trim in recovery (tcl/lib/ns-default.tcl).
        "Agent/TCP/Fack": {"ss-div4_": ("false", "bool"), "rampdown_": ("false", "bool")},
        "Agent/TCP/Newreno": {
            "newreno_changes_": ("0", "int"), "newreno_changes1_": ("1", "int"),
            "partial_window_deflation_": ("1", "int"), "exit_recovery_fix_": ("0", "int"),
        },
        # FullTcp sends segsize_-byte segments (packetSize_ means nothing to it).
        "Agent/TCP/FullTcp": {
            "segsize_": ("536", "int"), "segsperack_": ("1", "int"),
            "interval_": ("0.1", "time"), "nodelay_": ("false", "bool"),
            "data_on_syn_": ("false", "bool"), "iss_": ("0", "int"),
            "close_on_empty_": ("false", "bool"), "signal_on_empty_": ("false", "bool"),
            "tcprexmtthresh_": ("3", "int"), "dupseg_fix_": ("true", "bool"),
            "dupack_reset_": ("false", "bool"), "spa_thresh_": ("0", "int"),
            "ts_option_size_": ("10", "int"), "reno_fastrecov_": ("true", "bool"),
            "pipectrl_": ("false", "bool"), "open_cwnd_on_pack_": ("true", "bool"),
            "halfclose_": ("false", "bool"), "nopredict_": ("false", "bool"),
            "ecn_syn_": ("false", "bool"), "ecn_syn_wait_": ("0", "int"),
        },
        # tcl/lib/ns-default.tcl; Source/Telnet's in tcl/lib/ns-source.tcl.
        "Application/Telnet": {"interval_": ("1.0", "time")},
        "Source/Telnet": {"maxpkts_": ("268435456", "int")},
        # tcl/lib/ns-default.tcl's RFC793edu block (tcp/tcp-rfc793edu.cc binds rto_ too).
        "Agent/TCP/RFC793edu": {
            "add793expbackoff_": ("true", "bool"), "add793jacobsonrtt_": ("false", "bool"),
            "add793fastrtx_": ("false", "bool"), "add793slowstart_": ("false", "bool"),
            "add793additiveinc_": ("false", "bool"), "add793karnrtt_": ("true", "bool"),
            "add793exponinc_": ("false", "bool"), "rto_": ("60", "double"),
            "syn_": ("true", "bool"),
        },
        "Agent/TCP/Vegas": {"v_alpha_": ("1", "int"), "v_beta_": ("3", "int"),
                            "v_gamma_": ("1", "int")},
        # tcl/lib/ns-default.tcl's RBP blocks (tcp/tcp-rbp.cc binds rbp_rate_algorithm_ on
        # Vegas/RBP only).
        "Agent/TCP/Reno/RBP": {"rbp_scale_": ("0.75", "double"),
                               "rbp_segs_actually_paced_": ("0", "int"),
                               "rbp_inter_pace_delay_": ("0", "double")},
        "Agent/TCP/Vegas/RBP": {"rbp_scale_": ("0.75", "double"),
                                "rbp_rate_algorithm_": ("1", "int"),
                                "rbp_segs_actually_paced_": ("0", "int"),
                                "rbp_inter_pace_delay_": ("0", "double")},
        # tcl/lib/ns-default.tcl's own values for Agent/TCP/Linux (a script's `Agent/TCP set
        # minrto_ 1` does not reach them: OTcl looks the class itself up first).
        "Agent/TCP/Linux": {"rtxcur_init_": ("3", "double"), "maxrto_": ("120", "double"),
                            "minrto_": ("0.2", "double"), "ts_resetRTO_": ("true", "bool"),
                            "next_pkts_in_flight_": ("0", "int"),
                            "delay_growth_": ("false", "bool")},
        "Agent/TCPSink": {"bytes_": ("0", "int"), "packetSize_": ("40", "int"),
                          "ts_echo_rfc1323_": ("false", "bool"),
                          "generateDSacks_": ("false", "bool"),
                          "maxSackBlocks_": ("3", "int"),
                          "RFC2581_immediate_ack_": ("true", "bool"),
                          "SYN_immediate_ack_": ("true", "bool"), "ecn_syn_": ("false", "bool"),
                          "qs_enabled_": ("false", "bool"), "ts_echo_bugfix_": ("true", "bool"),
                          "sport_": ("0", "int"), "dport_": ("0", "int")},
        "Agent/TCPSink/DelAck": {"interval_": ("100ms", "time")},
        # A Quick-Start router (qs/qsagent.cc; tcl/lib/ns-default.tcl, mss_ from Agent/TCP's
        # packetSize_).
        "Agent/QSAgent": {"qs_enabled_": ("1", "int"), "old_classifier_": ("0", "int"),
                          "state_delay_": ("0.2", "double"), "alloc_rate_": ("0.85", "double"),
                          "threshold_": ("0.85", "double"), "max_rate_": ("256", "int"),
                          "mss_": ("1000", "int"), "rate_function_": ("2", "int"),
                          "algorithm_": ("3", "int")},
        "Agent/TCPSink/Sack1/DelAck": {"interval_": ("100ms", "time")},
        "Agent/UDP": {"packetSize_": ("1000", "int")},
        # apps/ping.cc binds packetSize_; tcl/lib/ns-default.tcl gives it 64.
        "Agent/Ping": {"packetSize_": ("64", "int")},
        "Agent/MessagePassing": {"packetSize_": ("1500", "int")},
        # ns-2.35's Agent/TFRC and Agent/TFRCSink (tcp/tfrc.cc, tcp/tfrc-sink.cc), as `ns`
        # 2.35 lists them (`Agent/TFRC info vars`).
        # tcl/lib/ns-default.tcl's RAP block (rap/rap.cc binds them).
        "Agent/RAP": {
            "packetSize_": ("512", "int"), "seqno_": ("0", "int"),
            "sessionLossCount_": ("0", "int"), "ipg_": ("2.0", "double"),
            "alpha_": ("1.0", "double"), "beta_": ("0.5", "double"),
            "srtt_": ("2.0", "double"), "variance_": ("0.0", "double"),
            "delta_": ("0.5", "double"), "mu_": ("1.2", "double"), "phi_": ("4.0", "double"),
            "timeout_": ("2.0", "double"), "overhead_": ("0", "double"),
            "useFineGrain_": ("0", "int"), "kfrtt_": ("0.9", "double"),
            "kxrtt_": ("0.01", "double"), "debugEnable_": ("0", "int"),
            "rap_base_hdr_size_": ("44", "int"), "dpthresh_": ("50", "int"),
        },
        "Agent/TFRC": {
            "packetSize_": ("1000", "int"), "rate_": ("0", "double"), "df_": ("0.95", "double"),
            "tcp_tick_": ("0.1", "double"), "ndatapack_": ("0", "int"),
            "ndatabytes_": ("0", "int"), "true_loss_rate_": ("0.0", "tdouble"),
            "srtt_init_": ("0", "int"), "rttvar_init_": ("12", "int"),
            "rtxcur_init_": ("6.0", "double"), "rttvar_exp_": ("2", "int"),
            "T_SRTT_BITS": ("3", "int"), "T_RTTVAR_BITS": ("2", "int"),
            "InitRate_": ("300", "int"), "overhead_": ("0", "double"),
            "ssmult_": ("2", "double"), "bval_": ("1", "int"), "ca_": ("1", "int"),
            "printStatus_": ("0", "bool"), "conservative_": ("0", "bool"),
            "ecn_": ("0", "bool"), "minrto_": ("0.0", "double"),
            "maxHeavyRounds_": ("0", "int"), "SndrType_": ("0", "int"),
            "scmult_": ("1.5", "double"), "oldCode_": ("false", "bool"),
            "rate_init_": ("2", "double"), "rate_init_option_": ("2", "int"),
            "slow_increase_": ("1", "bool"), "voip_": ("0", "bool"),
            "voip_max_pkt_rate_": ("100", "int"), "fsize_": ("1460", "int"),
            "useHeaders_": ("true", "bool"), "idleFix_": ("true", "bool"),
            "headersize_": ("32", "int"), "maxqueue_": ("MAXSEQ", "text"),
        },
        "Agent/TFRCSink": {
            "packetSize_": ("40", "int"), "InitHistorySize_": ("100000", "int"),
            "NumFeedback_": ("1", "double"), "AdjustHistoryAfterSS_": ("1", "int"),
            "printLoss_": ("0", "int"), "algo_": ("1", "int"), "PreciseLoss_": ("1", "int"),
            "numPkts_": ("1", "int"), "minDiscountRatio_": ("0.5", "double"),
            "NumSamples_": ("-1", "int"), "discount_": ("1", "int"), "smooth_": ("1", "int"),
            "ShortIntervals_": ("0", "int"), "ShortRtts_": ("2", "int"),
            "history_": ("0.75", "double"), "minlc_": ("4", "int"), "bytes_": ("0", "int"),
            "maxint_": ("1000", "int"),
        },
        "Agent/LossMonitor": {"bytes_": ("0", "int"), "npkts_": ("0", "int"),
                              "nlost_": ("0", "int"), "expected_": ("0", "int"),
                              "lastPktTime_": ("0", "double")},
        "Source/FTP": {"maxpkts_": ("268435456", "int")},
        "Application/Traffic/CBR": {"rate_": ("448Kb", "bw"), "packetSize_": ("210", "int"),
                                    "random_": ("0", "int"), "maxpkts_": ("268435456", "int")},
        "Application/Traffic/Exponential": {"burst_time_": (".5", "time"),
                                            "idle_time_": (".5", "time"),
                                            "rate_": ("64Kb", "bw"),
                                            "packetSize_": ("210", "int")},
        "Application/Traffic/Pareto": {"burst_time_": ("500ms", "time"),
                                       "idle_time_": ("500ms", "time"),
                                       "rate_": ("64Kb", "bw"), "packetSize_": ("210", "int"),
                                       "shape_": ("1.5", "double")},
        "Queue": {"limit_": ("50", "int"), "blocked_": ("false", "bool"),
                  "ackfromfront_": ("false", "bool"), "acksfirst_": ("false", "bool"),
                  "debug_": ("false", "bool"), "interleave_": ("false", "bool"),
                  "unblock_on_resume_": ("true", "bool"), "util_check_intv_": ("0.2", "double"),
                  "util_records_": ("5", "int"), "util_weight_": ("0.8", "double")},
        "Queue/SFQ": {"maxqueue_": ("40", "int"), "buckets_": ("16", "int")},
        "Queue/CBQ": {"algorithm_": ("0", "int"), "maxpkt_": ("1024", "int")},
        "CBQClass": {"priority_": ("0", "int"), "level_": ("1", "int"),
                     "extradelay_": ("0.0", "double"), "def_qtype_": ("DropTail", "text"),
                     "okborrow_": ("true", "bool"), "automaxidle_gain_": ("0.9375", "double"),
                     "debug_": ("false", "bool")},
        "Queue/dsRED": {"numQueues_": ("4", "int"), "ecn_": ("0", "bool")},
        "Queue/DRR": {"blimit_": ("25000", "int"), "buckets_": ("10", "int"),
                      "mask_": ("0", "int"), "quantum_": ("250", "int")},
        "Queue/DropTail": {"drop_front_": ("false", "bool"),
                           "queue_in_bytes_": ("false", "bool"),
                           "summarystats_": ("false", "bool"),
                           "mean_pktsize_": ("500", "int")},
        "Queue/RED": {"thresh_": ("0", "double"), "maxthresh_": ("0", "double"),
                      "q_weight_": ("-1", "double"), "linterm_": ("10", "double"),
                      "gentle_": ("true", "bool"), "wait_": ("true", "bool"),
                      "bytes_": ("true", "bool"), "queue_in_bytes_": ("true", "bool"),
                      "mean_pktsize_": ("500", "int"), "setbit_": ("false", "bool"),
                      "targetdelay_": ("0.005", "double"), "use_mark_p_": ("true", "bool"),
                      "mark_p_": ("0.1", "double"), "adaptive_": ("0", "int"),
                      "alpha_": ("0.01", "double"), "beta_": ("0.9", "double"),
                      "interval_": ("0.5", "double"), "top_": ("0.5", "double"),
                      "bottom_": ("0", "double"), "feng_adaptive_": ("0", "int"),
                      "cautious_": ("0", "int"), "idle_pktsize_": ("100", "int"),
                      "ns1_compat_": ("false", "bool"),
                      "drop_tail_": ("true", "bool"), "summarystats_": ("false", "bool"),
                      # REDQueue::pickPacketToDrop's other victims (a random waiting packet,
                      # the head): not modelled, so setting either true is refused.
                      "drop_rand_": ("false", "bool"), "drop_front_": ("false", "bool")},
        "Queue/PI": {"bytes_": ("false", "bool"), "queue_in_bytes_": ("false", "bool"),
                     "a_": ("0.00001822", "double"), "b_": ("0.00001816", "double"),
                     "w_": ("170", "double"), "qref_": ("50", "double"),
                     "mean_pktsize_": ("500", "int"), "setbit_": ("false", "bool"),
                     "prob_": ("0", "tdouble"), "curq_": ("0", "int")},
        # drop_front_ and markfront_ true (Vq::enque's drop- and mark-front) are not
        # modelled: refused.
        "Queue/Vq": {"ecnlim_": ("0.8", "double"), "buflim_": ("1.0", "double"),
                     "gamma_": ("0.98", "double"), "markpkts_": ("false", "bool"),
                     "markfront_": ("0", "bool"), "drop_front_": ("0", "bool"),
                     "queue_in_bytes_": ("true", "bool"), "mean_pktsize_": ("1000", "int"),
                     "curq_": ("0", "int")},
        # markpkts_ true (marking at dequeue, REMQueue::deque) is not modelled: refused.
        "Queue/REM": {"gamma_": ("0.001", "double"), "phi_": ("1.001", "double"),
                      "inw_": ("1", "double"), "mean_pktsize_": ("1000", "double"),
                      "pupdtime_": ("0.002", "double"), "pbo_": ("20.0", "double"),
                      "prob_": ("0.0", "tdouble"), "curq_": ("0.0", "int"),
                      "pmark_": ("0.0", "double"), "markpkts_": ("false", "bool"),
                      "qib_": ("false", "bool")},
        # Not in ns-2.35 (later ns-2 versions and ns-3 have them): ackclock's own defaults.
        "Queue/CoDel": {"target_": ("0.005", "double"), "interval_": ("0.1", "double")},
        "Queue/PIE": {},
        "Queue/FQ_CoDel": {},
        "ErrorModel": {"rate_": ("0", "double"), "enable_": ("1", "int"),
                       "markecn_": ("false", "bool"), "delay_pkt_": ("false", "bool"),
                       "delay_": ("0", "double")},
        "ErrorModel/Periodic": {"period_": ("1.0", "double"), "offset_": ("0.0", "double"),
                                "burstlen_": ("0.0", "double")},
        "RandomVariable/Uniform": {"min_": ("0.0", "double"), "max_": ("1.0", "double")},
        "RandomVariable/Exponential": {"avg_": ("1.0", "double")},
        "RandomVariable/Pareto": {"avg_": ("1.0", "double"), "shape_": ("1.5", "double")},
        "RandomVariable/Constant": {"val_": ("1.0", "double")},
        "RandomVariable/Normal": {"avg_": ("0.0", "double"), "std_": ("1.0", "double")},
        "RandomVariable/HyperExponential": {"avg_": ("1.0", "double"), "cov_": ("4.0", "double")},
        "Integrator": {"sum_": ("0.0", "double"), "lastx_": ("0.0", "double"),
                       "lasty_": ("0.0", "double")},
        "QueueMonitor": {v: ("0", "int") for v in (
            "size_", "pkts_", "parrivals_", "barrivals_", "pdepartures_", "bdepartures_",
            "pdrops_", "bdrops_", "pmarks_", "qs_pkts_", "qs_bytes_", "qs_drops_")},
        "QueueMonitor/ED": {"epdrops_": ("0", "int"), "ebdrops_": ("0", "int")},
        "QueueMonitor/ED/Flowmon": {"enable_in_": ("true", "bool"),
                                    "enable_out_": ("true", "bool"),
                                    "enable_drop_": ("true", "bool"),
                                    "enable_edrop_": ("true", "bool")},
        "QueueMonitor/ED/Flow": {"src_": ("-1", "int"), "dst_": ("-1", "int"),
                                 "flowid_": ("-1", "int")},
    }
)


# PARENT and DEFAULTS never change: what is read from them is remembered (a 10 000-flow
# script asks these some five million times).


@functools.cache
def lineage(cls: str) -> tuple[str, ...]:
    """``cls`` and its ancestors, nearest first."""
    out = []
    c = cls
    while c:
        out.append(c)
        c = PARENT.get(c, "")
    return tuple(out)


@functools.cache
def _default(cls: str, var: str) -> tuple[str, str] | None:
    for c in lineage(cls):
        d = DEFAULTS.get(c)
        if d is not None and var in d:
            return d[var]
    return None


def var_type(cls: str, var: str) -> str | None:
    """The C++ type ns-2 binds ``var`` of ``cls`` to (``int``, ``double``, ...), None if
    unbound."""
    d = _default(cls, var)
    return None if d is None else d[1]


def default_text(cls: str, var: str) -> str | None:
    """ns-2's default of ``var`` in ``cls`` as ns-default.tcl writes it, None if none."""
    d = _default(cls, var)
    return None if d is None else d[0]
