// Love Letter, classic edition (AEG 2012): the rules of one game, written for clarity.
//
// Everything here uses the JSON forms of docs/formats.md: cards are named ("Guard"), players are
// seats 0..n-1, actions are {type: "play", card, target?, guess?}, and every change to the game
// is reported as an event such as {type: "draw", player: 1, card: "Baron", from: "deck"}.
"use strict";

const CARDS = [
  { name: "Guard", value: 1, count: 5 },
  { name: "Priest", value: 2, count: 2 },
  { name: "Baron", value: 3, count: 2 },
  { name: "Handmaid", value: 4, count: 2 },
  { name: "Prince", value: 5, count: 2 },
  { name: "King", value: 6, count: 1 },
  { name: "Countess", value: 7, count: 1 },
  { name: "Princess", value: 8, count: 1 },
];
const VALUE = Object.fromEntries(CARDS.map((c) => [c.name, c.value]));
const TOKENS_TO_WIN = { 2: 7, 3: 5, 4: 4 };
const CHOOSES_ANOTHER = ["Guard", "Priest", "Baron", "King"]; // cards that choose another player
const GUESSES = CARDS.map((c) => c.name).filter((name) => name !== "Guard");

// Events that carry a card only some players may see, and the field holding it.
const HIDDEN = { deal: "card", draw: "card", look: "card", compare: "cards", trade: "cards", return: "cards" };

class Refusal extends Error {
  // A deal or an action the rules do not allow; `clause` names the rule it breaks.
  constructor(reason, clause) {
    super(reason);
    this.clause = clause;
  }
}

function byValue(a, b) {
  return VALUE[a] - VALUE[b] || (a < b ? -1 : a > b ? 1 : 0);
}

function checkDeck(deck, players) {
  const want = Object.fromEntries(CARDS.map((c) => [c.name, c.count]));
  const have = {};
  for (const card of deck) have[card] = (have[card] || 0) + 1;
  const names = new Set([...Object.keys(want), ...Object.keys(have)]);
  const diffs = [...names].filter((n) => (have[n] || 0) !== (want[n] || 0))
    .map((n) => `${(have[n] || 0) - (want[n] || 0) > 0 ? "+" : ""}${(have[n] || 0) - (want[n] || 0)} ${n}`);
  if (diffs.length) {
    throw new Refusal(`not the classic deck for ${players} players: ${diffs.join(", ")}`, "classic.setup.deck");
  }
}

class Game {
  constructor(players, firstPlayer, tokens) {
    if (!(players >= 2 && players <= 4)) throw new Refusal(`classic is for 2-4 players, not ${players}`);
    if (!(firstPlayer >= 0 && firstPlayer < players)) throw new Refusal(`no seat ${firstPlayer}`);
    if (tokens.length !== players) throw new Refusal(`tokens must list ${players} counts`);
    this.players = players;
    this.tokens = [...tokens];
    this.round = 0;
    this.phase = "setup";
    this.starter = firstPlayer;
    this.current = firstPlayer;
    this.roundWinners = null;
    this.gameWinners = null;
    this.log = [];
  }

  // -- rounds ---------------------------------------------------------------------------------

  startRound(deck) {
    // Deal a round from `deck` (top first); returns the events up to the first decision.
    if (this.phase === "game_over") throw new Refusal("the game is over", "classic.game.end");
    if (this.phase !== "setup" && this.phase !== "round_over") throw new Refusal("a round is being played");
    checkDeck(deck, this.players);
    const n = this.players;
    const faceUp = n === 2 ? 3 : 0;
    if (this.phase === "round_over") this.starter = this.nextStarter();
    this.round += 1;
    this.setAside = deck.slice(0, 1);
    this.faceUp = deck.slice(1, 1 + faceUp);
    this.hands = [];
    for (let seat = 0; seat < n; seat++) this.hands.push([deck[1 + faceUp + seat]]);
    this.deck = deck.slice(1 + faceUp + n);
    this.discards = this.hands.map(() => []);
    this.eliminated = this.hands.map(() => false);
    this.protected = this.hands.map(() => false);
    this.roundWinners = null;
    this.log = [];
    const events = [{ type: "round_start", round: this.round, first: this.starter, face_up: this.faceUp, set_aside: 1 }];
    this.hands.forEach((hand, seat) => events.push({ type: "deal", player: seat, card: hand[0] }));
    this.beginTurn(this.starter, events);
    this.log.push(...events);
    return events;
  }

  nextStarter() {
    // The round's winner starts the next; of several, the first in turn order from the last
    // starter; when nobody won, the last starter starts again.
    const winners = this.roundWinners;
    if (winners.length === 0) return this.starter;
    const distance = (seat) => (seat - this.starter + this.players) % this.players;
    return [...winners].sort((a, b) => distance(a) - distance(b))[0];
  }

