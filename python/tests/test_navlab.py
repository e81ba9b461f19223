"""The Python module against independent values: the samples' documented counts and hashes,
and the navlab command's own outputs (export JSON, audit JSON, dcx decompress, errors)."""
from __future__ import annotations

import gc
import hashlib
import json
import struct

import numpy as np
import pytest

import navlab
from conftest import run_navlab, sample

NO_OPPOSITE = 0xFFFFFFFF


def export_json(path, tmp_path):
    out = tmp_path / "export.json"
    run_navlab("export", path, "--format", "json", "-o", out)
    return json.loads(out.read_text())


# --- views equal the model, checked through an independent path -------------------------

def test_er_sample_counts_match_the_samples_readme(er_sample):
    f = navlab.open(er_sample)
    assert f.kind == "tagfile" and len(f) == 1
    mesh = f.mesh(0)
    # shared/samples/havok/README.md: 60 faces, 261 edges, 141 vertices, 119 tree nodes.
    assert (len(mesh.faces), len(mesh.edges), len(mesh.vertices), len(mesh.tree_nodes)) == (60, 261, 141, 119)
    assert mesh.sdk_version == 20180100 and mesh.game == "eldenring"
    assert mesh.cluster_graph is None
    assert np.all(mesh.faces["padding"] == 0xCDCD)


def test_er_sample_views_equal_the_json_export(er_sample, tmp_path):
    mesh = navlab.open(er_sample).mesh(0)
    ref = export_json(er_sample, tmp_path)["tagfiles"][0]
    np.testing.assert_array_equal(mesh.vertices[:, :3], np.array(ref["vertices"], dtype=np.float32))
    for face, ref_face in zip(mesh.faces, ref["faces"]):
        start, n = face["startEdgeIndex"], face["numEdges"]
        assert list(mesh.edges["a"][start:start + n]) == ref_face["vertices"]
    assert list(mesh.face_data[:, 0]) == [f["faceData"] for f in ref["faces"]]
    tris, owner = mesh.triangulate()
    assert tris.tolist() == [t for f in ref["faces"] for t in f["triangles"]]
    assert owner.tolist() == [f["index"] for f in ref["faces"] for _ in f["triangles"]]


def test_er_sample_tree_leaves_cover_every_face_corner(er_sample):
    mesh = navlab.open(er_sample).mesh(0)
    faces, boxes = mesh.tree_leaves()
    assert sorted(faces.tolist()) == list(range(len(mesh.faces)))  # one leaf per face
    verts = mesh.vertices[:, :3].astype(np.float64)
    for face, box in zip(faces, boxes):
        f = mesh.faces[face]
        corners = verts[mesh.edges["a"][f["startEdgeIndex"]:f["startEdgeIndex"] + f["numEdges"]]]
        assert np.all(corners >= box[0] - 5e-4) and np.all(corners <= box[1] + 5e-4)  # R-rule: 0.5 mm


def test_synthetic_binders_match_the_json_export(binders, tmp_path):
    for path in binders:
        f = navlab.open(path)
        ref = export_json(path, tmp_path)["tagfiles"]
        hkx = [i for i, name in enumerate(f.members) if name.lower().endswith(".hkx")]
        assert len(hkx) == len(ref)
        for i, r in zip(hkx, ref):
            mesh = f.mesh(i)
            assert mesh.name.endswith(r["name"])
            np.testing.assert_array_equal(mesh.vertices[:, :3], np.array(r["vertices"], dtype=np.float32).reshape(-1, 3))
            assert list(mesh.faces["clusterIndex"]) == [x["cluster"] for x in r["faces"]]


def test_sekiro_binders_expose_the_cluster_graph(binders):
    graphs = 0
    for path in binders:
        f = navlab.open(path)
        for i, name in enumerate(f.members):
            if not name.lower().endswith(".hkx"):
                continue
            mesh = f.mesh(i)
            if mesh.game != "sekiro":
                assert mesh.cluster_graph is None
                continue
            g = mesh.cluster_graph
            if g is None:
                continue
            graphs += 1
            assert len(g.positions) == len(g.nodes)
            assert np.all(g.edges["target"] < len(g.nodes))
            clusters = mesh.faces["clusterIndex"]
            assert np.all(clusters < len(g.nodes))
    assert graphs > 0, "the small preset has Sekiro binders with cluster graphs"


# --- zero copy and lifetime --------------------------------------------------------------

def first_non_empty(path, **kw):
    """(file, member index) of the first member with faces (synth makes some empty meshes)."""
    f = navlab.open(path, **kw)
    for i, name in enumerate(f.members):
        if name.lower().endswith(".hkx") and len(f.mesh(i).faces) > 0:
            return f, i
    raise AssertionError(f"{path} has no non-empty mesh")


