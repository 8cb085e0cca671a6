import { useSignal } from '@preact/signals';
import { ApiError } from '../api';
import { navigate } from '../router';
import { signIn } from '../session';

/** Takes an application key or service token once; the service answers with a session cookie. */
export function SignInView() {
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = form.elements.namedItem('credential') as HTMLInputElement;
    busy.value = true;
    error.value = null;
    try {
      await signIn(field.value);
      field.value = '';
      navigate('/ui', true);
    } catch (caught) {
      error.value = caught instanceof ApiError ? caught.detail : String(caught);
    } finally {
      busy.value = false;
    }
  };
  return (
    <section class="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Switchyard</h1>
      <p>
        Paste an application key or a service token. It is sent once and kept in a cookie that scripts cannot
        read; sign out to end the session.
      </p>
      <form onSubmit={submit}>
        <label for="credential">Application key or token</label>
        <input
          id="credential"
          name="credential"
          type="password"
          autoComplete="off"
          required
          spellcheck={false}
        />
        <button type="submit" disabled={busy.value}>
          Sign in
        </button>
        {error.value && (
          <p class="error" role="alert">
            {error.value}
          </p>
        )}
      </form>
    </section>
  );
}
