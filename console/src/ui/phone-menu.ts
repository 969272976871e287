// The phone header's Menu (docs/console.md, "On a phone"): a disclosure button and the box it opens. Opening it puts
// the keyboard's focus on its first control; Escape, choosing a link in it, a tap outside it and the focus leaving it
// (Tab past its last control) close it, and going to another page does too (Back included).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

const CONTROLS = 'a[href], button:not([disabled]), select:not([disabled]), input:not([disabled])';

export function usePhoneMenu() {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page's path is the event that closes the menu
  useEffect(() => setOpen(false), [pathname]);

  /** Closes it; `refocus` gives the focus back to Menu, where a keyboard's focus would otherwise be lost. */
  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    const box = boxRef.current;
    const button = buttonRef.current;
    if (!open || !box || !button) return;
    box.querySelector<HTMLElement>(CONTROLS)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close(true);
    };
    // A tap (or click) outside leaves the focus where that tap puts it.
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!box.contains(target) && !button.contains(target)) close(false);
    };
    // A link chosen in it closes it even when it leads to the page shown (the path does not change then); the
    // link is hidden with the menu, so the focus goes back to Menu rather than to the page's top.
    const onClick = (e: MouseEvent) => {
      if ((e.target as Element).closest('a[href]')) close(true);
    };
    // Tab past its last control (or Shift+Tab from its first to anything but Menu) closes it and leaves the focus
    // where Tab put it: a disclosure, not a modal dialog, so the focus is not held inside. A focus going nowhere (the
    // window left, a tap on its text) is not a leaving.
    const onFocusOut = (e: FocusEvent) => {
      const next = e.relatedTarget as Node | null;
      if (next && !box.contains(next) && !button.contains(next)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    box.addEventListener('click', onClick);
    box.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      box.removeEventListener('click', onClick);
      box.removeEventListener('focusout', onFocusOut);
    };
  }, [open, close]);

  const toggle = useCallback(() => setOpen((was) => !was), []);
  return { open, toggle, buttonRef, boxRef };
}
