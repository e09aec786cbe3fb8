"""An interactive report of a run or a sweep: one self-contained HTML file (plotly, its
JavaScript inlined, so it opens offline) with the topology drawn, the summary tables and
zoomable time series of cwnd, throughput, RTT and queues per flow and link; for a sweep, its
summary table and each metric against the swept parameter with confidence intervals.

``ackclock run --report`` writes ``report.html`` into the results folder, and
``ackclock report DIR`` does so for an existing run or sweep folder (docs/report.md). plotly
is imported only here: a plain run never pays for it.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .atomic import write_atomic
from .errors import ScenarioError
from .results import Results

if TYPE_CHECKING:
    import pandas as pd

REPORT = "report.html"
MAX_SERIES = 24  # lines per time-series figure; more are left out (the page says so)

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f2f2f2; } td.text { text-align: left; }
.note { color: #666; font-size: 0.9em; }
.scroll { overflow-x: auto; }
"""


def write_report(source: str | os.PathLike[str] | Results,
                 path: str | os.PathLike[str] | None = None) -> Path:
    """Writes the report of a results folder, a sweep's folder or a :class:`Results` to
    ``path`` (default: ``report.html`` in the folder); returns the path written."""
    if isinstance(source, Results):
        if path is None:
            raise ValueError("write_report needs a path when given a Results")
        page = run_page(source)
    else:
        folder = Path(source)
        if (folder / "summary.csv").is_file() and not (folder / "flows.csv").is_file():
            page = sweep_page(folder)
        elif (folder / "summary.json").is_file():
            page = run_page(Results.load(folder))
        else:
            raise ScenarioError("not a results folder or a sweep's folder (it has neither"
                                " summary.json nor summary.csv)", file=str(folder))
        path = folder / REPORT if path is None else path
    target = Path(path)
    write_atomic(target, lambda f: f.write(page))
    return target


# --- pages ---------------------------------------------------------------------------------


def _page(title: str, sections: Iterable[str]) -> str:
    from plotly.offline import get_plotlyjs

    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n"
        # plotly.js itself, inlined: the page needs no network.
        f"<script type=\"text/javascript\">{get_plotlyjs()}</script>\n</head>\n<body>\n"
        f"<h1>{html.escape(title)}</h1>\n" + "\n".join(sections) + "\n</body>\n</html>\n"
    )


def _figure_html(fig: Any, div_id: str) -> str:
    return str(fig.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                           config={"displaylogo": False, "responsive": True}))


def _table(frame: pd.DataFrame, columns: Iterable[str] | None = None,
           digits: int = 4) -> str:
    cols = [c for c in (columns or frame.columns) if c in frame.columns]
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    rows = []
    for _, row in frame[cols].iterrows():
        cells = []
        for c in cols:
            v = row[c]
            if isinstance(v, float):
                text, cls = ("" if v != v else f"{v:.{digits}g}"), ""
            elif isinstance(v, (int, bool)) or hasattr(v, "item"):
                text, cls = str(v), ""
            else:
                text, cls = str(v), " class=\"text\""
            cells.append(f"<td{cls}>{html.escape(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (f"<div class=\"scroll\"><table><thead><tr>{head}</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></div>")


_FLOW_COLUMNS = ("flow", "kind", "variant", "cc", "from", "to", "start_s", "throughput_mbps",
                 "goodput_mbps", "loss_rate", "mean_rtt_s", "timeouts", "fast_retransmits",
                 "packets_sent", "packets_retransmitted", "completion_s")
_QUEUE_COLUMNS = ("link", "utilization", "mean_queue_packets", "max_queue_packets",
                  "dropped_packets", "mean_sojourn_s", "p50_sojourn_s", "p95_sojourn_s",
                  "max_sojourn_s", "marked_packets", "lost_packets")


