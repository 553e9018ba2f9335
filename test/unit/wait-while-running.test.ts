import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { waitWhileRunning } from '../../infra/local/processes.js';

/** A child that runs `script` in sh, as DynamoDB Local's wrapper runs its JVM. */
const child = (script: string) => spawn('/bin/sh', ['-c', script], { stdio: 'ignore' });

describe('waiting for a local emulator to start (npm run dev)', () => {
  it('waits as long as the process runs, reporting progress, until it answers', async () => {
    const emulator = child('sleep 30');
    let answers = 0;
    const reports: number[] = [];
    // Answers on the fifth probe, after several progress reports (one per probe here).
    await waitWhileRunning('the emulator', emulator, async () => ++answers >= 5, { progressEveryMs: 0, progress: (seconds) => reports.push(seconds) });
    expect(answers).toBe(5);
    expect(reports.length).toBe(4);
    emulator.kill();
  });

  it('fails, naming how the process ended, only when it died before answering', async () => {
    await expect(waitWhileRunning('DynamoDB Local', child('exit 3'), async () => false, { hint: 'is Java 17 installed?', progress: () => undefined })).rejects.toThrow(
      'DynamoDB Local exited with code 3 before it was ready (is Java 17 installed?)',
    );
    const killed = child('sleep 30');
    killed.kill('SIGTERM');
    await expect(waitWhileRunning('DynamoDB Local', killed, async () => false, { progress: () => undefined })).rejects.toThrow('DynamoDB Local exited on SIGTERM before it was ready');
  });
});
