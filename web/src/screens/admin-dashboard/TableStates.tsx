import { Button } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { apiErrorText } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { LoadingState } from '../../components/LoadingState';

interface TableStatesProps {
  /** What is loading, e.g. 'transactions'. */
  what: string;
  isPending: boolean;
  error: unknown;
  /** The spec's 'Failed to load …' text for a reason. */
  failedText(reason: string): string;
  isEmpty: boolean;
  emptyText: string;
  hasNextPage?: boolean;
  isFetchingNextPage?: boolean;
  onLoadMore?(): void;
  onRetry(): void;
  children: ReactNode;
}

/** Loading, failure, empty, or the table with 'Load more' below it while the server has more rows. */
export function TableStates(props: TableStatesProps) {
  if (props.isPending) return <LoadingState label={`Loading ${props.what}...`} />;
  if (props.error) {
    return (
      <div className="empty-state" role="alert">
        <p className="empty-state__title">{props.failedText(apiErrorText(props.error, 'the server did not answer'))}</p>
        <Button size="small" onClick={props.onRetry}>
          Try again
        </Button>
      </div>
    );
  }
  if (props.isEmpty) return <EmptyState title={props.emptyText} />;
  return (
    <>
      <div className="admin-table">{props.children}</div>
      {props.hasNextPage ? (
        <div className="button-row admin-load-more">
          <Button size="small" isLoading={props.isFetchingNextPage} loadingText="Loading..." onClick={props.onLoadMore}>
            Load more
          </Button>
        </div>
      ) : null}
    </>
  );
}
