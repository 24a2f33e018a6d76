"""Seed 001's claims beside an experiment's figures: each reproduced or not, and why.

The paper's equations (1)–(4) (the PSO velocity and position updates, the binary position rule and the sigmoid) are
images missing from the text, so the exact update, any velocity limit and whether r1, r2 are drawn per bit or per
particle are unknown: ours are the textbook binary PSO with |v| ≤ 0.5, r1 and r2 per bit and random initial
velocities in [−0.5, 0.5] (``engine.subjects.meta.search``). Where a figure is not reproduced, that is the first
suspect.

``figures(result)`` reads from the rows of ``engine.subjects.meta.experiment.run_experiment``'s result the few counts
the claims are judged on (a depth the run did not include gives ``None``); ``judge(figures)`` turns them into verdicts.
A recorded experiment (``engine/subjects/meta/recorded/experiment.json``) stores its figures, so its verdicts come from
here too: ``claims(result)`` is ``judge(figures(result))``.
"""

from __future__ import annotations

MISSING = ("the paper's equations (1)–(4) are missing images: its velocity update, any velocity limit and how r1, r2 "
           "are drawn are unknown, so our swarm is not necessarily its swarm")


def _rows(result: dict, depth: int) -> list[dict]:
    return [r for r in result["rows"] if r["depth"] == depth]


def _count(rows: list[dict], algorithm: str, key: str, limit: float) -> int:
    return sum(1 for r in rows if r[algorithm][key] is not None and r[algorithm][key] <= limit)


def figures(result: dict) -> dict:
    """The counts the claims are judged on (JSON-ready)."""
    trials, end = result["trials"], result["dpso"]["iterations"]
    d10, d30, d50 = _rows(result, 10), _rows(result, 30), _rows(result, 50)
    solved_rows = [r for r in result["rows"] if r["dpso"]["solved_at"] is not None]
    equal = result["ga"]["generations"] >= 42_000 and end >= 5_000
    return {
        "trials": trials, "iterations": end, "generations": result["ga"]["generations"],
        "d10": {"solved_by_100": _count(d10, "dpso", "solved_at", 100),
                "optimal_by_50": _count(d10, "dpso", "optimal_at", 50),
                "optimal_at_end": _count(d10, "dpso", "optimal_at", end)} if d10 else None,
        "d30": {"solved": _count(d30, "dpso", "solved_at", end),
                "optimal": _count(d30, "dpso", "optimal_at", end)} if d30 else None,
        "d50": {"solved": _count(d50, "dpso", "solved_at", end),
                "first": min((r["dpso"]["solved_at"] for r in d50 if r["dpso"]["solved_at"] is not None),
                             default=None)} if d50 else None,
        "settled": {"solved": len(solved_rows),
                    "late": sum(1 for r in solved_rows if r["dpso"]["solved_at"] > 5_000)}
        if solved_rows and end >= 10_000 else None,
        "equal": {"dpso": _count(result["rows"], "dpso", "solved_at", 5_000),
                  "ga": _count(result["rows"], "ga", "solved_at", 42_000),
                  "dpso_seconds": round(sum(r["dpso"]["seconds"] for r in result["rows"]), 1),
                  "ga_seconds": round(sum(r["ga"]["seconds"] for r in result["rows"]), 1)} if equal else None,
    }


def claims(result: dict) -> list[dict]:
    return judge(figures(result))