  beginTurn(player, events) {
    this.current = player;
    this.phase = "play";
    events.push({ type: "turn", player });
    if (this.protected[player]) {
      this.protected[player] = false;
      events.push({ type: "unprotect", player });
    }
    const card = this.deck.shift();
    this.hands[player].push(card);
    events.push({ type: "draw", player, card, from: "deck" });
  }

  endTurn(events) {
    const alive = this.alive();
    if (this.deck.length > 0 && alive.length > 1) {
      let seat = this.current;
      do seat = (seat + 1) % this.players; while (this.eliminated[seat]);
      this.beginTurn(seat, events);
    } else if (alive.length === 1) {
      this.finish(alive, "last_standing", events);
    } else {
      this.finish(this.showdown(alive), "showdown", events);
    }
  }

  showdown(alive) {
    // The highest card wins; a tie goes to the highest total of discarded values, else nobody.
    const best = Math.max(...alive.map((s) => VALUE[this.hands[s][0]]));
    let tied = alive.filter((s) => VALUE[this.hands[s][0]] === best);
    if (tied.length > 1) {
      const total = (s) => this.discards[s].reduce((sum, card) => sum + VALUE[card], 0);
      const top = Math.max(...tied.map(total));
      tied = tied.filter((s) => total(s) === top);
    }
    return tied.length === 1 ? tied : [];
  }

  finish(winners, reason, events) {
    const end = { type: "round_end", reason, winners };
    if (reason === "showdown") end.hands = this.hands.map((hand, s) => (this.eliminated[s] ? null : hand[0]));
    events.push(end);
    this.roundWinners = winners;
    for (const seat of winners) {
      this.tokens[seat] += 1;
      events.push({ type: "token", player: seat, amount: 1, reason: "round" });
    }
    const reached = this.tokens.map((t, s) => s).filter((s) => this.tokens[s] >= TOKENS_TO_WIN[this.players]);
    if (reached.length) {
      this.gameWinners = reached;
      this.phase = "game_over";
      events.push({ type: "game_end", winners: reached });
    } else {
      this.phase = "round_over";
    }
  }

  alive() {
    return this.hands.map((h, s) => s).filter((s) => !this.eliminated[s]);
  }

  // -- legal actions --------------------------------------------------------------------------

  targets(card) {
    // Seats the card may choose: another player still in and unprotected (the Prince may also
    // choose its own player, and must when nobody else can be chosen).
    const others = this.alive().filter((s) => s !== this.current && !this.protected[s]);
    return card === "Prince" ? [...others, this.current].sort((a, b) => a - b) : others;
  }

  legalActions() {
    if (this.phase !== "play") return [];
    const hand = this.hands[this.current];
    const forced = hand.includes("Countess") && (hand.includes("King") || hand.includes("Prince"));
    const cards = forced ? ["Countess"] : [...new Set(hand)];
    const actions = [];
    for (const card of cards) {
      const targets = CHOOSES_ANOTHER.includes(card) || card === "Prince" ? this.targets(card) : null;
      if (targets === null || targets.length === 0) {
        actions.push({ type: "play", card });
      } else if (card === "Guard") {
        for (const target of targets) for (const guess of GUESSES) actions.push({ type: "play", card, target, guess });
      } else {
        for (const target of targets) actions.push({ type: "play", card, target });
      }
    }
    return actions;
  }

  refusal(action) {
    // Why `action` is not legal now, as a Refusal naming the clause it breaks.
    if (this.phase !== "play") return new Refusal(`no decision is due: the game is in phase ${this.phase}`);
    const hand = this.hands[this.current];
    if (action.type !== "play") return new Refusal(`a card must be played, not a ${action.type} action`, "classic.turn.play");
    if (!hand.includes(action.card)) return new Refusal(`player ${this.current} does not hold ${action.card}`, "classic.turn.play");
    if (action.card !== "Countess" && this.legalActions().every((a) => a.card === "Countess")) {
      return new Refusal("the Countess must be played beside the King or a Prince", "classic.countess.forced");
    }
    if (action.card === "Guard" && action.target !== undefined && !GUESSES.includes(action.guess)) {
      return new Refusal(`a Guard names a card other than the Guard, not ${JSON.stringify(action.guess)}`, "classic.guard.guess");
    }
    const chooses = CHOOSES_ANOTHER.includes(action.card) || action.card === "Prince";
    const clause = chooses ? `classic.${action.card.toLowerCase()}.target` : "classic.turn.play";
    if (action.target !== undefined && this.protected[action.target]) {
      return new Refusal(`player ${action.target} is protected by the Handmaid`, "classic.handmaid.protect");
    }
    if (action.target !== undefined && this.eliminated[action.target]) {
      return new Refusal(`player ${action.target} is out of the round`, "classic.elimination");
    }
    return new Refusal(`${JSON.stringify(action)} is not a legal action`, clause);
  }

  // -- playing --------------------------------------------------------------------------------

