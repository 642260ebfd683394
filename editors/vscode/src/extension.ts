// The FlowCabal extension: starts `flowcabal serve` for .flow files, feeds it
// settings and the API key, and puts every server command in the palette.

import * as fs from 'node:fs';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  State,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
  type ConfigurationParams,
  type LanguageClientOptions,
  type ProgressToken,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { entityFacts, importManuscript, registerPreviews, suggestEntities } from './author';
import { COMMANDS, buildArgs, compareView, errorMessage, parseVersion, textFromInput, type CommandSpec } from './commands';
import { GraphPanel } from './graph';
import { slogLevel } from './loglevel';
import { RunStatus, type ProgressValue } from './progress';
import { redact, resolveServerPath, serverEnv, trustedHosts } from './serverenv';
import { answerConfiguration, configurationPayload } from './settings';

const SECRET_KEY = 'flowcabal.apiKey';

/** Markdown the server checks as prose: manuscript chapters and node outputs. */
const PROSE_GLOB = '**/{manuscript,.flowcabal/outputs}/**/*.md';

function isFlow(d: vscode.TextDocument): boolean {
  return d.languageId === 'flow';
}

// A node's output document: the server puts the node's state and the
// author's decisions on it as code lenses.
function isOutput(d: vscode.TextDocument): boolean {
  return d.languageId === 'markdown' && d.uri.path.includes('/.flowcabal/outputs/');
}

let client: LanguageClient | undefined;
let apiKey: string | undefined;
let progressSeq = 0;

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

const LOG_METHODS = new Set(['append', 'appendLine', 'replace', 'trace', 'debug', 'info', 'warn', 'error']);

/** A log channel that never shows the API key, whatever the server prints. */
function redactingChannel(inner: vscode.LogOutputChannel): vscode.LogOutputChannel {
  const clean = (x: unknown): unknown => {
    if (typeof x === 'string') {
      return redact(x, apiKey);
    }
    if (x instanceof Error) {
      const e = new Error(redact(x.message, apiKey));
      e.stack = x.stack === undefined ? undefined : redact(x.stack, apiKey);
      return e;
    }
    return x;
  };
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') {
        return v;
      }
      const fn = v as (...a: unknown[]) => unknown;
      if (typeof prop === 'string' && LOG_METHODS.has(prop)) {
        return (...a: unknown[]) => {
          // Server stderr arrives as error(); route slog lines by their level.
          const level = prop === 'error' && typeof a[0] === 'string' ? slogLevel(a[0]) : undefined;
          const method = level !== undefined ? (Reflect.get(target, level) as (...x: unknown[]) => unknown) : fn;
          return method.apply(target, a.map(clean));
        };
      }
      return fn.bind(target);
    },
  });
}

/** The base URLs' hosts from the author's user settings (not the workspace's). */
function userHosts(): string[] {
  const cfg = vscode.workspace.getConfiguration('flowcabal');
  return trustedHosts(
    ['writer', 'agent', 'embedding'].map((m) => cfg.inspect<string>(`models.${m}.baseUrl`)?.globalValue),
  );
}

