"""Rounds played to the showdown without hand-listing every action: a quiet policy.

A scenario names the card each seat keeps all round (`keeps`), the set-aside cards, and, where
it matters, which cards a seat draws (`draws`); the rest of the pile follows the card table. On
each turn the quiet policy plays the card that is *not* kept, with the first legal choice that is
harmless: tried on `Game.clone()`, it knocks nobody out, moves no token, leaves no prediction,
opens no further decision, leaves every other player's kept card and discard pile as they were,
and (when it marks a player for the next card) lets the next player play quietly too. With no
harmless play the scenario is wrong, and `QuietPolicyError` says where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loveletter_ref import Action, DeckError, Game, Phase, load_spec
from loveletter_ref.engine import build_deck
from loveletter_ref.engine.actions import Event


class QuietPolicyError(AssertionError):
    """The scenario gives a seat a card it cannot play without disturbing the round."""


def arrange(edition: str, players: int, keeps: Sequence[str], draws: Mapping[int, Sequence[str]],
            set_aside: Sequence[str], first: int) -> list[str]:
    """The draw order in which seat `s` draws `draws[s]` on its first turns (nobody goes out)."""
    spec = load_spec(edition)
    deck = build_deck(spec, players, keeps, set_aside=set_aside)
    setup = spec.player_table("set_aside", players) + spec.player_table("face_up", players, default=0)
    pile = deck[setup + players:]
    size = len(pile)
    for seat, cards in draws.items():
        turns = len(range((seat - first) % players, size, players))
        if len(cards) > turns:
            raise DeckError(f"seat {seat} draws {turns} cards in this round, not {len(cards)}")
        for card in cards:
            if card not in pile:
                raise DeckError(f"seat {seat} cannot draw {card}: no {card} is left in the pile")
            pile.remove(card)
    queues = {seat: list(cards) for seat, cards in draws.items()}
    return [queue.pop(0) if (queue := queues.get((first + turn) % players)) else pile.pop(0)
            for turn in range(size)]


def quiet_round(edition: str, players: int, keeps: Sequence[str],
                draws: Mapping[int, Sequence[str]] | None = None, *, set_aside: Sequence[str],
                first: int = 0, tokens: Sequence[int] | None = None,
                last_turn: bool = False) -> tuple[Game, list[Event]]:
    """Deal the scenario and play it quietly to the end of the round (or up to its last turn)."""
    spec = load_spec(edition)
    order = arrange(edition, players, keeps, draws or {}, set_aside, first)
    game = Game(spec, players, first_player=first, tokens=tokens)
    events = game.start_round(build_deck(spec, players, keeps, order, set_aside=set_aside))
    while game.phase is Phase.PLAY and not (last_turn and not game.deck):
        events += game.apply(quiet_play(game, keeps))
    return game, events


def quiet_play(game: Game, keeps: Sequence[str]) -> Action:
    """The first harmless play of the card the player on turn does not keep."""
    seat = game.current
    hand = game.hand_names(seat)
    hand.remove(keeps[seat])
    for action in game.legal_actions():
        if action.card == hand[0] and harmless(game, action, keeps):
            return action
    raise QuietPolicyError(f"seat {seat} (keeping {keeps[seat]}) has no harmless play of {hand[0]} "
                           f"on turn {game.turns} (hands {game.state()['hands']})")


def harmless(game: Game, action: Action, keeps: Sequence[str]) -> bool:
    """Does `action` leave the round as it was, but for the card played and protection?

    The last play ends the round: its showdown tokens are the scenario's result, not harm.
    """
    before = game.state()
    twin = game.clone()
    twin.apply(action)
    after = twin.state()
    seat = before["turn"]
    marks = {mark["kind"] for mark in after.get("marks", [])}
    ended = after["round_winners"] is not None
    return ((after["phase"] == Phase.PLAY or ended)
            and after["eliminated"] == before["eliminated"]
            and (after["tokens"] == before["tokens"] or ended)
            and "prediction" not in marks
            and all(keeps[s] in after["hands"][s] for s in range(game.players))
            and all(after["discards"][s] == before["discards"][s]
                    for s in range(game.players) if s != seat)
            and ("forced_target" not in marks or followed_quietly(twin, keeps)))


def followed_quietly(game: Game, keeps: Sequence[str]) -> bool:
    """Can the next player still play quietly (a mark binds the next card played)?"""
    try:
        quiet_play(game, keeps)
    except QuietPolicyError:
        return False
    return True