def test_views_share_the_models_memory(binders):
    f, i = first_non_empty(binders[0])
    mesh = f.mesh(i)
    a, b = mesh.vertices, mesh.vertices
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]  # no copy per access
    assert a.base is mesh  # the view's owner is the mesh itself
    assert mesh.edges.__array_interface__["data"][0] == mesh.edges.__array_interface__["data"][0]
    assert mesh.faces.dtype.itemsize == 16 and mesh.edges.dtype.itemsize == 20


def test_a_view_outlives_its_file_and_mesh(binders):
    f, i = first_non_empty(binders[0])
    edges = f.mesh(i).edges
    expected = edges.copy()
    del f
    gc.collect()
    np.testing.assert_array_equal(edges, expected)  # memory still owned through the view's base


def test_read_only_unless_opened_for_editing(binders):
    f, i = first_non_empty(binders[0])
    mesh = f.mesh(i)
    with pytest.raises(ValueError):
        mesh.vertices[0, 0] = 1.0
    with pytest.raises(ValueError):
        navlab.open(binders[0]).save("never-written.dcx")


# --- editing ----------------------------------------------------------------------------

def test_edits_round_trip_and_untouched_members_keep_their_bytes(binders, tmp_path):
    path = binders[0]
    f, k = first_non_empty(path, edit=True)
    mesh = f.mesh(k)
    mesh.vertices[:, 1] += 2.5
    mesh.face_data[:, 0] = 7
    out = tmp_path / "edited.nvmhktbnd.dcx"
    f.save(out)

    original, edited = navlab.open(path), navlab.open(out)
    assert edited.members == original.members
    np.testing.assert_array_equal(edited.mesh(k).vertices[:, 1], original.mesh(k).vertices[:, 1] + np.float32(2.5))
    assert np.all(edited.mesh(k).face_data == 7)
    assert edited.member_bytes(k) != original.member_bytes(k)
    for i in range(len(original)):
        if i != k:
            assert edited.member_bytes(i) == original.member_bytes(i)
    # The command-line reader accepts the written file.
    assert run_navlab("hkx", "check", out, "--entry", str(k), check=False).returncode == 0


def test_unchanged_save_is_byte_identical(binders, tmp_path):
    f, _ = first_non_empty(binders[0], edit=True)  # loaded but not changed: keeps its bytes
    out = tmp_path / "same.nvmhktbnd.dcx"
    f.save(out)
    assert out.read_bytes() == binders[0].read_bytes()


def test_mesh_save_writes_a_tagfile_the_cli_reads(binders, tmp_path):
    f, i = first_non_empty(binders[0])
    mesh = f.mesh(i)
    out = tmp_path / "one.hkx"
    mesh.save(out)
    again = navlab.open(out).mesh(0)
    np.testing.assert_array_equal(again.edges, mesh.edges)
    assert run_navlab("hkx", "check", out, check=False).returncode == 0


# --- errors carry where ------------------------------------------------------------------

def test_format_error_carries_file_offset_and_field(binders, tmp_path):
    data = bytearray(binders[0].read_bytes())
    bad = tmp_path / "truncated.nvmhktbnd.dcx"
    bad.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(navlab.FormatError) as info:
        navlab.open(bad)
    e = info.value
    assert e.file.endswith("truncated.nvmhktbnd.dcx")
    assert isinstance(e.offset, int) and 0 <= e.offset <= len(data)
    # The command reports the same error text.
    cli = run_navlab("ls", bad, check=False)
    assert cli.returncode == 1
    assert str(e) in cli.stderr


def test_query_refusal_names_the_binder_the_member_and_the_byte(binders, tmp_path):
    # A damaged oppositeEdge reads (the reader keeps every raw field) but queries refuse it; the
    # refusal used to name the member only, not the binder it came from.
    f, k = first_non_empty(binders[0], edit=True)
    f.mesh(k).edges["oppositeEdge"][0] = 1 << 30
    bad = tmp_path / "opposite.nvmhktbnd.dcx"
    f.save(bad)
    with pytest.raises(navlab.FormatError) as info:
        navlab.open(bad).mesh(k).islands()
    e = info.value
    leaf = navlab.open(bad).members[k].split("\\")[-1]
    assert e.file == f"{bad} | {leaf}"
    assert e.field == "hkaiNavMesh edge 0" and "oppositeEdge 1073741824 out of range" in e.message
    assert isinstance(e.offset, int)
    cli = run_navlab("islands", bad, check=False)  # the command names the same place
    assert cli.returncode != 0 and str(e) in cli.stderr


