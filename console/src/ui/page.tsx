// A page: its title (also the document title) and its content.
import { type ReactNode, useEffect } from 'react';

export function Page({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · ockhub`;
  }, [title]);
  return (
    <section className="page">
      <div className="page-head">
        <h1>{title}</h1>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Tabs({ children, label }: { children: ReactNode; label: string }) {
  return (
    <nav className="tabs" aria-label={label}>
      {children}
    </nav>
  );
}
