"""The Rectangle-out search as a background job (kind ``rectout-solve``), and the warm-up of its geometry kernels.
The kernels load when a job is checked or run, not when the kind is registered."""

from __future__ import annotations

from engine.core import registry
from engine.core.params import flag, integer, number
from engine.core.result import Budget, Watch
from engine.serving.jobs import JobView, job_kind

MAX_STATES = 200_000
MAX_SECONDS = 1_800


def search_params(params: dict) -> dict:
    """Checked search settings, as JSON values: the state, the budget, duplicate detection, the weight."""
    from engine.domains.rectout.puzzle import state_from

    return {"state": [list(pose) for pose in state_from(params.get("state"))],
            "max_states": integer(params, "max_states", 1, MAX_STATES, 20_000),
            "max_seconds": number(params, "max_seconds", 1, MAX_SECONDS, 300.0),
            "dedupe": flag(params, "dedupe", True),
            "weight": number(params, "weight", 1, 100, 1.0)}


@job_kind("rectout-solve", check=search_params, view=JobView("Searching feature points", "states"))
def solve_job(params: dict, report, cancel) -> dict:
    """The feature-point A* from a Rectangle-out position (seed 003)."""
    from engine.domains.rectout.puzzle import state_from
    from engine.domains.rectout.search import solve

    # The search's fraction is of the state budget, and A* usually ends far inside it (2 % for minutes, then done):
    # the panel shows the states counted and an indeterminate bar rather than a fraction that says nothing of the end.
    def progress(fraction, info):
        report(None, info)

    watch = Watch(Budget(max_nodes=params["max_states"], max_seconds=params["max_seconds"]), cancel, progress)
    return solve(state_from(params["state"]), watch, dedupe=params["dedupe"], weight=params["weight"]).to_dict()


@registry.warms_up
def warm_rectout_kernels() -> None:
    """A slide and every motion of the start position."""
    from engine.domains.rectout.moves import motions
    from engine.domains.rectout.puzzle import start_state

    motions(start_state())
