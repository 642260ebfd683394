import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { RunStatus } from '../src/progress';

test('RunStatus follows $/progress', () => {
  const s = new RunStatus();
  assert.equal(s.text(), '$(check) FlowCabal');
  assert.equal(s.running, false);
  s.update('t1', { kind: 'begin', title: 'Run chapter-11', message: 'node 1/3', percentage: 0 });
  assert.equal(s.running, true);
  assert.equal(s.text(), '$(sync~spin) Run chapter-11: node 1/3 (0%)');
  s.update('t1', { kind: 'report', message: 'node 2/3 · 1,240 tok', percentage: 66.6 });
  assert.equal(s.text(), '$(sync~spin) Run chapter-11: node 2/3 · 1,240 tok (67%)');
  s.update(7, { kind: 'begin', title: 'Run draft' });
  assert.equal(s.text(), '$(sync~spin) Run draft +1');
  s.update(7, { kind: 'end' });
  assert.equal(s.text(), '$(sync~spin) Run chapter-11: node 2/3 · 1,240 tok (67%)');
  s.update('t1', { kind: 'end', message: '3 nodes done' });
  assert.equal(s.running, false);
  assert.equal(s.text(), '$(check) FlowCabal: 3 nodes done');
});

test('RunStatus ignores reports for unknown tokens and shows errors', () => {
  const s = new RunStatus();
  s.update('x', { kind: 'report', message: 'late' });
  assert.equal(s.running, false);
  s.update('x', { kind: 'end' });
  assert.equal(s.text(), '$(check) FlowCabal');
  s.setError('no flowcabal on PATH');
  assert.equal(s.text(), '$(error) FlowCabal');
  assert.match(s.tooltip(), /no flowcabal on PATH/);
  s.update('y', { kind: 'begin', title: 'Run' });
  assert.equal(s.text(), '$(sync~spin) Run');
});
