"""What one client may write into the records (``app.records``: saved views, own lessons and their slides' verdicts,
the views classes start on and move to, the classes themselves), so that no client fills the disk.

Every new record is ``charge``d before it is written: one write against a rate (``WRITES`` in ten minutes) and its
bytes against a quota (``BYTES`` a day), for the client (its signed cookie, or its network's cookieless client:
``app.submit.client``) and, with a room of several clients, for its network (``app.identity.network``), so that
names minted by a script behind one network share one room. Both are counted in the records (``Allowance``), so
several web processes on one database allow the amounts once between them. A record saved before (the same view, the
same lesson) is not charged: it is only marked used. Past a limit the answer is 429 with what to do.

The figures: a lecturer saves a view or a lesson each time they change one, seldom more than one a minute in a lecture
and a few hundred kilobytes in a day; 120 records in ten minutes and 8 MB a day leave that untouched, while one client
flooding (the issue measured 14 lessons a second of 60 KB) writes at most 8 MB a day, and a network at most 24 MB.
What stays on the disk is bounded apart from these, by the records' budget (``RECORDS_BUDGET``, least recently used
first).
"""

from __future__ import annotations

from app.records import Allowance
from app.submit import client, network_address
from engine.serving.cluster import QuotaExceeded

WRITES = 120  # new records one client may write in ten minutes
NETWORK_WRITES = 600  # and every client of one network together (five lecturers' worth behind one NAT)
BYTES = 8 * 1024 * 1024  # bytes of new records one client may write in a day
NETWORK_BYTES = 24 * 1024 * 1024

RECORD_WRITES = Allowance("record-write", 600.0)
RECORD_BYTES = Allowance("record-bytes", 24 * 3600.0)


def charge(size: int) -> None:
    """Count a new record of ``size`` bytes against the request's client and network; a ``QuotaExceeded`` (429)
    saying what to do when either has written its share."""
    who, where = client(), "net:" + network_address()
    if not (RECORD_WRITES.take(who, WRITES) and RECORD_WRITES.take(where, NETWORK_WRITES)):
        raise QuotaExceeded(f"{WRITES} new views, lessons or classes were saved from your browser or network in ten "
                            "minutes; copy the long link from the address bar, or wait a few minutes")
    if not (RECORD_BYTES.take(who, BYTES, size) and RECORD_BYTES.take(where, NETWORK_BYTES, size)):
        raise QuotaExceeded(f"your browser or network has saved {BYTES // 2**20} MB of views and lessons today, as "
                            "much as one may; a view or a lesson saved before still opens, and the long link of a "
                            "view still works")
