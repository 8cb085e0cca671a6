import { useEffect } from 'preact/hooks';
import { SIGN_IN_PATH } from './api';
import { location, navigate } from './router';
import { routeOf } from './routes';
import { loadSession, session, signOut } from './session';
import { ActivityLogView } from './views/activity-log';
import { Problem } from './views/problem';
import { PullRequestView } from './views/pull-request';
import { QueueView } from './views/queue';
import { RepositoriesView } from './views/repositories';
import { SignInView } from './views/sign-in';
import { SimulatorView } from './views/simulator';
import { StatisticsView } from './views/statistics';
import { TestView } from './views/test';
import { TestsView } from './views/tests';

export function App() {
  const route = routeOf(location.value);
  useEffect(() => {
    if (route.page !== 'sign-in') void loadSession();
  }, [route.page]);
  useEffect(() => {
    if (session.value === null && route.page !== 'sign-in') navigate(SIGN_IN_PATH, true);
  }, [session.value, route.page]);

  if (route.page === 'sign-in')
    return (
      <main id="main">
        <SignInView />
      </main>
    );
  const current = session.value;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <nav aria-label="Dashboard">
          <a href="/ui">Switchyard</a>
        </nav>
        {current && (
          <div class="who">
            <span>
              Signed in as {current.name} ({current.kind.replace('_', ' ')})
            </span>
            <button type="button" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {/* The view starts its reads while the session is asked for: a first page sooner. */}
        {current === null ? null : route.page === 'repositories' ? (
          <RepositoriesView />
        ) : route.page === 'queue' ? (
          <QueueView repository={route.repository} branch={route.branch} />
        ) : route.page === 'statistics' ? (
          <StatisticsView repository={route.repository} branch={route.branch} />
        ) : route.page === 'log' ? (
          <ActivityLogView repository={route.repository} />
        ) : route.page === 'tests' ? (
          <TestsView repository={route.repository} />
        ) : route.page === 'test' ? (
          <TestView repository={route.repository} testId={route.testId} />
        ) : route.page === 'simulator' ? (
          <SimulatorView repository={route.repository} />
        ) : route.page === 'pull' ? (
          <PullRequestView repository={route.repository} number={route.number} />
        ) : (
          <Problem error="There is no such page." />
        )}
      </main>
    </>
  );
}
