import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { acceptArgs, acceptFactsArgs, entityItem, factItem, importArgs, offeredFacts, type FactProposal } from '../src/authorargs';

test('the author commands and the inlay hint setting are contributed', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string; title: string }[]; configuration: { properties: Record<string, { default: unknown }> } };
  };
  const titles = new Map(pkg.contributes.commands.map((c) => [c.command, c.title]));
  assert.equal(titles.get('flowcabal.ui.importManuscript'), 'Import Manuscript…');
  assert.equal(titles.get('flowcabal.ui.suggestEntities'), 'Suggest Entities…');
  assert.equal(titles.get('flowcabal.ui.entityFacts'), 'Propose Facts for This Entity…');
  assert.equal(pkg.contributes.configuration.properties['flowcabal.inlayHints.enabled']?.default, true);
});

test('importArgs: a preview, then the import; no file is refused', () => {
  assert.deepEqual(importArgs('file:///書', ['file:///書/原稿/𝄞.txt'], true), { uri: 'file:///書', files: ['file:///書/原稿/𝄞.txt'], dryRun: true });
  assert.deepEqual(importArgs('file:///p', ['file:///a', 'file:///b'], false), { uri: 'file:///p', files: ['file:///a', 'file:///b'] });
  assert.throws(() => importArgs('file:///p', [], true), /no manuscript/);
  assert.throws(() => importArgs('', ['file:///a'], true), /no project/);
});

test('acceptArgs: names once each, blanks dropped, none refused', () => {
  assert.deepEqual(acceptArgs('file:///p', ['賈寶玉', '𝄞琴', '賈寶玉', ' ']), { uri: 'file:///p', names: ['賈寶玉', '𝄞琴'] });
  assert.throws(() => acceptArgs('file:///p', ['']), /no name/);
});

test('entityItem: the row says what, how often, where and the other names', () => {
  const item = entityItem({ name: '林黛玉', aliases: ['黛玉', '林姑娘'], kind: 'character', mentions: 18, first_chapter: 1, last_chapter: 2, related: ['賈寶玉'] });
  assert.deepEqual(item, { label: '林黛玉', description: 'character · 18 mentions · chapters 1–2', detail: 'also 黛玉, 林姑娘 · often with 賈寶玉' });
  const bare = entityItem({ name: 'Meryton', aliases: [], kind: 'location', mentions: 3, first_chapter: 0, last_chapter: 0, related: [] });
  assert.deepEqual(bare, { label: 'Meryton', description: 'location · 3 mentions · chapter 0' });
});

test('facts: only the new are offered, each row with its quotation; the accept carries the buffer and its version', () => {
  const p = (over: Partial<FactProposal>): FactProposal => ({ id: 'x', kind: 'fact', key: 'home', value: '大觀園', chapter: 1, quote: '林黛玉聽了，\n便往大觀園來', line: 3, status: 'new', ...over });
  const res = { entity: '林黛玉', path: 'entities/characters/林黛玉.md', message: 'm', rejected: [],
    proposals: [p({ id: 'a' }), p({ id: 'b', status: 'conflict', existing: '蘇州' }), p({ id: 'c', status: 'same' }), p({ id: 'd', kind: 'progression', key: 'location', chapter: 2, quote: '𝄞琴' })] };
  assert.deepEqual(offeredFacts(res).map((x) => x.id), ['a', 'd']);
  assert.deepEqual(factItem(res.proposals[0]), { label: 'home: 大觀園', description: 'chapter 1, line 3', detail: '“林黛玉聽了， 便往大觀園來”' });
  assert.equal(factItem(res.proposals[3]).label, 'from chapter 2, location: 大觀園');
  assert.deepEqual(acceptFactsArgs('file:///e.md', ['a', 'd', 'a'], 'text', 4), { uri: 'file:///e.md', names: ['a', 'd'], text: 'text', version: 4 });
  assert.throws(() => acceptFactsArgs('file:///e.md', [], 't', 1), /no proposal/);
});
