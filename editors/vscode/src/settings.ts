// Settings -> the "flowcabal" section the server reads through
// workspace/configuration. Pure: no vscode import, so it is unit-tested
// under plain Node.

/** Reads one setting by its full key, e.g. "flowcabal.models.writer.model". */
export type SettingGetter = (key: string) => unknown;

/** The model roles the server knows. */
export const MODEL_ROLES = ['writer', 'agent', 'embedding'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/** The fields of a model the editor may override. The key itself is never one. */
export const MODEL_FIELDS = ['baseUrl', 'model', 'apiKeyEnv'] as const;
export type ModelField = (typeof MODEL_FIELDS)[number];

export type ModelSettings = Partial<Record<ModelField, string>>;

/** What the server receives for section "flowcabal". */
export interface ServerSettings {
  models: Partial<Record<ModelRole, ModelSettings>>;
}

function nonEmpty(v: unknown): string | undefined {
  if (typeof v !== 'string') {
    return undefined;
  }
  const t = v.trim();
  return t === '' ? undefined : t;
}

/**
 * Builds the configuration payload from the user's settings. Empty values
 * are left out so that flowcabal.toml keeps the last word on them; only the
 * known fields are read, so nothing else (an API key pasted into a setting,
 * for instance) can travel to the server this way.
 */
export function configurationPayload(get: SettingGetter): ServerSettings {
  const models: ServerSettings['models'] = {};
  for (const role of MODEL_ROLES) {
    const m: ModelSettings = {};
    for (const field of MODEL_FIELDS) {
      const v = nonEmpty(get(`flowcabal.models.${role}.${field}`));
      if (v !== undefined) {
        m[field] = v;
      }
    }
    if (Object.keys(m).length > 0) {
      models[role] = m;
    }
  }
  return { models };
}

/**
 * Answers the items of a workspace/configuration request: "flowcabal" and
 * its sub-paths ("flowcabal.models", "flowcabal.models.writer", …) come from
 * the payload; anything else is null (we own no other section).
 */
export function answerConfiguration(items: readonly { section?: string }[], get: SettingGetter): unknown[] {
  const payload = configurationPayload(get);
  return items.map((item) => {
    const section = item.section ?? '';
    if (section === 'flowcabal') {
      return payload;
    }
    if (!section.startsWith('flowcabal.')) {
      return null;
    }
    let cur: unknown = payload;
    for (const part of section.slice('flowcabal.'.length).split('.')) {
      if (cur === null || typeof cur !== 'object' || !(part in cur)) {
        return null;
      }
      cur = (cur as Record<string, unknown>)[part];
    }
    return cur;
  });
}
