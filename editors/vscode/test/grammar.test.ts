// Tokenizes samples with the TextMate grammar exactly as VS Code does
// (vscode-textmate + Oniguruma) and checks the scopes at chosen places.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

const root = path.join(__dirname, '..', '..');

async function loadGrammar(): Promise<vsctm.IGrammar> {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName: string) => {
      if (scopeName !== 'source.flow') {
        return null;
      }
      const file = path.join(root, 'syntaxes', 'flow.tmLanguage.json');
      return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  const g = await registry.loadGrammar('source.flow');
  assert.ok(g, 'grammar loads');
  return g;
}

type Line = { text: string; tokens: vsctm.IToken[] };

function tokenize(g: vsctm.IGrammar, src: string): Line[] {
  let stack = vsctm.INITIAL;
  return src.split('\n').map((text) => {
    const r = g.tokenizeLine(text, stack);
    stack = r.ruleStack;
    return { text, tokens: r.tokens };
  });
}

/** Scopes of the token covering the first character of the nth `needle` on line `ln` (0-based). */
function scopesAt(lines: Line[], ln: number, needle: string, nth = 1): string[] {
  const l = lines[ln];
  assert.ok(l, `line ${ln}`);
  let at = -1;
  for (let i = 0; i < nth; i++) {
    at = l.text.indexOf(needle, at + 1);
  }
  assert.ok(at >= 0, `${JSON.stringify(needle)} on line ${ln}: ${l.text}`);
  const t = l.tokens.find((tok) => tok.startIndex <= at && at < tok.endIndex);
  assert.ok(t, `token at ${ln}:${at}`);
  return t.scopes;
}

const sample = [
  /* 0 */ '# chapter-12.flow — 第十二章',
  /* 1 */ 'workflow "第十二章 · 断桥" {',
  /* 2 */ '  budget = 24000               # Role A budget',
  /* 3 */ '}',
  /* 4 */ 'use "act-2.flow" as act2',
  /* 5 */ 'node 第十二章 "断桥" {',
  /* 6 */ '  model = "agent"',
  /* 7 */ '  temperature = 0.9',
  /* 8 */ '  checks  = ["continuity", "character"]',
  /* 9 */ '  user """',
  /* 10 */ '    林黛玉回到{{premise}}之后，又读了{{@meta/style-guide:L1}}。',
  /* 11 */ '    Escaped \\{{not_a_ref}} and # not a comment 😀{{act2.final}} 𠀀{{ 草稿 }}',
  /* 12 */ '    {{@profiles/characters/lin}} node user workflow = 3',
  /* 13 */ '  """',
  /* 14 */ '  system """Keep {{@meta/style}}."""',
  /* 15 */ '}',
].join('\n');

