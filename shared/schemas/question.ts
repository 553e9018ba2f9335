import * as z from '../zod.js';
import { QUESTION_LIMITS, QUESTION_TEXTS } from '../questions.js';
import { requiredText } from '../text.js';

/** The body of POST /jobs/{id}/questions: the worker's public question (issue 45). */
export const askQuestionSchema = z.object({
  text: requiredText(QUESTION_TEXTS.questionRequired, z.maxLength(QUESTION_LIMITS.question, QUESTION_TEXTS.questionTooLong)),
});

/** The body of POST /jobs/{id}/questions/{questionId}/answer: the poster's public answer. */
export const answerQuestionSchema = z.object({
  answer: requiredText(QUESTION_TEXTS.answerRequired, z.maxLength(QUESTION_LIMITS.answer, QUESTION_TEXTS.answerTooLong)),
});
