import {
  Badge,
  Button,
  CheckboxField,
  Pagination,
  Radio,
  RadioGroupField,
  SelectField,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextAreaField,
  TextField,
  type BadgeVariations,
} from '@aws-amplify/ui-react';
import '@aws-amplify/ui-react/styles.css';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { UNKNOWN_USER } from '../../../../../shared/admin';
import type { AdminDispute, JobDetail, ResolutionTemplate } from '../../../../../shared/api';
import { canPerform } from '../../../../../shared/job-process';
import { dollarsToCents, formatCents, formatUsdAmount } from '../../../../../shared/money';
import { ADMIN_DISPUTE_VIEWS, DISPUTE_PRIORITIES, PRIORITY_WEIGHT, isDisputeOpen, type AdminDisputeView, type DisputePriority } from '../../../../../shared/disputes';
import { MSG } from '../../../../../shared/messages';
import { ApiRequestError } from '../../../lib/api/client';
import { DisputeThreadView, disputeKeys, useDisputeLiveUpdates } from '../../disputes';
import { useJob } from '../../jobs';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';
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

/** What a resolution does with money held for the job: nothing (kept held), or one of the process's decisions. */
type MoneyChoice = 'keep' | 'release' | 'refund' | 'split';

/** The worker's part of a split as typed, in cents, when it is one the server takes (1 cent to the payment less 1 cent). */
function splitCents(text: string, payment: number): number | null {
  const cents = dollarsToCents(text);
  return cents !== null && cents >= 1 && cents < payment ? cents : null;
}

/**
 * One dispute: its description, its thread (600 px) and the resolution form. While the job's
 * money is held the admin decides it too (issue 34): kept held (a completed job's auto-release
 * resumes), released to the worker, refunded to the poster, or split; the amounts are confirmed
 * before anything moves.
 */
function DisputeDetail({ dispute, templates, onResolved }: { dispute: AdminDispute; templates: ResolutionTemplate[]; onResolved(): void }) {
  const api = useApi();
  const toast = useToast();
  const open = isDisputeOpen(dispute.status);
  const job = useJob(dispute.jobId);
  const [templateId, setTemplateId] = useState('');
  const [text, setText] = useState('');
  const [money, setMoney] = useState<MoneyChoice>('keep');
  const [splitText, setSplitText] = useState('');
  const [splitError, setSplitError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const held = job.data?.moneyState === 'held' ? job.data : null;
  const choices = (['release', 'refund', 'split'] as const).filter((action) => held !== null && canPerform(action, held));
  const toWorker = held ? splitCents(splitText, held.payment) : null;

  const resolve = useMutation({
    mutationFn: () => {
      const resolution = templateId ? { templateId } : { resolution: text.trim() };
      if (!held || money === 'keep') return resolveDispute(api, dispute.id, resolution);
      return resolveDispute(api, dispute.id, { ...resolution, money: money === 'split' ? { decision: 'split', toWorker: toWorker ?? 0 } : { decision: money } });
    },
    onSuccess: () => toast.success(MSG.disputes.resolved),
    onError: (error) => toast.error(failureText('Failed to resolve dispute', error)),
    onSettled: () => {
      setConfirming(false);
      onResolved();
      void job.refetch();
    },
  });
  const chosen = templates.find((template) => template.id === templateId);

  const askToConfirm = (event: FormEvent) => {
    event.preventDefault();
    if (!templateId && !text.trim()) return toast.error(MSG.disputes.resolutionRequired);
    if (held && money === 'split' && toWorker === null) return setSplitError(MSG.disputes.splitAmountInvalid(formatUsdAmount(held.payment)));
    setSplitError(null);
    setConfirming(true);
  };

  return (
    <div className="card disputes-tab__detail" aria-labelledby={`dispute-${dispute.id}`}>
      <h3 id={`dispute-${dispute.id}`}>
        {dispute.jobTitle}: {dispute.reporterName ?? UNKNOWN_USER} reports {dispute.reportedName ?? UNKNOWN_USER}
      </h3>
      <p className="preserve-lines">{dispute.description}</p>
      <DisputeThreadView disputeId={dispute.id} asAdmin />
      {open ? (
        <form className="form__fields" onSubmit={askToConfirm} noValidate>
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
          {job.isPending ? (
            <LoadingState label="Loading the job's payment..." />
          ) : job.isError ? (
            <p className="field__error">{failureText("Failed to load the job's payment", job.error)}</p>
          ) : held ? (
            <>
              <RadioGroupField
                legend={`The job's payment (${formatCents(held.postedAmount)} held)`}
                name={`money-${dispute.id}`}
                value={money}
                onChange={(event) => setMoney(event.target.value as MoneyChoice)}
              >
                <Radio value="keep">{held.status === 'completed' ? 'Keep held (auto-release resumes)' : 'Keep held'}</Radio>
                {choices.includes('release') ? <Radio value="release">Release {formatCents(held.payment)} to worker</Radio> : null}
                {choices.includes('refund') ? <Radio value="refund">Refund {formatCents(held.postedAmount)} to poster</Radio> : null}
                {choices.includes('split') ? <Radio value="split">Split</Radio> : null}
              </RadioGroupField>
              {money === 'split' ? (
                <TextField
                  label="Amount to the worker (USD)"
                  inputMode="decimal"
                  value={splitText}
                  onChange={(event) => setSplitText(event.target.value)}
                  hasError={splitError !== null}
                  errorMessage={splitError ?? undefined}
                  descriptiveText={
                    toWorker !== null
                      ? `${formatCents(held.postedAmount - toWorker)} is refunded to the poster.`
                      : `Less than the payment of ${formatCents(held.payment)}; the rest of ${formatCents(held.postedAmount)} is refunded to the poster.`
                  }
                />
              ) : null}
            </>
          ) : (
            <p className="note">No payment is held for this job: the resolution moves no money.</p>
          )}
          <Button type="submit" variation="primary" isLoading={resolve.isPending} loadingText="Resolving...">
            Resolve Dispute
          </Button>
        </form>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Resolve this dispute?"
          confirmLabel="Resolve Dispute"
          cancelLabel="Back"
          busy={resolve.isPending}
          onConfirm={() => resolve.mutate()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            <strong>{dispute.jobTitle}</strong>
          </p>
          <p>{moneyConsequence(held, money, toWorker)}</p>
          <p>Both parties are told the resolution{held && money !== 'keep' ? ' and the amounts' : ''}.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** What the confirmed resolution does with the money, in amounts. */
function moneyConsequence(held: JobDetail | null, money: MoneyChoice, toWorker: number | null): string {
  if (!held) return 'No money moves.';
  switch (money) {
    case 'keep':
      return held.status === 'completed'
        ? `The payment of ${formatCents(held.postedAmount)} stays held and its automatic release resumes.`
        : `The payment of ${formatCents(held.postedAmount)} stays held.`;
    case 'release':
      return `${formatCents(held.payment)} is released to the worker. This cannot be undone.`;
    case 'refund':
      return `${formatCents(held.postedAmount)} is refunded to the poster and the job cancelled. This cannot be undone.`;
    case 'split':
      return `${formatCents(toWorker ?? 0)} goes to the worker and ${formatCents(held.postedAmount - (toWorker ?? 0))} is refunded to the poster. This cannot be undone.`;
  }
}
