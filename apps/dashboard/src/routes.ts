/** The dashboard's paths: which view a /ui path shows, and the paths of each view. */
export type Route =
  | { page: 'sign-in' }
  | { page: 'repositories' }
  | { page: 'queue'; repository: string; branch: string }
  | { page: 'statistics'; repository: string; branch: string }
  | { page: 'pull'; repository: string; number: number }
  | { page: 'log'; repository: string }
  | { page: 'tests'; repository: string }
  | { page: 'test'; repository: string; testId: string }
  | { page: 'simulator'; repository: string }
  | { page: 'not-found' };

/** The view a /ui path shows. */
export function routeOf(path: string): Route {
  const parts = path.split('?')[0].split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'ui') return { page: 'not-found' };
  if (parts.length === 1) return { page: 'repositories' };
  if (parts.length === 2 && parts[1] === 'sign-in') return { page: 'sign-in' };
  if (parts[1] === 'repos' && parts.length === 5 && parts[4] === 'logs')
    return { page: 'log', repository: `${parts[2]}/${parts[3]}` };
  if (parts[1] === 'repos' && parts.length === 5 && parts[4] === 'tests')
    return { page: 'tests', repository: `${parts[2]}/${parts[3]}` };
  if (parts[1] === 'repos' && parts.length === 5 && parts[4] === 'simulator')
    return { page: 'simulator', repository: `${parts[2]}/${parts[3]}` };
  if (parts[1] === 'repos' && parts.length === 6) {
    const repository = `${parts[2]}/${parts[3]}`;
    if (parts[4] === 'queues') return { page: 'queue', repository, branch: parts[5] };
    if (parts[4] === 'pulls' && /^\d+$/.test(parts[5]))
      return { page: 'pull', repository, number: Number(parts[5]) };
    if (parts[4] === 'tests') return { page: 'test', repository, testId: parts[5] };
  }
  if (parts[1] === 'repos' && parts.length === 7 && parts[4] === 'queues' && parts[6] === 'statistics')
    return { page: 'statistics', repository: `${parts[2]}/${parts[3]}`, branch: parts[5] };
  return { page: 'not-found' };
}

export const queueHref = (repository: string, branch: string): string =>
  `/ui/repos/${repository}/queues/${encodeURIComponent(branch)}`;
export const statisticsHref = (repository: string, branch: string): string =>
  `${queueHref(repository, branch)}/statistics`;
export const pullHref = (repository: string, number: number): string =>
  `/ui/repos/${repository}/pulls/${number}`;
export const logHref = (repository: string): string => `/ui/repos/${repository}/logs`;
export const testsHref = (repository: string): string => `/ui/repos/${repository}/tests`;
export const testHref = (repository: string, testId: string): string =>
  `/ui/repos/${repository}/tests/${encodeURIComponent(testId)}`;
export const simulatorHref = (repository: string): string => `/ui/repos/${repository}/simulator`;
