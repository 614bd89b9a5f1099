"""Class tables (issue 26): classmates play one game together, each from their own browser.

The tables live in the dashboard server's own process (:mod:`dungeon_guilds.app.table_server`
adds the routes to ``dungeon-guilds-voila``); a table page needs no kernel. The logic here is
pure Python, testable without a server:

* :mod:`.table` — one table: seats, per-seat tokens, the engine's :class:`~dungeon_guilds.Game`,
  the simultaneous secret setup choice (R2.4), bots;
* :mod:`.render` — what one seat's page receives (built only from that seat's view);
* :mod:`.lobby` — every table: codes, limits, idle closing, away seats, the teacher's list;
* :mod:`.protocol` — the websocket messages, checked; every refusal explained;
* :mod:`.store` — tables saved as JSON files in a directory the server owns (fsync, then rename);
* :mod:`.limits` — what one connection or one client address may ask (rates, queues, budgets);
* :mod:`.records` — finished games as records (JSON) and one CSV row per game.
"""
