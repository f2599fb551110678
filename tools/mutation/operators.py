"""The mutation operators: find mutation sites in a module's AST and render each mutant's source.

A mutant is identified by ``module:line:col:operator:index``. ``line``/``col`` are the position of the
mutated node (of the f-string around it, for a piece of an f-string, since the parser places the pieces
differently from one Python version to the next), ``index`` numbers the sites that share module, line,
column and operator in traversal order (``a + b + c`` has two ``arith`` sites at the same position). The
id is stable as long as the module is unchanged, on every Python from 3.10 on, which makes runs
comparable and lets equivalent mutants be listed.

A mutant's source is the original text with the mutated node's span replaced by the unparsed mutated
node, so line numbers, comments and formatting stay as they were. The splice is checked by parsing it and
comparing the tree with the mutated tree; when they differ (a multi-line node collapsed onto one line
inside a construct that needs it, say) the whole mutated module is unparsed instead.

Skip rules and why (see ``SKIPPED`` for the short form):

* type-only code: ``if TYPE_CHECKING:`` blocks, annotations (arguments, returns, ``AnnAssign``,
  ``TypeAlias`` values and ``type`` statements), ``Protocol`` classes, ``@overload`` stubs, the type
  argument of ``cast``, ``TypeVar``/``NewType`` calls and ``Literal[...]``/``Annotated[...]``: none of it
  changes what the code does, so no scenario can notice.
* docstrings and other bare string statements: they are no-ops.
* ``__all__``: it only steers ``import *`` and documentation.
* message strings of logging calls (``logger.warning("...")``) and of ``warnings.warn``: a changed log
  text is not a behaviour the spec can be expected to pin. Removing such a call is still a mutant, since a
  scenario may assert that a warning is given.
* ``__repr__``: a debugging aid, not behaviour.
* ``if __name__ == "__main__":`` blocks and, in ``synapse_ref/repl/app.py``, the interactive loop (a
  ``while`` loop that reads input): the spec drives the REPL through its commands, not through a terminal.
"""

from __future__ import annotations

import ast
import copy
import fnmatch
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

SKIPPED = (
    "if TYPE_CHECKING: blocks",
    "annotations, TypeAlias values, type statements",
    "Protocol classes and @overload stubs",
    "the type argument of cast(), TypeVar() and NewType() calls, Literal[...] and Annotated[...]",
    "docstrings and bare string statements",
    "__all__",
    "message strings of logging calls and warnings.warn",
    "__repr__",
    'if __name__ == "__main__": blocks',
    "the interactive input loop of synapse_ref/repl/app.py",
)

COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}

ARITH_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div,
}

BOOL_SWAPS: dict[type[ast.boolop], type[ast.boolop]] = {ast.And: ast.Or, ast.Or: ast.And}

OP_SYMBOLS: dict[type[ast.AST], str] = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.And: "and",
    ast.Or: "or",
}

OPERATORS = ("compare", "arith", "boolop", "not", "constant", "return-none", "remove-call", "loop", "slice")

LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
TYPE_ONLY_CALLS = frozenset({"TypeVar", "NewType", "ParamSpec", "TypeVarTuple"})
TYPE_ONLY_SUBSCRIPTS = frozenset({"Literal", "Annotated"})
INTERACTIVE_MODULES = ("synapse_ref/repl/app.py",)
INPUT_CALLS = frozenset({"input", "prompt", "readline", "prompt_async"})
STRING_MARK = "XX"

# Nodes whose unparsed text needs parentheses to keep its meaning when spliced into an expression.
_LOOSE = (ast.BinOp, ast.BoolOp, ast.Compare, ast.UnaryOp, ast.IfExp, ast.Lambda, ast.NamedExpr, ast.Await)


@dataclass(frozen=True)
class Mutant:
    """One mutant: where, which operator, and the original and mutated text for people to read."""

    module: str
    line: int
    col: int
    operator: str
    index: int
    description: str
    original: str
    mutated: str
    end_line: int
    stmt_line: int
    import_time: bool = False  # outside any function body: runs when the module is imported
    readers: tuple[int, ...] | None = None
    """For import-time code binding a module-level name that only this module's function bodies read:
    the lines reading it (the scenarios executing them are the ones that can see the value)."""

    @property
    def id(self) -> str:
        return f"{self.module}:{self.line}:{self.col}:{self.operator}:{self.index}"

    @property
    def lines(self) -> range:
        """The source lines whose execution means the mutated code ran."""
        return range(min(self.line, self.stmt_line), self.end_line + 1)


