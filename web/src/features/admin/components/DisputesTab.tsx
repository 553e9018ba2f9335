import {
  Badge,
  Button,
  CheckboxField,
  Pagination,
  SelectField,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextAreaField,
  type BadgeVariations,
} from '@aws-amplify/ui-react';
import '@aws-amplify/ui-react/styles.css';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { UNKNOWN_USER } from '../../../../../shared/admin';
import type { AdminDispute, ResolutionTemplate } from '../../../../../shared/api';
import { ADMIN_DISPUTE_VIEWS, DISPUTE_PRIORITIES, PRIORITY_WEIGHT, isDisputeOpen, type AdminDisputeView, type DisputePriority } from '../../../../../shared/disputes';
import { MSG } from '../../../../../shared/messages';
import { ApiRequestError } from '../../../lib/api/client';
import { DisputeThreadView, disputeKeys, useDisputeLiveUpdates } from '../../disputes';
import { bulkResolveDisputes } from '../api/bulk-resolve-disputes';
import { fetchAdminDisputes } from '../api/fetch-admin-disputes';
import { fetchResolutionTemplates } from '../api/fetch-resolution-templates';
import { resolveDispute } from '../api/resolve-dispute';
import { setDisputePriority } from '../api/set-dispute-priority';
import { LoadingState } from '../../../lib/components/LoadingState';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';
import '../../../styles/disputes.css';

const PRIORITY_BADGE: Record<DisputePriority, BadgeVariations | undefined> = { urgent: 'error', high: 'warning', medium: 'info', low: undefined };

type SortOrder = 'priority' | 'newest';

const byNewest = (a: AdminDispute, b: AdminDispute) => b.createdAt.localeCompare(a.createdAt);
const byPriority = (a: AdminDispute, b: AdminDispute) => PRIORITY_WEIGHT[b.priority] - PRIORITY_WEIGHT[a.priority] || byNewest(a, b);

const failureText = (prefix: string, error: unknown) => (error instanceof ApiRequestError ? `${prefix}: ${error.message}` : prefix);

/** Templates that fit a dispute: its type's, and those for every type. */
const templatesFor = (templates: ResolutionTemplate[], dispute: AdminDispute) =>
  templates.filter((template) => template.disputeType === null || template.disputeType === dispute.type);

/**
 * The admin's Disputes tab (spec 2 §2, §7, §9): open or resolved disputes, 50 a page, by
 * priority weight then newest; set priority, read and write in a thread, resolve with a
 * template or custom text, and resolve a selection in bulk by template.
 */
