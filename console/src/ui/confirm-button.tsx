// A destructive action asked twice: the first click offers the confirming button and a way back. The keyboard's
// focus follows: onto the confirming button when it appears, back to the first button after "Keep" or Escape.
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';

export function ConfirmButton(props: {
  label: string;
  confirmLabel: string;
  keepLabel?: string;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  // Set by a choice of the person (not on the first render), so the focus moves only when they acted here.
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    (confirming ? confirm : first).current?.focus();
  }, [confirming]);
  const choose = (next: boolean) => {
    moved.current = true;
    setConfirming(next);
  };
  const cancelOnEscape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    choose(false);
  };
  if (!confirming) {
    return (
      <button ref={first} type="button" className="danger" disabled={props.disabled} onClick={() => choose(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <>
      <button
        ref={confirm}
        type="button"
        className="danger"
        disabled={props.disabled}
        onClick={props.onConfirm}
        onKeyDown={cancelOnEscape}
      >
        {props.confirmLabel}
      </button>
      <button type="button" onClick={() => choose(false)} onKeyDown={cancelOnEscape}>
        {props.keepLabel ?? 'Keep'}
      </button>
    </>
  );
}
