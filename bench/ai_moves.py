"""Which move does every level choose? A fingerprint of the AI, for refactors that must change no decision.

    python bench/ai_moves.py [--positions 8] [--nodes 3000] > before.txt
    ... change the code ...
    python bench/ai_moves.py [same arguments] > after.txt && diff before.txt after.txt

For every game (and a few option sets that take other code paths), positions are
taken from one medium-against-medium game; each level (easy, medium, hard) then
analyses each position with a node budget and a fixed seed, so the lines printed
depend on the code only, never on the machine's speed. A refactor that keeps the
rules and the search the same prints the same lines.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_budget import sample_positions  # noqa: E402  (bench/ is the script's folder)
from engine.ai import Budget, get_player  # noqa: E402

VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("three-stones", {}),
    ("three-stones", {"mode": "pure-skill"}),
    ("morris", {}),
    ("morris", {"flying": True}),
    ("rings", {}),
    ("rings", {"players": 3}),
    ("sage-stones", {}),
    ("sage-stones", {"players": 3}),
    ("triple-domino", {}),
    ("triple-domino", {"players": 3}),
    ("triple-domino", {"players": 1}),
)
LEVELS = ("easy", "medium", "hard")
SAMPLE_NODES = 1_500  # the medium players that play the sample game: quick, and through every phase
MAX_PLIES = 2_000  # a sample game is cut here (none of the games gets near it with medium players)


def fingerprint(positions: int, nodes: int, seed: int) -> None:
    for game_id, options in VARIANTS:
        label = game_id + "".join(f" {k}={v}" for k, v in sorted(options.items()))
        sample = sample_positions(game_id, positions, seed, options, nodes=SAMPLE_NODES, max_plies=MAX_PLIES)
        for i, state in enumerate(sample):
            view = state.view(state.current_player)
            for level in LEVELS:
                analysis = get_player(game_id, level, seed=seed + i).analyse(view, Budget.of_nodes(nodes))
                chance = None if analysis.win_chance is None else round(analysis.win_chance, 6)
                margin = None if analysis.margin is None else round(analysis.margin, 6)
                print(
                    f"{label} | ply {state.ply} | {level}: {analysis.move} nodes={analysis.nodes}"
                    f" depth={analysis.depth} win={chance} margin={margin}",
                    flush=True,
                )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8, help="positions per game and option set")
    parser.add_argument("--nodes", type=int, default=3_000, help="node budget of every analysis")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    fingerprint(args.positions, args.nodes, args.seed)


if __name__ == "__main__":
    main()
