import { z } from 'zod';
import { RESOURCE_ID_MAX, resourceIdProblem } from '../resource-id';

/**
 * The schema of every id a call takes (port, subscription, sub-user, top-up, plan): one rule for all
 * of them (`resource-id.ts`), with the message a form shows when nothing was chosen.
 */
export const resourceId = (chooseMessage: string, max: number = RESOURCE_ID_MAX) =>
  z
    .string()
    .min(1, chooseMessage)
    .max(max, `An id has at most ${max} characters`)
    .superRefine((value, context) => {
      const problem = resourceIdProblem(value);
      if (problem !== null && value.length > 0 && value.length <= max) {
        context.addIssue({ code: 'custom', message: `This id ${problem}` });
      }
    });
