// The four built-in project templates (docs/organizations.md explains the numbers); the seed upserts them by name.
import type { TemplateCategory, TemplateConfig } from '../db/schema/index.js';

export type SystemTemplate = {
  name: TemplateCategory;
  description: string;
  tags: string[];
  icon: string;
  config: TemplateConfig;
};

export const systemTemplates: SystemTemplate[] = [
  {
    name: 'Starter',
    description: 'For trying things out and small prototypes.',
    tags: ['starter', 'prototype'],
    icon: 'rocket',
    config: {
      quota: {
        dailyRequestLimit: 1_000,
        dailyTokenLimit: 1_000_000,
        monthlyRequestLimit: 20_000,
        monthlyTokenLimit: 20_000_000,
      },
      rateLimit: { requestsPerMinuteLimit: 20 },
    },
  },
  {
    name: 'Professional',
    description: 'For production applications with steady traffic.',
    tags: ['production', 'team'],
    icon: 'briefcase',
    config: {
      quota: {
        dailyRequestLimit: 10_000,
        dailyTokenLimit: 20_000_000,
        monthlyRequestLimit: 250_000,
        monthlyTokenLimit: 500_000_000,
      },
      rateLimit: { requestsPerMinuteLimit: 120 },
    },
  },
  {
    name: 'Enterprise',
    description: 'For high-volume workloads across many teams.',
    tags: ['enterprise', 'high-volume'],
    icon: 'building',
    config: {
      quota: {
        dailyRequestLimit: 100_000,
        dailyTokenLimit: 200_000_000,
        monthlyRequestLimit: 2_500_000,
        monthlyTokenLimit: 5_000_000_000,
      },
      rateLimit: { requestsPerMinuteLimit: 1_000 },
    },
  },
  {
    name: 'Custom',
    description: 'No preset daily or monthly limits: a starting point to tailor with the project quota.',
    tags: ['custom'],
    icon: 'sliders',
    config: { quota: {}, rateLimit: { requestsPerMinuteLimit: 60 } },
  },
];
