// Previous / next paging with the position written out, its numbers thousands-formatted ("Page 2 of 25 (1,234 in all)").
import { formatCount } from '../format.js';

export function Pager(props: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** Names the navigation where a page holds more than one pager. */
  label?: string;
  /** What the total counts, when not everything: "the newest 10,000". */
  totalOf?: string | undefined;
}) {
  const pages = Math.max(1, Math.ceil(props.total / props.pageSize));
  if (props.total <= props.pageSize && props.page === 1) return null;
  return (
    <nav className="pager" aria-label={props.label ?? 'Pages'}>
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous
      </button>
      <span>
        Page {formatCount(props.page)} of {formatCount(pages)} ({props.totalOf ?? `${formatCount(props.total)} in all`})
      </span>
      <button type="button" disabled={props.page >= pages} onClick={() => props.onPage(props.page + 1)}>
        Next
      </button>
    </nav>
  );
}
