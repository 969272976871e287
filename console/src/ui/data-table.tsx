// The console's one table: a labelled table of rows with its column headings, or a sentence when there are none.
// Below 640 px the stylesheet lays each row out as a card, every cell on its own line after its column's heading
// (`data-label`, written by `cellLabeller` with the table's roles); the header cells stay for screen readers (docs/console.md, "On a phone").
import { type ReactNode, useMemo } from 'react';
import { cellLabeller } from './cell-labels.js';
import { Empty, Loading } from './status.js';

/** A heading; `num` right-aligns a column of figures; `hidden` keeps a heading for screen readers only. */
export type Column = string | { label: string; num?: boolean; hidden?: boolean };

const asColumn = (c: Column) => (typeof c === 'string' ? { label: c } : c);

export function DataTable<T>(props: {
  label: string;
  columns: Column[];
  rows: T[] | undefined;
  /** Said when the rows have arrived and there are none; nothing while they have not arrived. */
  empty: ReactNode;
  /** The rows are a previous page's or filter's while the asked-for ones load: the table dims and says it is busy. */
  busy?: boolean;
  /** A paged list's total: a page without rows while the list has some is past the last page (its rows were just
   * revoked or removed) and the Pager is moving to the last page with rows, so the table says it is loading instead
   * of `empty`. */
  total?: number | undefined;
  children: (row: T) => ReactNode;
}) {
  const columns = props.columns.map(asColumn);
  // A card shows no label for a column whose heading is hidden (its actions say what they are).
  const labels = columns.map((c) => (c.hidden ? '' : c.label));
  const labelKey = labels.join('\n');
  // the labels' text is the dependency: `labels` is a new array each render
  const labelCells = useMemo(() => cellLabeller(labelKey.split('\n')), [labelKey]);
  if (!props.rows) return null;
  if (props.rows.length === 0) return props.total ? <Loading /> : <Empty>{props.empty}</Empty>;
  return (
    <div className="table-wrap">
      <table ref={labelCells} className="data-table" aria-label={props.label} aria-busy={props.busy ? true : undefined}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} className={column.num ? 'num' : undefined}>
                {column.hidden ? <span className="visually-hidden">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.rows.map(props.children)}</tbody>
      </table>
    </div>
  );
}
