"""Dies before it says a word, as a program missing a library does."""

import sys

print("engine: error while loading shared libraries: libcards.so.2: cannot open shared object file",
      file=sys.stderr)
sys.exit(127)
