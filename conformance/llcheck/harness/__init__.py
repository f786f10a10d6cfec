"""The conformance harness: the case corpus (`cases`) and what runs it against engines."""