function getSetting(key: string): unknown {
  const dot = key.indexOf('.');
  return vscode.workspace.getConfiguration(key.slice(0, dot)).get(key.slice(dot + 1));
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('FlowCabal', { log: true });
  const channel = redactingChannel(log);
  const status = new RunStatus();
  const item = vscode.window.createStatusBarItem('flowcabal.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'FlowCabal run state';
  item.command = 'flowcabal.showLog';
  const paint = (): void => {
    item.text = status.text();
    item.tooltip = status.tooltip();
  };
  paint();
  item.show();
  context.subscriptions.push(log, item);

  apiKey = await context.secrets.get(SECRET_KEY);

  const serverBinary = (): string | undefined =>
    resolveServerPath(
      vscode.workspace.getConfiguration('flowcabal').get<string>('serverPath'),
      process.env.PATH,
      isExecutable,
      vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    );
  const graph = new GraphPanel({ client: () => client, binary: serverBinary, log: (l) => channel.appendLine(l) });
  context.subscriptions.push(graph);

  /** Follows one progress token; the returned function stops unless it has begun. */
  const watchProgress = (c: LanguageClient, token: ProgressToken): (() => void) => {
    let begun = false;
    const sub = c.onProgress(WorkDoneProgress.type, token, (value) => {
      begun = true;
      status.update(token, value as ProgressValue);
      paint();
      graph.onProgress();
      if ((value as ProgressValue).kind === 'end') {
        sub.dispose();
      }
    });
    return () => {
      if (!begun) {
        sub.dispose();
      }
    };
  };

  /** Sends one server command; the server's error is shown, never swallowed. */
  const runServerCommand = async (command: string, args: unknown[]): Promise<unknown> => {
    const c = client;
    if (c === undefined || !c.isRunning()) {
      void vscode.window.showErrorMessage(`FlowCabal: the server is not running, so ${command} cannot run. See the FlowCabal output.`, 'Show Log').then((a) => {
        if (a !== undefined) {
          log.show(true);
        }
      });
      return undefined;
    }
    const workDoneToken = `flowcabal-ui-${process.pid}-${++progressSeq}`;
    const unwatch = watchProgress(c, workDoneToken);
    try {
      const result = await c.sendRequest(ExecuteCommandRequest.type, { command, arguments: args, workDoneToken });
      showResult(command, result);
      const view = command === 'flowcabal.compare' ? compareView(result) : undefined;
      if (view !== undefined) {
        // The two outputs in VS Code's diff editor; what changed in the
        // injected context heads the newer side, and in a message.
        await vscode.commands.executeCommand('vscode.diff', vscode.Uri.parse(view.left), vscode.Uri.parse(view.right), view.title);
        void vscode.window.showInformationMessage(`FlowCabal: ${view.summary}`);
      }
      return result;
    } catch (err) {
      const msg = errorMessage(command, err);
      channel.appendLine(msg);
      void vscode.window.showErrorMessage(msg);
      return undefined;
    } finally {
      // A server that answered without using the token will not use it later.
      unwatch();
    }
  };

  const startClient = async (): Promise<void> => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const setting = vscode.workspace.getConfiguration('flowcabal').get<string>('serverPath');
    const command = resolveServerPath(setting, process.env.PATH, isExecutable, folder);
    if (command === undefined) {
      const why = setting ? `flowcabal.serverPath "${setting}" is not an executable file` : 'no `flowcabal` on PATH';
      status.setError(why);
      paint();
      channel.appendLine(`FlowCabal: cannot start the server: ${why}`);
      const a = await vscode.window.showErrorMessage(`FlowCabal: cannot start the server: ${why}. Set flowcabal.serverPath.`, 'Open Settings');
      if (a !== undefined) {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'flowcabal.serverPath');
      }
      return;
    }
    const serverOptions: ServerOptions = {
      command,
      args: ['serve'],
      options: { env: serverEnv(process.env, apiKey, userHosts()), cwd: folder },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'flow' },
        { scheme: 'untitled', language: 'flow' },
        // Prose the server checks (Role C): manuscript chapters and node
        // outputs. It answers only diagnostics, quick-fixes and commands
        // for them; the guards below keep the other requests to .flow.
        { scheme: 'file', language: 'markdown', pattern: PROSE_GLOB },
      ],
      outputChannel: channel,
      initializationOptions: {
        outline: vscode.workspace.getConfiguration('flowcabal').get<string>('outline') ?? 'full',
        // Off: the server offers no inlay hints at all (takes effect on restart).
        inlayHints: vscode.workspace.getConfiguration('flowcabal').get<boolean>('inlayHints.enabled') ?? true,
      },
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher('**/{*.flow,*.md,flowcabal.toml}'),
      },
      middleware: {
        workspace: {
          configuration: (params: ConfigurationParams) => answerConfiguration(params.items, getSetting),
        },
        // Code lenses call the server's commands by their own ids; route
        // them like the palette does, so an error reaches the user as the
        // server worded it.
        executeCommand: (cmd: string, args: unknown[]) => runServerCommand(cmd, args),
        provideCodeLenses: (d, t, next) => (isFlow(d) || isOutput(d) ? next(d, t) : []),
        // On chapters and outputs the server explains entities' names.
        provideHover: (d, p, t, next) => (isFlow(d) || d.languageId === 'markdown' ? next(d, p, t) : null),
        provideCompletionItem: (d, p, c, t, next) => (isFlow(d) ? next(d, p, c, t) : []),
        provideDocumentSymbols: (d, t, next) => (isFlow(d) ? next(d, t) : []),
        provideDefinition: (d, p, t, next) => (isFlow(d) ? next(d, p, t) : null),
        provideReferences: (d, p, o, t, next) => (isFlow(d) ? next(d, p, o, t) : []),
        prepareRename: (d, p, t, next) => (isFlow(d) ? next(d, p, t) : null),
        provideRenameEdits: (d, p, n, t, next) => (isFlow(d) ? next(d, p, n, t) : null),
        provideFoldingRanges: (d, c, t, next) => (isFlow(d) ? next(d, c, t) : []),
        provideDocumentFormattingEdits: (d, o, t, next) => (isFlow(d) ? next(d, o, t) : []),
        provideDocumentSemanticTokens: (d, t, next) => (isFlow(d) ? next(d, t) : null),
        provideDocumentSemanticTokensEdits: (d, prev, t, next) => (isFlow(d) ? next(d, prev, t) : null),
        provideDocumentRangeSemanticTokens: (d, r, t, next) => (isFlow(d) ? next(d, r, t) : null),
      },
    };
    const c = new LanguageClient('flowcabal', 'FlowCabal', serverOptions, clientOptions);
    client = c;
    c.onDidChangeState((e) => {
      if (e.newState === State.Stopped) {
        status.setError('stopped');
      } else if (e.newState === State.Running) {
        status.setError(undefined);
      }
      paint();
    });
    try {
      await c.start();
    } catch (err) {
      status.setError(String(err));
      paint();
      void vscode.window.showErrorMessage(errorMessage('start', err));
      return;
    }
    // The server creates work-done tokens for runs it starts itself (a code
    // lens click); follow them in the status bar.
    c.onRequest(WorkDoneProgressCreateRequest.type, (params) => {
      watchProgress(c, params.token);
    });
    const keyFrom = apiKey ? 'API key from secret storage' : process.env.FLOWCABAL_API_KEY ? 'API key from the environment' : 'no API key';
    channel.appendLine(`FlowCabal: started ${command} serve (${keyFrom})`);
  };

  const restart = async (): Promise<void> => {
    const c = client;
    client = undefined;
    if (c !== undefined) {
      try {
        await c.stop(2000);
      } catch (err) {
        channel.appendLine(`FlowCabal: stopping the server: ${String(err)}`);
      }
    }
    await startClient();
  };

  const reg = (id: string, fn: (...a: unknown[]) => unknown): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  };

  for (const spec of COMMANDS) {
    reg(spec.id, () => paletteCommand(spec, runServerCommand));
  }
  reg('flowcabal.ui.graph', () => graph.show());
  registerPreviews(context);
  reg('flowcabal.ui.importManuscript', () => importManuscript(runServerCommand));
  reg('flowcabal.ui.suggestEntities', () => suggestEntities(runServerCommand));
  reg('flowcabal.ui.entityFacts', () => entityFacts(runServerCommand));
  reg('flowcabal.showLog', () => log.show(true));
  reg('flowcabal.restartServer', () => restart());
  reg('flowcabal.setApiKey', async () => {
    const key = await vscode.window.showInputBox({
      title: 'FlowCabal API key',
      prompt: 'Kept in VS Code secret storage and given to the server as FLOWCABAL_API_KEY; never written to settings.',
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined || key.trim() === '') {
      return;
    }
    await context.secrets.store(SECRET_KEY, key.trim());
    apiKey = key.trim();
    await restart();
    void vscode.window.showInformationMessage('FlowCabal: API key stored; the server was restarted with it.');
  });
  reg('flowcabal.clearApiKey', async () => {
    await context.secrets.delete(SECRET_KEY);
    apiKey = undefined;
    await restart();
    void vscode.window.showInformationMessage('FlowCabal: API key removed.');
  });

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('flowcabal.serverPath') || e.affectsConfiguration('flowcabal.inlayHints')) {
        void restart();
      } else if (e.affectsConfiguration('flowcabal.models') && client?.isRunning()) {
        void client.sendNotification('workspace/didChangeConfiguration', {
          settings: { flowcabal: configurationPayload(getSetting) },
        });
      }
    }),
    { dispose: () => void client?.stop() },
  );

  await startClient();
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c !== undefined) {
    await c.stop();
  }
}

