// Previous / next paging with the position written out, its numbers thousands-formatted ("Page 2 of 25 (1,234 in all)").
// It also keeps the page in range: when rows leave the list (a revoke, a delete, a removal, a status filter they no
// longer match) and the page shown is past the last one, it moves to the last page that has rows.
import { useEffect } from 'react';
import { formatCount } from '../format.js';

const lastPage = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

export function Pager(props: {
  page: number;
  pageSize: number;
  /** Undefined while the list has not arrived: nothing is clamped on a count not known yet. */
  total: number | undefined;
  /** `replace` is set when the pager itself moves back into range: a page kept in the URL replaces its entry, so
   * Back does not return to the emptied page (which would move forward again). */
  onPage: (page: number, how?: { replace: boolean }) => void;
  /** Names the navigation where a page holds more than one pager. */
  label?: string;
  /** What the total counts, when not everything: "the newest 10,000". */
  totalOf?: string | undefined;
}) {
  const total = props.total ?? 0;
  const pages = lastPage(total, props.pageSize);
  const { page, onPage } = props;
  const known = props.total !== undefined;
  useEffect(() => {
    if (known && page > pages) onPage(pages, { replace: true });
  }, [known, page, pages, onPage]);
  if (total <= props.pageSize && page === 1) return null;
  return (
    <nav className="pager" aria-label={props.label ?? 'Pages'}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {formatCount(Math.min(page, pages))} of {formatCount(pages)} (
        {props.totalOf ?? `${formatCount(total)} in all`})
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
