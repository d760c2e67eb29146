"""The performance machinery, behind one seam: the database thread pool (`dbpool`), Django's
HTTP handler with a bound on the requests at work at once (`http_slots`), compiled
statements sent together (`prepared`), one heartbeat per process (`heartbeats`), a consumer's
messages without Channels' connection tidying (`dispatch`), requests of one key served by one
pool call (`batches`), the garbage collector's tuning (`gc_tuning`), the board's Jinja2
environment (`templating`), the bounded memos (`lru`), a process's live engines
(`engine_cache`) and the processes the computer opponent thinks in (`thinking`). Each module's
docstring says what it guarantees, which private API of a library it relies on
(tests/web/test_runtime_private_apis.py checks them) and how to re-measure what it buys;
docs/performance.md has the figures. Every reach into a library's private API is here. Nothing
here calls back into the services or the board (tests/test_dependencies.py): what the board
batches and memoises, and by which keys, is the board's (`game/board/batching.py`,
`game/board/memos.py`)."""
