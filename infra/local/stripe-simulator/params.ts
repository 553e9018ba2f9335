import { ParameterError } from './errors.js';

/**
 * Request parameters as Stripe's v1 API receives them: form fields with bracket notation
 * (`metadata[job_id]=x`, `capabilities[transfers][requested]=true`). Lists arrive indexed
 * (`expand[0]=a`, what the SDK sends) or as `expand[]=a` (what curl users write); both become
 * objects keyed by index, so one tree shape serves hashes and lists alike.
 */
export type ParamValue = string | Params;
export interface Params {
  [name: string]: ParamValue;
}

/** Parses `application/x-www-form-urlencoded` text (a body or a query string) into a tree. */
export function parseParams(form: URLSearchParams): Params {
  const root: Params = {};
  for (const [field, value] of form) {
    const [head, ...rest] = field.split('[');
    const path = [head ?? '', ...rest.map((segment) => segment.replace(/\]$/, ''))];
    let node = root;
    path.forEach((segment, depth) => {
      const name = segment === '' && depth > 0 ? String(Object.keys(node).length) : segment;
      if (depth === path.length - 1) {
        node[name] = value;
        return;
      }
      const child = node[name] ?? {};
      if (typeof child === 'string') throw new ParameterError(`Invalid hash: ${path.slice(0, depth + 1).join('[')}]`, { param: field });
      node[name] = child;
      node = child;
    });
  }
  return root;
}

/** Typed access to one level of the parameter tree; error messages name the full bracketed path, as Stripe's do. */
export class ParamReader {
  constructor(
    readonly params: Params,
    private readonly prefix = '',
  ) {}

  private path(name: string): string {
    return this.prefix ? `${this.prefix}[${name}]` : name;
  }

  string(name: string): string | undefined {
    const value = this.params[name];
    if (value === undefined || typeof value === 'string') return value;
    throw new ParameterError(`Invalid string: ${JSON.stringify(value)}`, { param: this.path(name) });
  }

  private missing(name: string): ParameterError {
    return new ParameterError(`Missing required param: ${this.path(name)}.`, { code: 'parameter_missing', param: this.path(name) });
  }

  requiredString(name: string): string {
    const value = this.string(name);
    if (value === undefined || value === '') throw this.missing(name);
    return value;
  }

  integer(name: string): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) throw new ParameterError(`Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param: this.path(name) });
    return Number(value);
  }

  requiredInteger(name: string): number {
    const value = this.integer(name);
    if (value === undefined) throw this.missing(name);
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw new ParameterError(`Invalid boolean: ${value}`, { param: this.path(name) });
    return value === 'true';
  }

  oneOf<const Choice extends string>(name: string, choices: readonly Choice[]): Choice | undefined {
    const value = this.string(name);
    if (value === undefined || (choices as readonly string[]).includes(value)) return value as Choice | undefined;
    const listed = `${choices.slice(0, -1).join(', ')}, or ${choices.at(-1)}`;
    throw new ParameterError(`Invalid ${this.path(name)}: must be one of ${listed}`, { param: this.path(name) });
  }

  requiredOneOf<const Choice extends string>(name: string, choices: readonly Choice[]): Choice {
    const value = this.oneOf(name, choices);
    if (value === undefined) throw this.missing(name);
    return value;
  }

  /** A nested hash such as `payment_method_data[card]`, or undefined when absent. */
  hash(name: string): ParamReader | undefined {
    const value = this.params[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string') throw new ParameterError(`Invalid object: ${this.path(name)} must be a hash`, { param: this.path(name) });
    return new ParamReader(value, this.path(name));
  }

  /** A list of strings (`expand[0]=a&expand[1]=b`), in index order. */
  list(name: string): string[] {
    const hash = this.hash(name);
    if (!hash) return [];
    return Object.keys(hash.params)
      .sort((a, b) => Number(a) - Number(b))
      .map((index) => hash.requiredString(index));
  }

  /**
   * Metadata as Stripe applies it to an existing object: keys are added or replaced, a key set to
   * '' is removed, and `metadata=''` clears everything.
   */
  metadata(current: Record<string, string> = {}): Record<string, string> {
    const value = this.params.metadata;
    if (value === undefined) return current;
    if (value === '') return {};
    if (typeof value === 'string') throw new ParameterError('Invalid object: metadata must be a hash', { param: 'metadata' });
    const merged = { ...current };
    for (const [key, entry] of Object.entries(value)) {
      if (typeof entry !== 'string') throw new ParameterError(`Invalid string: metadata[${key}] must be a string`, { param: `metadata[${key}]` });
      if (key.length > 40) throw new ParameterError(`Metadata keys can have up to 40 characters; '${key}' has ${key.length}.`, { param: `metadata[${key}]` });
      if (entry.length > 500) throw new ParameterError(`Metadata values can have up to 500 characters, but you passed in a value that is ${entry.length} characters.`, { param: `metadata[${key}]` });
      if (entry === '') delete merged[key];
      else merged[key] = entry;
    }
    if (Object.keys(merged).length > 50) throw new ParameterError('You can specify up to 50 keys for metadata.', { param: 'metadata' });
    return merged;
  }
}
