"""Global commands of ns-2 that scripts call outside any object, written in Tcl.

- ``remove-all-packet-headers``, ``remove-packet-header``, ``add-packet-header``: in ns-2 they
  only choose which headers packets carry, to save memory; results do not change, so they
  are accepted and do nothing.
- Commands of what ackclock does not model (wireless, multicast, satellite, ...) stop the
  script with one line naming the command; see ``UNSUPPORTED``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .interp import Context

# Global commands ns-2 has for features ackclock does not model: command -> the feature.
UNSUPPORTED = {
    "create-god": "wireless networks (God)",
    "god_": "wireless networks (God)",
    "set-wireless-plm": "wireless networks",
    "create-satnode": "satellite networks",
}

_PROCS = r"""
proc remove-all-packet-headers {} {}
proc remove-packet-header {args} {}
proc add-packet-header {args} {}
"""


def install(ctx: Context) -> None:
    ctx.tcl.eval(_PROCS)
    for command, feature in UNSUPPORTED.items():
        ctx.tcl.call("interp", "alias", "", command, "", "::__ac_dispatch", "__unsupported",
                     f"{feature} ({command})")
