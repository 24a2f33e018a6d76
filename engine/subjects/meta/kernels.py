"""numba kernels of the metaheuristics: fitness, DPSO iterations, GA generations.

Random numbers come from ``engine.core.fastrandom`` (seeded, per run). The plain-Python reference of the fitness is
``engine.subjects.meta.encoding.fitness_reference``; the tests check that the two agree.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.core.fastrandom import next_random


@njit(cache=True, nogil=True)
def fitness(bits, start, start_blank, start_md, targets, manhattan, max_moves, work, stack):
    """Seed 001's fitness of one bit string (2 bits a move, ``max_moves`` moves), minimised.

    A move that undoes the one before it cancels with it (the pair is not counted). If the goal is reached, the
    fitness is the number of moves that count at that moment; otherwise ``max_moves`` + the Manhattan sum at the end.
    """
    for i in range(start.shape[0]):
        work[i] = start[i]
    blank = start_blank
    md = start_md
    if md == 0:
        return 0
    depth = 0
    for m in range(max_moves):
        target = targets[blank, 2 * bits[2 * m] + bits[2 * m + 1]]
        tile = work[target]
        md += manhattan[tile, blank] - manhattan[tile, target]
        work[blank] = tile
        work[target] = 0
        if depth > 0 and stack[depth - 1] == target:
            depth -= 1
        else:
            stack[depth] = blank
            depth += 1
        blank = target
        if md == 0:
            return depth
    return max_moves + md


@njit(cache=True, nogil=True)
def evaluate_all(population, scores, start, start_blank, start_md, targets, manhattan, max_moves, work, stack):
    for p in range(population.shape[0]):
        scores[p] = fitness(population[p], start, start_blank, start_md, targets, manhattan, max_moves, work, stack)


@njit(cache=True, nogil=True)
def keep_best(rows, scores, best, best_score):
    """Copy the best-scoring row into ``best[0]`` if it beats ``best_score[0]``."""
    for i in range(rows.shape[0]):
        if scores[i] < best_score[0]:
            best_score[0] = scores[i]
            for j in range(rows.shape[1]):
                best[0, j] = rows[i, j]


@njit(cache=True, nogil=True)
def dpso_iterations(x, v, pbest, pbest_score, gbest, gbest_score, w, c1, c2, vmax, iterations, history, offset, rng,
                    start, start_blank, start_md, targets, manhattan, max_moves, work, stack, stop_at):
    """Run ``iterations`` of the binary swarm; ``history[offset + i]`` gets the best fitness after iteration i.

    v ← w·v + c1·r1·(pbest − x) + c2·r2·(gbest − x), clamped to ±vmax; x_j = 1 if ρ < sigmoid(v_j).
    The global best is updated once per iteration, after every particle has moved (a synchronous swarm).
    Returns the number of iterations run (fewer if the best reaches ``stop_at``).
    """
    particles, length = x.shape
    for it in range(iterations):
        for p in range(particles):
            for j in range(length):
                velocity = (w * v[p, j] + c1 * next_random(rng) * (pbest[p, j] - x[p, j])
                            + c2 * next_random(rng) * (gbest[0, j] - x[p, j]))
                if velocity > vmax:
                    velocity = vmax
                elif velocity < -vmax:
                    velocity = -vmax
                v[p, j] = velocity
                x[p, j] = 1 if next_random(rng) < 1.0 / (1.0 + np.exp(-velocity)) else 0
            score = fitness(x[p], start, start_blank, start_md, targets, manhattan, max_moves, work, stack)
            if score < pbest_score[p]:
                pbest_score[p] = score
                for j in range(length):
                    pbest[p, j] = x[p, j]
        keep_best(pbest, pbest_score, gbest, gbest_score)
        history[offset + it] = gbest_score[0]
        if gbest_score[0] <= stop_at:
            return it + 1
    return iterations


@njit(cache=True, nogil=True)
def _roulette(weights, total, rng):
    pick = next_random(rng) * total
    acc = 0.0
    for i in range(weights.shape[0]):
        acc += weights[i]
        if pick < acc:
            return i
    return weights.shape[0] - 1


@njit(cache=True, nogil=True)
def ga_generations(population, scores, spare, best, best_score, crossover_rate, mutation_rate, elites, by_rank,
                   generations, history, offset, rng, start, start_blank, start_md, targets, manhattan, max_moves,
                   work, stack, stop_at):
    """Run ``generations`` of the GA: ``elites`` best copied, the rest bred by roulette selection (weight
    1/(1 + fitness), fitness being minimised; or with ``by_rank`` population − rank, the best weighing most),
    two-point crossover with probability ``crossover_rate`` and bit-flip mutation with probability
    ``mutation_rate`` per bit. ``history[offset + g]`` gets the best fitness after generation g."""
    size, length = population.shape
    weights = np.empty(size)
    for gen in range(generations):
        order = np.argsort(scores)
        total = 0.0
        for i in range(size):
            weights[i] = 1.0 / (1.0 + scores[i])
        if by_rank:
            for r in range(size):
                weights[order[r]] = size - r
        for i in range(size):
            total += weights[i]
        for e in range(elites):
            for j in range(length):
                spare[e, j] = population[order[e], j]
        child = elites
        while child < size:
            a = _roulette(weights, total, rng)
            b = _roulette(weights, total, rng)
            if next_random(rng) < crossover_rate:
                cut1 = 1 + int(next_random(rng) * (length - 1))
                cut2 = 1 + int(next_random(rng) * (length - 1))
                if cut1 > cut2:
                    cut1, cut2 = cut2, cut1
            else:
                cut1 = length
                cut2 = length
            for j in range(length):
                inside = cut1 <= j < cut2
                spare[child, j] = population[b if inside else a, j]
                if child + 1 < size:
                    spare[child + 1, j] = population[a if inside else b, j]
            for c in range(child, min(child + 2, size)):
                for j in range(length):
                    if next_random(rng) < mutation_rate:
                        spare[c, j] = 1 - spare[c, j]
            child += 2
        for i in range(size):
            for j in range(length):
                population[i, j] = spare[i, j]
        evaluate_all(population, scores, start, start_blank, start_md, targets, manhattan, max_moves, work, stack)
        keep_best(population, scores, best, best_score)
        history[offset + gen] = best_score[0]
        if best_score[0] <= stop_at:
            return gen + 1
    return generations
