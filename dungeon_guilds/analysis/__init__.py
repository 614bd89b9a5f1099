"""The laboratory: bots, exact probabilities, simulation, balance metrics and tournaments.

==========================  ====================================================================
``analysis.bots``           named strategies (``BOTS``, ``make_bot``): random, cooperator,
                            greedy, bully, mcts; each with a one-sentence ``description``
``analysis.probability``    exact chance a room clears (``clear_probability``) and the expected
                            gold of each legal move this round (``action_values``)
``analysis.knowledge``      what a player may know: determinizations for search, a move's
                            outcome with resolution held back
``analysis.simulate``       ``simulate(...)``: many games, any Executor (Dask too); pandas tables
                            built when read; ``ChunkedRun``: a chunk at a time
``analysis.per_game``       a run's games as plain per-game dicts (the intervals' input)
``analysis.metrics``        balance metrics over those tables (``METRICS``), with 95 % intervals
``analysis.tournament``     round robin of strategies and The Evolution of Trust's ``evolve``
``analysis.cli_simulate``   the ``dungeon-guilds simulate`` subcommand
==========================  ====================================================================

Bots, probabilities, the simulator's games and the per-game results use the standard library
only (they run in the browser build too); the pandas tables, metrics and tournaments need pandas
(the ``analysis`` extra) and say so. Nothing here restates a rule: every consequence of a move is
asked of the engine (:class:`~dungeon_guilds.state.State`). See ``docs/bots.md`` and
``docs/metrics.md``.
"""

