"""The performance machinery, behind one seam: the database thread pool, compiled statements,
shared renders, batched heartbeats, the garbage collector's tuning, the in-process channel
layer and the Jinja2 environment. Each module's docstring says what it guarantees, which private
API of a library it relies on, and how to re-measure what it buys (docs/performance.md)."""
