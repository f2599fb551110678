"""The mutation operators, their skip rules, the mutant ids and the equivalent-mutant matching.

Quick: nothing here runs the spec.
"""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

import pytest

from tools.mutation.__main__ import (
    classify_free_wording,
    discover,
    main,
    score,
    select,
    stale_equivalents,
    table,
)
from tools.mutation.equivalents import (
    Equivalent,
    EquivalentsError,
    load_equivalents,
    load_free_wording,
    load_scope,
    match_equivalents,
)
from tools.mutation.operators import ModuleMutator, Mutant, mutants_of
from tools.mutation.runner import FREE_WORDING, KILLED, NOT_COVERED, SURVIVED, CoverageMap, Outcome

MODULE = "synapse_ref/example.py"


def mutate_all(source: str, module: str = MODULE) -> list[tuple[Mutant, str]]:
    """Every mutant of ``source`` with the mutated line (``source`` is dedented)."""
    mutator = ModuleMutator(module, textwrap.dedent(source))
    rendered = [mutator.render(m) for m in mutator.mutants]
    return [(mutant, text) for text, mutant in rendered]


def mutated_lines(source: str, operator: str | None = None) -> list[str]:
    return [m.mutated for m, _ in mutate_all(source) if operator is None or m.operator == operator]


# --------------------------------------------------------------------------------------------------------
# Operators
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        ("x = a < b", "x = (a <= b)"),
        ("x = a <= b", "x = (a < b)"),
        ("x = a > b", "x = (a >= b)"),
        ("x = a >= b", "x = (a > b)"),
        ("x = a == b", "x = (a != b)"),
        ("x = a != b", "x = (a == b)"),
        ("x = a in b", "x = (a not in b)"),
        ("x = a not in b", "x = (a in b)"),
        ("x = a is b", "x = (a is not b)"),
        ("x = a is not b", "x = (a is b)"),
    ],
)
def test_comparisons_are_swapped(original: str, expected: str) -> None:
    assert mutated_lines(original, "compare") == [expected]


def test_each_operator_of_a_chained_comparison_is_its_own_mutant() -> None:
    assert mutated_lines("ok = 0 <= n < 10", "compare") == ["ok = (0 < n < 10)", "ok = (0 <= n <= 10)"]


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        ("x = a + b", "x = (a - b)"),
        ("x = a - b", "x = (a + b)"),
        ("x = a * b", "x = (a / b)"),
        ("x = a / b", "x = (a * b)"),
        ("x = a // b", "x = (a / b)"),
        ("x += b", "x -= b"),
    ],
)
def test_arithmetic_is_swapped(original: str, expected: str) -> None:
    assert mutated_lines(original, "arith") == [expected]


def test_boolean_operators_are_swapped_and_not_is_dropped() -> None:
    assert mutated_lines("x = a and b", "boolop") == ["x = (a or b)"]
    assert mutated_lines("x = a or b", "boolop") == ["x = (a and b)"]
    assert mutated_lines("if not ready:\n    go()", "not") == ["if ready:"]


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        ("x = 3", "x = 4"),
        ("x = 0", "x = 1"),
        ("x = 0.5", "x = 1.5"),
        ("x = True", "x = False"),
        ("x = False", "x = True"),
        ("x = 'abc'", "x = 'XXabcXX'"),
        ("x = -1", "x = -2"),
    ],
)
def test_constants_are_changed(original: str, expected: str) -> None:
    assert mutated_lines(original, "constant") == [expected]


def test_empty_strings_none_and_bytes_are_left_alone() -> None:
    assert mutated_lines("x = ('', None, b'raw', ...)", "constant") == []


def test_f_string_pieces_are_mutated() -> None:
    mutants = mutate_all('x = f"total: {n + 1}"')
    by_operator = {m.description: (m, text) for m, text in mutants}
    mutant, text = by_operator["string -> XX string XX"]
    namespace: dict[str, object] = {"n": 1}
    exec(compile(text, "<mutant>", "exec"), namespace)
    assert namespace["x"] == "XXtotal: XX2"
    assert "f'" in mutant.mutated or 'f"' in mutant.mutated
    _, arith_text = by_operator["+ -> -"]
    arith_namespace: dict[str, object] = {"n": 1}
    exec(compile(arith_text, "<mutant>", "exec"), arith_namespace)
    assert arith_namespace["x"] == "total: 0"


def test_return_value_becomes_none() -> None:
    source = """
    def f(x):
        return x + 1
    def g():
        return
    def h():
        return None
    """
    assert mutated_lines(source, "return-none") == ["return None"]


