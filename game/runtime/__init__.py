"""The performance machinery, behind one seam: the database thread pool (`dbpool`), compiled
statements sent together (`prepared`), one heartbeat per process (`heartbeats`), the garbage
collector's tuning (`gc_tuning`), the board's Jinja2 environment (`templating`), the one
bounded memo (`lru`) and the processes the computer opponent thinks in (`thinking`). Each
module's docstring says what it guarantees, which private API of a library it relies on
(tests/web/test_runtime_private_apis.py checks them) and how to re-measure what it buys;
docs/performance.md has the figures. Nothing here calls back into the services or the board
(tests/test_dependencies.py); the renders made together live with the board
(`game/board/batching.py`)."""
