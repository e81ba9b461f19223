# Type stubs for editors: the public API of navlab (see docs/python.md).
from os import PathLike
from typing import Any, Optional, Union, overload

import numpy as np
import numpy.typing as npt

_Path = Union[str, PathLike[str]]

__version__: str  # project(VERSION) of CMakeLists.txt, as `navlab --version` prints it

class FormatError(ValueError):
    """Malformed input: `file`, byte `offset` (None when unknown), `field` path, `message`."""
    file: str
    offset: Optional[int]
    field: str
    message: str

class ClusterGraph:
    """Sekiro's hkaiDirectedGraphExplicitCost (views over the mesh's memory)."""
    @property
    def positions(self) -> npt.NDArray[np.float32]: ...  # N×4, metres
    @property
    def nodes(self) -> np.ndarray: ...  # structured: startEdgeIndex, numEdges
    @property
    def edges(self) -> np.ndarray: ...  # structured: cost (hkHalf16 bits), flags, target

class _Queries:
    """Path queries (src/query), built on the first call from the mesh as it is then. Mesh and
    WorldMesh both have them (not a base class at run time); a WorldMesh takes and gives world
    coordinates (z up, `extents` too) and numbers faces as its stitched `triangles`."""
    def nearest(self, points: npt.ArrayLike, extents: Optional[npt.ArrayLike] = None
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
    def find_path(self, start: npt.ArrayLike, end: npt.ArrayLike, mode: str = "exact",
                  user_edges: bool = True) -> dict[str, Any]: ...
    def find_paths(self, starts: npt.ArrayLike, ends: npt.ArrayLike, mode: str = "exact",
                   user_edges: bool = True, threads: int = 0) -> list[dict[str, Any]]: ...
    def raycast(self, start: npt.ArrayLike, end: npt.ArrayLike) -> dict[str, Any]: ...
    def islands(self, user_edges: bool = True) -> list[dict[str, Any]]: ...

class Mesh(_Queries):
    """One navmesh tagfile. Arrays are views (no copy) that keep the mesh alive."""
    name: str
    editable: bool
    @property
    def sdk_version(self) -> int: ...
    @property
    def game(self) -> str: ...  # 'sekiro' | 'eldenring' | 'other'
    @property
    def variants(self) -> list[tuple[str, str]]: ...
    @property
    def vertices(self) -> npt.NDArray[np.float32]: ...  # N×4 (x, y, z, w), metres, y up
    @property
    def faces(self) -> np.ndarray: ...  # structured, the page's Face fields
    @property
    def edges(self) -> np.ndarray: ...  # structured, the page's Edge fields
    @property
    def face_data(self) -> npt.NDArray[np.int32]: ...  # faces × faceDataStriding
    @property
    def edge_data(self) -> npt.NDArray[np.int32]: ...  # edges × edgeDataStriding
    @property
    def aabb(self) -> npt.NDArray[np.float32]: ...  # 2×4 (min, max), a copy
    @property
    def tree_nodes(self) -> Optional[np.ndarray]: ...  # Elden Ring 6-byte nodes
    def tree_leaves(self) -> Optional[tuple[npt.NDArray[np.uint32], npt.NDArray[np.float64]]]: ...
    @property
    def cluster_graph(self) -> Optional[ClusterGraph]: ...
    def triangulate(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
    def face_centres(self) -> npt.NDArray[np.float64]: ...  # F×3, metres
    def to_networkx(self) -> Any: ...  # networkx.DiGraph
    def save(self, path: _Path) -> None: ...

class WorldMesh(_Queries):
    """A Far Cry 2 world stitched across its sectors (world coordinates, z up, metres)."""
    @property
    def vertices(self) -> npt.NDArray[np.float64]: ...  # V×3 view
    @property
    def triangles(self) -> npt.NDArray[np.uint32]: ...  # T×3 view
    @property
    def sectors(self) -> list[dict[str, int]]: ...
    def neighbours(self, triangle: int) -> list[int]: ...
    def check(self) -> dict[str, Any]: ...

class File:
    """An opened binder, DCX, tagfile, IGI graph or Far Cry 2 world."""
    @property
    def path(self) -> str: ...
    @property
    def kind(self) -> str: ...  # 'binder' | 'tagfile' | 'igi' | 'farcry2'
    @property
    def world(self) -> WorldMesh: ...
    @property
    def members(self) -> list[str]: ...
    def __len__(self) -> int: ...
    @overload
    def mesh(self, index: int) -> Mesh: ...
    @overload
    def mesh(self, name: str) -> Mesh: ...
    def member_bytes(self, index: int) -> bytes: ...
    @property
    def graph(self) -> dict[str, Any]: ...
    def check_routes(self) -> dict[str, Any]: ...
    def save(self, path: _Path) -> None: ...

def open(path: _Path, edit: bool = False) -> File: ...
def audit(paths: list[_Path], threads: int = 0, examples: int = 5, *, maps: list[str] = ...,
          game: str = "", keys: _Path = "", cache: _Path = "") -> dict[str, Any]: ...
def decompress(path: _Path) -> bytes: ...
def kraken_decode(data: bytes, size: int) -> bytes: ...
def release_memory() -> int: ...
