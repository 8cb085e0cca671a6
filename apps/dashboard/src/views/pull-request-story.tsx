import type { ConditionEvaluationJson, PullRequestDetailJson } from '../api-types';
import { relativeTime, type TimelineStep } from '../queue-view-model';

/** Why the pull request left the queue without merging, in plain words; nothing when it did not. */
export function DequeueReasonBanner({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <p class="banner banner-dequeued" role="status" data-testid="dequeue-reason">
      Left the queue without merging. {reason}
    </p>
  );
}

/** Where a queued pull request stands: position, rules, estimated merge, checks and merge conditions. */
export function QueuePlace({ queued, now }: { queued: PullRequestDetailJson; now: number }) {
  return (
    <>
      <h2>In the queue</h2>
      <dl class="facts">
        <dt>Position</dt>
        <dd>{queued.position + 1}</dd>
        <dt>Queue rule</dt>
        <dd>{queued.queue_rule_name}</dd>
        <dt>Priority</dt>
        <dd>{queued.priority_rule_name}</dd>
        <dt>Estimated merge</dt>
        <dd>{relativeTime(queued.estimated_time_of_merge, now)}</dd>
        {queued.mergeability_check && (
          <>
            <dt>Checks</dt>
            <dd>
              {queued.mergeability_check.ci_state} on #{queued.mergeability_check.queue_pull_request_number} (
              {queued.mergeability_check.check_type})
            </dd>
          </>
        )}
      </dl>
      {queued.mergeability_check?.conditions_evaluation && (
        <>
          <h2>Merge conditions</h2>
          <Conditions evaluation={queued.mergeability_check.conditions_evaluation} />
        </>
      )}
    </>
  );
}

/** A condition and its subconditions, each marked as holding or not. */
export function Conditions({ evaluation }: { evaluation: ConditionEvaluationJson }) {
  return (
    <ul class="conditions">
      <li>
        <span class={evaluation.match ? 'holds' : 'fails'}>
          {evaluation.match ? '✓ holds' : '✗ does not hold'}
        </span>{' '}
        <code>{evaluation.label}</code>
        {evaluation.description && <span class="muted"> {evaluation.description}</span>}
        {evaluation.subconditions.length > 0 &&
          evaluation.subconditions.map((sub, index) => <Conditions key={index} evaluation={sub} />)}
      </li>
    </ul>
  );
}

/** The pull request's story, oldest first: each step's time, what happened, and links to its evidence. */
export function Timeline({ steps }: { steps: TimelineStep[] }) {
  return (
    <ol class="timeline">
      {steps.map((step) => (
        <li key={step.id} class={`outcome-${step.outcome}`}>
          <time dateTime={step.at}>{new Date(step.at).toLocaleString()}</time> <strong>{step.title}</strong>
          {step.detail && <span> — {step.detail}</span>}
          {step.links.map((link) => (
            <a key={link.url} href={link.url} rel="noreferrer">
              {link.label}
            </a>
          ))}
        </li>
      ))}
    </ol>
  );
}