def run_page(res: Results) -> str:
    """The report of one run."""
    s = res.summary
    name = str(s.get("name", "run"))
    facts = ", ".join(f"{k} {s[k]}" for k in ("profile", "seed", "duration_s", "warmup_s",
                                               "version") if k in s)
    sections = [f"<p class=\"note\">{html.escape(facts)}</p>"]
    sections.append("<h2>Topology</h2>")
    topo = topology_figure(s.get("scenario", {}))
    sections.append(_figure_html(topo, "topology") if topo is not None
                    else "<p class=\"note\">no resolved scenario recorded</p>")
    sections.append("<h2>Flows</h2>" + _table(res.flows, _FLOW_COLUMNS))
    queues = res.queues
    if not queues.empty:
        busy = queues[queues.get("departed_packets", queues.index.to_series()) > 0] \
            if "departed_packets" in queues else queues
        sections.append("<h2>Links</h2><p class=\"note\">link directions that carried"
                        " packets</p>" + _table(busy, _QUEUE_COLUMNS))
    if res.timeseries.empty:
        sections.append("<p class=\"note\">no time series (the run had no"
                        " run.sample_interval)</p>")
    else:
        for div_id, title, fig in time_series_figures(res):
            sections.append(f"<h2>{html.escape(title)}</h2>" + _figure_html(fig, div_id))
    return _page(f"ackclock report: {name}", sections)


def sweep_page(folder: Path) -> str:
    """The report of a sweep's folder: summary.csv, and each metric against the first swept
    parameter."""
    import pandas as pd

    from .plot import AGGREGATE_UNITS, UNITS, _grid_keys

    summary = pd.read_csv(folder / "summary.csv", keep_default_na=False, na_values=[""],
                          dtype={"flow": str})
    params = list(summary.columns[: list(summary.columns).index("flow")])
    keys = _grid_keys(folder)
    sections = []
    if keys:
        sections.append("<p class=\"note\">grid: " + html.escape(", ".join(
            f"{c} = {k}" for c, k in keys.items())) + "</p>")
    shown = [*params, "flow", "runs", *(c for c in summary.columns
                                        if c.endswith(("_mean", "_ci95")))]
    sections.append("<h2>Summary (mean and 95% confidence half-width over the"
                    " replications)</h2>" + _table(summary, shown))
    if params:
        x = params[0]
        for i, (metric, label) in enumerate({**UNITS, **{
                f"all:{k}": v for k, v in AGGREGATE_UNITS.items()}}.items()):
            total = metric.startswith("all:")
            m = metric.removeprefix("all:")
            rows = summary[(summary["flow"] == "all") == total]
            if f"{m}_mean" not in rows or not rows[f"{m}_mean"].notna().any():
                continue
            fig = _sweep_figure(rows, x, params[1] if len(params) > 1 else None, m, label,
                                keys.get(x, x))
            sections.append(f"<h2>{html.escape(label)}</h2>" + _figure_html(fig, f"sweep{i}"))
    return _page(f"ackclock sweep report: {folder.name}", sections)


# --- figures -------------------------------------------------------------------------------


