// A labelled form control with its hint and its error, wired for assistive technology (label, aria-describedby,
// aria-invalid). The control is rendered by the caller with the props this passes.
import { type ReactNode, useId } from 'react';

export type ControlProps = { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean };

export function Field(props: {
  label: string;
  hint?: string;
  error?: string | undefined;
  /** Classes beside `field` (how much of a row of fields it takes). */
  className?: string | undefined;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={props.className ? `field ${props.className}` : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(props.error ? { 'aria-invalid': true } : {}),
      })}
      {props.hint ? (
        <small id={hintId} className="hint">
          {props.hint}
        </small>
      ) : null}
      {props.error ? (
        <small id={errorId} className="field-error">
          {props.error}
        </small>
      ) : null}
    </div>
  );
}
