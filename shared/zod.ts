/**
 * zod's mini API (tree-shakable: a fraction of the classic API's bytes in every Lambda bundle
 * and in the browser), with English messages, which mini does not load by itself: a 400 carries
 * the first issue's message. Every schema imports it from here as a namespace,
 * `import * as z from '…/shared/zod.js'`, which bundlers tree-shake member by member.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
