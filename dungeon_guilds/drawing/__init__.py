"""The drawing layer: pictures of a game, above the engine (``Game``) and below the figures and
widgets. Importing :mod:`dungeon_guilds` loads none of it; ``Game._repr_html_`` imports
:mod:`dungeon_guilds.drawing.display` when a notebook first shows a game (as python-chess imports
``chess.svg`` inside ``_repr_svg_``).

- :mod:`.colours`: the seats' colours and patterns (Okabe–Ito), shared with the figures;
- :mod:`.plotly_config`: the ``config`` every plotly chart is drawn with (no button reaches another host);
- :mod:`.board_svg`: the drawn board (SVG), with the clickable targets of
  :mod:`dungeon_guilds.board_targets` when given;
- :mod:`.display`: a game's notebook display and the HTML tables board;
- :mod:`.print_and_play`: the printable cards of a variant, the player aid and the rules sheet
  (issue 29).
"""
