"""Every registered domain, and the pancake puzzle a test registers as a newcomer would, held to the domain contract
(tests/support/domain_contract.py) on the examples its kind carries, through the app too: /api/step, and its view
(/step?problem=<kind>, GET /api/step, /step/compare) with no edit in the app."""

import pytest

from engine.search import domain
from engine.search.domain import domain_kinds
from tests.engine.search.pancake import register
from tests.support.domain_contract import check_domain


@pytest.mark.parametrize("name", sorted(domain_kinds()))
def test_every_registered_domain_keeps_the_contract(name, client):
    kind = domain_kinds()[name]
    assert kind.examples, f"the {name} domain carries no example to check it on"
    check_domain(kind, list(kind.examples), client=client)


def test_a_domain_registered_at_test_time_keeps_the_contract(client, monkeypatch):
    monkeypatch.setattr(domain.DOMAINS, "_entries", domain_kinds())  # forgotten after the test
    kind = register()
    check_domain(kind, list(kind.examples), bad=({"pancake": [0, 0]}, {"pancake": [1, 2]}, {"pancake": [0, 1.0]}),
                 client=client)
