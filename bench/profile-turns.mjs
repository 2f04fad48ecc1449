// What the portal's main thread did in its turns over 50 ms: a `--cpu-prof` profile of the
// portal (`npm run bench:large -- --profile`) read against the turns bench/event-loop-probe.mjs
// recorded (their windows on the same monotonic clock, in microseconds).
//
//   node bench/profile-turns.mjs <profile.cpuprofile> <turns.json>
//
// For each turn: its CPU time, the profile's samples in its window by the innermost frame of the
// portal's own code (apps/, packages/) on their stack, else by the innermost frame, and by
// function (self time). "(garbage collector)" is V8's collector.
import fs from 'node:fs';

const [profileFile, turnsFile] = process.argv.slice(2);
if (!profileFile || !turnsFile) {
  console.error('usage: node bench/profile-turns.mjs <profile.cpuprofile> <turns.json>');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(profileFile, 'utf8'));
const { turns } = JSON.parse(fs.readFileSync(turnsFile, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const where = (n) => {
  const f = n.callFrame;
  const file = f.url.replace(/^file:\/\/.*?\/(apps|packages|node_modules)\//, '$1/');
  return `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
};
const own = (n) => /\/(apps|packages)\//.test(n.callFrame.url) && !n.callFrame.url.includes('node_modules');
/** The innermost frame of the portal's code on the sample's stack, with the leaf below it. */
const portalFrame = (id) => {
  const leaf = byId.get(id);
  if (['(garbage collector)', '(program)', '(idle)'].includes(leaf.callFrame.functionName))
    return where(leaf);
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const n = byId.get(at);
    if (own(n)) return at === id ? where(n) : `${where(n)} → ${where(leaf)}`;
  }
  return where(leaf);
};

// Sample i was taken at startTime + timeDeltas[0..i]; it stands for the time until the next one.
const times = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));

const out = (line) => process.stdout.write(`${line}\n`);
const top = (map, n) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `    ${(us / 1000).toFixed(1).padStart(6)} ms  ${k}`)
    .join('\n');
for (const turn of turns) {
  const portal = new Map();
  const self = new Map();
  let sampled = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (times[i] < turn.from || times[i] > turn.to) continue;
    const weight = (times[i + 1] ?? profile.endTime) - times[i];
    sampled += weight;
    const id = profile.samples[i];
    const p = portalFrame(id);
    portal.set(p, (portal.get(p) ?? 0) + weight);
    const s = where(byId.get(id));
    self.set(s, (self.get(s) ?? 0) + weight);
  }
  out(
    `turn of ${turn.cpuMs} ms CPU (${((turn.to - turn.from) / 1000).toFixed(1)} ms wall, ${(sampled / 1000).toFixed(1)} ms sampled) at +${((turn.from - profile.startTime) / 1e6).toFixed(2)} s`,
  );
  out(`  by the portal's innermost frame:\n${top(portal, 8)}`);
  out(`  by function (self):\n${top(self, 6)}`);
}
