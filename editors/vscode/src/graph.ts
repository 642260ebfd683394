// The workflow graph panel: the DAG as SVG (from the server's
// flowcabal.graph command when it has one, else `flowcabal graph --format
// svg`), redrawn on save and while a run reports progress, with the node
// under the cursor outlined.

import * as cp from 'node:child_process';
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';
import { graphHtml, nodeAt, svgNodeNames, type SymbolLike } from './graphview';

export interface GraphDeps {
  client: () => LanguageClient | undefined;
  binary: () => string | undefined;
  log: (line: string) => void;
}

export class GraphPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private doc: vscode.TextDocument | undefined;
  private svg = '';
  private focus: string | undefined;
  private refetchTimer: NodeJS.Timeout | undefined;
  private focusTimer: NodeJS.Timeout | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly deps: GraphDeps) {
    this.subs.push(
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (this.panel && d.languageId === 'flow') {
          this.doc = d;
          this.scheduleRefetch(100);
        }
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (this.panel && e?.document.languageId === 'flow' && e.document !== this.doc) {
          this.doc = e.document;
          this.scheduleRefetch(0);
        }
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (this.panel && e.textEditor.document === this.doc) {
          this.scheduleFocus(e.textEditor);
        }
      }),
    );
  }

  /** Opens (or reveals) the panel for the active .flow editor. */
  async show(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined || editor.document.languageId !== 'flow') {
      void vscode.window.showErrorMessage('FlowCabal: open a .flow file to see its graph');
      return;
    }
    this.doc = editor.document;
    try {
      this.svg = await this.fetch(editor.document);
    } catch (err) {
      void vscode.window.showErrorMessage(`FlowCabal: graph failed: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (this.panel === undefined) {
      this.panel = vscode.window.createWebviewPanel('flowcabal.graph', 'FlowCabal graph', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: false });
      this.panel.onDidDispose(() => (this.panel = undefined), undefined, this.subs);
    }
    this.focus = await this.nodeUnderCursor(editor);
    this.paint();
    this.panel.reveal(vscode.ViewColumn.Beside, true);
  }

  /** Called on every $/progress value: a run changes node states. */
  onProgress(): void {
    if (this.panel) {
      this.scheduleRefetch(500);
    }
  }

  dispose(): void {
    clearTimeout(this.refetchTimer);
    clearTimeout(this.focusTimer);
    this.panel?.dispose();
    for (const s of this.subs) {
      s.dispose();
    }
  }

  private paint(): void {
    if (this.panel === undefined || this.doc === undefined) {
      return;
    }
    const title = `Graph: ${this.doc.uri.path.split('/').pop() ?? ''}`;
    this.panel.title = title;
    this.panel.webview.html = graphHtml(this.svg, title, this.focus);
  }

  private scheduleRefetch(ms: number): void {
    // Coalesce: during a run progress arrives many times a second.
    if (this.refetchTimer !== undefined) {
      return;
    }
    this.refetchTimer = setTimeout(() => {
      this.refetchTimer = undefined;
      const doc = this.doc;
      if (doc === undefined || this.panel === undefined) {
        return;
      }
      this.fetch(doc).then(
        (svg) => {
          this.svg = svg;
          this.paint();
        },
        (err: unknown) => this.deps.log(`FlowCabal: graph refresh failed: ${String(err)}`),
      );
    }, ms);
  }

  private scheduleFocus(editor: vscode.TextEditor): void {
    clearTimeout(this.focusTimer);
    this.focusTimer = setTimeout(() => {
      void this.nodeUnderCursor(editor).then((n) => {
        if (n !== this.focus) {
          this.focus = n;
          this.paint();
        }
      });
    }, 150);
  }

  private async nodeUnderCursor(editor: vscode.TextEditor): Promise<string | undefined> {
    const symbols = await vscode.commands.executeCommand<SymbolLike[] | undefined>('vscode.executeDocumentSymbolProvider', editor.document.uri);
    const p = editor.selection.active;
    return nodeAt(symbols ?? [], svgNodeNames(this.svg), p.line, p.character);
  }

  private async fetch(doc: vscode.TextDocument): Promise<string> {
    const c = this.deps.client();
    const serverCommands = c?.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
    if (c !== undefined && c.isRunning() && serverCommands.includes('flowcabal.graph')) {
      const r: unknown = await c.sendRequest(ExecuteCommandRequest.type, {
        command: 'flowcabal.graph',
        arguments: [{ uri: doc.uri.toString() }],
      });
      if (typeof r === 'string' && r.includes('<svg')) {
        return r;
      }
      if (r !== null && typeof r === 'object' && typeof (r as { svg?: unknown }).svg === 'string') {
        return (r as { svg: string }).svg;
      }
      throw new Error('the server answered flowcabal.graph without an SVG');
    }
    const bin = this.deps.binary();
    if (bin === undefined) {
      throw new Error('no flowcabal binary (set flowcabal.serverPath)');
    }
    const cwd = vscode.workspace.getWorkspaceFolder(doc.uri)?.uri.fsPath;
    return new Promise<string>((resolve, reject) => {
      cp.execFile(bin, ['graph', doc.uri.fsPath, '--format', 'svg'], { cwd, maxBuffer: 32 << 20 }, (err, stdout, stderr) => {
        if (err) {
          reject(new Error(stderr.trim().split('\n')[0] || err.message));
        } else {
          resolve(stdout);
        }
      });
    });
  }
}
