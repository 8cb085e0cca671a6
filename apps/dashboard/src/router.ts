import { signal } from '@preact/signals';

/** The page's location below /ui; the one source the views route on. */
export const location = signal(window.location.pathname + window.location.search);

export function navigate(to: string, replace = false): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  location.value = to;
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  location.value = window.location.pathname + window.location.search;
});

/** Same-origin links under /ui change the view without reloading the page. */
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
    return;
  const anchor = (event.target as Element | null)?.closest('a');
  if (!anchor || anchor.target || anchor.origin !== window.location.origin) return;
  if (!anchor.pathname.startsWith('/ui') || anchor.pathname.startsWith('/ui/assets/')) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
});
