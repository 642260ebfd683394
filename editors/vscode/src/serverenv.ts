// Where the server binary is and what environment it gets: the API key
// travels only here, as FLOWCABAL_API_KEY. Pure (no vscode import).

import * as path from 'node:path';

/** The environment variable the server reads the key from. */
export const API_KEY_ENV = 'FLOWCABAL_API_KEY';

/** The variable listing the further hosts the server may send the key to. */
export const TRUSTED_HOSTS_ENV = 'FLOWCABAL_TRUSTED_HOSTS';

/**
 * The hosts (host or host:port) of base URLs the author set in their own
 * user settings: the server sends the key to these too. Workspace settings
 * are not passed, since they come with the project, as flowcabal.toml does.
 */
export function trustedHosts(userBaseUrls: ReadonlyArray<string | undefined>): string[] {
  const out: string[] = [];
  for (const u of userBaseUrls) {
    if (u === undefined || u.trim() === '') {
      continue;
    }
    try {
      const host = new URL(u.trim()).host.toLowerCase();
      if (host !== '' && !out.includes(host)) {
        out.push(host);
      }
    } catch {
      // not a URL: the server reports it when it is used
    }
  }
  return out;
}

/**
 * The server's environment: the editor's own, with FLOWCABAL_API_KEY set to
 * the key from secret storage when one is stored (it wins over one inherited
 * from the shell that started the editor), and the hosts of the author's own
 * base URLs added to FLOWCABAL_TRUSTED_HOSTS.
 */
export function serverEnv(
  base: Readonly<Record<string, string | undefined>>,
  key: string | undefined,
  hosts: ReadonlyArray<string> = [],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v !== undefined) {
      env[k] = v;
    }
  }
  if (key !== undefined && key !== '') {
    env[API_KEY_ENV] = key;
  }
  if (hosts.length > 0) {
    const inherited = env[TRUSTED_HOSTS_ENV] ?? '';
    env[TRUSTED_HOSTS_ENV] = [inherited, ...hosts].filter((h) => h.trim() !== '').join(',');
  }
  return env;
}

/** Replaces every occurrence of the key in text (log lines) with a marker. */
export function redact(text: string, key: string | undefined): string {
  if (key === undefined || key.length < 4) {
    return text;
  }
  return text.split(key).join('[REDACTED]');
}

/**
 * Finds the server binary: the setting when it is set (a relative path is
 * taken from the first workspace folder), else `flowcabal` on PATH. Returns
 * undefined when nothing executable is found.
 */
export function resolveServerPath(
  setting: string | undefined,
  envPath: string | undefined,
  isExecutable: (p: string) => boolean,
  workspaceDir?: string,
): string | undefined {
  const s = setting?.trim() ?? '';
  if (s !== '') {
    const p = path.isAbsolute(s) || workspaceDir === undefined ? s : path.join(workspaceDir, s);
    return isExecutable(p) ? p : undefined;
  }
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (dir === '') {
      continue;
    }
    const p = path.join(dir, 'flowcabal');
    if (isExecutable(p)) {
      return p;
    }
  }
  return undefined;
}