test('grammar scopes', async (t) => {
  const g = await loadGrammar();
  const lines = tokenize(g, sample);
  const cases: { at: [number, string, number?]; has: string; not?: string }[] = [
    { at: [0, '#'], has: 'comment.line.number-sign.flow' },
    { at: [0, '第十二章'], has: 'comment.line.number-sign.flow' },
    { at: [1, 'workflow'], has: 'keyword.other.workflow.flow' },
    { at: [1, '断桥'], has: 'string.quoted.double.title.flow' },
    { at: [2, 'budget'], has: 'entity.other.attribute-name.flow' },
    { at: [2, '24000'], has: 'constant.numeric.flow' },
    { at: [2, '# Role'], has: 'comment.line.number-sign.flow' },
    { at: [4, 'use'], has: 'keyword.control.import.flow' },
    { at: [4, 'act-2.flow'], has: 'string.quoted.double.path.flow' },
    { at: [4, 'as'], has: 'keyword.control.import.flow' },
    { at: [4, 'act2'], has: 'entity.name.namespace.flow' },
    { at: [5, 'node'], has: 'keyword.other.node.flow' },
    { at: [5, '第十二章'], has: 'entity.name.function.node.flow' },
    { at: [5, '断桥'], has: 'string.quoted.double.title.flow' },
    { at: [6, 'model'], has: 'entity.other.attribute-name.flow' },
    { at: [6, 'agent'], has: 'string.quoted.double.flow' },
    { at: [7, '0.9'], has: 'constant.numeric.flow' },
    { at: [8, 'checks'], has: 'entity.other.attribute-name.flow' },
    { at: [8, 'continuity'], has: 'string.quoted.double.flow' },
    { at: [8, '['], has: 'punctuation.section.brackets.flow' },
    { at: [9, 'user'], has: 'storage.type.prompt.flow' },
    { at: [9, '"""'], has: 'punctuation.definition.prompt.begin.flow' },
    { at: [10, '林黛玉'], has: 'meta.prompt.body.flow', not: 'meta.reference' },
    { at: [10, '{{premise'], has: 'punctuation.definition.reference.begin.flow' },
    { at: [10, 'premise'], has: 'variable.other.reference.flow' },
    { at: [10, '}}之后'], has: 'punctuation.definition.reference.end.flow' },
    { at: [10, '之后'], has: 'meta.prompt.body.flow', not: 'meta.reference' },
    { at: [10, '@'], has: 'keyword.operator.knowledge.flow' },
    { at: [10, 'meta/style-guide'], has: 'string.unquoted.path.flow' },
    { at: [10, 'L1'], has: 'constant.other.level.flow' },
    { at: [10, '。'], has: 'meta.prompt.body.flow', not: 'meta.reference' },
    { at: [11, '\\{{'], has: 'constant.character.escape.flow' },
    { at: [11, 'not_a_ref'], has: 'meta.prompt.body.flow', not: 'meta.reference' },
    { at: [11, '# not'], has: 'meta.prompt.body.flow', not: 'comment' },
    { at: [11, 'act2.final'], has: 'variable.other.reference.flow' },
    { at: [11, '草稿'], has: 'variable.other.reference.flow' },
    { at: [12, 'profiles/characters/lin'], has: 'meta.reference.knowledge.flow' },
    { at: [12, 'node'], has: 'meta.prompt.body.flow', not: 'keyword' },
    { at: [12, 'user'], has: 'meta.prompt.body.flow', not: 'storage' },
    { at: [12, '='], has: 'meta.prompt.body.flow', not: 'keyword' },
    { at: [13, '"""'], has: 'punctuation.definition.prompt.end.flow' },
    { at: [14, 'system'], has: 'storage.type.prompt.flow' },
    { at: [14, 'Keep'], has: 'meta.prompt.body.flow' },
    { at: [14, 'meta/style'], has: 'string.unquoted.path.flow' },
    { at: [14, '."""'], has: 'meta.prompt.body.flow' },
    { at: [15, '}'], has: 'punctuation.section.block.flow', not: 'meta.prompt' },
  ];
  for (const c of cases) {
    const [ln, needle, nth] = c.at;
    await t.test(`line ${ln} ${needle} -> ${c.has}`, () => {
      const scopes = scopesAt(lines, ln, needle, nth);
      assert.ok(scopes.includes(c.has), `${scopes.join(' ')} lacks ${c.has}`);
      if (c.not !== undefined) {
        const bad = c.not;
        assert.ok(!scopes.some((s) => s.startsWith(bad)), `${scopes.join(' ')} has ${bad}`);
      }
    });
  }
});

test('every sample workflow in testdata tokenizes and closes its prompts', async () => {
  const g = await loadGrammar();
  const dir = path.join(root, '..', '..', 'testdata', 'projects');
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else if (e.name.endsWith('.flow')) {
        files.push(p);
      }
    }
  };
  if (fs.existsSync(dir)) {
    walk(dir);
  }
  assert.ok(files.length > 0, `no .flow files under ${dir}`);
  for (const f of files) {
    const lines = tokenize(g, fs.readFileSync(f, 'utf8'));
    // After the last line nothing is left open: the final token is not inside a prompt.
    const last = lines.filter((l) => l.text.trim() !== '').pop();
    assert.ok(last, f);
    const scopes = last.tokens[last.tokens.length - 1]?.scopes ?? [];
    assert.ok(!scopes.includes('meta.prompt.flow'), `${f}: prompt left open (${scopes.join(' ')})`);
    const refs = lines.flatMap((l) => l.tokens.filter((t) => t.scopes.includes('variable.other.reference.flow')));
    const krefs = lines.flatMap((l) => l.tokens.filter((t) => t.scopes.includes('string.unquoted.path.flow')));
    assert.ok(refs.length + krefs.length > 0 || !fs.readFileSync(f, 'utf8').includes('{{'), `${f}: no reference highlighted`);
  }
});
