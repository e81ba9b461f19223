"""Path queries from Python against the `navlab path | nearest | raycast | islands` commands on
the same file (the command is the independent reference: it prints its own JSON)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import navlab
from conftest import run_navlab


def cli_json(tmp_path, *args):
    out = tmp_path / "q.json"
    out.unlink(missing_ok=True)  # never the previous command's answer
    assert run_navlab(*args, "--json", out, check=False).returncode in (0, 1)
    return json.loads(out.read_text())


def point_arg(p) -> str:
    return ",".join(repr(float(x)) for x in p)


@pytest.fixture
def er_mesh(er_sample):
    return navlab.open(er_sample).mesh(0)


def same_island_pair(mesh):
    biggest = max(mesh.islands(), key=lambda i: len(i["faces"]))
    c = mesh.face_centres()
    return c[biggest["faces"][0]], c[biggest["faces"][-1]]


@pytest.mark.parametrize("mode", ["exact", "corridor"])
def test_find_path_equals_the_command(er_sample, er_mesh, tmp_path, mode):
    a, b = same_island_pair(er_mesh)
    py = er_mesh.find_path(a, b, mode=mode)
    cli = cli_json(tmp_path, "path", er_sample, "--from", point_arg(a), "--to", point_arg(b), "--mode", mode)
    assert py["status"] == cli["status"] == "found"
    assert py["length"] == pytest.approx(cli["length"], rel=1e-12)
    assert py["length_xz"] == pytest.approx(cli["length_xz"], rel=1e-12)
    assert py["faces"] == cli["faces"] and py["mode"] == cli["mode"]
    np.testing.assert_allclose(py["points"], np.array(cli["points"]), rtol=1e-12)
    assert py["length"] >= np.linalg.norm(np.asarray(b) - np.asarray(a)) - 1e-9


def test_batch_paths_equal_single_queries(er_mesh):
    c = er_mesh.face_centres()
    starts, ends = c[:10], c[::-1][:10]
    batch = er_mesh.find_paths(starts, ends, mode="exact", threads=2)
    for s, e, r in zip(starts, ends, batch):
        one = er_mesh.find_path(s, e)
        assert r["status"] == one["status"] and r["faces"] == one["faces"]
        if r["status"] == "found":
            assert r["length"] == one["length"]


def test_off_mesh_point(er_mesh):
    r = er_mesh.find_path((1e6, 0, 1e6), (1e6, 0, 1e6))
    assert r["status"] == "off_mesh" and r["distance"] > 0 and r["length"] is None


def test_nearest_equals_the_command(er_sample, er_mesh, tmp_path):
    pts = er_mesh.face_centres()[:5] + np.array([0.01, 0.3, -0.02])
    faces, closest, dist = er_mesh.nearest(pts)
    for p, f, q, d in zip(pts, faces, closest, dist):
        cli = cli_json(tmp_path, "nearest", er_sample, point_arg(p))
        assert cli["found"] and f == cli["face"]
        np.testing.assert_allclose(q, cli["point"], rtol=1e-12)
        assert d == pytest.approx(cli["distance"], rel=1e-12)
    far_faces, _, far_dist = er_mesh.nearest(np.array([[1e6, 0.0, 1e6]]))
    assert far_faces[0] == -1 and np.isinf(far_dist[0])


def test_raycast_and_islands_equal_the_command(er_sample, er_mesh, tmp_path):
    a, b = same_island_pair(er_mesh)
    py = er_mesh.raycast(a, b)
    cli = cli_json(tmp_path, "raycast", er_sample, "--from", point_arg(a), "--to", point_arg(b))
    assert py["hit"] == (cli["status"] == "hit") and py["t"] == pytest.approx(cli["t"], rel=1e-12)
    assert py["faces"] == cli["faces"]
    if py["hit"]:
        assert py["wall_face"] == cli["wall_face"]
        np.testing.assert_allclose(py["normal"][0], cli["normal"], rtol=1e-12, atol=1e-15)
    cli_islands = cli_json(tmp_path, "islands", er_sample)[0]["islands"]
    islands = er_mesh.islands()
    assert sum(len(i["faces"]) for i in islands) == len(er_mesh.faces)
    assert [len(i["faces"]) for i in islands] == [i["face_count"] for i in cli_islands]
    assert [i["area_xz"] for i in islands] == pytest.approx([i["area_xz"] for i in cli_islands], rel=1e-12)


def test_far_cry_2_world_queries_equal_the_commands_in_world_coordinates(tmp_path):
    # A 96 m floor with a 4 m block in its middle, built as a Far Cry 2 world (2 x 2 sectors):
    # every answer in world coordinates (z up), as the commands print them.
    obj = tmp_path / "floor.obj"
    obj.write_text("v 0 0 0\nv 96 0 0\nv 96 0 96\nv 0 0 96\nf 1 3 2\nf 1 4 3\n"
                   "v 46 0 46\nv 50 0 46\nv 50 0 50\nv 46 0 50\nv 46 6 46\nv 50 6 46\nv 50 6 50\nv 46 6 50\n"
                   "f 5 6 10\nf 5 10 9\nf 6 7 11\nf 6 11 10\nf 7 8 12\nf 7 12 11\nf 8 5 9\nf 8 9 12\n")
    world_dir = tmp_path / "world"
    run_navlab("build", obj, "--game", "farcry2", "-o", world_dir)
    w = navlab.open(world_dir).world
    corners = w.vertices[w.triangles]
    centres = corners.mean(axis=1)
    floor = centres[:, 2] < corners[:, :, 2].min() + 0.5
    on_floor = centres[floor]
    a, b = on_floor[np.argmin(on_floor[:, :2].sum(axis=1))], on_floor[np.argmax(on_floor[:, :2].sum(axis=1))]

    py = w.find_path(a, b)
    cli = cli_json(tmp_path, "path", world_dir, "--from", point_arg(a), "--to", point_arg(b))
    assert py["status"] == cli["status"] == "found"
    assert py["length"] == pytest.approx(cli["length"], rel=1e-12) and py["faces"] == cli["faces"]
    np.testing.assert_allclose(py["points"], np.array(cli["points"]), rtol=1e-12)
    np.testing.assert_allclose(py["points"][0], a, atol=1e-9)  # world coordinates, not the query's
    assert [r["faces"] for r in w.find_paths(np.array([a]), np.array([b]), threads=2)] == [py["faces"]]

    for up, extents in ((1.5, None), (0.8, "1,1,0.5")):
        p = a + np.array([0.0, 0.0, up])
        faces, closest, dist = w.nearest(np.array([p]), None if extents is None else [1, 1, 0.5])
        args = ["nearest", world_dir, point_arg(p)] + ([] if extents is None else ["--extents", extents])
        cli = cli_json(tmp_path, *args)
        assert (faces[0] >= 0) == cli["found"] == (extents is None)
        if cli["found"]:
            assert faces[0] == cli["face"] and dist[0] == pytest.approx(cli["distance"], rel=1e-12)
            np.testing.assert_allclose(closest[0], cli["point"], rtol=1e-12)

    ray = w.raycast(a, b)
    cli = cli_json(tmp_path, "raycast", world_dir, "--from", point_arg(a), "--to", point_arg(b))
    assert ray["hit"] and cli["status"] == "hit" and ray["faces"] == cli["faces"]  # the block is in the way
    np.testing.assert_allclose(ray["normal"][0], cli["normal"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ray["hit_point"][0], cli["point"], rtol=1e-12)
    assert ray["normal"][0][2] == pytest.approx(0, abs=1e-9)  # a wall's normal lies in the ground plane
    assert ray["hit_point"][0][2] == pytest.approx(a[2], abs=1e-6)  # on the floor, z up

    islands = w.islands()
    cli_islands = cli_json(tmp_path, "islands", world_dir)[0]["islands"]
    assert [len(i["faces"]) for i in islands] == [i["face_count"] for i in cli_islands]
    for i, c in zip(islands, cli_islands):
        np.testing.assert_allclose(i["min"], c["min"], rtol=1e-12)
        np.testing.assert_allclose(i["max"], c["max"], rtol=1e-12)
    # z is up: the floor's island is flat at the floor's height.
    assert islands[0]["min"][2] == pytest.approx(a[2], abs=1e-6)
    assert islands[0]["max"][2] == pytest.approx(a[2], abs=1e-6)


def test_points_are_checked_as_the_commands_check_them(binders, tmp_path):
    """Finite and within ±1e7 m, extents >= 0: `navlab nearest` refuses the same (exit 2); a point
    at 1e39 was "0.000 m" from the mesh in float arithmetic."""
    f = navlab.open(binders[0])
    meshes = (f.mesh(i) for i, name in enumerate(f.members) if name.lower().endswith(".hkx"))
    mesh = next(m for m in meshes if len(m.face_centres()) > 0)
    c = mesh.face_centres()[0]
    for bad in ((1e39, 0.0, 0.0), (0.0, float("nan"), 0.0), (0.0, 0.0, -float("inf")), (0.0, -1.0000001e7, 0.0)):
        with pytest.raises(ValueError, match=r"start must be three finite numbers within ±1e7 m"):
            mesh.find_path(bad, c)
        with pytest.raises(ValueError, match=r"end must be"):
            mesh.raycast(c, bad)
        with pytest.raises(ValueError, match=r"points\[1\] must be"):
            mesh.nearest(np.array([c, bad]))
        with pytest.raises(ValueError, match=r"ends\[0\] must be"):
            mesh.find_paths(np.array([c]), np.array([bad]))
        assert run_navlab("nearest", binders[0], point_arg(bad), check=False).returncode == 2
    with pytest.raises(ValueError, match="extents are half-sizes"):
        mesh.nearest(np.array([c]), extents=(-1.0, 1.0, 1.0))
    # The limits themselves are points.
    faces, _, _ = mesh.nearest(np.array([c, (1e7, -1e7, 0.0)]))
    assert faces[0] >= 0 and faces[1] == -1
