// The server's workspace/executeCommand commands as the palette offers them,
// and the one argument object each of them takes. Pure (no vscode import).

/** How a command obtains its text argument. */
export type TextKind =
  | 'none'
  | 'required' // asked with an input box; empty is refused
  | 'optional' // asked with an input box; empty sends no text
  | 'document'; // the active document's content (an edited output)

/** A palette command and the server command it runs. */
export interface CommandSpec {
  /** Palette command id (flowcabal.ui.*; the plain ids belong to the server). */
  readonly id: string;
  /** The server command. */
  readonly server: string;
  readonly text: TextKind;
  /** Input box prompt when text is asked for. */
  readonly prompt?: string;
  /** Asks for a version number ('optional': an empty answer sends none). */
  readonly version?: boolean | 'optional';
}

export const COMMANDS: readonly CommandSpec[] = [
  { id: 'flowcabal.ui.runNode', server: 'flowcabal.runNode', text: 'none' },
  { id: 'flowcabal.ui.runWorkflow', server: 'flowcabal.runWorkflow', text: 'none' },
  { id: 'flowcabal.ui.runFrom', server: 'flowcabal.runFrom', text: 'none' },
  { id: 'flowcabal.ui.cancel', server: 'flowcabal.cancel', text: 'none' },
  { id: 'flowcabal.ui.approve', server: 'flowcabal.approve', text: 'none' },
  { id: 'flowcabal.ui.retry', server: 'flowcabal.retry', text: 'optional', prompt: 'Feedback for the retry (optional)' },
  { id: 'flowcabal.ui.edit', server: 'flowcabal.edit', text: 'document' },
  { id: 'flowcabal.ui.freeze', server: 'flowcabal.freeze', text: 'none' },
  { id: 'flowcabal.ui.unfreeze', server: 'flowcabal.unfreeze', text: 'none' },
  { id: 'flowcabal.ui.restoreVersion', server: 'flowcabal.restoreVersion', text: 'none', version: true },
  { id: 'flowcabal.ui.persist', server: 'flowcabal.persist', text: 'none' },
  { id: 'flowcabal.ui.build', server: 'flowcabal.build', text: 'required', prompt: 'What should the workflow do? (intent)' },
  { id: 'flowcabal.ui.buildAccept', server: 'flowcabal.buildAccept', text: 'optional', prompt: 'Modification to apply before accepting (optional)' },
  { id: 'flowcabal.ui.buildReject', server: 'flowcabal.buildReject', text: 'optional', prompt: 'Why reject it? (optional)' },
  { id: 'flowcabal.ui.showContext', server: 'flowcabal.showContext', text: 'none' },
  { id: 'flowcabal.ui.checkChapter', server: 'flowcabal.checkChapter', text: 'none' },
  {
    id: 'flowcabal.ui.compare',
    server: 'flowcabal.compare',
    text: 'none',
    version: 'optional',
    prompt: 'Compare the current output with version (empty: the one before it)',
  },
];

/** What flowcabal.compare answers that the diff editor needs. */
export interface CompareView {
  left: string;
  right: string;
  title: string;
  summary: string;
}

/** Reads flowcabal.compare's result; undefined when it is not one. */
export function compareView(result: unknown): CompareView | undefined {
  if (typeof result !== 'object' || result === null) {
    return undefined;
  }
  const r = result as Record<string, unknown>;
  if (typeof r.left !== 'string' || typeof r.right !== 'string' || r.left === '' || r.right === '') {
    return undefined;
  }
  return {
    left: r.left,
    right: r.right,
    title: typeof r.title === 'string' ? r.title : 'FlowCabal: compare',
    summary: typeof r.summary === 'string' ? r.summary : '',
  };
}

/** An LSP position (UTF-16 code units, which is what VS Code counts in). */
export interface Position {
  line: number;
  character: number;
}

/** The single JSON object every flowcabal.* server command takes. */
export interface CommandArgs {
  uri: string;
  node?: string;
  position?: Position;
  text?: string;
  version?: number;
}

export interface ArgsInput {
  uri: string;
  node?: string;
  position?: Position;
  text?: string;
  version?: number;
}

function isIndex(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

/** Builds and checks the argument object; throws on what the server would refuse. */
export function buildArgs(input: ArgsInput): CommandArgs {
  if (typeof input.uri !== 'string' || input.uri === '') {
    throw new Error('no document: open a .flow file (or an output document) first');
  }
  const args: CommandArgs = { uri: input.uri };
  if (input.node !== undefined && input.node.trim() !== '') {
    args.node = input.node.trim();
  }
  if (input.position !== undefined) {
    if (!isIndex(input.position.line) || !isIndex(input.position.character)) {
      throw new Error(`bad position ${JSON.stringify(input.position)}`);
    }
    args.position = { line: input.position.line, character: input.position.character };
  }
  if (input.text !== undefined) {
    args.text = input.text;
  }
  if (input.version !== undefined) {
    if (!Number.isInteger(input.version) || input.version < 1) {
      throw new Error(`bad version ${input.version}: a version is a whole number from 1`);
    }
    args.version = input.version;
  }
  return args;
}

/** Outcome of asking the user for a command's text. */
export type TextOutcome = { kind: 'cancel' } | { kind: 'error'; message: string } | { kind: 'ok'; text?: string };

/**
 * Decides what an input box's answer means for a command: undefined is a
 * cancel (Escape), an empty answer is refused for required text and means
 * "no text" for optional text.
 */
export function textFromInput(spec: CommandSpec, input: string | undefined): TextOutcome {
  if (input === undefined) {
    return { kind: 'cancel' };
  }
  const trimmed = input.trim();
  if (trimmed === '') {
    if (spec.text === 'required') {
      return { kind: 'error', message: 'this command needs text' };
    }
    return { kind: 'ok' };
  }
  return { kind: 'ok', text: input };
}

/** Parses a version typed by the user; undefined when it is not one. */
export function parseVersion(s: string | undefined): number | undefined {
  if (s === undefined || !/^\s*\d+\s*$/.test(s)) {
    return undefined;
  }
  const n = Number(s.trim());
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}

/** The message shown for a failed command: the server's own words, named. */
export function errorMessage(command: string, err: unknown): string {
  let msg: string;
  if (err instanceof Error) {
    msg = err.message;
  } else if (typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string') {
    msg = err.message;
  } else {
    msg = String(err);
  }
  return `FlowCabal: ${command} failed: ${msg}`;
}
