"""The catalogue of named queries: what each asks, why it matters, and what the spec leads us to expect.

Three groups. *Impossible*: situations the rules exclude; the probe should prove them
unreachable (and a witness would be a bug in the spec, the encoding or the engine).
*Possible*: corner cases a conforming engine must handle; the probe should find a game that
reaches each, which becomes a conformance scenario. *Open*: situations in which the rules give
no answer (a rule gap); complete editions should have none, rulebook readings may.

No query names a card: each is stated in terms of rule kinds (a card that is out when
discarded, a discard-and-draw step, a bonus card), so it means the same thing in every spec.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import z3

from loveletter_ref.spec import Card, Edition, Step

from .conditions import Condition, Happening, at_end, per_turn, seen
from .invariants import misplaced
from .layout import Layout
from .playback import Json, Playback
from .terms import Bool, at_least, both, either, num
from .unroll import RoundEncoding, extra_tokens

IMPOSSIBLE, POSSIBLE, OPEN = "impossible", "possible", "open"
GROUPS = (IMPOSSIBLE, POSSIBLE, OPEN)


@dataclass(eq=False)
class Query(Condition):
    """A named catalogue entry."""

    name: str
    group: str
    question: str
    why: str
    find: Callable[[RoundEncoding], list[Happening]]
    check: Callable[[Playback], bool]
    expect: Callable[[Edition, int], str | None] = field(default=lambda e, n: None)
    applies: Callable[[Layout], str | None] = field(default=lambda layout: None)
    uses_tokens: bool = False
    bounded: bool = False
    playable: bool = True
    """Every query's `check` reads the engine's states and events only: playouts may look for it."""
    proof: str | None = None
    """How the prover may settle the query without search: "invariant" (it is part of Φ) or
    "ranking" (it asks whether the round outlasts the pile)."""
    state: Callable[[RoundEncoding, dict[str, z3.ExprRef]], Bool] | None = None
    """For a situation between turns: the property of the state (then `find` is derived from it)."""

    def applicable(self, layout: Layout) -> str | None:
        return self.applies(layout)

    def happenings(self, rnd: RoundEncoding) -> list[Happening]:
        if self.state is not None:
            state = self.state
            return per_turn(rnd, "after", lambda turn: both(turn.running, z3.Not(turn.after["gap"]),
                                                            state(rnd, turn.after)))
        return self.find(rnd)

    def in_state(self, rnd: RoundEncoding, state: dict[str, z3.ExprRef]) -> Bool | None:
        return None if self.state is None else self.state(rnd, state)

    def confirm(self, playback: Playback) -> str | None:
        if self.check(playback):
            return None
        return f"the reference engine's replay does not show {self.name} during the witness's last call"

    def expected(self, edition: Edition, players: int) -> str | None:
        """`unreachable`, `reachable`, or None when the spec does not say which to expect (a
        rulebook reading may stop every round early on a rule it is silent on)."""
        if self.group == POSSIBLE and edition.kind != "edition":
            return None
        return self.expect(edition, players)


def never(edition: Edition, players: int) -> str:
    return "unreachable"


def always(edition: Edition, players: int) -> str:
    return "reachable"


def none_in_editions(edition: Edition, players: int) -> str | None:
    """Complete editions leave nothing open; readings may."""
    return "unreachable" if edition.kind == "edition" else None


# -- helpers over the encoding ---------------------------------------------------------------------


def no_find(rnd: RoundEncoding) -> list[Happening]:
    """For queries about the state between turns: their happenings come from `state`."""
    return []


def seats(rnd: RoundEncoding) -> range:
    return range(rnd.layout.players)


def out_card_kept(rnd: RoundEncoding, state: dict[str, z3.ExprRef]) -> Bool:
    """A player still in has in their discard pile a card that knocks its holder out."""
    found = []
    for c, clause in rnd.outs:
        if clause.silent:
            continue
        for p in seats(rnd):
            mark = state[f"flag{p}.{c}"] if clause.rule == "any_reason" else \
                state[f"played{p}.{c}"] != 0
            found.append(both(state[f"alive{p}"], mark))
    return either(*found)


def every_copy_played(rnd: RoundEncoding, state: dict[str, z3.ExprRef]) -> Bool:
    """One player has played every copy of a card with a bonus."""
    layout = rnd.layout
    found = []
    for card, _ in layout.facts.bonuses:
        if card in rnd.counted and layout.counts[card] > 1:
            bits = state[f"played0.{card}"].size()
            found += [state[f"played{p}.{card}"] == num(layout.counts[card], bits) for p in seats(rnd)]
    return either(*found)


def overpaid(rnd: RoundEncoding) -> Bool:
    """A round pays a seat more than one win and every bonus, or pays more than the rules allow in all."""
    ending, layout = rnd.ending, rnd.layout
    bits = rnd.token_bits + 3
    gains = [z3.ZeroExt(3, g) for g in ending.gains]
    tie = rnd.rule("tie")
    sharing = tie is not None and not tie.silent and "all_win" in tie.rule
    round_tokens = rnd.rule("round_tokens")
    per_win = round_tokens.rule if round_tokens is not None and not round_tokens.silent else 0
    bonus = extra_tokens(layout.edition, layout.players)
    cap = per_win * (layout.players if sharing else 1) + bonus
    too_much = [z3.UGT(g, num(ending.most_per_seat, bits)) for g in gains]
    return both(ending.paid, either(*too_much, z3.UGT(sum(gains, num(0, bits)), num(cap, bits))))


# -- helpers over the engine's replay --------------------------------------------------------------


def card_of(playback: Playback, name: str) -> Card:
    return playback.edition.card(name)


def played_card(playback: Playback) -> Json | None:
    """The play action of the last call, if it was one (and completed)."""
    last = playback.last
    if playback.gap is None and last is not None and last.action and last.action["type"] == "play":
        return last.action
    return None


def attempted_play(playback: Playback) -> tuple[Json, Json] | None:
    """The play action of the record's last call and the state before it, if it was one: whether
    it completed or stopped on a rule gap (a silent rule deciding what the card does)."""
    last = playback.last
    if last is None:
        return None
    if playback.gap is None:
        action, before = last.action, last.before
    elif playback.gap_on_last_call():
        actions = playback.record["rounds"][-1]["actions"]
        action, before = (actions[-1] if actions else None), last.after
    else:
        return None
    return (action, before) if action and action["type"] == "play" else None


def step_kinds(playback: Playback, name: str) -> set[str]:
    return {s.kind for s in card_of(playback, name).steps}


def showed_round_end(playback: Playback, test: Callable[[Json], bool]) -> bool:
    return any(e["type"] == "round_end" and test(e) for e in playback.final_events())


def outlasted(playback: Playback) -> bool:
    last = playback.last
    if playback.gap is not None or last is None or last.after["phase"] not in ("play", "keep"):
        return False
    played = sum(1 for m in playback.moments if m.action and m.action["type"] == "play")
    layout = Layout.of(playback.edition, playback.record["players"])
    return played >= layout.depth


def hand_sizes_off(playback: Playback) -> bool:
    last = playback.last
    if playback.gap is not None or last is None or last.after["phase"] in ("keep", "respond"):
        return False
    state = last.after
    for seat, hand in enumerate(state["hands"]):
        want = 0 if state["eliminated"][seat] else 2 if seat == state["turn"] else 1
        if len(hand) != want:
            return True
    return False


def cards_not_conserved(playback: Playback) -> bool:
    last = playback.last
    if last is None:
        return False
    state = last.after
    edition = playback.edition
    held = Counter(state["deck"] + state["set_aside"] + state["face_up"]
                   + [c for h in state["hands"] for c in h] + [c for d in state["discards"] for c in d])
    full = Counter(edition.names[c] for c in edition.deck(state["players"]))
    return held != full


def out_card_with_player_in(playback: Playback) -> bool:
    last = playback.last
    if last is None:
        return False
    state, edition = last.after, playback.edition
    plays = played_by_seat(playback)
    for seat, pile in enumerate(state["discards"]):
        if state["eliminated"][seat]:
            continue
        for name in set(pile):
            out = edition.card(name).discard_out
            if out is not None and not out.silent and (out.rule == "any_reason" or plays[(seat, name)]):
                return True
    return False


def chose_protected(playback: Playback) -> bool:
    action = played_card(playback)
    last = playback.last
    if action is None or last is None or "target" not in action:
        return False
    return action["target"] != last.before["turn"] and last.before["protected"][action["target"]]


def overpaid_in_engine(playback: Playback) -> bool:
    """The tokens the round's end pays (not those a card pays during the round, by a
    correct guess say) exceed what `overpaid` allows."""
    edition = playback.edition
    tokens: Counter[int] = Counter()
    ended = False
    for event in playback.final_events():
        ended = ended or event["type"] == "round_end"
        if ended and event["type"] == "token":
            tokens[event["player"]] += event["amount"]
    tie = edition.general["tie"]
    per_win = edition.general["round_tokens"].rule
    bonuses = extra_tokens(edition, playback.record["players"])
    sharing = not tie.silent and "all_win" in tie.rule
    cap = per_win * (playback.record["players"] if sharing else 1) + bonuses
    return any(v > per_win + bonuses for v in tokens.values()) or sum(tokens.values()) > cap


def drew_set_aside(playback: Playback) -> bool:
    return any(e["type"] == "draw" and e["from"] == "set_aside" for e in playback.final_events())


def draw_return_with(playback: Playback, test: Callable[[int, int], bool]) -> bool:
    """The last call plays a draw-and-return card with a pile size passing `test` (the rule for
    that pile may be silent: the play then stops on it)."""
    attempt = attempted_play(playback)
    if attempt is None:
        return False
    action, before = attempt
    steps = [s for s in card_of(playback, action["card"]).steps if s.kind == "draw_return"]
    return bool(steps) and test(len(before["deck"]), steps[0].clause.rule["draw"])


def forced_to_target(playback: Playback) -> bool:
    """The last call plays a card that chooses, every card in hand choosing and every other
    player protected (a silent no-valid-target rule then stops the play)."""
    attempt = attempted_play(playback)
    if attempt is None:
        return False
    state = attempt[1]
    me = state["turn"]
    others = [s for s in range(state["players"]) if s != me and not state["eliminated"][s]]
    everyone_shielded = bool(others) and all(state["protected"][s] for s in others)
    return everyone_shielded and all("choose" in step_kinds(playback, c) for c in state["hands"][me])


def played_every_copy(playback: Playback) -> bool:
    edition = playback.edition
    players = playback.record["players"]
    plays = played_by_seat(playback)
    for card in edition.cards:
        count = card.count_for(players)
        if card.bonus is not None and count > 1 and count in (plays[(s, card.name)] for s in range(players)):
            return True
    return False


def played_by_seat(playback: Playback) -> Counter[tuple[int, str]]:
    """How many times each seat played each card, over the whole replay."""
    return Counter((e["player"], e["card"]) for moment in playback.moments for e in moment.events
                   if e["type"] == "play")


def three_tied(playback: Playback) -> bool:
    """Three or more players tie at the showdown: no other hand beats theirs (the engine's rule),
    whether the round then ends or stops on the tie rule (silent, or run out)."""
    game = playback.game
    tie = playback.edition.general["tie"].id
    if game is None or not (showed_round_end(playback, lambda e: e["reason"] == "showdown")
                            or gap_where(playback, lambda clause, reason: clause == tie)):
        return False
    alive = [seat for seat in game.tables.seats if game.alive[seat]]
    scores = {seat: game.showdown_value(seat) for seat in alive}
    return sum(1 for a in alive if not any(game._beats(b, a, scores) for b in alive if b != a)) >= 3


def two_reached(playback: Playback) -> bool:
    """Two players end the round at the target: the game ends with both, or (when the rules are
    silent on several players reaching it) the engine stops on the game-end rule."""
    if any(e["type"] == "game_end" and len(e["winners"]) >= 2 for e in playback.final_events()):
        return True
    edition, game = playback.edition, playback.game
    game_end = edition.general["game_end"].id
    if game is None or not gap_where(playback, lambda clause, reason: clause == game_end):
        return False
    target = edition.player_table("tokens_to_win", game.players)
    return sum(1 for t in game.tokens if t >= target) >= 2


def gap_where(playback: Playback, test: Callable[[str, str], bool]) -> bool:
    gap = playback.gap
    return gap is not None and playback.gap_on_last_call() and test(gap.clause, gap.reason)


def forced_twice(playback: Playback) -> bool:
    last = playback.last
    if last is None or not last.action:
        return False
    edition = playback.edition
    state = last.before
    hand = state["hands"][state["turn"]] if state["turn"] is not None else []
    forcing = []
    for name in set(hand):
        card = edition.card(name)
        partners = {edition.names[i] for i in card.forced_with}
        if any(other in partners for other in hand if other != name):
            forcing.append(name)
    return len(forcing) >= 2


def empty_handed(playback: Playback) -> bool:
    last = playback.last
    if last is None or playback.gap is not None:
        return False
    state = last.after
    return state["phase"] == "play" and not state["hands"][state["turn"]]


# -- expectations and applicability ----------------------------------------------------------------


def no_winner_expected(edition: Edition, players: int) -> str | None:
    tie = edition.general.get("tie")
    nobody = tie is not None and not tie.silent and "nobody" in tie.rule
    return None if nobody or "all_eliminated" in edition.general else "unreachable"


def all_out_expected(edition: Edition, players: int) -> str | None:
    return None if "all_eliminated" in edition.general else "unreachable"


def shared_payout_expected(edition: Edition, players: int) -> str | None:
    tie = edition.general.get("tie")
    if tie is None or tie.silent:
        return None
    shares = "all_win" in tie.rule or any(c.bonus is not None for c in edition.cards)
    return "reachable" if shares else "unreachable"


def three_way_expected(edition: Edition, players: int) -> str | None:
    values = Counter(edition.cards[c].value for c in edition.deck(players))
    return "reachable" if max(values.values()) >= 3 else None


def needs_kind(kind: str, what: str,
               test: Callable[[Step], bool] = lambda step: True) -> Callable[[Layout], str | None]:
    """Applicable when a card of this deck has a step of `kind` passing `test`."""
    def applies(layout: Layout) -> str | None:
        for card in layout.edition.cards:
            if not card.count_for(layout.players):
                continue
            for step in card.steps:
                if step.kind == kind and not step.clause.silent and test(step):
                    return None
        return f"no card in this deck has {what}"
    return applies


def needs_property(attribute: str, what: str, test: Callable[[Layout, Card], bool] = lambda layout, card: True
                   ) -> Callable[[Layout], str | None]:
    """Applicable when a card of this deck has the property `attribute` and passes `test`."""
    def applies(layout: Layout) -> str | None:
        for card in layout.edition.cards:
            if getattr(card, attribute) is not None and test(layout, card):
                return None
        return f"no card in this deck has {what}"
    return applies


def draws_set_aside(layout: Layout) -> str | None:
    """Applicable when a rule of this deck draws the set-aside card on an empty pile (a discard-and-
    draw or redraw step's `empty_deck`, or a counter's)."""
    for card in layout.edition.cards:
        if not card.count_for(layout.players):
            continue
        rules = [s.modifiers.get("empty_deck") for s in card.steps] + [card.counter]
        for clause in rules:
            if clause is None or clause.silent:
                continue
            if clause.rule == "set_aside" or (isinstance(clause.rule, dict)
                                              and clause.rule.get("empty_deck") == "set_aside"):
                return None
    return "no rule of this deck draws the set-aside card"


def needs_players(least: int) -> Callable[[Layout], str | None]:
    def applies(layout: Layout) -> str | None:
        return None if layout.players >= least else f"needs at least {least} players"
    return applies


def needs_forcing(layout: Layout) -> str | None:
    forcing = [f for f in layout.facts.forcing if f[1]]
    return None if len(forcing) >= 2 else "fewer than two cards are forced by others"


# -- the catalogue ---------------------------------------------------------------------------------

CATALOGUE: tuple[Query, ...] = (
    Query("round-outlasts-pile", IMPOSSIBLE,
          "Is the round still running after as many turns as the draw pile had cards?",
          "Every other answer explores rounds up to that many turns; if none can be longer, an "
          "unreachable answer is a proof for every deal and every choice.",
          lambda rnd: [Happening(rnd.states[-1]["run"], rnd.layout.depth - 1, "after")],
          outlasted, never, bounded=True, proof="ranking"),
    Query("all-eliminated", IMPOSSIBLE,
          "Can every player be out of the round at once?",
          "Eliminations stop when one player is left; a round that knocks out its last two players "
          "at once would have no winner and, without an `all_eliminated` rule, no ending at all.",
          lambda rnd: at_end(rnd, rnd.ending.everyone_out),
          lambda pb: showed_round_end(pb, lambda e: e["reason"] == "all_eliminated")
          or gap_where(pb, lambda clause, reason: clause.endswith("round.all-eliminated")),
          all_out_expected),
    Query("hand-size-between-turns", IMPOSSIBLE,
          "Between turns, can a player still in hold other than one card, or a player who is out hold any?",
          "Every effect that takes cards (draws, trades, discards, returns) must leave one card per "
          "player; engines that forget a discard or a return break here first.",
          lambda rnd: seen(rnd, "hand_sizes", "after"),
          hand_sizes_off, never, proof="invariant"),
    Query("card-in-two-places", IMPOSSIBLE,
          "Can one physical card be in two places (two hands, a hand and the pile, ...), or a card vanish?",
          "Cards are conserved: deck, hands, discard piles, set-aside and face-up cards always hold the "
          "dealt deck exactly once. A duplicated or lost card is an engine bug.",
          no_find, cards_not_conserved, never, state=misplaced, proof="invariant"),
    Query("discarded-out-card-still-in", IMPOSSIBLE,
          "Can a player still be in with a card that knocks its holder out when discarded (when played) "
          "in their discard pile?",
          "Such a card must knock its holder out however it leaves the hand (a discard-and-draw "
          "effect included); a rulebook-mandated elimination that engines often miss.",
          no_find, out_card_with_player_in, never,
          needs_property("discard_out", "an out-when-discarded rule"), state=out_card_kept),
    Query("protected-player-chosen", IMPOSSIBLE,
          "Can another player's card choose a player who is protected?",
          "Protection blocks being chosen by others until the protected player's next turn.",
          lambda rnd: seen(rnd, "chose_protected", "play"),
          chose_protected, never, needs_kind("protect", "a protection rule")),
    Query("no-winner", IMPOSSIBLE,
          "Can a round end with nobody winning it?",
          "Someone should gain the round's token; when the spec's own tie rule can leave nobody, "
          "the witness is a game a rules judge can check by hand.",
          lambda rnd: at_end(rnd, both(rnd.ending.decided, z3.Not(either(*rnd.ending.winners)))),
          lambda pb: showed_round_end(pb, lambda e: not e["winners"]),
          no_winner_expected),
    Query("token-overflow", IMPOSSIBLE,
          "Can a round pay more tokens than the spec allows (to one player, or in all)?",
          "One win and each bonus once per player; several winners only when the tie rule shares the "
          "win. Paying more would let the game end too early.",
          lambda rnd: at_end(rnd, overpaid(rnd)),
          overpaid_in_engine, never),
    Query("set-aside-drawn", POSSIBLE,
          "Can a discard-and-draw effect resolve on an empty pile, so that the set-aside card is drawn?",
          "The one moment the set-aside card enters play; engines must draw it, not crash or skip.",
          lambda rnd: seen(rnd, "set_aside_drawn", "play"),
          drew_set_aside, always, draws_set_aside),
    Query("draw-return-short", POSSIBLE,
          "Can a draw-and-return card be played with fewer cards left than it draws (but some)?",
          "It then draws what there is and returns as many; the short-deck rule decides it.",
          lambda rnd: seen(rnd, "draw_return_short", "play"),
          lambda pb: draw_return_with(pb, lambda left, draw: 0 < left < draw), always,
          needs_kind("draw_return", "a draw-and-return rule drawing two or more",
                     lambda step: step.clause.rule["draw"] > 1)),
    Query("draw-return-empty", POSSIBLE,
          "Can a draw-and-return card be played with no card left to draw?",
          "Its empty-deck rule decides what happens (in the 2019 edition: nothing).",
          lambda rnd: seen(rnd, "draw_return_empty", "play"),
          lambda pb: draw_return_with(pb, lambda left, draw: left == 0), always,
          needs_kind("draw_return", "a draw-and-return rule")),
    Query("forced-targeting", POSSIBLE,
          "Can a player have to play a card that chooses a player while every other player is protected?",
          "Every card in hand wants a target and nobody may be chosen: the no-valid-target rule (or "
          "choosing oneself) must apply. Engines that offer no legal action deadlock here.",
          lambda rnd: seen(rnd, "forced_targeting", "play"),
          forced_to_target, always, needs_kind("protect", "a protection rule")),
    Query("bonus-card-all-copies", POSSIBLE,
          "Can one player play every copy of a card that pays a bonus token?",
          "The bonus token is paid once however many copies its holder discarded. (A showdown bonus, "
          "which adds to the hand's value per copy, is another rule.)",
          no_find, played_every_copy, always,
          needs_property("bonus", "a bonus token (bonus_token) and two or more copies",
                         lambda layout, card: card.count_for(layout.players) > 1),
          state=every_copy_played),
    Query("three-way-tie", POSSIBLE,
          "Can three or more players tie for the highest hand at the showdown?",
          "Tie rules are usually written with two players in mind; three tied players test them fully.",
          lambda rnd: at_end(rnd, at_least(rnd.ending.tied_at_showdown, 3)),
          three_tied, three_way_expected, needs_players(3)),
    Query("two-reach-target", POSSIBLE,
          "Can two players reach the token target in the same round?",
          "Only when a round can pay more than one player; then the game-end rule must say who wins.",
          lambda rnd: at_end(rnd, at_least(rnd.ending.reached, 2)),
          two_reached, shared_payout_expected, uses_tokens=True),
    Query("silent-clause", OPEN,
          "Can a game reach a rule the spec is silent on?",
          "A silent clause of a rulebook reading is a question the rulebook cannot answer; the witness "
          "is the game that asks it.",
          lambda rnd: gaps(rnd, "silent"),
          lambda pb: gap_where(pb, lambda clause, reason: _silent(pb.edition, clause)),
          none_in_editions),
    Query("undefined-draw", OPEN,
          "Can a player have to draw with no card in the pile and no set-aside card they may take?",
          "The draw has no outcome: the rules must say what happens instead.",
          lambda rnd: gaps(rnd, "no_card"),
          lambda pb: gap_where(pb, lambda clause, reason: "no card is left to draw" in reason),
          none_in_editions),
    Query("unresolved-tie", OPEN,
          "Can a showdown tie survive the whole tie rule?",
          "The round then has no defined winner.",
          lambda rnd: gaps(rnd, "open_tie"),
          lambda pb: gap_where(pb, lambda clause, reason: clause == pb.edition.general["tie"].id),
          none_in_editions),
    Query("forced-conflict", OPEN,
          "Can a player hold two cards that each must be played because of the other?",
          "Two forcing rules apply and disagree about which card to play.",
          lambda rnd: seen(rnd, "forced_conflict", "play"),
          forced_twice, none_in_editions, needs_forcing),
    Query("no-legal-action", OPEN,
          "Can the player on turn be left with no card to play?",
          "With nothing in hand there is no legal action and the game cannot go on.",
          lambda rnd: seen(rnd, "empty_handed", "start"),
          empty_handed, none_in_editions),
)
"""Every named query, in the order they are reported."""


def gaps(rnd: RoundEncoding, category: str) -> list[Happening]:
    """Where the encoding meets a rule gap of a category (in a turn, or at the round's end)."""
    out = [Happening(when, turn.index, phase) for turn in rnd.turns
           for phase, when in turn.gaps.get(category, {}).items()]
    ending = rnd.ending.board.gaps.get(category, {})
    out += [Happening(when, rnd.layout.depth, "end") for when in ending.values()]
    return out


def _silent(edition: Edition, clause_id: str) -> bool:
    clause = edition.clauses.get(clause_id)
    return clause is None or clause.silent


QUERIES = {query.name: query for query in CATALOGUE}


def query(name: str) -> Query:
    """A catalogue query by name (KeyError with the known names)."""
    if name not in QUERIES:
        raise KeyError(f"no probe query {name!r} (queries: {', '.join(QUERIES)})")
    return QUERIES[name]


