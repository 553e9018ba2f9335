import { describe, expect, it } from 'vitest';
import { HTTP_ROUTE_GROUPS } from '../../functions/routes.js';
import { createUser, useLocalStack, type TestUser } from '../support/local-stack.js';

/** Bodies a careless or hostile client might send. */
const BAD_BODIES: unknown[] = [
  '{not json',
  'null',
  '[]',
  '"text"',
  { title: 12, payment: 'a lot', address: 'here', images: 'x', rating: 'five', reason: 3, message: { a: 1 } },
  { __proto__: { admin: true }, constructor: 'x' },
  { payment: -1, limit: Number.MAX_VALUE, rating: 0.5 },
];

const BAD_IDS = ['does-not-exist', '%00', "' OR 1=1 --", 'a'.repeat(500)];

describe('no user input ever gets a 500', () => {
  const stack = useLocalStack();

  it('answers every declared route with a 4xx (or success) for malformed bodies, ids and queries', async () => {
    const users: Record<string, TestUser> = {
      worker: await createUser(stack(), { role: 'worker' }),
      poster: await createUser(stack(), { role: 'poster' }),
    };
    const failures: string[] = [];
    for (const group of Object.values(HTTP_ROUTE_GROUPS)) {
      for (const routeKey of Object.keys(group.routes)) {
        if (routeKey === 'POST /webhooks/stripe') continue; // signature-checked; covered in payments.test.ts
        const [method, template] = routeKey.split(' ') as [string, string];
        for (const id of BAD_IDS) {
          const path = template.replace(/\{[^}]+\}/g, encodeURIComponent(id));
          for (const body of method === 'GET' || method === 'DELETE' ? [undefined] : BAD_BODIES) {
            for (const user of Object.values(users)) {
              const response = await fetch(`${stack().urls.api}${path}?limit=abc&cursor=%%%&category=Nope&q=${'x'.repeat(300)}`, {
                method,
                headers: { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json', origin: 'javascript:alert(1)' },
                body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
              });
              if (response.status >= 500) failures.push(`${routeKey} ${path.slice(0, 60)} ${String(body).slice(0, 30)} -> ${response.status} ${await response.text()}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
