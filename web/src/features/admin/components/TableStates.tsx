import { Button } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { apiErrorText } from '../../../lib/api/client';
import { EmptyState } from '../../../lib/components/EmptyState';
import { LoadingState } from '../../../lib/components/LoadingState';

/** What a table needs of its TanStack query (paged or not). */
interface TableQuery {
  isPending: boolean;
  error: unknown;
  refetch(): unknown;
  hasNextPage?: boolean;
  isFetchingNextPage?: boolean;
  fetchNextPage?(): unknown;
}

interface TableStatesProps {
  query: TableQuery;
  /** What is loading, e.g. 'transactions'. */
  what: string;
  /** The spec's 'Failed to load …' text for a reason. */
  failedText(reason: string): string;
  isEmpty: boolean;
  emptyText: string;
  children: ReactNode;
}

/** Loading, failure, empty, or the table with 'Load more' below it while the server has more rows. */
export function TableStates({ query, ...props }: TableStatesProps) {
  if (query.isPending) return <LoadingState label={`Loading ${props.what}...`} />;
  if (query.error) return <LoadFailed text={props.failedText(apiErrorText(query.error, 'the server did not answer'))} onRetry={() => void query.refetch()} />;
  if (props.isEmpty) return <EmptyState title={props.emptyText} />;
  return (
    <>
      {/* Focusable, so that a keyboard can scroll a table wider than a phone (axe: scrollable-region-focusable). */}
      <div className="admin-table" tabIndex={0} role="region" aria-label={`${props.what} table`}>
        {props.children}
      </div>
      {query.hasNextPage ? (
        <div className="button-row admin-load-more">
          <Button size="small" isLoading={query.isFetchingNextPage} loadingText="Loading..." onClick={() => void query.fetchNextPage?.()}>
            Load more
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** A read that failed: the spec's 'Failed to load …' text with its reason, and a retry. */
export function LoadFailed({ text, onRetry }: { text: string; onRetry(): void }) {
  return (
    <div className="empty-state" role="alert">
      <p className="empty-state__title">{text}</p>
      <Button size="small" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
