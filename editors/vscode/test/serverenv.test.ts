import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { API_KEY_ENV, TRUSTED_HOSTS_ENV, redact, resolveServerPath, serverEnv, trustedHosts } from '../src/serverenv';

test('serverEnv sets the key only in the process environment', () => {
  const base = { PATH: '/usr/bin', HOME: '/root', UNSET: undefined };
  assert.deepEqual(serverEnv(base, 'sk-123'), { PATH: '/usr/bin', HOME: '/root', [API_KEY_ENV]: 'sk-123' });
  assert.deepEqual(serverEnv(base, undefined), { PATH: '/usr/bin', HOME: '/root' });
  assert.deepEqual(serverEnv(base, ''), { PATH: '/usr/bin', HOME: '/root' });
  // With nothing stored, a key exported in the shell that started the editor is kept …
  assert.equal(serverEnv({ ...base, [API_KEY_ENV]: 'from-shell' }, undefined)[API_KEY_ENV], 'from-shell');
  // … and the stored key wins over it.
  assert.equal(serverEnv({ ...base, [API_KEY_ENV]: 'from-shell' }, 'stored')[API_KEY_ENV], 'stored');
  // The input is not modified.
  assert.equal(API_KEY_ENV in base, false);
});

test('redact', () => {
  assert.equal(redact('auth sk-abcdef and sk-abcdef', 'sk-abcdef'), 'auth [REDACTED] and [REDACTED]');
  assert.equal(redact('nothing here', 'sk-abcdef'), 'nothing here');
  assert.equal(redact('abc', undefined), 'abc');
  // Very short keys are not redacted (they would shred the log) — and are refused nowhere else, so say so.
  assert.equal(redact('a b c', 'a'), 'a b c');
});

test('resolveServerPath', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fc-path-'));
  const bin1 = path.join(dir, 'a');
  const bin2 = path.join(dir, 'b');
  fs.mkdirSync(bin1);
  fs.mkdirSync(bin2);
  const exe = path.join(bin2, 'flowcabal');
  fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(bin1, 'flowcabal'), 'not executable', { mode: 0o644 });
  const isExec = (p: string): boolean => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const envPath = [bin1, '', bin2].join(path.delimiter);
  assert.equal(resolveServerPath(undefined, envPath, isExec), exe, 'first executable on PATH');
  assert.equal(resolveServerPath('', envPath, isExec), exe);
  assert.equal(resolveServerPath('  ', envPath, isExec), exe);
  assert.equal(resolveServerPath(exe, '', isExec), exe, 'absolute setting');
  assert.equal(resolveServerPath('b/flowcabal', '', isExec, dir), exe, 'relative setting from the workspace');
  assert.equal(resolveServerPath(path.join(bin1, 'flowcabal'), envPath, isExec), undefined, 'setting wins even when wrong');
  assert.equal(resolveServerPath(undefined, bin1, isExec), undefined);
  assert.equal(resolveServerPath(undefined, undefined, isExec), undefined);
});

test('the hosts of the author\'s own base URLs are trusted, added to inherited ones', () => {
  assert.deepEqual(trustedHosts(['https://gpu.lan:8000/v1', undefined, '', 'not a url', 'https://GPU.lan:8000/other']), ['gpu.lan:8000']);
  const base = { PATH: '/usr/bin' };
  assert.equal(serverEnv(base, 'k', ['gpu.lan:8000'])[TRUSTED_HOSTS_ENV], 'gpu.lan:8000');
  assert.equal(serverEnv({ ...base, [TRUSTED_HOSTS_ENV]: 'a.example' }, 'k', ['gpu.lan:8000'])[TRUSTED_HOSTS_ENV], 'a.example,gpu.lan:8000');
  assert.equal(serverEnv(base, 'k', [])[TRUSTED_HOSTS_ENV], undefined);
});
