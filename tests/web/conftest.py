import pytest

from game import services

from .helpers import make_player


@pytest.fixture(autouse=True)
def fresh_engine_cache():
    """Each test starts with an empty per-process engine cache (ids are reused across tests)."""
    services.clear_engine_cache()
    yield
    services.clear_engine_cache()


@pytest.fixture
def alice(db):
    return make_player("alice")


@pytest.fixture
def bob(db):
    return make_player("bob")
