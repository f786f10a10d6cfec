#!/usr/bin/env node
// A Love Letter engine speaking the llcheck protocol (docs/protocol.md): one JSON request per
// line on stdin, one JSON response per line on stdout. Run the conformance corpus against it:
//
//     llcheck check --impl 'node conformance/examples/node/engine.js' --edition classic
//
// The rules live in rules.js; this file only reads requests, calls the game and writes answers.
"use strict";

const readline = require("readline");
const { Game, Refusal } = require("./rules");

const HELLO = {
  protocol: "1",
  name: "loveletter-node-example",
  version: "1.0.0",
  editions: ["classic"],
  capabilities: ["events", "games", "legal_actions", "views"],
};

let game = null;

// One handler per request `op`; each returns the body of a successful response.
const HANDLERS = {
  hello(request) {
    if (request.protocol !== "1") throw new Error(`this engine speaks protocol 1, not ${request.protocol}`);
    return HELLO;
  },
  start(request) {
    if (request.edition !== "classic") throw new Error(`this engine plays classic only, not ${request.edition}`);
    return reply(() => {
      const next = new Game(request.players, request.first_player, request.tokens);
      const events = next.startRound(request.deck);
      game = next;
      return events;
    });
  },
  next_round(request) {
    return reply(() => current().startRound(request.deck));
  },
  legal_actions() {
    return { actions: current().legalActions() };
  },
  apply(request) {
    return reply(() => current().apply(request.action));
  },
  state() {
    return { state: current().state() };
  },
  view(request) {
    const seat = request.player;
    if (!(Number.isInteger(seat) && seat >= 0 && seat < current().players)) throw new Error(`there is no player ${seat}`);
    return { view: current().view(seat) };
  },
  stop() {
    return {};
  },
};

function current() {
  if (game === null) throw new Error("no game has been started");
  return game;
}

function reply(act) {
  // Accepted with the events and the new state, or refused (state unchanged) with the reason.
  try {
    const events = act();
    return { accepted: true, events, state: game.state() };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { accepted: false, reason: error.message, ...(error.clause && { clause: error.clause }) };
  }
}

function answer(line) {
  let id = null;
  try {
    const request = JSON.parse(line);
    id = Number.isInteger(request.id) ? request.id : null;
    const handler = HANDLERS[request.op];
    if (!handler) throw new Error(`unknown op ${JSON.stringify(request.op)}`);
    return { id, ok: true, ...handler(request) };
  } catch (error) {
    return { id, ok: false, error: error.message };
  }
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (!line.trim()) return;
  const response = answer(line);
  process.stdout.write(JSON.stringify(response) + "\n");
  if (response.ok && JSON.parse(line).op === "stop") input.close();
});
input.on("close", () => process.exit(0));
