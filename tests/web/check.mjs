// The web viewer in headless Chromium (scripts/web.sh test): pages posed by URL parameters
// against the native `render` of the same frames, a file given to the page's input, no errors
// logged; then the page's size, time to first frame and frame time, beside the native window's.
//
// playwright-core and pngjs come from target/tools (scripts/web.sh installs them there).
// Environment: SKINSCOPE_BIN (the native binary), SKINSCOPE_SHARED (../shared/gltf),
// CHROMIUM_PATH (default: chromium on the PATH), SKINSCOPE_WEB_OUT (default: target/web/check).
import { execFileSync, execSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
// playwright-core and pngjs, installed by scripts/web.sh under target/tools.
const tools = createRequire(path.join(root, 'target', 'tools', 'node_modules', '.'));
const { chromium } = tools('playwright-core');
const { PNG } = tools('pngjs');
const site = path.join(root, 'target', 'web');
const shared = path.resolve(process.env.SKINSCOPE_SHARED ?? path.join(root, '..', 'shared', 'gltf'));
const native = process.env.SKINSCOPE_BIN ?? path.join(root, 'target', 'debug', 'skinscope');
const out = process.env.SKINSCOPE_WEB_OUT ?? path.join(site, 'check');
fs.mkdirSync(out, { recursive: true });

// The golden-image tolerance of the native tests (tests/suite/window.rs): a mean difference of at
// most 1.5 levels, and at most 1% of pixels more than 24 levels off in a channel.
const MEAN_MAX = 1.5;
const FAR_LEVELS = 24;
const FAR_SHARE_MAX = 0.01;

// A static server on loopback: the built page at /, the shared models at /shared/.
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const pathname = decodeURIComponent(url.pathname);
  const [base, rest] = pathname.startsWith('/shared/')
    ? [shared, pathname.slice('/shared/'.length)]
    : [site, pathname === '/' ? 'index.html' : pathname.slice(1)];
  const file = path.resolve(base, rest);
  if (!file.startsWith(base + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const address = `http://127.0.0.1:${server.address().port}`;

const args = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--enable-unsafe-webgpu',
  '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-webgpu-adapter=swiftshader'];
const executablePath = process.env.CHROMIUM_PATH || execSync('command -v chromium').toString().trim();
const browser = await chromium.launch({ executablePath, headless: true, args });

let failures = 0;
let passes = 0;
const errors = [];
const fail = (what) => { failures++; console.log(`FAIL ${what}`); };
const pass = (what) => { passes++; console.log(`ok   ${what}`); };

// Opens `query` and waits for the canvas's mark; returns the page, the mark and its time.
async function open(query, viewport = { width: 800, height: 600 }) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${query}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${query}: ${e}`));
  const t0 = Date.now();
  await page.goto(`${address}/index.html${query}`);
  let mark;
  try {
    await page.waitForFunction(() => {
      const c = document.getElementById('skinscope');
      return c.dataset.frameDrawn || c.dataset.error;
    }, null, { timeout: 120000 });
    mark = await page.evaluate(() => {
      const c = document.getElementById('skinscope');
      return { drawn: c.dataset.frameDrawn, error: c.dataset.error };
    });
  } catch (e) {
    mark = { error: `no frame drawn within 120 s: ${e.message.split('\n')[0]}` };
  }
  return { page, mark, ms: Date.now() - t0 };
}

function compare(a, b) {
  if (a.width !== b.width || a.height !== b.height) return { size: false };
  let sum = 0;
  let far = 0;
  let background = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    let off = false;
    for (let k = 0; k < 3; k++) {
      const d = Math.abs(a.data[i + k] - b.data[i + k]);
      sum += d;
      off ||= d > FAR_LEVELS;
    }
    if (off) far++;
    if (a.data[i] === a.data[0] && a.data[i + 1] === a.data[1] && a.data[i + 2] === a.data[2]) {
      background++;
    }
  }
  const pixels = a.width * a.height;
  return { size: true, mean: sum / (pixels * 3), far: far / pixels, background: background / pixels };
}

// One frame posed in the page and by `render`, compared; returns the page's image.
async function sameFrame(name, query, renderArgs, size = '320x240') {
  const { page, mark } = await open(`?${query}&size=${size}&panel=0`);
  const shot = path.join(out, `${name}.web.png`);
  const wanted = /backend=(\w+)/.exec(query)?.[1];
  if (!mark.drawn || (wanted && mark.drawn !== wanted)) {
    fail(`${name}: drawn with ${mark.drawn}: ${mark.error}`);
    await page.close();
    return;
  }
  fs.writeFileSync(shot, await page.locator('#skinscope').screenshot());
  await page.close();
  const reference = path.join(out, `${name}.native.png`);
  execFileSync(native, ['render', ...renderArgs, '--size', size, '--fov-y', '40', '--out', reference],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  const c = compare(PNG.sync.read(fs.readFileSync(shot)), PNG.sync.read(fs.readFileSync(reference)));
  const said = c.size
    ? `mean ${c.mean.toFixed(3)}, ${(100 * c.far).toFixed(2)}% far off, ${(100 * c.background).toFixed(0)}% background`
    : 'sizes differ';
  const ok = c.size && c.mean <= MEAN_MAX && c.far <= FAR_SHARE_MAX && c.background < 0.9;
  (ok ? pass : fail)(`${name} (${mark.drawn}) against render: ${said}`);
  return shot;
}

const walk = ['--clip', 'walk', '--time', '0.5'];
await sameFrame('walk-lbs', 'clip=walk&time=0.5&skinning=lbs', [...walk, '--skinning', 'lbs']);
await sameFrame('walk-dqs', 'clip=walk&time=0.5&skinning=dqs', [...walk, '--skinning', 'dqs']);
// The forearm twisted 150 degrees: linear blend collapses the wrist, dual quaternions keep
// its volume, so the two pages must differ from each other as the two renders do.
const twist = ['--clip', 'twist', '--time', '1'];
const twistLbs = await sameFrame('twist-lbs', 'clip=twist&time=1&skinning=lbs', [...twist, '--skinning', 'lbs']);
const twistDqs = await sameFrame('twist-dqs', 'clip=twist&time=1&skinning=dqs', [...twist, '--skinning', 'dqs']);
if (twistLbs && twistDqs) {
  // Where the two renders disagree, each page must be nearer its own method's render.
  const read = (f) => PNG.sync.read(fs.readFileSync(f)).data;
  const [webL, webD] = [read(twistLbs), read(twistDqs)];
  const [natL, natD] = [read(twistLbs.replace('.web.', '.native.')), read(twistDqs.replace('.web.', '.native.'))];
  let pixels = 0;
  const near = { own: 0, other: 0 };
  for (let i = 0; i < natL.length; i += 4) {
    const d = (a, b) => Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
    if (d(natL, natD) <= 3 * FAR_LEVELS) continue;
    pixels++;
    near.own += d(webL, natL) + d(webD, natD);
    near.other += d(webL, natD) + d(webD, natL);
  }
  (pixels > 20 && near.own < near.other / 4 ? pass : fail)(
    `the pages' LBS and DQS each match their own render where the renders differ (${pixels} pixels; ` +
    `differences ${near.own} against ${near.other} crossed)`);
}
// The panel's display switches by URL: the bind pose with bones and wireframe; a weight view.
await sameFrame('bind-bones-wireframe', 'clip=walk&time=0.5&palette=bind&bones=1&wireframe=1',
  [...walk, '--palette', 'bind', '--bones', '--wireframe']);
