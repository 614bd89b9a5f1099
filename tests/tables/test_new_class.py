"""Issue 53: a teacher starts a class afresh (``--new-class``): the earlier classes' tables, closed
tables, damaged files and reviews are put away under ``earlier/<stamp>/`` (nothing deleted), and a
server on the same folder then lists none of them."""

from __future__ import annotations

from dungeon_guilds.app.tables.new_class import EARLIER, put_away
from dungeon_guilds.app.tables.store import TableStore
from dungeon_guilds.cli import main

from tables_helpers import lobby_in, seated_table


def _a_class(folder):
    """Two open tables, one closed, a review and a damaged file: what a lesson leaves behind."""
    lobby = lobby_in(folder)
    tables = [seated_table(lobby)[0] for _ in range(3)]
    lobby.store.close(tables[2])
    (folder / "reviews").mkdir()
    (folder / "reviews" / f"{tables[0].code}.json").write_text("{}", encoding="utf-8")
    (folder / "damaged").mkdir()
    (folder / "damaged" / "BROKEN.json").write_text("[", encoding="utf-8")
    return sorted(t.code for t in tables)


def _layout(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_put_away_moves_every_file_of_the_earlier_class_in_its_layout_and_deletes_nothing(tmp_path):
    codes = _a_class(tmp_path)
    before = {name: (tmp_path / name).read_bytes() for name in _layout(tmp_path)}
    count, target = put_away(tmp_path, now=0)
    assert count == 3 and target.parent == tmp_path / EARLIER
    moved = {name: (target / name).read_bytes() for name in _layout(target)}
    assert moved == before  # every file, byte for byte, at the same place under earlier/<stamp>/
    store = TableStore(tmp_path)
    assert store.load_all() == [] and store.load_closed() == []  # the new class starts empty
    kept = TableStore(target)
    assert sorted(t.code for t in [*kept.load_all(), *kept.load_closed()]) == codes  # still readable


def test_a_second_new_class_keeps_the_first_and_an_empty_folder_is_left_alone(tmp_path):
    _a_class(tmp_path)
    _, first = put_away(tmp_path, now=0)
    assert put_away(tmp_path, now=60) == (0, None)  # nothing new: no empty folder made
    lobby = lobby_in(tmp_path)
    seated_table(lobby)
    count, second = put_away(tmp_path, now=120)
    assert count == 1 and second != first and len(_layout(first)) == 5
    assert put_away(tmp_path / "missing") == (0, None)


def test_the_tables_command_refuses_new_class_with_redis_and_says_what_to_do(capsys):
    code = main(["tables", "--port", "8870", "--tables-store", "redis://127.0.0.1:1/0", "--new-class"])
    said = capsys.readouterr().err
    assert code != 0 and "another Redis database number" in said and "Traceback" not in said


def test_the_help_of_both_servers_names_new_class(capsys):
    for command in ("dashboard", "tables"):
        try:
            main([command, "--help"])
        except SystemExit:
            pass
        assert "--new-class" in capsys.readouterr().out
