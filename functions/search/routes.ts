import { EVENT_SOURCE, JOB_EVENT, JOB_RULE_CHANGES, onChange, type EventRule } from '../declarations.js';

/**
 * The search feature's functions: its part of EVENT_RULES, which functions/routes.ts gathers from
 * every feature (the same names and shapes there).
 */
export const EVENT_RULES = {
  searchIndex: {
    description: 'Keeps the open-jobs search index in line with every job change',
    pattern: {
      source: [EVENT_SOURCE.jobs],
      'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated, JOB_EVENT.removed],
      detail: onChange([{ 'anything-but': JOB_RULE_CHANGES.sameSearchEntry }]),
    },
    entry: 'functions/search/events/search-index.ts',
    capabilities: ['table:read', 'table:write'],
  },
} as const satisfies Record<string, EventRule>;
