"""The fair scheduler's decisions, driven step by step (no Dask, no clock)."""

from engine.serving.fair import FairScheduler, Waiting


def job(name: str, owner: str, address: str = "", lane: str = "interactive") -> Waiting:
    return Waiting(name, owner, address or f"address-of-{owner}", lane)


def started(scheduler: FairScheduler, slots: int = 1, lane: str = "interactive") -> list[str]:
    return [j.id for j in scheduler.take({lane: slots})]


def test_round_robin_across_browsers_one_slot():
    scheduler = FairScheduler()
    jobs = [job("a1", "a"), job("a2", "a"), job("a3", "a"), job("b1", "b"), job("c1", "c")]
    for j in jobs:
        scheduler.add(j)
    order = []
    while scheduler.waiting():
        [name] = started(scheduler)
        order.append(name)
        scheduler.remove(next(j for j in jobs if j.id == name))  # it ended: the slot is free again
    assert order == ["a1", "b1", "c1", "a2", "a3"]


def test_no_browser_has_a_second_job_running_while_another_waits():
    scheduler = FairScheduler()
    for j in (job("a1", "a"), job("a2", "a"), job("b1", "b")):
        scheduler.add(j)
    assert started(scheduler, slots=2) == ["a1", "b1"]
    assert started(scheduler, slots=3) == []  # a2 waits for a1 although a slot is free: one running job per browser
    assert [j.id for j in scheduler.waiting()] == ["a2"]


def test_many_cookies_behind_one_address_share_its_turn():
    scheduler = FairScheduler()
    flood = [job(f"f{i}", f"cookie{i}", address="10.0.0.9") for i in range(6)]
    for j in flood:
        scheduler.add(j)
    student = job("s1", "student", address="10.0.0.2")
    scheduler.add(student)
    first = started(scheduler)
    scheduler.remove(flood[0])
    assert first == ["f0"] and started(scheduler) == ["s1"]  # the second turn is the other address's


def test_lanes_are_independent_and_a_withdrawn_job_never_starts():
    scheduler = FairScheduler()
    long_job, solve, later = job("l1", "a", lane="long"), job("i1", "a"), job("i2", "b")
    for j in (long_job, solve, later):
        scheduler.add(j)
    assert scheduler.withdraw(later) and not scheduler.withdraw(later)
    assert [j.id for j in scheduler.take({"long": 1, "interactive": 1})] == ["l1", "i1"]
    assert scheduler.waiting() == [] and scheduler.running("long") == [long_job]


def test_a_handed_over_job_waits_its_turn_on_the_long_lane():
    scheduler = FairScheduler()
    solve, other_long = job("i1", "a"), job("l1", "b", lane="long")
    scheduler.add(solve)
    scheduler.add(other_long)
    assert started(scheduler) == ["i1"] and started(scheduler, lane="long") == ["l1"]
    scheduler.remove(solve)  # its slice ended: it goes on in the long lane, behind the job already there
    solve.lane = "long"
    scheduler.add(solve)
    assert started(scheduler, lane="long") == [] and scheduler.running("interactive") == []
    scheduler.remove(other_long)
    assert started(scheduler, lane="long") == ["i1"]
