"""Behind a reverse proxy, through waitress itself: the client's address and scheme reach the app only from the
proxy it was told to trust (``PUZZLE_TRUSTED_PROXIES``)."""

from __future__ import annotations

import json

from app import create_app
from app.identity import NewIdentities
from tests.support.served import call, owner_cookie, served

SEED_004 = [8, 6, 7, 2, 5, 4, 3, 0, 1]


def one_name_per_address(tmp_path):
    """The app, giving each address one new owner cookie: whether a request got one tells its address apart."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "jobs.sqlite"), "DATA_DIR": str(tmp_path),
                       "NEW_IDENTITIES": NewIdentities(burst=1, every=3600)})


def test_behind_a_trusted_proxy_each_forwarded_client_is_its_own_and_https_makes_the_cookie_secure(tmp_path):
    with served(one_name_per_address(tmp_path), trusted_proxies=1) as port:
        https = {"X-Forwarded-For": "10.0.0.1", "X-Forwarded-Proto": "https"}
        first = owner_cookie(call(port, "GET", "/", https)[1])
        assert first and "Secure" in first and "HttpOnly" in first
        assert owner_cookie(call(port, "GET", "/", https)[1]) is None  # 10.0.0.1 has had its one name
        other = owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.2"})[1])
        assert other and "Secure" not in other  # another client, reached over http
        # the proxy's own chain: the nearest proxy appended the client's address last
        assert owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "6.6.6.6, 10.0.0.3"})[1])
        assert owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "7.7.7.7, 10.0.0.3"})[1]) is None
        # a page posting through the proxy names the proxy's origin, which the app now knows for its own
        status, _, body = call(port, "POST", "/api/solve", {**https, "X-Forwarded-Host": "puzzles.example.edu",
                                                           "Origin": "https://puzzles.example.edu"},
                               {"size": "3x3", "tiles": SEED_004})
        assert status == 200 and json.loads(body)["length"] == 31


def test_without_a_trusted_proxy_forwarded_headers_are_not_believed(tmp_path):
    with served(one_name_per_address(tmp_path)) as port:
        first = owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.1", "X-Forwarded-Proto": "https"})[1])
        assert first and "Secure" not in first
        # every such client is 127.0.0.1 (the connection's own address), which has had its one name
        assert owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.2"})[1]) is None


def test_a_proxy_at_another_address_is_not_believed(tmp_path):
    with served(one_name_per_address(tmp_path), trusted_proxies=1, proxy_address="192.0.2.7") as port:
        first = owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.1", "X-Forwarded-Proto": "https"})[1])
        assert first and "Secure" not in first
        assert owner_cookie(call(port, "GET", "/", {"X-Forwarded-For": "10.0.0.2"})[1]) is None
