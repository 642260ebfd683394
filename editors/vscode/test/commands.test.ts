import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS, buildArgs, compareView, errorMessage, parseVersion, textFromInput, type CommandSpec } from '../src/commands';

const SERVER_COMMANDS = [
  'runNode', 'runWorkflow', 'runFrom', 'cancel', 'approve', 'retry', 'edit', 'freeze', 'unfreeze',
  'restoreVersion', 'persist', 'build', 'buildAccept', 'buildReject', 'showContext', 'checkChapter', 'compare',
].map((c) => `flowcabal.${c}`);

test('every server command has a palette entry contributed in package.json', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string; title: string }[] };
  };
  const contributed = new Set(pkg.contributes.commands.map((c) => c.command));
  assert.deepEqual(COMMANDS.map((c) => c.server).sort(), [...SERVER_COMMANDS].sort());
  for (const spec of COMMANDS) {
    assert.ok(contributed.has(spec.id), `${spec.id} not contributed`);
    // The plain ids are registered by the language client for the server.
    assert.notEqual(spec.id, spec.server);
    assert.ok(!contributed.has(spec.server), `${spec.server} must not be contributed`);
  }
  for (const id of ['flowcabal.setApiKey', 'flowcabal.ui.graph', 'flowcabal.showLog', 'flowcabal.restartServer']) {
    assert.ok(contributed.has(id), id);
  }
});

test('commands that take text ask for it', () => {
  const byServer = new Map(COMMANDS.map((c) => [c.server, c]));
  assert.equal(byServer.get('flowcabal.build')?.text, 'required');
  assert.equal(byServer.get('flowcabal.retry')?.text, 'optional');
  assert.equal(byServer.get('flowcabal.buildAccept')?.text, 'optional');
  assert.equal(byServer.get('flowcabal.buildReject')?.text, 'optional');
  assert.equal(byServer.get('flowcabal.edit')?.text, 'document');
  assert.equal(byServer.get('flowcabal.restoreVersion')?.version, true);
  assert.equal(byServer.get('flowcabal.runNode')?.text, 'none');
});

test('buildArgs', async (t) => {
  const uri = 'file:///novel/workflows/%E7%AC%AC.flow';
  const ok: { name: string; input: Parameters<typeof buildArgs>[0]; want: unknown }[] = [
    { name: 'uri only', input: { uri }, want: { uri } },
    {
      name: 'cursor position (UTF-16 as VS Code counts)',
      input: { uri, position: { line: 11, character: 51 } },
      want: { uri, position: { line: 11, character: 51 } },
    },
    { name: 'node trimmed', input: { uri, node: ' 第十二章 ' }, want: { uri, node: '第十二章' } },
    { name: 'empty node dropped', input: { uri, node: '  ' }, want: { uri } },
    { name: 'text kept verbatim', input: { uri, text: ' 更短一些\n' }, want: { uri, text: ' 更短一些\n' } },
    { name: 'version', input: { uri, version: 3 }, want: { uri, version: 3 } },
    {
      name: 'all fields',
      input: { uri, node: 'draft', position: { line: 0, character: 0 }, text: 't', version: 1 },
      want: { uri, node: 'draft', position: { line: 0, character: 0 }, text: 't', version: 1 },
    },
  ];
  for (const c of ok) {
    await t.test(c.name, () => {
      const got = buildArgs(c.input);
      assert.deepEqual(got, c.want);
      // One plain JSON object: survives a JSON round trip unchanged.
      assert.deepEqual(JSON.parse(JSON.stringify(got)), c.want);
    });
  }
  const bad: { name: string; input: Parameters<typeof buildArgs>[0]; msg: RegExp }[] = [
    { name: 'no uri', input: { uri: '' }, msg: /no document/ },
    { name: 'negative line', input: { uri, position: { line: -1, character: 0 } }, msg: /bad position/ },
    { name: 'fractional character', input: { uri, position: { line: 0, character: 1.5 } }, msg: /bad position/ },
    { name: 'version 0', input: { uri, version: 0 }, msg: /bad version/ },
    { name: 'version NaN', input: { uri, version: Number.NaN }, msg: /bad version/ },
  ];
  for (const c of bad) {
    await t.test(`refuses ${c.name}`, () => {
      assert.throws(() => buildArgs(c.input), c.msg);
    });
  }
});

test('textFromInput', () => {
  const required = { text: 'required' } as CommandSpec;
  const optional = { text: 'optional' } as CommandSpec;
  assert.deepEqual(textFromInput(required, undefined), { kind: 'cancel' });
  assert.deepEqual(textFromInput(optional, undefined), { kind: 'cancel' });
  assert.equal(textFromInput(required, '  ').kind, 'error');
  assert.deepEqual(textFromInput(optional, ''), { kind: 'ok' });
  assert.deepEqual(textFromInput(required, '写一章'), { kind: 'ok', text: '写一章' });
  assert.deepEqual(textFromInput(optional, 'shorter'), { kind: 'ok', text: 'shorter' });
});

test('parseVersion', () => {
  const cases: [string | undefined, number | undefined][] = [
    ['3', 3], [' 12 ', 12], ['0', undefined], ['-1', undefined], ['1.5', undefined], ['v2', undefined], ['', undefined],
    [undefined, undefined], ['99999999999999999999', undefined],
  ];
  for (const [input, want] of cases) {
    assert.equal(parseVersion(input), want, String(input));
  }
});

test('errorMessage keeps the server words', () => {
  assert.equal(
    errorMessage('flowcabal.persist', { code: -32601, message: 'flowcabal.persist: not available yet' }),
    'FlowCabal: flowcabal.persist failed: flowcabal.persist: not available yet',
  );
  assert.equal(errorMessage('x', new Error('boom')), 'FlowCabal: x failed: boom');
  assert.equal(errorMessage('x', 'plain'), 'FlowCabal: x failed: plain');
});

test('a comparison result names the two sides for the diff editor', () => {
  const v = compareView({ left: 'file:///p/.flowcabal/compare/w/draft.v1.md', right: 'file:///p/.flowcabal/compare/w/draft.v2.md', title: 'draft: v1 ↔ v2', summary: 'draft v1 → v2: context: 1 changed' });
  assert.deepEqual(v, { left: 'file:///p/.flowcabal/compare/w/draft.v1.md', right: 'file:///p/.flowcabal/compare/w/draft.v2.md', title: 'draft: v1 ↔ v2', summary: 'draft v1 → v2: context: 1 changed' });
  assert.equal(compareView({ left: 'file:///a' }), undefined);
  assert.equal(compareView(null), undefined);
  assert.equal(compareView('v1'), undefined);
});
