// The organization the console acts in: the caller's organizations (GET /api/organizations), the chosen one kept
// in localStorage (an id, not a secret) and sent as X-Organization-Id by the organization pages.
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { apiData } from '../api/http.js';
import { useMe } from './session.js';

export type Organization = { id: string; name: string; role: 'Admin' | 'Member'; createdAt: string };

const STORAGE_KEY = 'ockhub.organization';

type OrganizationState = {
  organizations: Organization[];
  current: Organization | undefined;
  isPending: boolean;
  select(id: string): void;
};

const OrganizationContext = createContext<OrganizationState>({
  organizations: [],
  current: undefined,
  isPending: false,
  select: () => undefined,
});

export const ORGANIZATIONS_KEY = ['organizations'] as const;

export function OrganizationProvider({ children }: { children: ReactNode }) {
  const me = useMe();
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(STORAGE_KEY));
  const list = useQuery({
    queryKey: ORGANIZATIONS_KEY,
    queryFn: () => apiData<Organization[]>('/api/organizations'),
    enabled: Boolean(me.data),
  });
  const select = useCallback((id: string) => {
    localStorage.setItem(STORAGE_KEY, id);
    setChosen(id);
  }, []);
  const state = useMemo<OrganizationState>(() => {
    const organizations = me.data ? (list.data ?? []) : [];
    const current = organizations.find((o) => o.id === chosen) ?? organizations[0];
    return { organizations, current, isPending: Boolean(me.data) && list.isPending, select };
  }, [me.data, list.data, list.isPending, chosen, select]);
  return <OrganizationContext.Provider value={state}>{children}</OrganizationContext.Provider>;
}

export const useOrganization = () => useContext(OrganizationContext);

/**
 * For a page showing one object of the current organization (a project in its address): when the account switches
 * to another organization, go to `to`. The object's own routes would still answer (the account is in both), so
 * without this the page would show the previous organization's object under the new one's name. A switch to the
 * object's own organization (`objectOrganizationId`, once known: the page itself switches to it) stays.
 */
export function useLeaveOnOrganizationSwitch(to: string, showsAnObject: boolean, objectOrganizationId?: string): void {
  const { current } = useOrganization();
  const navigate = useNavigate();
  const shownFor = useRef(current?.id);
  // The object's organization never changes; kept while a read for it is on its way again.
  const objectOrganization = useRef(objectOrganizationId);
  if (objectOrganizationId) objectOrganization.current = objectOrganizationId;
  useEffect(() => {
    const before = shownFor.current;
    shownFor.current = current?.id;
    if (!showsAnObject || before === undefined || before === current?.id) return;
    if (current?.id !== undefined && current.id === objectOrganization.current) return;
    navigate(to, { replace: true });
  }, [current?.id, showsAnObject, navigate, to]);
}

/**
 * For a page showing one object by its address: when the object belongs to another of the account's organizations
 * than the current one, make that one current (the header's selector, and every tab, then act in it). Answers the
 * organization switched from, to say so.
 */
export function useSwitchToObjectOrganization(objectOrganizationId: string | undefined): Organization | undefined {
  const { current, organizations, select } = useOrganization();
  const [switchedFrom, setSwitchedFrom] = useState<Organization>();
  // Once per object: a later switch in the header is the person's choice (the page then leaves), not undone here.
  const handled = useRef<string>(undefined);
  useEffect(() => {
    if (!objectOrganizationId || !current || handled.current === objectOrganizationId) return;
    handled.current = objectOrganizationId;
    if (current.id === objectOrganizationId || !organizations.some((o) => o.id === objectOrganizationId)) return;
    setSwitchedFrom(current);
    select(objectOrganizationId);
  }, [objectOrganizationId, current, organizations, select]);
  return switchedFrom;
}
