#!/usr/bin/env node
// adrkit-mcp's npm entry point: finds the native binary that npm installed
// with this package (the one optional dependency that matches this system's
// os and cpu) and runs it with the same arguments and the same stdin, stdout
// and stderr. It adds nothing to the conversation: the exit status and a
// terminating signal of the binary become this process's own, and SIGINT,
// SIGTERM and SIGHUP sent to this process are passed on to the binary, as
// is the end of the process that started it (see the orphan check).
'use strict';

const { spawn } = require('node:child_process');

const platformPackage = `adrkit-mcp-${process.platform}-${process.arch}`;
const binaryName = process.platform === 'win32' ? 'adrkit-mcp.exe' : 'adrkit-mcp';

function binaryPath() {
  try {
    return require.resolve(`${platformPackage}/bin/${binaryName}`);
  } catch {
    process.stderr.write(
      `adrkit-mcp: no binary for ${process.platform}/${process.arch}: the package ` +
        `${platformPackage}, which carries it, is not installed. npm installs it with ` +
        `adrkit-mcp when it can find it: from the registry once it is published, or, ` +
        `installing from files, when its tarball is given too (npm install ` +
        `./adrkit-mcp-<version>.tgz ./${platformPackage}-<version>.tgz, both made by ` +
        `scripts/package-npm.sh). An install with --omit=optional also leaves it out. ` +
        `Or use the binary itself: a release archive, or go install ./cmd/adrkit-mcp.\n`,
    );
    process.exit(1);
  }
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: 'inherit', windowsHide: true });

// Pass termination signals on; the binary decides how to end (it exits 0
// on SIGINT and SIGTERM), and its ending ends this process below.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of forwarded) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
    }
  });
}

// npx runs this launcher under a shell that dies of SIGTERM without
// passing it on, which would leave the binary running with no one to talk
// to. A launcher whose parent is gone (it was reparented) ends the binary
// as if it had been sent SIGTERM itself. (Windows does not reparent;
// there the check never fires.)
const parent = process.ppid;
const orphanCheck = setInterval(() => {
  if (process.ppid !== parent && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
  }
}, 250);
orphanCheck.unref();

child.on('error', (err) => {
  process.stderr.write(`adrkit-mcp: cannot start ${binaryName}: ${err.message}\n`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so that whoever started this process sees
    // what the binary's end was.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
