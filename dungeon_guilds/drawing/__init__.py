"""Drawing: pictures and printouts made from the engine's state and data (nothing here decides a
rule). ``drawing.print_and_play`` makes the printable cards, player aid and rules sheet."""