function showResult(command: string, result: unknown): void {
  if (result === null || result === undefined) {
    return;
  }
  if (typeof result === 'string' && result !== '') {
    void vscode.window.showInformationMessage(`FlowCabal: ${result}`);
    return;
  }
  if (typeof result === 'object') {
    const r = result as { message?: unknown; markdown?: unknown; text?: unknown };
    const body = typeof r.markdown === 'string' ? r.markdown : typeof r.text === 'string' ? r.text : undefined;
    if (command === 'flowcabal.showContext' && body !== undefined) {
      void vscode.workspace
        .openTextDocument({ language: 'markdown', content: body })
        .then((d) => vscode.window.showTextDocument(d, vscode.ViewColumn.Beside, true));
      return;
    }
    if (typeof r.message === 'string' && r.message !== '') {
      void vscode.window.showInformationMessage(`FlowCabal: ${r.message}`);
    }
  }
}

async function paletteCommand(spec: CommandSpec, run: (command: string, args: unknown[]) => Promise<unknown>): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  let text: string | undefined;
  let version: number | undefined;
  if (spec.text === 'required' || spec.text === 'optional') {
    const answer = await vscode.window.showInputBox({ prompt: spec.prompt, ignoreFocusOut: true });
    const outcome = textFromInput(spec, answer);
    if (outcome.kind === 'cancel') {
      return;
    }
    if (outcome.kind === 'error') {
      void vscode.window.showErrorMessage(`FlowCabal: ${outcome.message}`);
      return;
    }
    text = outcome.text;
  } else if (spec.text === 'document') {
    text = editor?.document.getText();
  }
  if (spec.version) {
    const optional = spec.version === 'optional';
    const answer = await vscode.window.showInputBox({
      prompt: spec.prompt ?? 'Version to restore',
      validateInput: (v) => (parseVersion(v) === undefined && !(optional && v.trim() === '') ? 'a whole number from 1' : undefined),
    });
    if (answer === undefined) {
      return;
    }
    version = parseVersion(answer);
    if (optional) {
      // An output version travels as text ("v3"): "version" is the
      // document's. None lets the server take the one before the current.
      text = version === undefined ? undefined : `v${version}`;
      version = undefined;
    }
  }
  let args;
  try {
    args = buildArgs({
      uri: editor?.document.uri.toString() ?? '',
      position: editor ? { line: editor.selection.active.line, character: editor.selection.active.character } : undefined,
      text,
      version,
    });
  } catch (err) {
    void vscode.window.showErrorMessage(errorMessage(spec.server, err));
    return;
  }
  await run(spec.server, [args]);
}
