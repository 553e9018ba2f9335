/**
 * The chat's server state in the TanStack Query cache: the conversation list, each opened
 * conversation with its messages, and the header's unread total.
 */
export const chatKeys = {
  all: ['chat'] as const,
  list: () => ['chat', 'conversations'] as const,
  detail: (id: string) => ['chat', 'conversation', id] as const,
  unread: () => ['chat', 'unread'] as const,
};
