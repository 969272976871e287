// The caller of a gateway route: a project-bound API key, its project and that project's organization.
export type GatewayCaller = {
  accountId: string;
  keyId?: string;
  projectId: string;
  organizationId: string;
};
