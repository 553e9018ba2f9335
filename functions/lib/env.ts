import { ENV } from '../routes.js';

/** Reads a required environment variable at call time (tests and the local stack set them late). */
export function env(name: keyof typeof ENV): string {
  const value = process.env[ENV[name]];
  if (!value) throw new Error(`Missing environment variable ${ENV[name]}`);
  return value;
}

export function optionalEnv(name: keyof typeof ENV): string | undefined {
  return process.env[ENV[name]] || undefined;
}
