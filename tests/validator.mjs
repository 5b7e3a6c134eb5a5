// The Khronos glTF-Validator (npm: gltf-validator) over one .gltf or .glb file: prints its
// report's issues as JSON ({numErrors, numWarnings, numInfos, numHints, messages}).
// Usage: node tests/validator.mjs FILE, with SKINSCOPE_GLTF_VALIDATOR naming the installed
// package's folder (scripts/test.sh installs it under target/tools). External resources are
// read from the file's own folder only.
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';

const where = process.env.SKINSCOPE_GLTF_VALIDATOR;
if (!where) {
    console.error('validator.mjs: SKINSCOPE_GLTF_VALIDATOR must name the gltf-validator package (scripts/test.sh installs it)');
    process.exit(2);
}
const validator = createRequire(path.join(where, 'package.json'))(where);
const file = process.argv[2];
const folder = path.resolve(path.dirname(file));
const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) => new Promise((resolve, reject) => {
        const target = path.resolve(folder, decodeURIComponent(uri));
        if (!target.startsWith(folder + path.sep)) {
            reject(`${uri} is outside the file's folder`);
            return;
        }
        fs.readFile(target, (e, data) => (e ? reject(e.toString()) : resolve(new Uint8Array(data))));
    }),
});
console.log(JSON.stringify(report.issues));
