"""Plotly figures and networkx graphs: pure functions from engine states to figures."""
