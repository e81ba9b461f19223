// navlab viewer page: the script `navlab view` inlines into one offline HTML file.
// esbuild bundles it with three.js (tools/web/package.json pins the version) at build time.
//
// The page holds two <script> blocks the C++ side writes (src/view/viewer_page.cpp):
//   #navlab-meta  JSON: members, their buffer sections, audit rules, IGI routes, path
//   #navlab-data  base64 of one little-endian binary blob the sections point into
// Every section is [byteOffset, count]; its element type is fixed by its name (TYPES).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { STYLE } from './style.js';

const TYPES = {
  vertices: Float32Array, corner_count: Uint16Array, corners: Uint32Array, tri_count: Uint16Array,
  tris: Uint16Array, face_data: Int32Array, cluster: Int16Array, corner_flags: Uint8Array,
  corner_opposite: Int32Array, lines: Float32Array, line_info: Int32Array, boxes: Float32Array,
  box_face: Uint32Array, points: Uint32Array, point_ids: Int32Array, audit_status: Uint8Array,
  next_hop: Int16Array,
};

const BACKGROUND = 0x1b1f24;
const MODES = ['member', 'faceData', 'cluster', 'audit'];
const SHORTCUTS = [
  ['1 2 3 4', 'colour by member / faceData / cluster / audit'], ['c', 'next colouring'],
  ['u', 'user edges, links (arrows)'], ['b', 'AABB-tree leaf boxes'], ['g', 'Far Cry 2 sector grid'],
  ['w', 'face outlines'], ['f', 'frame everything'], ['Esc', 'clear the selection'], ['?', 'this help'],
  ['mouse', 'left: orbit, right: pan, wheel: zoom, click: pick a face or node'],
];