// Under 200 pixels high, so `render` draws no legend (the window shows it in the panel).
await sameFrame('influences', 'clip=walk&time=0.5&color=influences',
  [...walk, '--color-by', 'influences'], '320x190');
const fox = path.join(shared, 'Fox', 'Fox.glb');
await sameFrame('fox-lbs', 'model=/shared/Fox/Fox.glb&clip=Walk&time=0.5',
  [fox, '--clip', 'Walk', '--time', '0.5']);
await sameFrame('fox-dqs', 'model=/shared/Fox/Fox.glb&clip=Walk&time=0.5&skinning=dqs',
  [fox, '--clip', 'Walk', '--time', '0.5', '--skinning', 'dqs']);

// The window's keys on the page: 2 (the bind palette), B (bones), W (wireframe) and F (the
// camera framed again, on the bind pose) pressed on the canvas give render's frame with those
// options.
{
  const size = '320x240';
  const { page, mark } = await open(`?clip=walk&time=0.5&panel=0&size=${size}`);
  if (!mark.drawn) {
    fail(`keys: the page did not draw: ${mark.error}`);
  } else {
    await page.locator('#skinscope').focus();
    for (const key of ['2', 'b', 'w', 'f']) await page.keyboard.press(key);
    await page.waitForTimeout(1500);
    const shot = path.join(out, 'keys.web.png');
    fs.writeFileSync(shot, await page.locator('#skinscope').screenshot());
    const reference = path.join(out, 'keys.native.png');
    execFileSync(native, ['render', ...walk, '--palette', 'bind', '--bones', '--wireframe', '--size', size,
      '--fov-y', '40', '--out', reference], { stdio: ['ignore', 'ignore', 'pipe'] });
    const c = compare(PNG.sync.read(fs.readFileSync(shot)), PNG.sync.read(fs.readFileSync(reference)));
    (c.mean <= MEAN_MAX && c.far <= FAR_SHARE_MAX ? pass : fail)(
      `keys 2, B, W and F on the page: mean ${c.mean.toFixed(3)}, ${(100 * c.far).toFixed(2)}% far off against render`);
  }
  await page.close();
}

