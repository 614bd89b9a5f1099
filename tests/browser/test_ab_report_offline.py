"""The A/B report a student downloads opens offline (issue 33): Chromium with the network cut
(every request that is not the file itself is refused, and the context is offline) draws
every chart of the report, and the page says nothing failed."""

from __future__ import annotations

import pytest

pytest.importorskip("pandas")
pytest.importorskip("plotly")

from dungeon_guilds import Rules  # noqa: E402
from dungeon_guilds.workshop.ab import Arm, run_ab  # noqa: E402
from dungeon_guilds.workshop.report import figures, report_html  # noqa: E402


def test_the_downloaded_report_draws_every_chart_with_the_network_cut(browser, tmp_path):
    result = run_ab(Arm("A"), Arm("B", Rules(lords="base")), 40, ["greedy", "random", "bully"], 3, seed=3)
    html = report_html(result, "zh")
    path = tmp_path / "workshop_ab.html"
    path.write_text(html, encoding="utf-8")
    size_mb = path.stat().st_size / 1e6
    assert 3 < size_mb < 8, size_mb  # plotly.js inline once (~4.7 MB), stated on the download link
    context = browser.new_context(viewport={"width": 1024, "height": 768}, offline=True)
    refused: list[str] = []

    def cut(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context.route("**/*", cut)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(path.as_uri())
        charts = len(figures(result, "zh"))
        page.wait_for_function(f"document.querySelectorAll('.js-plotly-plot .main-svg').length >= {charts}",
                               timeout=60_000)
        drawn = page.evaluate("document.querySelectorAll('.js-plotly-plot').length")
        assert drawn == charts == 4
        assert not errors and not refused, (errors, refused)
    finally:
        context.close()
