"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012; OpenSpiel's ``ismcts``), over exactly what the seat knows.

One tree is grown per decision. Its root is the seat's information set: every position
consistent with the view and the public events it remembers (``Memory``). Each iteration

1. draws a fresh *determinization*: a full position sampled from that information set
   (``Memory.sample``: deck order, forgotten kettle cards, other seats' recipes);
2. descends the tree from the root, choosing among the takes legal *in that
   determinization* by UCB1 with availability counts (a child's exploration term uses
   the number of iterations in which it was legal, not its parent's visits, since the
   cards in a line after a refill differ between determinizations);
3. adds one new child (a take not tried yet there: the one the playout policy would
   make, if it is untried, else one at random) and plays the rest of the game with the
   playout policy (``playout.py``), so that a young tree plays like the policy rather
   than like a random player;
4. backs the result up: every node on the path adds the reward of the seat that made
   the take leading to it, so each player in the tree plays for itself.

A node stands for the takes made since the root (a take names its card, so the same
take in two determinizations is the same edge). Every take is public, so this is the
information the seat will have then, except for the refilled cards, which the tree
does not split on: it shares statistics across them, which is what makes a few thousand
iterations enough to look two or three takes ahead. The other seats' nodes model them
as players who search too, not as the playout policy.

The move played is the root child with the most visits. Work per decision is a fixed
number of ``iterations`` (the levels: strength does not depend on how busy the machine
is) or, if ``budget`` is given, a number of seconds read from the injected ``clock``.
"""

from __future__ import annotations

import math
import random

from ..game import Game, Take
from ..view import View
from .base import SearchingBot
from .playout import playout, policy_take, rewards

__all__ = ["IsmctsBot", "Node", "back_up", "descend"]


class Node:
    """Statistics of the take leading here, made by ``mover``; children by take."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Take, Node] = {}


class IsmctsBot(SearchingBot):
    """ISMCTS (module docstring)."""

    kind = "ismcts"

    def search_take(self, view: View, takes: list[Take], start: float) -> Take:
        root = self.search(view, start)
        return max(takes, key=lambda t: _rank(root.children.get(t)))

    def search(self, view: View, start: float | None = None) -> Node:
        """Grow the tree for this decision (its work counted from ``start``, or now)
        and return its root."""
        memory = self.memory.copy()  # events delivered meanwhile count from the next one
        draw = memory.sampler(view)
        rng = self.rng
        explore = self.explore
        policy = self.policy
        epsilon = self.epsilon
        root = Node(-1)
        start = self.clock() if start is None else start
        done = 0
        while self.more(done, start):
            game = draw(rng)
            path = descend(root, game, rng, explore, policy)
            playout(game, rng, epsilon, policy)
            back_up(path, rewards(game))
            done += 1
        self.simulations += done
        return root


def descend(node: Node, game: Game, rng: random.Random, explore: float, policy: str) -> list[Node]:
    """Steps 2 and 3 of one iteration (module docstring), from ``node`` in ``game``, a
    determinization at that node: walk down by UCB1 with availability counts, add one
    child and return the nodes passed; ``game`` is left where the playout starts."""
    sqrt = math.sqrt
    log = math.log
    path = []
    while not game.over:
        legal = game.legal_actions()
        children = node.children
        untried = []
        for t in legal:
            child = children.get(t)
            if child is None:
                untried.append(t)
            else:
                child.avail += 1
        if untried:  # the policy's own take first, then the others at random
            take = policy_take(game, rng, 0.0, policy)
            if take not in untried:
                take = rng.choice(untried)
            child = Node(game.to_move)
            child.avail = 1
            children[take] = child
            game.apply(take)
            path.append(child)
            break
        best = -1.0
        child = node
        take = legal[0]
        for t in legal:
            c = children[t]
            score = c.total / c.visits + explore * sqrt(log(c.avail) / c.visits)
            if score > best:
                best, child, take = score, c, t
        game.apply(take)
        path.append(child)
        node = child
    return path


def back_up(path: list[Node], result: list[float]) -> None:
    """Step 4: every node on ``path`` adds the reward of the seat that moved into it."""
    for n in path:
        n.visits += 1
        n.total += result[n.mover]


def _rank(node: Node | None) -> tuple[int, float]:
    """Most visits first, then the better mean."""
    if node is None or not node.visits:
        return (0, 0.0)
    return (node.visits, node.total / node.visits)