@dataclass
class _Site:
    node: ast.AST
    stmt: ast.stmt
    operator: str
    description: str
    mutate: Callable[[ast.AST], ast.AST]
    span: ast.AST  # the node whose source text is replaced: the site, or the f-string around it
    import_time: bool


class MutationError(Exception):
    """A mutant could not be rendered as valid source."""


# --------------------------------------------------------------------------------------------------------
# Finding sites
# --------------------------------------------------------------------------------------------------------


def _name_of(node: ast.expr) -> str:
    """``x`` for ``x`` and ``a.b.x``; empty for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_type_checking(test: ast.expr) -> bool:
    return _name_of(test) == "TYPE_CHECKING"


def _is_main_guard(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and _name_of(test.left) == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def _is_protocol(node: ast.ClassDef) -> bool:
    for base in node.bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        if _name_of(target) == "Protocol":
            return True
    return False


def _is_log_call(node: ast.Call) -> bool:
    func = node.func
    if not isinstance(func, ast.Attribute):
        return False
    receiver = _name_of(func.value).lower()
    if func.attr == "warn" and receiver == "warnings":
        return True
    return func.attr in LOG_METHODS and ("log" in receiver)


def _reads_input(node: ast.AST) -> bool:
    return any(isinstance(sub, ast.Call) and _name_of(sub.func) in INPUT_CALLS for sub in ast.walk(node))


def _is_docstring_like(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _assigns_all(stmt: ast.stmt) -> bool:
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        targets = [stmt.target]
    return any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)


class _Collector(ast.NodeVisitor):
    """Walks a module in a fixed order and records every mutation site outside the skipped code."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.sites: list[_Site] = []
        self._stmt: list[ast.stmt] = []
        self._log_args = 0
        self._fstrings: list[ast.JoinedStr] = []
        self._function_depth = 0
        self._interactive = any(fnmatch.fnmatch(module, pattern) for pattern in INTERACTIVE_MODULES)

    def _add(
        self, node: ast.AST, operator: str, description: str, mutate: Callable[[ast.AST], ast.AST]
    ) -> None:
        span = self._fstrings[0] if self._fstrings else node
        import_time = self._function_depth == 0
        self.sites.append(_Site(node, self._stmt[-1], operator, description, mutate, span, import_time))

    # statements -----------------------------------------------------------------------------------------

    def visit_body(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            if _is_docstring_like(stmt) or _assigns_all(stmt):
                continue
            self._stmt.append(stmt)
            self.visit(stmt)
            self._stmt.pop()

    def visit_Module(self, node: ast.Module) -> None:
        self.visit_body(node.body)

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test) or _is_main_guard(node.test):
            self.visit_body(node.orelse)
            return
        self.visit(node.test)
        self.visit_body(node.body)
        self.visit_body(node.orelse)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if _is_protocol(node):
            return
        for expr in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(expr)
        self.visit_body(node.body)

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if node.name == "__repr__" or any(_name_of(d) == "overload" for d in node.decorator_list):
            return
        for decorator in node.decorator_list:
            self.visit(decorator)
        args = node.args
        for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
            self.visit(default)
        self._function_depth += 1
        self.visit_body(node.body)
        self._function_depth -= 1

    visit_FunctionDef = _visit_function
    visit_AsyncFunctionDef = _visit_function

    def visit_While(self, node: ast.While) -> None:
        if self._interactive and _reads_input(node):
            return
        self.visit(node.test)
        self.visit_body(node.body)
        self.visit_body(node.orelse)

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.visit(node.target)
        self.visit(node.iter)
        self.visit_body(node.body)
        self.visit_body(node.orelse)

    visit_AsyncFor = visit_For

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self.visit(item)
        self.visit_body(node.body)

    visit_AsyncWith = visit_With

    def visit_Try(self, node: ast.Try) -> None:
        self.visit_body(node.body)
        for handler in node.handlers:
            if handler.type is not None:
                self.visit(handler.type)
            self.visit_body(handler.body)
        self.visit_body(node.orelse)
        self.visit_body(node.finalbody)

    visit_TryStar = visit_Try

    def visit_Match(self, node: ast.Match) -> None:
        self.visit(node.subject)
        for case in node.cases:
            self.visit(case.pattern)
            if case.guard is not None:
                self.visit(case.guard)
            self.visit_body(case.body)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None and _name_of(node.annotation) != "TypeAlias":
            self.visit(node.value)

    def visit_TypeAlias(self, node: ast.AST) -> None:
        return

    def visit_Return(self, node: ast.Return) -> None:
        value = node.value
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            self._add(node, "return-none", "return ... -> return None", _return_none)
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:
        value = node.value.value if isinstance(node.value, ast.Await) else node.value
        if isinstance(value, ast.Call):
            self._add(node, "remove-call", "call statement -> pass", _to_pass)
        self.generic_visit(node)

    def visit_Break(self, node: ast.Break) -> None:
        self._add(node, "loop", "break -> continue", lambda _: ast.Continue())

    def visit_Continue(self, node: ast.Continue) -> None:
        self._add(node, "loop", "continue -> break", lambda _: ast.Break())

    # expressions ----------------------------------------------------------------------------------------

    def visit_Compare(self, node: ast.Compare) -> None:
        for position, op in enumerate(node.ops):
            swap = COMPARE_SWAPS.get(type(op))
            if swap is not None:
                description = f"{OP_SYMBOLS[type(op)]} -> {OP_SYMBOLS[swap]}"
                self._add(node, "compare", description, _swap_compare(position, swap))
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        swap = ARITH_SWAPS.get(type(node.op))
        if swap is not None:
            self._add(node, "arith", f"{OP_SYMBOLS[type(node.op)]} -> {OP_SYMBOLS[swap]}", _swap_op(swap))
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        swap = ARITH_SWAPS.get(type(node.op))
        if swap is not None:
            description = f"{OP_SYMBOLS[type(node.op)]}= -> {OP_SYMBOLS[swap]}="
            self._add(node, "arith", description, _swap_op(swap))
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        swap = BOOL_SWAPS[type(node.op)]
        self._add(node, "boolop", f"{OP_SYMBOLS[type(node.op)]} -> {OP_SYMBOLS[swap]}", _swap_op(swap))
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            self._add(node, "not", "not x -> x", lambda n: n.operand if isinstance(n, ast.UnaryOp) else n)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool):
            self._add(node, "constant", f"{value} -> {not value}", _constant(not value))
        elif isinstance(value, int):
            self._add(node, "constant", f"{value} -> {value + 1}", _constant(value + 1))
        elif isinstance(value, float):
            self._add(node, "constant", f"{value!r} -> {value + 1.0!r}", _constant(value + 1.0))
        elif isinstance(value, str) and value and not self._log_args:
            self._add(
                node, "constant", "string -> XX string XX", _constant(f"{STRING_MARK}{value}{STRING_MARK}")
            )

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        self._fstrings.append(node)
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                self.visit(value.value)
            else:
                self.visit(value)
        self._fstrings.pop()

    def visit_Call(self, node: ast.Call) -> None:
        name = _name_of(node.func)
        if name in TYPE_ONLY_CALLS:
            return
        self.visit(node.func)
        args = node.args[1:] if name == "cast" else node.args
        log = _is_log_call(node)
        self._log_args += log
        for arg in args:
            self.visit(arg)
        for keyword in node.keywords:
            self.visit(keyword)
        self._log_args -= log

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if _name_of(node.value) in TYPE_ONLY_SUBSCRIPTS:
            return
        self.visit(node.value)
        if isinstance(node.slice, ast.Slice):
            for bound in ("lower", "upper"):
                expr = getattr(node.slice, bound)
                if expr is not None and not _is_number(expr):
                    self._add(expr, "slice", f"{bound} bound b -> b + 1", _plus_one)
        self.visit(node.slice)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            self.visit(default)
        self._function_depth += 1
        self.visit(node.body)
        self._function_depth -= 1