// The same frames on WebGL2 (forced): arrays in textures, skinning in the vertex shader.
await sameFrame('walk-lbs-webgl2', 'clip=walk&time=0.5&skinning=lbs&backend=webgl2',
  [...walk, '--skinning', 'lbs']);
await sameFrame('twist-dqs-webgl2', 'clip=twist&time=1&skinning=dqs&backend=webgl2',
  [...twist, '--skinning', 'dqs']);
await sameFrame('fox-lbs-webgl2', 'model=/shared/Fox/Fox.glb&clip=Walk&time=0.5&backend=webgl2',
  [fox, '--clip', 'Walk', '--time', '0.5']);

// A .gltf with its buffers given to the file input together: the page opens it.
{
  const { page, mark } = await open('?panel=1');
  if (!mark.drawn) {
    fail(`file input: the page did not draw: ${mark.error}`);
  } else {
    const dir = path.join(shared, 'SimpleSkin');
    const files = fs.readdirSync(dir).filter((f) => /\.(gltf|bin)$/.test(f)).map((f) => path.join(dir, f));
    await page.setInputFiles('#skinscope-files', files);
    try {
      await page.waitForFunction(() => document.getElementById('skinscope').dataset.character === 'SimpleSkin.gltf',
        null, { timeout: 30000 });
      pass(`file input: SimpleSkin.gltf and its ${files.length - 1} buffers opened`);
    } catch {
      const c = await page.evaluate(() => document.getElementById('skinscope').dataset);
      fail(`file input: SimpleSkin did not open (${JSON.stringify(c)})`);
    }
  }
  await page.close();
}

// A file dropped on the page opens, as on the desktop window.
{
  const { page, mark } = await open('?panel=0');
  if (!mark.drawn) {
    fail(`drop: the page did not draw: ${mark.error}`);
  } else {
    const bytes = [...fs.readFileSync(path.join(shared, 'Fox', 'Fox.glb'))];
    await page.evaluate((bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'Fox.glb'));
      const canvas = document.getElementById('skinscope');
      canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, bytes);
    try {
      await page.waitForFunction(() => document.getElementById('skinscope').dataset.character === 'Fox.glb',
        null, { timeout: 30000 });
      pass('drop: Fox.glb dropped on the page opened');
    } catch {
      const c = await page.evaluate(() => document.getElementById('skinscope').dataset);
      fail(`drop: Fox.glb did not open (${JSON.stringify(c)})`);
    }
  }
  await page.close();
}

// A bad parameter is said, not thrown.
{
  const { page, mark } = await open('?clip=dance');
  const said = mark.error ?? '';
  (said.includes('no clip "dance"') ? pass : fail)(`a clip the character lacks is said: ${said}`);
  errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('dance')));
  await page.close();
}

// Measured: the wasm's size, the time to the first frame, the frame time on the built-in walk.
const wasm = fs.readFileSync(path.join(site, 'skinscope_bg.wasm'));
const gzip = zlib.gzipSync(wasm, { level: 9 });
for (const backend of ['webgpu', 'webgl2']) {
  const { page, mark, ms } = await open(`?backend=${backend}`, { width: 1280, height: 720 });
  if (mark.drawn) {
    const frame = await page.evaluate(() => new Promise((done) => {
      const times = [];
      const tick = (t) => {
        times.push(t);
        if (times.length < 121) requestAnimationFrame(tick);
        else done((times[120] - times[0]) / 120);
      };
      requestAnimationFrame(tick);
    }));
    console.log(`measured ${backend}: first frame ${ms} ms after opening the page; ${frame.toFixed(2)} ms a frame at 1280x720 with the panel`);
  }
  await page.close();
}
console.log(`measured wasm: ${(wasm.length / 1048576).toFixed(2)} MiB, ${(gzip.length / 1048576).toFixed(2)} MiB gzipped`);

await browser.close();
server.close();
if (errors.length) {
  fail(`the pages logged ${errors.length} errors:\n  ${errors.join('\n  ')}`);
} else {
  pass('no page logged an error');
}
console.log(`${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
