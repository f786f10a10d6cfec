#!/usr/bin/env node
// A Love Letter engine speaking the llcheck protocol (docs/protocol.md): one JSON request per
// line on stdin, one JSON response per line on stdout. Run the conformance corpus against it:
//
//     llcheck check --impl 'node conformance/examples/node/engine.js' --edition classic
//
// The rules live in rules.js; this file only reads requests, calls the game and writes answers.
//
// It claims the two capabilities of protocol capabilities version 3 (docs/protocol.md): combined
// replies (a start, next_round or apply that says "combined": true is answered with the legal
// actions then due, or, when an apply is refused, with the state it kept) and pipelining (requests
// are read as they come and answered in order; the answers to a batch of requests are written
// together, so that a harness sending requests ahead is woken once per batch, not per answer).
"use strict";

const readline = require("readline");
const { Game, Refusal } = require("./rules");

const HELLO = {
  protocol: "1",
  name: "loveletter-node-example",
  version: "1.1.0",
  editions: ["classic"],
  capabilities_version: 3,
  capabilities: ["combined", "deck", "events", "games", "legal_actions", "pipelining", "stray_fields", "tokens",
                 "views"],
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
    return reply(request, () => {
      const next = new Game(request.players, request.first_player, request.tokens);
      const events = next.startRound(request.deck);
      game = next;
      return events;
    });
  },
  next_round(request) {
    return reply(request, () => current().startRound(request.deck));
  },
  legal_actions() {
    return { actions: current().legalActions() };
  },
  apply(request) {
    return reply(request, () => current().apply(request.action), true);
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

function reply(request, act, isApply = false) {
  // Accepted with the events and the new state, or refused (state unchanged) with the reason. A
  // combined reply adds the legal actions now due (accepted) or the state (a refused apply).
  try {
    const events = act();
    const body = { accepted: true, events, state: game.state() };
    if (request.combined) body.legal_actions = game.legalActions();
    return body;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const body = { accepted: false, reason: error.message, ...(error.clause && { clause: error.clause }) };
    if (request.combined && isApply && game !== null) body.state = game.state();
    return body;
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

// Answers are collected while the lines of one chunk of input are read, and written together once
// they are all answered (readline emits a chunk's lines one after another, before any timer runs).
let pending = [];
let stopping = false;

function flush() {
  if (pending.length) process.stdout.write(pending.join(""));
  pending = [];
  if (stopping) process.exit(0);
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (stopping || !line.trim()) return;
  const response = answer(line);
  if (!pending.length) setImmediate(flush);
  pending.push(JSON.stringify(response) + "\n");
  if (response.ok && JSON.parse(line).op === "stop") {
    stopping = true;
    input.close();
  }
});
input.on("close", () => {
  stopping = true;
  setImmediate(flush);
});