def topology_figure(scenario: Mapping[str, Any]) -> Any:
    """The network: nodes in columns by hops from the flows' sources, links as lines
    labelled with rate, delay and queue limit (hover for details)."""
    import plotly.graph_objects as go

    nodes = list(scenario.get("nodes", []))
    links = list(scenario.get("links", []))
    if not nodes:
        return None
    sources = {f.get("from") for f in scenario.get("flows", []) if isinstance(f, dict)}
    adjacency: dict[int, set[int]] = {i: set() for i in range(len(nodes))}
    for link in links:
        a, b = link.get("from"), link.get("to")
        if isinstance(a, int) and isinstance(b, int):
            adjacency[a].add(b)
            adjacency[b].add(a)
    layer: dict[int, int] = {}
    frontier = [i for i in range(len(nodes)) if i in sources] or [0]
    for i in frontier:
        layer[i] = 0
    while frontier:
        nxt = []
        for i in frontier:
            for j in sorted(adjacency[i]):
                if j not in layer:
                    layer[j] = layer[i] + 1
                    nxt.append(j)
        frontier = nxt
    depth = max(layer.values(), default=0) + 1
    for i in range(len(nodes)):
        layer.setdefault(i, depth)
    columns: dict[int, list[int]] = {}
    for i in range(len(nodes)):
        columns.setdefault(layer[i], []).append(i)
    pos = {}
    for col, members in columns.items():
        for k, i in enumerate(members):
            pos[i] = (col, (len(members) - 1) / 2 - k)

    fig = go.Figure()
    seen = set()
    label_x, label_y, label_text = [], [], []
    for link in links:
        a, b = link.get("from"), link.get("to")
        if not (isinstance(a, int) and isinstance(b, int)) or (b, a) in seen:
            continue
        seen.add((a, b))
        (x0, y0), (x1, y1) = pos[a], pos[b]
        rate = _rate(link.get("rate_bps"))
        delay = _delay(link.get("delay_ps"))
        q = link.get("queue") or {}
        limit = q.get("limit_packets")
        text = f"{nodes[a]}-{nodes[b]}: {rate}, {delay}" + (
            f", {q.get('custom') or q.get('kind', 'droptail')} {limit} pkts"
            if limit is not None else "")
        fig.add_trace(go.Scatter(x=[x0, x1], y=[y0, y1], mode="lines",
                                 line={"color": "#888", "width": 2}, hoverinfo="text",
                                 text=[text, text], showlegend=False))
        label_x.append((x0 + x1) / 2)
        label_y.append((y0 + y1) / 2)
        label_text.append(f"{rate}<br>{delay}")
    fig.add_trace(go.Scatter(x=label_x, y=label_y, mode="text", text=label_text,
                             textfont={"size": 9, "color": "#555"}, hoverinfo="skip",
                             showlegend=False, name="links"))
    fig.add_trace(go.Scatter(
        x=[pos[i][0] for i in range(len(nodes))], y=[pos[i][1] for i in range(len(nodes))],
        mode="markers+text", text=[str(n) for n in nodes], textposition="top center",
        marker={"size": 14, "color": ["#d62728" if i in sources else "#1f77b4"
                                      for i in range(len(nodes))]},
        hoverinfo="text", showlegend=False, name="nodes"))
    height = max(250, 60 * max(len(m) for m in columns.values()))
    fig.update_layout(height=height, margin={"l": 20, "r": 20, "t": 20, "b": 20},
                      xaxis={"visible": False}, yaxis={"visible": False},
                      plot_bgcolor="white")
    return fig


def _rate(bps: Any) -> str:
    if not isinstance(bps, (int, float)):
        return "?"
    for unit, scale in (("Gb/s", 1e9), ("Mb/s", 1e6), ("kb/s", 1e3)):
        if bps >= scale:
            return f"{bps / scale:g} {unit}"
    return f"{bps:g} b/s"


def _delay(ps: Any) -> str:
    if not isinstance(ps, (int, float)):
        return "?"
    return f"{ps / 1e9:g} ms"


