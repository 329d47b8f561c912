"""Dominators (xenzyme/analysis/cfg.py): Cooper, Harvey and Kennedy's algorithm, compared with
networkx's on random control-flow graphs, reducible or not."""

from __future__ import annotations

import random

import networkx as nx

from xenzyme.analysis.cfg import _immediate_dominators


def _reverse_post_order(succs: dict[int, list[int]]) -> list[int]:
    seen, post = {0}, []
    stack = [(0, 0)]
    while stack:
        b, i = stack.pop()
        if i < len(succs[b]):
            stack.append((b, i + 1))
            s = succs[b][i]
            if s not in seen:
                seen.add(s)
                stack.append((s, 0))
        else:
            post.append(b)
    return post[::-1]


def test_immediate_dominators_agree_with_networkx() -> None:
    rnd = random.Random(11)
    for trial in range(500):
        n = rnd.randint(1, 40)
        succs = {v: sorted(set(rnd.sample(range(n), rnd.randint(0, min(n, 3))))) for v in range(n)}
        rpo = _reverse_post_order(succs)
        index = {b: i for i, b in enumerate(rpo)}
        mine = _immediate_dominators(len(rpo), [[index[s] for s in succs[b]] for b in rpo])
        g = nx.DiGraph()
        g.add_nodes_from(succs)
        g.add_edges_from((u, v) for u, vs in succs.items() for v in vs)
        expected = nx.immediate_dominators(g, 0)
        expected.pop(0, None)  # (networkx 3.6 leaves the entry out; older versions map it to itself)
        assert mine[0] == 0, trial
        assert {rpo[i]: rpo[d] for i, d in enumerate(mine) if i} == expected, trial
