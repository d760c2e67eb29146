"""The site's forms, one module per concern:

- `actions`: the one parser of in-game actions (`parse_action`), from a websocket frame or a
  plain POST;
- `new_game`: the forms that start a game: a deck (a preset or imported), a chess clock, a game
  with a friend, against the computer, Play now (quick pairing), playing on from a replay;
- `accounts`: a guest's name, signing up, a username and password, turn mails.

The chat's forms have their own parser (chat.py), which shares the action parser's checks.
"""
