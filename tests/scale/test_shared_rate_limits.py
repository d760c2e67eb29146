"""The HTTP rate limits across servers (docs/security.md, "Rate limits"): with REDIS_URL the
counts live in the deployment's Redis, so two Daphne processes behind a load balancer give one
client address one limit between them, not one each.

Four guests an hour from an address (a figure for this test; an hour's window so that the
sliding window's edge, where the last window's count starts to fade, is not crossed during the
test): six new visitors from 127.0.0.1, sent to the two processes in turn, make four accounts;
the fifth and sixth get the 429 page. With a count per process, all six would pass (three each).
"""

from __future__ import annotations

import json
import urllib.error

import pytest
import redis

from bench import _servers
from bench._client import Browser

from .conftest import LOGS

pytestmark = [pytest.mark.scale, pytest.mark.timeout(300)]


def test_two_servers_share_one_count_per_client_address(deployment):
    env = {
        **deployment.env,
        "VENTURE_RATE_LIMITS": json.dumps({"guest": {"address": "4/hour"}}),
    }
    LOGS.mkdir(parents=True, exist_ok=True)
    servers = []
    try:
        for n in (1, 2):
            log = LOGS / f"shared-rate-limits-{n}.log"
            log.unlink(missing_ok=True)
            servers.append(_servers.Daphne(env, log).start())
        outcomes = []
        for i in range(6):
            browser = Browser(servers[i % 2].base)
            try:
                browser.play_as_guest(f"Visitor {i}")
                outcomes.append(302)
            except urllib.error.HTTPError as e:
                page = e.read().decode()
                assert "Too many new accounts from your network address" in page
                assert int(e.headers["Retry-After"]) >= 1
                outcomes.append(e.code)
        assert outcomes == [302, 302, 302, 302, 429, 429]
    finally:
        for server in servers:
            server.stop()
    # Under the deployment's own prefix: two deployments (or test runs) on one Redis database
    # count apart.
    # (Other deployments of this run, the other scale tests, leave keys of their own prefixes.)
    prefix = deployment.env["REDIS_PREFIX"] + "-limits"
    store = redis.Redis.from_url(deployment.env["REDIS_URL"])
    ours = store.keys(prefix + "*guest*address*")
    assert ours and all(b"/4/1/hour" in key for key in ours), ours
    every = store.keys("*guest*address*")
    assert all(b"-limits:" in key.split(b"{")[0] for key in every), every
