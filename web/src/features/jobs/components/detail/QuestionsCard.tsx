import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { FlagType } from '../../../../../../shared/admin';
import type { JobDetail, JobQuestion } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { QUESTION_LIMITS, QUESTION_TEXTS, publicTextProblem } from '../../../../../../shared/questions';
import { apiErrorText } from '../../../../lib/api/client';
import { queryKeys } from '../../../../lib/api/query-keys';
import { useApi } from '../../../../lib/api/useApi';
import { useAuth } from '../../../../lib/auth/useAuth';
import { FormField } from '../../../../lib/components/FormField';
import { useToast } from '../../../../lib/toast/useToast';
import { answerQuestion } from '../../api/answer-question';
import { askQuestion } from '../../api/ask-question';
import { useJobQuestions } from '../../api/fetch-job-questions';
import { reportQuestion } from '../../api/report-question';
import { ReportDialog } from './ReportDialog';

const postedOn = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/**
 * The job's public questions (issue 45): every signed-in reader sees them with the poster's
 * answers; a worker asks while the job is open, the poster answers each once, anyone but its
 * asker reports one. The text rules are checked here as the server checks them, so the reason
 * shows at once.
 */
export default function QuestionsCard({ job }: { job: JobDetail }) {
  const { userId, profile } = useAuth();
  const questions = useJobQuestions(job.id);
  const isPoster = userId === job.posterId;
  const mayAsk = profile?.role === 'worker' && !isPoster && job.status === 'open';

  return (
    <section className="card questions" id="questions" aria-labelledby="questions-heading">
      <h2 id="questions-heading">{QUESTION_TEXTS.heading}</h2>
      {mayAsk ? <AskQuestionForm jobId={job.id} /> : null}
      {questions.isPending ? <p className="muted">Loading questions...</p> : null}
      {questions.isError ? (
        <p className="notice notice--warning" role="status">
          {QUESTION_TEXTS.loadFailed}{' '}
          <button type="button" className="button button--small button--secondary" onClick={() => void questions.refetch()}>
            Try again
          </button>
        </p>
      ) : null}
      {questions.isSuccess && questions.data.length === 0 ? <p className="muted">{QUESTION_TEXTS.none}</p> : null}
      {questions.isSuccess && questions.data.length > 0 ? (
        <ul className="questions__list">
          {questions.data.map((question) => (
            <li key={question.id}>
              <QuestionEntry job={job} question={question} isPoster={isPoster} mayReport={userId !== null && userId !== question.askerId && profile?.role !== 'admin'} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** A text form of the card (a question, an answer): the server's text rules first, then the call; the job's questions read again. */
function useQuestionText(jobId: string, send: (text: string) => Promise<unknown>, texts: { required: string; done: string; failed: string }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = text.trim() === '' ? texts.required : publicTextProblem(text);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      await send(text.trim());
      toast.success(texts.done);
      setText('');
    } catch (failure) {
      toast.error(apiErrorText(failure, texts.failed));
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.jobQuestions(jobId) });
    }
  }
  return { text, setText, error, busy, submit };
}

function AskQuestionForm({ jobId }: { jobId: string }) {
  const api = useApi();
  const form = useQuestionText(jobId, (text) => askQuestion(api, jobId, text), { required: QUESTION_TEXTS.questionRequired, done: QUESTION_TEXTS.asked, failed: QUESTION_TEXTS.askFailed });
  return (
    <form className="questions__form" onSubmit={(event) => void form.submit(event)} noValidate>
      <FormField label="Your question" error={form.error} hint={QUESTION_TEXTS.askHint}>
        {(control) => <textarea {...control} rows={3} maxLength={QUESTION_LIMITS.question} value={form.text} onChange={(event) => form.setText(event.target.value)} />}
      </FormField>
      <button type="submit" className="button button--small" disabled={form.busy}>
        {form.busy ? 'Posting...' : QUESTION_TEXTS.ask}
      </button>
    </form>
  );
}

function AnswerForm({ jobId, question }: { jobId: string; question: JobQuestion }) {
  const api = useApi();
  const form = useQuestionText(jobId, (text) => answerQuestion(api, jobId, question.id, text), { required: QUESTION_TEXTS.answerRequired, done: QUESTION_TEXTS.answered, failed: QUESTION_TEXTS.answerFailed });
  return (
    <form className="questions__form" onSubmit={(event) => void form.submit(event)} noValidate aria-label={`Answer the question from ${question.askerName ?? 'a worker'}`}>
      <FormField label="Your answer" error={form.error}>
        {(control) => <textarea {...control} rows={2} maxLength={QUESTION_LIMITS.answer} value={form.text} onChange={(event) => form.setText(event.target.value)} />}
      </FormField>
      <button type="submit" className="button button--small" disabled={form.busy}>
        {form.busy ? 'Posting...' : QUESTION_TEXTS.postAnswer}
      </button>
    </form>
  );
}

function QuestionEntry({ job, question, isPoster, mayReport }: { job: JobDetail; question: JobQuestion; isPoster: boolean; mayReport: boolean }) {
  const api = useApi();
  const toast = useToast();
  const [reporting, setReporting] = useState(false);
  const [reported, setReported] = useState(false);
  const asker = question.askerName ?? 'A former member';

  async function report(flagType: FlagType, reason: string) {
    try {
      await reportQuestion(api, job.id, question.id, flagType, reason);
      toast.success(MSG.flags.reported);
      setReported(true);
    } catch (failure) {
      toast.error(apiErrorText(failure, MSG.flags.reportFailed));
    } finally {
      setReporting(false);
    }
  }

  return (
    <article className="question" aria-label={`Question from ${asker}`}>
      <p className="question__meta">
        <strong>{asker}</strong> <span className="muted">· {postedOn(question.createdAt)}</span>
      </p>
      <p className="preserve-lines question__text">{question.text}</p>
      {question.answer !== null ? (
        <div className="question__answer">
          <p className="question__meta">
            <strong>{QUESTION_TEXTS.posterAnswer}</strong>
          </p>
          <p className="preserve-lines">{question.answer}</p>
        </div>
      ) : isPoster && job.status !== 'cancelled' ? (
        <AnswerForm jobId={job.id} question={question} />
      ) : null}
      {mayReport && !reported ? (
        <button type="button" className="button button--small button--ghost" onClick={() => setReporting(true)}>
          {QUESTION_TEXTS.report}
          <span className="visually-hidden"> the question from {asker}</span>
        </button>
      ) : null}
      {reporting ? <ReportDialog title="Report this question" onReport={report} onCancel={() => setReporting(false)} /> : null}
    </article>
  );
}