  apply(action) {
    // Apply a legal action; returns its events up to the next decision (throws a Refusal).
    const key = JSON.stringify(normal(action));
    if (!this.legalActions().some((a) => JSON.stringify(normal(a)) === key)) throw this.refusal(action);
    const player = this.current;
    const { card, target, guess } = action;
    const hand = this.hands[player];
    hand.splice(hand.indexOf(card), 1);
    this.discards[player].push(card);
    const events = [{ type: "play", player, card, ...(target !== undefined && { target }), ...(guess !== undefined && { guess }) }];
    if (CHOOSES_ANOTHER.includes(card) && target === undefined) {
      events.push({ type: "no_effect", player, card });
    } else {
      EFFECTS[card].call(this, player, target, guess, events);
    }
    if (this.phase === "play") this.endTurn(events);
    this.log.push(...events);
    return events;
  }

  eliminate(player, by, events) {
    this.eliminated[player] = true;
    this.protected[player] = false;
    events.push({ type: "eliminate", player, by });
    for (const card of this.hands[player].splice(0)) {
      this.discards[player].push(card);
      events.push({ type: "discard", player, card });
    }
  }

  // -- what players see -----------------------------------------------------------------------

  state() {
    const playing = this.phase === "play";
    return {
      edition: "classic", players: this.players, round: this.round, phase: this.phase,
      turn: playing ? this.current : null, starter: this.starter,
      deck: this.deck || [], set_aside: this.setAside || [], face_up: this.faceUp || [],
      hands: (this.hands || []).map((h) => [...h].sort(byValue)),
      discards: this.discards || [], eliminated: this.eliminated || [], protected: this.protected || [],
      tokens: this.tokens, pending: null, round_winners: this.roundWinners, game_winners: this.gameWinners,
    };
  }

  view(player) {
    const s = this.state();
    return {
      player, edition: s.edition, players: s.players, round: s.round, phase: s.phase, turn: s.turn,
      starter: s.starter, hand: s.hands[player] || [], hand_sizes: s.hands.map((h) => h.length),
      deck_size: s.deck.length, set_aside_size: s.set_aside.length, face_up: s.face_up, discards: s.discards,
      eliminated: s.eliminated, protected: s.protected, tokens: s.tokens, pending: s.pending,
      round_winners: s.round_winners, game_winners: s.game_winners,
      log: this.log.map((event) => seenBy(event, player)),
    };
  }
}

// One function per card: what playing it does (the card is already on its player's discard pile).
const EFFECTS = {
  Guard(player, target, guess, events) {
    const correct = this.hands[target][0] === guess;
    events.push({ type: "guess", player, target, guess, correct });
    if (correct) this.eliminate(target, "Guard", events);
  },
  Priest(player, target, guess, events) {
    events.push({ type: "look", player, target, card: this.hands[target][0] });
  },
  Baron(player, target, guess, events) {
    const mine = this.hands[player][0];
    const theirs = this.hands[target][0];
    const loser = VALUE[mine] < VALUE[theirs] ? player : VALUE[mine] > VALUE[theirs] ? target : null;
    events.push({ type: "compare", player, target, cards: [mine, theirs], loser });
    if (loser !== null) this.eliminate(loser, "Baron", events);
  },
  Handmaid(player, target, guess, events) {
    this.protected[player] = true;
    events.push({ type: "protect", player });
  },
  Prince(player, target, guess, events) {
    const card = this.hands[target].pop();
    this.discards[target].push(card);
    events.push({ type: "discard", player: target, card });
    if (card === "Princess") {
      this.eliminate(target, "Princess", events);
      return;
    }
    const source = this.deck.length > 0 ? "deck" : "set_aside";
    const drawn = source === "deck" ? this.deck.shift() : this.setAside.pop();
    this.hands[target].push(drawn);
    events.push({ type: "draw", player: target, card: drawn, from: source });
  },
  King(player, target, guess, events) {
    const mine = this.hands[player];
    const theirs = this.hands[target];
    events.push({ type: "trade", player, target, cards: [mine[0], theirs[0]] });
    this.hands[player] = theirs;
    this.hands[target] = mine;
  },
  Countess() {},
  Princess(player, target, guess, events) {
    this.eliminate(player, "Princess", events);
  },
};

function normal(action) {
  // An action with its fields in a fixed order, so that two spellings compare equal.
  const out = { type: action.type, card: action.card };
  if (action.target !== undefined) out.target = action.target;
  if (action.guess !== undefined) out.guess = action.guess;
  for (const key of Object.keys(action)) if (!(key in out)) out[key] = action[key];
  return out;
}

function seenBy(event, player) {
  // `event` as `player` observes it: hidden cards removed unless the player may see them.
  const field = HIDDEN[event.type];
  const sees = event.player === player || ((event.type === "compare" || event.type === "trade") && event.target === player);
  if (!field || sees) return event;
  const { [field]: hidden, ...rest } = event;
  return rest;
}

module.exports = { Game, Refusal };
