// A destructive action asked twice: the first click offers the confirming button and a way back.
import { useState } from 'react';

export function ConfirmButton(props: {
  label: string;
  confirmLabel: string;
  keepLabel?: string;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" className="danger" disabled={props.disabled} onClick={() => setConfirming(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <>
      <button type="button" className="danger" disabled={props.disabled} onClick={props.onConfirm}>
        {props.confirmLabel}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        {props.keepLabel ?? 'Keep'}
      </button>
    </>
  );
}
