"""Which primal values reverse mode caches: a minimum vertex cut.

The reverse sweep needs some forward values (the sinks).  Each is available directly, recomputed
from its operands, or cached.  Caching a value needed only to recompute others may be cheaper
than caching those others (`a` and `b` instead of `a*b`, `a+b` and `sin(a)`), and caching one
value may be cheaper than caching the several operands it is recomputed from.  The cheapest
choice is a minimum cut of the flow network

    S -> in(v)          for each value v that cannot be recomputed (it must come from a cache)
    in(v) -> out(v)     capacity: what caching v costs (bytes, times how often it is pushed)
    out(o) -> in(v)     for each operand o that v is recomputed from
    out(v) -> T         for each value the reverse sweep needs

with infinite capacity except on the `in -> out` edges, so that every cut edge is a value to
cache.  Values available directly are not in the network.  Nodes are (value, context) pairs:
whether a value is available or recomputable depends on where in the reverse sweep it is
needed (the loops being reversed there); the caller defines contexts.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

import networkx as nx
from networkx.algorithms.flow import preflow_push

Node = Hashable
"""A value in a context, as the caller names it."""


def minimum_cache_cut(
    sinks: Iterable[Node],
    inputs: Callable[[Node], Sequence[Node] | None],
    cost: Callable[[Node], int],
) -> set[Node]:
    """The nodes to cache so that every sink is available at least total cost.

    `inputs(n)` says how `n` is obtained without caching it: None when it cannot be recomputed
    (a source), otherwise the nodes it is recomputed from (those available directly left out,
    so an empty list means it is free).  `cost(n)` is the price of caching `n` (positive).
    Among cuts of equal cost the one nearest the sinks is taken: fewer recomputations."""
    graph = nx.DiGraph()
    ids: dict[Node, int] = {}
    order: list[Node] = []
    source, sink = -1, -2

    def node_id(n: Node) -> int:
        if n not in ids:
            ids[n] = len(order)
            order.append(n)
        return ids[n]

    # in(v) = 2k, out(v) = 2k + 1
    work = [n for n in sinks]
    targets = {node_id(n) for n in work}
    seen: set[int] = set()
    free: set[int] = set()
    while work:
        n = work.pop()
        k = node_id(n)
        if k in seen:
            continue
        seen.add(k)
        ins = inputs(n)
        if ins is not None and not ins:
            free.add(k)
            continue
        graph.add_edge(2 * k, 2 * k + 1, capacity=max(1, int(cost(n))))
        if ins is None:
            graph.add_edge(source, 2 * k)
            continue
        for o in ins:
            graph.add_edge(2 * node_id(o) + 1, 2 * k)
            work.append(o)
    for k in targets - free:
        graph.add_edge(2 * k + 1, sink)
    if not graph.has_node(source) or not graph.has_node(sink):
        return set()
    near_sinks = _sink_side(preflow_push(graph, source, sink), sink)
    return {order[k] for k in range(len(order))
            if 2 * k + 1 in near_sinks and 2 * k not in near_sinks and graph.has_edge(2 * k, 2 * k + 1)}  # fmt: skip


def _sink_side(residual: nx.DiGraph, sink: int) -> set[int]:
    """The nodes that can still reach the sink in a maximum flow's residual network: the sink's
    side of the minimum cut nearest the sinks."""
    side = {sink}
    work = [sink]
    while work:
        v = work.pop()
        for u, attrs in residual.pred[v].items():
            if u not in side and attrs["flow"] < attrs["capacity"]:
                side.add(u)
                work.append(u)
    return side
