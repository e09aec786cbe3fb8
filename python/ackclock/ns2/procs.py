"""Global commands of ns-2 that scripts call outside any object, written in Tcl.

- ``remove-all-packet-headers``, ``remove-packet-header``, ``add-packet-header``: in ns-2 they
  only choose which headers packets carry, to save memory; results do not change, so they
  are accepted and do nothing.
- ``time_parse``, ``delay_parse``, ``bw_parse`` (and the Simulator's ``delay_parse``,
  ``bw_parse``): a time or bandwidth with its unit, as ns-2.35's tcl/lib/ns-lib.tcl computes
  it in Tcl doubles (``100ms`` is 0.10000000000000001 at ns-2's tcl_precision 17).
- Commands of what ackclock does not model (wireless, multicast, satellite, ...) stop the
  script with one line naming the command; see ``UNSUPPORTED``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .interp import Context

_WIRELESS = "wireless networks"
_NS1 = "ns-1 compatibility (tcl/lib/ns-compat.tcl)"

# Global commands ns-2 has for features ackclock does not model: command -> the feature.
UNSUPPORTED = {
    "create-god": "wireless networks (God)",
    "god_": "wireless networks (God)",
    "set-wireless-plm": _WIRELESS,
    "create-satnode": "satellite networks",
    "create-mobile-node": _WIRELESS,
    "create-base-station-node": _WIRELESS,
    "dsdv-create-mobile-node": _WIRELESS,
    "dsr-create-mobile-node": _WIRELESS,
    "create-routing-agent": _WIRELESS,
    "set-wireless-traces": _WIRELESS,
    "cmu-trace": _WIRELESS,
    "log-movement": _WIRELESS,
    "calc_cum": "PLM layered multicast (tcl/plm)",
    "rlm_init": "RLM layered multicast (tcl/rlm)",
    "ns_connect": _NS1,
    "ns_create_connection": _NS1,
    "ns_create_cbr": _NS1,
    "ns_create_class": _NS1,
    "ns_duplex": _NS1,
    "ns_simplex": _NS1,
}

_PROCS = r"""
proc remove-all-packet-headers {} {}
proc add-all-packet-headers {} {}
# ns-2's global random numbers (tcl/lib/ns-random.tcl): each is the default generator's own
# method of the same name, so they draw the same stream as `$defaultRNG uniform a b` does.
proc uniform {args} { return [$::defaultRNG uniform {*}$args] }
proc integer {args} { return [$::defaultRNG integer {*}$args] }
proc exponential {args} { return [$::defaultRNG exponential {*}$args] }
# ns-2's small helpers (tcl/lib/ns-lib.tcl): a warning printed once per text on stderr, an
# assertion that stops the script, the largest of a list of numbers (0 for none below 0).
proc warn {msg} {
    if {![info exists ::__ac_warned($msg)]} {
        puts stderr "warning: $msg"
        set ::__ac_warned($msg) 1
    }
}
proc assert {args} {
    if {[catch {expr $args} ok]} { set ok [expr {*}$args] }
    if {!$ok} { error "assertion failed: $args" }
}
proc find-max {values} {
    set max 0
    foreach v $values { if {$v > $max} { set max $v } }
    return $max
}
proc remove-packet-header {args} {}
proc add-packet-header {args} {}
# ns-2's global parsers of a time or a bandwidth with its unit (tcl/lib/ns-lib.tcl's
# time_parse, delay_parse, bw_parse), computed as ns-2 computes them: the number scanned as
# a double, times the unit's factor in a Tcl expr; an unknown unit ends the script as there.
namespace eval ::__ac_parse {
    variable time_units {s 1 ms 1e-3 us 1e-6 ns 1e-9 ps 1e-12}
    variable bw_units {b 1 kb 1000 Mb 1000000 Gb 1000000000}
}
proc time_parse {spec} {
    set n [scan $spec "%f%s" value unit]
    if {$n == 1} { set unit s }
    regsub {sec$} $unit s unit
    if {![dict exists $::__ac_parse::time_units $unit]} {
        puts "error: time_parse: unknown unit `$unit'"
        exit 1
    }
    if {$unit eq "s"} { return $value }
    return [expr {$value * [dict get $::__ac_parse::time_units $unit]}]
}
proc delay_parse {spec} { return [time_parse $spec] }
proc bw_parse {spec} {
    set n [scan $spec "%f%s" value unit]
    if {$n == 1} { set unit bps }
    regsub {[/p]s(ec)?$} $unit {} unit
    if {[string index $unit end] eq "B"} {
        set value [expr {$value * 8}]
        set unit "[string range $unit 0 end-1]b"
    }
    if {![dict exists $::__ac_parse::bw_units $unit]} {
        puts "error: bw_parse: unknown unit `$unit'"
        exit 1
    }
    if {$unit eq "b"} { return $value }
    return [expr {$value * [dict get $::__ac_parse::bw_units $unit]}]
}
"""


def install(ctx: Context) -> None:
    ctx.tcl.eval(_PROCS)
    for command, feature in UNSUPPORTED.items():
        ctx.tcl.call("interp", "alias", "", command, "", "::__ac_dispatch", "__unsupported",
                     f"{feature} ({command})")
