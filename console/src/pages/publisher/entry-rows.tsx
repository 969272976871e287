// An MCP server's tools, resources, prompts or settings as rows of fields (mcp-entries.ts says which), with "Remove
// resource 2" on each and "Add a resource" under them, which puts the keyboard's focus on the new row's name.
import { useState } from 'react';
import { Field } from '../../ui/field.js';
import { type Entry, type EntryInput, type EntryKind, emptyEntry, entryError, rowName } from './mcp-entries.js';

export function EntryRows(props: {
  kind: EntryKind;
  rows: Entry[];
  error: string | undefined;
  onChange: (rows: Entry[]) => void;
}) {
  const { kind, rows, onChange } = props;
  const [focusName, setFocusName] = useState<number | undefined>();
  const set = (i: number, key: string, value: string) =>
    onChange(rows.map((r, n) => (n === i ? { ...r, values: { ...r.values, [key]: value } } : r)));
  const control = (i: number, row: Entry, input: EntryInput, hint: string | undefined) => {
    const label = `${rowName(kind, i)} ${input.label}`;
    const value = row.values[input.key] ?? '';
    if (input.checkbox) {
      return (
        <label key={input.key} className="row">
          <input
            type="checkbox"
            checked={value === 'true'}
            onChange={(e) => set(i, input.key, e.target.checked ? 'true' : '')}
          />
          {label}
        </label>
      );
    }
    return (
      <Field key={input.key} label={label} {...(hint ? { hint } : {})}>
        {(p) =>
          input.options ? (
            <select {...p} value={value} onChange={(e) => set(i, input.key, e.target.value)}>
              {input.options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          ) : (
            <input
              {...p}
              ref={(element) => {
                if (element && input.key === 'name' && focusName === i) {
                  element.focus();
                  setFocusName(undefined);
                }
              }}
              value={value}
              onChange={(e) => set(i, input.key, e.target.value)}
            />
          )
        }
      </Field>
    );
  };
  return (
    <fieldset className="stack">
      <legend>{kind.legend}</legend>
      {rows.length === 0 ? <p className="muted">No {kind.plural} yet.</p> : null}
      {rows.map((row, i) => {
        const kept = Object.keys(row.kept).sort();
        const keptHint = kept.length ? `Also kept as it came: ${kept.join(', ')}.` : undefined;
        const last = kind.inputs.length - 1;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
          <div key={i} className="row entry-row">
            {kind.inputs.map((input, n) => control(i, row, input, n === last ? keptHint : undefined))}
            <button type="button" onClick={() => onChange(rows.filter((_, n) => n !== i))}>
              Remove {kind.noun} {i + 1}
            </button>
          </div>
        );
      })}
      {props.error ? <small className="field-error">{entryError(kind, props.error)}</small> : null}
      <div>
        <button
          type="button"
          onClick={() => {
            onChange([...rows, emptyEntry(kind)]);
            setFocusName(rows.length);
          }}
        >
          Add a {kind.noun}
        </button>
      </div>
    </fieldset>
  );
}