def judge(figures: dict) -> list[dict]:
    """One entry per claim: ``claim`` (the paper's words, with where), ``paper`` and ``ours`` (short figures),
    ``key`` (a short name), ``verdict`` ("reproduced", "partly reproduced", "not reproduced", "not comparable",
    "not measured here")
    and ``why``."""
    trials = figures["trials"]
    end = figures["iterations"]
    out = []

    def add(key, claim, paper, ours, verdict, why):
        out.append({"key": key, "claim": claim, "paper": paper, "ours": ours, "verdict": verdict, "why": why})

    def share(n):
        return f"{n} of {trials} ({100 * n / trials:.0f} %)"

    d10, d30, d50 = figures["d10"], figures["d30"], figures["d50"]
    if d10:
        solved = d10["solved_by_100"]
        add("d10-solved", "Depth 10: every trial solved by iteration 100 (section 6)", "30 of 30", share(solved),
            "reproduced" if solved == trials else "not reproduced",
            "" if solved == trials else MISSING)
        by_50, final = d10["optimal_by_50"], d10["optimal_at_end"]
        near = abs(by_50 / trials - 25 / 30) <= 0.1 and by_50 == final
        add("d10-optimal", "Depth 10: 25 trials optimal (≤ 10 moves) by iteration 50, the same at 10,000 "
            "(section 6; the conclusion says about 80 %)", "25 of 30 (83 %), unchanged",
            f"{share(by_50)} by 50, {final} by {end:,}", "reproduced" if near else "not reproduced",
            "" if near else "our swarm finds more short answers than the paper's: " + MISSING)
    if d30:
        solved, optimal = d30["solved"], d30["optimal"]
        half = 0.35 <= solved / trials <= 0.65
        add("d30-solved", "Depth 30: about half the trials solved (section 6; abstract: 50 % or more at depth ≤ 30)",
            "about 15 of 30", share(solved), "reproduced" if half else "not reproduced", "" if half else MISSING)
        add("d30-optimal", "Depth 30: under 40 % optimal (≤ 30 moves)", "under 12 of 30", share(optimal),
            "reproduced" if optimal < 0.4 * trials else "not reproduced",
            "" if optimal < 0.4 * trials else MISSING)
    if d50:
        solved, first = d50["solved"], d50["first"]
        add("d50-section-6", "Depth 50: one trial solved, at iteration 300, and optimal (section 6)",
            "1 of 30, at iteration 300",
            share(solved) + (f", first at iteration {first:,}" if first is not None else ""),
            ("not reproduced" if not 1 <= solved <= max(2, round(trials / 15))
             else "reproduced" if first <= 1_000 else "partly reproduced"),
            "the paper contradicts itself: its conclusion says about 10 % (next row); section 6 is the one that "
            "gives the trial" + ("" if first is None or first <= 1_000 else
                                 f"; ours came {first:,} iterations in, not 300"))
        add("d50-conclusion", "Depth 50: about 10 % solved by iteration 10,000 (conclusion)", "about 3 of 30",
            share(solved),
            "reproduced" if 0.05 <= solved / trials <= 0.15 else "not reproduced",
            "section 6 says one trial (previous row); both cannot hold, and ours sides with section 6"
            if solved / trials < 0.05 else "")
    if figures["settled"]:
        late = figures["settled"]["late"]
        add("settled", "The search has settled by about iteration 5,000 (section 6 and conclusion)",
            "no progress after 5,000", f"{late} of {figures['settled']['solved']} solved trials solved after 5,000",
            "reproduced" if late <= 1 else "not reproduced",
            "" if late <= 1 else "ours still finds solutions late: with |v| ≤ 0.5 every bit stays at least 38 % "
            "random, so the swarm keeps exploring (our clamp, a choice: " + MISSING + ")")
    if figures["equal"]:
        dpso, ga = figures["equal"]["dpso"], figures["equal"]["ga"]
        add("equal-evaluations", "DPSO beats the GA at equal evaluations (5,000 × 250 ≈ 42,000 × 30; Figures 4–7)",
            "DPSO ahead",
            f"solved: DPSO {dpso}, GA {ga} (all depths)", "reproduced" if dpso > ga else "not reproduced",
            "" if dpso > ga else "our GA (roulette weight 1/(1 + fitness), a choice) may be stronger than the paper's")
        dpso_s, ga_s = figures["equal"]["dpso_seconds"], figures["equal"]["ga_seconds"]
        add("time", "DPSO's 10,000 iterations took 20–30 % less time than the GA's 50,000 generations", "20–30 % less",
            f"DPSO {dpso_s:,.0f} s, GA {ga_s:,.0f} s", "not comparable",
            "our runs stop as soon as they reach the true optimum, so neither side runs its full length on solved "
            "trials; and DPSO does 2.5 M evaluations to the GA's 1.5 M, so time depends on the cost per "
            "evaluation, which differs between implementations")
    add("tuning", "Tables 2–4: w = 1.4 and 1.6 collapse (6 and 8 of 20 solved at depth 15); c1 = 2.3 and c2 = 2.0 best",
        "collapse at w ≥ 1.4", "not re-measured by this experiment", "not measured here",
        "none of the variants we measured (random initial velocity, r1 and r2 per particle or per bit, removing "
        "cancelled pairs) collapses at w ≥ 1.4: " + MISSING)
    return out