def test_call_statements_are_removed_but_assigned_calls_are_not() -> None:
    source = """
    async def f(items):
        items.append(1)
        await flush(items)
        y = compute()
    """
    assert mutated_lines(source, "remove-call") == ["pass", "pass"]


def test_break_and_continue_are_swapped() -> None:
    source = """
    for x in xs:
        if x:
            break
        continue
    """
    assert mutated_lines(source, "loop") == ["continue", "break"]


def test_non_constant_slice_bounds_are_moved_by_one() -> None:
    assert mutated_lines("y = xs[start:end]", "slice") == [
        "y = xs[(start + 1):end]",
        "y = xs[start:(end + 1)]",
    ]
    assert mutated_lines("y = xs[1:]", "slice") == []
    assert mutated_lines("y = xs[1:]", "constant") == ["y = xs[2:]"]


# --------------------------------------------------------------------------------------------------------
# Skip rules
# --------------------------------------------------------------------------------------------------------


def test_docstrings_annotations_and_all_are_skipped() -> None:
    source = '''
    """Module docstring."""
    from typing import Literal
    __all__ = ["f"]
    Mode = Literal["a", "b"]
    LIMIT: "int" = 5
    def f(x: "Annotated" = 2) -> "str":
        """Function docstring."""
        "a bare string"
        return x
    '''
    descriptions = sorted((m.operator, m.description) for m, _ in mutate_all(source))
    assert descriptions == [
        ("constant", "2 -> 3"),
        ("constant", "5 -> 6"),
        ("return-none", "return ... -> return None"),
    ]


def test_type_only_code_is_skipped() -> None:
    source = """
    from typing import TYPE_CHECKING, Protocol, TypeVar, cast, overload
    if TYPE_CHECKING:
        X = 1
    else:
        X = 2
    T = TypeVar("T", bound="Base")
    class Port(Protocol):
        def size(self) -> int:
            return 1
    @overload
    def g(x: int) -> int:
        return 5
    y = cast("list[int]", values)
    """
    assert mutated_lines(source) == ["X = 3"]


def test_log_message_strings_are_skipped_but_the_log_call_can_be_removed() -> None:
    source = """
    logger.warning("offload failed for %s", name)
    log.info(f"size {n}")
    warnings.warn("deprecated", DeprecationWarning)
    """
    mutants = [m for m, _ in mutate_all(source)]
    assert {m.operator for m in mutants} == {"remove-call"}
    assert len(mutants) == 3


def test_repr_and_main_guard_are_skipped() -> None:
    source = """
    class A:
        def __repr__(self):
            return "A(1)"
    if __name__ == "__main__":
        main(1)
    """
    assert mutated_lines(source) == []


def test_the_interactive_loop_of_the_repl_app_is_skipped() -> None:
    source = textwrap.dedent(
        """
        def main():
            while True:
                line = input("> ")
                if line == "/exit":
                    break
            return 0
        """
    )
    repl = [m.operator for m in mutants_of("synapse_ref/repl/app.py", source)]
    other = [m.operator for m in mutants_of("synapse_ref/repl/commands.py", source)]
    assert repl == ["return-none", "constant"]
    assert len(other) > len(repl)


# --------------------------------------------------------------------------------------------------------
# Ids and rendering
# --------------------------------------------------------------------------------------------------------


SAMPLE = '''
"""A sample module."""

def total(values, limit=10):
    result = 0  # running sum
    for v in values:
        if v > limit and not v % 2 == 0:
            continue
        result += v * 2
    return result + 1 + 0
'''


def test_ids_are_unique_and_stable() -> None:
    first = [m.id for m in mutants_of(MODULE, SAMPLE)]
    second = [m.id for m in mutants_of(MODULE, SAMPLE)]
    assert first == second
    assert len(set(first)) == len(first)
    assert f"{MODULE}:10:11:arith:0" in first
    assert f"{MODULE}:10:11:arith:1" in first  # `result + 1` inside `result + 1 + 0` starts at the same place


def test_rendering_keeps_lines_and_comments_and_changes_one_thing() -> None:
    for mutant, text in mutate_all(SAMPLE):
        assert len(text.splitlines()) == len(SAMPLE.splitlines()), mutant.id
        assert "# running sum" in text
        assert ast.dump(ast.parse(text)) != ast.dump(ast.parse(SAMPLE)), mutant.id
        changed = [
            n for n, (a, b) in enumerate(zip(SAMPLE.splitlines(), text.splitlines(), strict=True)) if a != b
        ]
        assert changed == [mutant.line - 1], mutant.id


