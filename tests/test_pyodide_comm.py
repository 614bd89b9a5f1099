"""The static site's comm fix (``app/pyodide_comm.py``): every None inside a comm message's
content is replaced by the page's null (Pyodide's ``jsnull``), nothing else changes; outside
Pyodide it installs nothing. The browser proof is tests/browser/test_pass_and_play_browser.py."""

from dungeon_guilds.app import pyodide_comm


def test_every_none_in_a_message_becomes_null_and_nothing_else_changes():
    null = object()
    content = {"data": {"state": {"display": None, "selected_index": None, "width": "8em",
                                  "options": [None, 0, ""], "pair": (None, False)}},
               "comm_id": "abc"}
    out = pyodide_comm.nulls(content, null)
    state = out["data"]["state"]
    assert state["display"] is null and state["selected_index"] is null
    assert state["width"] == "8em" and state["options"] == [null, 0, ""] and state["pair"] == (null, False)
    assert out["comm_id"] == "abc" and content["data"]["state"]["display"] is None  # the input is kept


def test_outside_pyodide_nothing_is_patched():
    assert pyodide_comm.install() is False