def time_series_figures(res: Results) -> list[tuple[str, str, Any]]:
    """(div id, title, figure) for cwnd, throughput, RTT and queue length against time."""
    import plotly.graph_objects as go

    from .plot import (
        _NO_SSTHRESH,
        SMOOTH_S,
        _limits,
        _scenario_flows,
        _smooth,
        _tcp_flows,
        _window_unit,
    )

    ts = res.timeseries
    groups = dict(tuple(ts.groupby("flow", sort=False)))
    tcp = [f for f in _tcp_flows(res) if f in groups][:MAX_SERIES]
    cc = {n: str(f.get("tcp", {}).get("cc", "")) for n, f in _scenario_flows(res).items()}
    out = []

    def layout(fig: Any, ytitle: str) -> Any:
        fig.update_layout(height=420, margin={"l": 60, "r": 20, "t": 30, "b": 50},
                          xaxis_title="simulated time (s)", yaxis_title=ytitle,
                          hovermode="x unified", legend={"title": {"text": "click to hide"}})
        return fig

    fig = go.Figure()
    for f in tcp:
        g = groups[f]
        fig.add_trace(go.Scatter(x=g["time_s"], y=g["cwnd"], mode="lines", name=f"{f} cwnd"))
        ssthresh = g["ssthresh"].replace([float("inf"), float("-inf")], float("nan"))
        if cc.get(f) not in _NO_SSTHRESH and ssthresh.notna().any():
            fig.add_trace(go.Scatter(x=g["time_s"], y=ssthresh, mode="lines",
                                       name=f"{f} ssthresh", line={"dash": "dash"},
                                       visible="legendonly"))
    out.append(("cwnd", "Congestion window", layout(fig, f"cwnd ({_window_unit(res)})")))

    fig = go.Figure()
    for f in list(groups)[:MAX_SERIES]:
        g = groups[f]
        fig.add_trace(go.Scatter(x=g["time_s"], y=_smooth(g, "throughput_mbps", SMOOTH_S),
                                   mode="lines", name=str(f)))
        fig.add_trace(go.Scatter(x=g["time_s"], y=g["throughput_mbps"], mode="lines",
                                   name=f"{f} (raw samples)", visible="legendonly",
                                   line={"width": 0.8}))
    out.append(("throughput", f"Throughput ({SMOOTH_S:g} s moving average; raw samples in the"
                " legend)", layout(fig, "throughput (Mb/s)")))

    fig = go.Figure()
    for f in tcp:
        g = groups[f]
        if "srtt_s" in g:
            fig.add_trace(go.Scatter(x=g["time_s"], y=g["srtt_s"] * 1e3, mode="lines",
                                       name=f"{f} smoothed RTT"))
        if "rtt_s" in g:
            fig.add_trace(go.Scatter(x=g["time_s"], y=g["rtt_s"] * 1e3, mode="lines",
                                       name=f"{f} RTT sample", visible="legendonly"))
        if "rto_s" in g:
            fig.add_trace(go.Scatter(x=g["time_s"], y=g["rto_s"] * 1e3, mode="lines",
                                       name=f"{f} RTO", visible="legendonly",
                                       line={"dash": "dot"}))
    out.append(("rtt", "Round-trip time (RTO and raw samples in the legend)",
                layout(fig, "time (ms)")))

    qs = res.queue_timeseries
    fig = go.Figure()
    if not qs.empty:
        stats = qs.groupby("link", sort=False)["queue_packets"].max()
        limits = _limits(res)
        for link, g in qs.groupby("link", sort=False):
            if stats[link] <= 0:
                continue
            fig.add_trace(go.Scatter(x=g["time_s"], y=g["queue_packets"], mode="lines",
                                       name=str(link)))
            if link in limits:
                fig.add_trace(go.Scatter(x=[g["time_s"].min(), g["time_s"].max()],
                                           y=[limits[link]] * 2, mode="lines",
                                           name=f"{link} buffer limit",
                                           line={"dash": "dash", "width": 1}))
    out.append(("queues", "Queue length (links that held packets)",
                layout(fig, "queue (packets)")))
    return out


def _sweep_figure(rows: pd.DataFrame, x: str, by: str | None, metric: str, label: str,
                  key: str) -> Any:
    import numpy as np
    import plotly.graph_objects as go

    from .plot import _RANGES, _geometric

    lo, hi = _RANGES.get(metric, (0.0, float("inf")))
    fig = go.Figure()
    keys = ["flow"] + ([by] if by else [])
    for group, g in rows.groupby(keys, sort=False):
        parts = group if isinstance(group, tuple) else (group,)
        name = ", ".join(str(p) if i == 0 else f"{by}={p}" for i, p in enumerate(parts)
                         if not (i == 0 and p == "all")) or "all flows"
        g = g.sort_values(x)
        mean = g[f"{metric}_mean"].to_numpy(dtype=float)
        ci = g[f"{metric}_ci95"].fillna(0).to_numpy(dtype=float) \
            if f"{metric}_ci95" in g else np.zeros(len(g))
        fig.add_trace(go.Scatter(
            x=g[x], y=mean, mode="lines+markers", name=name,
            error_y={"type": "data", "symmetric": False,
                     "array": np.minimum(mean + ci, hi) - mean,
                     "arrayminus": mean - np.maximum(mean - ci, lo)}))
    log = _geometric(rows[x])
    fig.update_layout(height=420, margin={"l": 60, "r": 20, "t": 30, "b": 50},
                      xaxis_title=x if key == x else f"{x} ({key})", yaxis_title=label,
                      xaxis_type="log" if log else None)
    return fig