def _is_number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))


# --------------------------------------------------------------------------------------------------------
# Mutations (each gets the copy of the site's node and returns its replacement)
# --------------------------------------------------------------------------------------------------------


def _return_none(node: ast.AST) -> ast.AST:
    return ast.Return(value=ast.Constant(value=None))


def _to_pass(node: ast.AST) -> ast.AST:
    return ast.Pass()


def _swap_compare(position: int, swap: type[ast.cmpop]) -> Callable[[ast.AST], ast.AST]:
    def mutate(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        node.ops[position] = swap()
        return node

    return mutate


def _swap_op(swap: type[ast.AST]) -> Callable[[ast.AST], ast.AST]:
    def mutate(node: ast.AST) -> ast.AST:
        assert isinstance(node, (ast.BinOp, ast.AugAssign, ast.BoolOp))
        setattr(node, "op", swap())  # noqa: B010 - the operator kinds differ per node type
        return node

    return mutate


def _constant(value: str | int | float) -> Callable[[ast.AST], ast.AST]:
    def mutate(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Constant)
        node.value = value
        return node

    return mutate


def _plus_one(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.expr)
    return ast.BinOp(left=node, op=ast.Add(), right=ast.Constant(value=1))


# --------------------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------------------


def _line_starts(data: bytes) -> list[int]:
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list):
                for position, item in enumerate(value):
                    if item is old:
                        value[position] = new
                        return
    raise MutationError("mutated node not found in its tree")


