"""What every plotly chart of the package is drawn with (its ``config``): no plotly logo, sized
to its box, and none of plotly's buttons that reach another host — "Share chart..." (plotly 6)
uploads the chart to Plotly Cloud, and a class's page never sends anything away (schools are
often offline; issue 41 found the button on every chart). Standard library only: the widgets
and the static site import it without the analysis extra."""

from __future__ import annotations

CLOUD_BUTTONS = ("sendChartToCloud", "sendDataToCloud", "editInChartStudio")
PLOTLY_CONFIG = {"displaylogo": False, "responsive": True, "modeBarButtonsToRemove": list(CLOUD_BUTTONS)}


def plotly_config() -> dict:
    """A fresh copy of :data:`PLOTLY_CONFIG` (a caller may add to it)."""
    return {**PLOTLY_CONFIG, "modeBarButtonsToRemove": list(CLOUD_BUTTONS)}


__all__ = ["CLOUD_BUTTONS", "PLOTLY_CONFIG", "plotly_config"]
