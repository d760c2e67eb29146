"""Venture: the Django project and the game app (the rules engine lives in game.engine)."""
