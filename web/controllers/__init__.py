"""The page's controllers: main.py's `Page` draws the screens and hands each job to one of these.

`store` keeps the game in the browser, `clock` runs the chess clock, `records` exports and
opens game files, `computer` asks the computer players' worker for moves and hints. The
`store` and `clock` hold no browser object of their own (tested in CPython and Pyodide);
`dom` holds the few helpers that touch the page.
"""