def test_format_error_in_a_compressed_file_names_the_payload(tmp_path):
    # An offset in a DCX file that holds no binder counts from the decompressed payload.
    plain = tmp_path / "m10.emevd"
    plain.write_bytes(b"EVD\0\0\0\xcd\0" + bytes(8))
    packed = tmp_path / "m10.emevd.dcx"
    run_navlab("dcx", "compress", plain, packed, "--variant", "DCX_ZSTD")
    with pytest.raises(navlab.FormatError) as info:
        navlab.open(packed).mesh(0)
    e = info.value
    assert e.offset == 4 and e.field == "DCX payload: TAG0" and "not a Havok tagfile" in e.message
    with pytest.raises(navlab.FormatError) as info:
        navlab.open(plain).mesh(0)
    assert info.value.offset == 4 and info.value.field == "TAG0"


def test_format_error_in_a_binder_member_names_the_entry_as_the_command_does(binders, tmp_path):
    # Offsets in a member count from the member's first byte: the error names the entry
    # ("entry 1 (NAME)") in its field path, in the same words as `navlab hkx check --entry`.
    unpacked = tmp_path / "unpacked"
    run_navlab("unpack", binders[0], unpacked)
    member = sorted(p for p in unpacked.iterdir() if p.suffix == ".hkx")[1]
    member.write_bytes(b"\0" * 64)
    bad = tmp_path / "bad.nvmhktbnd.dcx"
    run_navlab("pack", unpacked, bad)
    k = next(i for i, name in enumerate(navlab.open(bad).members) if name.endswith(member.name))
    with pytest.raises(navlab.FormatError) as info:
        navlab.open(bad).mesh(k)
    e = info.value
    assert e.file == str(bad) and e.offset == 4
    assert e.field == f"entry {k} ({navlab.open(bad).members[k]}): TAG0", e.field
    cli = run_navlab("hkx", "check", bad, "--entry", str(k), check=False)
    assert cli.returncode == 1 and str(e) in cli.stderr, (str(e), cli.stderr)


def test_format_error_on_a_bad_tagfile(er_sample, tmp_path):
    data = bytearray(er_sample.read_bytes())
    data[4:8] = b"XXXX"  # TAG0 magic
    bad = tmp_path / "bad.hkx"
    bad.write_bytes(bytes(data))
    with pytest.raises(navlab.FormatError) as info:
        navlab.open(bad).mesh(0)
    e = info.value
    assert e.file.endswith("bad.hkx") and e.field == "TAG0" and "XXXX" in e.message
    cli = run_navlab("hkx", "check", bad, check=False)  # the command names the same place
    assert cli.returncode == 1 and f"offset {e.offset:#x}" in cli.stderr and e.message in cli.stderr


# --- audit and codecs --------------------------------------------------------------------

def test_audit_equals_the_commands_json(corpus, tmp_path):
    out = tmp_path / "audit.json"
    run_navlab("audit", corpus, "--json", out, check=False)
    assert navlab.audit([corpus], threads=2) == json.loads(out.read_text())


def test_audit_maps_equal_the_commands_map_option(corpus, binders, tmp_path):
    out = tmp_path / "audit.json"
    name = binders[-1].name
    run_navlab("audit", corpus, "--map", name, "--json", out, check=False)
    report = navlab.audit([corpus], maps=[name])
    assert report == json.loads(out.read_text())
    binders_seen = [report["summary"][g]["binders"] for g in ("sekiro", "elden_ring")]
    assert sum(binders_seen) == 1  # only the one named, out of len(binders)
    assert len(binders) > 1


def test_audit_refuses_a_map_that_matches_nothing_as_the_command_does(corpus):
    cli = run_navlab("audit", corpus, "--map", "m99_99_99_99", check=False)
    with pytest.raises(navlab.FormatError) as info:
        navlab.audit([corpus], maps=["m99_99_99_99"])
    assert cli.returncode == 1 and "m99_99_99_99" in info.value.message and info.value.message in cli.stderr
    with pytest.raises(navlab.FormatError, match="unknown game 'xbox'"):
        navlab.audit([corpus], game="xbox")


def test_decompress_equals_the_command(binders, tmp_path):
    out = tmp_path / "payload.bnd"
    run_navlab("dcx", "decompress", binders[0], out)
    assert navlab.decompress(binders[0]) == out.read_bytes()


def test_release_memory_frees_the_payload_buffer_a_closed_binder_left(binders):
    navlab.release_memory()
    sizes = {path: len(navlab.decompress(path)) for path in binders}  # decompress keeps nothing
    assert navlab.release_memory() == 0
    largest = max(binders, key=sizes.get)
    assert sizes[largest] >= 128 << 10  # the pool keeps payloads of 128 KiB to 64 MiB
    f = navlab.open(largest)
    assert len(f) > 0 and sum(len(f.mesh(i).faces) for i in range(len(f))) > 0
    del f
    gc.collect()
    assert navlab.release_memory() >= sizes[largest]  # the payload's buffer, kept until now
    assert navlab.release_memory() == 0


