// Small status pieces: loading, empty, an error exactly as the API stated it, and a success notice.
import type { ReactNode } from 'react';
import { ApiError } from '../api/http.js';

export const Loading = ({ label = 'Loading…' }: { label?: string }) => (
  <p className="muted" role="status">
    {label}
  </p>
);

export const Empty = ({ children }: { children: ReactNode }) => <p className="empty">{children}</p>;

/** An error as the API stated it: its message, its stable code, and every field or bundle problem it listed. */
export function FormError({ error }: { error: unknown }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const details = [
    ...(api?.fieldErrors.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)) ?? []),
    ...(api?.problems ?? []),
  ];
  return (
    <div className="error" role="alert">
      <p>
        {message}
        {api ? <span className="code"> ({api.code})</span> : null}
      </p>
      {details.length > 1 || api?.problems.length ? (
        <ul>
          {details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export const Notice = ({ children }: { children: ReactNode }) => (
  <div className="notice" role="status">
    {children}
  </div>
);

/** A status as a coloured badge: its words, or `label` where more than the status is said (a version number). */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span className={`badge badge-${status.replace(/[^a-z_]/gi, '')}`}>{label ?? status.replace(/_/g, ' ')}</span>;
}
