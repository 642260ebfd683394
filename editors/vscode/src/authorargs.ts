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
