"""Evaluating the Viggo encodings on concrete engine values, fast enough for bindings.

A binding (:mod:`regelverk_proofs.viggo.binding.rules`) asks the same encoding term thousands of
times with different concrete values: "does ``beats`` allow this reply under these options?", "does
``play_step`` relate this engine state to the one the engine made?". Building the term afresh
with constants for each question costs a tenth of a second. Instead a term is built once over
unknowns, and then:

* :class:`Compiled` translates the term, node by node, into a Python function of its unknowns
  (for small terms asked very often: "beats", the scores); every Z3 operator the encodings use
  has its exact Python meaning (``mod`` by a positive constant is never negative in both);
  an operator it does not know is refused, never guessed.
* :class:`Substituted` puts constants for the unknowns and lets Z3 simplify the closed term to
  true or false (for the large step relations). A closed term that Z3 leaves undecided is an
  error, never an answer.

Neither changes what the encoding says; the tests compare both with a Z3 solver on samples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from regelverk_proofs.binding import BindingError
from regelverk_proofs.z3api import Bool, Int, _z3

__all__ = ["Compiled", "Substituted", "Term", "value_of"]

Term = Bool | Int


def value_of(term: Term) -> int | bool:
    """The Python value of a closed constant term (``Int.const(3)``, ``Bool.const(True)``)."""
    z3 = _z3()
    ref = z3.simplify(term.ref)
    if z3.is_true(ref):
        return True
    if z3.is_false(ref):
        return False
    if z3.is_int_value(ref):
        return int(ref.as_long())
    raise BindingError(f"not a constant: {ref}")


_NARY = {"AND": " and ", "OR": " or ", "ADD": " + ", "MUL": " * "}
_TEMPLATES = {
    "LE": "({0} <= {1})",
    "LT": "({0} < {1})",
    "GE": "({0} >= {1})",
    "GT": "({0} > {1})",
    "SUB": "({0} - {1})",
    "NOT": "(not {0})",
    "EQ": "({0} == {1})",
    "XOR": "({0} != {1})",
    "IMPLIES": "((not {0}) or {1})",
    "ITE": "({1} if {0} else {2})",
    "UMINUS": "(-{0})",
    "TRUE": "True",
    "FALSE": "False",
}
_OTHER = ("DISTINCT", "MOD", "ANUM", "UNINTERPRETED")
_COUNTS = {"PB_AT_MOST": "<=", "PB_AT_LEAST": ">=", "PB_EQ": "=="}
"""Cardinality constraints (:func:`regelverk_proofs.z3api.sum_of` compared with a constant):
how many arguments hold, each weighed by its coefficient, against the bound ``k``."""


class _Nodes:
    """A term's nodes read through Z3's C functions on the bare syntax tree: the same answers
    as ``node.children()``, ``node.decl().kind()`` and ``node.as_long()``, without making a
    Python object (and a reference count) for every node visited, which took most of the time
    of compiling a large term. The nodes stay alive as long as the term they belong to."""

    def __init__(self, term: Term) -> None:
        z3 = _z3()
        self.core = z3.z3core
        self.ctx = term.ref.ctx_ref()
        self.app = z3.Z3_APP_AST
        self.numeral = z3.Z3_NUMERAL_AST

    def key(self, node: Any) -> int:
        return int(self.core.Z3_get_ast_id(self.ctx, node))

    def children(self, node: Any) -> list[Any]:
        core, ctx = self.core, self.ctx
        if core.Z3_get_ast_kind(ctx, node) not in (self.app, self.numeral):
            return []
        return [
            core.Z3_get_app_arg(ctx, node, i) for i in range(core.Z3_get_app_num_args(ctx, node))
        ]

    def kind(self, node: Any) -> int | None:
        core, ctx = self.core, self.ctx
        if core.Z3_get_ast_kind(ctx, node) not in (self.app, self.numeral):
            return None
        return int(core.Z3_get_decl_kind(ctx, core.Z3_get_app_decl(ctx, node)))

    def number(self, node: Any) -> int | None:
        """The integer a numeral stands for; ``None`` for any other node."""
        if self.core.Z3_get_ast_kind(self.ctx, node) != self.numeral:
            return None
        return int(self.core.Z3_get_numeral_string(self.ctx, node))

    def parameters(self, node: Any) -> list[int]:
        """The integer parameters of a node's declaration (a cardinality constraint's bound
        ``k``, then its coefficients)."""
        core, ctx = self.core, self.ctx
        decl = core.Z3_get_app_decl(ctx, node)
        return [
            int(core.Z3_get_decl_int_parameter(ctx, decl, i))
            for i in range(core.Z3_get_decl_num_parameters(ctx, decl))
        ]

    def text(self, node: Any) -> str:
        return str(self.core.Z3_ast_to_string(self.ctx, node))


def _expression(op: str | None, node: Any, args: list[str], nodes: _Nodes) -> str:
    """The Python expression of one node whose children are named ``args``."""
    if op in _TEMPLATES:
        return _TEMPLATES[op].format(*args)
    if op in _NARY:
        return "(" + _NARY[op].join(args) + ")"
    if op == "ANUM":
        return str(nodes.number(node))
    if op == "DISTINCT" and len(args) == 2:
        return f"({args[0]} != {args[1]})"
    if op in _COUNTS:
        k, *weights = nodes.parameters(node)
        weights = weights or [1] * len(args)
        total = " + ".join(f"{w} * {a}" for w, a in zip(weights, args, strict=True))
        return f"(({total}) {_COUNTS[op]} {k})"
    if op == "MOD":
        divisor = nodes.number(nodes.children(node)[1])
        if divisor is not None and divisor > 0:
            return f"({args[0]} % {args[1]})"
    raise BindingError(f"cannot evaluate the term {nodes.text(node)} (unknowns must be inputs)")


_INLINE_DEPTH = 40
"""How deep expressions are nested into one line before a part gets a name of its own (the
Python parser refuses more than 200 nested parentheses)."""


def _post_order(
    nodes: _Nodes, root: Any, known: Mapping[int, str]
) -> tuple[list[tuple[Any, int, list[int]]], Counter[int]]:
    """The nodes of a term below ``root`` not in ``known``, each after its children, with
    their children's keys; and how many times each node is an argument of another."""
    order: list[tuple[Any, int, list[int]]] = []
    uses: Counter[int] = Counter()
    seen = set(known)
    stack: list[tuple[Any, int, list[int] | None]] = [(root, nodes.key(root), None)]
    while stack:
        node, key, kids = stack.pop()
        if kids is not None:  # its children are done: the node follows them
            order.append((node, key, kids))
            continue
        if key in seen:
            continue
        seen.add(key)
        children = nodes.children(node)
        keys = [nodes.key(k) for k in children]
        stack.append((node, key, keys))
        for child, c in zip(children, keys, strict=True):
            uses[c] += 1
            if c not in seen:
                stack.append((child, c, None))
    return order, uses


