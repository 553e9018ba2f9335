/** Structured JSON logs, one line per entry, as CloudWatch Logs Insights likes them. */
type Fields = Record<string, unknown>;

function serialise(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
  }
  return out;
}

const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
type Level = Exclude<(typeof LEVELS)[number], 'silent'>;

/** LOG_LEVEL (debug, info, warn, error, silent) sets the threshold; info by default. */
function enabled(level: Level): boolean {
  const threshold = LEVELS.indexOf((process.env.LOG_LEVEL ?? 'info') as Level);
  return LEVELS.indexOf(level) >= (threshold < 0 ? 1 : threshold);
}

function write(level: Level, message: string, fields: Fields = {}): void {
  if (!enabled(level)) return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...serialise(fields) });
  (level === 'error' || level === 'warn' ? console.error : console.log)(line);
}

export const logger = {
  debug: (message: string, fields?: Fields) => write('debug', message, fields),
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};
