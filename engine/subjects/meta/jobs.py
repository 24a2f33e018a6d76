"""Seed 001's experiment as a background job (kind ``meta-experiment``): DPSO and the GA on scrambles of each depth."""

from __future__ import annotations

from engine.core.errors import PuzzleError
from engine.core.params import integer
from engine.core.status import Status
from engine.serving.jobs import JobView, full_size_jobs, job_kind, operator_size
from engine.subjects.meta.settings import DPSOParams, GAParams, params_from

#: The largest experiment a job runs unless the operator allows the full size (``full_size_jobs``): twice the page's
#: classroom size (5 trials, 1,000 iterations, 5,000 generations: a few minutes); the paper's 30 trials of 10,000
#: iterations and 50,000 generations hold a long-lane worker for hours.
PAGE_SIZE = {"trials": 10, "iterations": 2_000, "generations": 10_000}
FULL_COMMAND = "python bench/meta.py --experiment --trials 30 --depths 10,20,30,40,50"


def check_experiment(params: dict) -> dict:
    """The experiment's parameters, validated at submission: depths, trials, run lengths, seed; past ``PAGE_SIZE``
    only where the operator allows the full size."""
    from engine.subjects.meta.experiment import DEPTHS

    depths = params.get("depths") or list(DEPTHS)
    if isinstance(depths, str):
        depths = depths.replace(",", " ").split()
    if not isinstance(depths, list) or not 1 <= len(depths) <= 10:
        raise PuzzleError("depths must be 1 to 10 scramble depths such as 10 20 30")
    depths = [integer({"depth": d}, "depth", 1, 100) for d in depths]
    full = full_size_jobs()
    dpso = params_from(DPSOParams, {"iterations": params.get("iterations", 10_000 if full else 1_000),
                                    "particles": params.get("particles"), "vmax": params.get("vmax")})
    ga = params_from(GAParams, {"generations": params.get("generations", 50_000 if full else 5_000)})
    checked = {"depths": depths, "trials": integer(params, "trials", 1, 100, 30 if full else 5),
               "iterations": dpso.iterations, "particles": dpso.particles, "vmax": dpso.vmax,
               "generations": ga.generations, "seed": integer(params, "seed", 0, 2**31 - 1, 0)}
    if not full:
        over = [f"{name} at most {most:,}" for name, most in PAGE_SIZE.items() if checked[name] > most]
        if over:
            raise operator_size(f"an experiment runs with {', '.join(over)}", FULL_COMMAND)
    return checked


@job_kind("meta-experiment", check=check_experiment, view=JobView("Running the experiment", "trials"),
          resumable=True)
def experiment_job(params: dict, report, cancel) -> dict:
    """Seed 001's experiment: DPSO and the GA on scrambles of each depth, a new problem per trial. Stopped by its
    cancel, it answers with ``"resume"``: the rows of the trials it ran (``resume_from``), which the next attempt
    does not run again (each trial's problem and runs follow from its seed alone)."""
    from engine.subjects.meta.experiment import run_experiment

    dpso = params_from(DPSOParams, {k: params[k] for k in ("iterations", "particles", "vmax")})
    ga = params_from(GAParams, {"generations": params["generations"]})
    out = run_experiment(params["depths"], params["trials"], dpso, ga, params["seed"], report, cancel,
                         done=(params.get("resume_from") or {}).get("rows", []))
    if out["status"] == Status.CANCELLED:
        out["resume"] = {"resume_from": {"rows": out["rows"]}}
    return out
