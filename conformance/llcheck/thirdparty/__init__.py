"""Adapters for engines written by others, run against the suite as they are."""
