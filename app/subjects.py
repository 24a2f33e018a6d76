"""The playground's subjects, as the navigation and the home page list them.

Each page module declares its own (``SUBJECTS``, next to its blueprint ``bp``); ``create_app`` finds every module of
the ``app`` package that has a blueprint, registers it and collects its subjects, ordered by ``place``: a new subject
page appears in the navigation and on the home page by existing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Subject:
    endpoint: str  #: the page the link opens
    label: str  #: the navigation's short name
    title: str  #: the home page card's heading
    blurb: str  #: the home page card's text
    #: endpoints starting with this belong to the subject (its link is marked current on them); default: the endpoint
    section: str = ""
    #: where it stands in the navigation and on the home page, lower first (equal places: module name, then list order)
    place: int = 100

    def claims(self, endpoint: str) -> int:
        """How much of ``endpoint`` this subject's section matches (0: none)."""
        if self.section:
            return len(self.section) if endpoint.startswith(self.section) else 0
        return len(self.endpoint) if endpoint == self.endpoint else 0


def current(subjects: list[Subject], endpoint: str | None) -> Subject | None:
    """The subject a page belongs to: the one whose section matches most of its endpoint."""
    if not endpoint:
        return None
    best = max(subjects, key=lambda s: s.claims(endpoint), default=None)
    return best if best is not None and best.claims(endpoint) else None
