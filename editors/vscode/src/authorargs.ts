// The arguments of the project commands and the quick-pick rows of the
// entity suggestions. Pure (no vscode import), so unit tests run in node.

/** One chapter of an import's preview, as the server answers it. */
export interface ImportRow {
  number: number;
  kind: string;
  heading: string;
  firstWords: string;
  chars: number;
  path: string;
  op: string;
}

/** flowcabal.importManuscript's answer. */
export interface ImportPreview {
  plan: string;
  chapters: ImportRow[];
  summary: string;
  table: string;
  message: string;
}

/** One entity suggestion, as flowcabal.suggestEntities answers it. */
export interface Suggested {
  name: string;
  aliases: string[];
  kind: string;
  mentions: number;
  first_chapter: number;
  last_chapter: number;
  related: string[];
  file?: string;
}

export interface ImportArgs {
  uri: string;
  files: string[];
  dryRun?: boolean;
  plan?: string;
}

/** The argument of flowcabal.importManuscript; throws on what the server would refuse. */
export function importArgs(project: string, files: string[], dryRun: boolean): ImportArgs {
  if (project === '') {
    throw new Error('no project folder');
  }
  if (files.length === 0) {
    throw new Error('no manuscript file');
  }
  const a: ImportArgs = { uri: project, files: [...files] };
  if (dryRun) {
    a.dryRun = true;
  }
  return a;
}

/** The argument of flowcabal.acceptEntities. */
export function acceptArgs(project: string, names: string[]): { uri: string; names: string[] } {
  const uniq = [...new Set(names.filter((n) => n.trim() !== ''))];
  if (uniq.length === 0) {
    throw new Error('no name to accept');
  }
  return { uri: project, names: uniq };
}

/** A quick-pick row for a suggestion: the name, what it is, where, and its other names. */
export function entityItem(s: Suggested): { label: string; description: string; detail?: string } {
  const span = s.first_chapter === s.last_chapter ? `chapter ${s.first_chapter}` : `chapters ${s.first_chapter}–${s.last_chapter}`;
  const item: { label: string; description: string; detail?: string } = {
    label: s.name,
    description: `${s.kind} · ${s.mentions} mentions · ${span}`,
  };
  const parts: string[] = [];
  if (s.aliases.length > 0) {
    parts.push(`also ${s.aliases.join(', ')}`);
  }
  if (s.related.length > 0) {
    parts.push(`often with ${s.related.join(', ')}`);
  }
  if (parts.length > 0) {
    item.detail = parts.join(' · ');
  }
  return item;
}

/** One proposed fact, as flowcabal.entityFacts answers it. */
export interface FactProposal {
  id: string;
  kind: 'fact' | 'progression';
  key: string;
  value: string;
  chapter: number;
  quote: string;
  line: number;
  status: 'new' | 'same' | 'conflict';
  existing?: string;
}

/** flowcabal.entityFacts's answer. */
export interface EntityFacts {
  entity: string;
  path: string;
  proposals: FactProposal[];
  rejected: { key: string; reason: string }[];
  message: string;
}

/** The new proposals only: those the file says already, or says otherwise, are not offered. */
export function offeredFacts(r: EntityFacts): FactProposal[] {
  return r.proposals.filter((p) => p.status === 'new');
}

/** A quick-pick row for a proposal: what, where, and the quotation that says so. */
export function factItem(p: FactProposal): { label: string; description: string; detail: string } {
  const label = p.kind === 'progression' ? `from chapter ${p.chapter}, ${p.key}: ${p.value}` : `${p.key}: ${p.value}`;
  return { label, description: `chapter ${p.chapter}, line ${p.line}`, detail: `“${p.quote.replace(/\s+/gu, ' ')}”` };
}

/** The argument of flowcabal.acceptFacts: the buffer as the author has it, and its version. */
export function acceptFactsArgs(uri: string, ids: string[], text: string, version: number): { uri: string; names: string[]; text: string; version: number } {
  const uniq = [...new Set(ids.filter((n) => n !== ''))];
  if (uniq.length === 0) {
    throw new Error('no proposal to add');
  }
  return { uri, names: uniq, text, version };
}
