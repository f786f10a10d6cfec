"""Each clause as the question a judge is asked at the table, in plain words (by rule kind)."""

from __future__ import annotations

from loveletter_ref.spec import Clause

QUESTIONS = {
    "players": "For how many players is the game?",
    "card": "How many copies of the {card} are there, and what is it worth?",
    "choose": "Whom may the {card} choose? Can it choose oneself, or a protected player?",
    "compare": "What does the {card} compare, and who is out?",
    "on_tie": "What happens when the {card}'s compared cards are equal?",
    "guess": "What may the {card} name?",
    "look": "What does the {card} show, and to whom?",
    "protect": "What does the {card} protect against, and until when?",
    "discard_draw": "What does the {card} make a player discard and draw?",
    "empty_deck": "What does the {card} do when the deck is empty?",
    "trade": "What does the {card} trade?",
    "forced_with": "When must the {card} be played?",
    "out_if_discarded": "What happens to a player who discards the {card}?",
    "draw_return": "What does the {card} draw and put back?",
    "short_deck": "What does the {card} do when the deck holds too few cards?",
    "offer_redraw": "What may the {card}'s target do after the guess?",
    "loses_at_showdown_to": "Whom does the {card} lose to at the showdown?",
    "counter": "What does the {card} do when it is targeted?",
    "force_next_target": "Whom must the next card played choose after the {card}?",
    "predict": "What does the {card} bet on?",
    "showdown_bonus": "What does the {card} add at the showdown?",
    "token_if_eliminated": "What does a player holding the {card} gain when knocked out?",
    "bonus_token": "Who gets the {card}'s extra token?",
    "deck_size": "Which cards make up the deck?",
    "set_aside": "How many cards are set aside face down?",
    "face_up": "How many cards are laid face up, and with how many players?",
    "deal": "How many cards does each player get at the start?",
    "first_player": "Who starts the first round?",
    "turn_draw": "What does a player draw at the start of a turn?",
    "first_turn_draw": "What does the first player draw on a round's first turn?",
    "turn_play": "What may a player play on a turn?",
    "turn_order": "In which direction do turns pass?",
    "no_valid_target": "What does a card do when no player can be chosen?",
    "elimination": "What happens to a player who is out?",
    "last_standing": "Who wins when only one player is left?",
    "deck_empty": "When does a round end for want of cards?",
    "showdown": "Who wins the round when the deck runs out?",
    "tie": "Who wins a tie at the showdown?",
    "all_eliminated": "Who wins a round in which every player is out?",
    "round_tokens": "How many tokens does a round's winner get?",
    "tokens_to_win": "How many tokens win the game?",
    "game_end": "What if two players reach the token target together?",
    "next_first": "Who starts the next round?",
}
"""Rule kind -> the question its clause answers; {card} is the clause's card."""


def question(kind: str, clause: Clause | None = None) -> str:
    """The question a clause of this kind answers, in plain words."""
    text = QUESTIONS.get(kind, "What does the rule {key} say?")
    card = clause.card if clause is not None and clause.card else "card"
    return text.format(card=card, key=clause.key if clause is not None else kind)
