"""The game viewer: a case, a divergence, a witness or a game log as a game on a table, in one
self-contained HTML file (docs/viewer.md). `film` builds what is shown, `page` writes the file,
`results` turns a conformance report into a page whose rows link into the films."""
