/** Structured JSON logs, one line per entry, as CloudWatch Logs Insights likes them. */
type Fields = Record<string, unknown>;

function serialise(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
  }
  return out;
}

function write(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields: Fields = {}): void {
  if (level === 'debug' && !process.env.DEBUG) return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...serialise(fields) });
  (level === 'error' || level === 'warn' ? console.error : console.log)(line);
}

export const logger = {
  debug: (message: string, fields?: Fields) => write('debug', message, fields),
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};
