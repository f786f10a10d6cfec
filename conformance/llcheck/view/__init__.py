"""The game viewer: a case, a divergence, a witness or a game log as a game on a table, in one
self-contained HTML file (docs/viewer.md). `film` builds what is shown, `page` writes the file;
`results` turns a conformance report, and `disputes` a comparison of readings, into films and
rows that link into them."""
