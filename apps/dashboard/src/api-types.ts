/** The parts of the public API's answers (spec/api-spec.md) that the dashboard reads. */

export interface PullRequestJson {
  number: number;
  title: string;
  url: string;
  author: { id: number; login: string };
  queued_at: string;
  priority_alias: string;
  priority_rule_name: string;
  labels: string[];
  scopes: string[];
  estimated_merge_at?: string | null;
  is_frozen?: boolean | null;
  dequeue_requested?: boolean | null;
}

export interface BatchJson {
  id: string;
  name: string;
  parent_ids: string[];
  status: { code: string; retries?: number; max_retries?: number };
  started_at: string | null;
  estimated_merge_at: string | null;
  ci_finished_at: string | null;
  scopes: string[];
  queue_rule_name: string;
  checks_summary: { passed: number; total: number };
  pull_requests: PullRequestJson[];
  queue_pull_request_number?: number | null;
}

export interface QueueStatusJson {
  batches: BatchJson[];
  waiting_pull_requests: PullRequestJson[];
  mode: string;
  pause?: { paused: boolean; reason?: string | null; paused_at?: string | null } | null;
}

export interface ScheduledFreezeJson {
  id: string;
  reason: string;
  start: string;
  end: string | null;
  timezone: string;
}

export interface LogEventJson {
  id: number;
  received_at: string;
  trigger: string;
  pull_request: number | null;
  base_ref: string | null;
  outcome: 'success' | 'failure' | 'pending' | 'neutral';
  type: string;
  metadata: Record<string, unknown>;
}

export interface ConditionEvaluationJson {
  match: boolean;
  label: string;
  description: string | null;
  subconditions: ConditionEvaluationJson[];
}

export interface PullRequestDetailJson {
  number: number;
  queued_at: string;
  estimated_time_of_merge: string | null;
  position: number;
  priority_rule_name: string;
  queue_rule_name: string;
  mergeability_check: {
    check_type: string;
    queue_pull_request_number: number;
    ci_state: string;
    state: string;
    checks: { name: string; state: string; url?: string | null }[];
    conditions_evaluation: ConditionEvaluationJson | null;
  } | null;
}

export interface DequeueImpactJson {
  interrupted_batches: number;
  rechecked_pull_requests: number;
  cascaded_pull_requests: number;
}
