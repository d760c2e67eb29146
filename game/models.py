"""Persistence of games: Player, Game, Seat, GameAction (the answer log), CompletedDungeon.

A stored game is its inputs plus the ordered answer log; the state is a replay through
game.engine. The models arrive with the lobby.
"""
