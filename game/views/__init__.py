"""HTTP views: accounts, the lobby, the game page, replays, profiles.

The game page is server-rendered from the same partials the websocket sends; every in-game form
also posts here (`game_page.game_act`), so the game can be played with JavaScript off, one page
load per action. Live updates come over the websocket (game.consumers). One module per area,
each named in game/urls.py:

- `viewer`: the request's player, and the deck they imported last;
- `accounts`: a guest, signing up, logging in and out, the account page and its turn mails;
- `lobby`: the lobby, a new game with a friend or against the computer, Play now (a seek, its
  waiting panel, the list of seeks) and the "Your turn" list with its notifications;
- `game_page`: a game's page and its watch link, joining, the plain POSTs of its forms, the
  rematch, cancelling, its scenario file, and the cards' texts for the zoom panel;
- `replays`: a game's replay, a point of it as a scenario file, playing on from a point;
- `profiles`: a player's profile and the leaderboard;
- `dungeon_editor`: the dungeon editor's "Try it".
"""
