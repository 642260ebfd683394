#!/usr/bin/env node
// A scripted stand-in for `flowcabal serve`, used only by plugin_spec.lua to
// check what the Neovim plugin sends and how it reacts, independently of the
// real server. It speaks LSP (Content-Length framed JSON-RPC) on stdio and
// records what it saw; the test reads that record with the `fake/state`
// request. It is not a language server and does not pretend to be one.
'use strict';

const state = {
  initialize: null,
  configuration: null,
  executed: [],
  opened: [],
  codeLensRequests: 0,
  showDocument: null,
  envKeySet: Boolean(process.env.FLOWCABAL_API_KEY),
  envKeyLength: (process.env.FLOWCABAL_API_KEY || '').length,
};

let nextId = 1000;
const pending = new Map();

function send(msg) {
  msg.jsonrpc = '2.0';
  const body = Buffer.from(JSON.stringify(msg), 'utf8');
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve) => pending.set(id, resolve));
}

const commands = [
  'flowcabal.runNode', 'flowcabal.runWorkflow', 'flowcabal.runFrom', 'flowcabal.cancel',
  'flowcabal.approve', 'flowcabal.retry', 'flowcabal.edit', 'flowcabal.freeze',
  'flowcabal.unfreeze', 'flowcabal.restoreVersion', 'flowcabal.persist', 'flowcabal.build',
  'flowcabal.buildAccept', 'flowcabal.buildReject', 'flowcabal.showContext',
];

function handle(msg) {
  if (msg.id !== undefined && msg.method === undefined) {
    const r = pending.get(msg.id);
    if (r) { pending.delete(msg.id); r(msg); }
    return;
  }
  const { id, method, params } = msg;
  switch (method) {
    case 'initialize':
      state.initialize = params;
      send({ id, result: {
        capabilities: {
          textDocumentSync: 1,
          codeLensProvider: { resolveProvider: false },
          executeCommandProvider: { commands },
        },
        serverInfo: { name: 'fake-flowcabal (test stand-in)' },
      } });
      return;
    case 'initialized':
      request('workspace/configuration', { items: [{ section: 'flowcabal' }] })
        .then((resp) => { state.configuration = resp.result; });
      return;
    case 'textDocument/didOpen':
      state.opened.push(params.textDocument.uri);
      send({ method: 'textDocument/publishDiagnostics', params: {
        uri: params.textDocument.uri,
        diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } },
          severity: 1, message: 'fake diagnostic', source: 'fake' }],
      } });
      return;
    case 'textDocument/codeLens':
      state.codeLensRequests++;
      send({ id, result: [{
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        command: { title: 'Run node', command: 'flowcabal.runNode',
          arguments: [{ uri: params.textDocument.uri, node: 'premise' }] },
      }] });
      return;
    case 'workspace/executeCommand': {
      state.executed.push(params);
      const arg = (params.arguments || [])[0] || {};
      if (params.command === 'flowcabal.persist') {
        send({ id, error: { code: -32601, message: 'flowcabal.persist: not available yet' } });
        return;
      }
      if (params.command === 'flowcabal.approve') {
        request('window/showDocument', { uri: arg.uri.replace(/\.flow$/, '.md'), takeFocus: false })
          .then((resp) => { state.showDocument = resp.result || resp.error; });
      }
      send({ id, result: { message: `ran ${params.command}` } });
      return;
    }
    case 'fake/state':
      send({ id, result: state });
      return;
    case 'shutdown':
      send({ id, result: null });
      return;
    case 'exit':
      process.exit(0);
      return;
    default:
      if (id !== undefined) {
        send({ id, error: { code: -32601, message: `method not found: ${method}` } });
      }
  }
}

let buf = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  for (;;) {
    const sep = buf.indexOf('\r\n\r\n');
    if (sep < 0) return;
    const m = /Content-Length: *(\d+)/i.exec(buf.subarray(0, sep).toString('ascii'));
    if (!m) { process.exit(2); }
    const len = Number(m[1]);
    if (buf.length < sep + 4 + len) return;
    const body = buf.subarray(sep + 4, sep + 4 + len).toString('utf8');
    buf = buf.subarray(sep + 4 + len);
    handle(JSON.parse(body));
  }
});
process.stdin.on('end', () => process.exit(0));
