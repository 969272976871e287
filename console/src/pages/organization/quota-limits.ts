// The five limits a project quota or a project template sets, in the seed's order, with their labels.
export const limitKeys = [
  ['dailyRequestLimit', 'Requests per day'],
  ['dailyTokenLimit', 'Tokens per day'],
  ['monthlyRequestLimit', 'Requests per month'],
  ['monthlyTokenLimit', 'Tokens per month'],
  ['requestsPerMinuteLimit', 'Requests per minute'],
] as const;
export type LimitKey = (typeof limitKeys)[number][0];
