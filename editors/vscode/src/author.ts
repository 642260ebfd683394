// The author's first hour: "Import Manuscript…" (a file picker, the split
// previewed, then confirmed) and "Suggest Entities…" (a multi-select
// quick-pick; drafts are written only for the names picked), and in an
// entity file "Propose Facts for This Entity…" (the agent model's
// proposals, each with its quotation, to check; the chosen are added to
// the buffer). The work is the server's (flowcabal.importManuscript,
// suggestEntities, acceptEntities, entityFacts, acceptFacts); the editor
// only picks files, names and proposals.

import * as vscode from 'vscode';
import { acceptArgs, acceptFactsArgs, entityItem, factItem, importArgs, offeredFacts, type EntityFacts, type ImportPreview, type Suggested } from './authorargs';

type Run = (command: string, args: unknown[]) => Promise<unknown>;

/** Read-only documents showing an import's preview (never dirty, closed without a prompt). */
const PREVIEW_SCHEME = 'flowcabal-preview';
const previews = new Map<string, string>();
let previewSeq = 0;

/** Registers the provider of the import previews. */
export function registerPreviews(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
      provideTextDocumentContent: (uri) => previews.get(uri.toString()) ?? '',
    }),
  );
}

async function closePreview(uri: vscode.Uri): Promise<void> {
  previews.delete(uri.toString());
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()) {
        await vscode.window.tabGroups.close(tab);
      }
    }
  }
}

/** The project the commands act on: the folder of the active file, else the first. */
function projectFolder(): vscode.Uri | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  return (folder ?? vscode.workspace.workspaceFolders?.[0])?.uri;
}

/** FlowCabal: Import Manuscript… */
export async function importManuscript(run: Run): Promise<void> {
  const project = projectFolder();
  if (project === undefined) {
    void vscode.window.showErrorMessage('FlowCabal: open the project folder first (flowcabal init makes one).');
    return;
  }
  // Files only: Windows and Linux dialogs cannot offer files and folders
  // at once, and several chapter files picked together import as a folder.
  const picked = await vscode.window.showOpenDialog({
    title: 'FlowCabal: the manuscript to import (the whole book, or its chapter files)',
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: true,
    defaultUri: project,
    openLabel: 'Preview the import',
    filters: { 'Text and Markdown': ['txt', 'md', 'markdown', 'text'], 'All files': ['*'] },
  });
  if (picked === undefined || picked.length === 0) {
    return;
  }
  const preview = (await run('flowcabal.importManuscript', [importArgs(project.toString(), picked.map((u) => u.toString()), true)])) as ImportPreview | undefined;
  if (preview === undefined) {
    return; // the error was shown
  }
  const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: '/Import preview.txt', query: String(++previewSeq) });
  previews.set(uri.toString(), preview.table);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  const go = `Import ${preview.chapters.length} chapters`;
  const choice = await vscode.window.showQuickPick([go, 'Cancel'], {
    title: `FlowCabal: ${preview.summary}`,
    placeHolder: `${go} into ${project.fsPath}? (the table beside shows the split)`,
    ignoreFocusOut: true,
  });
  await closePreview(uri);
  if (choice !== go) {
    void vscode.window.showInformationMessage('FlowCabal: import cancelled; nothing was written.');
    return;
  }
  const args = importArgs(project.toString(), picked.map((u) => u.toString()), false);
  args.plan = preview.plan;
  await run('flowcabal.importManuscript', [args]);
}

/** FlowCabal: Suggest Entities… */
export async function suggestEntities(run: Run): Promise<void> {
  const project = projectFolder();
  if (project === undefined) {
    void vscode.window.showErrorMessage('FlowCabal: open the project folder first.');
    return;
  }
  const sugg = (await run('flowcabal.suggestEntities', [{ uri: project.toString() }])) as Suggested[] | undefined;
  if (sugg === undefined) {
    return;
  }
  const open = sugg.filter((s) => !s.file);
  if (open.length === 0) {
    void vscode.window.showInformationMessage('FlowCabal: every suggested entity has its file already.');
    return;
  }
  const items = open.map((s) => ({ ...entityItem(s), name: s.name }));
  const chosen = await vscode.window.showQuickPick(items, {
    title: 'FlowCabal: accept which characters and places? (draft entity files are written for those checked)',
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (chosen === undefined || chosen.length === 0) {
    return;
  }
  await run('flowcabal.acceptEntities', [acceptArgs(project.toString(), chosen.map((c) => c.name))]);
}

/** FlowCabal: Propose Facts for This Entity… */
export async function entityFacts(run: Run): Promise<void> {
  const doc = vscode.window.activeTextEditor?.document;
  if (doc === undefined || doc.uri.scheme !== 'file' || !/[\\/]entities[\\/].+\.md$/u.test(doc.uri.fsPath)) {
    void vscode.window.showErrorMessage('FlowCabal: open an entity file (under entities/) first.');
    return;
  }
  const res = (await run('flowcabal.entityFacts', [{ uri: doc.uri.toString(), text: doc.getText() }])) as EntityFacts | undefined;
  if (res === undefined) {
    return; // the error was shown
  }
  const open = offeredFacts(res);
  if (open.length === 0) {
    void vscode.window.showInformationMessage(`FlowCabal: ${res.message}: nothing new to add.`);
    return;
  }
  const items = open.map((p) => ({ ...factItem(p), id: p.id }));
  const chosen = await vscode.window.showQuickPick(items, {
    title: `FlowCabal: ${res.message}. Add which? (each with the chapter's words that say so)`,
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (chosen === undefined || chosen.length === 0) {
    return;
  }
  await run('flowcabal.acceptFacts', [acceptFactsArgs(doc.uri.toString(), chosen.map((c) => c.id), doc.getText(), doc.version)]);
}
