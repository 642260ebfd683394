import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { slogLevel } from '../src/loglevel';

test('slogLevel', () => {
  const cases: [string, string | undefined][] = [
    ['time=2026-11-25T23:44:47.136Z level=INFO msg=initialized client="code-server 1.100.3"', 'info'],
    ['time=x level=WARN msg="editor settings" err=boom', 'warn'],
    ['time=x level=ERROR msg=crash', 'error'],
    ['time=x level=DEBUG msg=trace', 'debug'],
    ['time=x level=INFO+2 msg=odd', 'info'],
    ['level=INFO', 'info'],
    ['panic: runtime error: index out of range', undefined],
    ['msg="level=INFO inside a message"', undefined],
    ['', undefined],
  ];
  for (const [line, want] of cases) {
    assert.equal(slogLevel(line), want, line);
  }
});