def test_multi_line_nodes_are_spliced_into_valid_source() -> None:
    source = """
    x = call(
        a,
        b,
    ) + (
        c
    )
    """
    for mutant, text in mutate_all(source):
        compile(text, mutant.id, "exec")


def test_mutant_lines_reach_from_the_statement_to_the_end_of_the_node() -> None:
    source = """
    value = compute(
        first,
        second == 3,
    )
    """
    compare = next(m for m, _ in mutate_all(source) if m.operator == "compare")
    assert (compare.line, compare.stmt_line, list(compare.lines)) == (4, 2, [2, 3, 4])


def test_import_time_code_is_told_apart_from_function_bodies() -> None:
    source = """
    LIMIT = 3
    @decorate(1)
    def f(x=4):
        return x + 5
    class A:
        size = 6
        def g(self):
            return lambda y=7: y + 8
    """
    flags = {m.description: m.import_time for m, _ in mutate_all(source) if m.operator == "constant"}
    assert flags == {
        "3 -> 4": True,
        "1 -> 2": True,
        "4 -> 5": True,
        "5 -> 6": False,
        "6 -> 7": True,
        "7 -> 8": False,
        "8 -> 9": False,
    }


def test_import_time_mutants_run_the_scenarios_of_their_module() -> None:
    source = "LIMIT = 3\n\n\ndef f():\n    return LIMIT\n"
    constant = next(m for m, _ in mutate_all(source) if m.operator == "constant")
    first_importer = "features/a.py::test_imports_it"
    cover = CoverageMap(
        lines={MODULE: {1: {first_importer}, 5: {first_importer, "features/a.py::test_other"}}},
        module_tests={MODULE: {first_importer, "features/a.py::test_other"}},
        all_tests=[first_importer, "features/a.py::test_other", "features/b.py::test_elsewhere"],
    )
    assert cover.targets(constant) == sorted(cover.module_tests[MODULE])
    cover.import_time_scope = "all"
    assert cover.targets(constant) == sorted(cover.all_tests)
    assert CoverageMap().targets(constant) is None


def test_a_value_only_this_module_reads_runs_the_scenarios_reading_it() -> None:
    source = textwrap.dedent(
        """\
        LIMIT = 3
        SHARED = 4
        DEFAULT = 5
        UNUSED = 6
        AGAIN = 7


        def f(x=DEFAULT):
            if x > LIMIT:
                return SHARED
            return x


        def g():
            global AGAIN
            AGAIN = 8
            return AGAIN
        """
    )
    mutator = ModuleMutator(MODULE, source, elsewhere="from synapse_ref.example import SHARED")
    readers = {m.original: m.readers for m in mutator.mutants if m.operator == "constant" and m.line <= 5}
    # LIMIT is read on line 9 only; SHARED is imported elsewhere, DEFAULT read while f is defined and
    # AGAIN bound again in g, so those keep the scenarios of the whole module; UNUSED is read nowhere.
    assert readers == {
        "LIMIT = 3": (9,),
        "SHARED = 4": None,
        "DEFAULT = 5": None,
        "UNUSED = 6": (),
        "AGAIN = 7": None,
    }
    assert all(m.readers is None for m in ModuleMutator(MODULE, source).mutants)
    by_text = {m.original: m for m in mutator.mutants if m.operator == "constant"}
    reading, other = "features/a.py::test_reads", "features/a.py::test_other"
    cover = CoverageMap(
        lines={MODULE: {1: {""}, 9: {reading}, 10: {other}, 11: {other}}},
        module_tests={MODULE: {reading, other}},
    )
    assert cover.selection(by_text["LIMIT = 3"]) == {reading}
    assert cover.selection(by_text["UNUSED = 6"]) is None
    assert cover.selection(by_text["SHARED = 4"]) == set()  # import time: the module's scenarios
    assert cover.targets(by_text["SHARED = 4"]) == [other, reading]
    only_at_import = CoverageMap(lines={MODULE: {1: {""}, 9: {""}}})
    assert only_at_import.selection(by_text["LIMIT = 3"]) == set()


def test_non_ascii_source_is_spliced_at_the_right_place() -> None:
    mutated = mutated_lines('msg = "无需压缩" if n > 0 else "压缩"', "compare")
    assert mutated == ['msg = "无需压缩" if (n >= 0) else "压缩"']


# --------------------------------------------------------------------------------------------------------
# Equivalents, coverage selection, sampling and scoring
# --------------------------------------------------------------------------------------------------------