function decodeBase64(text) {
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function sections(buffer, descriptors) {
  const out = {};
  for (const [name, [offset, count]] of Object.entries(descriptors)) out[name] = new TYPES[name](buffer, offset, count);
  return out;
}

// Distinct, stable colours for small integers (golden-angle hues).
function categoryColour(value, target) {
  if (value < 0) return target.setRGB(0.45, 0.47, 0.5);
  const h = (value * 0.618033988749895) % 1;
  return target.setHSL(h, 0.55, 0.55);
}

const AUDIT_COLOURS = [new THREE.Color(0x8a96a3), new THREE.Color(0xf0a030), new THREE.Color(0xe03030)];

class Viewer {
  constructor(meta, buffer) {
    this.meta = meta;
    this.members = meta.members.map((m, i) => ({ ...m, index: i, data: sections(buffer, m.buffers) }));
    this.mode = 'member';
    this.selected = null;
    this.layers = {};
    this.buildDom();
    this.buildScene();
    this.frame();
    this.setMode('member');
    this.render();
  }

  buildDom() {
    const style = document.createElement('style');
    style.textContent = STYLE;
    document.head.appendChild(style);
    document.body.innerHTML = `
      <div id="view"></div>
      <div id="toolbar"></div>
      <aside id="panel"><h2>${escapeHtml(this.meta.title)}</h2><div id="summary"></div><div id="selection">Click a face${this.hasPoints() ? ' or a node' : ''}.</div></aside>
      <div id="legend"></div>
      <div id="help" hidden><h3>Keyboard and mouse</h3><table>${SHORTCUTS.map(([k, v]) => `<tr><td><kbd>${k}</kbd></td><td>${v}</td></tr>`).join('')}</table></div>`;
    const faces = this.members.reduce((n, m) => n + m.faces, 0);
    document.getElementById('summary').textContent =
      `${this.members.length} member${this.members.length === 1 ? '' : 's'}, ${faces} faces · navlab ${this.meta.navlab_version}`;
    const toolbar = document.getElementById('toolbar');
    for (const mode of MODES) {
      if (mode === 'audit' && !this.meta.audit) continue;
      const b = document.createElement('button');
      b.textContent = mode;
      b.dataset.mode = mode;
      b.onclick = () => this.setMode(mode);
      toolbar.appendChild(b);
    }
    for (const [key, label] of [['u', 'edges'], ['b', 'boxes'], ['g', 'grid'], ['w', 'outlines'], ['?', 'help']]) {
      const b = document.createElement('button');
      b.textContent = `${label} (${key})`;
      b.dataset.key = key;
      b.onclick = () => this.key(key);
      toolbar.appendChild(b);
    }
    this.container = document.getElementById('view');
  }

  hasPoints() { return this.members.some((m) => m.points > 0); }

  buildScene() {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.renderer.setClearColor(BACKGROUND);
    this.container.appendChild(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x404850, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.2);
    sun.position.set(0.3, 1, 0.5);
    this.scene.add(sun);
    this.camera = new THREE.PerspectiveCamera(50, 1, 0.1, 1e6);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.addEventListener('change', () => this.render());
    this.meshes = [];
    this.bounds = new THREE.Box3();
    for (const m of this.members) this.buildMember(m);
    this.layers.edges = this.buildLines();
    this.layers.grid = this.buildGrid();
    this.layers.points = this.buildPoints();
    if (this.meta.path) this.layers.path = this.buildPath(this.meta.path);
    this.highlight = new THREE.Mesh(new THREE.BufferGeometry(),
      new THREE.MeshBasicMaterial({ color: 0xffeb3b, transparent: true, opacity: 0.8, side: THREE.DoubleSide, depthTest: false }));
    this.highlight.renderOrder = 10;
    this.scene.add(this.highlight);
    this.routeLines = new THREE.Group();
    this.scene.add(this.routeLines);
    window.addEventListener('resize', () => this.resize());
    window.addEventListener('keydown', (e) => this.key(e.key));
    this.pointerDown = null;
    this.renderer.domElement.addEventListener('pointerdown', (e) => { this.pointerDown = [e.clientX, e.clientY]; });
    this.renderer.domElement.addEventListener('pointerup', (e) => {
      if (this.pointerDown && Math.hypot(e.clientX - this.pointerDown[0], e.clientY - this.pointerDown[1]) < 4) this.pick(e.clientX, e.clientY);
    });
    this.resize();
  }

  // One mesh per member: a vertex per face corner (so each face has its own colour), indexed
  // by navlab's triangulation; triFace maps a triangle back to its face for picking.
  buildMember(m) {
    const d = m.data;
    if (m.faces === 0) return;
    const faceStart = new Uint32Array(m.faces + 1);
    for (let f = 0; f < m.faces; ++f) faceStart[f + 1] = faceStart[f] + d.corner_count[f];
    const position = new Float32Array(m.corners * 3);
    for (let c = 0; c < m.corners; ++c) position.set(d.vertices.subarray(d.corners[c] * 3, d.corners[c] * 3 + 3), c * 3);
    const index = new Uint32Array(m.triangles * 3);
    const triFace = new Uint32Array(m.triangles);
    let t = 0;
    for (let f = 0; f < m.faces; ++f)
      for (let k = 0; k < d.tri_count[f]; ++k, ++t) {
        for (let j = 0; j < 3; ++j) index[t * 3 + j] = faceStart[f] + d.tris[t * 3 + j];
        triFace[t] = f;
      }
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(position, 3));
    g.setAttribute('color', new THREE.BufferAttribute(new Float32Array(m.corners * 3), 3));
    g.setIndex(new THREE.BufferAttribute(index, 1));
    g.computeVertexNormals();
    g.computeBoundingBox();
    this.bounds.union(g.boundingBox);
    const mesh = new THREE.Mesh(g, new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide }));
    mesh.userData = { member: m, faceStart, triFace };
    this.scene.add(mesh);
    this.meshes.push(mesh);
  }

  // User edges / links as arrows: the segment plus a two-stroke head at its end.
  buildLines() {
    const xyz = [];
    const head = new THREE.Vector3(), dir = new THREE.Vector3(), side = new THREE.Vector3(), up = new THREE.Vector3(0, 1, 0);
    for (const m of this.members) {
      const l = m.data.lines;
      for (let i = 0; i < m.lines; ++i) {
        const a = new THREE.Vector3(l[i * 6], l[i * 6 + 1], l[i * 6 + 2]), b = new THREE.Vector3(l[i * 6 + 3], l[i * 6 + 4], l[i * 6 + 5]);
        xyz.push(a.x, a.y, a.z, b.x, b.y, b.z);
        this.bounds.expandByPoint(a).expandByPoint(b);
        if (m.family !== 'fromsoft') continue;  // IGI and Far Cry 2 links are undirected
        dir.subVectors(b, a);
        const len = dir.length();
        if (len === 0) continue;
        dir.divideScalar(len);
        side.crossVectors(dir, up);
        if (side.lengthSq() < 1e-6) side.set(1, 0, 0);
        side.normalize().multiplyScalar(Math.min(0.35, len * 0.15));
        head.copy(b).addScaledVector(dir, -Math.min(0.6, len * 0.25));
        xyz.push(b.x, b.y, b.z, head.x + side.x, head.y + side.y, head.z + side.z);
        xyz.push(b.x, b.y, b.z, head.x - side.x, head.y - side.y, head.z - side.z);
      }
    }
    return this.addSegments(xyz, 0xe040fb, 5);
  }

  buildOutlines() {
    const xyz = [];
    for (const m of this.members) {
      const d = m.data;
      let c = 0;
      for (let f = 0; f < m.faces; ++f) {
        const n = d.corner_count[f];
        for (let k = 0; k < n; ++k) {
          const a = d.corners[c + k] * 3, b = d.corners[c + (k + 1) % n] * 3;
          xyz.push(d.vertices[a], d.vertices[a + 1], d.vertices[a + 2], d.vertices[b], d.vertices[b + 1], d.vertices[b + 2]);
        }
        c += n;
      }
    }
    return this.addSegments(xyz, 0x0d1014, 1);
  }

  // Outlines and boxes are many (per corner, per face): built on first use.
  buildBoxes() {
    const xyz = [];
    for (const m of this.members) {
      const b = m.data.boxes;
      for (let i = 0; i < m.boxes; ++i) {
        const lo = [b[i * 6], b[i * 6 + 1], b[i * 6 + 2]], hi = [b[i * 6 + 3], b[i * 6 + 4], b[i * 6 + 5]];
        const p = (x, y, z) => [x ? hi[0] : lo[0], y ? hi[1] : lo[1], z ? hi[2] : lo[2]];
        for (const [u, v] of [[[0, 0, 0], [1, 0, 0]], [[0, 1, 0], [1, 1, 0]], [[0, 0, 1], [1, 0, 1]], [[0, 1, 1], [1, 1, 1]],
          [[0, 0, 0], [0, 1, 0]], [[1, 0, 0], [1, 1, 0]], [[0, 0, 1], [0, 1, 1]], [[1, 0, 1], [1, 1, 1]],
          [[0, 0, 0], [0, 0, 1]], [[1, 0, 0], [1, 0, 1]], [[0, 1, 0], [0, 1, 1]], [[1, 1, 0], [1, 1, 1]]])
          xyz.push(...p(...u), ...p(...v));
      }
    }
    return this.addSegments(xyz, 0x4fc3f7, 2);
  }

  // Far Cry 2: each sector's 64 m cell (x east, y north in the game; x, -z here) at its
  // lowest vertex height.
  buildGrid() {
    const xyz = [];
    for (const m of this.members) {
      if (m.sector < 0) continue;
      const column = m.sector % 80, row = Math.floor(m.sector / 80);
      let y = Infinity;
      for (let i = 1; i < m.data.vertices.length; i += 3) y = Math.min(y, m.data.vertices[i]);
      if (!isFinite(y)) continue;
      const x0 = column * 64, x1 = x0 + 64, z0 = -row * 64, z1 = z0 - 64;
      xyz.push(x0, y, z0, x1, y, z0, x1, y, z0, x1, y, z1, x1, y, z1, x0, y, z1, x0, y, z1, x0, y, z0);
    }
    return this.addSegments(xyz, 0x9ccc65, 3);
  }

  buildPoints() {
    const xyz = [];
    this.pointOwners = [];
    for (const m of this.members)
      for (let i = 0; i < m.points; ++i) {
        const v = m.data.points[i] * 3;
        xyz.push(m.data.vertices[v], m.data.vertices[v + 1], m.data.vertices[v + 2]);
        this.pointOwners.push([m, i]);
      }
    if (xyz.length === 0) return null;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(xyz, 3));
    g.computeBoundingBox();
    this.bounds.union(g.boundingBox);
    const points = new THREE.Points(g, new THREE.PointsMaterial({ color: 0xef5350, size: 9, sizeAttenuation: false }));
    points.renderOrder = 4;
    this.scene.add(points);
    return points;
  }

  // A path: its polyline and, lighter, the corridor of faces it crosses ([member, face] pairs).
  buildPath(path) {
    const group = new THREE.Group();
    const xyz = [];
    for (let i = 0; i + 1 < path.points.length; ++i) xyz.push(...path.points[i], ...path.points[i + 1]);
    group.add(this.addSegments(xyz, 0x66ff99, 6));
    const tri = [];
    for (const [member, f] of path.corridor || []) {
      const mesh = this.meshes.find((x) => x.userData.member.index === member);
      if (!mesh || f >= mesh.userData.member.faces) continue;
      const fs = mesh.userData.faceStart, pos = mesh.geometry.attributes.position.array;
      for (let k = fs[f] + 1; k + 1 < fs[f + 1]; ++k)
        tri.push(...pos.subarray(fs[f] * 3, fs[f] * 3 + 3), ...pos.subarray(k * 3, k * 3 + 6));
    }
    if (tri.length) {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(tri, 3));
      const corridor = new THREE.Mesh(g, new THREE.MeshBasicMaterial({ color: 0x66ff99, transparent: true, opacity: 0.35,
        side: THREE.DoubleSide, depthWrite: false }));
      corridor.renderOrder = 5;
      group.add(corridor);
    }
    this.scene.add(group);
    return group;
  }

  addSegments(xyz, colour, order) {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(xyz, 3));
    const lines = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: colour }));
    lines.renderOrder = order;
    this.scene.add(lines);
    return lines;
  }

  setMode(mode) {
    this.mode = mode;
    const c = new THREE.Color();
    for (const mesh of this.meshes) {
      const m = mesh.userData.member, d = m.data, colours = mesh.geometry.attributes.color.array;
      const fs = mesh.userData.faceStart;
      for (let f = 0; f < m.faces; ++f) {
        if (mode === 'member') categoryColour(m.index, c);
        else if (mode === 'faceData') categoryColour(d.face_data[f], c);
        else if (mode === 'cluster') categoryColour(d.cluster[f], c);
        else c.copy(AUDIT_COLOURS[d.audit_status ? d.audit_status[f] : 0]);
        for (let k = fs[f]; k < fs[f + 1]; ++k) c.toArray(colours, k * 3);
      }
      mesh.geometry.attributes.color.needsUpdate = true;
    }
    for (const b of document.querySelectorAll('#toolbar button[data-mode]')) b.classList.toggle('on', b.dataset.mode === mode);
    this.legend();
    this.render();
  }

  legend() {
    const rows = [];
    const swatch = (colour, text) => `<div><span class="sw" style="background:#${colour.getHexString()}"></span>${escapeHtml(String(text))}</div>`;
    const c = new THREE.Color();
    if (this.mode === 'member') {
      this.members.slice(0, 12).forEach((m) => rows.push(swatch(categoryColour(m.index, c), m.name)));
      if (this.members.length > 12) rows.push(`<div>… ${this.members.length - 12} more</div>`);
    } else if (this.mode === 'audit') {
      rows.push(swatch(AUDIT_COLOURS[2], 'an invariant fails'), swatch(AUDIT_COLOURS[1], 'reported statistic'), swatch(AUDIT_COLOURS[0], 'no exception'));
    } else {
      const counts = new Map();
      for (const m of this.members) {
        const values = this.mode === 'faceData' ? m.data.face_data : m.data.cluster;
        for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);
      }
      [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 16)
        .forEach(([v, n]) => rows.push(swatch(categoryColour(v, c), `${this.mode} ${v} (${n} faces)`)));
    }
    let extra = '';
    if (this.members.some((m) => m.lines > 0)) extra += `<div><span class="sw" style="background:#e040fb"></span>user edges / links</div>`;
    if (this.meta.path) extra += `<div><span class="sw" style="background:#66ff99"></span>path</div>`;
    document.getElementById('legend').innerHTML = `<h3>Colour: ${this.mode}</h3>${rows.join('')}${extra}<p class="keys">Keys: 1–4 colour, u b g w toggles, f frame, ? help</p>`;
  }

  key(k) {
    if (k >= '1' && k <= '4') {
      const mode = MODES[Number(k) - 1];
      if (mode !== 'audit' || this.meta.audit) this.setMode(mode);
    } else if (k === 'c') {
      const modes = this.meta.audit ? MODES : MODES.slice(0, 3);
      this.setMode(modes[(modes.indexOf(this.mode) + 1) % modes.length]);
    } else if (k === 'u') this.toggle('edges');
    else if (k === 'b') {
      if (!this.layers.boxes) { this.layers.boxes = this.buildBoxes(); this.layers.boxes.visible = false; }
      this.toggle('boxes');
    } else if (k === 'g') this.toggle('grid');
    else if (k === 'w') {
      if (!this.layers.outlines) { this.layers.outlines = this.buildOutlines(); this.layers.outlines.visible = false; }
      this.toggle('outlines');
    }
    else if (k === 'f') this.frame();
    else if (k === 'Escape') this.select(null);
    else if (k === '?') document.getElementById('help').hidden = !document.getElementById('help').hidden;
  }

  toggle(name) {
    if (this.layers[name]) this.layers[name].visible = !this.layers[name].visible;
    this.render();
  }

  // Looks at the middle of everything from above and to the south, aimed at the largest
  // triangle among those nearest the middle, so the centre of the screen shows a face.
  frame() {
    const box = this.bounds.isEmpty() ? new THREE.Box3(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1)) : this.bounds;
    const centre = box.getCenter(new THREE.Vector3());
    const size = box.getSize(new THREE.Vector3());
    // The triangles nearest the middle (in x, z), then the largest of the first 64 of them.
    const d2 = [], area = [], mid = [];
    const a = new THREE.Vector3(), b = new THREE.Vector3(), c = new THREE.Vector3(), tri = new THREE.Triangle();
    for (const mesh of this.meshes) {
      const pos = mesh.geometry.attributes.position, index = mesh.geometry.index.array;
      for (let t = 0; t < index.length; t += 3) {
        a.fromBufferAttribute(pos, index[t]);
        b.fromBufferAttribute(pos, index[t + 1]);
        c.fromBufferAttribute(pos, index[t + 2]);
        const x = (a.x + b.x + c.x) / 3, y = (a.y + b.y + c.y) / 3, z = (a.z + b.z + c.z) / 3;
        d2.push((x - centre.x) ** 2 + (z - centre.z) ** 2);
        area.push(tri.set(a, b, c).getArea());
        mid.push(x, y, z);
      }
    }
    const order = Array.from(d2.keys()).sort((p, q) => d2[p] - d2[q]).slice(0, 64);
    const pool = order.length ? [order.reduce((p, q) => (area[q] > area[p] ? q : p))] : [];
    const target = pool.length ? new THREE.Vector3(mid[pool[0] * 3], mid[pool[0] * 3 + 1], mid[pool[0] * 3 + 2]) : centre;
    // Faces: close enough to tell them apart; nodes and lines only: everything in view.
    const radius = pool.length ? Math.max(size.x, size.z, 1) * 0.6 : Math.max(size.length(), 1) * 1.1;
    this.camera.near = radius / 1000;
    this.camera.far = radius * 20;
    this.camera.position.set(target.x, target.y + radius * 0.9, target.z + radius * 0.55);
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(target);
    this.controls.update();
    this.render();
  }

  pick(x, y) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((x - rect.left) / rect.width) * 2 - 1, -((y - rect.top) / rect.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    ray.params.Points.threshold = this.bounds.getSize(new THREE.Vector3()).length() / 300;
    if (this.layers.points) {
      const hit = ray.intersectObject(this.layers.points)[0];
      if (hit) return this.select({ kind: 'node', owner: this.pointOwners[hit.index] });
    }
    const hit = ray.intersectObjects(this.meshes)[0];
    if (!hit) return this.select(null);
    const { member, triFace } = hit.object.userData;
    this.select({ kind: 'face', member, face: triFace[hit.faceIndex], mesh: hit.object });
  }

  select(sel) {
    this.selected = sel;
    this.highlight.visible = false;
    this.routeLines.clear();
    const panel = document.getElementById('selection');
    if (!sel) {
      panel.innerHTML = 'Click a face.';
      window.navlab.selected = null;
      return this.render();
    }
    if (sel.kind === 'node') {
      panel.innerHTML = this.nodePanel(sel.owner[0], sel.owner[1]);
      window.navlab.selected = { member: sel.owner[0].index, node: sel.owner[0].data.point_ids[sel.owner[1]] };
      return this.render();
    }
    const { member: m, face: f, mesh } = sel;
    const fs = mesh.userData.faceStart;
    const g = new THREE.BufferGeometry();
    const pos = mesh.geometry.attributes.position.array.slice(fs[f] * 3, fs[f + 1] * 3);
    g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
    const idx = [];
    for (let k = 1; k + 1 < fs[f + 1] - fs[f]; ++k) idx.push(0, k, k + 1);
    g.setIndex(idx);
    this.highlight.geometry.dispose();
    this.highlight.geometry = g;
    this.highlight.visible = true;
    panel.innerHTML = this.facePanel(m, f, fs);
    window.navlab.selected = { member: m.index, face: f };
    this.render();
  }

  facePanel(m, f, fs) {
    const d = m.data;
    const rows = [];
    const n = fs[f + 1] - fs[f];
    for (let k = 0; k < n; ++k) {
      const c = fs[f] + k, v = d.corners[c], next = d.corners[fs[f] + (k + 1) % n];
      const p = d.vertices.subarray(v * 3, v * 3 + 3);
      const opp = d.corner_opposite[c];
      rows.push(`<tr><td>${k}</td><td>${v} → ${next}</td><td>${[...p].map((x) => x.toFixed(2)).join(', ')}</td><td>${d.corner_flags[c]}</td><td>${opp < 0 ? '—' : opp}</td></tr>`);
    }
    const failing = (m.audit && m.audit[f]) || [];
    const rules = this.meta.audit ? this.meta.audit.rules : {};
    return `<h3 id="face-title">${escapeHtml(m.name)} · face <span id="face-index">${f}</span></h3>
      <dl><dt>corners</dt><dd>${n}</dd><dt>faceData</dt><dd>${d.face_data[f]} (0x${(d.face_data[f] >>> 0).toString(16)})</dd>
      <dt>cluster</dt><dd>${d.cluster[f]}</dd><dt>triangles</dt><dd>${d.tri_count[f]}</dd></dl>
      <table class="edges"><tr><th>k</th><th>edge</th><th>corner (x, y, z)</th><th>flags</th><th>opposite</th></tr>${rows.join('')}</table>
      <h4>Audit</h4>${this.meta.audit ? (failing.length ? `<ul>${failing.map((r) => `<li class="${rules[r] && rules[r].kind}"><b>${r}</b> ${escapeHtml(rules[r] ? rules[r].title : '')}</li>`).join('')}</ul>` : '<p>no exception on this face</p>') : '<p>(page written without --audit)</p>'}`;
  }

  // IGI: the node, and the route table's next hops toward it from every node (a tree).
  nodePanel(m, i) {
    const id = m.data.point_ids[i];
    const hops = [];
    const table = m.data.next_hop;
    if (table) {
      const n = m.max_nodes, byId = new Map();
      for (let j = 0; j < m.points; ++j) byId.set(m.data.point_ids[j], j);
      const xyz = [];
      for (let j = 0; j < m.points; ++j) {
        const from = m.data.point_ids[j];
        if (from === id) continue;
        const next = table[from * n + id];
        hops.push(`<tr><td>${from}</td><td>${next < 0 ? 'no route' : next}</td></tr>`);
        if (next < 0 || !byId.has(next)) continue;
        const a = m.data.points[j] * 3, b = m.data.points[byId.get(next)] * 3;
        xyz.push(...m.data.vertices.subarray(a, a + 3), ...m.data.vertices.subarray(b, b + 3));
      }
      if (xyz.length) this.routeLines.add(this.addSegments(xyz, 0x80deea, 7));
    }
    return `<h3>${escapeHtml(m.name)} · node <span id="node-id">${id}</span></h3>
      ${table ? `<h4>Next hop toward node ${id}</h4><table><tr><th>from</th><th>next</th></tr>${hops.join('')}</table>` : '<p>no route table</p>'}`;
  }

  resize() {
    const w = this.container.clientWidth || window.innerWidth, h = this.container.clientHeight || window.innerHeight;
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  // Draws on the next animation frame; several changes in one task cost one frame.
  render() {
    if (!this.renderer || this.framePending) return;
    this.framePending = true;
    requestAnimationFrame(() => {
      this.framePending = false;
      this.renderer.render(this.scene, this.camera);
    });
  }
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

function start() {
  const t0 = performance.now();
  const meta = JSON.parse(document.getElementById('navlab-meta').textContent);
  const buffer = decodeBase64(document.getElementById('navlab-data').textContent);
  const t1 = performance.now();
  window.navlab = { meta, selected: null, ready: false };
  const viewer = new Viewer(meta, buffer);
  const t2 = performance.now();
  Object.assign(window.navlab, {
    viewer, ready: true,
    // Milliseconds spent decoding the data and building the scene (first frame included).
    timings: { decode: Math.round(t1 - t0), build: Math.round(t2 - t1), since_navigation: Math.round(t2) },
    setMode: (m) => viewer.setMode(m),
    // The hook for path overlays (navlab path, when the query library lands): points in
    // metres, +y up; corridor faces as [member, face] pairs (meta.path has the same shape).
    showPath: (path) => { if (viewer.layers.path) viewer.scene.remove(viewer.layers.path); viewer.layers.path = viewer.buildPath(path); viewer.render(); },
  });
  document.body.dataset.ready = '1';
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
