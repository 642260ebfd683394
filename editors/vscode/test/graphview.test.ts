import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { graphHtml, nodeAt, svgNodeNames, type SymbolLike } from '../src/graphview';

const r = (sl: number, sc: number, el: number, ec: number): SymbolLike['range'] => ({
  start: { line: sl, character: sc },
  end: { line: el, character: ec },
});

const symbols: SymbolLike[] = [
  {
    name: '第十二章 · 断桥',
    kind: 2,
    range: r(0, 0, 30, 1),
    children: [
      { name: 'premise', kind: 12, range: r(5, 0, 10, 1), children: [{ name: 'user', kind: 7, range: r(7, 2, 9, 5) }] },
      { name: '草稿', kind: 12, range: r(12, 0, 20, 1), children: [{ name: 'premise', kind: 13, range: r(14, 8, 14, 19) }] },
    ],
  },
];

test('nodeAt', () => {
  const names = new Set(['premise', '草稿']);
  assert.equal(nodeAt(symbols, names, 6, 3), 'premise');
  assert.equal(nodeAt(symbols, names, 8, 4), 'premise', 'inside a prompt of the node');
  assert.equal(nodeAt(symbols, names, 13, 0), '草稿');
  // A {{premise}} reference inside 草稿 is named premise but is not that node:
  // the outer node wins because it is found first.
  assert.equal(nodeAt(symbols, names, 14, 10), '草稿');
  assert.equal(nodeAt(symbols, names, 11, 0), undefined, 'between nodes');
  assert.equal(nodeAt(symbols, names, 40, 0), undefined, 'past the end');
  assert.equal(nodeAt(symbols, new Set(), 6, 3), undefined);
});

test('svgNodeNames reads flowgraph output', () => {
  const svg = '<svg><g class="node" data-node="premise" data-state="done"></g><g class="node" data-node="a&amp;b" data-state=""></g></svg>';
  assert.deepEqual([...svgNodeNames(svg)].sort(), ['a&b', 'premise']);
  const golden = path.join(__dirname, '..', '..', '..', '..', 'flowgraph', 'testdata', 'sample.svg');
  if (fs.existsSync(golden)) {
    assert.ok(svgNodeNames(fs.readFileSync(golden, 'utf8')).size > 0, 'the flowgraph golden SVG declares its nodes');
  }
});

test('graphHtml', () => {
  const html = graphHtml('<?xml version="1.0"?>\n<svg><g class="node" data-node="premise"></g></svg>', 'Graph: <e2e>.flow', 'premise');
  assert.ok(html.includes('<svg><g class="node" data-node="premise">'), 'the SVG is embedded without its XML prolog');
  assert.ok(!html.includes('<?xml'));
  assert.ok(html.includes('g.node[data-node="premise"] > rect:first-of-type'), 'the focused node box (not its budget bar) is outlined');
  assert.ok(html.includes('<title>Graph: &lt;e2e&gt;.flow</title>'));
  assert.ok(html.includes("default-src 'none'"), 'no scripts, no network');
  const tricky = graphHtml('<svg></svg>', 't', 'a"b</style><script>');
  assert.ok(!tricky.includes('</style><script>'), 'a node name cannot close the style element');
  assert.ok(!graphHtml('<svg></svg>', 't').includes('data-node='), 'no focus, no outline rule');
  assert.ok(graphHtml('oops <b>', 't').includes('no picture: oops &lt;b&gt;'));
});
