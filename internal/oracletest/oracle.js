// JSON-lines oracle (internal/oracletest): answers glob, regex and semver
// questions with the reference's libraries.
const readline = require('readline');
const pm = require('picomatch');
const semver = require('semver');
const opts = { dot: false, nocase: false, nonegate: true, windows: false };
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const q = JSON.parse(line);
  const out = {};
  if (q.glob !== undefined) {
    try {
      // The raw output, not RegExp#source (which re-escapes "/"), and
      // whether the reference fell back to its never-matching regex.
      out.src = `^(?:${pm.makeRe(q.glob, opts, true)})$`;
      out.valid = pm.makeRe(q.glob, opts).source !== '$^';
      const isMatch = pm(q.glob, opts);
      out.m = q.c.map((c) => isMatch(c));
    } catch (e) {
      out.err = String(e && e.message);
    }
  } else if (q.re !== undefined) {
    try {
      const re = new RegExp(q.re);
      out.m = q.c.map((c) => re.test(c));
    } catch (e) {
      out.err = String(e && e.message);
    }
  } else if (q.range !== undefined) {
    out.v = semver.validRange(q.range) !== null;
  }
  process.stdout.write(JSON.stringify(out) + '\n');
});
