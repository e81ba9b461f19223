#!/usr/bin/env node
// End-to-end test of navlab viewer pages in Debian's Chromium, driven by playwright-core.
//
//   node test_viewer.js SCREENSHOT_DIR PAGE.html...
//
// For each page, opened from disk in a fresh headless Chromium profile with the network off:
//   - no console error and no uncaught exception;
//   - the canvas shows non-background pixels (in the middle when the page has faces);
//   - pages with faces: a click in the centre selects a face and the side panel shows its index
//     (an integer below the member's face count); pages with nodes only: a click on a node
//     selects it and the panel shows its id;
//   - pages with Elden Ring query trees: 'b' shows the leaf boxes (pixels change);
//   - pages with faces: the path hook (navlab.showPath) draws a path and its corridor;
//   - pages written with --audit: switching to audit colouring changes the pixels;
//   - screenshots SCREENSHOT_DIR/<page>-{initial,selected,audit}.png.
// Prints one JSON line per page. Exit status: 0 all passed, 1 a check failed, 77 Chromium is
// not installed (the caller skips), 2 usage.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const CHROMIUM = process.env.NAVLAB_CHROMIUM || '/usr/bin/chromium';
const BACKGROUND = [0x1b, 0x1f, 0x24];
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
  // Without a GPU, WebGL runs on SwiftShader, which Chromium now only enables on request.
  '--enable-unsafe-swiftshader', '--use-angle=swiftshader'];

function fail(message) {
  const e = new Error(message);
  e.check = true;
  throw e;
}

// Share of the w × h block around (cx, cy) of the WebGL canvas that is not the background,
// and a checksum of the whole canvas (read back through a 2-D canvas).
async function pixels(page, block) {
  return page.evaluate(([bg, block]) => {
    const gl = document.querySelector('#view canvas');
    const c = document.createElement('canvas');
    c.width = gl.width;
    c.height = gl.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(gl, 0, 0);
    const all = ctx.getImageData(0, 0, c.width, c.height).data;
    let sum = 0, nonBackground = 0;
    for (let i = 0; i < all.length; i += 4) {
      sum = (sum * 31 + all[i] * 7 + all[i + 1] * 3 + all[i + 2]) >>> 0;
      if (Math.abs(all[i] - bg[0]) + Math.abs(all[i + 1] - bg[1]) + Math.abs(all[i + 2] - bg[2]) > 24) ++nonBackground;
    }
    const size = Math.min(block, c.width, c.height);
    const mid = ctx.getImageData((c.width - size) >> 1, (c.height - size) >> 1, size, size).data;
    let middle = 0;
    for (let i = 0; i < mid.length; i += 4)
      if (Math.abs(mid[i] - bg[0]) + Math.abs(mid[i + 1] - bg[1]) + Math.abs(mid[i + 2] - bg[2]) > 24) ++middle;
    return { checksum: sum, share: nonBackground / (all.length / 4), middle: middle / (mid.length / 4) };
  }, [BACKGROUND, block]);
}

