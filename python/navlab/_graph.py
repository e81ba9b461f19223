"""Graph views of a navmesh for networkx users (networkx is optional)."""
from __future__ import annotations

import numpy as np


def face_centres(mesh) -> np.ndarray:
    """Mean of each face's corners (the `a` vertex of its regular edges), F×3 float64 metres."""
    faces = mesh.faces
    edges = mesh.edges
    verts = mesh.vertices[:, :3].astype(np.float64)
    counts = faces["numEdges"].astype(np.int64)
    if len(faces) == 0:
        return np.zeros((0, 3))
    # Edge index of every corner, face by face, without a Python loop over faces.
    owner = np.repeat(np.arange(len(faces)), counts)
    first = np.repeat(faces["startEdgeIndex"].astype(np.int64), counts)
    step = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    corners = verts[edges["a"][first + step]]
    sums = np.zeros((len(faces), 3))
    np.add.at(sums, owner, corners)
    return sums / counts[:, None]


def to_networkx(mesh):
    """The face graph as a networkx.DiGraph.

    Nodes are face indices with attribute ``centre`` (x, y, z in metres). Portals (regular
    edges with an opposite face) give an edge each way (``kind="portal"``); user edges give
    one directed edge from their face to their opposite face (``kind="user"``, ``flags``).
    Opposites outside this mesh (boundary, or another tile's face) give no edge.
    Every edge has ``length``: the distance between the two face centres, in metres.
    Raises ImportError when networkx is not installed.
    """
    import networkx as nx

    centres = face_centres(mesh)
    faces, edges = mesh.faces, mesh.edges
    g = nx.DiGraph()
    for i, c in enumerate(centres):
        g.add_node(i, centre=tuple(c))
    for f, face in enumerate(faces):
        start, n = int(face["startEdgeIndex"]), int(face["numEdges"])
        for e in edges[start:start + n]:
            if int(e["oppositeFace"]) < len(faces):
                g.add_edge(f, int(e["oppositeFace"]), kind="portal",
                           length=float(np.linalg.norm(centres[int(e["oppositeFace"])] - centres[f])))
        ustart, un = int(face["startUserEdgeIndex"]), int(face["numUserEdges"])
        for e in edges[ustart:ustart + un] if un > 0 else []:
            if int(e["oppositeFace"]) < len(faces):
                g.add_edge(f, int(e["oppositeFace"]), kind="user", flags=int(e["flags"]),
                           length=float(np.linalg.norm(centres[int(e["oppositeFace"])] - centres[f])))
    return g
