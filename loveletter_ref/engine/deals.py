"""Build explicit deck orders from the few cards a scenario cares about."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..errors import DeckError
from ..spec import Edition


def build_deck(edition: Edition, players: int, hands: Sequence[str], draws: Sequence[str] = (), *,
               set_aside: Sequence[str] = (), face_up: Sequence[str] = ()) -> list[str]:
    """A full deck (top first) that deals `hands` to seats 0.. and then draws `draws` in order.

    The set-aside and face-up cards come first as the spec's setup takes them; cards not named
    fill the rest of the pile after `draws`, in card-table order. DeckError if the named cards
    are not available in this edition's deck.
    """
    if len(hands) != players:
        raise DeckError(f"give one hand card per player ({players}), not {len(hands)}")
    k = edition.player_table("set_aside", players)
    m = edition.player_table("face_up", players, default=0)
    pool = Counter(edition.names[c] for c in edition.deck(players))
    named = list(set_aside) + list(face_up) + list(hands) + list(draws)
    for name, count in Counter(named).items():
        if pool[name] < count:
            raise DeckError(f"the {edition.id} deck for {players} players has {pool[name]} {name}, "
                            f"not {count}")
    pool.subtract(named)
    rest = [name for name in edition.names for _ in range(pool[name])]
    head_aside = list(set_aside) + [rest.pop(0) for _ in range(k - len(set_aside))]
    head_up = list(face_up) + [rest.pop(0) for _ in range(m - len(face_up))]
    if len(head_aside) != k or len(head_up) != m:
        raise DeckError(f"this setup sets aside {k} card(s) and {m} face up")
    return head_aside + head_up + list(hands) + list(draws) + rest
