"""The Rectangle-out search as a background job (kind ``rectout-solve``)."""

from __future__ import annotations

from engine.errors import PuzzleError
from engine.jobs import job_kind
from engine.rectout.puzzle import state_from
from engine.rectout.search import solve
from engine.result import Budget

MAX_STATES = 200_000
MAX_SECONDS = 1_800


def search_params(params: dict) -> dict:
    """Checked search settings: the state, the budget, duplicate detection, the weight."""
    try:
        states = int(params.get("max_states", 20_000))
        seconds = float(params.get("max_seconds", 300))
        weight = float(params.get("weight", 1.0))
    except (TypeError, ValueError):
        raise PuzzleError("max_states, max_seconds and weight must be numbers") from None
    if not 1 <= states <= MAX_STATES:
        raise PuzzleError(f"max_states must be from 1 to {MAX_STATES:,}")
    if not 1 <= seconds <= MAX_SECONDS:
        raise PuzzleError(f"max_seconds must be from 1 to {MAX_SECONDS:,}")
    if not 1 <= weight <= 100:
        raise PuzzleError("weight must be from 1 (A*) to 100")
    dedupe = str(params.get("dedupe", True)).lower() not in ("0", "false", "no", "off")
    return {"state": state_from(params.get("state")), "budget": Budget(max_nodes=states, max_seconds=seconds),
            "dedupe": dedupe, "weight": weight}


@job_kind("rectout-solve")
def solve_job(params: dict, report, cancel) -> dict:
    checked = search_params(params)
    return solve(checked["state"], checked["budget"], dedupe=checked["dedupe"], weight=checked["weight"],
                 progress=report, cancel=cancel).to_dict()
