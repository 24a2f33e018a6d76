"""Metaheuristic solvers of seed 001: a binary particle swarm (DPSO) and a genetic algorithm over bit strings that
always decode to legal blank moves."""

