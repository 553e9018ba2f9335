import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENV, type Capability, type FunctionDeclaration } from '../../functions/routes.js';
import { BUS_NAME } from '../../infra/local/stack.js';
import type { ProbeCall } from '../support/fixtures/probe-function.js';
import { useLocalStack } from '../support/local-stack.js';

/** The probe function declared with these capabilities. */
const probe = (...capabilities: Capability[]): FunctionDeclaration => ({ entry: 'test/support/fixtures/probe-function.ts', capabilities });

describe('the local stack holds each function to its declaration, as Lambda and IAM do', () => {
  const stack = useLocalStack();
  const invoke = (name: string, declaration: FunctionDeclaration, event: ProbeCall) => stack().functions.invoke(name, declaration, event);

  afterEach(() => vi.restoreAllMocks());

  it('gives a function only the variables of its declaration: one it reads but was not given fails, as in AWS', async () => {
    await expect(invoke('probe-without-images', probe('table:read'), { call: 'image-url' })).rejects.toThrow(`Missing environment variable ${ENV.imagesBaseUrl}`);
    expect(await invoke('probe-with-images', probe('images:read'), { call: 'image-url' })).toMatch(/\/probe\.png$/);
  });

  it('answers a call its capabilities do not grant with AccessDenied, naming the function and the capability it lacks', async () => {
    await expect(invoke('probe-reader', probe('table:read'), { call: 'put-item' })).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringMatching(/probe-reader is not authorized to perform: dynamodb:PutItem .*lacks the capability 'table:write'/),
    });
    expect(await invoke('probe-writer', probe('table:write'), { call: 'put-item' })).toBe('written');

    const bucket = process.env[ENV.imagesBucket]!;
    await expect(invoke('probe-uploader', probe('images:write'), { call: 'get-object', bucket })).rejects.toMatchObject({
      name: 'AccessDenied',
      message: expect.stringMatching(/probe-uploader is not authorized to perform: s3:GetObject .*lacks the capability 'images:read'/),
    });
    await expect(invoke('probe-image-reader', probe('images:read'), { call: 'get-object', bucket })).rejects.toMatchObject({ name: 'NoSuchKey' });

    await expect(invoke('probe-reader', probe('table:read'), { call: 'put-events', busName: BUS_NAME })).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringMatching(/probe-reader is not authorized to perform: events:PutEvents .*lacks the capability 'events:put'/),
    });
  });

  it("labels each function's log lines with its own name, also while another function's invocation runs", async () => {
    // Warnings go to stderr (console.warn), as in Lambda.
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
      if (String(chunk).includes('"message":"probe"')) return (lines.push(String(chunk)), true);
      return write(chunk, ...(rest as []));
    });
    await Promise.all([invoke('probe-slow', probe(), { call: 'log', after: 300 }), invoke('probe-quick', probe(), { call: 'log', after: 0 })]);
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    const names = lines.map((line) => (JSON.parse(line) as { function_name: string }).function_name).sort();
    expect(names).toEqual(['probe-quick', 'probe-slow']);
  });
});
