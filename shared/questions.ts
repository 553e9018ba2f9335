import { automaticFlagReasons } from './admin.js';

/**
 * Public questions on an open job (issue 45, docs/decisions/0322): any signed-in worker asks,
 * the poster answers once, everyone signed in reads them. They are public, so what job text
 * would be flagged for (contact details, payment outside the platform) is refused outright, and
 * any reader may report one for the admin, who may remove it.
 */

export const QUESTION_LIMITS = {
  question: 500,
  answer: 1000,
  /** Questions one job takes: the job page lists them all, so a job's list stays one small read. */
  perJob: 50,
} as const;

export const QUESTION_TEXTS = {
  heading: 'Questions',
  ask: 'Ask a Question',
  askHint: 'Everyone signed in can read questions and the poster’s answers. Leave out phone numbers, email addresses and payment outside the platform.',
  none: 'No questions yet.',
  asked: 'Question posted! The job poster will be notified.',
  answered: 'Answer posted.',
  postAnswer: 'Post Answer',
  posterAnswer: 'Poster’s answer',
  report: 'Report',
  questionRequired: 'Please write your question',
  answerRequired: 'Please write your answer',
  questionTooLong: `A question can be at most ${QUESTION_LIMITS.question} characters`,
  answerTooLong: `An answer can be at most ${QUESTION_LIMITS.answer} characters`,
  notPublic: 'Questions and answers are public: please leave out phone numbers, email addresses and payment outside the platform.',
  tooMany: 'This job has taken as many questions as it can. Message the poster instead.',
  closed: 'Questions close when the job is no longer open.',
  notFound: 'Question not found',
  alreadyAnswered: 'This question has already been answered',
  askFailed: 'Failed to post your question',
  answerFailed: 'Failed to post your answer',
  loadFailed: 'Failed to load questions',
  onlyWorkers: 'Only workers can ask questions on jobs',
  ownJob: 'You cannot ask a question on your own job',
  cannotReportOwn: 'You cannot report your own question',
  // Notifications
  askedTitle: 'New question',
  askedMessage: (worker: string, title: string) => `${worker} asked a question about "${title}".`,
  answeredTitle: 'Question answered',
  answeredMessage: (title: string) => `The poster of "${title}" answered your question.`,
} as const;

/** Why a question's or an answer's text may not be published, or null (the automatic flags of job text, applied before it is public). */
export const publicTextProblem = (text: string): string | null => (automaticFlagReasons(text).length > 0 ? QUESTION_TEXTS.notPublic : null);
