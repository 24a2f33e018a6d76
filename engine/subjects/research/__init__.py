"""Seed 000, the 2×n puzzle's diameter: full-space BFS, the Manhattan lower bound, the k-column sub-problem and the
upper bounds built from it."""

