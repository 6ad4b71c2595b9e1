"""The page's Python beyond the boards: the game session (session.py) and the screens (pages.py)."""
