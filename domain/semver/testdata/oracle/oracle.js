// JSON-lines oracle: for each {"range": r} line, answers {"v": validity}
// with node-semver's own validRange (loose = false).
const readline = require('readline');
const semver = require('semver');
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const q = JSON.parse(line);
  process.stdout.write(JSON.stringify({ v: semver.validRange(q.range) !== null }) + '\n');
});