export default function DisputesTab() {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [view, setView] = useState<AdminDisputeView>('open');
  const [sort, setSort] = useState<SortOrder>('priority');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [openId, setOpenId] = useState<string | null>(null);
  const [bulkTemplateId, setBulkTemplateId] = useState('');
  useDisputeLiveUpdates();

  const list = useInfiniteQuery({
    queryKey: [...disputeKeys.admin, view],
    queryFn: ({ pageParam }) => fetchAdminDisputes(api, view, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const templates = useQuery({ queryKey: ['dispute-templates'], queryFn: async () => (await fetchResolutionTemplates(api)).items });
  const refresh = () => queryClient.invalidateQueries({ queryKey: disputeKeys.all });

  const priority = useMutation({
    mutationFn: ({ id, value }: { id: string; value: DisputePriority }) => setDisputePriority(api, id, value),
    onSuccess: () => toast.success(MSG.disputes.prioritySet),
    onError: (error) => toast.error(failureText('Failed to update dispute', error)),
    onSettled: refresh,
  });
  const bulk = useMutation({
    mutationFn: ({ ids, templateId }: { ids: string[]; templateId: string }) => bulkResolveDisputes(api, ids, templateId),
    onSuccess: (result) => {
      toast.success(MSG.disputes.bulkResolved(result.resolved.length));
      for (const failure of result.failed) toast.error(`${failure.disputeId.slice(0, 8)}: ${failure.error}`);
      setSelected(new Set());
    },
    onError: (error) => toast.error(failureText('Failed to resolve disputes', error)),
    onSettled: refresh,
  });

  const pages = list.data?.pages ?? [];
  const rows = [...(pages[page - 1]?.items ?? [])].sort(sort === 'priority' ? byPriority : byNewest);
  const openDispute = rows.find((dispute) => dispute.id === openId) ?? null;
  const allSelected = rows.length > 0 && rows.every((dispute) => selected.has(dispute.id));

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const resolveSelected = () => {
    if (selected.size === 0) return toast.error(MSG.disputes.selectDisputes);
    if (!bulkTemplateId) return toast.error(MSG.disputes.templateRequired);
    bulk.mutate({ ids: [...selected], templateId: bulkTemplateId });
  };

  return (
    <section aria-labelledby="disputes-tab-heading">
      <h2 id="disputes-tab-heading">Disputes</h2>
      <div className="disputes-tab__toolbar">
        <SelectField
          label="Show"
          value={view}
          onChange={(event) => {
            setView(event.target.value as AdminDisputeView);
            setPage(1);
            setSelected(new Set());
            setOpenId(null);
          }}
        >
          {ADMIN_DISPUTE_VIEWS.map((value) => (
            <option key={value} value={value}>
              {value === 'open' ? 'Open disputes' : 'Resolved disputes'}
            </option>
          ))}
        </SelectField>
        <SelectField label="Sort by" value={sort} onChange={(event) => setSort(event.target.value as SortOrder)}>
          <option value="priority">Priority, then newest</option>
          <option value="newest">Newest first</option>
        </SelectField>
        {view === 'open' ? (
          <>
            <SelectField label="Bulk resolution template" value={bulkTemplateId} onChange={(event) => setBulkTemplateId(event.target.value)}>
              <option value="">Choose a template</option>
              {(templates.data ?? []).map((template) => (
                <option key={template.id} value={template.id}>
                  {template.title}
                </option>
              ))}
            </SelectField>
            <Button variation="primary" onClick={resolveSelected} isLoading={bulk.isPending} loadingText="Resolving...">
              Resolve Selected ({selected.size})
            </Button>
          </>
        ) : null}
      </div>
      {templates.isError ? <p className="field__error">{MSG.disputes.failedToLoadTemplates}</p> : null}

      {list.isPending ? (
        <LoadingState label="Loading disputes..." />
      ) : list.isError ? (
        <p className="field__error">{failureText(MSG.disputes.failedToLoad, list.error)}</p>
      ) : rows.length === 0 ? (
        <p className="muted">{view === 'open' ? 'No open disputes.' : 'No resolved disputes.'}</p>
      ) : (
        <div className="disputes-tab__table">
          <Table highlightOnHover size="small" caption={`${view === 'open' ? 'Open' : 'Resolved'} disputes`}>
            <TableHead>
              <TableRow>
                <TableCell as="th">
                  <CheckboxField
                    label="Select all"
                    labelHidden
                    name="select-all"
                    checked={allSelected}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((dispute) => dispute.id)))}
                  />
                </TableCell>
                <TableCell as="th">Job</TableCell>
                <TableCell as="th">Type</TableCell>
                <TableCell as="th">Reporter</TableCell>
                <TableCell as="th">Reported</TableCell>
                <TableCell as="th">Priority</TableCell>
                <TableCell as="th">Filed</TableCell>
                <TableCell as="th">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((dispute) => (
                <TableRow key={dispute.id}>
                  <TableCell>
                    <CheckboxField
                      label={`Select dispute about ${dispute.jobTitle}`}
                      labelHidden
                      name="select-dispute"
                      checked={selected.has(dispute.id)}
                      onChange={() => toggle(dispute.id)}
                    />
                  </TableCell>
                  <TableCell>{dispute.jobTitle}</TableCell>
                  <TableCell>{dispute.type}</TableCell>
                  <TableCell>{dispute.reporterName ?? UNKNOWN_USER}</TableCell>
                  <TableCell>{dispute.reportedName ?? UNKNOWN_USER}</TableCell>
                  <TableCell>
                    <Badge variation={PRIORITY_BADGE[dispute.priority]}>{dispute.priority}</Badge>
                  </TableCell>
                  <TableCell>{new Date(dispute.createdAt).toLocaleString()}</TableCell>
                  <TableCell>
                    <SelectField
                      label={`Priority of dispute about ${dispute.jobTitle}`}
                      labelHidden
                      size="small"
                      value={dispute.priority}
                      onChange={(event) => priority.mutate({ id: dispute.id, value: event.target.value as DisputePriority })}
                    >
                      {DISPUTE_PRIORITIES.map((value) => (
                        <option key={value} value={value}>
                          {value}
                        </option>
                      ))}
                    </SelectField>
                    <Button size="small" onClick={() => setOpenId(openId === dispute.id ? null : dispute.id)}>
                      {openId === dispute.id ? 'Close' : 'Open'}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Pagination
            currentPage={page}
            totalPages={pages.length}
            hasMorePages={list.hasNextPage}
            onChange={(next) => setPage(next ?? 1)}
            onPrevious={() => setPage((current) => Math.max(1, current - 1))}
            onNext={() => {
              if (page === pages.length) void list.fetchNextPage();
              setPage((current) => current + 1);
            }}
          />
        </div>
      )}

      {openDispute ? <DisputeDetail key={openDispute.id} dispute={openDispute} templates={templates.data ?? []} onResolved={refresh} /> : null}
    </section>
  );
}

/** One dispute: its description, its thread (600 px) and the resolution form. */
function DisputeDetail({ dispute, templates, onResolved }: { dispute: AdminDispute; templates: ResolutionTemplate[]; onResolved(): void }) {
  const api = useApi();
  const toast = useToast();
  const [templateId, setTemplateId] = useState('');
  const [text, setText] = useState('');
  const resolve = useMutation({
    mutationFn: () => resolveDispute(api, dispute.id, templateId ? { templateId } : { resolution: text.trim() }),
    onSuccess: () => toast.success(MSG.disputes.resolved),
    onError: (error) => toast.error(failureText('Failed to resolve dispute', error)),
    onSettled: onResolved,
  });
  const chosen = templates.find((template) => template.id === templateId);

  return (
    <div className="card disputes-tab__detail" aria-labelledby={`dispute-${dispute.id}`}>
      <h3 id={`dispute-${dispute.id}`}>
        {dispute.jobTitle}: {dispute.reporterName ?? UNKNOWN_USER} reports {dispute.reportedName ?? UNKNOWN_USER}
      </h3>
      <p className="preserve-lines">{dispute.description}</p>
      <DisputeThreadView disputeId={dispute.id} asAdmin />
      {isDisputeOpen(dispute.status) ? (
        <form
          className="form__fields"
          onSubmit={(event) => {
            event.preventDefault();
            if (!templateId && !text.trim()) return toast.error(MSG.disputes.resolutionRequired);
            resolve.mutate();
          }}
        >
          <SelectField label="Resolution template" value={templateId} onChange={(event) => setTemplateId(event.target.value)}>
            <option value="">Custom resolution</option>
            {templatesFor(templates, dispute).map((template) => (
              <option key={template.id} value={template.id}>
                {template.title}
              </option>
            ))}
          </SelectField>
          {chosen ? (
            <p className="note">{chosen.resolutionText}</p>
          ) : (
            <TextAreaField label="Resolution" rows={3} value={text} onChange={(event) => setText(event.target.value)} />
          )}
          <Button type="submit" variation="primary" isLoading={resolve.isPending} loadingText="Resolving...">
            Resolve Dispute
          </Button>
        </form>
      ) : null}
    </div>
  );
}
