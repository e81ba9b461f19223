"""navlab: the AI navigation data of shipped games, from Python.

FromSoftware (Sekiro, Elden Ring) navmesh binders and tagfiles, Project IGI graphs, the
R01-R97 audit and the DCX/Kraken codecs, over navlab's C++ core. Mesh arrays are numpy
views of navlab's own memory (no copy); a view keeps its mesh alive.

    >>> import navlab
    >>> f = navlab.open("m10_00_00_00.nvmhktbnd.dcx")
    >>> mesh = f.mesh(0)
    >>> mesh.faces["numEdges"].mean()
"""
from __future__ import annotations

from ._navlab import (  # noqa: F401  (re-exported API)
    ClusterGraph,
    File,
    FormatError,
    Mesh,
    WorldMesh,
    __version__,
    audit,
    decompress,
    kraken_decode,
    release_memory,
    open,
)
from ._graph import face_centres, to_networkx

Mesh.face_centres = face_centres
Mesh.to_networkx = to_networkx

__all__ = [
    "ClusterGraph", "File", "FormatError", "Mesh", "WorldMesh", "audit", "decompress", "kraken_decode", "open",
    "release_memory",
]
