"""Who a client is: an owner cookie the server signed, and how fast one network may be given new ones.

The owner cookie (``pp_owner``) names the browser that owns the jobs it starts, and every per-client limit counts
by it. A name anyone could make up would let one client be a thousand browsers, so the cookie carries the server's
signature (``itsdangerous`` with the app's secret key): a made-up or altered cookie is no cookie, and its request
is the cookieless client of its network (``engine.serving.cluster.anonymous_owner``), which counts as one.

Signed names are given out by the server, one per cookieless page load, so the next way to be many is to ask for
many: a network gets at most ``NewIdentities.limit`` new names in any ``NewIdentities.window`` seconds, 120 in six
minutes (one every 3 s on average, 1,200 an hour). 120 at once lets a class of 100 behind one NAT address join
within a minute, each student's browser asking once or twice (a page opened in two tabs before either has its
cookie); the next class in a lecture hall, an hour later, joins as freely. A request past the limit is served all the
same, as its network's cookieless client, and is given a name by a later page load. The names given are counted in
the app's records (``app.records.Allowance``), so two web processes on one database give the amount once between them.

Names are given only to a page a browser loads (``page_load``: a GET of a page whose request says it wants HTML, as
every browser's navigation does; never a fetch, an API call or a script's ``Accept: */*``). Every other cookieless
request is its network's cookieless client and takes nothing from the allowance, so a script behind a lecture hall's
NAT, sending as many cookieless requests as it likes, leaves the class's names to the students' browsers. (The other
way, giving names to every request and not counting the cookieless ones, would let the script's requests each be a new
client again.) A script that poses as a browser loading pages still takes names, as many as the allowance of its
network: the limit is the defence there, and it is counted by network (``network``).

Every limit counts a network, not an address (``network``): an IPv6 address is its /64, the block one household, one
phone or one server is given (anyone holding one has 2^64 addresses), and an IPv4 address is itself. IPv4 addresses are
scarce (a household, a campus or a mobile carrier's NAT shows the world one), so one actor holding many costs that
actor as much as the limits save; grouping a /24 instead would put a whole campus building (every lecturer of a
department) behind one share of the limits.

The secret key lives in the instance folder (``secret_key``, made once, readable by its owner alone), so cookies
outlive a restart and every process reading that folder signs and checks alike.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
from pathlib import Path

from itsdangerous import BadSignature, Signer

from app.records import Allowance

log = logging.getLogger(__name__)

SECRET_FILE = "secret_key"
#: What the owner cookie's signature is for (a key signing something else never makes an owner cookie).
SALT = "pp-owner"


def instance_secret(folder: str | os.PathLike) -> bytes:
    """The instance folder's secret key, made on first use. Two processes starting together agree: each writes a
    key of its own to a private file and links it in place, and whichever link lands first is the key both read.
    On a disk that cannot take it (full, read-only) the key is this process's alone, and said so in the log."""
    path = Path(folder) / SECRET_FILE
    try:
        key = path.read_bytes().strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    except OSError as error:
        log.warning("cannot read the secret key %s (%s): owner cookies last until this process stops", path, error)
        return secrets.token_hex(32).encode()
    key = secrets.token_hex(32).encode()
    draft = path.with_name(f".{SECRET_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(descriptor, key)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        try:
            os.link(draft, path)
        except FileExistsError:  # another process made it first (or an empty file was left): read it
            pass
        finally:
            os.unlink(draft)
        return path.read_bytes().strip() or key
    except OSError as error:
        log.warning("cannot write the secret key %s (%s): owner cookies last until this process stops", path, error)
        try:
            draft.unlink(missing_ok=True)
        except OSError:
            pass
        return key


IPV6_PREFIX = 64  # bits of an IPv6 address that name one network (a household, a phone, a server)


def network(address: str) -> str:
    """The network every limit counts ``address`` by (module docstring): an IPv6 address's /64, an IPv4 address (an
    IPv4-mapped IPv6 address too) itself; text that is no address (a test's, a socket's path) as it is, cut short."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)


def page_load(method: str, accept: str, fetch_dest: str | None) -> bool:
    """Whether a cookieless request is a browser loading a page (the only request given a new name): a GET that says
    it wants HTML (a browser's navigation names ``text/html``; a request without ``Accept`` is taken at its word, a
    script's ``*/*`` is not), and, from a browser that says what it fetches, fetches a document."""
    if method != "GET" or (fetch_dest is not None and fetch_dest not in ("document", "iframe")):
        return False
    return not accept or "text/html" in accept


def signer(secret_key: str | bytes) -> Signer:
    return Signer(secret_key, salt=SALT)


def owner_of(cookie: str, secret_key: str | bytes) -> str | None:
    """The owner a cookie names, if this server signed it; None for a missing, made-up or altered one."""
    if not cookie or len(cookie) > 200:
        return None
    try:
        owner = signer(secret_key).unsign(cookie).decode()
    except (BadSignature, UnicodeDecodeError):
        return None
    return owner if len(owner) == 32 and all(c in "0123456789abcdef" for c in owner) else None


def cookie_for(owner: str, secret_key: str | bytes) -> str:
    return signer(secret_key).sign(owner).decode()


class NewIdentities(Allowance):
    """How many new owner names each network may still be given: ``limit`` in any ``window`` seconds."""

    def __init__(self, limit: int = 120, window: float = 360.0):
        super().__init__("new-identity", window)
        self.limit = limit

    def take(self, network: str) -> bool:  # type: ignore[override]
        """Whether ``network`` (``network(address)``) may be given one more name now (and count it)."""
        return super().take(network, self.limit)
