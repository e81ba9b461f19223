#!/usr/bin/env node
// Runs the Khronos glTF validator (npm gltf-validator, pinned in package.json) on each file
// given and prints one line per file: "<file>: errors E warnings W infos I hints H", then the
// first messages. Exit status 1 when any file has an error or a warning, 2 on a usage error.
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require(path.join(__dirname, 'node_modules', 'gltf-validator'));

async function main(files) {
  if (files.length === 0) {
    console.error('usage: validate_gltf.js FILE.glb...');
    return 2;
  }
  let failed = false;
  for (const file of files) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {maxIssues: 50});
    const i = report.issues;
    console.log(`${file}: errors ${i.numErrors} warnings ${i.numWarnings} infos ${i.numInfos} hints ${i.numHints}`);
    for (const m of i.messages.slice(0, 10)) console.log(`  [${m.severity}] ${m.code} ${m.pointer || ''}: ${m.message}`);
    if (i.numErrors > 0 || i.numWarnings > 0) failed = true;
  }
  return failed ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (e) => {
  console.error(e);
  process.exit(1);
});