@pytest.mark.parametrize("name,digest", [
    ("t4.kraken", "0bc2bbdca24cfe09f63599ab7842984cc1efac57e6c73aecd33ed9ba411e91a3"),
    ("t1.kraken", "aec265f3f8ccb11d1224b12e086b685771fbf03543ad8e0803941ae7a4cebd74"),
])
def test_kraken_decode_matches_the_samples_readme(name, digest):
    raw = sample(f"kraken/{name}").read_bytes()
    (size,) = struct.unpack_from("<I", raw)
    assert hashlib.sha256(navlab.kraken_decode(raw[4:], size)).hexdigest() == digest


def test_kraken_decode_refuses_an_impossible_size():
    with pytest.raises(navlab.FormatError):
        navlab.kraken_decode(b"\xcc\x06\x00", 1 << 40)


# --- graphs ------------------------------------------------------------------------------

def test_face_centres_and_networkx_graph(er_sample):
    nx = pytest.importorskip("networkx")
    mesh = navlab.open(er_sample).mesh(0)
    g = mesh.to_networkx()
    assert isinstance(g, nx.DiGraph) and g.number_of_nodes() == len(mesh.faces)
    # Every portal is an edge; mutual opposites make the graph symmetric on portals.
    e = mesh.edges
    regular = e[: int((mesh.faces["numEdges"]).sum())]
    portals = {(int(f), int(o)) for f, o in zip(np.repeat(np.arange(len(mesh.faces)), mesh.faces["numEdges"]),
                                                regular["oppositeFace"]) if o != NO_OPPOSITE}
    assert set(g.edges()) == portals
    for u, v in portals:
        assert g.has_edge(v, u)
    c = mesh.face_centres()
    u, v = next(iter(portals))
    assert g.edges[u, v]["length"] == pytest.approx(float(np.linalg.norm(c[u] - c[v])))


# --- Far Cry 2 worlds -------------------------------------------------------------------

def test_far_cry_2_world_equals_the_commands_check_and_export(tmp_path):
    obj = tmp_path / "floor.obj"
    obj.write_text("v 0 0 0\nv 96 0 0\nv 96 0 96\nv 0 0 96\nf 1 3 2\nf 1 4 3\n")
    world_dir = tmp_path / "world"
    run_navlab("build", obj, "--game", "farcry2", "-o", world_dir)
    f = navlab.open(world_dir)
    assert f.kind == "farcry2"
    w = f.world
    cli = json.loads(run_navlab("fc2", "check", world_dir, "--json").stdout)
    check = w.check()
    assert check["ok"] and cli["ok"]
    for key in ("sectors", "triangles", "cross_sector_links", "broken_links"):
        assert check[key] == cli["stats"][key]
    assert len(w.triangles) == cli["stats"]["triangles"]
    assert w.vertices.dtype == np.float64 and w.vertices.shape[1] == 3
    assert w.triangles.max() < len(w.vertices)
    assert sum(s["triangle_count"] for s in w.sectors) == len(w.triangles)
    # The OBJ export of the same world lists the same triangles (an independent writer).
    out = tmp_path / "world.obj"
    run_navlab("export", world_dir, "-o", out)
    faces = [line for line in out.read_text().splitlines() if line.startswith("f ")]
    assert len(faces) == len(w.triangles)
    with pytest.raises(ValueError):
        f.mesh(0)


def test_far_cry_2_queries_refuse_a_world_with_an_unreadable_sector(tmp_path):
    obj = tmp_path / "floor.obj"
    obj.write_text("v 0 0 0\nv 96 0 0\nv 96 0 96\nv 0 0 96\nf 1 3 2\nf 1 4 3\n")
    world_dir = tmp_path / "world"
    run_navlab("build", obj, "--game", "farcry2", "-o", world_dir)
    sector = sorted(p for p in world_dir.rglob("nv_*.nvm"))[0]
    sector.write_bytes(sector.read_bytes()[:100])
    w = navlab.open(world_dir).world
    assert not w.check()["ok"]  # the check still reports the file
    with pytest.raises(navlab.FormatError) as info:
        w.islands()
    assert sector.name in str(info.value) and "1 of the world's .nvm files unreadable" in str(info.value)
    cli = run_navlab("islands", world_dir, check=False)
    assert cli.returncode == 1 and sector.name in cli.stderr


def test_version_is_the_project_version_and_the_commands():
    import re
    from conftest import _source_dir

    cmake = (_source_dir() / "CMakeLists.txt").read_text()
    version = re.search(r"project\(navlab VERSION ([0-9]+\.[0-9]+\.[0-9]+)", cmake).group(1)
    assert navlab.__version__ == version
    pyproject = (_source_dir() / "pyproject.toml").read_text()
    assert re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1) == version  # pip's metadata
    assert run_navlab("--version").stdout == f"navlab {version}\n"
