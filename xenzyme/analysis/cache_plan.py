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

The maximum flow is Dinic's algorithm (shortest augmenting paths, phase by phase), written
here rather than taken from networkx, whose import alone costs a tenth of compiling a small
program.  Which cut it finds does not depend on the algorithm: the nodes that can still reach
the sink in the residual network of a maximum flow are the same for every maximum flow.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence

Node = Hashable
"""A value in a context, as the caller names it."""

LOOP_WEIGHT = 16
"""How many times more often a cache inside a loop is pushed than one outside it (a guess)."""


def cache_cost(size: int, loop_depth: int) -> int:
    """What caching a value of `size` bytes costs when it is stored once per iteration of
    `loop_depth` loops: the one cost model of both levels (llvm caches and structured cache
    memrefs), so that both cut the same program the same way."""
    return size * LOOP_WEIGHT**loop_depth


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
    ids: dict[Node, int] = {}
    order: list[Node] = []

    def node_id(n: Node) -> int:
        if n not in ids:
            ids[n] = len(order)
            order.append(n)
        return ids[n]

    # in(v) = 2k, out(v) = 2k + 1; the source and the sink are numbered once all nodes are.
    SOURCE, SINK = -1, -2
    edges: list[tuple[int, int, int | None]] = []  # (from, to, capacity or None: infinite)
    cut_edges: set[int] = set()
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
        edges.append((2 * k, 2 * k + 1, max(1, int(cost(n)))))
        cut_edges.add(k)
        if ins is None:
            edges.append((SOURCE, 2 * k, None))
            continue
        for o in ins:
            edges.append((2 * node_id(o) + 1, 2 * k, None))
            work.append(o)
    edges += [(2 * k + 1, SINK, None) for k in targets - free]
    if not any(u == SOURCE for u, _, _ in edges) or not any(v == SINK for _, v, _ in edges):
        return set()
    source, sink = 2 * len(order), 2 * len(order) + 1
    net = _Network(2 * len(order) + 2)
    for u, v, c in edges:
        net.add(source if u == SOURCE else u, sink if v == SINK else v, c)
    net.max_flow(source, sink)
    near_sinks = net.reaching(sink)
    return {order[k] for k in cut_edges if 2 * k + 1 in near_sinks and 2 * k not in near_sinks}


class _Network:
    """A flow network as residual edges: edge `e` and its reverse `e ^ 1` are stored side by
    side, each with the capacity left on it."""

    def __init__(self, nodes: int):
        self.out: list[list[int]] = [[] for _ in range(nodes)]
        self.to: list[int] = []
        self.left: list[int] = []
        self.infinite: list[int] = []
        """The edges without a capacity: given one above every finite cut once all are known."""

    def add(self, u: int, v: int, capacity: int | None) -> None:
        self.out[u].append(len(self.to))
        self.to.append(v)
        self.left.append(capacity or 0)
        self.out[v].append(len(self.to))
        self.to.append(u)
        self.left.append(0)
        if capacity is None:
            self.infinite.append(len(self.to) - 2)

    def max_flow(self, s: int, t: int) -> None:
        """Push a maximum flow from `s` to `t` (Dinic): phases of shortest augmenting paths."""
        big = sum(self.left) + 1
        for e in self.infinite:
            self.left[e] = big
        out, to, left = self.out, self.to, self.left
        while True:
            level = [-1] * len(out)
            level[s] = 0
            queue = deque([s])
            while queue:
                u = queue.popleft()
                for e in out[u]:
                    if left[e] > 0 and level[to[e]] < 0:
                        level[to[e]] = level[u] + 1
                        queue.append(to[e])
            if level[t] < 0:
                return
            nxt = [0] * len(out)  # the next edge to try at each node in this phase
            path: list[int] = []
            u = s
            while True:
                if u == t:
                    pushed = min(left[e] for e in path)
                    for e in path:
                        left[e] -= pushed
                        left[e ^ 1] += pushed
                    path.clear()
                    u = s
                    continue
                edges = out[u]
                while nxt[u] < len(edges):
                    e = edges[nxt[u]]
                    if left[e] > 0 and level[to[e]] == level[u] + 1:
                        break
                    nxt[u] += 1
                if nxt[u] < len(edges):
                    path.append(edges[nxt[u]])
                    u = to[path[-1]]
                    continue
                if u == s:
                    break  # no augmenting path is left in this phase
                level[u] = -1  # a dead end: never entered again in this phase
                u = to[path.pop() ^ 1]
                nxt[u] += 1

    def reaching(self, t: int) -> set[int]:
        """The nodes that can still reach `t` through edges with capacity left: the sink's side
        of the minimum cut nearest the sink."""
        side = {t}
        work = [t]
        while work:
            v = work.pop()
            for e in self.out[v]:
                u = self.to[e]
                if u not in side and self.left[e ^ 1] > 0:  # the edge u -> v has capacity left
                    side.add(u)
                    work.append(u)
        return side
