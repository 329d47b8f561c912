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


def test_random_networks_agree_with_networkx() -> None:
    """The cut is the minimum nearest the sinks, whatever maximum flow finds it: compared with
    networkx's maximum flow and its residual network on random recomputation graphs."""
    import random

    import networkx as nx
    from networkx.algorithms.flow import preflow_push

    rnd = random.Random(7)
    for trial in range(300):
        n = rnd.randint(1, 30)
        graph: dict[int, list[int] | None] = {}
        for v in range(n):
            r = rnd.random()
            if r < 0.3 or v == 0:
                graph[v] = None  # a source
            elif r < 0.4:
                graph[v] = []  # free
            else:
                graph[v] = rnd.sample(range(v), rnd.randint(1, min(v, 3)))  # from earlier values
        sinks = rnd.sample(range(n), rnd.randint(1, n))
        costs = {v: rnd.choice([1, 4, 8, 8, 16, 64]) for v in range(n)}
        mine = minimum_cache_cut(sinks, graph.__getitem__, costs.__getitem__)
        # the same network for networkx: in(v) = 2v, out(v) = 2v + 1
        g = nx.DiGraph()
        reached: set[int] = set()
        work = list(sinks)
        free = set()
        while work:
            v = work.pop()
            if v in reached:
                continue
            reached.add(v)
            if graph[v] == []:
                free.add(v)
                continue
            g.add_edge(2 * v, 2 * v + 1, capacity=costs[v])
            if graph[v] is None:
                g.add_edge("s", 2 * v)
            else:
                for o in graph[v]:
                    g.add_edge(2 * o + 1, 2 * v)
                    work.append(o)
        for v in set(sinks) - free:
            g.add_edge(2 * v + 1, "t")
        if "s" not in g or "t" not in g:
            assert mine == set(), trial
            continue
        residual = preflow_push(g, "s", "t")
        side, stack = {"t"}, ["t"]
        while stack:
            x = stack.pop()
            for u, attrs in residual.pred[x].items():
                if u not in side and attrs["flow"] < attrs["capacity"]:
                    side.add(u)
                    stack.append(u)
        expected = {v for v in reached if g.has_edge(2 * v, 2 * v + 1) and 2 * v + 1 in side and 2 * v not in side}
        assert mine == expected, trial
        assert sum(costs[v] for v in mine) == residual.graph["flow_value"], trial