def test_equivalents_match_on_text_and_prefer_the_nearest_line(tmp_path: Path) -> None:
    source = "a = 1\nb = 2\na = 1\n"
    mutants = [m for m, _ in mutate_all(source)]
    path = tmp_path / "equivalent.toml"
    path.write_text(
        '[[mutant]]\nmodule = "synapse_ref/example.py"\nline = 3\noperator = "constant"\n'
        'original = "a = 1"\nmutant = "a = 2"\nreason = "a is never read"\n'
        '[[mutant]]\nmodule = "synapse_ref/example.py"\nline = 9\noperator = "constant"\n'
        'original = "c = 1"\nmutant = "c = 2"\nreason = "gone"\n',
        encoding="utf-8",
    )
    entries = load_equivalents(path)
    matched, stale = match_equivalents(mutants, entries)
    assert matched == {f"{MODULE}:3:4:constant:0"}
    assert stale == [Equivalent(MODULE, 9, "constant", "c = 1", "c = 2", "gone")]


def test_stale_equivalents_are_judged_against_rendered_mutants(tmp_path: Path) -> None:
    mutators = {MODULE: ModuleMutator(MODULE, "a = 1\n")}
    path = tmp_path / "equivalent.toml"
    entry = '[[mutant]]\nmodule = "{m}"\nline = 1\noperator = "constant"\noriginal = "a = 1"\n'
    entry += 'mutant = "{t}"\nreason = "r"\n'
    path.write_text(entry.format(m=MODULE, t="a = 2") + entry.format(m=MODULE, t="a = 3"), encoding="utf-8")
    assert [e.mutant for e in stale_equivalents(mutators, load_equivalents(path))] == ["a = 3"]


def test_equivalents_load_from_every_file_of_a_directory(tmp_path: Path) -> None:
    entry = 'module = "{m}"\nline = 1\noperator = "constant"\noriginal = "a"\nmutant = "b"\nreason = "r"\n'
    (tmp_path / "context.toml").write_text("[[mutant]]\n" + entry.format(m="x/c.py"), encoding="utf-8")
    (tmp_path / "session.toml").write_text("[[mutant]]\n" + entry.format(m="x/s.py"), encoding="utf-8")
    (tmp_path / "README.md").write_text("not toml [[", encoding="utf-8")
    assert [e.module for e in load_equivalents(tmp_path)] == ["x/c.py", "x/s.py"]


def test_out_of_scope_modules_are_left_out_unless_named(tmp_path: Path) -> None:
    for name in ("a.py", "repl/app.py", "repl/commands.py"):
        (tmp_path / "synapse_ref" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "synapse_ref" / name).write_text("x = 1\n", encoding="utf-8")
    scope = tmp_path / "scope.toml"
    scope.write_text('[[excluded]]\nmodule = "synapse_ref/repl/app.py"\nreason = "the loop"\n', "utf-8")
    excluded = [e.module for e in load_scope(scope)]
    assert discover(tmp_path, None, excluded) == (
        ["synapse_ref/a.py", "synapse_ref/repl/commands.py"],
        ["synapse_ref/repl/app.py"],
    )
    assert discover(tmp_path, ["synapse_ref/repl/*"], excluded) == (
        ["synapse_ref/repl/commands.py"],
        ["synapse_ref/repl/app.py"],
    )
    assert discover(tmp_path, ["synapse_ref/repl/app.py"], excluded) == (["synapse_ref/repl/app.py"], [])
    scope.write_text('[[excluded]]\nmodule = "synapse_ref/a.py"\n', "utf-8")
    with pytest.raises(EquivalentsError, match="needs a module and a reason"):
        load_scope(scope)


def test_coverage_selection_distinguishes_scenarios_import_time_and_uncovered_lines() -> None:
    source = "def f(x):\n    return x + 1\n\n\ndef g():\n    return 2\n"
    mutants = {m.line: m for m, _ in mutate_all(source) if m.operator == "return-none"}
    cover = CoverageMap(
        lines={MODULE: {1: {""}, 2: {"features/a.py::test_one"}}}, tests=["features/a.py::test_one"]
    )
    assert cover.selection(mutants[2]) == {"features/a.py::test_one"}
    assert cover.selection(mutants[6]) is None
    constant = next(m for m, _ in mutate_all("X = 1\n"))
    assert CoverageMap(lines={MODULE: {1: {""}}}).selection(constant) == set()


def test_sampling_is_deterministic_and_keeps_the_order() -> None:
    mutants = mutants_of(MODULE, SAMPLE)
    first = select(mutants, 5, seed=3)
    assert first == select(mutants, 5, seed=3)
    assert [m.id for m in first] == [m.id for m in mutants if m in first]
    assert len(first) == 5


