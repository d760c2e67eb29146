import pytest

from game import services


@pytest.fixture(autouse=True)
def fresh_engine_cache():
    services.clear_engine_cache()
    yield
    services.clear_engine_cache()