async function nextFrame(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function testPage(context, file, shots) {
  const name = path.basename(file, '.html');
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`exception: ${e.message}`));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) errors.push(`network request: ${r.url()}`); });
  const started = Date.now();
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  await nextFrame(page);
  const readyMs = Date.now() - started;
  const result = { page: name, ready_ms: readyMs, timings: await page.evaluate(() => window.navlab.timings) };
  const meta = await page.evaluate(() => window.navlab.meta);
  const faces = meta.members.reduce((n, m) => n + m.faces, 0);
  const before = await pixels(page, 40);
  let picked = null;
  result.non_background = Number(before.share.toFixed(3));
  result.middle = Number(before.middle.toFixed(3));
  await page.screenshot({ path: path.join(shots, `${name}-initial.png`) });
  if (before.share === 0) fail(`${name}: the canvas is all background`);
  if (faces > 0) {
    if (before.middle < 0.1) fail(`${name}: only ${(before.middle * 100).toFixed(0)} % of the middle block is drawn`);
    const box = await page.locator('#view canvas').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const index = await page.locator('#face-index').textContent({ timeout: 5000 }).catch(() => null);
    if (index === null) fail(`${name}: clicking the centre selected no face`);
    const selected = await page.evaluate(() => window.navlab.selected);
    picked = selected;
    const member = meta.members[selected.member];
    if (!/^\d+$/.test(index) || Number(index) >= member.faces) fail(`${name}: the panel shows face "${index}" (member has ${member.faces})`);
    result.selected = { member: member.name, face: Number(index) };
    await page.screenshot({ path: path.join(shots, `${name}-selected.png`) });
    await page.keyboard.press('Escape');
  } else if (meta.members.some((m) => m.points > 0)) {
    // No faces: pick the first node where it is drawn.
    const at = await page.evaluate(() => {
      const v = window.navlab.viewer, p = v.layers.points.geometry.attributes.position;
      const q = { x: p.getX(0), y: p.getY(0), z: p.getZ(0) };
      const s = new v.camera.position.constructor(q.x, q.y, q.z).project(v.camera);
      const r = v.renderer.domElement.getBoundingClientRect();
      return [r.left + (s.x + 1) / 2 * r.width, r.top + (1 - s.y) / 2 * r.height];
    });
    await page.mouse.click(at[0], at[1]);
    const id = await page.locator('#node-id').textContent({ timeout: 5000 }).catch(() => null);
    if (id === null || !/^\d+$/.test(id)) fail(`${name}: clicking a node selected nothing`);
    result.selected = { node: Number(id) };
    await page.screenshot({ path: path.join(shots, `${name}-selected.png`) });
  }
  if (meta.members.some((m) => m.boxes > 0)) {
    // Elden Ring query-tree leaf boxes appear on 'b'.
    const plain = await pixels(page, 40);
    await page.keyboard.press('b');
    await nextFrame(page);
    const boxes = await pixels(page, 40);
    await page.screenshot({ path: path.join(shots, `${name}-boxes.png`) });
    await page.keyboard.press('b');
    if (boxes.checksum === plain.checksum) fail(`${name}: the leaf boxes did not show`);
    result.boxes_changed = true;
  }
  if (faces > 0) {
    // The path hook: a path across the face picked in the centre, that face as its corridor.
    const plain = await pixels(page, 40);
    await page.evaluate(([member, face]) => {
      const v = window.navlab.viewer, mesh = v.meshes.find((x) => x.userData.member.index === member);
      const fs = mesh.userData.faceStart, p = mesh.geometry.attributes.position.array;
      const corner = (k) => [p[k * 3], p[k * 3 + 1], p[k * 3 + 2]];
      window.navlab.showPath({ points: [corner(fs[face]), corner(fs[face] + 1)], corridor: [[member, face]] });
    }, [picked.member, picked.face]);
    await nextFrame(page);
    const withPath = await pixels(page, 40);
    if (withPath.checksum === plain.checksum) fail(`${name}: the path overlay drew nothing`);
    result.path_hook = true;
  }
  if (meta.audit) {
    const plain = await pixels(page, 40);
    await page.click('#toolbar button[data-mode="audit"]');
    await nextFrame(page);
    const audit = await pixels(page, 40);
    await page.screenshot({ path: path.join(shots, `${name}-audit.png`) });
    if (audit.checksum === plain.checksum) fail(`${name}: audit colouring did not change the pixels`);
    result.audit_changed = true;
  }
  if (errors.length) fail(`${name}: ${errors.join('; ')}`);
  await page.close();
  return result;
}

async function main(args) {
  if (args.length < 2) {
    console.error('usage: test_viewer.js SCREENSHOT_DIR PAGE.html...');
    return 2;
  }
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`SKIP: ${CHROMIUM} is not installed (Debian package chromium; tools/install-deps.sh installs it)`);
    return 77;
  }
  const { chromium } = require(path.join(__dirname, 'node_modules', 'playwright-core'));
  const [shots, ...pages] = args;
  fs.mkdirSync(shots, { recursive: true });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'navlab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1280, height: 800 }, offline: true,
  });
  let status = 0;
  try {
    for (const file of pages) {
      try {
        console.log(JSON.stringify(await testPage(context, file, shots)));
      } catch (e) {
        if (!e.check) throw e;
        console.log(`FAIL ${e.message}`);
        status = 1;
      }
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  return status;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (e) => {
  console.error(e);
  process.exit(1);
});