_COMPILED: dict[tuple[int, tuple[int, ...]], tuple[Any, Term, tuple[Term, ...]]] = {}
"""Each term already compiled, by Z3's ids of the term and of its inputs: Z3 makes one node of
equal terms, so bindings that build the same encoding again (for each option set that does
not change it, say) compile it once. The entry holds the terms, which keeps their ids theirs."""


class Compiled:
    """A term as a Python function of its unknowns ``inputs`` (in that order).

    The function's body names each part of the term used more than once (``v12 = …``) and
    writes a part used once into the expression that uses it, so the source is short to
    compile and quick to run.
    """

    def __init__(self, term: Term, inputs: Sequence[Term]) -> None:
        key = (term.ref.get_id(), tuple(t.ref.get_id() for t in inputs))
        known = _COMPILED.get(key)
        if known is None:
            known = _COMPILED[key] = (self._compile(term, inputs), term, tuple(inputs))
        self._f: Callable[[Sequence[int | bool]], int | bool] = known[0]

    @staticmethod
    def _compile(
        term: Term, inputs: Sequence[Term]
    ) -> Callable[[Sequence[int | bool]], int | bool]:
        z3 = _z3()
        nodes = _Nodes(term)
        names: dict[int, str] = {nodes.key(t.ref.as_ast()): f"a[{i}]" for i, t in enumerate(inputs)}
        ops = {getattr(z3, f"Z3_OP_{k}"): k for k in (*_NARY, *_TEMPLATES, *_OTHER, *_COUNTS)}
        root = term.ref.as_ast()
        root_key = nodes.key(root)
        order, uses = _post_order(nodes, root, names)
        depth: dict[int, int] = {}  # how deeply an expression written inline is nested
        lines: list[str] = []
        for node, key, kids in order:
            expression = _expression(
                ops.get(nodes.kind(node)), node, [names[c] for c in kids], nodes
            )
            nested = 1 + max((depth.get(c, 0) for c in kids), default=0)
            if key != root_key and (not kids or (uses[key] == 1 and nested < _INLINE_DEPTH)):
                names[key] = expression
                depth[key] = nested
            else:
                names[key] = f"v{len(lines)}"
                lines.append(f"    {names[key]} = {expression}")
        source = "def f(a):\n" + "\n".join(lines) + f"\n    return {names[root_key]}\n"
        scope: dict[str, Any] = {}
        exec(compile(source, "<viggo-encoding>", "exec"), scope)
        function: Callable[[Sequence[int | bool]], int | bool] = scope["f"]
        return function

    def __call__(self, values: Sequence[int | bool]) -> int | bool:
        """The term's value for these values of the unknowns."""
        return self._f(values)


class Substituted:
    """A large term over unknowns ``inputs``, decided by Z3 once constants replace them."""

    def __init__(self, term: Bool, inputs: Sequence[Term]) -> None:
        self._term = term.ref
        self._inputs = [t.ref for t in inputs]

    def __call__(self, values: Sequence[Term]) -> bool:
        """Whether the term holds when ``values`` (closed terms) replace the unknowns."""
        z3 = _z3()
        if len(values) != len(self._inputs):
            raise BindingError("a value for every unknown is needed")
        closed = z3.simplify(
            z3.substitute(self._term, *zip(self._inputs, (v.ref for v in values), strict=True))
        )
        if z3.is_true(closed):
            return True
        if z3.is_false(closed):
            return False
        raise BindingError(f"the closed term did not simplify to true or false: {closed}")