def _splice(source: bytes, node: ast.AST, text: str) -> bytes:
    starts = _line_starts(source)
    start = starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
    end = starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
    return source[:start] + text.encode("utf-8") + source[end:]


def _replacement_texts(node: ast.AST, lines: int) -> list[str]:
    """Texts to splice in place of ``node`` when it spanned ``lines`` lines, best first: padded with
    newlines so the lines after it keep their numbers (inside parentheses for an expression, where a
    newline is harmless), then unpadded."""
    text = ast.unparse(node)
    loose = isinstance(node, _LOOSE) or (
        isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and node.value < 0
    )
    plain = f"({text})" if isinstance(node, ast.expr) and loose else text
    if lines <= 1:
        return [plain]
    padding = "\n" * (lines - 1)
    padded = f"({text}{padding})" if isinstance(node, ast.expr) else f"{text}{padding}"
    return [padded, plain]


def _summary(lines: list[str], first: int, last: int, limit: int = 200) -> str:
    text = " ".join(line.strip() for line in lines[first - 1 : last])
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Readers(ast.NodeVisitor):
    """Where module-level names are read: inside function bodies (by line), or at import time (a default
    value, a decorator, a class body, another module-level statement), which disqualifies the name."""

    def __init__(self, names: set[str], definitions: dict[str, ast.stmt]) -> None:
        self.names = names
        self.definitions = definitions
        self.lines: dict[str, set[int]] = {}
        self.disqualified: set[str] = set()
        self._depth = 0
        self._stmt: list[ast.stmt] = []

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt):
            self._stmt.append(node)
            super().visit(node)
            self._stmt.pop()
        else:
            super().visit(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        if not isinstance(node, ast.Lambda):
            for expr in [*node.decorator_list, *([node.returns] if node.returns else [])]:
                self.visit(expr)
        self.visit(node.args)  # defaults and annotations: evaluated when the function is defined
        self._depth += 1
        for child in node.body if isinstance(node.body, list) else [node.body]:
            self.visit(child)
        self._depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Global(self, node: ast.Global) -> None:
        self.disqualified.update(set(node.names) & self.names)

    visit_Nonlocal = visit_Global  # type: ignore[assignment]

    def visit_Name(self, node: ast.Name) -> None:
        if node.id not in self.names:
            return
        if not isinstance(node.ctx, ast.Load):
            if self._stmt and self._stmt[0] is not self.definitions[node.id]:
                self.disqualified.add(node.id)  # bound again elsewhere
        elif self._depth == 0:
            self.disqualified.add(node.id)
        else:
            self.lines.setdefault(node.id, set()).update({self._stmt[-1].lineno, node.lineno})


def _private_readers(tree: ast.Module, elsewhere: str) -> dict[int, tuple[int, ...]]:
    """Module-level statements binding one name that only this module's function bodies read (its name
    appears nowhere in ``elsewhere``, the package's other modules): statement line -> reading lines."""
    definitions: dict[str, ast.stmt] = {}
    twice: set[str] = set()
    for stmt in tree.body:
        name = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value:
            name = stmt.target.id
        if name is not None:
            if name in definitions:
                twice.add(name)
            definitions[name] = stmt
    names = {n for n in definitions if n not in twice and not re.search(rf"\b{re.escape(n)}\b", elsewhere)}
    readers = _Readers(names, definitions)
    readers.visit(tree)
    return {
        definitions[n].lineno: tuple(sorted(readers.lines.get(n, ()))) for n in names - readers.disqualified
    }


class ModuleMutator:
    """The mutation sites of one module and the rendering of each mutant's source.

    ``elsewhere`` is the text of the package's other modules: a module-level name it never mentions is
    read only here, so the scenarios that can tell a mutant of its value are those running the lines
    that read it (``Mutant.readers``), not every scenario importing the module."""

    def __init__(self, module: str, source: str, elsewhere: str | None = None) -> None:
        self.module = module
        self.source = source
        self.tree = ast.parse(source)
        collector = _Collector(module)
        collector.visit(self.tree)
        self._sites = collector.sites
        readers = _private_readers(self.tree, elsewhere) if elsewhere is not None else {}
        top_level = {id(stmt) for stmt in self.tree.body}
        self.mutants: list[Mutant] = []
        self._by_id: dict[str, _Site] = {}
        seen: dict[tuple[int, int, str], int] = {}
        lines = source.splitlines()
        for site in self._sites:
            # Inside an f-string the f-string's position is used: the parser places the pieces differently
            # from one Python version to the next.
            line, col = site.span.lineno, site.span.col_offset  # type: ignore[attr-defined]
            end_line = site.span.end_lineno or line  # type: ignore[attr-defined]
            index = seen.get((line, col, site.operator), 0)
            seen[(line, col, site.operator)] = index + 1
            mutant = Mutant(
                module=module,
                line=line,
                col=col,
                operator=site.operator,
                index=index,
                description=site.description,
                original=_summary(lines, line, end_line),
                mutated="",
                end_line=end_line,
                stmt_line=site.stmt.lineno,
                import_time=site.import_time,
                readers=readers.get(site.stmt.lineno) if id(site.stmt) in top_level else None,
            )
            self._by_id[mutant.id] = site
            self.mutants.append(mutant)

    def render(self, mutant: Mutant) -> tuple[str, Mutant]:
        """The mutated module source and the mutant with its mutated line filled in."""
        site = self._by_id.get(mutant.id)
        if site is None:
            raise MutationError(f"{mutant.id}: no such mutation site")
        memo: dict[int, object] = {}
        tree = copy.deepcopy(self.tree, memo)
        target = memo[id(site.node)]
        assert isinstance(target, ast.AST)
        replacement = site.mutate(target)
        if replacement is not target:
            _replace(tree, target, replacement)
        ast.fix_missing_locations(tree)
        expected = ast.dump(tree)
        span = replacement if site.span is site.node else memo[id(site.span)]
        assert isinstance(span, ast.AST)
        spliced = ""
        first = site.span.lineno  # type: ignore[attr-defined]
        count = site.span.end_lineno - first + 1  # type: ignore[attr-defined]
        for candidate in _replacement_texts(span, count):
            spliced = _splice(self.source.encode("utf-8"), site.span, candidate).decode("utf-8")
            try:
                if ast.dump(ast.parse(spliced)) == expected:
                    break
            except SyntaxError:
                pass
        else:
            spliced = ""
        text = spliced or ast.unparse(tree)
        if not spliced and ast.dump(ast.parse(text)) != expected:
            raise MutationError(f"{mutant.id}: the mutated module cannot be rendered faithfully")
        shown = " ".join(line.strip() for line in spliced.splitlines()[first - 1 : first - 1 + count])
        mutated_line = shown.strip() if spliced else ast.unparse(span)
        return text, _with_mutated(mutant, mutated_line)


def _with_mutated(mutant: Mutant, mutated: str) -> Mutant:
    return Mutant(**{**mutant.__dict__, "mutated": mutated[:200]})


def mutants_of(module: str, source: str) -> list[Mutant]:
    """Every mutant of one module, in a fixed order."""
    return ModuleMutator(module, source).mutants


def iter_rendered(module: str, source: str) -> Iterator[tuple[str, Mutant]]:
    """Every mutant of one module with its mutated source (mainly for tests and ``--list``)."""
    mutator = ModuleMutator(module, source)
    for mutant in mutator.mutants:
        yield mutator.render(mutant)
