"""Small helpers over z3 terms: bit widths, constants, guarded choices, selection by index.

Every comparison here is unsigned: z3's `<` on bit-vectors is signed, a classic pitfall, so
the encoding never uses it directly. Boolean connectives are always z3's (`And`, `Or`,
`Not`): Python's `and`/`or` on z3 terms silently build the wrong constraint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeAlias, TypeVar

import z3

Bool: TypeAlias = z3.BoolRef
BV: TypeAlias = z3.BitVecRef
Term = TypeVar("Term", bound=z3.ExprRef)

TRUE = z3.BoolVal(True)
FALSE = z3.BoolVal(False)


def width(count: int) -> int:
    """Bits needed for the numbers 0 .. count - 1 (at least one)."""
    return max(1, (count - 1).bit_length())


@lru_cache(maxsize=4096)
def num(value: int, bits: int) -> BV:
    """A bit-vector constant (one object per value and width)."""
    return z3.BitVecVal(value, bits)


# The encoding builds hundreds of thousands of terms; z3's Python wrappers (`If`, `And`,
# `is_true`) spend most of that time checking and converting arguments. These helpers call the
# C API directly on terms that are already well formed, and recognise literal truths with one
# structural comparison.


def _make(kind: type, ast: z3.Ast, ctx: z3.Context) -> z3.ExprRef:
    return kind(ast, ctx)


def same(a: z3.ExprRef, b: z3.ExprRef) -> bool:
    """The two terms are the same term (z3 shares equal terms)."""
    return a is b or bool(z3.Z3_is_eq_ast(a.ctx.ref(), a.as_ast(), b.as_ast()))


def ite(cond: Bool, then: Term, other: Term) -> Term:
    """`If(cond, then, other)`, without a node when both branches are the same term."""
    if same(then, other) or same(cond, TRUE):
        return then
    if same(cond, FALSE):
        return other
    if isinstance(then, z3.BoolRef):
        kind = z3.BoolRef
    elif isinstance(then, z3.BitVecRef):
        kind = z3.BitVecRef
    else:
        return z3.If(cond, then, other)
    ctx = then.ctx
    return _make(kind, z3.Z3_mk_ite(ctx.ref(), cond.as_ast(), then.as_ast(), other.as_ast()), ctx)


def _join(make: Callable[..., z3.Ast], terms: list[Bool]) -> Bool:
    ctx = terms[0].ctx
    array = (z3.Ast * len(terms))(*(t.as_ast() for t in terms))
    return _make(z3.BoolRef, make(ctx.ref(), len(terms), array), ctx)


def both(*terms: Bool) -> Bool:
    """Conjunction, dropping literal truths."""
    kept = [t for t in terms if not same(t, TRUE)]
    if any(same(t, FALSE) for t in kept):
        return FALSE
    if not kept:
        return TRUE
    return kept[0] if len(kept) == 1 else _join(z3.Z3_mk_and, kept)


def either(*terms: Bool) -> Bool:
    """Disjunction, dropping literal falsehoods."""
    kept = [t for t in terms if not same(t, FALSE)]
    if any(same(t, TRUE) for t in kept):
        return TRUE
    if not kept:
        return FALSE
    return kept[0] if len(kept) == 1 else _join(z3.Z3_mk_or, kept)


def select(index: BV, items: Sequence[Term], first: int = 0) -> Term:
    """`items[index - first]` for a symbolic index; out of range gives the last item."""
    out = items[-1]
    bits = index.size()
    for i in range(len(items) - 2, -1, -1):
        out = ite(index == num(first + i, bits), items[i], out)
    return out


def ult(a: BV, b: BV) -> Bool:
    """Unsigned a < b."""
    return z3.ULT(a, b)


def ule(a: BV, b: BV) -> Bool:
    """Unsigned a <= b."""
    return z3.ULE(a, b)


def fit(term: BV, bits: int) -> BV:
    """Zero-extend (or truncate) an unsigned bit-vector to `bits`."""
    have = term.size()
    if have == bits:
        return term
    if have < bits:
        return z3.ZeroExt(bits - have, term)
    return z3.Extract(bits - 1, 0, term)


def exactly(flags: Sequence[Bool], k: int) -> Bool:
    """Exactly `k` of `flags` hold (a pseudo-Boolean constraint)."""
    if not flags:
        return z3.BoolVal(k == 0)
    return z3.PbEq([(f, 1) for f in flags], k)


def at_least(flags: Sequence[Bool], k: int) -> Bool:
    """At least `k` of `flags` hold."""
    if k <= 0:
        return TRUE
    if len(flags) < k:
        return FALSE
    return z3.AtLeast(*flags, k)
