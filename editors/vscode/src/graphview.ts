// The workflow graph panel's pure parts: what HTML the webview shows and
// which node the cursor is in. No vscode import (unit-tested under Node).

/** A document symbol as the server returns it (workflow -> nodes -> …). */
export interface SymbolLike {
  name: string;
  kind: number;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  children?: SymbolLike[];
}

function contains(r: SymbolLike['range'], line: number, character: number): boolean {
  const afterStart = line > r.start.line || (line === r.start.line && character >= r.start.character);
  const beforeEnd = line < r.end.line || (line === r.end.line && character <= r.end.character);
  return afterStart && beforeEnd;
}

/**
 * The name of the node whose symbol holds the position, or undefined. Nodes
 * are the symbols named in `nodeNames` (the graph's own nodes), found at any
 * depth, so the server's exact nesting (workflow -> node) does not matter.
 */
export function nodeAt(symbols: readonly SymbolLike[], nodeNames: ReadonlySet<string>, line: number, character: number): string | undefined {
  for (const s of symbols) {
    if (!contains(s.range, line, character)) {
      continue;
    }
    if (nodeNames.has(s.name)) {
      return s.name;
    }
    const inner = nodeAt(s.children ?? [], nodeNames, line, character);
    if (inner !== undefined) {
      return inner;
    }
  }
  return undefined;
}

/** The node names an SVG from flowgraph declares (data-node attributes). */
export function svgNodeNames(svg: string): Set<string> {
  const names = new Set<string>();
  for (const m of svg.matchAll(/<g class="node" data-node="([^"]*)"/g)) {
    names.add(unescapeXml(m[1] ?? ''));
  }
  return names;
}

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function cssString(s: string): string {
  return '"' + s.replace(/[\\"]/g, (c) => '\\' + c).replace(/[\n\r<>]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `) + '"';
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/**
 * The webview page: the SVG as given (it comes from our own server or CLI),
 * no scripts, and the cursor's node outlined. `focus` is a node name.
 */
export function graphHtml(svg: string, title: string, focus?: string): string {
  const start = svg.indexOf('<svg');
  const body = start >= 0 ? svg.slice(start) : `<p>no picture: ${escapeHtml(svg.slice(0, 200))}</p>`;
  const focusCss =
    focus === undefined
      ? ''
      : `g.node[data-node=${cssString(focus)}] > rect:first-of-type{stroke:#ff6f00 !important;stroke-width:4px !important}
g.node[data-node=${cssString(focus)}] text{font-weight:bold}`;
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;padding:8px;background:#fff;color:#000}
svg{max-width:100%;height:auto}
${focusCss}
</style>
</head><body data-focus="${escapeHtml(focus ?? '')}">${body}</body></html>`;
}