def test_score_counts_not_covered_as_survivors() -> None:
    mutants = mutants_of(MODULE, SAMPLE)[:3]
    outcomes = [Outcome(mutants[0], KILLED), Outcome(mutants[1], SURVIVED), Outcome(mutants[2], NOT_COVERED)]
    assert score(outcomes) == (1, 3)
    assert table(outcomes)[-1].split()[-1] == "33.3%"


WORDED = """\
def check(name, limit):
    if len(name) > limit:
        raise ValueError(f"name {name!r} is longer than {limit}")
    return name
"""


def _free_wording(tmp_path: Path, *texts: str) -> Path:
    path = tmp_path / "free_wording.toml"
    path.write_text(
        "".join(
            f'[[message]]\nmodule = "{MODULE}"\ntext = "{t}"\nreason = "no source words it"\n' for t in texts
        ),
        encoding="utf-8",
    )
    return path


def test_only_surviving_string_mutants_of_a_listed_message_are_free_wording(tmp_path: Path) -> None:
    mutants = [m for m, _ in mutate_all(WORDED)]
    strings = [m for m in mutants if m.description == "string -> XX string XX"]
    bound = next(m for m in mutants if m.operator == "compare")
    assert len(strings) == 2  # the two constant pieces of the f-string
    outcomes = [Outcome(strings[0], SURVIVED), Outcome(strings[1], NOT_COVERED), Outcome(bound, SURVIVED)]
    warnings = classify_free_wording(outcomes, load_free_wording(_free_wording(tmp_path, "is longer than")))
    assert [o.status for o in outcomes] == [FREE_WORDING, NOT_COVERED, SURVIVED]
    assert warnings == []
    assert score(outcomes) == (0, 2)
    assert score(outcomes, strict=True) == (0, 3)
    assert table(outcomes)[-1].split()[-2:] == ["1", "0.0%"]


def test_a_killed_or_unmatched_free_wording_entry_is_reported(tmp_path: Path) -> None:
    strings = [m for m, _ in mutate_all(WORDED) if m.description == "string -> XX string XX"]
    outcomes = [Outcome(strings[0], KILLED), Outcome(strings[1], SURVIVED)]
    entries = load_free_wording(_free_wording(tmp_path, "is longer than", "no such message"))
    warnings = classify_free_wording(outcomes, entries)
    assert [o.status for o in outcomes] == [KILLED, FREE_WORDING]
    assert any("was killed" in w and strings[0].id in w for w in warnings)
    assert any("no such message" in w and "stale" in w for w in warnings)
    assert score(outcomes) == (1, 1)


def test_free_wording_entries_need_every_field(tmp_path: Path) -> None:
    path = tmp_path / "free_wording.toml"
    path.write_text(f'[[message]]\nmodule = "{MODULE}"\ntext = "x"\n', encoding="utf-8")
    with pytest.raises(EquivalentsError, match="needs a module, a text and a reason"):
        load_free_wording(path)


def test_rescore_applies_the_current_entries_to_an_earlier_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    strings = [m for m, _ in mutate_all(WORDED) if m.description == "string -> XX string XX"]
    bound = next(m for m, _ in mutate_all(WORDED) if m.operator == "compare")
    fields = ("module", "line", "col", "operator", "index", "description", "original", "mutated")
    run = tmp_path / "run.json"
    run.write_text(
        json.dumps(
            {
                "timings": {"total": 12.0},
                "mutants": [
                    {**{f: getattr(m, f) for f in fields}, "status": status}
                    for m, status in ((strings[0], SURVIVED), (strings[1], SURVIVED), (bound, KILLED))
                ],
            }
        ),
        encoding="utf-8",
    )
    (tmp_path / "synapse_ref").mkdir()
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "again.json"
    code = main(
        [
            "--rescore",
            str(run),
            "--free-wording",
            str(_free_wording(tmp_path, "is longer than")),
            "--equivalent",
            str(tmp_path / "none"),
            "--scope",
            str(tmp_path / "none.toml"),
            "--json",
            str(out),
            "--min-score",
            "100",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    assert "strict score: 33.3% (1/3, the 2 free-wording mutants counted as survivors)" in printed
    assert printed.rstrip().endswith("mutation score: 100.0% (1/1 non-equivalent mutants killed)")
    again = json.loads(out.read_text(encoding="utf-8"))
    assert (again["score"], again["strict_score"], again["free_wording"]) == (100.0, 33.33, 2)
    assert main(["--rescore", str(run), "--json", str(run)]) == 2
