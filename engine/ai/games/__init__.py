"""Per-game knowledge for the computer players: evaluations, move ordering, playout policies.

One module per game; the generic searches (alpha-beta, expectimax, MCTS) live one
level up and know nothing about any game.
"""
