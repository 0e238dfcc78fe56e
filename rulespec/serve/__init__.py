"""`rulespec serve`: play, watch and replay games in a browser.

The pipeline of a request: app.py (routes, seat tokens, JSON errors) -> tables.py (the
games and replays held in memory, agents playing their seats) -> views.py (one seat's
observation and log turned into what its browser draws). The page itself is plain
HTML and JavaScript under static/, with no build step.

Hidden information stays on the server: a browser is only ever sent what its seat's
observation and log show (views.view), for any spec.
"""
