"""The game as one seat (or a spectator) may see it: ``GameView`` and its parts.

These models mirror ``shared.view``, ``shared.scoring``, ``shared.result`` and
``shared.clock`` field for field; ``protocol.convert`` builds them from the engine.
"""

from __future__ import annotations

from shared.result import Ending

from .base import Model
from .lobby import TableOptions

__all__ = [
    "ClockInfo",
    "GameView",
    "IngredientScore",
    "KettleState",
    "RecipeScore",
    "ResultInfo",
    "Score",
    "TakeChoice",
    "TakeOption",
]


class KettleState(Model):
    """One seat's kettle as you may see it."""  # mirrors shared.view.KettleView

    seat: int
    colour: str
    count: int
    """Cards in the kettle."""
    top: str | None = None
    """The top card, visible to all; absent for an empty kettle."""
    cards: tuple[str, ...] | None = None
    """Every card, bottom first: only your own under ``memory=casual``, everyone's at the end."""


class TakeChoice(Model):
    """A card the player to move may take."""  # mirrors shared.view.TakeChoice

    card: str
    row: int
    """Grid row 0..5 (top to bottom)."""
    col: int
    """Grid column 0..5 (left to right)."""
    symbol: str | None = None
    """The card's symbol, where taking it may use one: ``explode`` on every exploding
    card (``takes`` says whether using it would do anything), ``wand`` only on the
    first take of a turn; absent on a card without a symbol, a wand on the extra turn
    and the card that ends the game (``ends_game``)."""
    ends_game: bool = False
    """Taking it ends the game: ``keep`` decides keep or discard."""


class IngredientScore(Model):
    """One ingredient of a kettle at the end."""  # mirrors shared.scoring.IngredientScore

    ingredient: str
    colour: str
    cards: tuple[str, ...]
    points: int
    """Card points, doubled in the seat's own colour."""
    doubled: bool
    bonus: int
    """+5 for all four cards, never doubled."""
    total: int
    """``points + bonus``."""


class RecipeScore(Model):
    """One recipe card of a seat at the end."""

    id: str
    met: bool
    bonus: int
    """The bonus earned: the card's bonus if met, else 0."""


class Score(Model):
    """One seat's final score with its breakdown."""  # mirrors shared.scoring.Score

    seat: int
    colour: str
    kettle: tuple[str, ...]
    """Every kettle card, bottom first."""
    ingredients: tuple[IngredientScore, ...]
    value_ones: int
    """Value-1 cards held."""
    value_one_bonus: int
    """5 for the one seat with strictly the most value-1 cards."""
    recipes: tuple[RecipeScore, ...]
    total: int


class ResultInfo(Model):
    """1.1: how a game ended (RULES.md section 12)."""  # mirrors shared.result.GameResult

    ending: Ending
    winners: tuple[int, ...]
    """The seats that won (none for an abandoned game)."""
    places: tuple[int, ...]
    """Each seat's place, a competition ranking: 1 plus the seats ranked above it, so
    equal seats share a place and the next is skipped (``[1, 1, 3]``); the winners have
    1. Nobody wins an abandoned game: there places rank the totals, and 1 is no win."""
    totals: tuple[int, ...]
    """Each seat's score of the final position (scored as it stands)."""
    resigned: tuple[int, ...] = ()
    """Seats that resigned, in order."""
    replaced: tuple[int, ...] = ()
    """Seats a computer player played for at some point."""
    timed_out: tuple[int, ...] = ()
    """Seats taken over after time-outs in a row."""
    claimed_by: int | None = None
    """The seat that claimed the win (``ending`` ``claimed``)."""


class ClockInfo(Model):
    """1.1: a clocked table's times, as of when the view was made, which is when its
    frame was sent: count down from when it arrives (the network's delay is the error)."""

    # mirrors shared.clock.ClockView

    move_ms: int
    """Milliseconds per move."""
    running: int | None = None
    """The seat whose time is running; absent between moves and once over."""
    left_ms: tuple[int, ...]
    """Per seat: milliseconds left (for ``running``, until a computer moves for it)."""
    reserve_ms: tuple[int, ...]
    """Per seat: milliseconds of reserve left."""
    timeouts: tuple[int, ...] = ()
    """1.2: per seat, how many times in a row its time ran out and a computer player
    moved for it (the seat's own take, or ``back``, starts it again at 0); absent while
    no seat's time has run out. A seat that reaches ``absent_after`` counts as absent."""
    absent_after: int = 3
    """1.2: time-outs in a row after which a computer player plays the seat (until its
    person sends ``back``); when every person's seat has reached it the game ends
    ``timed_out``. The table's ``timing.absent_after``."""


class TakeOption(Model):
    """1.1: one legal decision, exactly the fields of a ``take`` that makes it."""

    card: str
    special: bool = True
    targets: tuple[int, ...] | None = None
    keep: bool = True


class GameView(Model):
    """The game as one seat (or a spectator, ``seat`` absent) may see it (RULES.md
    section 9)."""  # mirrors shared.view.View

    seat: int | None = None
    """Your seat; absent for a spectator."""
    players: int
    options: TableOptions
    """The public table options."""
    colours: tuple[str, ...]
    """Each seat's colour, in turn order."""
    grid: tuple[tuple[str | None, ...], ...]
    """6 rows of 6 card ids; null for a corner or an empty slot."""
    pawns: tuple[int, ...]
    """Each seat's pawn space 0..19, clockwise from the top-left corner."""
    deck_size: int
    """Cards left in the deck (never their order)."""
    kettles: tuple[KettleState, ...]
    recipes: tuple[tuple[str, ...] | None, ...]
    """Per seat: its recipe ids, or null where hidden from you."""
    recipe_counts: tuple[int, ...]
    """Recipe cards each seat holds."""
    removed: tuple[str, ...]
    """Cards out of the game (discarded, exploded into an empty deck)."""
    ply: int
    """Takes applied so far."""
    to_move: int | None = None
    """The seat to take now; absent once the game is over."""
    turn_in_row: int
    """1, or 2 during a wand's extra turn."""
    line: str | None = None
    """The line the player to move takes from (``col1``..``col4``, ``row1``..``row4``)."""
    choices: tuple[TakeChoice, ...]
    """The cards the player to move may take."""
    explodable: tuple[int, ...]
    """Seats an explosion would hit now (kettles of 2+ cards)."""
    game_over: bool
    ended_by: int | None = None
    """The seat that took the last card (game over only)."""
    winners: tuple[int, ...]
    """The seats that won, once the game is over: the highest total (ties share the
    win) among the seats that did not resign; in 1.1 always ``result.winners``."""
    scores: tuple[Score, ...] | None = None
    """The full breakdown per seat, once the game is over."""
    result: ResultInfo | None = None
    """1.1: how the game ended, in the final view (every ending)."""
    clock: ClockInfo | None = None
    """1.1: the times of a clocked table."""
    takes: tuple[TakeOption, ...] | None = None
    """1.1, the seat to move only: every distinct legal decision (send one as ``take``)."""
