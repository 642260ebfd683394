// Run state for the status bar, fed by $/progress (work-done progress)
// notifications. Pure (no vscode import).

export interface ProgressBegin {
  kind: 'begin';
  title: string;
  message?: string;
  percentage?: number;
  cancellable?: boolean;
}
export interface ProgressReport {
  kind: 'report';
  message?: string;
  percentage?: number;
}
export interface ProgressEnd {
  kind: 'end';
  message?: string;
}
export type ProgressValue = ProgressBegin | ProgressReport | ProgressEnd;

interface Active {
  title: string;
  message?: string;
  percentage?: number;
}

/** Tracks every active progress token; the newest one is shown. */
export class RunStatus {
  private readonly active = new Map<string, Active>();
  private lastEnd: string | undefined;
  private failed: string | undefined;

  /** Feeds one $/progress value for token. */
  update(token: string | number, value: ProgressValue): void {
    const key = String(token);
    switch (value.kind) {
      case 'begin':
        this.active.delete(key); // re-insert: newest last
        this.active.set(key, { title: value.title, message: value.message, percentage: value.percentage });
        this.failed = undefined;
        break;
      case 'report': {
        const a = this.active.get(key);
        if (a) {
          if (value.message !== undefined) {
            a.message = value.message;
          }
          if (value.percentage !== undefined) {
            a.percentage = value.percentage;
          }
        }
        break;
      }
      case 'end': {
        const a = this.active.get(key);
        this.active.delete(key);
        this.lastEnd = value.message ?? (a ? `${a.title} done` : undefined);
        break;
      }
    }
  }

  /** Marks the server as not running (start failure, crash). */
  setError(message: string | undefined): void {
    this.failed = message;
  }

  get running(): boolean {
    return this.active.size > 0;
  }

  /** Status bar text, with codicons. */
  text(): string {
    if (this.failed !== undefined) {
      return '$(error) FlowCabal';
    }
    const entries = [...this.active.values()];
    const a = entries[entries.length - 1];
    if (a === undefined) {
      return this.lastEnd !== undefined ? `$(check) FlowCabal: ${this.lastEnd}` : '$(check) FlowCabal';
    }
    let s = `$(sync~spin) ${a.title}`;
    if (a.message !== undefined && a.message !== '') {
      s += `: ${a.message}`;
    }
    if (a.percentage !== undefined) {
      s += ` (${Math.round(a.percentage)}%)`;
    }
    if (entries.length > 1) {
      s += ` +${entries.length - 1}`;
    }
    return s;
  }

  tooltip(): string {
    if (this.failed !== undefined) {
      return `FlowCabal server: ${this.failed}`;
    }
    if (this.active.size === 0) {
      return 'FlowCabal: idle — click for the server log';
    }
    return [...this.active.values()].map((a) => `${a.title}${a.message ? ': ' + a.message : ''}`).join('\n');
  }
}
