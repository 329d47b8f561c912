"""The minimum cut that chooses reverse mode's caches (xenzyme/analysis/cache_plan.py), on small
abstract graphs: which nodes it caches for given sources, recomputations and costs."""

from __future__ import annotations

from xenzyme.analysis.cache_plan import minimum_cache_cut


def cut(sinks, graph, cost=None):
    """graph: node -> None (a source), [] (free) or the nodes it is recomputed from."""
    return minimum_cache_cut(sinks, lambda n: graph[n], cost or (lambda n: 8))


def test_operands_instead_of_results() -> None:
    # a, b: loads of overwritten memory; four results recomputable from them.
    g = {"a": None, "b": None, "sin": ["a"], "cos": ["a"], "mul": ["a", "b"], "add": ["a", "b"]}
    assert cut(["sin", "cos", "mul", "add"], g) == {"a", "b"}


def test_one_result_instead_of_two_operands() -> None:
    g = {"x": None, "y": None, "s": ["x", "y"]}
    assert cut(["s"], g) == {"s"}


def test_ties_go_to_the_sinks() -> None:
    # Caching s or its one source costs the same: s is cached (nothing to recompute).
    g = {"x": None, "s": ["x"]}
    assert cut(["s"], g) == {"s"}


def test_free_values_are_not_cached() -> None:
    # n is available directly; q needs only n; p1 and p2 both need the source k.
    g = {"n": [], "k": None, "p1": ["n", "k"], "p2": ["k", "n"], "q": ["n"]}
    assert cut(["p1", "p2", "q"], g) == {"k"}


def test_costs_weigh_loop_depth() -> None:
    # `inner` is pushed in an inner loop (expensive); caching its two outer sources is cheaper.
    g = {"u": None, "v": None, "inner": ["u", "v"]}
    costs = {"u": 8, "v": 8, "inner": 128}
    assert cut(["inner"], g, costs.__getitem__) == {"u", "v"}


def test_nothing_needed() -> None:
    assert cut([], {}) == set()
    assert cut(["c"], {"c": []}) == set()
