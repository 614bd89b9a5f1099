"""Bots, exact probabilities, simulation and balance metrics (pandas)."""
