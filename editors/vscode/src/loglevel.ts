// The server logs with log/slog to stderr, which the language client shows
// as errors whatever their level. This reads the level back. Pure.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The slog level of a text-handler line (level=INFO …), or undefined. */
export function slogLevel(line: string): LogLevel | undefined {
  const m = /(?:^|\s)level=(DEBUG|INFO|WARN|ERROR)(?:[+-]\d+)?(?:\s|$)/.exec(line);
  switch (m?.[1]) {
    case 'DEBUG':
      return 'debug';
    case 'INFO':
      return 'info';
    case 'WARN':
      return 'warn';
    case 'ERROR':
      return 'error';
    default:
      return undefined;
  }
}
